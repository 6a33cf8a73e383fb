"""Thirty-One tournaments over gRPC, for real: the server's tournament mode running a Thirty-One tournament
(a server on loopback, each bot a client through the SDK's ``enter_tournament``), its standings checked
against the stored games' events and against the headless runner in-process; and the headless runner's
own gRPC path (``--server``) giving the games it gives in-process."""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from openskill.models import BradleyTerryFull

from tenpennies.client import bot as sdk
from tenpennies.client import tournament as tn
from tenpennies.client.bot import enter_tournament, load_bot, standing_line
from tenpennies.client.connection import Connection
from tenpennies.client.tournament import TournamentConfig as HeadlessConfig
from tenpennies.client.tournament import play_tournament
from tenpennies.engine.thirty_one import Rules
from tenpennies.engine.tournament import base_name
from tenpennies.server.app import Options, Server
from tenpennies.server.tournament import TournamentConfig
from tenpennies.v2 import tenpennies_pb2 as pb

SEED = 20261202


async def serve_tournament(tmp_path: Path, entries: tuple[str, ...], **settings: Any
                           ) -> tuple[pb.GetStandingsResponse, list[pb.GetStandingsResponse]]:
    """A Thirty-One tournament on a real server, one SDK client per entry (its bot the entry's base name,
    seeded by its place), played to the end: the standings, and what each bot was told at the end."""
    config = tmp_path / "cup.json"
    config.write_text(json.dumps({"name": "cup", "game": "thirty_one", "seed": SEED, "decision_seconds": 0,
                                  "takeover_seconds": 0, **settings}))
    server = Server(Options(port=0, db=str(tmp_path / "cup.db"), tournament=str(config)))
    await server.start()
    connections = [Connection(f"127.0.0.1:{server.port}") for _ in entries]
    try:
        told = await asyncio.wait_for(asyncio.gather(*(
            enter_tournament(connection, name, load_bot(base_name(name), seed=place))
            for place, (connection, name) in enumerate(zip(connections, entries, strict=True)))), 300)
        standings = await connections[0].standings()
        assert standings is not None
        return standings, list(told)
    finally:
        for connection in connections:
            await connection.close()
        await server.stop(0)


def stored_standings(db: Path, tally: str) -> dict[str, dict[str, Any]]:
    """The standings as the stored games say, from their stored events alone: each seat's place (the
    GameEnded's scores, checked against its seats' lives, tokens or points), the winners, the preset's
    tally as each seat ended; ratings replayed in the order the games finished."""
    model = BradleyTerryFull()
    table: dict[str, dict[str, Any]] = {}
    with sqlite3.connect(db) as conn:
        for (name,) in conn.execute("SELECT name FROM tournament_bots WHERE tournament = 'cup'"):
            table[name] = {"games": 0, "wins": 0.0, "places": [], tally: 0, "rating": model.rating()}
        games = conn.execute("SELECT table_id, names FROM tournament_games WHERE tournament = 'cup' "
                             "AND finished IS NOT NULL ORDER BY finished").fetchall()
        for table_id, names_text in games:
            names = json.loads(names_text)
            events = [pb.Event.FromString(data) for (data,) in conn.execute(
                "SELECT data FROM events WHERE table_id = ? AND audience IS NULL ORDER BY seq", (table_id,))]
            ended = next(e.game_ended for e in events if e.HasField("game_ended"))
            places, kept = list(ended.scores), [getattr(p, tally) for p in ended.thirty_one.players]
            assert len(places) == len(kept) == len(names) and min(places) == 1
            assert list(ended.winners) == [s for s in range(len(names)) if places[s] == 1]
            if tally != "lives":  # with lives, who went out later places better whatever their lives
                assert all(places[a] < places[b] for a in range(len(names)) for b in range(len(names))
                           if kept[a] > kept[b])
            rated = model.rate([[table[n]["rating"]] for n in names], ranks=[float(p) for p in places])
            for seat, name in enumerate(names):
                record = table[name]
                record["games"] += 1
                record["wins"] += 1 / len(ended.winners) if seat in ended.winners else 0
                record["places"].append(places[seat])
                record[tally] += kept[seat]
                record["rating"] = rated[seat][0]
    return table


@pytest.mark.parametrize(("preset", "tally"), [("classic", "lives"), ("banking", "tokens")])
async def test_a_thirty_one_tournament_of_heuristic_and_random_bots_over_grpc_is_its_stored_games(
        tmp_path: Path, preset: str, tally: str) -> None:
    entries = ("heuristic", "heuristic#2", "random", "random#2")
    served, told = await serve_tournament(tmp_path, entries, seats=3, games=8, rules={"preset": preset})
    assert (served.game, served.games_played, served.games_total, served.games_playing) == ("thirty_one", 8, 8, 0)
    assert all(t.standings == served.standings for t in told)  # every bot was told the same at the end
    expected = stored_standings(tmp_path / "cup.db", tally)
    assert {s.name for s in served.standings} == set(expected)
    assert sum(r["games"] for r in expected.values()) == 8 * 3
    for standing in served.standings:
        record = expected[standing.name]
        assert standing.games == record["games"] > 0
        assert dict(standing.tallies) == {tally: record[tally]}  # its own, no pennies nor buys
        assert (standing.illegal, standing.timed_out) == (0, 0)
        assert standing.shared_wins == pytest.approx(record["wins"])
        assert standing.mean_score == pytest.approx(sum(record["places"]) / len(record["places"]))
        assert standing.rating_mu == pytest.approx(record["rating"].mu)
        assert standing.rating_sigma == pytest.approx(record["rating"].sigma)
        line = standing_line(standing, served.game)
        assert "mean place" in line and f"{tally} " in line and "pennies" not in line
    assert sum(s.shared_wins for s in served.standings) == pytest.approx(8)
    ordinals = [s.rating_mu - 3 * s.rating_sigma for s in served.standings]
    assert ordinals == sorted(ordinals, reverse=True)
    best = {s.name: s.mean_score for s in served.standings}
    assert min(best["heuristic"], best["heuristic#2"]) < max(best["random"], best["random#2"])

    # a restart reads the stored results back into the same standings, the preset's tally with them
    again = Server(Options(port=0, db=str(tmp_path / "cup.db"), tournament=str(tmp_path / "cup.json")))
    await again.start()
    connection = Connection(f"127.0.0.1:{again.port}")
    try:
        assert await connection.standings() == served
    finally:
        await connection.close()
        await again.stop(0)


async def test_the_server_and_the_headless_runner_give_the_same_thirty_one_standings(tmp_path: Path) -> None:
    """As for Ten Pennies (test_tournament_compare), with bots that make no random choice (the server's bot
    plays all its games with one bot object): as many as the seats, named in sorted order, so that the
    server seats its one group rotated game by game, as the headless runner rotates its one lineup."""
    entries = ("heuristic", "heuristic#2", "heuristic#3")
    served, _ = await serve_tournament(tmp_path, entries, seats=3, games=6, rules={"preset": "cut_throat"})
    config = HeadlessConfig(bots=("heuristic",) * 3, seats=3, games=6, seed=SEED, game="thirty_one",
                            rules=Rules.of("cut_throat"), decision_seconds=0)
    headless = await asyncio.to_thread(play_tournament, config)
    assert len(headless.games) == 6 and headless.config.entries == entries
    assert [s.name for s in served.standings] == [s.name for s in headless.standings]
    for wire, local in zip(served.standings, headless.standings, strict=True):
        assert wire.games == local.games == 6
        assert wire.shared_wins == pytest.approx(local.wins)
        assert wire.mean_score == pytest.approx(local.mean_score)
        assert wire.mean_score_margin == pytest.approx(local.mean_score_margin or 0.0)
        assert dict(wire.tallies) == local.tallies and set(local.tallies) == {"lives"}
        assert wire.rating_mu == pytest.approx(local.rating_mu, abs=1e-9)
        assert wire.rating_sigma == pytest.approx(local.rating_sigma, abs=1e-9)


async def test_tenpennies_bot_enters_a_thirty_one_tournament_and_prints_places_and_the_presets_tally(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "cup.json"
    config.write_text(json.dumps({"name": "cup", "game": "thirty_one", "seats": 3, "games": 3, "seed": SEED,
                                  "rules": {"preset": "classic"}}))
    server = Server(Options(port=0, db=str(tmp_path / "cup.db"), tournament=str(config)))
    await server.start()
    try:
        runs = [asyncio.to_thread(sdk.run, sdk_args("--server", f"127.0.0.1:{server.port}", "--tournament",
                                                    "--strategy", strategy, "--name", name, "--seed", "1"))
                for strategy, name in (("heuristic", "hugo"), ("random", "rita"), ("heuristic", "hal"))]
        assert await asyncio.wait_for(asyncio.gather(*runs), 120) == [0, 0, 0]
    finally:
        await server.stop(0)
    out = capsys.readouterr().out
    assert out.count("seated at table") == 9 and "(places " in out
    assert out.count("tournament cup: 3 of 3 games played") == 3
    standings = [line for line in out.splitlines() if line.lstrip().startswith(("1. ", "2. ", "3. "))]
    assert len(standings) == 9 and all("mean place" in line and "lives " in line for line in standings)
    assert "pennies" not in out and "(this bot)" in out


def sdk_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tenpennies bot")
    sdk.add_arguments(parser)
    return parser.parse_args(argv)


@pytest.fixture
async def seeded_server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(Options(port=0, db=str(tmp_path / "tables.db"), allow_seeds=True, tables_per_address=1000))
    await running.start()
    yield running
    await running.stop(0)


@pytest.mark.parametrize("preset", ["classic", "no_elimination"])
async def test_the_headless_runner_over_grpc_plays_thirty_one_as_in_process(seeded_server: Server,
                                                                            preset: str) -> None:
    local = HeadlessConfig(bots=("heuristic", "random", "random"), seats=3, games=6, seed=7, game="thirty_one",
                           rules=Rules.of(preset), concurrency=3)
    wire = replace(local, server=f"127.0.0.1:{seeded_server.port}")
    over_grpc = await asyncio.wait_for(asyncio.to_thread(play_tournament, wire), 120)
    in_process = play_tournament(local)
    assert over_grpc.games == in_process.games
    assert all(set(g.tallies) == {local.tallies[0]} for g in over_grpc.games)
    assert over_grpc.to_json() == in_process.to_json()
    assert tn.render(over_grpc) == tn.render(in_process)


@pytest.mark.parametrize(("settings", "says"), [
    ({"game": "chess"}, "chess"), ({"game": 31}, "game"),
    ({"game": "thirty-one"}, r"^no game 'thirty-one' here \(there are ten_pennies, thirty_one\)$"),
    ({"game": "thirty_one", "rules": {"preset": "no_such"}}, "no_such"),
    ({"game": "thirty_one", "seats": 8, "rules": {"preset": "stop_the_bus"}}, "T31"),
])
def test_a_config_names_its_game_and_that_games_rules(settings: dict[str, Any], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        TournamentConfig.from_dict({"name": "cup", "games": 4, **settings})
    config = TournamentConfig.from_dict({"name": "cup", "games": 4, "game": "thirty_one",
                                         "rules": {"preset": "banking"}})
    assert (config.game, config.rules, config.tallies) == ("thirty_one", Rules.of("banking"), ("tokens",))
    assert TournamentConfig.from_dict({"name": "cup", "games": 4}).game == "ten_pennies"


@pytest.mark.parametrize(("game", "bots", "says"), [
    ("thirty_one", ("greedy", "heuristic", "random"),
     "unknown bot greedy: Thirty-One has no greedy bot (Ten Pennies has it); its bots are random, heuristic, "
     "searcher"),
    ("ten_pennies", ("heuristic", "greedy", "random"),
     "unknown bot heuristic: Ten Pennies has no heuristic bot (Thirty-One has it); its bots are greedy, random, "),
])
def test_another_games_strategy_is_refused_as_the_tournament_is_configured(
        game: str, bots: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    """In-process (and over gRPC and Ray, which check the same config first): before any game is played."""
    with pytest.raises(ValueError) as refused:
        HeadlessConfig(bots=bots, seats=3, games=3, game=game, rules=Rules() if game == "thirty_one" else
                       tn.rules_from_args(None)).validate()
    assert str(refused.value).startswith(says)
    parser = argparse.ArgumentParser()
    tn.add_arguments(parser)
    assert tn.run(parser.parse_args(["--game", game, "--bots", ",".join(bots), "--seats", "3",
                                     "--games", "3"])) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tournament: {says}")


async def test_tenpennies_bot_with_another_games_strategy_is_refused_before_it_registers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server's tournament config names the game; ``tenpennies bot --tournament --strategy`` asks it first,
    and a strategy of another game registers no bot (it would only ever play the safe default)."""
    config = tmp_path / "cup.json"
    config.write_text(json.dumps({"name": "cup", "game": "thirty_one", "seats": 3, "games": 3}))
    server = Server(Options(port=0, db=str(tmp_path / "cup.db"), tournament=str(config)))
    await server.start()
    try:
        address = f"127.0.0.1:{server.port}"
        code = await asyncio.wait_for(asyncio.to_thread(sdk.run, sdk_args(
            "--server", address, "--tournament", "--strategy", "greedy", "--name", "gus")), 60)
        assert code == 2
        err = capsys.readouterr().err
        assert "this tournament plays Thirty-One: unknown bot greedy: Thirty-One has no greedy bot" in err, err
        assert "its bots are random, heuristic, searcher" in err
        connection = Connection(address)
        try:
            standings = await connection.standings()
        finally:
            await connection.close()
        assert standings is not None and list(standings.standings) == []  # nobody registered
        assert server.tournament is not None and not server.tournament.bots
    finally:
        await server.stop(0)
