"""A tournament on ``serve --workers 2``, for real: the front keeps the tournament (registrations, WaitForSeat,
standings, its store) and places its games on both workers, which are processes of their own; bots on channels
of their own play through the front's address. The same seeded tournament gives the same standings as the
one-process server, and goes on, to the same standings, when a worker is killed in the middle of a game."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest
from test_tournament_compare import BOTS, GAMES, RULES, SEED

from tenpennies.client.bot import enter_tournament, load_bot
from tenpennies.client.connection import Connection, open_channel, stub
from tenpennies.client.tournament import TournamentConfig, play_tournament
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.server.app import Options, Server
from tenpennies.server.front import Front, Worker
from tenpennies.server.tournament import GAMES_SERVICE, GameTable
from tenpennies.server.tournament import TournamentConfig as ServerConfig
from tenpennies.server.workers import worker_db
from tenpennies.v2 import tenpennies_pb2 as pb

from serverkit import start_server_process


def write_config(tmp_path: Path) -> Path:
    config = tmp_path / "cup.json"
    # no timers and no takeover: every decision is the bot's own (test_tournament_compare's tournament)
    config.write_text(json.dumps({"name": "cup", "games": GAMES, "seats": 4, "rules": RULES, "seed": SEED,
                                  "decision_seconds": 0, "takeover_seconds": 0}))
    return config


async def one_process(db: Path, config: Path) -> Server:
    server = Server(Options(port=0, db=str(db), tournament=str(config), address_rate=0))
    await server.start()
    return server


async def two_workers(db: Path, config: Path) -> Front:
    front = Front(Options(port=0, db=str(db), tournament=str(config), workers=2, address_rate=0))
    await front.start()
    return front


async def played(server: Server | Front, during: Callable[[], Awaitable[None]] | None = None,
                 ports: set[int] | None = None) -> pb.GetStandingsResponse:
    """The tournament played to its end by the deterministic bots at the server's address; ``during`` runs
    meanwhile; ``ports`` gets the workers' own ports the bots played their seats at."""
    connections = [Connection(f"127.0.0.1:{server.port}") for _ in BOTS]
    try:
        playing = asyncio.gather(*(enter_tournament(connection, name, load_bot(name))
                                   for connection, name in zip(connections, BOTS, strict=True)))
        if during is not None:
            await during()
        await asyncio.wait_for(playing, 300)
        standings = await connections[0].standings()
        assert standings is not None
        if ports is not None:
            ports |= {int(where.rsplit(":", 1)[1]) for connection in connections for where in connection.workers}
        return standings
    finally:
        for connection in connections:
            await connection.close()


def assert_as_headless(served: pb.GetStandingsResponse) -> None:
    """The standings are the headless runner's for the same bots and seed (``test_tournament_compare``: the
    one-process server's are)."""
    headless = play_tournament(TournamentConfig(bots=BOTS, seats=4, games=GAMES, seed=SEED,
                                                rules=HouseRules.from_dict(RULES), decision_seconds=0))
    assert [s.name for s in served.standings] == [s.name for s in headless.standings]
    for wire, local in zip(served.standings, headless.standings, strict=True):
        assert wire.games == local.games == GAMES
        assert wire.shared_wins == pytest.approx(local.wins)
        assert wire.mean_score == pytest.approx(local.mean_score)
        assert dict(wire.tallies) == local.tallies and set(local.tallies) == {"pennies", "buys"}
        assert wire.illegal == wire.timed_out == 0
        assert wire.rating_mu == pytest.approx(local.rating_mu, abs=1e-9)
        assert wire.rating_sigma == pytest.approx(local.rating_sigma, abs=1e-9)


def tournament_tables(db: Path, index: int) -> dict[str, str]:
    """The tournament's tables in worker ``index``'s store, read from the file: id -> status."""
    with sqlite3.connect(worker_db(str(db), index)) as conn:
        return dict(conn.execute("SELECT id, status FROM tables WHERE creator = 'tournament:cup'").fetchall())


def stored_games(db: Path) -> list[tuple[int, str, int | None]]:
    """The tournament's games as its store (the server's own file) keeps them: number, table, finished."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT game, table_id, finished FROM tournament_games WHERE tournament = 'cup' "
                            "ORDER BY game").fetchall()


async def test_a_tournament_on_two_workers_places_its_games_on_both_and_ends_as_in_one_process(
        tmp_path: Path) -> None:
    config = write_config(tmp_path)
    server = await one_process(tmp_path / "one.db", config)
    try:
        alone = await played(server)
    finally:
        await server.stop(0)
    front = await two_workers(tmp_path / "two.db", config)
    try:
        channel = open_channel(f"127.0.0.1:{front.port}")
        lobby = stub(channel).WatchTables(pb.WatchTablesRequest())
        await lobby.read()
        direct: set[int] = set()
        spread = await played(front, ports=direct)
        listed = await stub(channel).ListTables(pb.ListTablesRequest())
        lobby.cancel()
        await channel.close()
    finally:
        await front.stop(0)

    assert (spread.games_played, spread.games_total, spread.games_playing) == (GAMES, GAMES, 0)
    assert list(spread.standings) == list(alone.standings)  # the same standings, to the last bit of every rating
    assert len({s.rating_mu for s in spread.standings}) > 1  # the games told the bots apart
    # the bots played their seats at the workers' own ports (the front named each table's: no hop through it)
    assert direct == {worker.port for worker in front.workers}

    db = tmp_path / "two.db"
    held = [tournament_tables(db, index) for index in (0, 1)]
    assert len(held[0]) == len(held[1]) == GAMES // 2, "games played one at a time alternate between the workers"
    assert all(status == "finished" for tables in held for status in tables.values())
    games = stored_games(db)  # the tournament's own rows are in the server's file, its tables' games where played
    assert [number for number, _, _ in games] == list(range(GAMES))
    assert {table_id for _, table_id, _ in games} == set(held[0]) | set(held[1])
    assert sorted(finished for _, _, finished in games if finished is not None) == list(range(GAMES))
    # the lobby over both workers shows them as a one-process server would
    ours = [t for t in listed.tables if t.tournament == "cup"]
    assert ours and all(t.status == pb.TABLE_STATUS_FINISHED and not t.HasField("seed") for t in ours)


async def worker_holding_a_game_under_way(front: Front) -> Any:
    """The worker of a tournament game being played past its first turns, once there is one (its table id and
    worker)."""
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        while True:
            tournament = front.tournament
            assert tournament is not None
            for number in sorted(tournament.games, reverse=True):
                row = tournament.games[number]
                if row.result is None and number >= 1:
                    snapshot = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=row.table_id))).snapshot
                    if snapshot.table.status == pb.TABLE_STATUS_PLAYING and snapshot.game.turn > 3:
                        return row.table_id, front.lobby.where[row.table_id]
            await asyncio.sleep(0.02)
    finally:
        await channel.close()


async def test_a_worker_killed_mid_tournament_is_started_again_and_the_tournament_ends_as_without_it(
        tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    front = await two_workers(db, write_config(tmp_path))
    killed: list[str] = []

    async def kill_a_worker() -> None:
        table_id, worker = await asyncio.wait_for(worker_holding_a_game_under_way(front), 120)
        os.kill(worker.pid or 0, signal.SIGKILL)
        killed.append(table_id)
        # the front keeps the tournament: while the worker comes back, its standings are there to ask for,
        # and a finished game's record is withheld while the tournament runs, at the front and at the workers
        assert front.tournament is not None
        first = front.tournament.games[0]
        assert first.result is not None
        channel = open_channel(f"127.0.0.1:{front.port}")
        assert (await stub(channel).GetStandings(pb.GetStandingsRequest())).games_total == GAMES
        with pytest.raises(grpc.aio.AioRpcError) as withheld:
            await stub(channel).GetGameRecord(pb.GetGameRecordRequest(table_id=first.table_id))
        assert withheld.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "still running" in (withheld.value.details() or "")
        await channel.close()
        while worker.starts < 2 or not worker.up.is_set():
            await asyncio.sleep(0.02)
        held = front.lobby.where[first.table_id]
        assert isinstance(held, Worker)
        direct = open_channel(f"127.0.0.1:{held.port}")  # the game's worker's own port
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub(direct).GetGameRecord(pb.GetGameRecordRequest(table_id=first.table_id))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        # and the front's way to the worker's games is not a client's: refused at the worker's port
        with pytest.raises(grpc.aio.AioRpcError) as not_yours:
            await direct.unary_unary(f"/{GAMES_SERVICE}/Open")(json.dumps(
                {"table": front.tournament.config.game_table(0).to_dict(), "number": 0}).encode())
        assert not_yours.value.code() == grpc.StatusCode.PERMISSION_DENIED
        await direct.close()
    try:
        spread = await played(front, kill_a_worker)
        channel = open_channel(f"127.0.0.1:{front.port}")  # over: the records are given
        record = await stub(channel).GetGameRecord(pb.GetGameRecordRequest(table_id=killed[0]))
        assert record.record.table_id == killed[0] and record.record.commands
        await channel.close()
    finally:
        await front.stop(0)
    assert killed
    assert (spread.games_played, spread.games_total, spread.games_playing) == (GAMES, GAMES, 0)
    assert sum(w.starts for w in front.workers) == 3
    held = tournament_tables(db, 0) | tournament_tables(db, 1)
    assert held[killed[0]] == "finished" and len(held) == GAMES  # the game cut off went on where it was

    assert_as_headless(spread)


async def test_a_one_process_tournament_stopped_mid_game_goes_on_with_two_workers(tmp_path: Path) -> None:
    """Restarted, a tournament server goes on with its tournament (its store is the server's own file, which a
    one-process server and worker 0 share), with or without workers."""
    db, config = tmp_path / "cup.db", write_config(tmp_path)
    server = await one_process(db, config)
    channel = open_channel(f"127.0.0.1:{server.port}")
    tokens = {name: (await stub(channel).RegisterBot(pb.RegisterBotRequest(name=name))).bot_token for name in BOTS}
    await channel.close()
    connections = [Connection(f"127.0.0.1:{server.port}") for _ in BOTS]
    playing = [asyncio.ensure_future(enter_tournament(connection, name, load_bot(name), bot_token=tokens[name]))
               for connection, name in zip(connections, BOTS, strict=True)]
    try:
        assert server.tournament is not None
        tournament = server.tournament
        while not (tournament.finished >= 3 and tournament.report().games_playing
                   and any(t.game is not None and t.game.turn > 3 for t in server.lobby.tables.values()
                           if t.status == "playing")):
            await asyncio.sleep(0.02)
        cut = next(t.id for t in server.lobby.tables.values() if t.status == "playing")
    finally:
        await server.stop(0)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for connection in connections:
            await connection.close()
    before = stored_games(db)
    assert 3 <= sum(1 for _, _, finished in before if finished is not None) < GAMES

    front = await two_workers(db, config)
    connections = [Connection(f"127.0.0.1:{front.port}") for _ in BOTS]
    try:
        results = await asyncio.wait_for(asyncio.gather(*(
            enter_tournament(connection, name, load_bot(name), bot_token=tokens[name])
            for connection, name in zip(connections, BOTS, strict=True))), 300)
    finally:
        for connection in connections:
            await connection.close()
        await front.stop(0)
    spread = results[0]
    assert (spread.games_played, spread.games_total, spread.games_playing) == (GAMES, GAMES, 0)
    assert {game for game in before if game[2] is not None} <= set(stored_games(db))  # what was played stays
    held = [tournament_tables(db, index) for index in (0, 1)]
    assert held[0][cut] == "finished", "the game cut off went on at worker 0, which holds the one process's tables"
    assert held[1], "games made after the restart go to the second worker too"
    assert_as_headless(spread)


async def test_the_headless_runner_on_two_workers_plays_the_same_games_as_in_process(tmp_path: Path) -> None:
    """``tenpennies tournament --server`` on ``serve --workers 2``: its tables land on both workers and its seats
    play there (``Connection.join``), with the same results as in-process."""
    db = tmp_path / "games.db"
    front = Front(Options(port=0, db=str(db), allow_seeds=True, tables_per_address=1000, workers=2))
    await front.start()
    local = TournamentConfig(bots=("greedy", "random", "greedy", "random"), seats=4, games=8, seed=7,
                             rules=HouseRules(rounds=(1,), max_turns=40), concurrency=4)
    try:
        over_grpc = await asyncio.wait_for(
            asyncio.to_thread(play_tournament, replace(local, server=f"127.0.0.1:{front.port}")), 120)
    finally:
        await front.stop(0)
    assert over_grpc.games == play_tournament(local).games
    for index in (0, 1):
        with sqlite3.connect(worker_db(str(db), index)) as conn:
            assert conn.execute("SELECT COUNT(*) FROM tables WHERE status = 'finished'").fetchone()[0] > 0


@pytest.mark.parametrize("config", [
    {"name": "cup", "games": 4, "rules": RULES, "seed": 3},
    {"name": "cup", "game": "thirty_one", "games": 3, "seats": 3, "rules": {"preset": "banking"}},
])
def test_a_game_table_reaches_a_worker_as_it_was_made(config: dict[str, Any]) -> None:
    """What the front sends a worker to make a game's table (JSON) is the table the config makes."""
    tournament = ServerConfig.from_dict(config)
    for number in range(tournament.games):
        table = tournament.game_table(number)
        assert GameTable.from_dict(json.loads(json.dumps(table.to_dict()))) == table
        assert table.creator == "tournament:cup" and table.seed == tournament.game_seed(number)


async def test_serve_with_workers_runs_the_tournament_in_its_front(tmp_path: Path) -> None:
    """``tenpennies serve --tournament CONFIG --workers 2``: a front and two workers, the tournament answered at
    the one address (no note that --workers is set aside); a config with a mistake stops it at once."""
    process, port = start_server_process(tmp_path / "cup.db", "--workers", "2", "--tournament",
                                         str(write_config(tmp_path)))
    try:
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        await service.RegisterBot(pb.RegisterBotRequest(name="ada"))
        reply = await service.GetStandings(pb.GetStandingsRequest(tournament="cup"))
        assert [s.name for s in reply.standings] == ["ada"] and reply.games_total == GAMES
        await channel.close()
    finally:
        process.terminate()
        process.wait(30)
    assert process.stdout is not None
    output = process.stdout.read()  # (what follows the line start_server_process read, buffered with it)
    assert "set aside" not in output and "tournament 'cup': 0 bot(s) registered" in output
    with sqlite3.connect(tmp_path / "cup.db") as conn:  # stored in the server's own file
        assert conn.execute("SELECT name FROM tournament_bots").fetchall() == [("ada",)]
    (tmp_path / "bad.json").write_text(json.dumps({"name": "cup"}))
    bad = subprocess.run([sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db",
                          str(tmp_path / "bad.db"), "--workers", "2", "--tournament", str(tmp_path / "bad.json")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "games" in bad.stderr
