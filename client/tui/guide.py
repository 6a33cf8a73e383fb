"""The first-game guide: a turn of Ten Pennies explained in a few screens, shown over the table the first time
a player sits at a game (``TablePrefs.guide_seen`` remembers it), skippable at once, reopened from help."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from .footer import KeysFooter

# (title, lines): each page one step of a turn, in the keys the table uses
PAGES: tuple[tuple[str, str], ...] = (
    ("The game",
     "Seven rounds. Each round has a contract (2 sets of 3, then 1 set of 4 ... up to 1 set of 7) and wild "
     "cards (the header says which, and how many a set may hold). A set is 3 or more cards of one rank.\n\n"
     "Lay your contract down, then get rid of your cards. When a player goes out, everyone else counts the "
     "points left in their hand and pays a penny a card into the pot. Lowest total after seven rounds wins "
     "the pot."),
    ("1. Pick up",
     "Your turn starts with the discard. While it is live (the line over your hand says so) you may take it "
     "for free with t, or decline it with d.\n\n"
     "Taken, it replaces your draw. Declined, it is offered to the other players; then you draw from the stock "
     "with r (or enter)."),
    ("2. Buying",
     "When another player declines a discard, it is offered to you: b buys it, p passes. A buy costs one of "
     "your 10 pennies (for the whole game) and brings 2 penalty cards from the stock with it: buy only what "
     "helps your contract.\n\n"
     "A new offer flashes the prompt and rings the bell, and ignores keys for a moment, so a key meant for the "
     "last thing on screen is not taken for it. a turns auto-pass on for the round (it passes offers of cards "
     "that fit nothing in your hand; the line over your hand says Auto-pass) and a again turns it off."),
    ("3. Melding",
     "Select cards with the arrows and space; m adds them to the contract being built, and m (or enter) lays "
     "it once it is complete. Once you are down, m lays a further set, and a number lays the card off on that "
     "set (the sets on the table are numbered [0], [1], ...).\n\n"
     "h hints: a meld or lay-off you can make now, or what to do with a discard or an offer."),
    ("4. Discarding",
     "x discards the selected card (or the one under the cursor) and ends your turn. Empty your hand and you "
     "go out: the round ends.\n\n"
     "v shows the discard pile and the sets on the table; , the settings (the bell, the auto-pass); ? lists "
     "every key, and G there reopens this guide."),
)


class GuideScreen(ModalScreen[None]):
    """The guide's pages: enter, space or → the next, ← the one before, esc skips it, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,right", "turn(1)", "Next"),
        Binding("left", "turn(-1)", "Back"),
        Binding("escape", "dismiss", "Skip"),
        Binding("q", "app.quit", "Quit"),  # (a modal hides the app's own keys)
    ]

    def __init__(self) -> None:
        super().__init__()
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
        title, text = PAGES[self.page]
        last = self.page == len(PAGES) - 1
        return (Text(f"A turn of Ten Pennies · {title} ({self.page + 1}/{len(PAGES)})", style="bold"), Text(text),
                ("enter: to the table" if last else "enter: next") + " · ←: back · esc: skip the guide")

    def show(self) -> None:
        title, text, keys = self.texts()
        self.query_one("#guide-title", Static).update(title)
        self.query_one("#guide-text", Static).update(text)
        self.query_one("#guide-keys", Static).update(keys)

    def action_turn(self, step: int) -> None:
        page = self.page + step
        if page >= len(PAGES):
            self.dismiss()
            return
        self.page = max(0, page)
        self.show()
