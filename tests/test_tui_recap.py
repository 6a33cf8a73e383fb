"""A seat back at its table is told the story: the log rebuilt from the stream's history by the narrator,
and first, a recap of what happened while it was away (the takeover bot's moves for it). Real server,
real Pilot."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from tenpennies.client import cli
from tenpennies.client.connection import Connection, SeatSession, ServerError
from tenpennies.client.settings import LocalGame, ServerMemory, TablePrefs
from tenpennies.client.tui.app import ContinueScreen, Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.log import TableLog
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, RoundEndScreen
from tenpennies.client.view import TableView
from tenpennies.engine.ten_pennies import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    PassBuy,
    TakeDiscard,
)
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.ten_pennies import command_to_pb

from tuikit import TableApp, game_of, screen_of, text_of, until

ASCII = CardStyle(ascii=True)  # cards in the notation: as the engine's log writes them
SIZE = (80, 24)


class Other:
    """A seat the test plays through its own SeatSession, a move when it says: declines, passes, draws and
    discards its first card."""

    def __init__(self, session: SeatSession) -> None:
        self.session = session
        self.view = TableView(session.seat)

    def legal(self) -> tuple[Command, ...]:
        return self.view.view.legal if self.view.view is not None else ()

    async def watch(self) -> None:
        async for message in self.session.follow():
            if isinstance(message, pb.Snapshot):
                self.view.apply_snapshot(message)
            elif isinstance(message, pb.Event):
                self.view.apply_event(message)

    async def step(self) -> None:
        """One move, once its stream has told it that it may."""
        command = next(c for kind in (DeclineDiscard, PassBuy, Draw, Discard) for c in self.legal()
                       if isinstance(c, kind) and not isinstance(c, Buy))
        before = self.view.sequence
        await self.session.send(command_to_pb(command))
        while self.view.sequence <= before:
            await asyncio.sleep(0.01)


def log_lines(screen: TableScreen) -> list[str]:
    return [strip.text for strip in screen.query_one(TableLog).lines]


async def test_back_at_the_seat_the_recap_names_the_takeover_bots_moves(connection: Connection,
                                                                         server: Server) -> None:
    hosted = await connection.create_table("recap", 3, pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=60)),
                                           seed=11, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    other = Other(await connection.join(hosted.table_id, "Other"))
    await connection.start(hosted.table_id, hosted.host_token)
    watching = asyncio.ensure_future(other.watch())
    try:
        await me.leave()  # a bot plays the seat at once; the other seat moves when the test says
        game = server.lobby.tables[hosted.table_id].game
        assert me.seat is not None

        def mine() -> list[Discard]:
            return [c for c in game.log if isinstance(c, Discard) and c.seat == me.seat]
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 30
        while len(mine()) < 2:
            assert loop.time() < give_up, "the takeover bot never played the seat"
            if other.legal():
                await other.step()
            else:
                await asyncio.sleep(0.01)
        played = mine()

        back = connection.seat(hosted.table_id, me.seat, me.token)  # a new run's session: no sequence yet
        app = TableApp(lambda: TableScreen(connection, back, style=ASCII, story=True))
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: any(line.startswith("While you were away") for line in screen.tv.log)
                        or any("While you were away" in line for line in log_lines(screen)), "the recap")
            await pilot.pause()
            lines = log_lines(screen)
            at = next(i for i, line in enumerate(lines) if line.startswith("While you were away"))
            recap = lines[at:]
            told = " ".join(" ".join(recap).split())  # (as the lines read, wrapped or not)
            assert told.startswith("While you were away: ") and " made for you, " in told, recap
            assert f"discarded the {played[-1].card.text.split('.')[0]}" in told, told  # the bot's last move
            assert len(recap) <= 10, recap  # a few lines (wrapped at 80 columns)
            assert "While you were away" in text_of(screen, "#message")
            # the log before it is the game's story from its start, in the narrator's words
            assert any(line.startswith("The game starts") for line in lines[:at]), lines[:at]
            assert any(line == "a bot plays for You" for line in lines[:at]), lines[:at]
            # and the seat plays on from where the game is
            await until(pilot, lambda: screen.view is not None, "the game")
    finally:
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)


# --- plain words, and q always quits ------------------------------------------------------------------------

async def finished(connection: Connection) -> str:
    """A table of two bots whose one-round game is over: its id."""
    hosted = await connection.create_table("Bots", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=40)),
                                           seed=3, decision_seconds=0)
    for _ in range(2):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 30
    while not [t for t in await connection.tables() if t.table_id == hosted.table_id
               and t.status == pb.TABLE_STATUS_FINISHED]:
        assert loop.time() < give_up, "the bots' game did not end"
        await asyncio.sleep(0.02)  # polling the server's list, bounded
    return hosted.table_id


async def test_the_spectator_of_a_finished_game_quits_with_q_once_the_server_is_gone(tmp_path: Path) -> None:
    server = Server(Options(port=0, db=str(tmp_path / "gone.db"), allow_seeds=True))
    await server.start()
    address = f"127.0.0.1:{server.port}"
    connection = Connection(address)
    try:
        table_id = await finished(connection)
    finally:
        await connection.close()
    app = TenPenniesApp(Launch("spectate", address=address, table_id=table_id, home=tmp_path))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.tv.view is not None,
                        "the finished table")
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "the standings")
            await server.stop(0)
            await until(pilot, lambda: "Reconnecting" in text_of(screen, "#prompt"), "the server gone")
            await pilot.press("q")
            await until(pilot, lambda: app.return_code is not None, "q quits, over the standings")
    finally:
        await server.stop(0)


async def test_a_call_that_finds_no_server_is_said_in_plain_words(tmp_path: Path) -> None:
    server = Server(Options(port=0, db=str(tmp_path / "none.db")))
    await server.start()
    port = server.port
    await server.stop(0)  # nothing listens there now
    connection = Connection(f"127.0.0.1:{port}")
    try:
        with pytest.raises(ServerError) as caught:
            await connection.tables()
    finally:
        await connection.close()
    assert "failed to connect" in caught.value.message.lower()  # gRPC's words, for logs
    assert caught.value.link_trouble and caught.value.words == "the server is out of reach"


async def test_a_move_while_reconnecting_says_so_plainly_and_the_message_goes_once_back(tmp_path: Path) -> None:
    db = str(tmp_path / "again.db")
    first = Server(Options(port=0, db=db, allow_seeds=True))
    await first.start()
    port = first.port
    connection = Connection(f"127.0.0.1:{port}")
    hosted = await connection.create_table("words", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=40)),
                                           seed=5, decision_seconds=0, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me))
    again: Server | None = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            for _ in range(10):  # up to this seat's discard
                await until(pilot, lambda: screen.legal, "a decision of this seat's")
                if any(isinstance(c, Discard) for c in screen.legal):
                    break
                kinds = {type(c) for c in screen.legal}
                key = "t" if TakeDiscard in kinds else "r" if Draw in kinds else "p"
                before = screen.legal
                await pilot.press(key)
                await until(pilot, lambda before=before: screen.legal != before, "the move made")  # type: ignore[misc]
            assert any(isinstance(c, Discard) for c in screen.legal)
            await first.stop(0)
            await until(pilot, lambda: "Reconnecting" in text_of(screen, "#prompt"), "the drop shown")
            await pilot.press("x")
            said = text_of(screen, "#message")
            assert said.startswith("Not connected: the server is out of reach"), said
            for grpc_words in ("failed to connect", "ipv4", "UNKNOWN", "UNAVAILABLE", "Connection refused"):
                assert grpc_words not in said, said
            again = Server(Options(port=port, db=db, allow_seeds=True))
            await again.start()
            await until(pilot, lambda: screen.link is not None and screen.link.up, "back", timeout=15)
            await until(pilot, lambda: text_of(screen, "#message").strip() == "", "the message gone once back")
            assert any(isinstance(c, Discard) for c in screen.legal)  # the card was not discarded
    finally:
        await connection.close()
        if again is not None:
            await again.stop(0)


# --- the whole story at the end -------------------------------------------------------------------------------

def dialog_text(app: TableApp) -> str:
    return "\n".join(plain(s.content) for s in app.screen.query(Static))


def plain(renderable: object) -> str:
    console = Console(width=78, color_system=None, legacy_windows=False)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


async def test_the_last_rounds_hands_then_the_standings_with_the_points_by_round(connection: Connection) -> None:
    hosted = await connection.create_table("end", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2], max_turns=2)),
                                           seed=5, decision_seconds=0, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, style=ASCII))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        for _ in range(100):  # play by keys (and close round 1's end) until the game is over
            await until(pilot, lambda: screen.legal or not isinstance(app.screen, TableScreen) or
                        screen.tv.game_end is not None, "a decision, a dialog or the end")
            if screen.tv.game_end is not None:
                break
            if isinstance(app.screen, RoundEndScreen):
                await pilot.press("space")
                continue
            kinds = {type(c) for c in screen.legal}
            key = next(k for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x"))
                       if kind in kinds)
            before = screen.tv.sequence
            await pilot.press(key)
            await until(pilot, lambda before=before: screen.tv.sequence > before, "the move told")  # type: ignore[misc]
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), "the last round's end first")
        ended = screen.tv.round_ends[2]
        shown = dialog_text(app)
        assert "Round 2" in shown and "over" in shown and "final standings" in shown, shown
        for hand in ended.hands:  # every hand of the last round, as it ended
            for card in hand:
                assert ASCII.text(card) in shown, (card, shown)
        await pilot.press("space")
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "then the standings")
        shown = dialog_text(app)
        assert "Game over" in shown and "Points by round" in shown, shown
        first, last = screen.tv.round_ends[1], screen.tv.round_ends[2]
        for seat, name in enumerate(("You", "greedy bot")):
            row = next(line for line in shown.splitlines() if line.strip().startswith(name)
                       and line.split()[-1] == str(last.scores[seat]) and len(line.split()) >= 4)
            assert row.split()[-3:] == [str(first.points[seat]), str(last.points[seat]), str(last.scores[seat])], row


# --- quitting a server game ---------------------------------------------------------------------------------

async def test_quitting_a_server_game_says_where_the_game_is_and_how_to_come_back(
        server: Server, connection: Connection, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    hosted = await connection.create_table("Ann's table", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40)),
                                           seed=5, decision_seconds=0, takeover_seconds=60)
    ann = await connection.join(hosted.table_id, "Ann")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    assert ann.seat is not None
    memory = ServerMemory(address, tmp_path)  # as an earlier run of this client left it
    memory.seats[hosted.table_id] = (ann.seat, ann.token)
    memory.save()
    app = TenPenniesApp(Launch("server", address=address, name="Ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and hosted.table_id in app.screen.tables,
                    "the table listed")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.tv.view is not None,
                    "back at the seat")
        await pilot.press("q")
    assert app.farewell is not None, "nothing said on quitting"
    said = app.farewell
    assert said.startswith(f"Your seat at Ann's table (table {hosted.table_id}: round 1, turn "), said
    assert "a bot plays it after 60 s away" in said
    assert f"tenpennies play --server {address} --name Ann" in said and "enter on the table marked >" in said


# --- play options: a short game, a practice table ----------------------------------------------------------

def play_args(*argv: str) -> argparse.Namespace:
    parsed: list[argparse.Namespace] = []
    original = cli.cmd_play
    cli.cmd_play = lambda args: parsed.append(args) or 0  # type: ignore[func-returns-value]
    try:
        cli.main(["play", *argv])
    finally:
        cli.cmd_play = original
    return parsed[0]


def test_play_local_takes_a_short_game_and_a_practice_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    short = cli.play_launch(play_args("--local", "--rounds", "3"), {})
    assert (short.mode, short.rounds, short.practice) == ("local", (1, 2, 3), False)
    chosen = cli.play_launch(play_args("--local", "--rounds", "1,4,7", "--practice"), {})
    assert (chosen.rounds, chosen.practice) == ((1, 4, 7), True)
    assert cli.play_launch(play_args("--local"), {}).rounds == ()  # all seven
    with pytest.raises(SystemExit):
        play_args("--local", "--rounds", "9")
    assert "1 to 7 rounds" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        play_args("--local", "--rounds", "4,2")  # the rule's own check: rising order
    assert "TP-6: rounds takes round numbers 1 to 7 in rising order" in capsys.readouterr().err
    assert cli.main(["play", "--server", "10.0.0.2:5000", "--rounds", "3"]) == 2
    assert "go with --local" in capsys.readouterr().err


async def test_the_local_start_screen_offers_a_short_game_and_a_practice_table(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path, rounds=(1, 2)))  # play --local --rounds 2
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen) and first.screen.tv.info is not None,
                    "the table")
        table = first.screen
        assert isinstance(table, TableScreen) and table.tv.info is not None
        assert list(table.tv.info.rules.ten_pennies.rounds) == [1, 2]
    for key, rounds, practice in (("s", [1, 2, 3], False), ("p", [1, 2, 3, 4, 5, 6, 7], True)):
        app = TenPenniesApp(Launch("local", name="me", home=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda app=app: isinstance(app.screen, ContinueScreen)  # type: ignore[misc]
                        and app.screen.query("#practice"), "the start screen")
            await pilot.press(key)
            await until(pilot, lambda app=app: isinstance(app.screen, TableScreen)  # type: ignore[misc]
                        and app.screen.tv.info is not None, "the new table")
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.tv.info is not None
            assert list(screen.tv.info.rules.ten_pennies.rounds) == rounds and screen.hints == practice
            saved = LocalGame.load(tmp_path)
            assert saved is not None and saved.table_id == screen.session.table_id and saved.practice == practice


async def test_a_practice_table_shows_the_hint_of_each_new_meld_decision(connection: Connection) -> None:
    practice = pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40)
    hosted = await connection.create_table("practice", 2, pb.HouseRules(ten_pennies=practice),
                                           seed=3, decision_seconds=0, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, hints=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        for _ in range(10):  # up to a decision with a meld in it, by keys
            await until(pilot, lambda: screen.legal, "a decision of this seat's")
            if any(isinstance(c, LayContract) for c in screen.legal):
                break
            kinds = {type(c) for c in screen.legal}
            key = "d" if DeclineDiscard in kinds else "r" if Draw in kinds else "p"
            before = screen.legal
            await pilot.press(key)
            await until(pilot, lambda before=before: screen.legal != before, "the move made")  # type: ignore[misc]
        await until(pilot, lambda: text_of(screen, "#message").startswith("Hint 1/"), "the hint, unasked")
        assert game_of(screen).builder, "the hinted contract is in the builder"
        await pilot.press("m")  # it lays it
        assert me.seat is not None
        seat = me.seat
        await until(pilot, lambda: screen.view is not None and screen.view.players[seat].down, "down")


# --- deadlines: the countdown shown is the server's ---------------------------------------------------------

async def test_back_at_the_seat_the_other_seats_countdown_is_the_servers(connection: Connection) -> None:
    """This seat answers and leaves; back, the clock it shows beside the other seat's decision is that
    decision's own deadline (the server once showed the answered seat's old one: a stale 0 s)."""
    hosted = await connection.create_table("clock", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=40)),
                                           seed=5, decision_seconds=600, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    other = Other(await connection.join(hosted.table_id, "Other"))
    watching = asyncio.ensure_future(other.watch())
    try:
        await connection.start(hosted.table_id, hosted.host_token)
        assert me.seat is not None
        mine = TableView(me.seat)
        async def answer_until_the_other_decides() -> None:
            answered = False
            while True:
                mine.apply_snapshot(await me.snapshot())
                if other.legal() and not (mine.view is not None and mine.view.legal):
                    if answered:
                        return
                    await other.step()  # the other seat plays until this seat has answered once
                    continue
                if mine.view is not None and mine.view.legal:
                    legal = mine.view.legal
                    command = next(c for kind in (DeclineDiscard, PassBuy, Draw, Discard) for c in legal
                                   if isinstance(c, kind))
                    await me.send(command_to_pb(command))
                    answered = True
                else:
                    await asyncio.sleep(0.01)
        await asyncio.wait_for(answer_until_the_other_decides(), 30)
        theirs = (await other.session.snapshot()).decision_deadline_ms
        assert theirs > 0
        back = connection.seat(hosted.table_id, me.seat, me.token)
        app = TableApp(lambda: TableScreen(connection, back, story=True))
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None, "the game")
            assert screen.tv.deadline_ms == theirs  # the other seat's own deadline, not this seat's old one
            left = round((theirs - time.time() * 1000) / 1000)
            shown = text_of(screen, "#prompt")
            seconds = int(shown.rsplit(" s", 1)[0].split()[-1])
            assert abs(seconds - left) <= 2 and seconds > 500, shown
    finally:
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
