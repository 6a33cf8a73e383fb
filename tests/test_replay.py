"""``tenpennies replay`` against databases a real server wrote: a finished game move by move with every hand,
an unfinished one as far as it went, a table that never started, and what is not there."""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from tenpennies.client import replay
from tenpennies.client.bot import SeatStats, play_seat
from tenpennies.client.connection import Connection
from tenpennies.engine.cards import sort_key
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.server.app import Server
from tenpennies.server.store import read_game
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping
from tenpennies.wire.cards import card_from_pb

from serverkit import subscribed

RULES = HouseRules(max_turns=30, rounds=(1, 4, 7))


def replay_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="tenpennies replay")
    replay.add_arguments(parser)
    code = replay.run(parser.parse_args(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def status(db: str, table_id: str) -> str:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return str(conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone()[0])


async def finished_game(connection: Connection, server: Server) -> str:
    """A seeded table of one remote bot (named Ann) and two built-in ones, played to its end."""
    table = await connection.create_table("replayed", 3, mapping.rules_to_pb(RULES), decision_seconds=0,
                                          takeover_seconds=0, seed=99)
    session = await connection.join(table.table_id, "Ann")
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    game = asyncio.ensure_future(play_seat(GreedyBot(), session, stats=SeatStats()))
    await subscribed(connection.service, table.table_id, seats=[0])
    await connection.start(table.table_id, table.host_token)
    assert await asyncio.wait_for(game, 60) is not None
    return table.table_id


async def test_a_finished_game_is_told_move_by_move_with_every_hand(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    table_id = await finished_game(connection, server)
    db = server.options.db
    code, out, err = replay_cli(capsys, table_id, "--db", db)  # the server still runs: read-only beside it
    assert code == 0, err
    lines = out.splitlines()

    # The engine, from the same seed and log, says what the replay must show.
    stored = read_game(db, table_id)
    assert stored.names == ["Ann", "greedy bot", "greedy bot"] and stored.seed == 99
    game = Game(3, RULES, 99)
    deals: list[list[str]] = []
    ends: list[ev.RoundEnded] = []
    final: list[ev.GameEnded] = []
    events = list(game.opening_events)
    for command in stored.commands:
        events += game.apply(command)
    for event in events:
        if isinstance(event, ev.RoundStarted):
            deals.append([])
        elif isinstance(event, ev.CardsReceived) and event.reason == "deal":
            hand = " ".join(c.text for c in sorted(event.cards, key=sort_key))
            deals[-1].append(f"Dealt to {stored.seat_name(event.seat)}: {hand}")
        elif isinstance(event, ev.RoundEnded):
            ends.append(event)
        elif isinstance(event, ev.GameEnded):
            final.append(event)
    assert game.over and len(deals) == len(ends) == 3 and len(final) == 1

    assert lines[0].startswith(f"Table {table_id} ('replayed'): 3 seats")
    assert lines[0].endswith(f"seed 99, {len(stored.commands)} commands")
    assert lines[1] == "Seats: 0 Ann, 1 greedy bot 1, 2 greedy bot 2"
    headers = [i for i, line in enumerate(lines) if re.match(r"Round \d: ", line)]
    assert [lines[i].split(":")[0] for i in headers] == ["Round 1", "Round 4", "Round 7"]
    for i, hands in zip(headers, deals, strict=True):  # every hand of every deal, sorted as a hand is read
        assert lines[i + 1:i + 4] == hands
    for end in ends:  # every round's end, with its points and totals
        at = lines.index(next(line for line in lines if line.startswith(f"Round {end.round} over, ")))
        for seat in range(3):
            assert f"{end.points[seat]} points (total {end.scores[seat]:>4})" in lines[at + 1 + seat]
    turn_lines = [line for line in lines if line.startswith("[r")]
    draws = sum(1 for e in events if isinstance(e, ev.CardsReceived) and e.reason == "draw")
    assert sum(" drew the " in line for line in turn_lines) == draws  # every card drawn, named
    discards = sum(1 for e in events if isinstance(e, ev.Discarded))
    assert sum(" discarded the " in line for line in turn_lines) == discards
    standings = lines[lines.index("Final standings:") + 1:]
    assert len(standings) == 3
    order = sorted(range(3), key=lambda s: (final[0].scores[s], s))
    for line, seat in zip(standings, order, strict=True):
        assert stored.seat_name(seat) in line and f"score {final[0].scores[seat]:>4}" in line
        assert ("winner" in line) == (seat in final[0].winners)
    assert "not finished" not in out

    # a prefix of the id will do, and --hands shows every hand each turn
    code, again, _ = replay_cli(capsys, table_id[:5], "--db", db, "--hands")
    assert code == 0 and again.count("      Ann ") > 10 and set(lines) <= set(again.splitlines())


async def test_an_unfinished_game_is_told_as_far_as_it_went_and_says_so(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    table = await connection.create_table("stalled", 3, mapping.rules_to_pb(RULES), decision_seconds=0,
                                          takeover_seconds=0)
    session = await connection.join(table.table_id, "Bob")  # joins, never plays: the game waits for Bob
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    await connection.start(table.table_id, table.host_token)
    snapshot = await session.snapshot()
    assert status(server.options.db, table.table_id) == "playing"
    code, out, err = replay_cli(capsys, table.table_id, "--db", server.options.db)
    assert code == 0, err
    assert "Round 1: " in out and "  Bob " in out
    assert "This game is not finished (the table is playing)" in out
    hand = " ".join(c.text for c in sorted((card_from_pb(c) for c in snapshot.game.hand), key=sort_key))
    assert f"Bob                  {hand}" in out.split("Hands now:")[1]  # the hand as it is now


async def test_a_table_that_never_started_and_games_that_are_not_there(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = await connection.create_table("waiting", 4, pb.HouseRules())
    db = server.options.db
    code, out, _ = replay_cli(capsys, table.table_id, "--db", db)
    assert code == 0 and "the game never started (the table is waiting)" in out
    code, _, err = replay_cli(capsys, "nonesuch", "--db", db)
    assert code == 1 and "no game 'nonesuch'" in err
    code, _, err = replay_cli(capsys, "x", "--db", str(tmp_path / "missing.db"))
    assert code == 1 and "no such file" in err
    (tmp_path / "junk.db").write_text("not a database at all " * 100)
    code, _, err = replay_cli(capsys, "x", "--db", str(tmp_path / "junk.db"))
    assert code == 1 and "cannot read" in err


async def test_the_timers_moves_and_the_takeover_are_told_where_they_happened(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    """A seat nobody plays: the timer acts for it, then a bot takes it over and plays it to the end. The
    replay says so, on the lines of the moves the timer made and before the bot's first."""
    table = await connection.create_table("late", 2, mapping.rules_to_pb(HouseRules(max_turns=6, rounds=(1,))),
                                          decision_seconds=1, takeover_seconds=3, seed=4)
    await connection.join(table.table_id, "Bob")  # never subscribes
    await connection.add_bot(table.table_id, table.host_token, "greedy")
    await connection.start(table.table_id, table.host_token)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 60
    while status(server.options.db, table.table_id) != "finished":
        assert loop.time() < give_up, "the game never ended"
        await asyncio.sleep(0.05)  # polling the file, bounded
    stored = read_game(server.options.db, table.table_id)
    timers = [pb.Event.FromString(data).timer_expired for _, _, data in stored.events
              if pb.Event.FromString(data).HasField("timer_expired")]
    assert timers and all(t.seat == 0 for t in timers)

    code, out, err = replay_cli(capsys, table.table_id, "--db", server.options.db)
    assert code == 0, err
    lines = out.splitlines()
    late = [line for line in lines if "Time ran out: Bob " in line]
    assert len(late) == len(timers), (late, timers)  # each of the timer's moves, on its own line
    assert all(re.match(r"\[r1 t\d+\] Time ran out: Bob ", line) for line in late), late
    takeover = lines.index(next(line for line in lines if line.endswith("a bot plays for Bob")))
    assert takeover > lines.index(late[-1])  # the timer acted first, then the bot took the seat
    bob_after = [line for line in lines[takeover:] if re.match(r"\[r1 t\d+\] Bob ", line)]
    assert bob_after and not any("Time ran out" in line for line in lines[takeover:])  # the bot's own moves


async def test_a_review_prints_the_costliest_decisions_and_is_kept(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tenpennies.client.reviews import load_review, move_words, save_review

    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    table_id = await finished_game(connection, server)
    db = server.options.db
    code, out, err = replay_cli(capsys, table_id, "--db", db, "--review", "ann", "--budget", "6", "--top", "4")
    assert code == 0, err
    review = load_review(db, table_id, 0)
    assert review is not None and review.budget == 6 and review.seat == 0 and review.marks
    lines = out.splitlines()
    assert lines[0].startswith(f"Review of Ann (seat 0) in table {table_id}")
    costly = [line for line in lines if re.match(r"\s+\d+\. round", line)]
    assert len(costly) == len(review.costliest(4))
    stored = read_game(db, table_id)
    for line, mark in zip(costly, review.costliest(4), strict=True):  # each move in the narrator's words
        played, better = (move_words(stored.game, stored.rules, m) for m in (mark.chosen, mark.best.command))
        assert f"move {mark.index + 1}: {played} cost {mark.loss:.1f}" in line
        assert f"better: {better} ({mark.best.points:.1f})" in line
        assert f": {mark.chosen} cost" not in line  # not the notation ("3 discard 6C.1")
        assert lines[lines.index(line) + 1].strip().startswith("holding ")  # the hand at that moment, under it
    assert lines[-1].startswith(f"Total expected loss: {review.total_loss:.1f} points over {len(review.marks)}")

    # The second look reads the kept review (a changed one shows), by the seat's number this time.
    changed = type(review)(review.game_id, 0, review.searcher, 6, review.marks[:1], seed=review.seed)
    save_review(db, changed)
    code, again, err = replay_cli(capsys, table_id, "--db", db, "--review", "0", "--budget", "6")
    assert code == 0, err
    assert f"Total expected loss: {changed.total_loss:.1f} points over 1 decisions" in again

    code, _, err = replay_cli(capsys, table_id, "--db", db, "--review", "Zed")
    assert code == 1 and "no seat 'Zed'" in err and "0 Ann" in err

    # Another seed is another review, its seed shown; each cost comes with its margin.
    assert review.seed == 0 and lines[0].endswith(
        "at 6 worlds a decision (up to 12 for those at the edge of the five costliest), seed 0.")
    code, seeded, err = replay_cli(capsys, table_id, "--db", db, "--review", "0", "--budget", "6", "--seed", "7")
    assert code == 0, err
    kept = load_review(db, table_id, 0)
    assert kept is not None and kept.seed == 7 and "seed 7." in seeded.splitlines()[0]
    for line, mark in zip([x for x in seeded.splitlines() if re.match(r"\s+\d+\. round", x)], kept.costliest(10),
                          strict=True):
        assert f"cost {mark.loss:.1f} ± {mark.margin:.1f} points" in line and mark.loss > mark.margin
    # A review kept before reviews had intervals (no seed) is made again.
    save_review(db, type(review)(review.game_id, 0, review.searcher, 6, review.marks[:1]))
    code, again, err = replay_cli(capsys, table_id, "--db", db, "--review", "0", "--budget", "6")
    assert code == 0 and f"over {len(review.marks)} decisions" in again, err
