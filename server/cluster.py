"""Tables on several machines: ``tenpennies serve --cluster nats://HOST:4222``.

Each machine runs its own server (a front, ``front.py``, and its workers) at its own address, and keeps its
tables, their timers and their store on its own disk. What the machines share lives in NATS JetStream
key-value buckets (docs/SCALING.md says why NATS):

- ``tp_placement``: table id -> the id of the machine that holds it, written once, before ``CreateTable``
  answers; every front watches it, so each knows where every table is (its *directory*).
- ``tp_tables``: table id -> the machine's id and the table's ``TableInfo``, the lobby: each machine writes
  its own tables' entries (coalesced: a busy table's newest state replaces any not yet sent, never the other
  way round) and every front watches the whole bucket, so ``ListTables``, ``WatchTables`` and the LAN record
  show every machine's tables at every machine's address.
- ``tp_hosts``: machine id -> the address its front answers at and its certificate (a TLS server's: the
  others' fronts trust that certificate alone for it); and ``secret``, made by the first machine:
  a front passes a request for another machine's table to that machine's front with the secret
  (``forwarded.CLUSTER_METADATA``), which then believes the client the request names (``forwarded.PEER_METADATA``) for
  its limits, as a worker believes its front.

A machine's id is kept beside its store (``<db>.cluster``): the store is the machine's identity, so its tables
map to it across restarts. A machine that goes away pauses only its own tables (a request for one waits for it,
up to the request's deadline) and keeps its lobby entries; back, it serves them again with everything
acknowledged. NATS itself is the trust root: whoever reaches it reads the secret, so only the servers may
(bind it to their network, or give it users: ``nats://user:password@host:4222``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tenpennies.v2 import tenpennies_pb2 as pb

log = logging.getLogger(__name__)

HOSTS = "tp_hosts"
PLACEMENT = "tp_placement"
TABLES = "tp_tables"
SECRET = "secret"  # the key in HOSTS of the secret the fronts prove themselves to each other with
PUT_PAUSE = 0.5  # seconds before trying again to write what NATS did not take
PLACED_WAIT = 5.0  # seconds CreateTable waits for its placement to be written (then it is written later)
WATCH_AGAIN = 5.0  # seconds a watch begun again after NATS was away may take to deliver what there is


def machine_id(db: str) -> str:
    """This machine's id in the cluster, kept beside its store (made at the first start)."""
    path = Path(f"{db}.cluster")
    try:
        known = path.read_text().strip()
    except FileNotFoundError:
        known = ""
    if known:
        return known
    made = secrets.token_hex(4)
    path.write_text(made + "\n")
    return made


def reachable_address(url: str, host: str, port: int) -> str:
    """The address other machines reach this one at: the host it listens on, or (listening on every
    interface) this machine's address on the way to the NATS server."""
    if host not in ("", "0.0.0.0", "::", "[::]"):
        return f"{host}:{port}"
    first = urlsplit(url.split(",")[0] if "://" in url else f"nats://{url}")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect((first.hostname or "127.0.0.1", first.port or 4222))  # (no packet is sent)
        return f"{probe.getsockname()[0]}:{port}"


def table_entry(machine: str, info: pb.TableInfo) -> bytes:
    return machine.encode() + b"\n" + info.SerializeToString()


def read_entry(value: bytes) -> tuple[str, pb.TableInfo]:
    machine, _, rest = value.partition(b"\n")
    return machine.decode(), pb.TableInfo.FromString(rest)


class Cluster:
    """This machine's link to the others: what it tells them (its address, its tables' places and lobby
    entries) and what it hears (theirs), passed on to the front through ``heard_host``, ``heard_place`` and
    ``heard_table``."""

    def __init__(self, url: str, machine: str, address: str, certificate: bytes | None = None) -> None:
        self.url = url
        self.machine = machine
        self.address = address
        self.certificate = certificate  # the PEM this machine serves (None: plaintext)
        self.secret = ""
        self.nc: Any = None
        self.hosts: Any = None
        self.placement: Any = None
        self.tables: Any = None
        self.places: dict[str, str] = {}  # every table id -> its machine, as the directory shows it
        self.listed: dict[str, str] = {}  # tables in the shared lobby -> their machine
        self._to_write: dict[str, pb.TableInfo | None] = {}  # this machine's lobby entries not yet written
        self._to_place: set[str] = set()
        self._wrote = asyncio.Event()
        self._tasks: list[asyncio.Task[Any]] = []
        self._watchers: list[Any] = []
        self._following: list[asyncio.Task[None]] = []
        self._rewatching: asyncio.Task[None] | None = None
        # set by the front
        self.heard_host: Callable[[str, str, bytes | None], None] = lambda machine, address, certificate: None
        self.heard_place: Callable[[str, str], None] = lambda table_id, machine: None
        self.heard_table: Callable[[str, str, pb.TableInfo | None], None] = lambda table_id, machine, info: None

    async def join(self) -> None:
        """Connect, make the buckets if this is the first machine, say where this one is, and learn the whole
        directory and lobby (returns once both are known, so the front serves them whole from its first
        request)."""
        try:
            import nats
        except ModuleNotFoundError:
            raise RuntimeError("--cluster needs the nats-py package: pip install 'tenpennies[cluster]'") from None
        self.nc = await nats.connect(self.url, name=f"tenpennies {self.machine}", max_reconnect_attempts=-1,
                                     reconnect_time_wait=0.5, connect_timeout=5, error_cb=self._trouble,
                                     disconnected_cb=self._away, reconnected_cb=self._back)
        js = self.nc.jetstream()
        self.hosts = await self._bucket(js, HOSTS)
        self.placement = await self._bucket(js, PLACEMENT)
        self.tables = await self._bucket(js, TABLES)
        await self._agree_secret()
        certificate = self.certificate.decode() if self.certificate else None
        await self.hosts.put(self.machine, json.dumps({"address": self.address, "certificate": certificate}).encode())
        await self._watch()
        self._tasks.append(asyncio.ensure_future(self._write_all()))

    async def _watch(self) -> None:
        """Watch the three buckets: every key's newest value, then each change (returns once the values so far
        have come)."""
        known = [asyncio.Event() for _ in range(3)]
        for bucket, heard, done in ((self.hosts, self._host, known[0]), (self.placement, self._place, known[1]),
                                    (self.tables, self._table, known[2])):
            watcher = await bucket.watchall()
            self._watchers.append(watcher)
            self._following.append(asyncio.ensure_future(self._follow(watcher, heard, done)))
        await asyncio.gather(*(event.wait() for event in known))

    async def _watch_again(self) -> None:
        """After NATS was away: the watches begin again (each key's newest value, deletions among them), at once
        rather than when the old ones notice the gap, trying until JetStream answers."""
        old, following = self._watchers, self._following
        self._watchers, self._following = [], []
        for task in following:
            task.cancel()
        for watcher in old:
            with contextlib.suppress(Exception):
                await watcher.stop()
        while True:
            try:
                await asyncio.wait_for(self._watch(), WATCH_AGAIN)
                return
            except Exception as error:  # (JetStream still starting: its streams come back from disk)
                log.warning("cluster: watching again: %s", error or type(error).__name__)
                for task in self._following:
                    task.cancel()
                for watcher in self._watchers:
                    with contextlib.suppress(Exception):
                        await watcher.stop()
                self._watchers, self._following = [], []
                await asyncio.sleep(PUT_PAUSE)

    async def _trouble(self, error: Exception) -> None:
        log.warning("cluster: NATS: %s", error or type(error).__name__)  # (said once a try, not a traceback)

    async def _away(self) -> None:
        log.warning("cluster: NATS is away; this machine's tables go on, the others hear of them once it is back")

    async def _back(self) -> None:
        log.warning("cluster: NATS is back")
        self._wrote.set()
        if self._rewatching is not None:
            self._rewatching.cancel()
        self._rewatching = asyncio.ensure_future(self._watch_again())

    @staticmethod
    async def _bucket(js: Any, name: str) -> Any:
        from nats.js.errors import BucketNotFoundError
        try:
            return await js.key_value(name)
        except BucketNotFoundError:
            return await js.create_key_value(bucket=name, history=1)

    async def _agree_secret(self) -> None:
        from nats.js.errors import KeyWrongLastSequenceError
        with contextlib.suppress(KeyWrongLastSequenceError):
            await self.hosts.create(SECRET, secrets.token_urlsafe(32).encode())
        self.secret = (await self.hosts.get(SECRET)).value.decode()

    async def _follow(self, watcher: Any, heard: Callable[[str, bytes | None], None], known: asyncio.Event
                      ) -> None:
        async for entry in watcher:
            if entry is None:  # every key's value so far has come
                known.set()
                continue
            try:
                heard(entry.key, None if entry.operation in ("DEL", "PURGE") else entry.value)
            except Exception:  # (one bad entry must not stop the machine hearing the others)
                log.exception("cluster: could not read %s", entry.key)
            if entry.delta == 0:
                known.set()

    def _host(self, key: str, value: bytes | None) -> None:
        if key != SECRET and key != self.machine and value is not None:
            record = json.loads(value)
            certificate = record.get("certificate")
            self.heard_host(key, record["address"], certificate.encode() if certificate else None)

    def _place(self, table_id: str, value: bytes | None) -> None:
        if value is not None:
            self.places[table_id] = value.decode()
            self.heard_place(table_id, value.decode())

    def _table(self, table_id: str, value: bytes | None) -> None:
        if value is None:
            machine = self.listed.pop(table_id, None)
            if machine is not None and machine != self.machine:
                self.heard_table(table_id, machine, None)
            return
        machine, info = read_entry(value)
        self.listed[table_id] = machine
        if machine != self.machine:
            self.heard_table(table_id, machine, info)

    # --- what this machine tells the others ---

    def tell(self, info: pb.TableInfo | None, table_id: str) -> None:
        """A table of this machine's changed (``info``) or left its lobby (None): written soon, the newest
        state replacing any not yet written."""
        self._to_write[table_id] = info
        self._wrote.set()

    def place(self, table_id: str) -> None:
        if self.places.get(table_id) != self.machine:
            self._to_place.add(table_id)
            self._wrote.set()

    async def placed(self, table_id: str) -> None:
        """The table is this machine's in the directory (CreateTable answers after it; if NATS cannot take it
        within ``PLACED_WAIT`` it is written later: the table is served at this machine's address meanwhile)."""
        self.place(table_id)
        if not self.nc.is_connected:
            return  # (written once NATS is back: the maker is not kept waiting for it)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.placement.put(table_id, self.machine.encode()), PLACED_WAIT)
            self.places[table_id] = self.machine
            self._to_place.discard(table_id)

    def reconcile(self, mine: dict[str, pb.TableInfo], every: list[str]) -> None:
        """At start: this machine's tables (``every``, open or finished; ``mine``: those in its lobby) are
        placed, listed as they are now, and its entries of tables no longer in its lobby are removed."""
        for table_id in every:
            self.place(table_id)
        for table_id, machine in list(self.listed.items()):
            if machine == self.machine and table_id not in mine:
                self.tell(None, table_id)
        for table_id, info in mine.items():
            self.tell(info, table_id)

    async def _write_all(self) -> None:
        while True:
            await self._wrote.wait()
            self._wrote.clear()
            placing, self._to_place = self._to_place, set()
            writing, self._to_write = self._to_write, {}
            jobs = [self._put_place(table_id) for table_id in placing]
            jobs += [self._put_table(table_id, info) for table_id, info in writing.items()]
            failed = [outcome for outcome in await asyncio.gather(*jobs, return_exceptions=True) if outcome]
            if failed:
                if self.nc.is_connected:
                    log.warning("cluster: NATS took %d of %d writes; trying again", len(jobs) - len(failed), len(jobs))
                await asyncio.sleep(PUT_PAUSE)

    async def _put_place(self, table_id: str) -> bool:
        try:
            await self.placement.put(table_id, self.machine.encode())
            self.places[table_id] = self.machine
            return False
        except Exception:
            self.place(table_id)
            return True

    async def _put_table(self, table_id: str, info: pb.TableInfo | None) -> bool:
        try:
            if info is None:
                if self.listed.get(table_id) == self.machine:
                    await self.tables.delete(table_id)
            else:
                await self.tables.put(table_id, table_entry(self.machine, info))
            return False
        except Exception:
            self._to_write.setdefault(table_id, info)  # (unless a newer state came meanwhile)
            self._wrote.set()
            return True

    async def close(self) -> None:
        """Write what is left (briefly), then leave."""
        for _ in range(10):
            if not (self._to_write or self._to_place):
                break
            await asyncio.sleep(0.05)
        tasks = [*self._tasks, *self._following, *([self._rewatching] if self._rewatching else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for watcher in self._watchers:
            with contextlib.suppress(Exception):
                await watcher.stop()
        if self.nc is not None:
            with contextlib.suppress(Exception):
                await self.nc.drain()
