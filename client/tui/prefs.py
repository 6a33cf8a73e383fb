"""The table's settings, from the table (``,``): the bell at a new decision, how long a new buy offer ignores
keys, the auto-pass of buy offers and the pace of the other seats' turns. Each change is remembered at once
(``TablePrefs`` in client.json)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tenpennies.client.settings import PACES, TablePrefs

from .footer import KeysFooter

PAUSE_STEP = 0.2
PAUSE_MOST = 2.0


class PrefsScreen(ModalScreen[None]):
    """``b`` the bell on or off, ``+``/``-`` the new offer's pause, ``a`` the auto-pass (off, this round, every
    round), ``p`` the pace of the other seats' turns; esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "bell", "Bell"),
        Binding("plus,equals_sign", "pause(1)", "Longer pause"),
        Binding("minus", "pause(-1)", "Shorter pause"),
        Binding("a", "auto_pass", "Auto-pass"),
        Binding("p", "pace", "Pace"),
        Binding("escape,enter,comma", "dismiss", "Close"),
    ]

    def __init__(self, prefs: TablePrefs, auto_pass: Callable[[], str], step_auto_pass: Callable[[], None],
                 saved: Callable[[], None]) -> None:
        super().__init__()
        self.prefs = prefs
        self.auto_pass = auto_pass          # the auto-pass in force, in words
        self.step_auto_pass = step_auto_pass
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Table settings", classes="title")
            yield Static(self.table(), id="prefs-table")
            yield Static("Remembered for your next games. esc closes.", classes="dim")
        yield KeysFooter()

    def table(self) -> Table:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row("b", "bell at a new decision", "on" if self.prefs.bell else "off")
        grid.add_row("+ / -", "a new buy offer ignores keys for", f"{self.prefs.offer_pause:.1f} s")
        grid.add_row("a", "auto-pass offers of cards that fit nothing", self.auto_pass())
        grid.add_row("p", "the other seats' turns come", self.prefs.pace)
        return grid

    def changed(self) -> None:
        self.saved()
        self.query_one("#prefs-table", Static).update(self.table())

    def action_bell(self) -> None:
        self.prefs.bell = not self.prefs.bell
        self.changed()

    def action_pause(self, step: int) -> None:
        self.prefs.offer_pause = round(min(PAUSE_MOST, max(0.0, self.prefs.offer_pause + step * PAUSE_STEP)), 1)
        self.changed()

    def action_pace(self) -> None:
        """The other seats' turns: instant, normal, slow, instant."""
        paces = list(PACES)
        self.prefs.pace = paces[(paces.index(self.prefs.pace) + 1) % len(paces)]
        self.changed()

    def action_auto_pass(self) -> None:
        self.step_auto_pass()
        self.changed()
