"""Build and run the server: the game service, health checking, reflection, limits and optional TLS."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import os
import platform
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import fingerprint, pem_to_der

from .advertise import Advertiser, Plan, clean_lan_name, default_lan_name, plan
from .certs import ServerCertificate, server_certificate, tls_directory
from .forwarded import who_asks
from .lobby import Lobby
from .service import Admission, Door, FairShare, RateLimiter, TenPenniesServicer, request_cost
from .store import Store
from .tournament import LobbyGames, Tournament, TournamentConfig, games_service

SERVICE = pb.DESCRIPTOR.services_by_name["TenPenniesService"].full_name
MAX_MESSAGE = 64 * 1024  # no legal request comes near it
SERVER_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE),
    # A client whose link went silent still holds its stream until a ping goes unanswered: pinging after
    # 3 s, 2 s to answer, its seat counts as unsubscribed (takeover_seconds runs) within about 5 s.
    ("grpc.keepalive_time_ms", 3_000),
    ("grpc.keepalive_timeout_ms", 2_000),
    # terminal clients ping after 3 s without a word from the server, to tell a dead link soon
    ("grpc.http2.min_ping_interval_without_data_ms", 2_000),
]


@dataclass
class Options:
    host: str = "127.0.0.1"
    port: int = 50051
    db: str = "tenpennies.db"
    tls_cert: str | None = None
    tls_key: str | None = None
    rate: float = 1000.0  # requests a second per connection, sustained
    burst: float = 2000.0
    address_rate: float = 500.0  # request costs a second per client address (all its connections), sustained;
    address_burst: float = 1000.0  # 0: no limit per address
    allow_seeds: bool = False          # take client-chosen seeds (tests, tournaments): deals can be foreseen
    waiting_table_ttl: float = 3600.0  # seconds a waiting table nobody sits at or watches lives; 0: ever
    tables_per_address: int = 20       # open tables (waiting or playing) one client address may hold
    tournament: str | None = None      # a tournament config file (JSON, or TOML): run that tournament
    name: str | None = None            # the server's name on the LAN (default: the host's name)
    advertise: bool = True             # announce the server on the LAN (mDNS), unless bound to loopback
    interface: str | None = None       # announce on this interface (a name or one of its addresses) only
    tls: bool = False                  # serve TLS: with tls_cert/tls_key, else a self-signed certificate (certs.py)
    workers: int = 1                   # processes that hold tables; more than one: a front and workers (front.py)
    bind: str | None = None            # a worker: the front's unix socket (and host:port only if direct)
    direct: bool = False               # a worker: also on host:port, for clients that come to its tables directly
    behind_front: bool = False         # a worker: the client is the one the front names (forwarded.py)
    budgets: str | None = None         # a worker: the file of the address budgets the front shares (budget.py)
    cluster: str | None = None         # NATS server(s) of a cluster of machines sharing one lobby (cluster.py)
    cluster_address: str | None = None  # host:port the other machines reach this one at (default: found)


class Listener:
    """What the process on the public address shows the world, a one-process server's or the front of
    ``serve --workers``: its certificate and fingerprint, its name and plan on the LAN (a bad --name or
    --interface: ValueError, before anything is opened), and how it says so as it starts."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.lan_name = clean_lan_name(options.name) if options.name is not None else default_lan_name()
        self.lan: Plan | str = plan(options.host, options.interface) if options.advertise else "not advertised"
        self.advertiser: Advertiser | None = None
        self.port = 0
        self.certificate: ServerCertificate | None = None  # the self-signed one, when the server made or kept it
        if options.tls and not options.tls_cert:
            self.certificate = server_certificate(tls_directory(options.db), options.host)

    @property
    def fingerprint(self) -> str | None:
        """The SHA-256 fingerprint of the certificate served (None: plaintext)."""
        if self.certificate is not None:
            return self.certificate.fingerprint
        if self.options.tls_cert:
            return fingerprint(pem_to_der(Path(self.options.tls_cert).read_bytes()))
        return None

    def announce(self, holding: str) -> None:
        """Say where it listens (``holding``: the tables it holds, in words), its fingerprint, and where it is
        advertised on the LAN or why not."""
        scheme = "TLS" if self.fingerprint else "plaintext"
        print(f"Ten Pennies server listening on {self.options.host}:{self.port} ({scheme}), {holding}", flush=True)
        if self.fingerprint:
            kept = f", {'made now and ' if self.certificate.made else ''}kept in {self.certificate.directory}" \
                if self.certificate else ""
            print(f"certificate fingerprint {self.fingerprint}{kept}: players check it when they first connect",
                  flush=True)
        if self.advertiser is not None:
            where = ", ".join(f"{address}:{self.port}" for address in self.advertiser.where.addresses)
            print(f"advertising on the LAN as {self.lan_name!r} ({where})", flush=True)
        elif self.options.advertise:
            print(self.lan, flush=True)


def stop_asked() -> asyncio.Event:
    """An event set once the process is asked to stop (Ctrl-C or SIGTERM). Taken before the server says where
    it listens: a stop asked the moment after (a client that read that line and ends it) is heard, where
    Python's own handling would end the process on the spot, without its orderly stop."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def until_stopped(stop: asyncio.Event) -> None:
    """Return once ``stop`` (``stop_asked``) is set, saying so."""
    await stop.wait()
    print("shutting down", flush=True)


class Server(Listener):
    """A running server; ``port`` is the one bound (useful with port 0)."""

    def __init__(self, options: Options, store: Store | None = None) -> None:
        """``store``: the store of ``options.db``, already open (the local game's launcher opens it in a
        thread while the app draws); the server closes it as it stops."""
        # a config with a mistake stops the server before it opens anything (ValueError says what)
        config = TournamentConfig.load(options.tournament) if options.tournament else None
        super().__init__(options)
        self.store = store if store is not None else Store(options.db)
        self.lobby = Lobby(self.store, allow_seeds=options.allow_seeds,
                           waiting_table_ttl=options.waiting_table_ttl,
                           tables_per_address=options.tables_per_address)
        self.tournament = Tournament(config, LobbyGames(self.lobby), self.store) if config else None
        self.limiter = RateLimiter(options.rate, options.burst, options.address_rate, options.address_burst,
                                   shared=options.budgets)
        # requests taken fairly among clients: in turns, bounds on one address's at once and waiting (none with no
        # limit per address: --address-rate 0), budgets charged and refusals made before a request is parsed
        self.admission = Admission() if options.address_rate else Admission(per_client=0, waiting=0)
        fair = FairShare(self.admission, self.limiter, lambda method: request_cost(method, len(self.lobby.tables)))
        self.grpc = grpc.aio.server(interceptors=[Door(who_asks(options.behind_front), fair)], options=SERVER_OPTIONS)
        self._housekeeping: asyncio.Task[None] | None = None
        self._held_most = 0  # the most tables held in memory since memory was last given back (housekeeping)

    async def start(self) -> None:
        """Serve at once: only the tables' rows are read before the port opens; each game is read when
        first needed, the playing ones in the background."""
        await self.lobby.load()
        if self.tournament is not None:
            await self.tournament.load()
        pb_grpc.add_TenPenniesServiceServicer_to_server(
            TenPenniesServicer(self.lobby, self.limiter, self.tournament, self.admission), self.grpc)
        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, self.grpc)
        reflection.enable_server_reflection((SERVICE, health.SERVICE_NAME, reflection.SERVICE_NAME), self.grpc)
        if self.options.bind is not None:  # a worker: the front's way in, on a socket only it reaches
            self.grpc.add_generic_rpc_handlers((games_service(self.lobby),))  # the front's tournament's games
            self.grpc.add_insecure_port(self.options.bind)
        if self.options.bind is None or self.options.direct:
            address = f"{self.options.host}:{self.options.port}"
            if self.certificate is not None:
                credentials = grpc.ssl_server_credentials([(self.certificate.key, self.certificate.cert)])
                self.port = self.grpc.add_secure_port(address, credentials)
            elif self.options.tls_cert and self.options.tls_key:
                credentials = grpc.ssl_server_credentials(
                    [(Path(self.options.tls_key).read_bytes(), Path(self.options.tls_cert).read_bytes())])
                self.port = self.grpc.add_secure_port(address, credentials)
            else:
                self.port = self.grpc.add_insecure_port(address)
        await self.grpc.start()
        if isinstance(self.lan, Plan):  # probing takes a second: in the background, the port answers now
            self.advertiser = Advertiser(self.lobby, self.lan, name=self.lan_name, port=self.port,
                                         tls=self.certificate is not None or bool(self.options.tls_cert))
            self.advertiser.start()
        await health_servicer.set(SERVICE, health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        self.lobby.start()
        if self.tournament is not None:
            self.tournament.start()
        self._housekeeping = asyncio.ensure_future(self._keep_house())

    async def _keep_house(self) -> None:
        """What clients that left held goes: their request budgets, and the finished tables nobody watches
        any more; the memory freed is given back to the system (``release_freed_memory``), and once the
        server is quiet again (``quiet``) what its busy minutes left in its caches too."""
        while True:
            await asyncio.sleep(HOUSEKEEPING_SECONDS)
            self.limiter.forget_idle()
            went = await self.lobby.forget_lingering()
            if await self.quiet() or went:
                release_freed_memory()

    async def quiet(self) -> bool:
        """When tables have left memory since the last time and the server now holds at most QUIET_TABLES,
        give back what the busy minutes left behind: the store's connections renewed (their page caches,
        statements, cursor lists), and a full collection, which also empties the interpreter's free lists
        (tuples, lists, dicts, floats... kept for reuse: megabytes after a busy spell). Cheap when quiet: few
        objects to look at; never while busy, when a full collection stalls every table. Whether it did."""
        held = len(self.lobby.tables)
        self._held_most = max(self._held_most, held)
        if held > QUIET_TABLES or self._held_most <= held:
            return False
        self._held_most = held
        await self.store.renew_connections()
        gc.collect()
        return True

    async def stop(self, grace: float = 2.0) -> None:
        """Stop taking requests, let the changes under way finish, then close the store."""
        if self._housekeeping is not None:
            self._housekeeping.cancel()
        if self.tournament is not None:
            await self.tournament.close()  # its streams end, and no new game is made
        if self.advertiser is not None:  # the LAN hears goodbye first (bounded in time)
            await self.advertiser.close()
        await self.grpc.stop(grace)
        await self.lobby.close()
        self.store.close()
        self.limiter.close()


HOUSEKEEPING_SECONDS = 5.0  # between sweeps of what clients that left held
QUIET_TABLES = 8  # a server holding at most this many tables in memory is quiet (``Server.quiet``)


def _malloc_trim() -> Callable[[int], int] | None:
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    trim: Callable[[int], int] | None = getattr(ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6"),
                                                "malloc_trim", None)
    return trim


_TRIM = _malloc_trim()


def on_system_allocator() -> None:
    """Run a process started as ``tenpennies serve`` (its command line's first argument) on the C library's
    allocator (PYTHONMALLOC=malloc): re-executes it once, as it was started, unless PYTHONMALLOC is set
    already (the operator's choice stands) or this is not glibc. A program that calls ``serve`` itself (a
    test) keeps its allocator; the processes a server starts inherit the setting.

    Python's own allocator takes memory from the system in arenas of 1 MiB and gives one back only once every
    object in it is gone: after a busy spell, a few hundred objects that outlive it (grpc's pending calls,
    the interpreter's caches, what happens to be reused) hold whole arenas (a soak of 40 tables for a
    minute left 6-7 arenas this way; tests/test_memory.py: a hundred tables of bots left 16 MB). glibc gives
    back free pages (``release_freed_memory``): after the same hundred tables the server is back within 3 MB
    of its warmed-up size. The cost is CPU on the Python side of each command (the engine's own games: up
    to ~15% more in a noisy measurement on a loaded machine; grpc and protobuf allocate with malloc anyway)."""
    if sys.argv[1:2] != ["serve"] or "PYTHONMALLOC" in os.environ or _TRIM is None or sys.flags.dev_mode \
            or not sys.executable:
        return
    os.execve(sys.executable, sys.orig_argv, {**os.environ, "PYTHONMALLOC": "malloc"})


def release_freed_memory() -> None:
    """Give the memory freed back to the system where the C library allows it (glibc's malloc_trim; elsewhere
    nothing). glibc keeps what a process freed in its heap for reuse: after tables leave memory, a server
    whose players have gone would otherwise stay at its busiest size (a soak: 78 MB after, 62 before)."""
    if _TRIM is not None:
        _TRIM(0)


COLLECT_EVERY = 0.1  # seconds between collections of the youngest generation


async def collect_young() -> None:
    """Collect the youngest generation often, a little at a time. grpc leaves a small cycle behind every call:
    with the threshold above, a client making a few thousand calls a second piled up a collection of ~90,000
    objects every few seconds, each stalling every table for 100-200 ms; collected every tenth of a
    second, each is a few hundred objects (and the old generations are still seldom collected)."""
    while True:
        await asyncio.sleep(COLLECT_EVERY)
        gc.collect(0)


async def serve(options: Options) -> None:
    """Run until Ctrl-C or SIGTERM, then stop gracefully. A tournament config with a mistake stops it at
    once, saying what the mistake is (exit status 2). The process's own entry (``tenpennies serve``): it first
    puts the process on the C library's allocator (``on_system_allocator``, which re-executes it)."""
    on_system_allocator()
    try:
        server = Server(options)
    except ValueError as error:
        print(f"tenpennies serve: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    await server.start()
    # A server holds many long-lived objects (tables, events kept for resuming, streams): full cyclic
    # collections over them were the p99 latency at 500 tables (126 ms -> 22 ms without them).
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    collector = asyncio.ensure_future(collect_young())
    stop = stop_asked()
    server.announce(f"{len(server.lobby.tables)} table(s) from {options.db}")
    if server.tournament is not None:
        print(server.tournament.summary(), flush=True)
    await until_stopped(stop)
    collector.cancel()
    await server.stop()
