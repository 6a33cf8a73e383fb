"""The table's dialogs every game's table uses: a dialog over the table and its scrolling (``Dialog``), one
any key closes (``Dismissable``), one beside the log (``BesideTheLog``), a game's end with its offers
(``GameEnd``), a rule's text (``RuleScreen``), a game's keys (``KeysHelp``) and leave-the-table?
(``ConfirmScreen``). Each game's own dialogs are in its package."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .common import WIDE, OneLayout
from .footer import KeysFooter


def passes_on(screen: ModalScreen[Any], event: events.Key) -> bool:
    """Whether a dialog that any key closes leaves ``event`` to its bindings (the keys its footer shows, and
    the app's own: a modal screen hides the app's bindings, but for those with priority)."""
    return event.key in ("ctrl+q", "ctrl+c") or event.key in screen.active_bindings


R = TypeVar("R")

# the keys that scroll a dialog taller than the terminal (``Dialog``: its footer shows them then only)
SCROLL_KEYS: list[BindingType] = [
    Binding("down", "scroll_dialog(1)", "Scroll", key_display="↑↓"), Binding("up", "scroll_dialog(-1)", show=False),
    Binding("pagedown", "page_dialog(1)", show=False), Binding("pageup", "page_dialog(-1)", show=False)]


class Dialog(ModalScreen[R]):
    """A dialog over the table: its box (``#dialog``, a ``VerticalScroll`` its compose yields, which takes no
    focus: its keys are the screen's) is as tall as its content, the terminal's height at most; where the
    content is taller (every key of the help, eight seats' hands), the box scrolls with ↑ ↓ and page up and
    down, and the footer shows those keys then only: nothing is cut off unsaid. Its footer is its own
    (``KeysFooter``, which each dialog yields last): the table's, under it, shows keys that do nothing here."""

    BINDINGS: ClassVar[list[BindingType]] = SCROLL_KEYS

    def on_mount(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # (whether it scrolls is known once it is laid out)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_bindings)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # (a dialog shown again, its content changed: ``show``)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that scroll, only where there is something to scroll to."""
        if action in ("scroll_dialog", "page_dialog"):
            boxes = self.query("#dialog").results(VerticalScroll)
            return any(box.max_scroll_y > 0 for box in boxes)
        return True

    def action_scroll_dialog(self, rows: int) -> None:
        self.query_one("#dialog", VerticalScroll).scroll_relative(y=rows, animate=False)

    def action_page_dialog(self, pages: int) -> None:
        box = self.query_one("#dialog", VerticalScroll)
        box.scroll_relative(y=pages * max(1, box.scrollable_content_region.height - 1), animate=False)


class Dismissable(Dialog[None], OneLayout[None]):
    """A dialog that any key (or a click) closes; the keys its footer shows do what the footer says: esc
    closes, ``q`` quits, over it as anywhere (a modal screen hides the app's own bindings, but for those with
    priority). It is laid out once for its first frame (``OneLayout``: second, as Textual takes a class's
    default styles along its first bases only, and a modal's see-through background is among them)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss()


class RuleScreen(Dialog[bool]):
    """A rule's text from the rule book (``rulebook``), over the table: the one the message line cites. Any key
    closes it; ``?`` closes it with True: the keys' help, which ``?`` opens otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "close(True)", "Keys", key_display="?"),
                                             Binding("escape", "close(False)", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    def __init__(self, number: str, text: str) -> None:
        super().__init__()
        self.number = number
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(Text(f"Rule {self.number}", style="bold"))
            yield Static(Text(self.text), classes="rules")
            yield Static("? shows the keys instead; any other key closes.", classes="dim rules")
        yield KeysFooter()

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss(False)

    def action_close(self, keys: bool) -> None:
        self.dismiss(keys)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(False)


class KeysDialog(Dialog[bool]):
    """A table's help: any key or a click closes it, and ``G``, where there is a guide to open
    (``has_guide``), closes it with True: open the guide. Each game's help says what it shows."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("G", "close(True)", "Guide"),
                                             Binding("escape", "close(False)", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    @property
    def has_guide(self) -> bool:
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close" and parameters == (True,) and not self.has_guide:
            return False
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss(False)

    def action_close(self, guide: bool) -> None:
        self.dismiss(guide)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(False)


class KeysHelp(KeysDialog):
    """A game's keys (``keys``: key, what it does), then ``notes``; ``G`` where the game has a guide (``guide``)."""

    def __init__(self, keys: Sequence[tuple[str, str]], notes: Sequence[RenderableType] = (), *,
                 guide: bool = False) -> None:
        super().__init__()
        self.keys = keys
        self.notes = notes
        self.guide = guide

    @property
    def has_guide(self) -> bool:
        return self.guide

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for key, what in self.keys:
            grid.add_row(key, what)
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(grid)
            for note in self.notes:
                yield Static(note, classes="rules")
            yield Static("Any key closes this help." + (" G: the guide." if self.guide else ""), classes="dim")
        yield KeysFooter()


def names(name: Callable[[int], str], seat: int | None, seats: int) -> list[str]:
    """Every seat's name as an end shows it: ``You`` for ``seat``."""
    return ["You" if s == seat else name(s) for s in range(seats)]


class BesideTheLog(Dismissable):
    """A dialog over the table that, on a wide terminal, keeps to the seats' side: the log beside it stays
    whole (the round's story next to its hands)."""

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= WIDE, "wide")

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "wide")


class GameEnd(BesideTheLog, inherit_bindings=False):
    """A game-end screen: any key closes it, but ``R`` (or ``r``), where the player may have their play
    reviewed (``review``: what opens the review), closes it and opens the review, and ``H`` (or ``h``), where
    the table keeps the player's games (``history``: what opens them, the local games played), closes it and
    opens those. Its footer shows the keys it offers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *SCROLL_KEYS,
        Binding("R", "offered('review')", "Review"), Binding("r", "offered('review')", show=False),
        Binding("H", "offered('history')", "Your games"), Binding("h", "offered('history')", show=False),
        Binding("escape", "close", "Close"), Binding("q", "app.quit", "Quit")]

    def __init__(self, review: Callable[[], object] | None = None,
                 history: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.review = review
        self.history = history

    def closing_hint(self) -> Static:
        offers = (["R reviews your play in this game"] if self.review is not None else []) + \
            (["H shows your games, to replay or review"] if self.history is not None else [])
        hint = f"{', '.join(offers)}; any other key closes." if offers else "Any key closes."
        return Static(hint, classes="dim")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key for what is not offered here is no key of this screen's (it closes it, as any other)."""
        if action == "offered":
            return (self.review if parameters == ("review",) else self.history) is not None
        return super().check_action(action, parameters)

    def action_offered(self, what: str) -> None:
        offered = self.review if what == "review" else self.history
        if offered is not None:
            self.dismiss()
            offered()


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or enter says yes, n or esc no."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question)
            yield Static("y: yes   n: no", classes="dim")
        yield KeysFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
