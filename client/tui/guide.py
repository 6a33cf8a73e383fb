"""The first-game guide: a turn of the game explained in a few screens, each of the game's own words said what it
means where it is first used, shown over the table the first time a player sits at a local game of it
(``TablePrefs.seen_guide`` remembers it, a game at a time), skippable at once, reopened from help (``G``). Ten
Pennies' pages are here; Thirty-One's are its table's (``thirty_one.guide_pages``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from .footer import KeysFooter

# (title, lines): each page one step of a turn, in the keys the table uses; each word of the game's own (contract,
# wild, down, going out, the pot, the stock, live, reshuffles, buying, pennies, dead, laying off, auto-pass) said
# what it means where the guide first uses it
PAGES: tuple[tuple[str, str], ...] = (
    ("The game",
     "Seven rounds. Each round has a contract: the sets you must lay down, all at once, before you may lay any "
     "other card (2 sets of 3 in round 1, then 1 set of 4 ... up to 1 set of 7 in round 7). A set is 3 or more "
     "cards of one rank; wild cards stand in for any rank (the header says which are wild, and how many a set "
     "may hold). Laying your contract is going down: the seats' list then says down.\n\n"
     "Then get rid of your cards: a player whose hand is empty has gone out, and the round ends. Everyone else "
     "scores the cards left in their hand (5 to 50 points a card: Score) and pays a penny a card into the pot, "
     "from their own purse. Lowest total after seven rounds wins the pot."),
    ("1. Pick up",
     "Your turn starts with the discard: the top card of the discard pile, live until the next player's pick-up "
     "(the line over your hand says live). You may take it for free with t, or decline it with d.\n\n"
     "Taken, it replaces your draw. Declined, it is offered to the other players; then you draw from the stock, "
     "the face-down pile, with r (or enter). When the stock runs out the discard pile is shuffled into a new "
     "one, as many times a round as the header's reshuffles says."),
    ("2. Buying",
     "When another player declines a discard, it is offered to you: b buys it, p passes. A buy takes the card "
     "out of turn: it costs one of your buy pennies (the seats' Pennies: 10 for the whole game, apart from your "
     "purse), which goes into the pot, and brings 2 penalty cards from the stock with it: buy only what helps "
     "your contract. "
     "A card nobody buys is dead: it stays on the pile.\n\n"
     "A new offer flashes the prompt and rings the bell, and ignores keys for a moment, so a key meant for the "
     "last thing on screen is not taken for it. a turns auto-pass on for the round (it passes offers of cards "
     "that fit nothing in your hand; the line over your hand says Auto-pass) and a again turns it off."),
    ("3. Melding",
     "Select cards with the arrows and space; m adds them to the contract being built, and m (or enter) lays "
     "it once it is complete. Once you are down, m lays a further set, and you may lay off: add a card to a set "
     "already on the table, yours or anyone's. A number lays the selected card off on that set (the sets on "
     "the table are numbered [0], [1], ...).\n\n"
     "h hints: a meld or lay-off you can make now, or what to do with a discard or an offer."),
    ("4. Discarding",
     "x discards the selected card (or the one under the cursor) and ends your turn. Empty your hand and you "
     "go out: the round ends.\n\n"
     "v shows the discard pile and the sets on the table; , the settings (the bell, the auto-pass); ? lists "
     "every key, and G there reopens this guide."),
)
TITLE = "A turn of Ten Pennies"


class GuideScreen(ModalScreen[None]):
    """The guide's pages (``pages``, Ten Pennies' unless given; ``title`` the guide's): enter, space or → the
    next, ← the one before, esc skips it, q quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,right", "turn(1)", "Next"),
        Binding("left", "turn(-1)", "Back"),
        Binding("escape", "dismiss", "Skip"),
        Binding("q", "app.quit", "Quit"),  # (a modal hides the app's own keys)
    ]

    def __init__(self, pages: tuple[tuple[str, str], ...] = PAGES, title: str = TITLE) -> None:
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
