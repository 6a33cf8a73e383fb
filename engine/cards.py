"""Cards: every physical card is its own value, with a short text notation.

Notation (parses and prints back identically):

* rank ``2``..``9``, ``T`` (ten), ``J``, ``Q``, ``K``, ``A``; suit ``C D H S``: ``7H``, ``TD``, ``AS``.
* a joker is ``JK``.
* the same face from another deck carries its copy number after a dot: ``7H.1`` is the 7 of hearts of
  the second deck; jokers are numbered across the shoe, ``JK``, ``JK.1``, ``JK.2`` ... (two per deck).
  Copy 0 is written without a suffix.

Cards are interned: there is exactly one ``Card`` object per physical card, so ``is`` and ``==`` agree,
and ``Card.from_id`` is a table lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

SUITS = "CDHS"
RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
CHAR_RANKS = {v: k for k, v in RANK_CHARS.items()}
ACE = 14
JOKER = 15  # ranks above the ace (TP-1.3)
RANK_NAMES = {**{r: c for r, c in RANK_CHARS.items()}, JOKER: "JK"}

CARDS_PER_DECK = 54
MAX_DECKS = 4


def rank_points(rank: int) -> int:
    """TP-5.1: what a card left in hand costs, whatever is wild this round."""
    if rank == JOKER:
        return 50
    if rank == 2 or rank == ACE:
        return 20
    if rank >= 10:
        return 10
    return 5


class Card:
    """One physical card. Create with ``Card.parse`` or ``Card.from_id``; never directly."""

    __slots__ = ("id", "rank", "suit", "copy", "points", "text")

    id: int          # 0 .. 54*decks-1; deck = id // 54
    rank: int        # 2..14 (ace), 15 joker
    suit: str | None  # 'C' 'D' 'H' 'S', None for a joker
    copy: int        # which deck (jokers: which of the shoe's jokers)
    points: int
    text: str

    def __init__(self, card_id: int) -> None:
        deck, index = divmod(card_id, CARDS_PER_DECK)
        self.id = card_id
        if index >= 52:
            self.rank, self.suit, self.copy = JOKER, None, deck * 2 + (index - 52)
            face = "JK"
        else:
            rank_index, suit_index = divmod(index, 4)
            self.rank, self.suit, self.copy = rank_index + 2, SUITS[suit_index], deck
            face = RANK_CHARS[self.rank] + self.suit
        self.points = rank_points(self.rank)
        self.text = face if self.copy == 0 else f"{face}.{self.copy}"

    @staticmethod
    def from_id(card_id: int) -> Card:
        if not 0 <= card_id < len(_ALL):
            raise ValueError(f"no card with id {card_id}")
        return _ALL[card_id]

    @staticmethod
    def parse(text: str) -> Card:
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise ValueError(f"not a card: {text!r} (write e.g. 7H, TD, AS, JK, 7H.1)")
        return card

    @property
    def deck(self) -> int:
        return self.id // CARDS_PER_DECK

    def describe(self) -> str:
        """The card as error messages name it, by text and by id (the wire names cards by id): ``7H (card 22)``."""
        return f"{self.text} (card {self.id})"

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:  # pickling keeps interning
        return (Card.from_id, (self.id,))

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id


_ALL: tuple[Card, ...] = tuple(Card(i) for i in range(CARDS_PER_DECK * MAX_DECKS))
_BY_TEXT: dict[str, Card] = {c.text: c for c in _ALL}


def shoe(decks: int) -> list[Card]:
    """TP-1.2: ``decks`` standard decks of 54 cards, in id order."""
    if not 1 <= decks <= MAX_DECKS:
        raise ValueError(f"a shoe has 1 to {MAX_DECKS} decks, not {decks}")
    return list(_ALL[: decks * CARDS_PER_DECK])


def decks_for(seats: int) -> int:
    """TP-1.2: ceil(n/2) decks."""
    return (seats + 1) // 2


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards separated by spaces or commas: ``"7H 7S JK"``."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(w) for w in words]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.text for c in cards)


def sort_key(card: Card) -> tuple[int, str, int]:
    """Display order: by rank, then suit, then copy."""
    return (card.rank, card.suit or "", card.copy)
