"""The server on the LAN: mDNS/DNS-SD (zeroconf), so that ``tenpennies play`` finds it without an address.

A server bound to a LAN address advertises ``_tenpennies._tcp.local.`` with TXT properties a browsing
client shows before it connects: ``name`` (the server's, ``serve --name``; default the host's name),
``version`` (the package's), ``tables`` (open tables: waiting or playing), ``seats`` (empty seats at
waiting tables) and ``tls`` (``on``/``off``). The record follows the lobby: the advertiser is one more
lobby watcher (``Lobby.watch``, as a WatchTables stream is) and re-announces when the counts change, at
most once a second, changes in between coalesced.

Where it is announced (``plan``): a loopback-only server is not; ``0.0.0.0`` or ``::`` announce every IPv4
address of the host's interfaces (or only those of ``--interface``); a specific ``--host`` announces that
address alone, on its own interface. Announcing takes about a second of probing (RFC 6762): it runs in the
background and never holds up the port, and ``close`` sends the goodbye within a bounded time.

Each run announces a host name of its own (``tenpennies-<random>.local.``), not the machine's: two
servers with one machine name (containers, network namespaces) would otherwise mix their address records.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import secrets
import socket
from dataclasses import dataclass
from importlib import metadata
from typing import Protocol

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import ALL_ADDRESSES, SERVICE_TYPE, interface_addresses, lan_addresses

from .lobby import TableWatcher


class Watched(Protocol):
    """What the advertiser follows: a lobby (``Lobby``, or the front's over every worker, ``front.py``)."""

    def watch(self, client: str) -> tuple[list[pb.TableInfo], TableWatcher]: ...

    def unwatch(self, watcher: TableWatcher) -> None: ...

log = logging.getLogger(__name__)

MAX_NAME_BYTES = 63  # a DNS-SD instance name is one DNS label
TTL = 120  # seconds: a server gone without its goodbye (killed, unplugged) leaves browsers within two minutes
WATCHER = "zeroconf"  # the advertiser's lobby watcher, as the lobby counts watchers per client address


def clean_lan_name(text: str) -> str:
    """A server's name on the LAN: 1 to 63 bytes (UTF-8) of printable text; ValueError says what is wrong."""
    name = text.strip()
    if not name or not name.isprintable():
        raise ValueError("--name: a server's name is 1 to 63 printable characters")
    if len(name.encode()) > MAX_NAME_BYTES:
        raise ValueError(f"--name: {name!r} is longer than a LAN name may be ({MAX_NAME_BYTES} bytes)")
    return name


def default_lan_name() -> str:
    """The host's name, first label only (``kitchen`` of ``kitchen.example.org``)."""
    host = socket.gethostname().split(".")[0] or "Ten Pennies"
    return host.encode()[:MAX_NAME_BYTES].decode(errors="ignore") or "Ten Pennies"


def package_version() -> str:
    try:
        return metadata.version("tenpennies")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


@dataclass(frozen=True)
class Plan:
    """What to announce: ``addresses`` (IPv4) in the record, sent on the interfaces that have
    ``interfaces`` (zeroconf's ``interfaces=``)."""

    addresses: tuple[str, ...]
    interfaces: tuple[str, ...]


def plan(host: str, interface: str | None = None) -> Plan | str:
    """Where a server bound to ``host`` is announced, or (a str) why it is not. ValueError for an
    ``interface`` that does not exist, or that ``host`` is not an address of."""
    chosen = interface_addresses(interface) if interface else None
    if host in ALL_ADDRESSES:
        addresses = chosen or lan_addresses()
        if not addresses:
            return "not advertised on the LAN: this machine has no IPv4 address but loopback"
        return Plan(tuple(addresses), tuple(addresses))
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:  # a host name: the address it stands for here
        try:
            address = ipaddress.ip_address(socket.getaddrinfo(host, None, socket.AF_INET)[0][4][0])
        except (OSError, IndexError):
            return f"not advertised on the LAN: {host} has no IPv4 address here"
    if address.is_loopback:
        return "not advertised on the LAN: the server listens on loopback only (--host 0.0.0.0 serves the LAN)"
    if address.version != 4:
        return "not advertised on the LAN: discovery is IPv4 (--host 0.0.0.0 or :: is advertised)"
    if chosen is not None and str(address) not in chosen:
        raise ValueError(f"--interface {interface} does not have the address --host {host} (it has "
                         f"{', '.join(chosen)})")
    return Plan((str(address),), (str(address),))


@dataclass(frozen=True)
class Counts:
    """What the record tells of the lobby: open tables, and empty seats at the waiting ones."""

    tables: int = 0
    seats: int = 0

    @classmethod
    def of(cls, tables: dict[str, pb.TableInfo]) -> Counts:
        open_ = [t for t in tables.values() if t.status in (pb.TABLE_STATUS_WAITING, pb.TABLE_STATUS_PLAYING)]
        free = sum(sum(1 for s in t.seat_info if s.kind == pb.SEAT_KIND_EMPTY)
                   for t in open_ if t.status == pb.TABLE_STATUS_WAITING)
        return cls(len(open_), free)


class Advertiser:
    """The server's record on the LAN, kept in step with its lobby. ``start`` returns at once (the
    probing runs in a task); ``announced`` is set once the record is out; ``name_on_lan`` is the
    instance name it got (``Kitchen table-2`` if another server had the name)."""

    def __init__(self, lobby: Watched, where: Plan, *, name: str, port: int, tls: bool,
                 interval: float = 1.0) -> None:
        self.lobby = lobby
        self.where = where
        self.name = name
        self.port = port
        self.tls = tls
        self.interval = interval  # at most one re-announcement this often
        self.version = package_version()
        self.host = f"tenpennies-{secrets.token_hex(4)}.local."
        self.instance = f"{name.replace('.', '-')}.{SERVICE_TYPE}"
        self.counts = Counts()
        self.announced = asyncio.Event()
        self.zeroconf: AsyncZeroconf | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def name_on_lan(self) -> str:
        return self.instance.removesuffix(f".{SERVICE_TYPE}")

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name="advertise")

    def info(self) -> AsyncServiceInfo:
        properties = {"name": self.name, "version": self.version, "tables": str(self.counts.tables),
                      "seats": str(self.counts.seats), "tls": "on" if self.tls else "off"}
        return AsyncServiceInfo(SERVICE_TYPE, self.instance, port=self.port, properties=properties,
                                server=self.host, host_ttl=TTL, other_ttl=TTL,
                                parsed_addresses=list(self.where.addresses))

    async def _run(self) -> None:
        tables, watcher = self.lobby.watch(WATCHER)
        try:
            known = {t.table_id: t for t in tables}
            self.counts = Counts.of(known)
            self.zeroconf = AsyncZeroconf(interfaces=list(self.where.interfaces), ip_version=IPVersion.V4Only)
            info = self.info()
            await (await self.zeroconf.async_register_service(info, allow_name_change=True))
            if info.name != self.instance:
                log.warning("another server on the LAN is called %r: this one is advertised as %r",
                            self.name_on_lan, info.name.removesuffix(f".{SERVICE_TYPE}"))
                self.instance = info.name
            self.announced.set()
            loop = asyncio.get_running_loop()
            last = loop.time() - self.interval  # the first change goes out at once
            while True:
                await watcher.wake.wait()
                # coalesce: whatever changes until a second after the last announcement goes out as one (the
                # watcher keeps each table's latest)
                await asyncio.sleep(max(0.0, last + self.interval - loop.time()))
                changed, removed = await watcher.next()
                for table in changed:
                    known[table.table_id] = table
                for table_id in removed:
                    known.pop(table_id, None)
                counts = Counts.of(known)
                if counts == self.counts:
                    continue
                self.counts = counts
                last = loop.time()
                # the update goes out at once; its repeats (three, a quarter second apart) are awaited
                await (await self.zeroconf.async_update_service(self.info()))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # no multicast, the interface went away: the server goes on unadvertised
            log.warning("could not advertise on the LAN: %s", error)
        finally:
            self.lobby.unwatch(watcher)

    async def close(self, timeout: float = 2.0) -> None:
        """Say goodbye on the LAN (browsers drop the server at once) and close, within ``timeout``."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        if self.zeroconf is not None:
            try:
                await asyncio.wait_for(self.zeroconf.async_close(), timeout)
            except (TimeoutError, Exception) as error:
                log.warning("advertising on the LAN did not close cleanly: %s", error)
            self.zeroconf = None
