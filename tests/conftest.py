"""Fixtures most server-side tests share: a real server on a loopback port (with a real SQLite file, and
client-chosen seeds allowed, so games are reproducible), and a stub or a client Connection to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tenpennies.client.connection import Connection, open_channel, stub
from tenpennies.server.app import Options, Server

from serverkit import Service


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
