"""Cards on the wire, every game's: an engine card <-> ``pb.Card`` (by its id; the text, rank and suit repeat it
for a reader's convenience)."""

from __future__ import annotations

from collections.abc import Iterable

from tenpennies.engine.cards import CARDS_PER_DECK, MAX_DECKS, Card
from tenpennies.v2 import tenpennies_pb2 as pb

from .errors import BadRequest

_SUITS = {None: pb.SUIT_UNSPECIFIED, "C": pb.SUIT_CLUBS, "D": pb.SUIT_DIAMONDS, "H": pb.SUIT_HEARTS,
          "S": pb.SUIT_SPADES}
_CARDS = [pb.Card(id=c.id, text=c.text, rank=c.rank, suit=_SUITS[c.suit])
          for c in (Card.from_id(i) for i in range(CARDS_PER_DECK * MAX_DECKS))]


def card(c: Card) -> pb.Card:
    return _CARDS[c.id]


def cards(cs: Iterable[Card]) -> list[pb.Card]:
    return [_CARDS[c.id] for c in cs]


def card_from_pb(message: pb.Card) -> Card:
    """The engine card a wire card names (by its id; the text, rank and suit only repeat it)."""
    return card_from_id(message.id)


def card_from_id(card_id: int) -> Card:
    if not 0 <= card_id < CARDS_PER_DECK * MAX_DECKS:
        raise BadRequest(f"no card has id {card_id}")
    return Card.from_id(card_id)
