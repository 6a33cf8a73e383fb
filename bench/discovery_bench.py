"""How long until a browsing client finds a server on the LAN (mDNS, real multicast on this machine).

Against a baseline measured in the same run: the time until the server's gRPC port answers. Three
figures, each the median (and the slowest) of several runs:

* in process: ``Server.start()`` -> ListTables answers, and -> ``client.discovery.Browser`` finds it;
* ``tenpennies serve`` as a process of its own: process start -> port answers, and -> found;
* a table made -> the server's record says so (re-announced at once, then at most once a second; measured
  once the start's own announcements are done).

Needs a non-loopback IPv4 address (the first one this machine has, or ``--host``).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path

from tenpennies.client.connection import Connection
from tenpennies.client.discovery import Browser
from tenpennies.server.app import Options, Server
from tenpennies.wire.common import lan_addresses

from benchkit import start_server

TIMEOUT = 20.0


async def answered(address: str) -> None:
    """Ask the port until it answers (a fresh channel each time: gRPC's own backoff would be measured)."""
    while True:
        connection = Connection(address)
        try:
            await asyncio.wait_for(connection.tables(), 0.5)
            return
        except Exception:
            await asyncio.sleep(0.005)
        finally:
            await connection.close()


async def timed(start: float, what: Awaitable[object]) -> float:
    await asyncio.wait_for(what, TIMEOUT)
    return time.perf_counter() - start


async def in_process(host: str, directory: Path, browser: Browser) -> tuple[float, float, float]:
    name = f"bench {secrets.token_hex(3)}"
    server = Server(Options(host=host, port=0, db=str(directory / f"{name}.db"), name=name))
    begun = time.perf_counter()
    await server.start()
    address = f"{host}:{server.port}"
    port, found = await asyncio.gather(timed(begun, answered(address)),
                                       timed(begun, browser.until(lambda s: s.name == name, TIMEOUT)))
    connection = Connection(address)
    try:
        assert server.advertiser is not None  # its first announcements done: the record is changed at once
        await asyncio.wait_for(server.advertiser.announced.wait(), TIMEOUT)
        made = time.perf_counter()
        await connection.create_table("bench", 4)
        update = await timed(made, browser.until(lambda s: s.name == name and s.tables == 1, TIMEOUT))
    finally:
        await connection.close()
        await server.stop(0)
    return port, found, update


async def as_process(host: str, directory: Path, browser: Browser) -> tuple[float, float]:
    name = f"bench {secrets.token_hex(3)}"
    begun = time.perf_counter()
    starting = asyncio.create_task(asyncio.to_thread(
        start_server, directory / f"{name}.db", "--host", host, "--name", name))
    found_task = asyncio.create_task(timed(begun, browser.until(lambda s: s.name == name, TIMEOUT)))
    process, port_number = await starting
    try:
        port = await timed(begun, answered(f"{host}:{port_number}"))
        found = await found_task
    finally:
        process.terminate()
        await asyncio.to_thread(process.wait, 10)
    return port, found


def line(what: str, figures: list[float]) -> str:
    return f"  {what:<34} median {statistics.median(figures) * 1000:7.0f} ms   slowest {max(figures) * 1000:7.0f} ms"


async def main(host: str, runs: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        async with Browser(interface=host) as browser:
            inner = [await in_process(host, directory, browser) for _ in range(runs)]
            outer = [await as_process(host, directory, browser) for _ in range(runs)]
    print(f"discovery on {host}, {runs} runs each")
    print("Server.start() in process:")
    print(line("-> the gRPC port answers", [p for p, _, _ in inner]))
    print(line("-> found by a browsing client", [f for _, f, _ in inner]))
    print(line("a table made -> the record says so", [u for _, _, u in inner]))
    print("tenpennies serve (a process of its own) from its start:")
    print(line("-> the gRPC port answers", [p for p, _ in outer]))
    print(line("-> found by a browsing client", [f for _, f in outer]))


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--host", help="a non-loopback IPv4 address of this machine (default: the first)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    host = args.host or next(iter(lan_addresses()), None)
    if host is None:
        print("discovery bench: this machine has no IPv4 address but loopback; nothing to measure")
        return 0
    asyncio.run(main(host, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(run())
