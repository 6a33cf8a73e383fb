"""Fixtures most server-side tests share: a real server on a loopback port (with a real SQLite file, and
client-chosen seeds allowed, so games are reproducible), and a stub or a client Connection to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tenpennies.client.connection import Connection, open_channel, stub
from tenpennies.server.app import Options, Server

from serverkit import Service

# Under pytest-xdist (`make test` runs the suite on several workers, --dist loadgroup), the tests marked lan run
# one after another on one worker, beside the rest ("hosts"): each builds network namespaces and starts a dozen
# processes, with deadlines for reconnecting; one set of hosts at a time.
# The tests of tests/test_discovery.py are marked alone: `make test` runs them after the others, by themselves.
# They advertise and browse on this machine's real interface, and the flood test fills the browser's list with
# whatever it hears there: beside the rest it let a record past the bound now and then; alone, never.
ALONE = {"test_discovery.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("lan"):
            item.add_marker(pytest.mark.xdist_group("hosts"))
        if item.path.name in ALONE:
            item.add_marker(pytest.mark.alone)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(Options(port=0, db=str(tmp_path / "games.db"), allow_seeds=True))
    await running.start()
    yield running
    await running.stop(0)


@pytest.fixture
async def service(server: Server) -> AsyncIterator[Service]:
    channel = open_channel(f"127.0.0.1:{server.port}")
    yield stub(channel)
    await channel.close()


@pytest.fixture
async def connection(server: Server) -> AsyncIterator[Connection]:
    connected = Connection(f"127.0.0.1:{server.port}")
    yield connected
    await connected.close()
