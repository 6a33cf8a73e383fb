"""What happened, each event with its audience.

``event.to`` is ``None`` for an event every seat (and a spectator) may see, or the one seat allowed to
see it. The server fans events out by that field alone; it needs no rule knowledge to keep cards hidden.
No event ever names the seed or the order of the stock.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, NamedTuple

from ..cards import Card
from .rules import HouseRules


class Meld(NamedTuple):
    """A set on the table, as everybody sees it. ``rank`` is None for an all-wild set (TP-4.10)."""

    id: int
    owner: int
    cards: tuple[Card, ...]
    rank: int | None


class Event:
    __slots__ = ()
    to: int | None = None  # public unless the class says otherwise

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` (None: a spectator) see this event?"""
        return self.to is None or self.to == seat


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    seats: int
    rules: HouseRules


@dataclass(frozen=True, slots=True)
class DealerDraw(Event):
    """TP-2.3: a seat's card in the draw for first dealer (``tie_break`` counts the redraws)."""
    seat: int
    card: Card
    tie_break: int


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    dealer: int
    hand_size: int
    stock_size: int


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Cards that only ``seat`` sees arrive in its hand: ``reason`` is deal, draw or penalty."""
    seat: int
    cards: tuple[Card, ...]
    reason: str

    @property
    def to(self) -> int:  # type: ignore[override]
        return self.seat


@dataclass(frozen=True, slots=True)
class UpcardTurned(Event):
    card: Card


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int
    turn: int  # 1-based, within the round


@dataclass(frozen=True, slots=True)
class DiscardTaken(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class DiscardDeclined(Event):
    """The player declined the live card; it is offered to ``offered_to``, nearest seat first."""
    seat: int
    card: Card
    offered_to: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BuyAnswered(Event):
    """A seat's private acknowledgement of its answer; others learn only the outcome (TP-4.7)."""
    seat: int
    buy: bool

    @property
    def to(self) -> int:  # type: ignore[override]
        return self.seat


@dataclass(frozen=True, slots=True)
class CardBought(Event):
    seat: int
    card: Card
    penalty_cards: int  # how many the stock could give (TP-4.19)
    pennies_left: int


@dataclass(frozen=True, slots=True)
class CardDead(Event):
    card: Card


@dataclass(frozen=True, slots=True)
class StockDrawn(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class StockRebuilt(Event):
    size: int
    reshuffles_left: int


@dataclass(frozen=True, slots=True)
class ContractLaid(Event):
    seat: int
    melds: tuple[Meld, ...]


@dataclass(frozen=True, slots=True)
class SetLaid(Event):
    seat: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class LaidOff(Event):
    seat: int
    card: Card
    set_id: int


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """``out`` is the seat that went out, or None; ``reason`` is out, stock (TP-4.19) or max_turns (TP-4.20).
    Hands are shown, as at a real table, so that every seat can check the count."""
    round: int
    out: int | None
    reason: str
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]  # pennies from the pot, per seat


def _fill_slots_directly(event_classes: list[type[Event]]) -> None:
    """Give each frozen event class an ``__init__`` that fills its slots through their descriptors, with the
    same parameters as the dataclass's own: that one sets a field at a time through ``object.__setattr__``
    (it must get past the class's frozen ``__setattr__``), and the engine makes an event or two a command:
    random-legal play is 10-15% faster so (bench/engine_bench.py). Everything else is the dataclass's."""
    for cls in event_classes:
        names = [f.name for f in fields(cls)]  # type: ignore[arg-type]  # every one is a dataclass
        setters = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
        body = "".join(f"\n    _set_{name}(self, {name})" for name in names)
        made: dict[str, Any] = {}
        exec(f"def __init__(self, {', '.join(names)}):{body}", setters, made)  # the way dataclasses make theirs
        made["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = made["__init__"]  # type: ignore[method-assign]


_fill_slots_directly([c for c in list(globals().values())
                      if isinstance(c, type) and issubclass(c, Event) and is_dataclass(c)])
