"""What a seat can ask the engine to do, and a one-line text notation for each.

Notation, one command a line (used by logs, the CLI and tests)::

    2 take                      take the live discard (TP-4.2)
    2 decline                   decline it; the buy window opens (TP-4.3)
    3 buy / 3 pass              answer the buy offer (TP-4.3, TP-4.4)
    2 draw                      draw from the stock (TP-4.6)
    2 contract 7H 7S JK / 9C 9D 9H    lay the round's contract, sets split by '/' (TP-4.11)
    2 set 5C 5D 5S              lay a further set once down (TP-4.12)
    2 layoff 7C 0               lay a card off on table set 0 (TP-4.13)
    2 discard KH                end the turn (TP-4.15)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeAlias

from ..cards import Card, format_cards, parse_cards


def _sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.id))


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    seat: int
    verb = "take"


@dataclass(frozen=True, slots=True)
class DeclineDiscard:
    seat: int
    verb = "decline"


@dataclass(frozen=True, slots=True)
class Buy:
    seat: int
    verb = "buy"


@dataclass(frozen=True, slots=True)
class PassBuy:
    seat: int
    verb = "pass"


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    verb = "draw"


@dataclass(frozen=True, slots=True)
class LayContract:
    """Lay the whole contract at once. Cards within a set, and the sets, are kept in a canonical order,
    so that two commands laying the same sets are equal."""

    seat: int
    sets: tuple[tuple[Card, ...], ...]
    verb = "contract"

    def __post_init__(self) -> None:
        canonical = tuple(sorted((_sorted_cards(s) for s in self.sets), key=lambda s: [c.id for c in s]))
        object.__setattr__(self, "sets", canonical)


@dataclass(frozen=True, slots=True)
class LaySet:
    seat: int
    cards: tuple[Card, ...]
    verb = "set"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _sorted_cards(self.cards))


@dataclass(frozen=True, slots=True)
class LayOff:
    seat: int
    card: Card
    set_id: int
    verb = "layoff"


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card
    verb = "discard"


Command: TypeAlias = TakeDiscard | DeclineDiscard | Buy | PassBuy | Draw | LayContract | LaySet | LayOff | Discard
COMMAND_TYPES = (TakeDiscard, DeclineDiscard, Buy, PassBuy, Draw, LayContract, LaySet, LayOff, Discard)
_SIMPLE = {cls.verb: cls for cls in (TakeDiscard, DeclineDiscard, Buy, PassBuy, Draw)}


def format_command(cmd: Command) -> str:
    head = f"{cmd.seat} {cmd.verb}"
    if isinstance(cmd, LayContract):
        return f"{head} " + " / ".join(format_cards(s) for s in cmd.sets)
    if isinstance(cmd, LaySet):
        return f"{head} {format_cards(cmd.cards)}"
    if isinstance(cmd, LayOff):
        return f"{head} {cmd.card} {cmd.set_id}"
    if isinstance(cmd, Discard):
        return f"{head} {cmd.card}"
    return head


def parse_command(text: str) -> Command:
    """Parse one line of the notation above; ValueError says what is wrong."""
    words = text.split()
    if len(words) < 2 or not words[0].isdigit():
        raise ValueError(f"a command is '<seat> <verb> ...', not {text!r}")
    seat, verb, rest = int(words[0]), words[1].lower(), words[2:]
    if verb in _SIMPLE:
        if rest:
            raise ValueError(f"'{verb}' takes nothing after it")
        return _SIMPLE[verb](seat)
    if verb == "contract":
        groups = " ".join(rest).split("/")
        return LayContract(seat, tuple(tuple(parse_cards(g)) for g in groups))
    if verb == "set":
        return LaySet(seat, tuple(parse_cards(rest)))
    if verb == "layoff":
        if len(rest) != 2 or not rest[1].isdigit():
            raise ValueError("write 'layoff <card> <set number>'")
        return LayOff(seat, Card.parse(rest[0]), int(rest[1]))
    if verb == "discard":
        if len(rest) != 1:
            raise ValueError("write 'discard <card>'")
        return Discard(seat, Card.parse(rest[0]))
    raise ValueError(f"unknown command {verb!r}")
