"""Thirty-One through the bot SDK (``tenpennies bot``: ``play_seat`` over gRPC, a built-in strategy of the game
the table plays) and ``tenpennies replay`` (a stored game told by its narrator, every hand revealed), against
a real server on loopback and the SQLite file it wrote."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from tenpennies.client import bot as sdk
from tenpennies.client import replay
from tenpennies.client.bot import GameBot, SeatStats, load_bot, play_seat
from tenpennies.client.connection import Connection
from tenpennies.engine.games import kind
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.server.app import Server
from tenpennies.server.store import read_game
from tenpennies.wire import thirty_one as wire
from tenpennies.wire.games import THIRTY_ONE

from serverkit import subscribed


def replay_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="tenpennies replay")
    replay.add_arguments(parser)
    code = replay.run(parser.parse_args(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def played_by_the_sdk(connection: Connection, strategy: str, preset: str, seed: int,
                            stats: SeatStats) -> tuple[str, object]:
    """A seeded Thirty-One table: Ann played over gRPC by the SDK with ``strategy``, two built-in bots."""
    table = await connection.create_table("31 by the SDK", 3, wire.rules_to_pb(Rules.of(preset, lives=2)),
                                          decision_seconds=0, takeover_seconds=0, seed=seed, game=THIRTY_ONE)
    session = await connection.join(table.table_id, "Ann")
    for strategy_of_bot in ("heuristic", "random"):
        await connection.add_bot(table.table_id, table.host_token, strategy_of_bot)
    game = asyncio.ensure_future(play_seat(load_bot(strategy, seed=4), session, stats=stats))
    await subscribed(connection.service, table.table_id, seats=[0])
    await connection.start(table.table_id, table.host_token)
    ended = await asyncio.wait_for(game, 90)
    return table.table_id, ended


@pytest.mark.parametrize("strategy, preset", [("heuristic", "classic"), ("random", "switch"),
                                              ("heuristic", "stop_the_bus")])
async def test_the_sdk_plays_a_thirty_one_seat_to_the_end_with_the_games_own_strategy(
        server: Server, connection: Connection, strategy: str, preset: str) -> None:
    stats = SeatStats()
    table_id, ended = await played_by_the_sdk(connection, strategy, preset, seed=31, stats=stats)
    game = server.lobby.tables[table_id].game
    assert game is not None and game.over and game.result is not None
    assert ended is not None and tuple(ended.winners) == game.result.winners  # type: ignore[attr-defined]
    assert len(ended.thirty_one.players) == 3  # type: ignore[attr-defined]
    assert stats.played > 0 and stats.illegal == stats.defaults == stats.errors == stats.refused == 0
    assert stats.played == sum(1 for c in game.log if c.seat == 0)  # every command of seat 0 was the SDK's


def test_a_strategy_is_the_game_the_seat_plays_and_one_no_game_has_is_refused() -> None:
    assert "heuristic" in sdk.STRATEGIES and "greedy" in sdk.STRATEGIES
    assert isinstance(load_bot("heuristic"), GameBot) and isinstance(load_bot("random"), GameBot)
    assert not isinstance(load_bot("greedy"), GameBot)  # Ten Pennies' alone
    with pytest.raises(sdk.BotLoadError, match="strategies are"):
        load_bot("nope")
    thirty_one = kind(THIRTY_ONE).new(2, Rules(), 3)
    view = thirty_one.view(thirty_one.to_act()[0])
    assert load_bot("heuristic").choose(view) in view.legal
    with pytest.raises(sdk.BotLoadError, match="this game has no heuristic bot"):
        from tenpennies.engine.ten_pennies import Game, HouseRules
        ten_pennies = Game(2, HouseRules(), 3)
        load_bot("heuristic").choose(ten_pennies.view(ten_pennies.to_act()[0]))


async def test_tenpennies_bot_with_another_games_strategy_is_refused_before_it_joins(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    """``tenpennies bot --table ID --strategy greedy`` at a Thirty-One table: refused up front (it would only
    ever send the safe default), naming the table's game and its bots; the seat stays free."""
    table = await connection.create_table("31", 3, wire.rules_to_pb(Rules.of("classic")), game=THIRTY_ONE)
    parser = argparse.ArgumentParser(prog="tenpennies bot")
    sdk.add_arguments(parser)
    args = parser.parse_args(["--server", connection.address, "--table", table.table_id, "--strategy", "greedy"])
    assert await asyncio.wait_for(asyncio.to_thread(sdk.run, args), 60) == 2
    err = capsys.readouterr().err
    assert f"table {table.table_id} plays Thirty-One: unknown bot greedy: Thirty-One has no greedy bot" in err
    assert "its bots are random, heuristic, searcher" in err
    listed = {t.table_id: t for t in await connection.tables()}[table.table_id]
    assert "greedy bot" not in [s.name for s in listed.seat_info]  # it never joined


async def test_a_stored_thirty_one_game_is_replayed_by_its_narrator_with_every_hand(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    table_id, _ = await played_by_the_sdk(connection, "heuristic", "classic", seed=8, stats=SeatStats())
    db = server.options.db
    code, out, err = replay_cli(capsys, table_id, "--db", db)
    assert code == 0, err
    lines = out.splitlines()
    stored = read_game(db, table_id)
    assert stored.game == THIRTY_ONE
    played = kind(THIRTY_ONE)
    game = played.new(stored.seats, stored.rules, stored.seed)
    events = list(game.opening_events)
    for command in stored.commands:
        events += game.apply(command)
    assert lines[0] == (f"Table {table_id} ('31 by the SDK'): Thirty-One, 3 seats, preset classic, seed 8, "
                        f"{len(stored.commands)} commands")
    assert lines[1] == "Seats: 0 Ann, 1 heuristic bot, 2 random bot"
    narrator = played.narrator(stored.rules, stored.seat_name, every_hand=True)
    told = [line for event in events for line in (narrator.line(event),) if line is not None]
    body = "\n".join(lines)
    for line in told:  # every event the narrator tells, in its words, every hand dealt and drawn among them
        assert line in body, line
    deals = [e for e in events if isinstance(e, ev.CardsReceived) and e.reason == "deal"]
    assert sum(line.startswith("Dealt to ") for line in lines) == len(deals) > 0
    assert any(line.startswith("[d1 t") for line in lines)  # a move marked with its deal and turn
    standings = lines[lines.index("Final standings:") + 1:]
    assert len(standings) == 3 and sum("winner" in line for line in standings) == len(game.result.winners)
    code, again, _ = replay_cli(capsys, table_id[:6], "--db", db, "--hands")
    assert code == 0 and again.count("      Ann ") > 3
