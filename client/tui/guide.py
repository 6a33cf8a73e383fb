"""The first-game guide: a turn of the game explained in a few screens, each of the game's own words said what it
means where it is first used, shown over the table the first time a player sits at a local game of it
(``TablePrefs.seen_guide`` remembers it, a game at a time), skippable at once, reopened from help (``G``). Each
game's pages are its own (its table widget's ``guide_screen``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from .footer import KeysFooter


class GuideScreen(ModalScreen[None]):
    """The guide's ``pages`` (title, text), ``title`` the guide's: enter, space or → the next, ← the one before,
    esc skips it, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,right", "turn(1)", "Next"),
        Binding("left", "turn(-1)", "Back"),
        Binding("escape", "dismiss", "Skip"),
        Binding("q", "app.quit", "Quit"),  # (a modal hides the app's own keys)
    ]

    def __init__(self, pages: tuple[tuple[str, str], ...], title: str) -> None:
        super().__init__()
        self.pages = pages
        self.title_text = title
        self.page = 0

    def compose(self) -> ComposeResult:
        title, text, keys = self.texts()
        with Vertical(id="dialog"):
            yield Static(title, id="guide-title")
            yield Static(text, id="guide-text")
            yield Static(keys, id="guide-keys", classes="dim")
        yield KeysFooter()  # the guide's keys, over the table's

    def texts(self) -> tuple[Text, Text, str]:
        """The page's title, its text and the keys' line."""
        title, text = self.pages[self.page]
        last = self.page == len(self.pages) - 1
        return (Text(f"{self.title_text} · {title} ({self.page + 1}/{len(self.pages)})", style="bold"), Text(text),
                ("enter: to the table" if last else "enter: next") + (" · ←: back" if self.page else "")
                + " · esc: skip the guide")

    def show(self) -> None:
        title, text, keys = self.texts()
        self.query_one("#guide-title", Static).update(title)
        self.query_one("#guide-text", Static).update(text)
        self.query_one("#guide-keys", Static).update(keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """← only where there is a page before (the footer shows it there only)."""
        return not (action == "turn" and parameters == (-1,) and self.page == 0)

    def action_turn(self, step: int) -> None:
        page = self.page + step
        if page >= len(self.pages):
            self.dismiss()
            return
        self.page = max(0, page)
        self.show()
        self.refresh_bindings()
