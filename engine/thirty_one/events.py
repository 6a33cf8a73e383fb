"""What happened in a game of Thirty-One, each event with its audience.

``event.to`` is ``None`` for an event every seat (and a spectator) may see, or the one seat allowed to see
it (``CardsReceived``: cards only that seat sees). No event names the seed or the order of the stock.
Hidden cards a seat takes (drawn from the stock, taken face down from the widow or a middle hand) come to
it in ``CardsReceived``; cards taken face up are told in the public event that moves them, never twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..cards import Card
from .rules import Rules


class PlayerInfo(NamedTuple):
    """What every seat may know of a seat (T31-9.1)."""

    seat: int
    hand_size: int
    lives: int      # T31-7.1 (lives presets)
    riding: bool    # on the free ride: no lives left, still in (T31-7.2)
    out: bool       # out of the game (T31-7.3, T31-7.4)
    tokens: int     # banking (T31-7.4)
    points: int     # no_elimination (T31-8)


class Event:
    __slots__ = ()
    to: int | None = None  # public unless the class says otherwise

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` (None: a spectator) see this event?"""
        return self.to is None or self.to == seat


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    seats: int
    rules: Rules


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A deal begins (T31-2): ``players`` as they stand once the antes are in (banking: a seat that could
    not ante is out, T31-7.4), ``centre`` the tokens in the centre, ``stock_size`` once all is dealt."""

    deal: int  # 1-based
    dealer: int
    players: tuple[PlayerInfo, ...]
    centre: int
    stock_size: int


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Cards only ``seat`` sees come to it: ``reason`` is ``deal``, ``spare`` (switch: the dealer's second
    hand, T31-2.4), ``draw`` (the stock), ``widow`` or ``middle`` (taken face down, T31-4.4, T31-4.5)."""

    seat: int
    cards: tuple[Card, ...]
    reason: str

    @property
    def to(self) -> int:  # type: ignore[override]
        return self.seat


@dataclass(frozen=True, slots=True)
class UpcardTurned(Event):
    """T31-2.2: the first card of the discard pile."""

    card: Card


@dataclass(frozen=True, slots=True)
class WidowDealt(Event):
    """banking, T31-2.3: the widow of ``size`` cards, face down."""

    size: int


@dataclass(frozen=True, slots=True)
class MiddleDealt(Event):
    """switch, T31-2.4: a hand of ``size`` cards dealt face down to middle place ``place``."""

    place: int
    size: int


@dataclass(frozen=True, slots=True)
class HandKept(Event):
    """switch, T31-2.4: the dealer kept hand ``hand`` (0: the first dealt, 1: the second) and put the other,
    ``cards``, face up at middle place ``place``."""

    seat: int
    hand: int
    place: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TableCardsTurned(Event):
    """stop_the_bus, T31-2.5: the three table cards, face up."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """``final``: a last turn after the knock (T31-6.1)."""

    seat: int
    turn: int  # 1-based, within the deal
    final: bool


@dataclass(frozen=True, slots=True)
class StockDrawn(Event):
    """The seat took the top of the stock (the card itself comes to it alone, ``CardsReceived``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class DiscardTaken(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class Stood(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class WidowExchanged(Event):
    """banking, T31-4.4: ``given[i]`` went to widow position ``positions[i]``, whose card ``taken[i]`` the
    seat took (None: it lay face down, and comes to the seat alone). ``widow``: the widow now, face up."""

    seat: int
    given: tuple[Card, ...]
    positions: tuple[int, ...]
    taken: tuple[Card | None, ...]
    widow: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class MiddleExchanged(Event):
    """switch, T31-4.5 (a): ``given`` now lies face up at card ``slot`` of middle hand ``place``; ``taken`` is
    the card the seat took from there (None: it lay face down, and comes to the seat alone)."""

    seat: int
    place: int
    slot: int
    given: Card
    taken: Card | None


@dataclass(frozen=True, slots=True)
class HandSwapped(Event):
    """switch, T31-4.5 (b): the seat's hand and middle hand ``place`` changed places, card by card: the hand
    given lies as the hand taken lay, up where it was up, down where it was down. ``taken``: the middle
    hand's cards, None where face down (those come to the seat alone); ``given``: the seat's old hand, None
    where it now lies face down (its giver alone knows those)."""

    seat: int
    place: int
    taken: tuple[Card | None, ...]
    given: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class HandRenewed(Event):
    """switch, T31-4.5 (c): middle hand ``place`` went out of play and three stock cards replace it,
    ``face_up`` (``cards`` shown) or face down (``cards`` all None; the seat then acts once more)."""

    seat: int
    place: int
    face_up: bool
    cards: tuple[Card | None, ...]


@dataclass(frozen=True, slots=True)
class TableSwapped(Event):
    """stop_the_bus, T31-4.6: the seat gave ``given`` to the table and took ``taken`` from it, one or three."""

    seat: int
    given: tuple[Card, ...]
    taken: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """The deal is over. ``how``: ``knock`` (the showdown, T31-6), ``blitz`` (T31-5) or ``dead`` (T31-4.7).
    Every hand of a seat in the game is shown (``hands``; empty for a dead deal and for seats out,
    T31-9.3, T31-9.4) with its ``values`` (T31-3; 0 in stop_the_bus, which ranks by brag) and ``places``
    (1 the best hand, ties sharing; 0 not ranked). What each seat ``lost`` (lives), ``scored`` (points),
    ``paid`` and ``won`` (tokens), who ``went_out``, and ``players`` and ``centre`` as they now stand."""

    deal: int
    how: str
    knocker: int | None
    blitzer: int | None
    hands: tuple[tuple[Card, ...], ...]
    values: tuple[float, ...]
    places: tuple[int, ...]
    lost: tuple[int, ...]
    scored: tuple[int, ...]
    paid: tuple[int, ...]
    won: tuple[int, ...]
    went_out: tuple[int, ...]
    players: tuple[PlayerInfo, ...]
    centre: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """T31-7.3, T31-7.4, T31-8.1: the game is over; tied winners share the win. ``places``: each seat's
    finishing place (``Game.places``: 1 the best, tied seats share), its score in a tournament."""

    winners: tuple[int, ...]
    players: tuple[PlayerInfo, ...]
    places: tuple[int, ...] = ()
