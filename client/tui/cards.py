"""How the terminal client draws a card: short text (2-3 cells), a suit symbol or letter, colour optional.

Every card stays readable without colour (``NO_COLOR``): the suits differ by symbol (or letter, in
``ascii``), a wild card carries a ``*``, a selected card is drawn reversed and the cursor underlined,
so no state is told by colour alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from tenpennies.engine.cards import CARDS_PER_DECK, JOKER, RANK_CHARS, Card

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
TWO_COLOURS = {"C": "", "D": "red", "H": "red", "S": ""}
FOUR_COLOURS = {"C": "green", "D": "blue", "H": "red", "S": ""}
JOKER_COLOUR = "magenta"
WILD_MARK = "*"
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# How the engine's messages name a card: its text (with a copy number past the first deck) and its id.
WIRE_CARD = re.compile(r"[0-9A-Z][0-9A-Z.]* \(card (\d+)\)")



def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells with ``…`` when it is longer."""
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(frozen=True)
class CardStyle:
    """How cards are drawn. ``ascii``: ``7H TD JK`` (the engine's notation, without copy numbers) instead
    of ``7♥ 10♦ JK``; ``four_colour``: clubs green, diamonds blue, hearts red, spades plain; ``colour``
    False (NO_COLOR): no colour at all, everything told by symbols and text attributes."""

    ascii: bool = False
    four_colour: bool = False
    colour: bool = True

    # --- text ------------------------------------------------------------------------------------

    def rank_text(self, rank: int) -> str:
        if rank == JOKER:
            return "JK"
        if rank == 10 and not self.ascii:
            return "10"
        return RANK_CHARS[rank]

    def suit_text(self, suit: str) -> str:
        return suit if self.ascii else SYMBOLS[suit]

    def text(self, card: Card) -> str:
        """The card in 2 or 3 cells: ``10♥``, ``K♠``, ``JK`` (ascii: ``TH``, ``KS``, ``JK``), as the log writes
        it: copies of the same face alike (they play alike); ``rich`` marks the copy."""
        if card.suit is None:
            return "JK"
        return self.rank_text(card.rank) + self.suit_text(card.suit)

    def words(self, message: str) -> str:
        """The server's words with every card it names (``JS.1 (card 93)``) drawn as the screen draws it
        (``J♠``); the rest, the rule number first, as it came."""
        def card(match: re.Match[str]) -> str:
            try:
                return self.text(Card.from_id(int(match.group(1))))
            except ValueError:
                return match.group(0)
        return WIRE_CARD.sub(card, message)

    @property
    def turn_mark(self) -> str:
        return ">" if self.ascii else "▶"

    @property
    def dot(self) -> str:
        return "-" if self.ascii else "·"

    # --- style -----------------------------------------------------------------------------------

    def colour_of(self, card: Card) -> str:
        if not self.colour:
            return ""
        if card.suit is None:
            return JOKER_COLOUR
        return (FOUR_COLOURS if self.four_colour else TWO_COLOURS)[card.suit]

    def copy_mark(self, card: Card) -> str:
        """How the same face from another deck is told apart on the table screen: its deck's number (for a
        face, its copy number as the engine writes it, ``7H.1``), raised (``7♥¹``); nothing for the first
        deck's cards (its two jokers alike, as they play alike)."""
        deck = card.id // CARDS_PER_DECK
        if not deck:
            return ""
        return f".{deck}" if self.ascii else str(deck).translate(SUPERSCRIPT)

    def rich(self, card: Card, *, wild: bool = False, selected: bool = False, cursor: bool = False) -> Text:
        """The card as styled text: its colour; a card of a second deck with its copy number raised
        (``copy_mark``); wild cards bold with a ``*``; selected reversed; the cursor underlined (both
        attributes, not colours, so they survive NO_COLOR)."""
        style = Style(color=self.colour_of(card) or None, bold=wild or None,
                      reverse=selected or None, underline=cursor or None)
        text = Text(self.text(card) + self.copy_mark(card), style=style)
        if wild:
            text.append(WILD_MARK, style=style)
        return text

    def cards(self, cards: tuple[Card, ...] | list[Card], wild_ranks: frozenset[int] = frozenset(),
              sep: str = " ") -> Text:
        """Several cards in a row, wild ones marked."""
        out = Text()
        for i, card in enumerate(cards):
            if i:
                out.append(sep)
            out.append_text(self.rich(card, wild=card.rank in wild_ranks))
        return out

    def ranks(self, ranks: frozenset[int] | set[int]) -> str:
        """Wild ranks in words for headers: ``JK``, ``JK A 2``."""
        order = sorted(ranks, key=lambda r: (r != JOKER, -r))
        return " ".join(self.rank_text(r) for r in order)
