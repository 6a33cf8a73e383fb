"""What one seat may know of a game of Thirty-One (T31-9): ``SeatView``, the same whether the game makes it
(``Game.view``) or a seat folds it from the events it saw (``fold``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from ..cards import Card
from .commands import Command
from .events import DealEnded, PlayerInfo
from .rules import Rules


class Phase(StrEnum):
    KEEP = "keep"            # switch: the dealer keeps one of its two hands (T31-2.4)
    TURN = "turn"            # a seat's turn: draw, knock, exchange, swap, renew, stand (T31-4, T31-6.1)
    DISCARD = "discard"      # the seat drew: it discards (T31-4.1)
    AGAIN = "again"          # switch: renewed face down, the seat acts once more (T31-4.5 c)
    GAME_OVER = "game_over"  # T31-7.3, T31-7.4, T31-8.1


class MiddleHand(NamedTuple):
    """switch: a middle hand as one seat sees it. ``face_up``: the place's face (a hand swapped in or renewed
    takes it); ``up``: each card's face (a card given to a face-down hand lies face up, T31-4.5 a); ``cards``:
    each card, None where it lies face down and this seat does not know it (T31-9.2)."""

    place: int
    face_up: bool
    up: tuple[bool, ...]
    cards: tuple[Card | None, ...]


@dataclass(slots=True)
class SeatView:
    """Everything one seat may know (``seat`` None: a spectator, with no hand and no commands).

    ``pile`` is the whole discard pile, top last (T31-9.1); ``taken`` the card this seat's turn took from
    it (T31-4.2); ``knocker`` who knocked, ``final_turns`` the seats still to have their last turn, in
    order (T31-6.1); ``widow`` the banking widow (None where face down), ``middle`` switch's middle hands,
    ``table_cards`` stop_the_bus' table; ``spare`` the switch dealer's second hand while it chooses;
    ``value`` this seat's hand's value (T31-3; 0 in stop_the_bus); ``last_deal`` how the last deal ended
    (its shown hands; kept until another deal ends); ``legal`` this seat's commands (a fold lists none)."""

    seat: int | None
    seats: int
    rules: Rules
    deal: int
    dealer: int
    turn_seat: int
    turn: int
    phase: Phase
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    spare: tuple[Card, ...]
    players: tuple[PlayerInfo, ...]
    pile: tuple[Card, ...]
    stock_size: int
    knocker: int | None
    final_turns: tuple[int, ...]
    taken: Card | None
    widow: tuple[Card | None, ...]
    middle: tuple[MiddleHand, ...]
    table_cards: tuple[Card, ...]
    centre: int
    value: float
    last_deal: DealEnded | None
    winners: tuple[int, ...]
    legal: tuple[Command, ...]

    @property
    def discard_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None
