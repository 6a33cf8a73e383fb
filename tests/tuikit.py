"""Helpers for Pilot tests of the screens: the smallest app around the table screen, the smallest around a
dialog, a bounded wait, and the text of a widget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App
from textual.dom import DOMNode
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from tenpennies.client.tui import table as table_module
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import TenPenniesTable


class TableApp(App[None]):
    """The smallest app around a table screen: it pushes the screen, and q quits (as the real app)."""

    BINDINGS = [("q", "quit", "Quit")]
    CSS_PATH = str(Path(table_module.__file__).with_name("table.tcss"))  # as the real app loads it

    def __init__(self, make: Callable[[], TableScreen]) -> None:
        super().__init__()
        self.make = make
        self.table: TableScreen | None = None

    async def on_mount(self) -> None:
        self.table = self.make()
        await self.push_screen(self.table)


class Over(App[None]):
    """A screen pushed over an empty app, as the client shows its modals (with the lobby's and the table's
    style sheets); what it is dismissed with is kept (``answers``)."""

    CSS_PATH = [str(Path(table_module.__file__).with_name(name)) for name in ("lobby.tcss", "table.tcss")]

    def __init__(self, make: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make = make
        self.answers: list[object] = []

    async def on_mount(self) -> None:
        await self.push_screen(self.make(), self.answers.append)


async def until(pilot: Pilot[None], condition: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Let the app run until ``condition()`` holds (polled, bounded). On timing out it says where the app
    stood (``stood``): a wait that never ends in a CI run leaves only its message behind."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not condition():
        assert loop.time() < give_up, f"timed out waiting for {what}\n{stood(pilot.app)}"
        await pilot.pause(0.02)


async def settled(app: App[Any], condition: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Let the app run until ``condition()`` holds, by the clock alone: nothing is sent to the app meanwhile.
    (``until`` pauses the Pilot, which sends each widget of the screen a message and composes the screen's
    frame itself: a frame the app would never compose on its own is composed then.)"""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not condition():
        assert loop.time() < give_up, f"timed out waiting for {what}\n{stood(app)}"
        await asyncio.sleep(0.01)


def painted_rows(widget: Widget) -> list[str]:
    """The text of every row the widget is asked to draw from now on (a line-API widget's ``render_line``,
    which Textual calls as it composes a frame with the widget's changes in it), each as it was drawn."""
    rows: list[str] = []
    render_line = widget.render_line

    def drawing(y: int) -> Strip:
        strip = render_line(y)
        rows.append(strip.text.rstrip())
        return strip
    widget.render_line = drawing  # type: ignore[method-assign]
    return rows


def stood(app: App[Any], tasks: int = 30, frames: int = 5) -> str:
    """The app's screens (a table screen's state besides) and where each of the loop's tasks waits (the
    innermost ``frames`` of what it awaits)."""
    lines = [f"screens: {app.screen_stack}"]
    for screen in app.screen_stack:
        if isinstance(screen, TableScreen):
            lines.append(f"{screen!r}: game {type(screen.game).__name__}, view {'set' if screen.view else 'none'}, "
                         f"swapping {screen._swapping}, ended {screen.ended!r}, taken {len(screen._taken)}, "
                         f"taken in {screen._taken_in.is_set()}")
            # what it asks and says, and the ends over it (shown or on their way, kept once closed)
            said = (str(screen.prompt_line.render()), str(screen.message_line.render()))
            lines.append(f"  prompt {said[0]!r}, message {said[1]!r}, "
                         f"legal {len(screen.legal)}, stale {screen._stale}, after frame {len(screen._after_frame)}, "
                         f"over table {screen.game.over_table!r}, kept {screen.game.kept!r}")
    for task in list(asyncio.all_tasks())[:tasks]:
        chain: list[str] = []
        awaited: Any = task.get_coro()
        while awaited is not None and len(chain) < 50:
            frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None) \
                or getattr(awaited, "gi_frame", None)
            if frame is not None:
                chain.append(f"{frame.f_code.co_name} ({Path(frame.f_code.co_filename).name}:{frame.f_lineno})")
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "ag_await", None) \
                or getattr(awaited, "gi_yieldfrom", None)
        lines.append(f"task {task.get_name()}: {' -> '.join(chain[-frames:]) or 'running'}")
    return "\n".join(lines)


def table_shown(app: App[Any]) -> TableScreen | None:
    """The table screen of the app's stack once it has a view, whatever dialog stands over it (a Thirty-One deal
    dealt a 31 ends at once: its deal-end dialog may be up before a test looks)."""
    tables = [s for s in app.screen_stack if isinstance(s, TableScreen) and s.tv.view is not None]
    return tables[-1] if tables else None


def screen_of(app: TableApp) -> TableScreen:
    assert app.table is not None
    return app.table


def game_of(screen: TableScreen) -> TenPenniesTable:
    """The Ten Pennies table widget of a table screen (the hand, its selection, the builder, the keys)."""
    game = screen.game
    assert isinstance(game, TenPenniesTable), game
    return game


def text_of(node: DOMNode, selector: str) -> str:
    """The text a Static under ``node`` shows."""
    return str(node.query_one(selector, Static).render())


def status_of(app: App[None]) -> str:
    """The lobby's status line."""
    return text_of(app.screen, "#lobby-status")


def lobby_of(app: App[None]) -> LobbyScreen:
    """The lobby, which must be the screen on top."""
    screen = app.screen
    assert isinstance(screen, LobbyScreen), screen
    return screen
