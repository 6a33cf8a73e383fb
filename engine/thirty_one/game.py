"""The authoritative game of Thirty-One: who decides now, what each seat may do, applying commands.

Shaped like Ten Pennies' game: ``Game(seats, rules, seed)`` deals; ``to_act()`` names the seat whose
decision it is; ``legal_commands(seat)`` lists all it may do; ``apply(command)`` applies a legal command
and returns its events, or raises ``RuleError`` citing the rule (T31-x.y) and changes nothing; ``view(seat)``
is what the seat may know (T31-9). A game is defined by its seat count, rules, seed and command log.

Order of a hand: cards keep their places; a card given away leaves its place; cards taken are added at
the end, those taken face up first (in the order the public event lists them), then those taken face down
(as ``CardsReceived`` lists them) — so that a seat's fold of the events keeps the same order.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any, assert_never

from ..cards import Card
from ..interface import Result
from . import events as ev
from .commands import (
    COMMAND_TYPES,
    Command,
    Discard,
    DrawStock,
    ExchangeMiddle,
    ExchangeWidow,
    KeepHand,
    Knock,
    Renew,
    Stand,
    SwapHand,
    TableSwap,
    TableSwapAll,
    TakeDiscard,
    format_command,
    parse_command,
)
from .hands import hand_value, is_blitz, showdown_key
from .rules import RuleError, Rules
from .view import MiddleHand, Phase, SeatView

DECK: tuple[Card, ...] = tuple(Card.from_id(i) for i in range(52))  # T31-1.2: one deck, no jokers
HAND = 3


class SeatState:
    __slots__ = ("hand", "lives", "riding", "out", "out_deal", "tokens", "points")

    def __init__(self, lives: int, tokens: int) -> None:
        self.hand: list[Card] = []
        self.lives = lives
        self.riding = False   # T31-7.2: no lives left, on the free ride
        self.out = False
        self.out_deal = 0     # the deal in which it went out (0: still in)
        self.tokens = tokens
        self.points = 0


class Place:
    """switch: a middle hand. ``up`` each card's face; ``knower`` the one seat that knows a face-down card
    (the seat whose hand it was, swapped in face down), else None."""

    __slots__ = ("cards", "up", "face_up", "knower")

    def __init__(self, cards: list[Card], face_up: bool, knower: int | None = None) -> None:
        self.cards = cards
        self.face_up = face_up
        self.up = [face_up] * len(cards)
        self.knower: list[int | None] = [None if face_up else knower] * len(cards)

    def clone(self) -> Place:
        place = Place.__new__(Place)
        place.cards, place.face_up, place.up, place.knower = self.cards.copy(), self.face_up, self.up.copy(), \
            self.knower.copy()
        return place

    def seen_by(self, seat: int | None, index: int) -> Card | None:
        if self.up[index] or (seat is not None and self.knower[index] == seat):
            return self.cards[index]
        return None


class Game:
    def __init__(self, seats: int, rules: Rules | None = None, seed: int = 0) -> None:
        rules = rules or Rules()
        rules.validate(seats)
        self.n = seats
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[Command] = []
        lives = rules.lives if rules.scoring == "lives" else 0
        tokens = rules.tokens if rules.scoring == "tokens" else 0
        self.players = [SeatState(lives, tokens) for _ in range(seats)]
        self.deal = 0
        self.dealer = 0               # T31-1.3: seat 0 deals first
        self.turn_seat = 0
        self.turn = 0
        self.phase = Phase.TURN
        self.stock: list[Card] = []   # top is the end
        self.pile: list[Card] = []    # top is the end
        self.widow: list[Card] = []
        self.widow_up = False
        self.middle: list[Place] = []
        self.spare: list[Card] = []
        self.table_cards: list[Card] = []
        self.out_of_play: list[Card] = []
        self.centre = 0
        self.knocker: int | None = None
        self.final_turns: list[int] = []
        self.taken: Card | None = None
        self.last_deal: ev.DealEnded | None = None
        self.winners: tuple[int, ...] = ()
        self._seen: tuple[ev.PlayerInfo, ...] | None = None  # what everyone sees of the seats, until it changes
        self.opening_events: list[ev.Event] = [ev.GameStarted(seats, rules)]
        self._start_deal(self.opening_events)

    # --- the interface's properties ----------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.n

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def result(self) -> Result | None:
        """Once over: ``scores`` each seat's finishing place (1 the best; tied seats share a place, the
        winners are 1), ``winners``, and the tallies ``lives``, ``tokens``, ``points`` (as the preset keeps
        them) and ``place``."""
        if not self.over:
            return None
        places = self.places()
        return Result(places, self.winners, {
            "place": places,
            "lives": tuple(p.lives for p in self.players),
            "tokens": tuple(p.tokens for p in self.players),
            "points": tuple(p.points for p in self.players),
        })

    def places(self) -> tuple[int, ...]:
        """Each seat's place as the game stands (1 the best, ties sharing): by lives (later out is better),
        tokens or points, as the preset scores (T31-7.3, T31-7.4, T31-8.1)."""
        def key(p: SeatState) -> tuple[int, ...]:
            lasted = 1_000_000 if not p.out else p.out_deal
            match self.rules.scoring:
                case "tokens":
                    return (p.tokens, lasted)
                case "points":
                    return (p.points,)
            return (lasted, p.lives + p.riding)
        keys = [key(p) for p in self.players]
        return tuple(1 + sum(other > mine for other in keys) for mine in keys)

    def in_game(self) -> list[int]:
        return [s for s in range(self.n) if not self.players[s].out]

    def _left_of(self, seat: int) -> int:
        """T31-1.1, T31-1.3: the next seat clockwise that is still in the game."""
        for step in range(1, self.n + 1):
            nxt = (seat + step) % self.n
            if not self.players[nxt].out:
                return nxt
        return seat

    def _from_left_of(self, seat: int) -> list[int]:
        """The seats in the game, starting left of ``seat`` and ending with it (if it is in)."""
        return [s for s in ((seat + k) % self.n for k in range(1, self.n + 1)) if not self.players[s].out]

    # --- who decides, and what they may do ---------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        if self.phase is Phase.GAME_OVER:
            return ()
        return (self.turn_seat,)

    def legal_commands(self, seat: int) -> list[Command]:
        phase = self.phase
        if phase is Phase.GAME_OVER or seat != self.turn_seat:
            return []
        if phase is Phase.KEEP:
            return [KeepHand(seat, 0), KeepHand(seat, 1)]
        hand = self.players[seat].hand
        if phase is Phase.DISCARD:
            barred = None if self.rules.discard_taken else self.taken
            discards = _DISCARDS[seat]
            return [discards[card.id] for card in hand if card is not barred]
        rules = self.rules
        commands: list[Command] = []
        if phase is Phase.TURN:
            if rules.draws:
                if self.stock:
                    commands.append(_DRAWS[seat])
                if self.pile:
                    commands.append(_TAKES[seat])
            if rules.preset == "banking":
                for k in (1, 2, 3):
                    for give in itertools.combinations(hand, k):
                        for take in itertools.combinations(range(len(self.widow)), k):
                            commands.append(ExchangeWidow(seat, give, take))
            elif rules.preset == "stop_the_bus":
                commands.extend(TableSwap(seat, give, take) for give in hand for take in self.table_cards)
                commands.append(TableSwapAll(seat))
        if rules.preset == "switch":
            for place, middle in enumerate(self.middle):
                commands.extend(ExchangeMiddle(seat, card, place, slot) for card in hand
                                for slot in range(len(middle.cards)))
            commands.extend(SwapHand(seat, place) for place in range(len(self.middle)))
            if phase is Phase.TURN and len(self.stock) >= HAND:
                for place in range(len(self.middle)):
                    commands += [Renew(seat, place, True), Renew(seat, place, False)]
        if self._may_knock():
            commands.append(_KNOCKS[seat])
        if phase is Phase.TURN and self.knocker is not None:
            commands.append(_STANDS[seat])
        return commands

    def _may_knock(self) -> bool:
        """T31-4.1, T31-4.3: nobody has knocked this deal, and (the knob) it is not the first round of turns."""
        return self.knocker is None and (self.rules.first_turn_knock or self.turn > len(self.in_game()))

    def is_legal(self, command: Command) -> bool:
        try:
            self._check(command)
        except RuleError:
            return False
        return True

    # --- the checks --------------------------------------------------------------------------

    def _check(self, command: Command) -> None:
        """Every check, no change; each refusal cites its rule."""
        if not isinstance(command, COMMAND_TYPES):
            raise TypeError(f"not a command of Thirty-One: {command!r}")
        seat = command.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise RuleError("T31-1.1", f"there is no seat {seat!r} at this table of {self.n}")
        if self.phase is Phase.GAME_OVER:
            raise RuleError("T31-7.3", "the game is over")
        if self.players[seat].out:
            raise RuleError("T31-1.3", f"seat {seat} is out of the game")
        if seat != self.turn_seat:
            if seat == self.knocker:
                raise RuleError("T31-6.1", "the knocker does not play again this deal")
            raise RuleError("T31-4.1", f"it is seat {self.turn_seat}'s turn, not seat {seat}'s")
        phase, rules = self.phase, self.rules
        if phase is Phase.KEEP:
            if not isinstance(command, KeepHand):
                raise RuleError("T31-2.4", "the dealer first keeps one of its two hands")
            if command.hand not in (0, 1):
                raise RuleError("T31-2.4", f"the dealer keeps hand 0 or 1, not {command.hand!r}")
            return
        hand = self.players[seat].hand
        if isinstance(command, Discard):
            if phase is not Phase.DISCARD:
                raise RuleError("T31-4.1", "a seat discards after it draws")
            if command.card not in hand:
                raise RuleError("T31-4.1", f"{command.card} is not in seat {seat}'s hand")
            if command.card is self.taken and not rules.discard_taken:
                raise RuleError("T31-4.2", f"the {command.card} was taken from the discard pile this turn: "
                                           "it may not be discarded now")
            return
        if phase is Phase.DISCARD:
            raise RuleError("T31-4.1", "the seat has drawn: it discards now")
        match command:
            case KeepHand():
                raise RuleError("T31-2.4", "only the switch dealer keeps a hand, at the deal")
            case DrawStock() | TakeDiscard():
                self._check_turn_only(phase)
                if rules.preset == "switch":
                    raise RuleError("T31-4.5", "in switch nobody draws: exchange, swap, renew or knock")
                if rules.preset == "stop_the_bus":
                    raise RuleError("T31-4.6", "in stop_the_bus nobody draws: swap with the table cards or knock")
                if isinstance(command, DrawStock) and not self.stock:
                    raise RuleError("T31-4.7", "the stock is empty")
                if isinstance(command, TakeDiscard) and not self.pile:
                    raise RuleError("T31-4.2", "the discard pile is empty")
            case Knock():
                if self.knocker is not None:
                    raise RuleError("T31-4.1", f"seat {self.knocker} has knocked already this deal")
                if not self._may_knock():
                    raise RuleError("T31-4.3", "no knocking in the deal's first round of turns at this table")
            case Stand():
                if self.knocker is None:
                    raise RuleError("T31-6.1", "a seat stands only after a knock")
                self._check_turn_only(phase)
            case ExchangeWidow(give=give, take=take):
                if rules.preset != "banking":
                    raise RuleError("T31-4.4", "only banking has a widow")
                self._check_turn_only(phase)
                if not 1 <= len(give) <= 3 or len(give) != len(take):
                    raise RuleError("T31-4.4", "exchange one, two or three cards for as many widow cards")
                if len(set(give)) != len(give) or any(c not in hand for c in give):
                    raise RuleError("T31-4.4", "give cards of your own hand, each once")
                if len(set(take)) != len(take) or any(not isinstance(p, int) or isinstance(p, bool)
                                                      or not 0 <= p < len(self.widow) for p in take):
                    raise RuleError("T31-4.4", f"the widow's positions are 0 to {len(self.widow) - 1}, each once")
            case ExchangeMiddle(card=card, place=place, slot=slot):
                self._check_place(place)
                if card not in hand:
                    raise RuleError("T31-4.5", f"{card} is not in seat {seat}'s hand")
                if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < len(self.middle[place].cards):
                    raise RuleError("T31-4.5", f"middle hand {place} has no card {slot!r}")
            case SwapHand(place=place):
                self._check_place(place)
            case Renew(place=place, face_up=face_up):
                self._check_place(place)
                if phase is Phase.AGAIN:
                    raise RuleError("T31-4.5", "a renewal cannot follow a renewal")
                if len(self.stock) < HAND:
                    raise RuleError("T31-4.5", "the stock cannot renew a hand")
                if not isinstance(face_up, bool):
                    raise RuleError("T31-4.5", "renew face up or face down")
            case TableSwap(give=give, take=take):
                self._check_table(phase)
                if give not in hand:
                    raise RuleError("T31-4.6", f"{give} is not in seat {seat}'s hand")
                if take not in self.table_cards:
                    raise RuleError("T31-4.6", f"{take} is not a table card")
            case TableSwapAll():
                self._check_table(phase)
            case Discard():
                pass
            case _:
                assert_never(command)

    def _check_turn_only(self, phase: Phase) -> None:
        if phase is Phase.AGAIN:
            raise RuleError("T31-4.5", "after renewing face down: exchange, swap or knock")

    def _check_place(self, place: object) -> None:
        if self.rules.preset != "switch":
            raise RuleError("T31-4.5", "only switch has middle hands")
        if isinstance(place, bool) or not isinstance(place, int) or not 0 <= place < len(self.middle):
            raise RuleError("T31-4.5", f"there is no middle hand {place!r}")

    def _check_table(self, phase: Phase) -> None:
        if self.rules.preset != "stop_the_bus":
            raise RuleError("T31-4.6", "only stop_the_bus has table cards")
        self._check_turn_only(phase)

    # --- applying ----------------------------------------------------------------------------

    def apply(self, command: Command, *, trusted: bool = False) -> list[ev.Event]:
        """Apply a legal command and return its events; raise RuleError (state untouched) if illegal.
        ``trusted`` skips the checks: only for a command this engine accepted in exactly this state."""
        if not trusted:
            self._check(command)
        events: list[ev.Event] = []
        seat = command.seat
        hand = self.players[seat].hand
        match command:
            case DrawStock():
                self._seen = None  # a hand's size changes
                card = self.stock.pop()
                hand.append(card)
                self.phase = Phase.DISCARD
                events += [ev.StockDrawn(seat), ev.CardsReceived(seat, (card,), "draw")]
            case TakeDiscard():
                self._seen = None
                card = self.pile.pop()
                hand.append(card)
                self.taken = card
                self.phase = Phase.DISCARD
                events.append(ev.DiscardTaken(seat, card))
            case Discard(card=card):
                self._seen = None
                hand.remove(card)
                self.pile.append(card)
                self.taken = None
                events.append(ev.Discarded(seat, card))
                self._end_turn(seat, events)
            case Knock():
                self.knocker = seat
                self.final_turns = [s for s in self._from_left_of(seat) if s != seat]
                events.append(ev.Knocked(seat))
                self._next_turn(seat, events)
            case Stand():
                events.append(ev.Stood(seat))
                self._next_turn(seat, events)
            case ExchangeWidow(give=give, take=take):
                shown = self.widow_up
                got = [self.widow[p] for p in take]
                for card, position in zip(give, take, strict=True):
                    hand.remove(card)
                    self.widow[position] = card
                hand.extend(got)
                self.widow_up = True
                events.append(ev.WidowExchanged(seat, give, take, tuple(got) if shown else (None,) * len(got),
                                                tuple(self.widow)))
                if not shown:
                    events.append(ev.CardsReceived(seat, tuple(got), "widow"))
                self._end_turn(seat, events)
            case ExchangeMiddle(card=card, place=place, slot=slot):
                middle = self.middle[place]
                out_of_middle, shown = middle.cards[slot], middle.up[slot]
                hand.remove(card)
                hand.append(out_of_middle)
                middle.cards[slot], middle.up[slot], middle.knower[slot] = card, True, None
                events.append(ev.MiddleExchanged(seat, place, slot, card, out_of_middle if shown else None))
                if not shown:
                    events.append(ev.CardsReceived(seat, (out_of_middle,), "middle"))
                self._end_turn(seat, events)
            case SwapHand(place=place):
                middle = self.middle[place]
                old = tuple(hand)
                faces = list(zip(middle.cards, middle.up, strict=True))
                hidden = [c for c, face in faces if not face]
                taken = tuple(c if face else None for c, face in faces)
                hand[:] = [c for c, face in faces if face] + hidden
                given = Place(list(old), middle.face_up)  # card by card as the hand taken lay (T31-4.5 b)
                given.up = middle.up.copy()
                given.knower = [None if face else seat for face in middle.up]
                self.middle[place] = given
                lying = tuple(c if face else None for c, face in zip(old, middle.up, strict=True))
                events.append(ev.HandSwapped(seat, place, taken, lying))
                if hidden:
                    events.append(ev.CardsReceived(seat, tuple(hidden), "middle"))
                self._end_turn(seat, events)
            case Renew(place=place, face_up=face_up):
                self.out_of_play += self.middle[place].cards
                fresh = [self.stock.pop() for _ in range(HAND)]
                self.middle[place] = Place(fresh, face_up)
                events.append(ev.HandRenewed(seat, place, face_up, tuple(fresh) if face_up else (None,) * HAND))
                if face_up:
                    self._end_turn(seat, events)
                else:
                    self.phase = Phase.AGAIN
            case TableSwap(give=give, take=take):
                hand.remove(give)
                hand.append(take)
                self.table_cards[self.table_cards.index(take)] = give
                events.append(ev.TableSwapped(seat, (give,), (take,)))
                self._end_turn(seat, events)
            case TableSwapAll():
                old, table = tuple(hand), tuple(self.table_cards)
                hand[:] = table
                self.table_cards = list(old)
                events.append(ev.TableSwapped(seat, old, table))
                self._end_turn(seat, events)
            case KeepHand(hand=kept):
                self._keep(seat, kept, events)
            case _:
                assert_never(command)
        self.log.append(command)
        return events

    def _keep(self, seat: int, kept: int, events: list[ev.Event]) -> None:
        """T31-2.4: the dealer keeps one hand; the other goes face up to the middle."""
        player = self.players[seat]
        if kept == 1:
            player.hand, self.spare = self.spare, player.hand
        other, self.spare = self.spare, []
        self.middle.append(Place(other, True))
        events.append(ev.HandKept(seat, kept, len(self.middle) - 1, tuple(other)))
        self._after_deal(events)

    def _end_turn(self, seat: int, events: list[ev.Event]) -> None:
        """T31-5.1, T31-5.2: the acting seat's blitz, else the next turn."""
        if (self.knocker is None or self.rules.blitz_after_knock) and is_blitz(self.players[seat].hand, self.rules):
            self._end_deal("blitz", seat, events)
            return
        self._next_turn(seat, events)

    def _next_turn(self, seat: int, events: list[ev.Event]) -> None:
        """T31-6.1: after a knock each other seat has one last turn; then the showdown."""
        if self.knocker is not None:
            if not self.final_turns:
                self._end_deal("knock", None, events)
                return
            self._start_turn(self.final_turns.pop(0), events)
            return
        self._start_turn(self._left_of(seat), events)

    def _start_turn(self, seat: int, events: list[ev.Event]) -> None:
        if self.knocker is None and self.rules.draws and not self.stock:
            self._end_deal("dead", None, events)  # T31-4.7
            return
        self.turn_seat = seat
        self.turn += 1
        self.phase = Phase.TURN
        self.taken = None
        events.append(ev.TurnStarted(seat, self.turn, self.knocker is not None))

    # --- deals -------------------------------------------------------------------------------

    def _start_deal(self, events: list[ev.Event]) -> None:
        """T31-2: ante (banking), shuffle, deal three to each seat in the game from left of the dealer."""
        rules = self.rules
        self._seen = None
        self.deal += 1
        if rules.scoring == "tokens":  # T31-7.4: a seat that cannot ante went out at the last deal's end
            for seat in self.in_game():
                self.players[seat].tokens -= 1
                self.centre += 1
        cards = list(DECK)
        self.rng.shuffle(cards)
        self.pile, self.widow, self.widow_up, self.middle, self.spare = [], [], False, [], []
        self.table_cards, self.out_of_play = [], []
        self.knocker, self.final_turns, self.taken = None, [], None
        self.turn = 0
        order = self._from_left_of(self.dealer)
        for player in self.players:
            player.hand = []
        down: list[Card] = []
        for _ in range(HAND):  # one card at a time (T31-2.1)
            for seat in order:
                self.players[seat].hand.append(cards.pop())
            if rules.preset == "banking":
                self.widow.append(cards.pop())  # T31-2.3
            elif rules.preset == "switch":
                self.spare.append(cards.pop())  # T31-2.4: the dealer's second hand, then the middle's
                down.append(cards.pop())
        if rules.preset == "stop_the_bus":
            self.table_cards = [cards.pop() for _ in range(HAND)]  # T31-2.5
        elif rules.preset != "switch":
            self.pile = [cards.pop()]  # T31-2.2
        self.stock = cards
        events.append(ev.DealStarted(self.deal, self.dealer, self._infos(), self.centre, len(self.stock)))
        for seat in order:
            events.append(ev.CardsReceived(seat, tuple(self.players[seat].hand), "deal"))
        if self.widow:
            events.append(ev.WidowDealt(len(self.widow)))
        if rules.preset == "switch":
            events.append(ev.CardsReceived(self.dealer, tuple(self.spare), "spare"))
            self.middle = [Place(down, False)]
            events.append(ev.MiddleDealt(0, HAND))
            self.turn_seat = self.dealer
            self.phase = Phase.KEEP
            return
        if self.table_cards:
            events.append(ev.TableCardsTurned(tuple(self.table_cards)))
        if self.pile:
            events.append(ev.UpcardTurned(self.pile[0]))
        self._after_deal(events)

    def _after_deal(self, events: list[ev.Event]) -> None:
        """T31-5.1: a blitz dealt ends the deal at once (the first in seat order from left of the dealer);
        else T31-2.6: the seat left of the dealer plays first."""
        for seat in self._from_left_of(self.dealer):
            if is_blitz(self.players[seat].hand, self.rules):
                self._end_deal("blitz", seat, events)
                return
        self._start_turn(self._left_of(self.dealer), events)

    def _end_deal(self, how: str, blitzer: int | None, events: list[ev.Event]) -> None:
        """T31-5.3, T31-6, T31-7, T31-8: show the hands, settle, then the next deal or the game's end."""
        n, rules, players = self.n, self.rules, self.players
        self._seen = None
        playing = self.in_game()
        lost, scored, paid, won = [0] * n, [0] * n, [0] * n, [0] * n
        hands: list[tuple[Card, ...]] = [()] * n
        values, places = [0.0] * n, [0] * n
        if how != "dead":
            keys = {s: showdown_key(players[s].hand, rules) for s in playing}
            for s in playing:
                hands[s] = tuple(players[s].hand)
                values[s] = 0.0 if rules.brag else keys[s][0]
                places[s] = 1 + sum(keys[o] > keys[s] for o in playing)
            ranked = [s for s in playing if s != blitzer]
            match rules.scoring:
                case "lives":
                    if blitzer is not None:
                        for s in ranked:
                            lost[s] = 1  # T31-5.3
                    else:
                        low = min(keys[s] for s in playing)
                        lowest = [s for s in playing if keys[s] == low]
                        knocker = self.knocker
                        if knocker in lowest:  # T31-6.3
                            lost[knocker] = 2 if len(lowest) == 1 or rules.knocker_tie == "two" else 1
                        else:
                            for s in lowest:
                                lost[s] = 1  # T31-6.2
                case "tokens":
                    if blitzer is not None:  # T31-5.3: every other seat pays one more; the blitzer takes all
                        for s in ranked:
                            paid[s] = min(1, players[s].tokens)
                            players[s].tokens -= paid[s]
                            self.centre += paid[s]
                        won[blitzer], self.centre = self.centre, 0
                    else:  # T31-6.4: the highest share the centre; the odd tokens stay
                        high = max(keys[s] for s in playing)
                        best = [s for s in playing if keys[s] == high]
                        share = self.centre // len(best)
                        for s in best:
                            won[s] = share
                        self.centre -= share * len(best)
                    for s in playing:
                        players[s].tokens += won[s]
                case "points":
                    if blitzer is not None:
                        scored[blitzer] = 6  # T31-8.3
                    for s, points in self._showdown_points(ranked, keys).items():
                        scored[s] = points
                    for s in playing:
                        players[s].points += scored[s]
        went_out: list[int] = []
        for s in playing:
            player = players[s]
            for _ in range(lost[s]):  # T31-7.2: lives go one at a time
                if player.lives > 0:
                    player.lives -= 1
                    if player.lives == 0 and rules.free_ride:
                        player.riding = True
                        continue
                    if player.lives > 0:
                        continue
                player.riding = False
                player.out = True
                break
            if rules.scoring == "tokens" and player.tokens == 0:
                player.out = True  # T31-7.4: it cannot ante the next deal
            if player.out:
                player.out_deal = self.deal
                went_out.append(s)
        end = ev.DealEnded(self.deal, how, self.knocker, blitzer, tuple(hands), tuple(values), tuple(places),
                           tuple(lost), tuple(scored), tuple(paid), tuple(won), tuple(went_out), self._infos(),
                           self.centre)
        self.last_deal = end
        events.append(end)
        left = self.in_game()
        if len(left) <= 1 or (rules.scoring != "lives" and self.deal >= rules.deals_for(n)):
            self._end_game(events)
            return
        self.dealer = self._left_of(self.dealer)  # T31-1.3
        self._start_deal(events)

    def _showdown_points(self, ranked: Sequence[int], keys: dict[int, tuple[float, ...]]) -> dict[int, int]:
        """T31-8.2: lowest 1 (the knocker 0), middle 2 (1), highest 3 (4); a tie takes the highest place it
        shares: first place is highest, a place that only the last could be is lowest, the rest middle."""
        points: dict[int, int] = {}
        for s in ranked:
            place = sum(keys[o] > keys[s] for o in ranked)
            rank = "high" if place == 0 else "low" if place == len(ranked) - 1 else "middle"
            knocker = s == self.knocker
            points[s] = {"low": (1, 0), "middle": (2, 1), "high": (3, 4)}[rank][knocker]
        return points

    def _end_game(self, events: list[ev.Event]) -> None:
        """T31-7.3, T31-7.4, T31-8.1: the best place wins; tied winners share."""
        places = self.places()
        self.winners = tuple(s for s in range(self.n) if places[s] == 1)
        self.phase = Phase.GAME_OVER
        events.append(ev.GameEnded(self.winners, self._infos(), places))

    def _infos(self) -> tuple[ev.PlayerInfo, ...]:
        """What everyone sees of each seat (T31-9.1), kept until a command or a deal changes it."""
        seen = self._seen
        if seen is None:
            seen = self._seen = tuple(ev.PlayerInfo(s, len(p.hand), p.lives, p.riding, p.out, p.tokens, p.points)
                                      for s, p in enumerate(self.players))
        return seen

    # --- what a seat may know ----------------------------------------------------------------

    @property
    def round_number(self) -> int:
        """The deal being played (the interface's round)."""
        return self.deal

    def view(self, seat: int | None) -> SeatView:
        """T31-9: what ``seat`` may know (None: a spectator). Never another seat's cards nor the stock."""
        if seat is not None and (isinstance(seat, bool) or not 0 <= seat < self.n):
            raise RuleError("T31-1.1", f"there is no seat {seat} at this table")
        hand = tuple(self.players[seat].hand) if seat is not None else ()
        return SeatView(
            seat=seat, seats=self.n, rules=self.rules, deal=self.deal, dealer=self.dealer,
            turn_seat=self.turn_seat, turn=self.turn, phase=self.phase, to_act=self.to_act(), hand=hand,
            spare=tuple(self.spare) if seat == self.dealer and self.phase is Phase.KEEP else (),
            players=self._infos(), pile=tuple(self.pile), stock_size=len(self.stock), knocker=self.knocker,
            final_turns=tuple(self.final_turns), taken=self.taken,
            widow=tuple(self.widow) if self.widow_up else (None,) * len(self.widow),
            middle=tuple(MiddleHand(i, m.face_up, tuple(m.up), tuple(m.seen_by(seat, k) for k in range(len(m.cards))))
                         for i, m in enumerate(self.middle)) if self.middle else (),
            table_cards=tuple(self.table_cards), centre=self.centre,
            value=0.0 if seat is None or self.rules.brag else hand_value(hand, self.rules),
            last_deal=self.last_deal, winners=self.winners,
            legal=tuple(self.legal_commands(seat)) if seat is not None else ())

    @classmethod
    def sampled(cls, view: SeatView, rng: random.Random, tries: int = 1) -> Game:
        """A game that ``view``'s seat cannot tell from the real one: what the view shows, and every card it
        does not show (other hands, face-down widow and middle cards, the stock, cards out of play) dealt
        at random. For a searching bot's rollouts (a determinization); its log and seed are not the game's.
        ``tries``: each other hand of three is the best (by value) of that many dealt from the unseen cards,
        as hands that have played some turns are better than hands dealt at random."""
        seat = view.seat
        game = cls.__new__(cls)
        game.n, game.rules, game.seed, game.log = view.seats, view.rules, 0, []
        game.rng = random.Random(rng.getrandbits(64))
        seen = {c.id for c in view.hand} | {c.id for c in view.spare} | {c.id for c in view.pile} \
            | {c.id for c in view.table_cards} | {c.id for c in view.widow if c is not None} \
            | {c.id for m in view.middle for c in m.cards if c is not None}
        unseen = [c for c in DECK if c.id not in seen]
        rng.shuffle(unseen)
        game.players = []
        for info in view.players:
            player = SeatState(info.lives, info.tokens)
            player.riding, player.out, player.points = info.riding, info.out, info.points
            player.out_deal = 0 if not info.out else max(view.deal - 1, 0)
            if info.seat == seat:
                player.hand = list(view.hand)
            elif tries > 1 and info.hand_size == HAND and not info.out:
                dealt = [unseen[-HAND * (k + 1):len(unseen) - HAND * k] for k in range(min(tries, len(unseen) // HAND))]
                best = max(range(len(dealt)), key=lambda k: hand_value(dealt[k], view.rules))
                player.hand = dealt[best]
                del unseen[len(unseen) - HAND * (best + 1):len(unseen) - HAND * best]
            else:
                player.hand = [unseen.pop() for _ in range(info.hand_size)]
            game.players.append(player)
        game.deal, game.dealer, game.turn_seat, game.turn = view.deal, view.dealer, view.turn_seat, view.turn
        game.phase = view.phase
        game.pile, game.table_cards, game.spare = list(view.pile), list(view.table_cards), list(view.spare)
        game.widow = [c if c is not None else unseen.pop() for c in view.widow]
        game.widow_up = bool(view.widow) and all(c is not None for c in view.widow)
        game.middle = []
        for m in view.middle:
            place = Place([c if c is not None else unseen.pop() for c in m.cards], m.face_up)
            place.up = list(m.up)
            place.knower = [seat if c is not None and not up else None for c, up in zip(m.cards, m.up, strict=True)]
            game.middle.append(place)
        if view.phase is Phase.KEEP and seat != view.dealer:
            game.spare = [unseen.pop() for _ in range(HAND)]
        game.stock = [unseen.pop() for _ in range(view.stock_size)]
        game.out_of_play = unseen
        game.centre, game.knocker, game.final_turns = view.centre, view.knocker, list(view.final_turns)
        game.taken, game.last_deal, game.winners = view.taken, view.last_deal, view.winners
        game._seen = None
        game.opening_events = []
        return game

    # --- copies, storage and replay ----------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy (no shared mutable state); cards, commands, events and rules are shared."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        rng = random.Random.__new__(random.Random)
        rng.setstate(self.rng.getstate())
        game.rng = rng
        game.log = self.log.copy()
        players = []
        for p in self.players:
            q = SeatState.__new__(SeatState)
            q.hand = p.hand.copy()
            q.lives, q.riding, q.out, q.out_deal, q.tokens, q.points = \
                p.lives, p.riding, p.out, p.out_deal, p.tokens, p.points
            players.append(q)
        game.players = players
        game.stock, game.pile, game.widow = self.stock.copy(), self.pile.copy(), self.widow.copy()
        game.middle = [m.clone() for m in self.middle]
        game.spare, game.table_cards = self.spare.copy(), self.table_cards.copy()
        game.out_of_play, game.final_turns = self.out_of_play.copy(), self.final_turns.copy()
        game.opening_events = self.opening_events.copy()
        return game

    def state(self) -> dict[str, Any]:
        """Every card's place and every count, as plain data (the stock's order included: server-side only)."""
        return {
            "players": [{"hand": [c.id for c in p.hand], "lives": p.lives, "riding": p.riding, "out": p.out,
                         "out_deal": p.out_deal, "tokens": p.tokens, "points": p.points} for p in self.players],
            "deal": self.deal, "dealer": self.dealer, "turn_seat": self.turn_seat, "turn": self.turn,
            "phase": self.phase.value, "stock": [c.id for c in self.stock], "pile": [c.id for c in self.pile],
            "widow": [c.id for c in self.widow], "widow_up": self.widow_up,
            "middle": [{"cards": [c.id for c in m.cards], "up": m.up, "face_up": m.face_up, "knower": m.knower}
                       for m in self.middle],
            "spare": [c.id for c in self.spare], "table_cards": [c.id for c in self.table_cards],
            "out_of_play": [c.id for c in self.out_of_play], "centre": self.centre, "knocker": self.knocker,
            "final_turns": self.final_turns, "taken": self.taken.id if self.taken else None,
            "winners": list(self.winners),
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-able data: seats, rules, seed and log define it (``from_dict`` replays
        them), and ``state`` is kept beside them, which the replay must reproduce."""
        return {"seats": self.n, "rules": self.rules.to_dict(), "seed": self.seed,
                "log": [format_command(c) for c in self.log], "state": self.state()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game ``to_dict`` wrote, replayed from its seed and log (trusted); ValueError if the replay does
        not give the stored state (a log or an engine that changed)."""
        game = cls.replay(data["seats"], Rules.from_dict(data["rules"]), data["seed"],
                          (parse_command(line) for line in data["log"]), trusted=True)
        if "state" in data and game.state() != data["state"]:
            raise ValueError("the stored game's log does not replay to its stored state")
        game.opening_events = []
        return game

    @classmethod
    def replay(cls, seats: int, rules: Rules | None, seed: int, log: Iterable[Command], *,
               trusted: bool = False) -> Game:
        game = cls(seats, rules, seed)
        for command in log:
            game.apply(command, trusted=trusted)
        return game


class _Interned(dict[int, Discard]):
    """Discards are plain values: each (seat, card) is built once, as the listing's hot path asks."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, card_id: int) -> Discard:
        command = self[card_id] = Discard(self.seat, Card.from_id(card_id))
        return command


_SEATS = range(7)
_DISCARDS = [_Interned(seat) for seat in _SEATS]
_DRAWS, _TAKES = [DrawStock(s) for s in _SEATS], [TakeDiscard(s) for s in _SEATS]
_KNOCKS, _STANDS = [Knock(s) for s in _SEATS], [Stand(s) for s in _SEATS]
