"""The game boundary at the terminal client: the fixture game of tests/test_game_boundary.py ("high card"),
registered in the engine's and the wire's registries only while a test runs, is made from the lobby's form,
played at a table and replayed in the viewer, against a real server on loopback, with no line of the client's
screens naming it and no entry of its own in the screen's registry (``client/tui/games.py``): the screens
show it from its ``Kind`` alone (``client/tui/any_game.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Label, Select, Static

from tenpennies.client.bot import GameBot, play_seat
from tenpennies.client.connection import Connection
from tenpennies.client.games import CLIENT_GAMES, ClientGame
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.choose import ChooseScreen
from tenpennies.client.tui.games import SCREENS
from tenpennies.client.tui.help import GameEnd
from tenpennies.client.tui.lobby import CreateTableScreen, LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.viewer import ReplayScreen
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import games as wire_games

from test_game_boundary import HIGH_CARD, HighRules, high_card  # noqa: F401  (the fixture: registered per test)
from tuikit import Over, TableApp, screen_of, until

SIZE = (80, 24)


@pytest.fixture
def high_card_client(high_card: None, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """High card in the client's registry too, for one test: an entry that says nothing beyond its Kind (the
    replay viewer steps through its rounds by it)."""
    monkeypatch.setitem(CLIENT_GAMES, HIGH_CARD.name, ClientGame(HIGH_CARD.name))


def test_the_fixture_game_has_no_screen_entry_of_its_own() -> None:
    """What the screens show of it below is the screens' own (tests/test_no_game_names.py: no game-neutral
    module names a game)."""
    assert "high_card" not in SCREENS


async def test_the_lobbys_form_makes_a_table_of_a_game_it_was_never_told_of(
        high_card: None, server: Server, tmp_path: Path) -> None:  # noqa: F811
    """The form's game chooser lists every game the wire plays; its fields are the game's knobs, its seats those
    the game allows (high card: two); the list shows the table by the game's title."""
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name="ann", home=tmp_path))
    other = Connection(f"127.0.0.1:{server.port}")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
            form = app.screen
            assert isinstance(form, CreateTableScreen)
            game = form.query_one("#game", Select)
            assert "high_card" in form.games
            assert not form.query_one("#hands", Input).display  # another game's knob: hidden
            game.value = "high_card"
            await until(pilot, lambda: form.query_one("#hands", Input).display, "high card's knob in the form")
            assert not form.query_one("#preset", Select).display  # the first game's: hidden now
            assert str(form.query_one("#seats-label", Label).render()) == "Seats (2-2)"
            assert form.query_one("#seats", Select).value == 2
            form.query_one("#hands", Input).value = "2"
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the form to close")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and len(lobby.hosted) == 1
            table_id = next(iter(lobby.hosted))
            await until(pilot, lambda: table_id in lobby.tables, "the table in the list")
            cells = [str(c) for c in lobby.query_one("#tables", DataTable).get_row(table_id)]
            assert cells[1:4] == ["0/2", "waiting", "High Card"]
            assert "High Card" in str(lobby.query_one("#lobby-selected", Static).render())
        (info,) = await other.tables()
        assert info.game == "high_card" and info.seats == 2
        assert wire_games.wire("high_card").rules_from_pb(info.rules) == HighRules(hands=2)
    finally:
        await other.close()


async def test_a_game_with_no_screen_of_its_own_is_played_at_the_table_to_its_end(
        high_card_client: None, connection: Connection) -> None:
    """Ann plays high card at the table screen against Bob, a bot client playing the game's own "high" bot
    (the wire names no bot of this game's: a client plays it): each move chosen from the moves listed in the
    narrator's words, the log telling the tricks, the end showing the scores and winners; then the finished
    game in the replay viewer."""
    rules = wire_games.wire("high_card").rules_to_pb(HighRules(hands=3))
    hosted = await connection.create_table("high", 2, rules, decision_seconds=0, takeover_seconds=0, seed=11,
                                           game="high_card")
    session = await connection.join(hosted.table_id, "Ann")
    bob = Connection(connection.address)
    bob_plays = asyncio.ensure_future(play_seat(GameBot("high", 0), await bob.join(hosted.table_id, "Bob")))
    style = CardStyle(ascii=True)
    app = TableApp(lambda: TableScreen(connection, session, style=style, host=hosted))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.tv.info is not None and screen.tv.game == "high_card", "the table")
        await connection.start(hosted.table_id, hosted.host_token)
        played: list[str] = []
        for _ in range(3):
            await until(pilot, lambda: bool(screen.legal) or isinstance(app.screen, GameEnd), "Ann's move")
            assert "Your move: enter chooses" in str(screen.prompt_line.render())
            moves = str(screen.query_one("#moves", Static).render())
            assert moves.startswith("Your moves: play ")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ChooseScreen), "the moves to choose from")
            chooser = app.screen
            assert isinstance(chooser, ChooseScreen)
            words = [str(text) for text, _ in chooser.choices]
            assert words == [f"play {command.card}" for _, command in chooser.choices]
            played.append(words[0].removeprefix("play "))
            await pilot.press("enter")  # the first: the lowest card
            await until(pilot, lambda: app.screen is not chooser, "the move made")  # noqa: B023
        await until(pilot, lambda: isinstance(app.screen, GameEnd), "the game's end")
        shown = "\n".join(str(s.render()) for s in app.screen.query(Static))
        game_end = screen.tv.game_end
        assert game_end is not None
        won = " and ".join("You" if s == 0 else "Bob" for s in game_end.winners)
        assert f"Game over\n{won} won." in shown and "R reviews your play" in shown
        assert [f"You played {card} face down" for card in played] == \
            [line for line in screen.tv.log if line.startswith("You played")]
        assert sum(" showed " in line for line in screen.tv.log) == 3
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "the table again")
        assert str(screen.prompt_line.render()).startswith("Game over: ")
        scores = " ".join(str(score) for score in game_end.scores)
        assert scores

    assert await asyncio.wait_for(bob_plays, 10) is not None
    await bob.close()
    record = await connection.game_record(hosted.table_id, token=session.token)
    assert record.game == "high_card" and len(record.commands) == 6
    viewer = Over(lambda: ReplayScreen(record, style=style))
    async with viewer.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(viewer.screen, ReplayScreen), "the viewer")
        replay = viewer.screen
        assert isinstance(replay, ReplayScreen)
        board = str(replay.query_one("#replay-board", Static).render())
        assert "Moves" in board and f"play {played[0]}" in board  # Ann's first moves, in the narrator's words
        await pilot.press("end")
        await until(pilot, lambda: replay.position == len(record.commands), "the end")
        board = str(replay.query_one("#replay-board", Static).render())
        assert "Ann" in board and "Bob" in board and all(str(score) in board for score in game_end.scores)


async def test_the_end_of_a_game_with_no_screen_of_its_own_names_its_winners(high_card: None) -> None:  # noqa: F811
    from tenpennies.client.tui.any_game import AnyGameEnd

    ended = pb.GameEnded(scores=[2, 1], winners=[0])
    app = Over(lambda: AnyGameEnd(ended, ["Ann", "Bob"].__getitem__, 1, 2))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, AnyGameEnd) and app.screen.query(Static), "the end")
        shown = "\n".join(str(s.render()) for s in app.screen.query(Static))
        assert "Ann won." in shown
        await pilot.press("x")
        await until(pilot, lambda: app.answers == [None], "closed by any key")
    assert HIGH_CARD.name == "high_card"
