"""``tenpennies serve --workers N``: a front process that owns the public port, the lobby and the LAN record, and
N worker processes (``workers.py``) that hold the tables, each table in exactly one of them.

The front answers the lobby itself (``ListTables``, ``WatchTables``: the union of the workers' lobbies, which it
follows with one WatchTables stream per worker), places each new table on the worker with the fewest open
tables, and passes every other request to the worker that holds its table as raw bytes: it reads the
request's top-level ``table_id`` (for a stream of requests, the first message's) and never decodes an answer.
A tournament (``--tournament``) is the front's: its bookkeeping (``tournament.Tournament``, its store the
server's own file, ``--db``) answers the bots' RegisterBot, WaitForSeat and GetStandings here, and plays its games
on every worker (``WorkerGames``); the bots' seats are requests of a table like any other. Other requests that
name no table go to worker 0. Which worker holds which table (the directory) is read from the workers' stores at
start and kept as tables are made, so table ids map to their worker across restarts of either.

The front keeps what must count every worker: the open tables per client address and per server, the lobby
streams; it charges the request budgets (``--rate``, ``--address-rate``) of what comes through it, each
address's in a file the workers' own ports charge too (``budget.py``: one budget per address); and it takes its
own part of each request (finding the table's worker) in turn among clients, as one process takes the whole
(``service.FairShare``). It passes the client's address to the worker (``forwarded.PEER_METADATA``), so the
worker's own limits and checks see the client, not the front.

A worker that exits (killed, crashed) is started again at once; meanwhile only its tables pause: a request for
one waits for it (up to the request's deadline, ``WORKER_WAIT`` without one), a stream of it ends with
UNAVAILABLE (the client resumes from its last sequence, as after any drop). Each worker's store commits before
it answers, and the front answers only once the worker has: no acknowledged command is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import functools
import gc
import hmac
import json
import logging
import os
import re
import shutil
import signal
import sqlite3
import stat
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import (
    VISITORS_PER_ADDRESS,
    WORKER_ADDRESS_METADATA,
    WORKER_PORT_METADATA,
    certificate_name,
    pem_to_der,
)

from . import app
from .advertise import Advertiser, Plan
from .budget import SharedBuckets
from .certs import CERT_FILE, KEY_FILE
from .cluster import Cluster, machine_id, reachable_address
from .forwarded import CLUSTER_METADATA, PEER_METADATA, who_asks
from .handlers import aside, settled
from .lobby import Lobby, TableWatcher, address_of, new_watcher
from .service import (
    JOIN_MARGIN,
    MALFORMED,
    RECORD_COST,
    REFUSAL,
    TOO_MANY,
    Admission,
    Door,
    FairShare,
    RateLimiter,
    TournamentServicer,
    charged,
    client_of,
    list_cost,
    request_cost,
    watch_tables,
)
from .store import Store
from .tournament import (
    GAMES_SERVICE,
    RETRY_SECONDS,
    Ended,
    GamesError,
    GameTable,
    Tournament,
    TournamentConfig,
    still_running,
)
from .workers import command, known_workers, worker_options

log = logging.getLogger(__name__)
T = TypeVar("T")

SERVICE = app.SERVICE
WORKER_WAIT = 30.0  # seconds a request with no deadline of its own waits for its table's worker to be back
JOIN_GRACE = 5.0  # seconds a worker's JoinTable may outlast the client's deadline, so that the front hears its answer
WORKER_START = 60.0  # seconds the front waits for its workers at start
QUICK_EXIT = 2.0  # a worker that exits this soon after its start twice running waits this long to start again
# headers of the call itself, which the front's own call to the worker sets (and a client may not name the peer)
NOT_FORWARDED = ("user-agent", "content-type", "te", "grpc-accept-encoding", "grpc-encoding", PEER_METADATA,
                 CLUSTER_METADATA)
CHANNEL_OPTIONS = [
    # a worker started again answers within a second: the front's channel tries again soon
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 500),
    ("grpc.max_receive_message_length", -1),
]
OPEN = (pb.TABLE_STATUS_WAITING, pb.TABLE_STATUS_PLAYING)
OPEN_WORDS = ("waiting", "playing")
SOCKETS = "tenpennies-front-"  # the workers' sockets: <temp>/tenpennies-front-XXXXXXXX/w<k>.sock
BUDGETS = "budgets"  # the address budgets the front and its workers share, beside the sockets
SOCKETS_LOCK = "front.lock"  # held (flock) by the front whose sockets they are, as long as it lives
SOCKETS_MADE = 60.0  # seconds after which a socket directory with no lock in it is a front's killed as it began


def socket_directory() -> tuple[str, int]:
    """A new directory for the workers' sockets (mode 0700: only this user reaches the workers) and the lock this
    front holds on it while it lives. A front killed (SIGKILL) cannot remove its directory, but its lock goes
    with it: each front starting removes the directories of this user's fronts that are gone."""
    temp = Path(tempfile.gettempdir())
    for left in temp.glob(f"{SOCKETS}*"):
        with contextlib.suppress(OSError):
            _remove_if_gone(left)
    path = tempfile.mkdtemp(prefix=SOCKETS)
    lock = os.open(f"{path}/{SOCKETS_LOCK}.new", os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.rename(f"{path}/{SOCKETS_LOCK}.new", f"{path}/{SOCKETS_LOCK}")  # seen by others only once it is held
    return path, lock


def _remove_if_gone(path: Path) -> None:
    """Remove a front's socket directory if that front is gone: nobody holds its lock (or it has none, and is
    older than a front's first moments)."""
    info = path.lstat()
    if info.st_uid != os.getuid() or not stat.S_ISDIR(info.st_mode):
        return
    try:
        lock = os.open(path / SOCKETS_LOCK, os.O_RDWR)
    except FileNotFoundError:
        if time.time() - info.st_mtime > SOCKETS_MADE:
            shutil.rmtree(path, ignore_errors=True)
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return  # its front runs
    finally:
        os.close(lock)  # (a lock taken is let go: the directory goes anyway)
    shutil.rmtree(path, ignore_errors=True)


@dataclass(eq=False, kw_only=True)
class Holder:
    """What holds tables, as the front reaches it: one of its workers, or another machine of its cluster."""

    channel: grpc.aio.Channel
    up: asyncio.Event = field(default_factory=asyncio.Event)  # answering, its lobby known
    tables: dict[str, pb.TableInfo] = field(default_factory=dict)  # its tables in memory, as its lobby shows them
    calls: dict[str, Any] = field(default_factory=dict)  # method path -> the channel's multicallable, raw bytes


@dataclass(eq=False)
class Worker(Holder):
    """One worker process of this front's: its socket, its process, its own port."""

    index: int
    options: app.Options
    socket: str
    process: asyncio.subprocess.Process | None = None
    starts: int = 0
    port: int = 0  # its own port at the server's host, for clients that come straight to its tables
    listening: asyncio.Event = field(default_factory=asyncio.Event)  # its process said it listens, and runs

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def __str__(self) -> str:
        return f"worker {self.index}"


@dataclass(eq=False)
class Machine(Holder):
    """Another machine of the cluster (``serve --cluster``), reached through its front."""

    id: str  # (``cluster.machine_id``)
    address: str  # its front's
    certificate: bytes | None = None  # the certificate its front serves (None: plaintext)

    def __str__(self) -> str:
        return f"machine {self.id}"


class FrontLobby:
    """The lobby over every worker: what ListTables and WatchTables show, the directory (table id -> worker),
    and the open tables counted by creator (the limits a client may not dodge by its tables landing on
    several workers). Its watchers (WatchTables streams, the LAN record) are ``lobby.TableWatcher``s."""

    def __init__(self, workers: list[Worker], tables_per_address: int) -> None:
        self.workers = workers
        self.machines: dict[str, Machine] = {}  # the other machines of a cluster, by id
        self.tables_per_address = tables_per_address
        self.where: dict[str, Holder] = {}  # every table, open or finished
        self.open: dict[str, str] = {}  # open table -> its creator (client_of)
        self.open_by: Counter[str] = Counter()
        self.open_by_address: Counter[str] = Counter()
        self.creating: list[str] = []
        self.placing: Counter[Holder] = Counter()  # tables being made, by where
        self.watchers: dict[TableWatcher, str] = {}
        # told of what each worker's lobby stream says: the worker, its tables changed, those gone from its memory,
        # and whether that is all it has (its first message)
        self.listeners: list[Callable[[Holder, list[pb.TableInfo], list[str], bool], None]] = []

    # --- the directory and the open tables ---

    def read_stores(self, workers: list[Worker]) -> None:
        """Every table each worker's store holds (its id, creator, status): the directory survives restarts."""
        for worker in workers:
            db = sqlite3.connect(worker.options.db)
            try:
                for table_id, creator, status in db.execute("SELECT id, creator, status FROM tables"):
                    self.where[table_id] = worker
                    if status in OPEN_WORDS:
                        self.count(table_id, creator)
            finally:
                db.close()

    def count(self, table_id: str, creator: str) -> None:
        if table_id not in self.open:
            self.open[table_id] = creator
            self.open_by[creator] += 1
            self.open_by_address[address_of(creator)] += 1

    def uncount(self, table_id: str) -> None:
        creator = self.open.pop(table_id, None)
        if creator is None:
            return
        for counter, key in ((self.open_by, creator), (self.open_by_address, address_of(creator))):
            counter[key] -= 1
            if not counter[key]:
                del counter[key]

    def check_room(self, creator: str) -> str | None:
        """Why ``creator`` may not make a table now (the same limits, and words, as ``Lobby``), or None."""
        if len(self.open) + len(self.creating) >= Lobby.MAX_TABLES:
            return "this server has as many open tables as it can hold"
        mine = self.open_by[creator] + self.creating.count(creator)
        if mine >= self.tables_per_address:
            return f"you already have {mine} open tables here: finish or leave some first"
        address = address_of(creator)
        ours = self.open_by_address[address] + sum(1 for c in self.creating if address_of(c) == address)
        if ours >= self.tables_per_address * VISITORS_PER_ADDRESS:
            return f"your address already has {ours} open tables here: finish or leave some first"
        return None

    def place(self, workers: list[Worker], first: int = 0) -> Worker:
        """The worker a new table goes to: of those answering (all, if none is), the one with the fewest open
        tables (those being made there count: tables made at once spread too); among equals the lowest index
        from ``first`` on (round the workers: a tournament's game n starts at worker n, so that games played one
        at a time spread too)."""
        load = Counter(self.where[t] for t in self.open if t in self.where) + self.placing
        candidates = [w for w in workers if w.up.is_set()] or workers
        return min(candidates, key=lambda w: (load[w], (w.index - first) % len(workers)))

    # --- the lobby ---

    def listed(self) -> list[pb.TableInfo]:
        return [info for worker in (*self.workers, *self.machines.values()) for info in worker.tables.values()]

    def changed(self, worker: Holder, tables: list[pb.TableInfo], removed: list[str], everything: bool) -> None:
        """What a worker's lobby stream said: (``everything``: its first message, the whole of its lobby now)."""
        if everything:
            now = {info.table_id for info in tables}
            removed = [*removed, *(t for t in worker.tables if t not in now)]
        for table_id in removed:  # gone from its memory: expired (no longer open), or finished and read on demand
            self.uncount(table_id)
            if worker.tables.pop(table_id, None) is not None:
                for watcher in self.watchers:
                    watcher.put(table_id, None)
        for info in tables:
            worker.tables[info.table_id] = info
            self.where.setdefault(info.table_id, worker)
            if info.status not in OPEN:
                self.uncount(info.table_id)
            for watcher in self.watchers:
                watcher.put(info.table_id, info)
        for listener in self.listeners:
            listener(worker, tables, removed, everything)

    def size(self) -> int:
        """How many tables ``listed`` gives."""
        return sum(len(holder.tables) for holder in (*self.workers, *self.machines.values()))

    def watch(self, client: str) -> tuple[list[pb.TableInfo], TableWatcher]:
        """Every listed table now, and a watcher for the changes (the limits of ``Lobby.watch``: Full)."""
        watcher = new_watcher(self.watchers, client, Lobby.MAX_WATCHERS, Lobby.WATCHERS_PER_ADDRESS)
        return self.listed(), watcher

    def unwatch(self, watcher: TableWatcher) -> None:
        self.watchers.pop(watcher, None)


def _refuse(context: Any, code: grpc.StatusCode, message: str) -> None:
    context.set_code(code)
    context.set_details(message)
    context.set_trailing_metadata((REFUSAL,))


def _relay(context: Any, error: grpc.aio.AioRpcError) -> None:
    """The worker's refusal (or the link's trouble with it), as the worker said it."""
    context.set_code(error.code())
    context.set_details(error.details() or "")
    context.set_trailing_metadata(tuple(error.trailing_metadata() or ()))


async def _relayed(call: Any, context: Any) -> AsyncGenerator[bytes, None]:
    """A worker's streamed answers as they come; its error is relayed to the client, and the call ends
    either way (a client gone cancels the worker's side too)."""
    try:
        async for response in call:
            yield response
    except grpc.aio.AioRpcError as error:
        _relay(context, error)
    finally:
        call.cancel()


def _worker_gone(error: grpc.aio.AioRpcError) -> bool:
    """The worker's connection broke under the call (it died): not a refusal of its own."""
    return error.code() == grpc.StatusCode.UNAVAILABLE and REFUSAL not in tuple(error.trailing_metadata() or ())


def forwarded_metadata(context: Any) -> tuple[tuple[str, Any], ...]:
    """The client's metadata for the worker, and who the client is (``PEER_METADATA``, set by the front alone)."""
    kept = tuple((key, value) for key, value in context.invocation_metadata() or ()
                 if key not in NOT_FORWARDED and not key.startswith((":", "grpc-")))
    return (*kept, (PEER_METADATA, context.peer()))


class WorkerGames:
    """A tournament's games on the workers (``tournament.Games``): each game's table made on the worker the
    front's placement picks, seated and started there, through the worker's ``tournament.games_service`` on its
    unix socket; a game's end heard on the worker's lobby stream (or, after the worker restarted, from its
    tables no longer listed) and its result then asked of the worker, which computes it as a one-process server
    does (``tournament.game_result``)."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.ended: Ended | None = None
        self.awaited: dict[str, Holder] = {}  # the tables whose end is to be told, and where they are
        self.asking: set[str] = set()  # those whose result is being asked for
        self._tasks: set[asyncio.Task[None]] = set()
        front.lobby.listeners.append(self._changed)

    def follow(self, ended: Ended) -> None:
        self.ended = ended

    async def _ask(self, worker: Holder, method: str, request: dict[str, Any]) -> dict[str, Any]:
        """A call to the worker's games service, or another machine's (waiting for it while it restarts)."""
        call = self.front._call(worker, "unary_unary", f"/{GAMES_SERVICE}/{method}")
        cluster = self.front.cluster
        proof = ((CLUSTER_METADATA, cluster.secret),) if isinstance(worker, Machine) and cluster is not None else None
        try:
            response: bytes = await call(json.dumps(request).encode(), metadata=proof, timeout=WORKER_WAIT,
                                         wait_for_ready=True)
        except grpc.aio.AioRpcError as error:
            raise GamesError(f"{worker}: {error.details() or error.code().name}") from None
        answer: dict[str, Any] = json.loads(response)
        return answer

    async def open(self, table: GameTable, number: int) -> tuple[str, str]:
        """Game ``number``'s table: on this machine's workers (placed as any table), or, in a cluster, on the
        machines in turn (game n on machine n, this one first, the others in their ids' order)."""
        lobby = self.front.lobby
        machines = [lobby.machines[m] for m in sorted(lobby.machines)]
        turn = number % (len(machines) + 1)
        worker: Holder = machines[turn - 1] if turn else \
            lobby.place(self.front.workers, first=number // (len(machines) + 1))
        lobby.placing[worker] += 1
        try:
            made = await self._ask(worker, "Open", {"table": table.to_dict(), "number": number})
        finally:
            lobby.placing[worker] -= 1
        table_id: str = made["table_id"]
        lobby.where[table_id] = worker
        lobby.count(table_id, table.creator)
        self.awaited[table_id] = worker
        return table_id, made["host_token"]

    async def set_up(self, table_id: str, host_token: str, players: list[tuple[str, str]]) -> None:
        worker = self.front.lobby.where.get(table_id)
        if worker is None:
            raise GamesError(f"no worker holds table {table_id}")
        await self._ask(worker, "SetUp", {"table_id": table_id, "host_token": host_token, "players": players})

    async def state(self, table_id: str) -> tuple[str, dict[str, Any] | None]:
        worker = self.front.lobby.where.get(table_id)
        if worker is None:
            return "gone", None
        self.awaited[table_id] = worker  # first: an end told meanwhile is heard
        answer = await self._ask(worker, "State", {"table_id": table_id})
        if answer["status"] not in OPEN_WORDS:
            self.awaited.pop(table_id, None)
        return answer["status"], answer["result"]

    def _changed(self, worker: Holder, tables: list[pb.TableInfo], removed: list[str], everything: bool) -> None:
        """What a worker's lobby stream said: the awaited tables that have finished or left its memory (a
        finished table read back on demand), and when the worker has (re)started, those it no longer lists
        (finished while its stream was down: it lists only open ones)."""
        ended = [info.table_id for info in tables
                 if info.status == pb.TABLE_STATUS_FINISHED and info.table_id in self.awaited]
        ended += [table_id for table_id in removed if table_id in self.awaited]
        if everything:
            ended += [t for t, w in self.awaited.items() if w is worker and t not in worker.tables]
        for table_id in ended:
            if table_id not in self.asking:
                self.asking.add(table_id)
                task = asyncio.ensure_future(self._result(table_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _result(self, table_id: str) -> None:
        """Ask the worker for an ended game's result and tell it (asked again while the worker is away)."""
        try:
            while table_id in self.awaited:
                try:
                    answer = await self._ask(self.awaited[table_id], "State", {"table_id": table_id})
                except GamesError as error:
                    log.warning("the result of table %s: %s; asking again in %s s", table_id, error, RETRY_SECONDS)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if answer["status"] in OPEN_WORDS:
                    return  # not over: its end comes on the lobby stream
                del self.awaited[table_id]
                if answer["status"] == "finished" and self.ended is not None:
                    self.ended(table_id, answer["result"])
        finally:
            self.asking.discard(table_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


# A read whose worker died under it is asked again once the worker is back (a write is not: it may have been
# stored before the worker died, and the client, told UNAVAILABLE as by a server gone, finds out from its stream)
READS = ("GetSnapshot",)
READ_TRIES = 3
DIRECTING = ("GetSnapshot",)  # with CreateTable and JoinTable: the answers that name the table's worker's port


class Front(app.Listener):
    """The front and its workers; ``port`` is the public port bound."""

    def __init__(self, options: app.Options) -> None:
        # a config with a mistake stops the server before it opens anything (ValueError says what)
        self.config = TournamentConfig.load(options.tournament) if options.tournament else None
        super().__init__(options)
        self.count = max(options.workers, known_workers(options.db))
        tls: tuple[str, str] | None = None
        if self.certificate is not None:
            tls = (str(self.certificate.directory / CERT_FILE), str(self.certificate.directory / KEY_FILE))
        elif options.tls_cert and options.tls_key:
            tls = (options.tls_cert, options.tls_key)
        self.sockets, self._sockets_lock = socket_directory()
        # one budget per client address for the front and every worker's own port (budget.py)
        budgets = f"{self.sockets}/{BUDGETS}" if options.address_rate else None
        if budgets is not None:
            SharedBuckets.make(budgets)
        self.workers = [Worker(k, worker_options(options, k, f"{self.sockets}/w{k}.sock", tls, budgets),
                               f"{self.sockets}/w{k}.sock", channel=grpc.aio.insecure_channel(
                                   f"unix:{self.sockets}/w{k}.sock", options=CHANNEL_OPTIONS))
                        for k in range(self.count)]
        self.lobby = FrontLobby(self.workers, options.tables_per_address)
        self.limiter = RateLimiter(options.rate, options.burst, options.address_rate, options.address_burst,
                                   shared=budgets)
        self.cluster: Cluster | None = None  # serve --cluster: the other machines (cluster.py); joined at start
        secret: Callable[[], str] | None = None
        if options.cluster:
            served = self.certificate.cert if self.certificate is not None else \
                Path(options.tls_cert).read_bytes() if options.tls_cert else None
            cluster = self.cluster = Cluster(options.cluster, machine_id(options.db), "", served)
            secret = lambda: cluster.secret  # noqa: E731
        self._waiting_machine: dict[str, list[tuple[str, pb.TableInfo | None]]] = {}  # heard of before its address
        self._theirs: set[str] = set()  # games of another machine's tournament held here (their records are its)
        # the front's own work on a call taken fairly among clients, as in one process (``service.FairShare``); a
        # call's turn here ends as it is passed on to its worker (``settled``), which takes turns of its own
        self.admission = Admission() if options.address_rate else Admission(per_client=0, waiting=0)
        self.grpc = grpc.aio.server(interceptors=[Door(who_asks(behind_front=False, cluster_secret=secret),
                                                       FairShare(self.admission, self.limiter, self._cost))],
                                    options=app.SERVER_OPTIONS)
        self.closing = False
        self._tasks: list[asyncio.Task[Any]] = []
        self.store: Store | None = None  # the tournament's, in the server's own file (worker 0's too)
        self.games = WorkerGames(self)
        self.tournament: Tournament | None = None
        self._pending: set[asyncio.Task[Any]] = set()  # what must end whatever became of its request

    # --- the workers ---

    async def _keep_running(self, worker: Worker) -> None:
        """Run the worker; start it again whenever it exits: at once, but after a pause if it did not last twice
        in a row (a worker that cannot start does not spin; one killed soon after its start is back at once)."""
        quick = 0
        while not self.closing:
            started = time.monotonic()
            worker.process = await asyncio.create_subprocess_exec(
                *command(worker.options), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                env={**os.environ, "TENPENNIES_FRONT": str(os.getpid())},
                start_new_session=True)  # a Ctrl-C at the terminal is the front's to handle: it stops them
            worker.starts += 1
            assert worker.process.stdout is not None  # stdout=PIPE
            listening = re.search(rb"listening on .*:(\d+) ", await worker.process.stdout.readline())
            if listening and not worker.port:  # its port for good: started again, it listens there again
                worker.port = int(listening.group(1))
                worker.options = dataclasses.replace(worker.options, port=worker.port)
            worker.listening.set()
            while await worker.process.stdout.readline():  # what else it says (nothing it says must block it)
                pass
            code = await worker.process.wait()
            worker.up.clear()
            worker.listening.clear()
            if self.closing:
                return
            log.warning("worker %d exited (status %s): starting it again", worker.index, code)
            quick = quick + 1 if time.monotonic() - started < QUICK_EXIT else 0
            if quick > 1:
                await asyncio.sleep(QUICK_EXIT)

    async def _follow_lobby(self, worker: Worker) -> None:
        """Follow the worker's lobby, again after each of its restarts: each time once its process says it listens
        (a call before would find no socket, and the channel would wait out its backoff to try again: a sixth of
        a second of a front's start)."""
        watch = pb_grpc.TenPenniesServiceStub(worker.channel).WatchTables
        while not self.closing:
            await worker.listening.wait()
            try:
                everything = True
                async for message in watch(pb.WatchTablesRequest(), wait_for_ready=True):
                    self.lobby.changed(worker, list(message.tables), list(message.removed), everything)
                    if everything:
                        worker.up.set()
                    everything = False
            except grpc.aio.AioRpcError:
                pass
            worker.up.clear()
            await asyncio.sleep(0.05)  # a worker gone: its channel waits for it (wait_for_ready)

    # --- the requests ---

    def _call(self, worker: Holder, kind: str, path: str) -> Any:
        call = worker.calls.get(path)
        if call is None:
            call = worker.calls[path] = getattr(worker.channel, kind)(path)
        return call

    async def _worker_of(self, parse: Callable[[bytes], Any], request: bytes, context: Any) -> Holder | None:
        try:
            table_id = parse(request).table_id
        except DecodeError:
            _refuse(context, grpc.StatusCode.INVALID_ARGUMENT, MALFORMED)
            return None
        worker = self.lobby.where.get(table_id)
        if worker is None and self.cluster is not None and table_id:
            aside()  # (NATS is asked: no work of the front's)
            worker = await self._placed_elsewhere(table_id)
        if isinstance(worker, Machine) and self._proved(context):
            worker = None  # (another machine passed it here: the table is not this machine's, and never goes on)
        if worker is None:
            _refuse(context, grpc.StatusCode.NOT_FOUND, f"no table {table_id!r}")
        return worker

    # --- the other machines (serve --cluster) ---

    async def _placed_elsewhere(self, table_id: str) -> Holder | None:
        """A table made a moment ago on another machine, whose place this one's directory has not heard yet."""
        assert self.cluster is not None
        try:
            entry = await asyncio.wait_for(self.cluster.placement.get(table_id), 2.0)
        except Exception:  # (not found, or NATS away: no such table here now)
            return None
        self._heard_place(table_id, entry.value.decode())
        return self.lobby.where.get(table_id)

    def _proved(self, context: Any) -> bool:
        """The request comes from another machine's front of this cluster (it shows the cluster's secret)."""
        if self.cluster is None or not self.cluster.secret:
            return False
        proof = next((value for key, value in context.invocation_metadata() or () if key == CLUSTER_METADATA), None)
        return isinstance(proof, str) and hmac.compare_digest(proof.encode(), self.cluster.secret.encode())

    def _machines_games(self) -> grpc.GenericRpcHandler:
        """Another machine's tournament plays some of its games here: its front's calls to ``GAMES_SERVICE``
        (proved by the cluster's secret) go on to the worker that is to hold the game, or holds it."""
        async def relay(method: str, request: bytes, context: Any) -> bytes | None:
            if not self._proved(context):
                _refuse(context, grpc.StatusCode.PERMISSION_DENIED, "this is between a server's own processes")
                return None
            try:
                asked = json.loads(request)
                worker = (self.lobby.place(self.workers, first=int(asked["number"])) if method == "Open"
                          else self.lobby.where.get(str(asked["table_id"])))
            except (ValueError, KeyError, TypeError):
                _refuse(context, grpc.StatusCode.INVALID_ARGUMENT, MALFORMED)
                return None
            if not isinstance(worker, Worker):
                _refuse(context, grpc.StatusCode.NOT_FOUND, "no such table here")
                return None
            try:
                response: bytes = await self._call(worker, "unary_unary", f"/{GAMES_SERVICE}/{method}")(
                    request, timeout=self._timeout(context), wait_for_ready=True)
            except grpc.aio.AioRpcError as error:
                _relay(context, error)
                return None
            if method == "Open":
                table_id = json.loads(response)["table_id"]
                self.lobby.where[table_id] = worker
                self._theirs.add(table_id)
                assert self.cluster is not None
                await self.cluster.placed(table_id)
            return response
        return grpc.method_handlers_generic_handler(GAMES_SERVICE, {
            method: grpc.unary_unary_rpc_method_handler(functools.partial(relay, method))
            for method in ("Open", "SetUp", "State")})

    def _metadata(self, context: Any, worker: Holder) -> tuple[tuple[str, Any], ...]:
        """What goes with a client's request to the process that holds its table: who the client is, and to
        another machine's front, the cluster's secret (which makes it believe that)."""
        metadata = forwarded_metadata(context)
        if isinstance(worker, Machine) and self.cluster is not None:
            metadata = (*metadata, (CLUSTER_METADATA, self.cluster.secret))
        return metadata

    @staticmethod
    def _channel_to(address: str, certificate: bytes | None) -> grpc.aio.Channel:
        """A channel to another machine's front: over TLS trusting the certificate it published alone."""
        if certificate is None:
            return grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
        name = certificate_name(pem_to_der(certificate))
        return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(certificate),
                                       options=[*CHANNEL_OPTIONS, ("grpc.ssl_target_name_override", name)])

    def _heard_host(self, machine: str, address: str, certificate: bytes | None) -> None:
        known = self.lobby.machines.get(machine)
        if known is None:
            known = self.lobby.machines[machine] = Machine(machine, address,
                                                           channel=self._channel_to(address, certificate))
            known.up.set()
        elif (known.address, known.certificate) != (address, certificate):  # (moved, or a new certificate)
            old, known.address, known.calls = known.channel, address, {}
            known.channel = self._channel_to(address, certificate)
            self._background(old.close(grace=5.0))
        known.certificate = certificate
        for table_id, info in self._waiting_machine.pop(machine, []):
            if info is None:
                self._heard_place(table_id, machine)
            else:
                self._heard_table(table_id, machine, info)

    def _heard_place(self, table_id: str, machine: str) -> None:
        assert self.cluster is not None
        if machine == self.cluster.machine:
            return
        known = self.lobby.machines.get(machine)
        if known is None:
            self._waiting_machine.setdefault(machine, []).append((table_id, None))
        else:
            self.lobby.where[table_id] = known

    def _heard_table(self, table_id: str, machine: str, info: pb.TableInfo | None) -> None:
        known = self.lobby.machines.get(machine)
        if known is None:
            if info is not None:
                self._waiting_machine.setdefault(machine, []).append((table_id, info))
            return
        if info is None:
            self.lobby.changed(known, [], [table_id], False)
        else:
            self.lobby.changed(known, [info], [], False)

    def _tell_machines(self, worker: Holder, tables: list[pb.TableInfo], removed: list[str], _: bool) -> None:
        """This machine's tables changed (one of its workers' lobby said so): the others are told."""
        if isinstance(worker, Machine) or self.cluster is None:
            return
        for table_id in removed:
            self.cluster.tell(None, table_id)
        for info in tables:
            self.cluster.tell(info, info.table_id)

    async def _join_cluster(self) -> None:
        assert self.cluster is not None
        self.cluster.address = self.options.cluster_address or reachable_address(
            self.options.cluster or "", self.options.host, self.port)
        self.cluster.heard_host = self._heard_host
        self.cluster.heard_place = self._heard_place
        self.cluster.heard_table = self._heard_table
        await self.cluster.join()
        self.cluster.reconcile({t: info for w in self.workers for t, info in w.tables.items()},
                               [t for t, w in self.lobby.where.items() if isinstance(w, Worker)])
        self.lobby.listeners.append(self._tell_machines)

    async def _say_where(self, call: Any, worker: Holder, context: Any) -> None:
        """Name the process that holds the table, for clients that go there directly: this machine's worker's
        port, or another machine's worker's whole address (its front named the port)."""
        if isinstance(worker, Worker):
            if worker.port:
                context.set_trailing_metadata(((WORKER_PORT_METADATA, str(worker.port)),))
            return
        if not isinstance(worker, Machine) or self.cluster is None or worker.certificate != self.cluster.certificate:
            return  # (a client trusts this machine's certificate: it may not trust another's)
        for key, value in await call.trailing_metadata() or ():
            if key == WORKER_PORT_METADATA and str(value).isdigit():
                host = worker.address.rsplit(":", 1)[0]
                context.set_trailing_metadata(((WORKER_ADDRESS_METADATA, f"{host}:{value}"),))

    def _cost(self, method: str) -> float:
        return request_cost(method, self.lobby.size())

    def _allowed(self, context: Any, cost: float = 1.0) -> bool:
        """Whether the call may go on: charged as it came in (``FairShare``), or now."""
        if charged() or self.limiter.allow(context.peer(), cost):
            return True
        _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
        return False

    @staticmethod
    def _timeout(context: Any) -> float:
        left = context.time_remaining()
        return WORKER_WAIT if left is None else max(0.0, left)

    def _routed_unary(self, path: str, parse: Callable[[bytes], Any]) -> Any:
        directs = path.rsplit("/", 1)[-1] in DIRECTING
        reads = path.rsplit("/", 1)[-1] in READS

        async def handler(request: bytes, context: Any) -> bytes | None:
            if not self._allowed(context):
                return None
            worker = await self._worker_of(parse, request, context)
            if worker is None:
                return None
            settled()  # (passed on: the worker takes turns of its own, and the front's part is done)
            call = self._call(worker, "unary_unary", path)
            for attempt in range(READ_TRIES if reads else 1):
                try:
                    answer = call(request, metadata=self._metadata(context, worker), timeout=self._timeout(context),
                                  wait_for_ready=True)
                    response: bytes = await answer
                    break
                except grpc.aio.AioRpcError as error:
                    if attempt + 1 == READ_TRIES or not (reads and _worker_gone(error)):
                        _relay(context, error)
                        return None
            if directs:
                await self._say_where(answer, worker, context)
            return response
        return grpc.unary_unary_rpc_method_handler(handler)

    def _routed_stream(self, path: str, parse: Callable[[bytes], Any]) -> Any:
        async def handler(request: bytes, context: Any) -> AsyncIterator[bytes]:
            if not self._allowed(context):
                return
            worker = await self._worker_of(parse, request, context)
            if worker is None:
                return
            settled()
            call = self._call(worker, "unary_stream", path)(request, metadata=self._metadata(context, worker),
                                                           timeout=context.time_remaining(), wait_for_ready=True)
            async with contextlib.aclosing(_relayed(call, context)) as answers:  # closed with the handler
                async for response in answers:
                    yield response
        return grpc.unary_stream_rpc_method_handler(handler)

    def _routed_bidi(self, path: str, parse: Callable[[bytes], Any]) -> Any:
        """A stream of requests (``Play``): to the worker its first message's ``table_id`` names."""
        async def handler(requests: AsyncIterator[bytes], context: Any) -> AsyncIterator[bytes]:
            if not self._allowed(context):
                return
            settled()  # (the client's first message may be long in coming: no turn is held meanwhile)
            incoming = requests.__aiter__()
            try:
                first = await incoming.__anext__()
            except StopAsyncIteration:
                return
            worker = await self._worker_of(parse, first, context)
            if worker is None:
                return

            async def upstream() -> AsyncIterator[bytes]:
                yield first
                async for request in incoming:
                    yield request
            call = self._call(worker, "stream_stream", path)(upstream(), metadata=self._metadata(context, worker),
                                                            timeout=context.time_remaining(), wait_for_ready=True)
            async with contextlib.aclosing(_relayed(call, context)) as answers:  # closed with the handler
                async for response in answers:
                    yield response
        return grpc.stream_stream_rpc_method_handler(handler)

    async def _join_table(self, request: bytes, context: Any) -> bytes | None:
        """A JoinTable, to the table's worker. A seat whose token cannot reach the client is given back, as in
        one process (``service.JOIN_MARGIN``): the front's hop back to the client comes after the worker's check
        of the deadline, so the front checks it again, and when the client's deadline ends the request while
        the worker seats it, the seat is given back once the worker has answered."""
        if not self._allowed(context):
            return None
        worker = await self._worker_of(pb.JoinTableRequest.FromString, request, context)
        if worker is None:
            return None
        settled()
        metadata = self._metadata(context, worker)
        # the worker's deadline outlasts the client's by JOIN_GRACE: its answer, seat or no seat, comes back even
        # when the client's deadline ends the request first (a call cut at the front by the client's own
        # deadline could not tell whether the worker had seated it)
        answer = self._call(worker, "unary_unary", f"/{SERVICE}/JoinTable")(
            request, metadata=metadata, timeout=self._timeout(context) + JOIN_GRACE, wait_for_ready=True)
        joining = asyncio.ensure_future(self._answered(answer))
        try:
            response: bytes = await asyncio.shield(joining)
            left = context.time_remaining()
            if left is not None and left < JOIN_MARGIN:
                self._background(self._give_back(worker, request, metadata, joining))
                _refuse(context, grpc.StatusCode.DEADLINE_EXCEEDED,
                        "too little of this request's deadline was left to hand over the seat: none was taken")
                return None
            await self._say_where(answer, worker, context)
        except asyncio.CancelledError:
            self._background(self._give_back(worker, request, metadata, joining))
            raise
        except grpc.aio.AioRpcError as error:
            _relay(context, error)
            return None
        return response

    @staticmethod
    async def _answered(call: Any) -> bytes:
        response: bytes = await call
        return response

    async def _give_back(self, worker: Holder, request: bytes, metadata: tuple[tuple[str, Any], ...],
                         joining: asyncio.Future[bytes]) -> None:
        """Leave the seat a join took for a client that never got its token."""
        try:
            token = pb.JoinTableResponse.FromString(await joining).token
        except grpc.aio.AioRpcError:
            return  # no seat was taken
        table_id = pb.JoinTableRequest.FromString(request).table_id
        with contextlib.suppress(grpc.aio.AioRpcError):
            await self._call(worker, "unary_unary", f"/{SERVICE}/LeaveTable")(
                pb.LeaveTableRequest(table_id=table_id, token=token).SerializeToString(), metadata=metadata,
                timeout=WORKER_WAIT, wait_for_ready=True)

    def _background(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Work that runs to its end whatever becomes of the request it is for (a client cut short)."""
        task = asyncio.ensure_future(work)
        self._pending.add(task)
        task.add_done_callback(self._settled)
        return task

    def _to_first(self, path: str, streaming: bool) -> Any:
        """A request that names no table (a tournament's): worker 0's to answer."""
        first = self.workers[0]

        async def unary(request: bytes, context: Any) -> bytes | None:
            if not self._allowed(context):
                return None
            settled()
            try:
                response: bytes = await self._call(first, "unary_unary", path)(
                    request, metadata=forwarded_metadata(context), timeout=self._timeout(context),
                    wait_for_ready=True)
            except grpc.aio.AioRpcError as error:
                _relay(context, error)
                return None
            return response

        async def stream(request: bytes, context: Any) -> AsyncIterator[bytes]:
            if not self._allowed(context):
                return
            settled()
            call = self._call(first, "unary_stream", path)(request, metadata=forwarded_metadata(context),
                                                          timeout=context.time_remaining(), wait_for_ready=True)
            async with contextlib.aclosing(_relayed(call, context)) as answers:  # closed with the handler
                async for response in answers:
                    yield response
        return grpc.unary_stream_rpc_method_handler(stream) if streaming else grpc.unary_unary_rpc_method_handler(unary)

    async def _create_table(self, request: bytes, context: Any) -> bytes | None:
        """A new table, on the worker ``FrontLobby.place`` picks; the directory learns it before the client
        hears of it. Once asked of the worker, the table is made, placed and counted whatever happens to the
        client's request meanwhile (as ``Lobby.create`` makes it in one process): a request cut short by its
        deadline must not leave a table the front does not count against its creator."""
        if not self._allowed(context):
            return None
        creator = client_of(context)
        refusal = self.lobby.check_room(creator)
        if refusal is not None:
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
            return None
        worker = self.lobby.place(self.workers)
        self.lobby.creating.append(creator)  # (at once: the next request's check_room counts this one)
        self.lobby.placing[worker] += 1
        settled()
        making = self._background(self._make_table(worker, request, forwarded_metadata(context), creator))
        try:
            response: bytes = await asyncio.shield(making)
        except grpc.aio.AioRpcError as error:
            _relay(context, error)
            return None
        if worker.port:
            context.set_trailing_metadata(((WORKER_PORT_METADATA, str(worker.port)),))
        return response

    async def _make_table(self, worker: Worker, request: bytes, metadata: tuple[tuple[str, Any], ...],
                          creator: str) -> bytes:
        try:  # (not the client's deadline: the worker may make the table just as it runs out)
            response: bytes = await self._call(worker, "unary_unary", f"/{SERVICE}/CreateTable")(
                request, metadata=metadata, timeout=WORKER_WAIT, wait_for_ready=True)
        finally:
            self.lobby.creating.remove(creator)
            self.lobby.placing[worker] -= 1
        table_id = pb.CreateTableResponse.FromString(response).table.table_id
        self.lobby.where[table_id] = worker
        self.lobby.count(table_id, creator)
        if self.cluster is not None:
            await self.cluster.placed(table_id)  # (every machine can find it before its maker hears of it)
        return response

    def _settled(self, task: asyncio.Task[Any]) -> None:
        self._pending.discard(task)
        if not task.cancelled():
            task.exception()  # (a refusal nobody waited for any more is not an error of the front's)

    async def _list_tables(self, request: pb.ListTablesRequest, context: Any) -> pb.ListTablesResponse | None:
        tables = self.lobby.listed()
        if not self._allowed(context, list_cost(len(tables))):
            return None
        return pb.ListTablesResponse(tables=tables)

    async def _watch_tables(self, request: pb.WatchTablesRequest, context: Any
                            ) -> AsyncIterator[pb.WatchTablesResponse]:
        async with contextlib.aclosing(watch_tables(self.lobby, self.limiter, self._cost, context)) as responses:
            async for response in responses:  # (closed with the handler: the lobby stream's share is given back)
                yield response

    def _closing(self, routed: Any) -> Any:
        """CloseTable: once the table's worker has closed it, it is gone from the front's lobby and the host's
        share at once (the worker's lobby stream says so too, a moment later)."""
        async def handler(request: bytes, context: Any) -> bytes | None:
            response: bytes | None = await routed.unary_unary(request, context)
            if response is not None:
                table_id = pb.CloseTableRequest.FromString(request).table_id
                worker = self.lobby.where.get(table_id)
                if worker is not None:
                    self.lobby.changed(worker, [], [table_id], False)
            return response
        return grpc.unary_unary_rpc_method_handler(handler)

    def _record(self, routed: Any) -> Any:
        """GetGameRecord: refused here for a game of the tournament while it runs (its workers do not know the
        tournament; a worker's own port refuses every record, ``forwarded.FRONT_ONLY``)."""
        async def handler(request: bytes, context: Any) -> bytes | None:
            if self._theirs and not self._proved(context):
                try:
                    theirs = pb.GetGameRecordRequest.FromString(request).table_id in self._theirs
                except DecodeError:
                    theirs = False
                if theirs:
                    if self._allowed(context, RECORD_COST):
                        _refuse(context, grpc.StatusCode.FAILED_PRECONDITION, "this game is another server's "
                                "tournament's: its record is given at the address of the server that runs it")
                    return None
            if self.tournament is not None:
                try:
                    table_id = pb.GetGameRecordRequest.FromString(request).table_id
                except DecodeError:
                    table_id = ""
                if self.tournament.withholds(table_id):  # (charged as a record is: asking again costs the same)
                    if self._allowed(context, RECORD_COST):
                        _refuse(context, grpc.StatusCode.FAILED_PRECONDITION,
                                still_running(table_id, self.tournament.name))
                    return None
            response: bytes | None = await routed.unary_unary(request, context)
            return response
        return grpc.unary_unary_rpc_method_handler(handler)

    def _handlers(self) -> grpc.GenericRpcHandler:
        handlers: dict[str, Any] = {}
        tournament = TournamentServicer(self.limiter, self.tournament)
        for method in pb.DESCRIPTOR.services_by_name["TenPenniesService"].methods:
            path = f"/{SERVICE}/{method.name}"
            request_class = getattr(pb, method.input_type.name)
            if method.name == "CreateTable":
                handlers[method.name] = grpc.unary_unary_rpc_method_handler(self._create_table)
            elif method.name == "JoinTable":
                handlers[method.name] = grpc.unary_unary_rpc_method_handler(self._join_table)
            elif method.name == "ListTables":  # (the front's own: ``service.Door`` refuses one that does not parse)
                handlers[method.name] = grpc.unary_unary_rpc_method_handler(
                    self._list_tables, pb.ListTablesRequest.FromString, pb.ListTablesResponse.SerializeToString)
            elif method.name == "WatchTables":
                handlers[method.name] = grpc.unary_stream_rpc_method_handler(
                    self._watch_tables, pb.WatchTablesRequest.FromString, pb.WatchTablesResponse.SerializeToString)
            elif method.name in ("RegisterBot", "GetStandings", "WaitForSeat"):  # the front's tournament's
                make = grpc.unary_stream_rpc_method_handler if method.server_streaming else \
                    grpc.unary_unary_rpc_method_handler
                handlers[method.name] = make(getattr(tournament, method.name), request_class.FromString,
                                             getattr(pb, method.output_type.name).SerializeToString)
            elif method.name == "GetGameRecord":
                handlers[method.name] = self._record(self._routed_unary(path, request_class.FromString))
            elif method.name == "CloseTable":
                handlers[method.name] = self._closing(self._routed_unary(path, request_class.FromString))
            elif "table_id" not in method.input_type.fields_by_name:
                handlers[method.name] = self._to_first(path, method.server_streaming)
            elif method.client_streaming:
                handlers[method.name] = self._routed_bidi(path, request_class.FromString)
            elif method.server_streaming:
                handlers[method.name] = self._routed_stream(path, request_class.FromString)
            else:
                handlers[method.name] = self._routed_unary(path, request_class.FromString)
        return grpc.method_handlers_generic_handler(SERVICE, handlers)

    # --- start and stop ---

    async def start(self) -> None:
        """Start the workers, learn their tables, then open the public port."""
        for worker in self.workers:
            self._tasks.append(asyncio.ensure_future(self._keep_running(worker)))
            self._tasks.append(asyncio.ensure_future(self._follow_lobby(worker)))
        try:
            await asyncio.wait_for(asyncio.gather(*(w.up.wait() for w in self.workers)), WORKER_START)
        except TimeoutError:
            await self.stop()
            raise RuntimeError(f"the workers did not start within {WORKER_START:.0f} s") from None
        self.lobby.read_stores(self.workers)
        if self.config is not None:
            self.store = Store(self.options.db)
            self.tournament = Tournament(self.config, self.games, self.store)
            await self.tournament.load()
        self.grpc.add_generic_rpc_handlers((self._handlers(),))
        if self.cluster is not None:
            self.grpc.add_generic_rpc_handlers((self._machines_games(),))
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, self.grpc)
        reflection.enable_server_reflection((SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), self.grpc)
        address = f"{self.options.host}:{self.options.port}"
        if self.certificate is not None:
            self.port = self.grpc.add_secure_port(address, grpc.ssl_server_credentials(
                [(self.certificate.key, self.certificate.cert)]))
        elif self.options.tls_cert and self.options.tls_key:
            self.port = self.grpc.add_secure_port(address, grpc.ssl_server_credentials(
                [(Path(self.options.tls_key).read_bytes(), Path(self.options.tls_cert).read_bytes())]))
        else:
            self.port = self.grpc.add_insecure_port(address)
        if self.cluster is not None:
            await self._join_cluster()  # (before the first request: the lobby and directory are whole)
        await self.grpc.start()
        if isinstance(self.lan, Plan):
            self.advertiser = Advertiser(self.lobby, self.lan, name=self.lan_name, port=self.port,
                                         tls=self.fingerprint is not None)
            self.advertiser.start()
        await health_servicer.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        self._tasks.append(asyncio.ensure_future(self._keep_house()))
        self._tasks.append(asyncio.ensure_future(app.collect_young()))
        if self.tournament is not None:
            self.tournament.start()

    async def _keep_house(self) -> None:
        while True:
            await asyncio.sleep(app.HOUSEKEEPING_SECONDS)
            self.limiter.forget_idle()

    async def stop(self, grace: float = 2.0) -> None:
        """Stop taking requests, then stop the workers (each finishes the changes under way and closes its
        store), then the rest."""
        self.closing = True
        if self.tournament is not None:
            await self.tournament.close()  # its streams end, and no new game is made
        await self.games.close()
        if self.advertiser is not None:
            await self.advertiser.close()
        await self.grpc.stop(grace)
        if self.cluster is not None:
            await self.cluster.close()
        for machine in self.lobby.machines.values():
            await machine.channel.close()
        for worker in self.workers:  # the front's own streams to it end first (its lobby's), or it would wait them out
            await worker.channel.close()
        for worker in self.workers:
            if worker.process is not None and worker.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    worker.process.send_signal(signal.SIGTERM)
        for worker in self.workers:
            if worker.process is not None:
                try:
                    await asyncio.wait_for(worker.process.wait(), 10)
                except TimeoutError:
                    worker.process.kill()
                    await worker.process.wait()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.store is not None:
            self.store.close()
        self.limiter.close()
        shutil.rmtree(self.sockets, ignore_errors=True)
        os.close(self._sockets_lock)


async def serve(options: app.Options) -> None:
    """``tenpennies serve``: one process (``app.serve``) with one worker; else a front (with the tournament, if
    any) and its workers, until Ctrl-C or SIGTERM."""
    app.on_system_allocator()  # the front too (its workers inherit it)
    if options.workers <= 1 and known_workers(options.db) <= 1 and not options.cluster:
        await app.serve(options)
        return
    try:
        front = Front(options)
    except ValueError as error:
        print(f"tenpennies serve: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    await front.start()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    stop = app.stop_asked()
    front.announce(f"{len(front.lobby.where)} table(s) on {front.count} workers ({options.db} and beside it)")
    if front.tournament is not None:
        print(front.tournament.summary(), flush=True)
    await app.until_stopped(stop)
    await front.stop()
