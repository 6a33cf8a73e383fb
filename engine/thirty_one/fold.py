"""How a seat's view follows the events it may see: ``fold(known, event) -> Known``.

A seat (or a spectator, seat None) told the game's events, and only those it may see (``visible_to``),
keeps its ``SeatView`` up to date from them alone; after every command it equals ``Game.view(seat)``
but for ``legal``, which a fold never lists (the engine's, or over the wire the server's). ``fold`` is
pure: a new ``Known`` with a new view, or the same one for an event that changes nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from .events import (
    CardsReceived,
    DealEnded,
    DealStarted,
    Discarded,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    HandKept,
    HandRenewed,
    HandSwapped,
    Knocked,
    MiddleDealt,
    MiddleExchanged,
    PlayerInfo,
    StockDrawn,
    Stood,
    TableCardsTurned,
    TableSwapped,
    TurnStarted,
    UpcardTurned,
    WidowDealt,
    WidowExchanged,
)
from .hands import hand_value
from .rules import Rules
from .view import MiddleHand, Phase, SeatView


@dataclass(frozen=True, slots=True)
class Known:
    """What one seat knows: its ``view`` (the whole discard pile is in it, T31-9.1)."""

    view: SeatView

    @classmethod
    def of(cls, view: SeatView) -> Known:
        """A fold that starts from ``view`` (a snapshot's, or ``Game.view``)."""
        return cls(view)


def opening(seat: int | None, seats: int, rules: Rules) -> Known:
    """What ``seat`` knows when the game starts, before the first deal."""
    lives = rules.lives if rules.scoring == "lives" else 0
    tokens = rules.tokens if rules.scoring == "tokens" else 0
    return Known(SeatView(
        seat=seat, seats=seats, rules=rules, deal=0, dealer=0, turn_seat=0, turn=0, phase=Phase.TURN, to_act=(),
        hand=(), spare=(), players=tuple(PlayerInfo(s, 0, lives, False, False, tokens, 0) for s in range(seats)),
        pile=(), stock_size=0, knocker=None, final_turns=(), taken=None, widow=(), middle=(), table_cards=(),
        centre=0, value=0.0, last_deal=None, winners=(), legal=()))


def _without(cards: tuple[Card, ...], gone: tuple[Card | None, ...]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c not in gone)


def _shown(cards: tuple[Card | None, ...]) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not None)


def fold(known: Known, event: Event) -> Known:
    """What the seat knows once it has seen ``event`` (one it may see)."""
    view = known.view
    mine = view.seat
    players = list(view.players)
    change: dict[str, Any] = {}
    hand = view.hand

    def grow(seat: int, by: int) -> None:
        players[seat] = players[seat]._replace(hand_size=players[seat].hand_size + by)

    def place(index: int, middle: MiddleHand) -> None:
        change["middle"] = view.middle[:index] + (middle,) + view.middle[index + 1:]

    match event:
        case GameStarted(seats=seats, rules=rules):
            return opening(mine, seats, rules)
        case DealStarted(deal=deal, dealer=dealer, players=infos, centre=centre, stock_size=stock):
            players = list(infos)
            hand = ()
            change.update(deal=deal, dealer=dealer, centre=centre, stock_size=stock, spare=(), pile=(), widow=(),
                          middle=(), table_cards=(), knocker=None, final_turns=(), taken=None, turn=0)
        case CardsReceived(seat=seat, cards=cards, reason=reason):
            if seat == mine:
                if reason == "spare":
                    change["spare"] = cards
                else:
                    hand = hand + cards
        case WidowDealt(size=size):
            change["widow"] = (None,) * size
        case MiddleDealt(place=index, size=size):
            change.update(middle=view.middle + (MiddleHand(index, False, (False,) * size, (None,) * size),),
                          phase=Phase.KEEP, turn_seat=view.dealer, to_act=(view.dealer,))
        case HandKept(seat=seat, hand=kept, place=index, cards=cards):
            if seat == mine and kept == 1:
                hand = view.spare
            change.update(spare=(), middle=view.middle[:index]
                          + (MiddleHand(index, True, (True,) * len(cards), cards),))
        case TableCardsTurned(cards=cards):
            change["table_cards"] = cards
        case UpcardTurned(card=card):
            change["pile"] = (card,)
        case TurnStarted(seat=seat, turn=turn, final=final):
            change.update(turn_seat=seat, turn=turn, phase=Phase.TURN, to_act=(seat,), taken=None)
            if final:
                change["final_turns"] = tuple(s for s in view.final_turns if s != seat)
        case StockDrawn(seat=seat):
            grow(seat, 1)
            change.update(stock_size=view.stock_size - 1, phase=Phase.DISCARD)
        case DiscardTaken(seat=seat, card=card):
            grow(seat, 1)
            if seat == mine:
                hand = hand + (card,)
            change.update(pile=view.pile[:-1], taken=card, phase=Phase.DISCARD)
        case Discarded(seat=seat, card=card):
            grow(seat, -1)
            if seat == mine:
                hand = _without(hand, (card,))
            change.update(pile=view.pile + (card,), taken=None)
        case Knocked(seat=seat):
            order = [(seat + k) % view.seats for k in range(1, view.seats)]
            change.update(knocker=seat, final_turns=tuple(s for s in order if not players[s].out))
        case Stood():
            pass
        case WidowExchanged(seat=seat, given=given, taken=taken, widow=widow):
            if seat == mine:
                hand = _without(hand, given) + _shown(taken)
            change["widow"] = widow
        case MiddleExchanged(seat=seat, place=index, slot=slot, given=given, taken=taken):
            if seat == mine:
                hand = _without(hand, (given,)) + _shown((taken,))
            old = view.middle[index]
            place(index, old._replace(up=old.up[:slot] + (True,) + old.up[slot + 1:],
                                      cards=old.cards[:slot] + (given,) + old.cards[slot + 1:]))
        case HandSwapped(seat=seat, place=index, taken=taken, given=given):
            old = view.middle[index]
            if seat == mine:  # its old hand lies there: shown, or face down and known to it
                hand = _shown(taken)
            place(index, MiddleHand(index, old.face_up, old.up, view.hand if seat == mine else given))
        case HandRenewed(place=index, face_up=face_up, cards=cards):
            place(index, MiddleHand(index, face_up, (face_up,) * len(cards), cards))
            change["stock_size"] = view.stock_size - len(cards)
            if not face_up:
                change["phase"] = Phase.AGAIN
        case TableSwapped(seat=seat, given=given, taken=taken):
            if seat == mine:
                hand = _without(hand, given) + taken
            if len(given) == 1:
                table = view.table_cards
                at = table.index(taken[0])
                change["table_cards"] = table[:at] + given + table[at + 1:]
            else:
                change["table_cards"] = given
        case DealEnded(players=infos, centre=centre):
            players = list(infos)
            change.update(centre=centre, last_deal=event)
        case GameEnded(winners=winners, players=infos):
            players = list(infos)
            change.update(phase=Phase.GAME_OVER, to_act=(), winners=winners)
        case _:
            raise TypeError(f"not an event of Thirty-One: {event!r}")
    if hand != view.hand:
        change["hand"] = hand
        if mine is not None and not view.rules.brag:
            change["value"] = hand_value(hand, view.rules)
    if view.legal:
        change["legal"] = ()
    if tuple(players) != view.players:
        change["players"] = tuple(players)
    if not change:
        return known
    return Known(dataclasses.replace(view, **change))
