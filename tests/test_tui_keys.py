"""Every key a screen's footer shows does something there, and every control a screen can focus is in view
(Textual's Pilot, 80x24): the start screen, the first game's guide, the lobby, the replay viewer and the table at a
first decision, each key pressed on a fresh screen; and every key the README gives the table is bound there."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from replays import played
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tenpennies.client.connection import Connection, SeatSession
from tenpennies.client.settings import LocalGame, Unfinished
from tenpennies.client.tui.app import ContinueScreen, Start, TenPenniesApp
from tenpennies.client.tui.footer import KeysFooter
from tenpennies.client.tui.guide import GuideScreen
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import TenPenniesTable
from tenpennies.client.tui.viewer import ReplayScreen
from tenpennies.v1 import tenpennies_pb2 as pb

from tuikit import until

SIZE = (80, 24)
HERE = Path(__file__).parent.parent / "client" / "tui"


class Over(App[None]):
    """A screen pushed over an empty app, as the client shows its modals; what it is dismissed with is kept."""

    CSS_PATH = [str(HERE / name) for name in ("lobby.tcss", "table.tcss")]

    def __init__(self, make: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = make
        self.answers: list[object] = []

    async def on_mount(self) -> None:
        await self.push_screen(self.make(), self.answers.append)


def footer_keys(screen: Screen[Any]) -> list[str]:
    return [key.key for key in screen.query_one(KeysFooter).keys]


def out_of_view(screen: Screen[Any]) -> list[Widget]:
    """The controls the screen can focus that are not wholly in view: each inside the screen and inside what
    each of its containers shows (their content, within their borders and padding)."""
    return [widget for widget in screen.query("*") if widget.focusable and not (
        widget.region and screen.region.contains_region(widget.region)
        and all(parent.content_region.contains_region(widget.region)
                for parent in widget.ancestors if isinstance(parent, Widget) and parent is not screen))]


async def each_key_acts(make: Callable[[], Screen[Any]], seen: Callable[[Screen[Any]], Hashable],
                        ready: Callable[[Screen[Any]], object] = lambda screen: True) -> list[str]:
    """Press each key the screen's footer shows, each on a fresh screen (once ``ready``); the keys that changed
    nothing: the app did not quit, the screen was not closed nor covered, and what ``seen`` makes of it stayed
    the same."""
    probe = Over(make)
    async with probe.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ready(probe.screen), "the screen")
        await pilot.pause()
        keys = footer_keys(probe.screen)
    assert keys, "the footer shows keys"
    dead = []
    for key in keys:
        app = Over(make)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: ready(app.screen), "the screen")  # noqa: B023 (awaited here)
            await pilot.pause()
            screen = app.screen
            before = seen(screen), app.clipboard
            await pilot.press(key)
            await pilot.pause(0.1)
            if app.return_code is None and app.screen is screen and not app.answers \
                    and (seen(screen), app.clipboard) == before:
                dead.append(key)
    return dead


def unfinished() -> Unfinished:
    return Unfinished(LocalGame("t1", 3, "token", "host"), 2, 7, 2)


async def test_the_start_screen_shows_every_choice_and_each_footer_key_chooses() -> None:
    app = Over(lambda: ContinueScreen(unfinished()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ContinueScreen)
        buttons = [w.id for w in screen.query("Button")]
        assert buttons == ["continue", "new", "new-thirty_one", "short", "practice"]
        assert not out_of_view(screen), [w.id for w in out_of_view(screen)]
        keys = footer_keys(screen)
        assert {"c", "n", "s", "p", "g", "h", "q"} <= set(keys), keys
        footer = screen.query_one(KeysFooter)
        assert footer.line().cell_len <= SIZE[0], footer.line().plain  # every key shown whole
        for _ in buttons:  # tab goes round the choices, each in view as it is focused
            await pilot.press("tab")
            assert screen.focused is not None and screen.focused.id in buttons
            assert screen.region.contains_region(screen.focused.region)
        await pilot.press("p")
    assert app.answers == [Start("practice")]
    assert await each_key_acts(lambda: ContinueScreen(unfinished()), lambda s: None) == []


async def test_each_key_the_guides_footer_shows_acts_and_q_quits_over_it() -> None:
    def page(screen: Screen[Any]) -> Hashable:
        return screen.page if isinstance(screen, GuideScreen) else None

    assert await each_key_acts(GuideScreen, page) == ["left"]  # (back, on the first page: there is none before)
    app = Over(GuideScreen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "q" in footer_keys(app.screen)
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


async def test_each_key_the_replay_viewers_footer_shows_acts() -> None:
    record = played(seats=3, seed=3)

    def where(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, ReplayScreen)
        return screen.position, screen.plotting

    middle = len(record.commands) // 2
    assert await each_key_acts(lambda: ReplayScreen(record, position=middle), where) == []


async def test_each_key_the_tables_footer_shows_acts_and_every_control_is_in_view(connection: Connection) -> None:
    """At this seat's first decision of a seeded table: each key the footer shows, pressed at a table of its
    own, sends a move, opens something, or says something."""
    def make() -> Screen[Any]:
        assert sessions
        return TableScreen(connection, sessions.pop())

    def said(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, TableScreen)
        game = screen.game
        assert isinstance(game, TenPenniesTable)
        return (screen.tv.sequence, str(screen.message_line.render()), frozenset(game.selected), game.sort,
                game.cursor_id)

    def ready(screen: Screen[Any]) -> bool:
        return isinstance(screen, TableScreen) and bool(screen.legal) and not screen.paused

    sessions: list[SeatSession] = []
    for _ in range(12):
        hosted = await connection.create_table("keys", 2, pb.HouseRules(rounds=[1]), seed=5, decision_seconds=0,
                                               takeover_seconds=0)
        sessions.append(await connection.join(hosted.table_id, "Me"))
        await connection.add_bot(hosted.table_id, hosted.host_token)
        await connection.start(hosted.table_id, hosted.host_token)
    assert await each_key_acts(make, said, ready) == []


KEY_NAMES = {",": "comma", "?": "question_mark", "←": "left", "→": "right", "enter": "enter", "home": "home",
             "end": "end", "space": "space", "esc": "escape"}


def readme_table_keys() -> set[str]:
    """The keys the README's table of the table's keys names (its first column), as Textual names them."""
    text = (Path(__file__).parent.parent / "README.md").read_text()
    start = text.index("| keys | what |", text.index("### At the table"))
    keys: set[str] = set()
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        first = line.split("|")[1]
        for word in re.findall(r"`([^`]+)`|(←|→|home|end|space|esc|enter)", first):
            key = word[0] or word[1]
            if "-" in key and key != "-":
                continue  # a range (`0`-`9`): the digits, each bound
            keys.add(KEY_NAMES.get(key, key))
    return keys


def test_every_key_the_readme_gives_the_table_is_bound_there() -> None:
    bound = {key for binding in (*TenPenniesTable.BINDINGS, *TableScreen.BINDINGS, *TenPenniesApp.BINDINGS)
             if isinstance(binding, Binding) for key in binding.key.split(",")}
    named = readme_table_keys()
    assert {"t", "d", "b", "p", "m", "x", "s", "h", "a", "v", "comma", "c", "question_mark", "q"} <= named, named
    assert named <= bound, named - bound


async def test_each_key_the_lobbys_footer_shows_acts(connection: Connection) -> None:
    """The lobby with a table waiting for players under the cursor: each key the footer shows opens
    something (a form, the table, its watching, help) or changes what the lobby shows."""
    hosted = await connection.create_table("Keys table", 4, pb.HouseRules(rounds=[1]), decision_seconds=0)
    await connection.add_bot(hosted.table_id, hosted.host_token)

    def listed(screen: Screen[Any]) -> bool:
        return isinstance(screen, LobbyScreen) and hosted.table_id in screen.tables \
            and bool(screen.query_one("#lobby-selected").display)

    def seen(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, LobbyScreen)
        return (str(screen.query_one("#lobby-status", Static).render()),
                str(screen.query_one("#lobby-selected", Static).render()), screen.query_one(DataTable).cursor_row)

    assert await each_key_acts(lambda: LobbyScreen(connection, "ann"), seen, listed) == []
