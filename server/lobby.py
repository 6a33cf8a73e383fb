"""The tables of this server: which exist, making new ones, finding one, and retiring idle ones.

A restart reads only the tables' rows (fast, whatever their history): every table answers at once,
and each game is read from the store when it is first needed, the playing ones in the background
so that their bots and timers go on. Finished tables stay in the store and are read on demand; the lobby
keeps the ids of them all (an index), so that asking for a table that does not exist costs no read.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.engine.interface import Rules
from tenpennies.engine.tournament import MAX_SEED
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import VISITORS_PER_ADDRESS
from tenpennies.wire.errors import BadRequest

from .store import OPEN_STATUSES, SeatRow, Store, TableRow
from .table import (
    Full,
    NotFound,
    PasswordChecks,
    PermissionDenied,
    Settings,
    Table,
    TableError,
    clean_name,
    hash_token,
)

log = logging.getLogger(__name__)



def address_of(client: str) -> str:
    """The address of a client (``ipv4:10.0.0.7#visitor``: one visitor of ``tenpennies web`` there)."""
    return client.partition("#")[0]


class TableWatcher:
    """One WatchTables stream: the tables that changed since it last looked, each once, as they are now
    (so a slow watcher costs at most one entry per table, however busy the tables are)."""

    def __init__(self) -> None:
        self.pending: dict[str, pb.TableInfo | None] = {}  # None: the table is gone
        self.wake = asyncio.Event()

    def put(self, table_id: str, info: pb.TableInfo | None) -> None:
        self.pending[table_id] = info
        self.wake.set()

    async def next(self) -> tuple[list[pb.TableInfo], list[str]]:
        """The tables changed and the ids of those gone since the last call (waits for one)."""
        await self.wake.wait()
        self.wake.clear()
        pending, self.pending = self.pending, {}
        return ([info for info in pending.values() if info is not None],
                [table_id for table_id, info in pending.items() if info is None])


def new_watcher(watchers: dict[TableWatcher, str], client: str, most: int, per_client: int) -> TableWatcher:
    """A new lobby stream of ``client``'s, in ``watchers`` (each stream's client): Full when the server has
    ``most`` already, the client ``per_client``, or its address that many for each of its visitors
    (``VISITORS_PER_ADDRESS``)."""
    if len(watchers) >= most:
        raise Full(f"this server already serves {most} lobby streams")
    if sum(1 for c in watchers.values() if c == client) >= per_client:
        raise Full(f"you already watch the lobby {per_client} times")
    address = address_of(client)
    if sum(1 for c in watchers.values() if address_of(c) == address) >= per_client * VISITORS_PER_ADDRESS:
        raise Full(f"this address already watches the lobby {per_client * VISITORS_PER_ADDRESS} times")
    watcher = TableWatcher()
    watchers[watcher] = client
    return watcher


class Lobby:
    MAX_TABLES = 5000    # open tables (waiting or playing)
    MAX_FINISHED = 32    # finished tables kept in memory (the rest are read from the store when asked)
    FINISHED_LINGER = 60.0  # seconds a finished table nobody watches stays in memory after it finished or was read
    MAX_WATCHERS = 1000  # WatchTables streams at once
    WATCHERS_PER_ADDRESS = 8

    def __init__(self, store: Store, *, allow_seeds: bool = False, waiting_table_ttl: float = 3600,
                 tables_per_address: int = 20) -> None:
        self.store = store
        self.allow_seeds = allow_seeds
        self.waiting_table_ttl = waiting_table_ttl
        self.tables_per_address = tables_per_address
        self.tables: dict[str, Table] = {}
        self.passwords = PasswordChecks()  # every password hashed here, shared fairly among clients
        self.finished: set[str] = set()  # the ids of every finished table, in memory or only in the store
        # the open tables (waiting or playing) as the lobby last heard of them: id -> creator, and how many
        # each creator has, so that a refusal at a limit is counted, not searched for
        self._open: dict[str, str] = {}
        self._open_by: Counter[str] = Counter()
        self._open_by_address: Counter[str] = Counter()  # the same, by address (visitors of one address together)
        self.watchers: dict[TableWatcher, str] = {}  # watcher -> its client (address_of: its address)
        self._creating: list[str] = []  # the creators (clients) of tables being made right now
        self._reading: dict[str, asyncio.Task[Table | None]] = {}
        self._kept_since: dict[str, float] = {}  # finished table in memory -> since when (monotonic) nobody watched
        self._background: set[asyncio.Task[Any]] = set()
        self.listeners: list[Callable[[Table], None]] = []  # told of every change TableInfo shows

    async def load(self) -> None:
        """The open tables' rows from the store (not their games: see ``start``), and the finished ones' ids."""
        self.finished = await self.store.finished_ids()
        for row in await self.store.list_tables():
            try:
                table = Table(row, self.store, loaded=False, ttl=self.waiting_table_ttl)
            except (LookupError, BadRequest):  # a game this server does not have: the others go on
                log.error("table %s plays %r, a game this server does not have: left in the store", row.id,
                          row.game)
                continue
            self._add(table)

    def _add(self, table: Table) -> Table:
        table.on_change = self._changed
        table.passwords = self.passwords
        self.tables[table.id] = table
        self._changed(table)
        return table

    def _count_open(self, table_id: str, creator: str, is_open: bool) -> None:
        if is_open and table_id not in self._open:
            self._open[table_id] = creator
            self._open_by[creator] += 1
            self._open_by_address[address_of(creator)] += 1
        elif not is_open and table_id in self._open:
            del self._open[table_id]
            for counter, key in ((self._open_by, creator), (self._open_by_address, address_of(creator))):
                counter[key] -= 1
                if not counter[key]:
                    del counter[key]

    def _changed(self, table: Table) -> None:
        self._count_open(table.id, table.creator, table.status in OPEN_STATUSES)
        if table.status == "finished" and table.id not in self.finished:
            self.finished.add(table.id)
            self._kept_since[table.id] = time.monotonic()
            self._spawn(self._forget_finished())
        for listener in self.listeners:
            listener(table)
        if self.watchers:
            info = table.info()
            for watcher in self.watchers:
                watcher.put(table.id, info)

    def _gone(self, table_id: str) -> None:
        gone = self.tables.pop(table_id, None)
        self._kept_since.pop(table_id, None)
        if gone is not None:
            self._count_open(table_id, gone.creator, False)
        for watcher in self.watchers:
            watcher.put(table_id, None)

    def watch(self, client: str) -> tuple[list[pb.TableInfo], TableWatcher]:
        """Every listed table now, and a watcher that will hold each change after it. ``client``: who asks
        (an address, or an address and the visitor it speaks for: ``address_of``)."""
        watcher = new_watcher(self.watchers, client, self.MAX_WATCHERS, self.WATCHERS_PER_ADDRESS)
        return [t.info() for t in self.listed()], watcher

    def unwatch(self, watcher: TableWatcher) -> None:
        self.watchers.pop(watcher, None)

    def start(self) -> None:
        """Background work: read the playing games, so that their bots and timers go on; retire
        waiting tables that have been idle for their time to live."""
        self._spawn(self._read_playing())
        if self.waiting_table_ttl:
            self._spawn(self._retire_idle())

    async def _read_playing(self) -> None:
        for table in [t for t in self.tables.values() if t.status == "playing" and not t.loaded]:
            try:
                await table.ensure_loaded()
            except Exception:  # one unreadable game must not keep the others from being read
                log.exception("could not read the game of table %s", table.id)

    async def _retire_idle(self) -> None:
        interval = min(60.0, max(0.2, self.waiting_table_ttl / 4))
        while True:
            await asyncio.sleep(interval)
            now = time.time()
            for table in [t for t in self.tables.values() if t.idle]:
                try:
                    expired = await table.expire_if_idle(now)
                except TableError:
                    continue  # closed or gone meanwhile: nothing to retire
                if expired:
                    self._gone(table.id)
                    await table.close()

    async def close_waiting(self, table_id: str, host_token: str) -> None:
        """The host closes a waiting table: gone from the lobby at once, and its share of the host's open
        tables freed."""
        table = await self.get(table_id)

        async def close() -> None:  # whole, even if the request is cancelled: a table half closed holds a share
            await table.close_waiting(host_token)
            self._gone(table_id)
            await table.close()
        await asyncio.shield(self._spawn(close()))

    async def create(self, name: str, seats: int, rules: Rules, settings: Settings, seed: int | None,
                     creator: str, *, password: str = "", game: str = DEFAULT_GAME,
                     client: str = "") -> tuple[Table, str]:
        """A new waiting table of ``game`` (by its name in engine.games), and its host's token. Once its slot
        is taken the table is made whatever happens to the request (a table nobody hears of expires like any
        idle one). With a ``password``, a private table: its slow hash is made only for a creator with room
        and a request otherwise good, holding the slot meanwhile, in ``client``'s turn among the server's password
        checks (``client``: the connection asking)."""
        self._check_room(creator)
        name = self._checked(name, game, seats, rules, settings, seed)
        if password:
            self._creating.append(creator)
            try:
                await settings.lock(password, self.passwords, client or creator)
            finally:
                self._creating.remove(creator)
        return await self._create_now(name, game, seats, rules, settings, seed, creator)

    async def create_hosted(self, name: str, seats: int, rules: Rules, settings: Settings, seed: int,
                            host: str, *, game: str = DEFAULT_GAME) -> tuple[Table, str]:
        """A table the server itself hosts (a tournament's): the server's seed, which the table does not
        show, and no per-address share (the server's limit on open tables still holds)."""
        self._check_room(host, share=False)
        name = self._checked(name, game, seats, rules, settings, seed, own_seed=True)
        return await self._create_now(name, game, seats, rules, settings, seed, host, own_seed=True)

    def _checked(self, name: str, game: str, seats: int, rules: Rules, settings: Settings, seed: int | None,
                 own_seed: bool = False) -> str:
        """Every cheap refusal of a new table (its game, rules, timers, seed, name), before anything slow;
        the table's name, cleaned."""
        try:
            kind(game).validate(rules, seats)
        except LookupError as error:
            raise BadRequest(str(error)) from None
        settings.validate()
        if seed is not None and not own_seed:
            if not self.allow_seeds:
                raise PermissionDenied("this server does not take client-chosen seeds: whoever knows the seed "
                                       "foresees every deal (a server for tests or tournaments is started "
                                       "with --allow-seeds)")
            if not 0 <= seed <= MAX_SEED:
                raise BadRequest(f"seed: a seed is 0 to {MAX_SEED}")
        return clean_name(name or "table")

    async def _create_now(self, name: str, game: str, seats: int, rules: Rules, settings: Settings,
                          seed: int | None, creator: str, own_seed: bool = False) -> tuple[Table, str]:
        self._creating.append(creator)  # holds the slot while the row is written: until the making ends, not
        # the request (cut by its deadline, the request ends at once while the table is still being made)
        making = self._spawn(self._create(name, game, seats, rules, settings, seed, creator, own_seed))
        making.add_done_callback(lambda _: self._creating.remove(creator))
        return await asyncio.shield(making)

    def _check_room(self, creator: str, share: bool = True) -> None:
        """The server's limit on open tables, and (``share``) one address's fair share of them."""
        if len(self._open) + len(self._creating) >= self.MAX_TABLES:
            raise Full("this server has as many open tables as it can hold")
        mine = self._open_by[creator] + self._creating.count(creator)
        if share and mine >= self.tables_per_address:
            raise Full(f"you already have {mine} open tables here: finish or leave some first")
        address = address_of(creator)
        ours = self._open_by_address[address] + sum(1 for c in self._creating if address_of(c) == address)
        if share and ours >= self.tables_per_address * VISITORS_PER_ADDRESS:
            raise Full(f"your address already has {ours} open tables here: finish or leave some first")

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def _create(self, name: str, game: str, seats: int, rules: Rules, settings: Settings, seed: int | None,
                      creator: str, own_seed: bool = False) -> tuple[Table, str]:
        await self._forget_finished()
        host_token = secrets.token_urlsafe(24)
        settings.seeded = seed is not None and not own_seed
        settings.host_token_hash = hash_token(host_token)
        table_id = secrets.token_hex(4)
        row = TableRow(table_id, name, seats, kind(game).rules_to_dict(rules), settings.__dict__.copy(),
                       seed if seed is not None else secrets.randbits(63), "waiting", time.time(),
                       seat_rows=[SeatRow(s, "empty") for s in range(seats)], creator=creator, game=game)
        await self.store.create_table(row)
        return self._add(Table(row, self.store, ttl=self.waiting_table_ttl)), host_token

    async def get(self, table_id: str) -> Table:
        """A table by id: in memory, or a finished one read from the store."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id not in self.finished:  # no such table, or a waiting one that expired: nothing to read
            raise NotFound(f"no table {table_id!r}")
        reading = self._reading.get(table_id)
        if reading is None:  # one read per table, however many ask at once
            reading = self._reading[table_id] = asyncio.ensure_future(self._read_finished(table_id))
            reading.add_done_callback(lambda _: self._reading.pop(table_id, None))
        found = await asyncio.shield(reading)
        if found is None:
            raise NotFound(f"no table {table_id!r}")
        return found

    async def _read_finished(self, table_id: str) -> Table | None:
        row = await self.store.load_table(table_id)
        if row is None or row.status != "finished":
            return None  # unknown, or a waiting table that expired
        await self._forget_finished(room_for=1)
        known = self.tables.get(table_id)
        if known is not None:
            return known
        self._kept_since[table_id] = time.monotonic()
        return self._add(Table(row, self.store))

    async def _forget_finished(self, room_for: int = 0) -> None:
        """Keep at most MAX_FINISHED finished tables in memory: the oldest nobody watches go."""
        finished = [t for t in self.tables.values() if t.status == "finished" and not t.subscribers]
        for table in finished[:max(0, len(finished) + room_for - self.MAX_FINISHED)]:
            self._gone(table.id)
            await table.close()

    async def forget_lingering(self) -> int:
        """Finished tables nobody has watched for FINISHED_LINGER seconds leave memory (read back on demand), so
        that once the players have gone their tables go too; how many went."""
        now = time.monotonic()
        lingering = []
        for table in [t for t in self.tables.values() if t.status == "finished"]:
            if table.subscribers:
                self._kept_since[table.id] = now
            elif now - self._kept_since.setdefault(table.id, now) >= self.FINISHED_LINGER:
                lingering.append(table)
        for table in lingering:
            self._gone(table.id)
            await table.close()
        return len(lingering)

    def listed(self) -> list[Table]:
        return [table for table in self.tables.values() if table.status != "expired"]

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await asyncio.gather(*(table.close() for table in self.tables.values()))
