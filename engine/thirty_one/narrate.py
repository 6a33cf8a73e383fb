"""Every event of Thirty-One in words: the one wording of the game's story, for the terminal client's log,
``tenpennies replay`` and ``tenpennies bots -v``. Past tense, as Ten Pennies' narrator ("Ann knocked",
"You drew the 7♥"); headlines say what is now ("Deal 3, dealt by Ann", "The upcard is the 5♠")."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import Card
from . import commands as cmd
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
    StockDrawn,
    Stood,
    TableCardsTurned,
    TableSwapped,
    TurnStarted,
    UpcardTurned,
    WidowDealt,
    WidowExchanged,
)
from .hands import brag_name
from .rules import Rules

if TYPE_CHECKING:
    from .view import SeatView

HEADLINES = (GameStarted, DealStarted, UpcardTurned, WidowDealt, MiddleDealt, TableCardsTurned, DealEnded, GameEnded)
"""The events that head a part of the game rather than tell a seat's move."""

PRESET_TITLES = {"classic": "classic", "cut_throat": "cut throat", "no_elimination": "no elimination",
                 "banking": "banking", "switch": "switch", "stop_the_bus": "stop the bus"}


def seat_number(seat: int) -> str:
    return f"seat {seat}"


def card_text(card: Card) -> str:
    return card.text


def value_text(value: float) -> str:
    """A hand's value: 27, 30½, 31."""
    return f"{int(value)}½" if value % 1 else str(int(value))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class Narrator:
    """Puts events into words for one reader (``seat``; None: a spectator); ``every_hand``: the reader
    sees every card (a replay), so a draw is told with its card."""

    rules: Rules
    name: Callable[[int], str] = seat_number
    card: Callable[[Card], str] = card_text
    seat: int | None = None
    every_hand: bool = False

    def line(self, event: Event) -> str | None:
        """The event in words; None for one another event tells (a turn's start, a draw whose card the
        reader is told in the same breath)."""
        name, card = self.name, self.card
        match event:
            case GameStarted(seats=seats, rules=rules):
                return f"Thirty-One ({PRESET_TITLES[rules.preset]}): {seats} seats"
            case DealStarted(deal=deal, dealer=dealer, centre=centre):
                pot = f", {_plural(centre, 'token')} in the centre" if self.rules.scoring == "tokens" else ""
                return f"Deal {deal}, dealt by {name(dealer)}{pot}"
            case CardsReceived(seat=seat, cards=got, reason=reason):
                shown = self._cards(got)
                match reason:
                    case "deal":
                        return f"Dealt to {name(seat)}: {shown}"
                    case "spare":
                        return f"{name(seat)}'s second hand: {shown}"
                    case "draw":
                        return f"{name(seat)} drew the {shown}"
                return f"{name(seat)} took {shown} from the {'widow' if reason == 'widow' else 'middle'}"
            case UpcardTurned(card=turned):
                return f"The upcard is the {card(turned)}"
            case WidowDealt(size=size):
                return f"The widow: {_plural(size, 'card')} face down"
            case MiddleDealt(place=place, size=size):
                return f"Middle hand {place}: {_plural(size, 'card')} face down"
            case HandKept(seat=seat, hand=kept, place=place, cards=cards):
                which = "first" if kept == 0 else "second"
                return f"{name(seat)} kept the {which} hand and put {self._cards(cards)} face up as middle hand {place}"
            case TableCardsTurned(cards=cards):
                return f"The table cards: {self._cards(cards)}"
            case TurnStarted():
                return None
            case StockDrawn(seat=seat):
                return None if self.every_hand or seat == self.seat else f"{name(seat)} drew from the stock"
            case DiscardTaken(seat=seat, card=taken):
                return f"{name(seat)} took the {card(taken)}"
            case Discarded(seat=seat, card=discarded):
                return f"{name(seat)} discarded the {card(discarded)}"
            case Knocked(seat=seat):
                return f"{name(seat)} knocked"
            case Stood(seat=seat):
                return f"{name(seat)} stood"
            case WidowExchanged(seat=seat, given=given, taken=taken):
                what = self._maybe(taken)
                return f"{name(seat)} gave {self._cards(given)} to the widow{f' for {what}' if what else ''}"
            case MiddleExchanged(seat=seat, place=place, given=given, taken=taken):
                what = card(taken) if taken is not None else "a face-down card"
                return f"{name(seat)} gave the {card(given)} for {what} of middle hand {place}"
            case HandSwapped(seat=seat, place=place, taken=taken):
                what = self._maybe(taken)
                return f"{name(seat)} swapped hands with middle hand {place}{f' ({what})' if what else ''}"
            case HandRenewed(seat=seat, place=place, face_up=up, cards=cards):
                shown = f": {self._maybe(cards)}" if up else " face down"
                return f"{name(seat)} renewed middle hand {place}{shown}"
            case TableSwapped(seat=seat, given=given, taken=taken):
                return f"{name(seat)} gave {self._cards(given)} to the table for {self._cards(taken)}"
            case DealEnded():
                return f"Deal {event.deal} over: {self.why(event)}"
            case GameEnded(winners=winners):
                return f"Game over: {' and '.join(name(s) for s in winners)} won"
        raise TypeError(f"not an event of Thirty-One: {event!r}")

    def move(self, command: cmd.Command) -> str:
        """A command in words, as its seat would say it before making it ("discard the K♥"), in the words its
        events are told in: a review's choice and the options it is weighed against."""
        card = self.card
        match command:
            case cmd.DrawStock():
                return "draw from the stock"
            case cmd.TakeDiscard():
                return "take the discard"
            case cmd.Discard(card=discarded):
                return f"discard the {card(discarded)}"
            case cmd.Knock():
                return "knock"
            case cmd.Stand():
                return "stand"
            case cmd.ExchangeWidow(give=give, take=take):
                places = " and ".join(str(p + 1) for p in take)
                return f"give {self._cards(give)} to the widow for its card{'s' if len(take) > 1 else ''} {places}"
            case cmd.KeepHand(hand=hand):
                return f"keep the {'first' if hand == 0 else 'second'} hand"
            case cmd.ExchangeMiddle(card=given, place=place, slot=slot):
                which = ("first", "second", "third")[slot] if slot < 3 else f"#{slot + 1}"
                return f"give the {card(given)} for the {which} card of middle hand {place}"
            case cmd.SwapHand(place=place):
                return f"swap hands with middle hand {place}"
            case cmd.Renew(place=place, face_up=up):
                return f"renew middle hand {place} face {'up' if up else 'down'}"
            case cmd.TableSwap(give=given, take=taken):
                return f"give {card(given)} to the table for {card(taken)}"
            case cmd.TableSwapAll():
                return "give all three to the table for its three"
        raise TypeError(f"not a command of Thirty-One: {command!r}")

    def why(self, end: DealEnded) -> str:
        """How the deal ended, and what it cost or paid, in words."""
        name = self.name
        if end.how == "dead":
            return "the stock ran out, a dead deal (nobody scores)"
        head = (f"{name(end.blitzer)} has a blitz" if end.blitzer is not None
                else f"{name(end.knocker)} knocked, the hands are shown" if end.knocker is not None else "")
        told: list[str] = []
        for s in range(len(end.lost)):
            if end.lost[s]:
                told.append(f"{name(s)} lost {end.lost[s]} {'life' if end.lost[s] == 1 else 'lives'}")
            if end.won[s] or end.paid[s]:
                told.append(f"{name(s)} {'won' if end.won[s] else 'paid'} "
                            f"{_plural(end.won[s] or end.paid[s], 'token')}")
            if end.scored[s]:
                told.append(f"{name(s)} scored {end.scored[s]}")
        told += [f"{name(s)} is out" for s in end.went_out]
        return "; ".join([head, *told]) if told else head

    def hands(self, end: DealEnded) -> list[str]:
        """The hands a showdown or blitz shows (T31-9.3), a line a seat, with its value (or brag hand)."""
        lines = []
        for s, cards in enumerate(end.hands):
            if cards:
                worth = brag_name(cards) if self.rules.brag else value_text(end.values[s])
                lines.append(f"  {self.name(s):<20} {self._cards(cards):<12} {worth}")
        return lines

    def telling(self, event: Event, move_mark: str = "") -> list[str]:
        """All a reader is told of ``event``: its line (a move's with ``move_mark`` before it), then for a
        deal's end the hands it shows."""
        told: list[str] = []
        line = self.line(event)
        if line is not None:
            headline = isinstance(event, HEADLINES) or (isinstance(event, CardsReceived) and event.reason == "deal")
            told.append(line if headline else move_mark + line)
        if isinstance(event, DealEnded):
            told += self.hands(event)
        return told

    def moment(self, view: SeatView) -> str:
        """What the seat had before it at a decision (its ``view``), in words: its hand and the pile's top card
        (what a take would bring): a review's entry."""
        hand = f"holding {self._cards(view.hand)}"
        return f"{hand}; on the pile: the {self.card(view.pile[-1])}" if view.pile else hand

    def _cards(self, cards: Sequence[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def _maybe(self, cards: Sequence[Card | None]) -> str:
        """Cards some of which lie face down."""
        return " ".join(self.card(c) if c is not None else "a face-down card" for c in cards)
