"""Every event of Ten Pennies in words: the one wording of the game's story, which the terminal client's log,
``tenpennies replay``, ``tenpennies bot`` and ``tenpennies bots -v`` all print.

One tense, the past ("Ann drew the 7♥", "You discarded the K♠"): a verb reads the same after a name and
after "You", so the viewer's own seat may be called "You". The headlines of the game and of a round say
what is now ("The game starts: 3 seats", "Round 2: the contract is 1 set of 4, dealt by Ann", "The upcard
is the 5♠"). How seats are named and cards written is the caller's (``Narrator.name``, ``Narrator.card``):
a name with its seat number where two seats share it, "You" for the viewer, cards as the screen draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card, sort_key
from . import commands as cmd
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
from .rules import HouseRules

if TYPE_CHECKING:
    from .game import SeatView

# The events that head a part of the game rather than tell a seat's move.
HEADLINES = (GameStarted, DealerDraw, RoundStarted, UpcardTurned, RoundEnded, GameEnded)

_RAN_OUT = {"stock": "the stock ran out", "max_turns": "the turns ran out"}  # TP-4.19, TP-4.20


def seat_number(seat: int) -> str:
    """A seat's name when there is no other: "seat 2"."""
    return f"seat {seat}"


def card_text(card: Card) -> str:
    """A card in the notation: 7H, TD, JK."""
    return card.text


def round_end_why(out: int | None, reason: str, name: Callable[[int], str] = seat_number) -> str:
    """Why a round ended, in words: who went out (TP-4.16), else what ran out (TP-4.19, TP-4.20)."""
    if out is not None:
        return f"{name(out)} went out"
    return _RAN_OUT.get(reason, "it ended")


@dataclass(frozen=True, slots=True)
class Narrator:
    """Puts events into words for one reader.

    ``rules`` are the game's (a round's contract is told from them); ``name`` names a seat, ``card`` writes a
    card and ``cards`` a group of them (by default each with ``card``, in the event's order). ``seat`` is the
    reader's seat (None: a spectator) and ``every_hand`` says the reader sees every seat's cards (a replay):
    a draw is told with its card where the reader sees the card, else as the bare draw."""

    rules: HouseRules
    name: Callable[[int], str] = seat_number
    card: Callable[[Card], str] = card_text
    cards: Callable[[Sequence[Card]], str] | None = None
    seat: int | None = None
    every_hand: bool = False

    def line(self, event: Event) -> str | None:
        """The event in words; None for one that another event tells: a turn's start (its first move says
        it) and a draw from the stock where the reader sees the card drawn (its CardsReceived says it)."""
        name, card = self.name, self.card
        match event:
            case GameStarted(seats=seats):
                return f"The game starts: {seats} seats"
            case DealerDraw(seat=seat, card=drawn, tie_break=tie):
                return f"{name(seat)} drew {card(drawn)}{' again' if tie else ''} for the deal"
            case RoundStarted(round=number, dealer=dealer):
                return f"Round {number}: the contract is {self.rules.round(number).contract}, dealt by {name(dealer)}"
            case CardsReceived(seat=seat, cards=got, reason=reason):
                shown = self._cards(got)
                if reason == "deal":
                    return f"Dealt to {name(seat)}: {shown}"
                if reason == "draw":
                    return f"{name(seat)} drew the {shown}"
                return f"{name(seat)} took the penalty card{'s' if len(got) != 1 else ''} {shown}"
            case UpcardTurned(card=turned):
                return f"The upcard is the {card(turned)}"
            case TurnStarted():
                return None
            case DiscardTaken(seat=seat, card=taken):
                return f"{name(seat)} took the {card(taken)}"
            case DiscardDeclined(seat=seat, card=declined, offered_to=offered):
                to = ", ".join(name(s) for s in offered) or "nobody (no pennies left)"
                return f"{name(seat)} declined the {card(declined)}: offered to {to}"
            case BuyAnswered(seat=seat, buy=buy):
                return f"{name(seat)} {'asked to buy' if buy else 'passed'}"
            case CardBought(seat=seat, card=bought, penalty_cards=extra):
                return f"{name(seat)} bought the {card(bought)} (+{extra} card{'s' if extra != 1 else ''})"
            case CardDead(card=dead):
                return f"Nobody bought the {card(dead)}"
            case StockDrawn(seat=seat):
                return None if self.every_hand or seat == self.seat else f"{name(seat)} drew"
            case StockRebuilt(size=size, reshuffles_left=left):
                return f"The pile became the stock: {size} cards, {left} reshuffles left"
            case ContractLaid(seat=seat, melds=melds):
                return f"{name(seat)} laid the contract: {' / '.join(self._cards(m.cards) for m in melds)}"
            case SetLaid(seat=seat, meld=meld):
                return f"{name(seat)} laid set {meld.id}: {self._cards(meld.cards)}"
            case LaidOff(seat=seat, card=laid, set_id=set_id):
                return f"{name(seat)} laid off {card(laid)} on set {set_id}"
            case Discarded(seat=seat, card=discarded):
                return f"{name(seat)} discarded the {card(discarded)}"
            case WentOut(seat=seat):
                return f"{name(seat)} went out"
            case RoundEnded(round=number, points=points, scores=scores):
                told = ", ".join(f"{name(s)} {points[s]} ({scores[s]})" for s in range(len(scores)))
                return f"Round {number} over, {self.why(event)}: {told}"
            case GameEnded(winners=winners, shares=shares):
                pennies = sum(shares)
                won = f"won {pennies} pennies" if pennies else "won"
                return f"Game over: {' and '.join(name(s) for s in winners)} {won}"
        raise TypeError(f"not an event of Ten Pennies: {event!r}")

    def telling(self, event: Event, move_mark: str = "") -> list[str]:
        """All a reader is told of ``event``: its line (a move's with ``move_mark`` before it, where the
        reader wants one: a replay's round and turn; headlines and a deal's hands have none), then for a
        round's end the hands it shows."""
        told: list[str] = []
        line = self.line(event)
        if line is not None:
            headline = isinstance(event, HEADLINES) or (isinstance(event, CardsReceived) and event.reason == "deal")
            told.append(line if headline else move_mark + line)
        if isinstance(event, RoundEnded):
            told += self.hands(event)
        return told

    def move(self, command: cmd.Command) -> str:
        """A command in words, as its seat would say it before making it ("discard the K♥"), in the words its
        events are told in: a review's choice and the options it is weighed against."""
        card = self.card
        match command:
            case cmd.TakeDiscard():
                return "take the discard"
            case cmd.DeclineDiscard():
                return "decline the discard"
            case cmd.Buy():
                return "ask to buy"
            case cmd.PassBuy():
                return "pass"
            case cmd.Draw():
                return "draw from the stock"
            case cmd.LayContract(sets=sets):
                return f"lay the contract: {' / '.join(self._cards(s) for s in sets)}"
            case cmd.LaySet(cards=cards):
                return f"lay the set {self._cards(cards)}"
            case cmd.LayOff(card=laid, set_id=set_id):
                return f"lay off {card(laid)} on set {set_id}"
            case cmd.Discard(card=discarded):
                return f"discard the {card(discarded)}"
        raise TypeError(f"not a command of Ten Pennies: {command!r}")

    def moment(self, view: SeatView) -> str:
        """What the seat had before it at a decision (its ``view``), in words: its hand, sorted, and the card
        the decision is about (the discard it may take, the card offered to buy): a review's entry."""
        hand = f"holding {self._cards(sorted(view.hand, key=sort_key))}"
        top = view.discard_top
        if top is not None and view.phase == "pick_up":
            return f"{hand}; the discard: the {self.card(top)}"
        if top is not None and view.phase == "buy":
            return f"{hand}; offered to buy: the {self.card(top)}"
        return hand

    def why(self, end: RoundEnded) -> str:
        """Why the round ended, in words."""
        return round_end_why(end.out, end.reason, self.name)

    def hands(self, end: RoundEnded) -> list[str]:
        """The hands a round's end shows, a line a seat: its points, its total, the cards it held."""
        return [f"  {self.name(s):<20} {end.points[s]:>4} points (total {end.scores[s]:>4})  "
                f"held {self._cards(end.hands[s]) or '-'}" for s in range(len(end.points))]

    def _cards(self, cards: Sequence[Card]) -> str:
        return self.cards(cards) if self.cards is not None else " ".join(self.card(c) for c in cards)
