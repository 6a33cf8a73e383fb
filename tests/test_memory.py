"""Memory after the clients leave: a quiet server gives back what its busy minutes left behind.
Real servers on loopback with real SQLite files; the allocator test starts `tenpennies serve` as a process."""

from __future__ import annotations

import asyncio
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tenpennies.client.connection import open_channel, stub
from tenpennies.server import app
from tenpennies.server.app import Options, Server
from tenpennies.server.lobby import Lobby
from tenpennies.v2 import tenpennies_pb2 as pb

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


async def _until(condition: Any, what: str, seconds: float = 60) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not condition():
        assert loop.time() < give_up, f"never happened: {what}"
        await asyncio.sleep(0.02)


async def test_a_quiet_server_renews_its_stores_connections_and_a_busy_one_keeps_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What SQLite's connections gathered while busy (page caches, statements, the list of every cursor made)
    goes once the tables have left and the server is quiet, never while it holds many tables; the server
    reads and writes on after it."""
    monkeypatch.setattr(Lobby, "FINISHED_LINGER", 0.5)
    monkeypatch.setattr(app, "HOUSEKEEPING_SECONDS", 0.1)
    monkeypatch.setattr(app, "QUIET_TABLES", 1)
    server = Server(Options(db=str(tmp_path / "quiet.db"), port=0, allow_seeds=True))
    await server.start()
    store, lobby = server.store, server.lobby
    channel = open_channel(f"127.0.0.1:{server.port}")
    service = stub(channel)
    try:
        tables = []
        for n in range(4):  # four games of bots: busy, for a server that is quiet at one table
            created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
                name=f"busy {n}", seats=2, seed=n, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=20))))
            table_id, host = created.table.table_id, created.host_token
            for seat in (0, 1):
                await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                                      strategy=pb.BOT_STRATEGY_GREEDY))
            tables.append((table_id, host))
        writer, reader = store._db, store._read_db  # (the reader's opened as the lobby loaded)
        assert writer is not None and reader is not None and not await server.quiet()  # four tables held: busy
        assert store._db is writer and store._read_db is reader
        for table_id, host in tables:
            await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
        await _until(lambda: len(lobby.finished) == len(tables), "every game is over")
        await _until(lambda: not lobby.tables, "the finished tables nobody watches leave memory")
        # the writer's connection renewed, the reader's closed (opened afresh when next needed)
        await _until(lambda: store._db is not writer and store._read_db is not reader, "the connections are renewed")
        for table_id, _ in tables:  # read back (the reader's new connection) ...
            reply: pb.GetSnapshotResponse = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
            assert reply.snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER
        assert store._read_db not in (None, reader)
        made: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(name="after", seats=2))
        assert made.table.table_id in lobby.tables  # ... and written (the writer's new connection)
        assert (await store.load_table(made.table.table_id)) is not None
    finally:
        await channel.close()
        await server.stop(0)


@pytest.mark.skipif(not GLIBC, reason="the C library's allocator gives back free pages on glibc (malloc_trim)")
def test_tenpennies_serve_runs_on_the_c_librarys_allocator_unless_its_operator_chose_one(tmp_path: Path) -> None:
    """Python's allocator keeps an arena of 1 MiB while one object in it lives: `tenpennies serve` runs on
    glibc's, which gives back free pages. An operator's PYTHONMALLOC stands; a program calling serve() itself
    (this test) keeps its allocator."""
    app.on_system_allocator()  # not started as `tenpennies serve`: nothing happens (this test goes on)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    for chosen, expected in ((None, "malloc"), ("pymalloc", "pymalloc")):
        env = base if chosen is None else {**base, "PYTHONMALLOC": chosen}
        process = subprocess.Popen(
            [sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", str(tmp_path / "a.db"),
             "--no-advertise"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        try:
            assert process.stdout is not None
            assert "listening on" in process.stdout.readline()
            environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
            assert f"PYTHONMALLOC={expected}".encode() in environ
        finally:
            process.terminate()
            process.wait(30)


SERVE_QUICKLY = (  # `tenpennies serve` whose finished tables leave memory after half a second, swept every 0.2 s
    "import sys; from tenpennies.server import app, lobby; lobby.Lobby.FINISHED_LINGER = 0.5; "
    "app.HOUSEKEEPING_SECONDS = 0.2; from tenpennies.client.cli import main; sys.exit(main())")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def _bot_games(service: Any, count: int, seed: int) -> None:
    """``count`` games of four greedy bots played at once, to their end."""
    async def one(n: int) -> None:
        created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
            name=f"bots {n}", seats=4, seed=seed + n,
            rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40))))
        for seat in range(4):
            await service.AddBot(pb.AddBotRequest(table_id=created.table.table_id, host_token=created.host_token,
                                                  seat=seat, strategy=pb.BOT_STRATEGY_GREEDY))
        await service.StartGame(pb.StartGameRequest(table_id=created.table.table_id,
                                                    host_token=created.host_token))
    await asyncio.gather(*(one(n) for n in range(count)))


async def _no_table_held(service: Any) -> None:
    """Until the server holds no table (its lobby lists those it holds)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 300
    while (await service.ListTables(pb.ListTablesRequest())).tables:
        assert loop.time() < give_up, "the finished tables never left memory"
        await asyncio.sleep(0.1)


@pytest.mark.skipif(not GLIBC, reason="memory is given back to the system on glibc (malloc_trim)")
async def test_after_a_hundred_tables_come_and_go_the_server_is_back_near_its_warmed_up_size(tmp_path: Path) -> None:
    """A `tenpennies serve` process: warmed up by a few games, then a hundred tables of bots at once; once
    they have all gone its RSS comes back within 5 MB of where it was after the warm-up."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE_QUICKLY, "serve", "--port", "0", "--db", str(tmp_path / "rss.db"),
         "--no-advertise", "--allow-seeds", "--tables-per-address", "1000", "--address-rate", "0",
         "--workers", "1"],  # one process, whose memory this is (with workers its tables are in theirs)
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "listening on" in line, line
        port = int(line.split(":")[1].split()[0])
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        try:
            await _bot_games(service, 4, 0)  # the warm-up
            await _no_table_held(service)
            warm = _rss_mb(process.pid)
            await _bot_games(service, 100, 100)
            busy = _rss_mb(process.pid)
            await _no_table_held(service)
            loop = asyncio.get_running_loop()
            give_up = loop.time() + 60  # (a sweep after the last table left gives the memory back)
            while (after := _rss_mb(process.pid)) > warm + 5:
                assert loop.time() < give_up, f"RSS {warm:.1f} MB warm, {busy:.1f} busy, {after:.1f} after"
                await asyncio.sleep(0.2)
        finally:
            await channel.close()
    finally:
        process.terminate()
        process.wait(30)
