"""Ten Pennies' first-game guide: a turn in a few pages (``TurnGuide``)."""

from __future__ import annotations

from ..guide import GuideScreen

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


class TurnGuide(GuideScreen):
    """Ten Pennies' guide to a turn (``pages``: its own unless given)."""

    def __init__(self, pages: tuple[tuple[str, str], ...] = PAGES, title: str = TITLE) -> None:
        super().__init__(pages, title)
