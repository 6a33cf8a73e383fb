"""What a seat can ask Thirty-One to do, and a one-line text notation for each (docs/THIRTY-ONE.md).

Notation, one command a line (logs, the store, the CLI and tests)::

    2 draw                    take the top of the stock (T31-4.1), then discard
    2 take                    take the top of the discard pile (T31-4.1), then discard
    2 discard KH              end the draw (T31-4.1)
    2 knock                   knock instead of drawing (T31-6.1)
    2 stand                   after a knock: keep the hand and pass (T31-6.1)
    2 widow 7H KS / 0 2       banking: give 7H and KS for the widow's cards at positions 0 and 2 (T31-4.4)
    2 keep 1                  switch, the dealer: keep hand 0 (the first dealt) or 1 (the second) (T31-2.4)
    2 exchange 7H 1 0         switch: give 7H for card 0 of middle hand 1 (T31-4.5 a)
    2 swap 1                  switch: swap the whole hand for middle hand 1 (T31-4.5 b)
    2 renew 0 down            switch: renew middle hand 0, face up or down (T31-4.5 c)
    2 table 7H KS             stop_the_bus: give 7H for the table's KS (T31-4.6)
    2 table-all               stop_the_bus: give all three for the three table cards (T31-4.6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ..cards import Card, format_cards, parse_cards


@dataclass(frozen=True, slots=True)
class DrawStock:
    seat: int
    verb = "draw"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    seat: int
    verb = "take"


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card
    verb = "discard"


@dataclass(frozen=True, slots=True)
class Knock:
    seat: int
    verb = "knock"


@dataclass(frozen=True, slots=True)
class Stand:
    seat: int
    verb = "stand"


@dataclass(frozen=True, slots=True)
class ExchangeWidow:
    """banking: ``give`` (1-3 cards of the hand) for the widow's cards at ``take`` (as many positions, 0-2).
    Both are kept in a canonical order (cards by id, positions rising): ``give[i]`` goes to ``take[i]``."""

    seat: int
    give: tuple[Card, ...]
    take: tuple[int, ...]
    verb = "widow"

    def __post_init__(self) -> None:
        object.__setattr__(self, "give", tuple(sorted(self.give, key=lambda c: c.id)))
        object.__setattr__(self, "take", tuple(sorted(self.take)))


@dataclass(frozen=True, slots=True)
class KeepHand:
    """switch, the dealer at the deal: keep hand 0 (the first dealt, ``view.hand``) or 1 (``view.spare``)."""

    seat: int
    hand: int
    verb = "keep"


@dataclass(frozen=True, slots=True)
class ExchangeMiddle:
    """switch (a): give ``card`` for card ``slot`` of middle hand ``place``."""

    seat: int
    card: Card
    place: int
    slot: int
    verb = "exchange"


@dataclass(frozen=True, slots=True)
class SwapHand:
    """switch (b): the whole hand for middle hand ``place``."""

    seat: int
    place: int
    verb = "swap"


@dataclass(frozen=True, slots=True)
class Renew:
    """switch (c): middle hand ``place`` goes out of play, three stock cards replace it, face up (the turn
    ends) or face down (the seat acts once more)."""

    seat: int
    place: int
    face_up: bool
    verb = "renew"


@dataclass(frozen=True, slots=True)
class TableSwap:
    """stop_the_bus: give ``give`` for the table card ``take``."""

    seat: int
    give: Card
    take: Card
    verb = "table"


@dataclass(frozen=True, slots=True)
class TableSwapAll:
    """stop_the_bus: the whole hand for the three table cards."""

    seat: int
    verb = "table-all"


Command: TypeAlias = (DrawStock | TakeDiscard | Discard | Knock | Stand | ExchangeWidow | KeepHand | ExchangeMiddle
                      | SwapHand | Renew | TableSwap | TableSwapAll)
COMMAND_TYPES = (DrawStock, TakeDiscard, Discard, Knock, Stand, ExchangeWidow, KeepHand, ExchangeMiddle, SwapHand,
                 Renew, TableSwap, TableSwapAll)
_SIMPLE = {cls.verb: cls for cls in (DrawStock, TakeDiscard, Knock, Stand, TableSwapAll)}


def format_command(cmd: Command) -> str:
    head = f"{cmd.seat} {cmd.verb}"
    match cmd:
        case Discard(card=card):
            return f"{head} {card}"
        case ExchangeWidow(give=give, take=take):
            return f"{head} {format_cards(give)} / {' '.join(str(p) for p in take)}"
        case KeepHand(hand=hand):
            return f"{head} {hand}"
        case ExchangeMiddle(card=card, place=place, slot=slot):
            return f"{head} {card} {place} {slot}"
        case SwapHand(place=place):
            return f"{head} {place}"
        case Renew(place=place, face_up=face_up):
            return f"{head} {place} {'up' if face_up else 'down'}"
        case TableSwap(give=give, take=take):
            return f"{head} {give} {take}"
    return head


def _number(word: str) -> int:
    if not word.isdigit():
        raise ValueError(f"not a number: {word!r}")
    return int(word)


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
    if verb == "discard" and len(rest) == 1:
        return Discard(seat, Card.parse(rest[0]))
    if verb == "widow":
        give, slash, take = " ".join(rest).partition("/")
        if not slash:
            raise ValueError("write 'widow <cards> / <positions>'")
        return ExchangeWidow(seat, tuple(parse_cards(give)), tuple(_number(w) for w in take.split()))
    if verb == "keep" and len(rest) == 1:
        return KeepHand(seat, _number(rest[0]))
    if verb == "exchange" and len(rest) == 3:
        return ExchangeMiddle(seat, Card.parse(rest[0]), _number(rest[1]), _number(rest[2]))
    if verb == "swap" and len(rest) == 1:
        return SwapHand(seat, _number(rest[0]))
    if verb == "renew" and len(rest) == 2 and rest[1].lower() in ("up", "down"):
        return Renew(seat, _number(rest[0]), rest[1].lower() == "up")
    if verb == "table" and len(rest) == 2:
        return TableSwap(seat, Card.parse(rest[0]), Card.parse(rest[1]))
    if verb in ("discard", "keep", "exchange", "swap", "renew", "table"):
        raise ValueError(f"'{verb}' is not written so: {text!r} (see the notation)")
    raise ValueError(f"unknown command {verb!r}")
