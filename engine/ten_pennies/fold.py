"""How a seat's view follows the events it may see: ``fold(known, event) -> Known``.

A seat (or a spectator, seat None) that is told the game's events, and only those it may see
(``Event.visible_to``), keeps its ``SeatView`` up to date from them alone: a terminal client or a remote
bot from its stream, after a snapshot. ``Known`` is that view and the little a seat remembers beyond it
(the discard pile below its top card: every discard is face up). ``fold`` is pure: it returns a new
``Known`` with a new view, and a view once handed out never changes, so a screen may keep the one it
drew and compare. An event that changes nothing returns the same ``Known``.

What a fold cannot know, and so where it may differ from ``Game.view(seat)``:

* ``legal``: always empty. Which commands are legal is the engine's (``Game.legal_commands``) or, over
  the wire, the server's (its snapshot, then each private ``DecisionRequest``).
* ``to_act`` while a buy offer is open: other seats' answers are private until the offer settles
  (TP-4.7), so the fold lists every offered seat until then (this seat's own answer removes it at once).
* ``discard_top`` of a fold that began mid-round (``Known.of`` a snapshot's view): the view shows only
  the pile's top card, so once taking and buying have used up the cards seen since, the card below is
  unknown (None) until the next discard, and ``pile`` holds only the top of the pile
  (``len(pile) < view.pile_size``).
* Never the order of the stock, nor another seat's cards: the events a seat may see do not hold them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from .events import (
    BuyAnswered,
    CardBought,
    CardDead,
    CardsReceived,
    ContractLaid,
    DealerDraw,
    DiscardDeclined,
    Discarded,
    DiscardTaken,
    Event,
    GameEnded,
    GameStarted,
    LaidOff,
    RoundEnded,
    RoundStarted,
    SetLaid,
    StockDrawn,
    StockRebuilt,
    TurnStarted,
    UpcardTurned,
    WentOut,
)
from .game import Phase, PlayerInfo, SeatView
from .melds import rank_after


@dataclass(frozen=True, slots=True)
class Known:
    """What one seat knows: its ``view``, and ``pile``, the discard pile as far as it has seen it, bottom
    first (the whole pile for a fold that saw the round's deal, else its top ``len(pile)`` cards).
    ``penalty_drawn`` is the count of a buy's penalty cards drawn before the stock ran empty and was
    rebuilt, from the rebuild until the buy's ``CardBought`` (which comes after it)."""

    view: SeatView
    pile: tuple[Card, ...] = ()
    penalty_drawn: int = 0

    @classmethod
    def of(cls, view: SeatView) -> Known:
        """A fold that starts from ``view`` (a snapshot's, or ``Game.view``): of the pile it knows the top."""
        return cls(view, (view.discard_top,) if view.discard_top is not None else ())


def opening(seat: int | None, started: GameStarted) -> Known:
    """What ``seat`` knows when the game starts, before the draw for the deal: a game with no cards out."""
    rules, seats = started.rules, started.seats
    first = rules.rounds[0]
    return Known(SeatView(
        seat=seat, seats=seats, rules=rules, round=first, dealer=0, turn_seat=0, turn=0, phase=Phase.PICK_UP,
        to_act=(), hand=(),
        players=tuple(PlayerInfo(s, 0, rules.buy_pennies, 0, False, 0, 0) for s in range(seats)),
        table=(), discard_top=None, discard_live=False, pile_size=0, stock_size=0, pot=0,
        reshuffles_left=rules.reshuffles, buy_offer=(), legal=(), spec=rules.round(first)))


def fold(known: Known, event: Event) -> Known:
    """What the seat knows once it has seen ``event`` (one it may see: ``event.visible_to(seat)``).

    Every event ends the seat's open decision: the view that follows lists no legal commands."""
    view = known.view
    mine = view.seat
    pile = known.pile
    penalty_drawn = known.penalty_drawn
    players = list(view.players)
    change: dict[str, Any] = {}

    def grow(seat: int, by: int) -> None:
        players[seat] = players[seat]._replace(hand_size=players[seat].hand_size + by)

    def gains(seat: int, cards: tuple[Card, ...]) -> None:
        grow(seat, len(cards))
        if seat == mine:
            change["hand"] = view.hand + cards

    def loses(seat: int, cards: tuple[Card, ...]) -> None:
        grow(seat, -len(cards))
        if seat == mine:
            gone = {c.id for c in cards}
            change["hand"] = tuple(c for c in view.hand if c.id not in gone)

    def faces_up(card: Card) -> None:
        """A card goes face up onto the pile, live (the upcard, a discard)."""
        nonlocal pile
        pile = pile + (card,)
        change.update(pile_size=view.pile_size + 1, discard_top=card, discard_live=True)

    def taken() -> None:
        """The top card leaves the pile (taken or bought); the one below shows, if it is known."""
        nonlocal pile
        pile = pile[:-1]
        change.update(pile_size=view.pile_size - 1, discard_top=pile[-1] if pile else None, discard_live=False)

    def settled() -> None:
        """The live card is bought or dead: the player who turned it down draws (TP-4.6)."""
        change.update(discard_live=False, phase=Phase.DRAW, to_act=(view.turn_seat,), buy_offer=())

    match event:
        case GameStarted():
            return opening(mine, event)
        case DealerDraw() | WentOut():
            pass
        case RoundStarted(round=number, dealer=dealer, hand_size=size, stock_size=stock):
            pile, penalty_drawn = (), 0
            players = [p._replace(hand_size=size, down=False) for p in players]
            change.update(round=number, dealer=dealer, spec=view.rules.round(number), turn=0, table=(), hand=(),
                          buy_offer=(), to_act=(), stock_size=stock, pile_size=0, discard_top=None,
                          discard_live=False, reshuffles_left=view.rules.reshuffles)
        case CardsReceived(seat=seat, cards=cards):
            if seat == mine:  # its hand size: told by the public events (the deal, the draw, the buy)
                change["hand"] = view.hand + cards
        case UpcardTurned(card=card):
            faces_up(card)
        case TurnStarted(seat=seat, turn=turn):
            change.update(turn_seat=seat, turn=turn, phase=Phase.PICK_UP, to_act=(seat,), buy_offer=())
        case DiscardTaken(seat=seat, card=card):
            taken()
            gains(seat, (card,))
            change["phase"] = Phase.MELD
        case DiscardDeclined(offered_to=offered):
            change.update(phase=Phase.BUY, to_act=offered, buy_offer=offered)
        case BuyAnswered(seat=seat):
            change["to_act"] = tuple(s for s in view.to_act if s != seat)
        case CardBought(seat=seat, card=card, penalty_cards=penalty, pennies_left=left):
            taken()
            settled()
            gains(seat, (card,))
            grow(seat, penalty)  # the penalty cards themselves come to the buyer alone (CardsReceived)
            players[seat] = players[seat]._replace(pennies=left)
            change.update(stock_size=view.stock_size - (penalty - penalty_drawn), pot=view.pot + 1)
            penalty_drawn = 0
        case CardDead():
            settled()
        case StockDrawn(seat=seat):
            grow(seat, 1)
            change.update(stock_size=view.stock_size - 1, phase=Phase.MELD)
        case StockRebuilt(size=size, reshuffles_left=left):
            # TP-4.18: all the pile but its top becomes the stock. A buy's penalty cards rebuild it after the
            # bought card left the pile, but the buy's CardBought comes after the rebuild: until then the
            # top two stay here, and the penalty cards drawn before the stock ran empty are remembered.
            buying = view.phase is Phase.BUY
            keep = 2 if buying else 1
            pile = pile[-keep:]
            if buying:
                penalty_drawn = view.stock_size
            change.update(pile_size=keep, stock_size=size, reshuffles_left=left)
        case ContractLaid(seat=seat, melds=melds):
            loses(seat, tuple(c for m in melds for c in m.cards))
            players[seat] = players[seat]._replace(down=True)
            change["table"] = view.table + melds
        case SetLaid(seat=seat, meld=meld):
            loses(seat, meld.cards)
            change["table"] = view.table + (meld,)
        case LaidOff(seat=seat, card=card, set_id=set_id):
            loses(seat, (card,))
            target = view.table[set_id]
            rank = rank_after(target.rank, card, view.spec.wild_ranks)
            change["table"] = (view.table[:set_id] + (target._replace(cards=target.cards + (card,), rank=rank),)
                               + view.table[set_id + 1:])
        case Discarded(seat=seat, card=card):
            loses(seat, (card,))
            faces_up(card)
        case RoundEnded(hands=hands, scores=scores, pot=pot):  # TP-5.2: a penny a card left in hand
            players = [p._replace(score=scores[s], paid=p.paid + len(hands[s])) for s, p in enumerate(players)]
            change["pot"] = pot
        case GameEnded(scores=scores, shares=shares):
            players = [p._replace(score=scores[s], won=shares[s]) for s, p in enumerate(players)]
            change.update(phase=Phase.GAME_OVER, to_act=(), buy_offer=(), discard_live=False)
        case _:
            raise TypeError(f"not an event of Ten Pennies: {event!r}")
    if view.legal:
        change["legal"] = ()
    if tuple(players) != view.players:
        change["players"] = tuple(players)
    if not change and pile is known.pile and penalty_drawn == known.penalty_drawn:
        return known
    return Known(dataclasses.replace(view, **change), pile, penalty_drawn)
