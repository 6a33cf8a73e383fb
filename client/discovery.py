"""Finding Ten Pennies servers on the LAN (mDNS/DNS-SD, zeroconf): what ``tenpennies play`` lists first.

Two ways to use it::

    async for change in browse(timeout=5):            # ends after 5 s (None: when cancelled)
        print(change.kind, change.server.name, change.server.address)

    async with Browser(interface="eth0") as browser:  # or: browser = Browser(); await browser.start() ...
        kitchen = await browser.until(lambda s: s.name == "Kitchen table", timeout=5)
        print(browser.servers)                        # every server found and not gone, by instance name
    # (await browser.close() when not used as a context manager)

A change is ``found`` (a server appeared), ``updated`` (its record changed: tables, seats free) or ``gone``
(it said goodbye, or its record expired). Servers are plain values (``FoundServer``). Browsing is IPv4;
``interface`` (a name such as ``eth0``, or one of its IPv4 addresses) keeps it to one interface, by
default every interface is asked. Resolving a server's record is bounded (``RESOLVE_MS``); ``close``
cancels whatever is under way and closes the sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Literal

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from tenpennies.wire.common import SERVICE_TYPE, interface_addresses

RESOLVE_MS = 3000  # a server's record (address, port, properties) is asked for this long at most
QUEUE = 256        # changes kept for a listener that has not read them (the oldest go first)
MAX_DIGITS = 6     # a count in a record longer than this is no count
MAX_TEXT = 63      # characters of a record's text shown (a server's own name is at most 63 bytes)

Kind = Literal["found", "updated", "gone"]


@dataclass(frozen=True)
class FoundServer:
    """One server on the LAN as its record tells it. ``key``: its DNS-SD instance name (unique on the
    LAN); ``address``: HOST:PORT to connect to (of its addresses, the one on a network of this machine);
    ``tables``: open tables; ``seats_free``: empty seats at waiting tables."""

    key: str
    name: str
    address: str
    version: str
    tables: int
    seats_free: int
    tls: bool


@dataclass(frozen=True)
class Change:
    kind: Kind
    server: FoundServer


def _number(properties: dict[bytes, bytes | None], key: bytes) -> int:
    """A count from the record; 0 for anything else (not digits, or more than any server holds)."""
    value = properties.get(key) or b""
    return int(value) if value.isdigit() and len(value) <= MAX_DIGITS else 0


def plain(text: str) -> str:
    """Text from the LAN as it may be shown: anything but printable characters (escape sequences, line
    breaks) becomes a space, runs of spaces one, and no more than ``MAX_TEXT`` characters."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())[:MAX_TEXT]


def _text(properties: dict[bytes, bytes | None], key: bytes) -> str:
    return plain((properties.get(key) or b"").decode(errors="replace"))


def _reachable(address: str) -> bool:
    """An address a server on the LAN may be at: not this machine (loopback, 0.0.0.0), not multicast."""
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_unspecified or ip.is_loopback or ip.is_multicast or ip.is_reserved)


def _networks() -> list[ipaddress.IPv4Network]:
    """This machine's IPv4 networks, to pick the address of a server with several that we can reach."""
    return [ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False)
            for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)]


def server_of(info: AsyncServiceInfo, networks: list[ipaddress.IPv4Network]) -> FoundServer | None:
    """A resolved record as a server (None: it has no IPv4 address a server on the LAN may have, or no port).
    Whatever it says is shown plainly (``plain``): anyone on the LAN may announce anything."""
    addresses = [a for a in info.parsed_addresses(IPVersion.V4Only) if _reachable(a)]
    if not addresses or not info.port:
        return None
    near = [a for a in addresses if any(ipaddress.IPv4Address(a) in n for n in networks)]
    properties = info.properties
    key = info.name.removesuffix(f".{SERVICE_TYPE}")
    return FoundServer(key=key, name=_text(properties, b"name") or plain(key),
                       address=f"{(near or addresses)[0]}:{info.port}",
                       version=_text(properties, b"version"), tables=_number(properties, b"tables"),
                       seats_free=_number(properties, b"seats"), tls=_text(properties, b"tls") == "on")


class Browser:
    """Browses the LAN for Ten Pennies servers: ``servers`` (by instance name) is what is there now, the
    first ``MAX_SERVERS`` of them (a LAN flooded with records costs a bounded list and bounded lookups)."""

    MAX_SERVERS = 256

    def __init__(self, interface: str | None = None) -> None:
        self.interface = interface
        self.servers: dict[str, FoundServer] = {}
        self.zeroconf: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self.networks: list[ipaddress.IPv4Network] = []
        self.listeners: list[asyncio.Queue[Change]] = []
        self.changed = asyncio.Event()  # set at each change (``until`` clears it as it looks)
        self.resolving: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # records that changed while being looked up
        self.closed = False

    async def start(self) -> None:
        """Start browsing; ValueError for an interface this machine does not have."""
        chosen = interface_addresses(self.interface) if self.interface else None
        self.networks = _networks()
        self.zeroconf = AsyncZeroconf(interfaces=chosen or InterfaceChoice.All, ip_version=IPVersion.V4Only)
        self.browser = AsyncServiceBrowser(self.zeroconf.zeroconf, [SERVICE_TYPE], handlers=[self._on_change])

    async def __aenter__(self) -> Browser:
        await self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.close()

    def _on_change(self, zeroconf: Zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if self.closed:  # a record heard while closing: no lookup is started that nobody would end
            return
        if state_change is ServiceStateChange.Removed:
            if (task := self.resolving.pop(name, None)) is not None:
                task.cancel()
            key = name.removesuffix(f".{SERVICE_TYPE}")
            if (server := self.servers.pop(key, None)) is not None:
                self._tell(Change("gone", server))
            return
        if name in self.resolving:  # one lookup at a time per server: it looks again once it is done
            self.again.add(name)
        elif name.removesuffix(f".{SERVICE_TYPE}") not in self.servers \
                and len(self.servers) + len(self.resolving) >= self.MAX_SERVERS:
            return  # as many as anyone can choose from already: the rest are not looked up
        else:
            self.resolving[name] = asyncio.get_running_loop().create_task(self._resolve(name))

    async def _resolve(self, name: str) -> None:
        assert self.zeroconf is not None
        try:
            while True:
                self.again.discard(name)
                info = AsyncServiceInfo(SERVICE_TYPE, name)
                if await info.async_request(self.zeroconf.zeroconf, RESOLVE_MS):
                    self._update(server_of(info, self.networks))
                if name not in self.again:
                    return
        finally:
            self.resolving.pop(name, None)
            self.again.discard(name)

    def _update(self, server: FoundServer | None) -> None:
        if server is None:
            return
        before = self.servers.get(server.key)
        if before == server:
            return
        self.servers[server.key] = server
        self._tell(Change("found" if before is None else "updated", server))

    def _tell(self, change: Change) -> None:
        for queue in self.listeners:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(change)
        self.changed.set()

    def changes(self, timeout: float | None = None) -> AsyncIterator[Change]:
        """Each change from this call on (the servers already found first, as ``found``), until ``timeout``
        seconds have passed (None: until the iteration is stopped)."""
        queue: asyncio.Queue[Change] = asyncio.Queue(QUEUE)
        for server in self.servers.values():
            queue.put_nowait(Change("found", server))
        self.listeners.append(queue)  # now, not at the first step of the iteration: nothing is missed between
        end = None if timeout is None else asyncio.get_running_loop().time() + timeout
        return self._follow(queue, end)

    async def _follow(self, queue: asyncio.Queue[Change], end: float | None) -> AsyncIterator[Change]:
        loop = asyncio.get_running_loop()
        try:
            while True:
                left = None if end is None else end - loop.time()
                if left is not None and left <= 0:
                    return
                try:
                    yield await asyncio.wait_for(queue.get(), left)
                except TimeoutError:
                    return
        finally:
            self.listeners.remove(queue)

    async def until(self, condition: Callable[[FoundServer], bool], timeout: float) -> FoundServer:
        """The first server found (or already there) for which ``condition`` holds; TimeoutError after
        ``timeout`` seconds."""
        async with asyncio.timeout(timeout):
            while True:
                self.changed.clear()
                for server in self.servers.values():
                    if condition(server):
                        return server
                await self.changed.wait()

    async def close(self) -> None:
        """Stop browsing: no lookup is started from now on, those under way are cancelled, the sockets closed."""
        self.closed = True
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await self.browser.async_cancel()
            self.browser = None
        for task in list(self.resolving.values()):
            task.cancel()
        await asyncio.gather(*self.resolving.values(), return_exceptions=True)
        self.resolving.clear()
        if self.zeroconf is not None:
            await self.zeroconf.async_close()
            self.zeroconf = None


async def browse(timeout: float | None = None, interface: str | None = None) -> AsyncIterator[Change]:
    """Servers found, updated and gone on the LAN, as they come, for ``timeout`` seconds (None: until
    the caller stops); the sockets are closed when the iteration ends."""
    async with Browser(interface) as browser:
        async for change in browser.changes(timeout):
            yield change
