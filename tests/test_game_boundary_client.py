"""The game boundary on the client's side: the fixture game of tests/test_game_boundary.py ("high card"), given a
client entry (``client.games.ClientGame``) beside its engine and wire entries, all three registered only while
a test runs, plays through the ``bots`` command, a headless tournament (in-process and over gRPC), the replay
of its stored game, the replay viewer's steps and the history, with no line of those modules naming it.

And the rule that makes that hold for every game: outside the registries and each game's own packages, no
module of the client names a game (its package, its engine name, an identifier of its own)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tenpennies.client import cli, replay
from tenpennies.client import games as client_games
from tenpennies.client.history import history, left_in
from tenpennies.client.local import played_games, read_game
from tenpennies.client.stepper import Stepper
from tenpennies.client.tournament import TournamentConfig, play_tournament, render
from tenpennies.engine import games
from tenpennies.engine.tournament import wins_text
from tenpennies.server.app import Server
from tenpennies.server.lobby import Lobby
from tenpennies.server.store import Store
from tenpennies.server.table import Settings
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import games as wire_games

from test_game_boundary import HIGH_CARD, HIGH_CARD_WIRE, HighRules, events_until_over

CLIENT = Path(__file__).resolve().parent.parent / "client"

HIGH_CARD_CLIENT = client_games.ClientGame(name=HIGH_CARD.name)
"""All the client needs to be told of high card beyond its Kind: nothing (every fact at its default)."""


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """High card, registered for one test: one entry in the engine's registry, one on the wire, one in the
    client's."""
    monkeypatch.setitem(games.GAMES, HIGH_CARD.name, HIGH_CARD)
    monkeypatch.setitem(wire_games.WIRE, HIGH_CARD.name, HIGH_CARD_WIRE)
    monkeypatch.setitem(client_games.CLIENT_GAMES, HIGH_CARD.name, HIGH_CARD_CLIENT)
    yield


def test_the_client_asks_its_registry_and_is_told_which_games_it_has() -> None:
    assert client_games.client_game("") is client_games.client_game(games.DEFAULT_GAME)
    assert set(client_games.CLIENT_GAMES) == set(games.GAMES)  # every game the engine has, the client tells
    with pytest.raises(LookupError, match="no game 'high_card' in this client \\(there are "):
        client_games.client_game(HIGH_CARD.name)


def test_bots_plays_a_game_it_was_never_told_of(high_card: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bots", "--game", "high_card", "--seats", "2", "--seed", "3", "--bots", "low,high",
                     "--rule", "hands=4"]) == 0
    out = capsys.readouterr().out.splitlines()
    game = HIGH_CARD.new(2, HighRules(hands=4), 3)
    low, high = (HIGH_CARD.bots[name](0) for name in ("low", "high"))
    while not game.over:  # the same game, played here: the bots are deterministic
        for seat in game.to_act():
            game.apply((low, high)[seat].choose(game.view(seat)))
    result = game.result
    assert result is not None
    assert out[0] == "High Card: 2 seats, seed 3"
    standings = out[out.index("Final standings:") + 1:-1]
    assert len(standings) == 2 and out[-1] == "8 commands"
    for line, seat in zip(standings, sorted((0, 1), key=lambda s: (s not in result.winners, s)), strict=True):
        assert f"seat {seat} ({('low', 'high')[seat]})" in line and f"score {result.scores[seat]:>4}" in line
        assert ("winner" in line) == (seat in result.winners)
    # -v: every event in the game's narrator's words, every hand seen
    assert cli.main(["bots", "--game", "high_card", "--seats", "2", "--seed", "3", "-v"]) == 0
    told = capsys.readouterr().out
    assert "Dealt to seat 0 (low): " in told and "Dealt to seat 1 (low): " in told
    assert told.count(" face down") == 6 and told.count(" showed ") == 3 and "Game over: " in told
    # its own rules and seats, judged by the game
    assert cli.main(["bots", "--game", "high_card", "--seats", "3"]) == 2
    assert "HC-1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["bots", "--game", "high_card", "--rule", "hands=9"])
    assert "HC-2: hands takes a whole number from 1 to 5" in capsys.readouterr().err


async def test_a_tournament_of_a_game_it_was_never_told_of_is_the_same_in_process_and_over_grpc(
        high_card: None, server: Server) -> None:
    config = TournamentConfig(bots=("low", "high"), seats=2, games=4, seed=5, game=HIGH_CARD.name)
    assert config.rules == HighRules()  # the game's own defaults
    in_process = play_tournament(config)
    assert [g.winners for g in in_process.games] and all(not g.tallies for g in in_process.games)
    text = render(in_process)
    assert text.startswith("High Card tournament: low, high\n2 seats, 4 games (2 deals x 2 rotations), seed 5\n")
    wins = {s.name: s.wins for s in in_process.standings}
    assert sum(wins.values()) == pytest.approx(4)
    for name in ("low", "high"):
        row = next(line.split() for line in text.splitlines() if line.split()[1:2] == [name])
        assert row[2:4] == ["4", wins_text(wins[name])]
    import asyncio
    over_grpc = await asyncio.to_thread(play_tournament, TournamentConfig(
        bots=("low", "high"), seats=2, games=4, seed=5, game=HIGH_CARD.name, server=f"127.0.0.1:{server.port}",
        decision_seconds=0))
    assert [(g.scores, g.winners) for g in over_grpc.games] == [(g.scores, g.winners) for g in in_process.games]
    assert render(over_grpc) == text


async def finished_high_card(db: Path) -> tuple[str, int]:
    """A table of high card in a real store, Ann (a person, playing her lowest card) against the game's own
    "high" bot, played to its end; the table's id and Ann's seat."""
    store = Store(str(db))
    lobby = Lobby(store, allow_seeds=True)
    try:
        table, host = await lobby.create("high", 2, HighRules(hands=3), Settings(0, 0), 11, "test",
                                         game=HIGH_CARD.name)
        await table.add_bot(host, 1, "high")
        seat, token = await table.join("Ann", 0)
        _, mine = await table.subscribe(token)
        await table.start(host)

        async def play_lowest(event: pb.Event) -> None:
            if event.HasField("decision_request"):
                lowest = min(event.decision_request.legal_commands, key=lambda c: c.discard.card_id)
                await table.command(token, lowest)

        await events_until_over(mine, play_lowest)
        assert table.status == "finished"
        return table.id, seat
    finally:
        await lobby.close()
        store.close()


async def test_a_stored_game_of_a_game_it_was_never_told_of_is_replayed_stepped_and_in_the_history(
        high_card: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    table_id, ann = await finished_high_card(db)
    stored = read_game(db, table_id)
    game = HIGH_CARD.new(stored.seats, stored.rules, stored.seed)
    events = list(game.opening_events)
    for command in stored.commands:
        events += game.apply(command)
    result = game.result
    assert result is not None and stored.game == HIGH_CARD.name

    # the replay: every event in the game's narrator's words, for a reader who sees every hand
    parser = argparse.ArgumentParser()
    replay.add_arguments(parser)
    assert replay.run(parser.parse_args([table_id[:6], "--db", str(db), "--hands"])) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Table {table_id} ('high'): High Card, 2 seats, seed 11, 6 commands"
    assert lines[1] == f"Seats: 0 Ann, 1 {stored.seat_name(1)}"
    narrator = HIGH_CARD.narrator(stored.rules, stored.seat_name, every_hand=True)
    told = [line for line in (narrator.line(e) for e in events) if line is not None]
    assert [line for line in lines if line in told] == told  # every line, in order
    assert sum(line.startswith(f"      {stored.seat_name(1)} ") for line in lines) == 5  # --hands: but after the end
    standings = lines[lines.index("Final standings:") + 1:]
    assert len(standings) == 2 and sum("winner" in line for line in standings) == len(result.winners)

    # the replay viewer's steps: a command a step, in the narrator's words
    stepper = Stepper(stored)
    assert stepper.last == len(stored.commands) == 6
    assert [line for step in stepper.steps for line in step.lines] == told
    assert stepper.game_at(stepper.last).to_dict() == game.to_dict()
    assert stepper.chart().names == ("Ann", stored.seat_name(1))

    # the history: Ann's row, her place, her score, no pennies; she played it to its end
    [played] = played_games(db)
    assert played.people == (ann,)
    [row] = history(db)
    assert (row.table_id, row.game, row.seat, row.seats) == (table_id, "High Card", ann, 2)
    assert row.won == (ann in result.winners) and row.score == result.scores[ann] and row.pennies is None
    assert row.place == (1 if ann in result.winners else 2)
    assert left_in(stored, ann) is None
