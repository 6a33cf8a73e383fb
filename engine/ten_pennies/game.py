"""The authoritative game state: who decides now, what each seat may do, and applying commands.

Shape (after OpenSpiel): ``Game(seats, rules, seed)`` deals; ``to_act()`` names the seats whose decision
it is; ``legal_commands(seat)`` lists what a seat may do; ``apply(command)`` either applies a legal
command and returns its events, or raises ``RuleError`` naming the rule and leaves the game untouched;
``view(seat)`` is what one seat may know. A game is fully defined by its seat count, house rules, seed
and command log (``Game.replay``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from ..cards import MAX_DECKS, Card, decks_for, shoe
from ..interface import Result
from . import events as ev
from .commands import (
    COMMAND_TYPES,
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    TakeDiscard,
)
from .melds import (
    TableSet,
    cards_laid_off,
    check_contract_set,
    check_layoff,
    check_set,
    contract_candidates,
    set_candidates,
)
from .results import balances
from .rules import HouseRules, RoundSpec, RuleError

_RandomState = tuple[Any, ...]  # what random.Random.getstate() returns


class Phase(StrEnum):
    PICK_UP = "pick_up"      # the player takes or declines the live discard (TP-4.2)
    BUY = "buy"              # the declined card is offered to the other seats (TP-4.3)
    DRAW = "draw"            # the player draws from the stock (TP-4.6)
    MELD = "meld"            # the player melds, lays off, then discards (TP-4.8 to TP-4.15)
    GAME_OVER = "game_over"  # TP-5.4


class SeatState:
    __slots__ = ("hand", "down", "pennies", "score", "paid", "won")

    def __init__(self, pennies: int) -> None:
        self.hand: list[Card] = []
        self.down = False
        self.pennies = pennies  # the buy stack (TP-5.3)
        self.score = 0
        self.paid = 0           # pennies paid into the pot for cards left in hand (TP-5.2)
        self.won = 0            # pennies taken from the pot at the end (TP-5.4)


_new_tuple = tuple.__new__  # a NamedTuple made without the Python frame of its __new__


class PlayerInfo(NamedTuple):
    """What every seat may know about a seat."""
    seat: int
    hand_size: int
    pennies: int
    score: int
    down: bool
    paid: int
    won: int


@dataclass(slots=True)
class SeatView:
    """Everything one seat may know (``seat`` None: a spectator, with no hand and no commands)."""
    seat: int | None
    seats: int
    rules: HouseRules
    round: int
    dealer: int
    turn_seat: int
    turn: int
    phase: Phase
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    players: tuple[PlayerInfo, ...]
    table: tuple[ev.Meld, ...]
    discard_top: Card | None
    discard_live: bool
    pile_size: int
    stock_size: int
    pot: int
    reshuffles_left: int
    buy_offer: tuple[int, ...]  # seats the declined card is offered to, nearest first
    legal: tuple[Command, ...]
    spec: RoundSpec


class Game:
    def __init__(self, seats: int, rules: HouseRules | None = None, seed: int = 0) -> None:
        rules = rules or HouseRules()
        rules.validate(seats)
        self.n = seats
        self.rules = rules
        self.seed = seed
        self._rng: random.Random | None = random.Random(seed)
        self._rng_state: _RandomState | None = None
        self.log: list[Command] = []
        self.players = [SeatState(rules.buy_pennies) for _ in range(seats)]
        self.pot = 0
        self.round_index = 0
        self.spec: RoundSpec = rules.round(rules.rounds[0])
        self.dealer = 0
        self.turn_seat = 0
        self.turn = 0
        self.phase = Phase.PICK_UP
        self.stock: list[Card] = []    # top is the end
        self.pile: list[Card] = []     # top is the end
        self.pile_live = False
        self.buy_order: list[int] = []
        self.buy_answers: dict[int, bool] = {}
        self.reshuffles_used = 0
        self._table: list[TableSet] = []
        self._table_shared = False  # the sets (and their list) are also a copy's, or its original's
        self._meld_cache: tuple[ev.Meld, ...] | None = None
        self.winners: tuple[int, ...] = ()
        self.opening_events: list[ev.Event] = [ev.GameStarted(seats, rules)]
        self.dealer = self._choose_dealer(self.opening_events)
        self._start_round(self.opening_events)

    # --- the sets on the table -------------------------------------------------------------------

    @property
    def table(self) -> list[TableSet]:
        """The sets on the table, numbered from 0, this game's own to change (see ``_own_table``)."""
        return self._own_table()

    @table.setter
    def table(self, sets: list[TableSet]) -> None:
        self._table, self._table_shared = sets, False

    def _own_table(self) -> list[TableSet]:
        """The table, made this game's own first if a copy shares it: a copy takes its original's sets as
        they are, and whichever of the two first changes the table (or hands it out) copies them then.
        The engine reads ``_table`` as it is."""
        if self._table_shared:
            table = []
            for t in self._table:
                u = TableSet.__new__(TableSet)
                u.id, u.owner, u.rank, u.wilds, u._wild_ranks = t.id, t.owner, t.rank, t.wilds, t._wild_ranks
                u.cards = t.cards.copy()
                u.suits = t.suits.copy()
                table.append(u)
            self._table, self._table_shared = table, False
        return self._table

    # --- the random generator: the deal and the reshuffles --------------------------------------

    @property
    def rng(self) -> random.Random:
        """The game's random generator. A copy takes a snapshot of its state (``copy``) and makes its own
        generator from it only when it first shuffles: most copies searched on never do."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random.__new__(random.Random)  # no seeding from the OS: setstate fills it
            assert self._rng_state is not None
            rng.setstate(self._rng_state)
        self._rng_state = None  # the caller may draw from it: the snapshot no longer holds
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self._rng_state = rng, None

    def _rng_snapshot(self) -> _RandomState:
        """The generator's state, kept until the game next draws from it (copies share the one tuple)."""
        state = self._rng_state
        if state is None:
            assert self._rng is not None
            state = self._rng_state = self._rng.getstate()
        return state

    # --- who decides, and what they may do ---------------------------------------------------

    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision the game waits for. While a buy offer is open that is every offered
        seat that has not answered yet, whatever the others answered, so that nobody can tell an answer
        from it before the offer settles (TP-4.7)."""
        phase = self.phase
        if phase is Phase.BUY:
            answers = self.buy_answers
            return tuple(seat for seat in self.buy_order if seat not in answers)
        if phase is Phase.GAME_OVER:
            return ()
        return (self.turn_seat,)

    def first_to_act(self) -> int:
        """``to_act()[0]`` without building the tuple (a rollout asks at every step): the nearest offered seat
        yet to answer a buy offer, else the seat whose turn it is. Only while the game goes on."""
        if self.phase is Phase.BUY:
            answers = self.buy_answers
            return next(seat for seat in self.buy_order if seat not in answers)
        return self.turn_seat

    @property
    def over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def seats(self) -> int:
        return self.n

    @property
    def result(self) -> Result | None:
        """TP-5.4, once the game is over: the scores, the winners, and by seat its pennies won or lost (its
        share of the pot, less the pennies it paid for cards left in hand and those it bought with) and
        its buys."""
        if not self.over:
            return None
        buys, pennies = balances(self.players, self.rules)
        return Result(tuple(p.score for p in self.players), self.winners, {"pennies": pennies, "buys": buys})

    @property
    def round_number(self) -> int:
        return self.spec.number

    def legal_commands(self, seat: int) -> list[Command]:
        """Every legal command for ``seat``; meld commands are the bounded canonical candidates
        (see ``melds``), every other kind is listed in full."""
        phase = self.phase
        if phase is Phase.BUY:
            if seat in self.buy_order and seat not in self.buy_answers:
                return [_BUY[seat], _PASS[seat]]
            return []
        if seat != self.turn_seat:
            return []
        if phase is Phase.MELD:
            return self._meld_phase_commands(seat)
        if phase is Phase.PICK_UP:
            return [_TAKE[seat], _DECLINE[seat]]
        if phase is Phase.DRAW:
            return [_DRAW[seat]]
        return []  # the game is over

    def _meld_phase_commands(self, seat: int) -> list[Command]:
        player = self.players[seat]
        hand = player.hand
        spec, rules = self.spec, self.rules
        commands: list[Command] = []
        if not player.down:
            for sets in contract_candidates(hand, spec, rules):
                if self._leaves_a_discard(player, sum(len(s) for s in sets)):
                    commands.append(LayContract(seat, sets))
        else:
            for cards in set_candidates(hand, spec, rules, 3):
                if self._leaves_a_discard(player, len(cards)):
                    commands.append(LaySet(seat, cards))
            if self._leaves_a_discard(player, 1):
                for target in self._table:
                    set_id = target.id
                    commands += [LayOff(seat, card, set_id) for card in cards_laid_off(hand, target, spec, rules)]
        commands += map(_DISCARD_OF[seat], hand)
        return commands

    def is_legal(self, command: Command) -> bool:
        try:
            self._check(command)
        except RuleError:
            return False
        return True

    # --- applying ----------------------------------------------------------------------------

    def apply(self, command: Command, *, trusted: bool = False) -> list[ev.Event]:
        """Apply a legal command and return its events; raise RuleError (state untouched) if illegal.

        ``trusted`` skips the checks: only for a command this engine already accepted in exactly this
        state, as when replaying a stored log. An illegal command applied trusted corrupts the game."""
        if not trusted:
            self._check(command)
        events: list[ev.Event] = []
        _APPLIERS[type(command)](self, command, events)
        self.log.append(command)
        return events

    def _check(self, command: Command) -> None:
        """Every check, no change. The appliers below may then assume the command is legal.
        Each refusal cites the most specific rule; a command out of turn cites the rule of its step."""
        if type(command) is Discard:  # the commonest command: when legal, said at once
            seat, card = command.seat, command.card
            if type(seat) is int and seat == self.turn_seat and self.phase is Phase.MELD and type(card) is Card \
                    and card in self.players[seat].hand:
                return
        check = _CHECKS.get(type(command))
        if check is None:
            raise TypeError(f"not a command: {command!r}")
        seat = command.seat
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)) or not 0 <= seat < self.n:
            raise RuleError("TP-1.1", f"there is no seat {seat!r} at this table of {self.n}")
        phase = self.phase
        if phase is Phase.GAME_OVER:
            raise RuleError("TP-5.4", "the game is over")
        check(self, command, seat, phase)

    # Each command's own checks (``_check`` has judged the seat and that the game goes on).

    def _check_answer(self, command: Buy | PassBuy, seat: int, phase: Phase) -> None:
        if phase is not Phase.BUY:
            raise RuleError("TP-4.3", "no card is being offered to buy now")
        if seat not in self.buy_order:
            if seat == self.turn_seat:
                raise RuleError("TP-4.3", "the player who declined the card cannot buy it")
            raise RuleError("TP-4.3", f"seat {seat} has no buy penny left, so it is not offered the card")
        if seat in self.buy_answers:
            raise RuleError("TP-4.3", f"seat {seat} has already answered this offer")

    def _check_pick_up(self, command: TakeDiscard | DeclineDiscard, seat: int, phase: Phase) -> None:
        if phase is Phase.PICK_UP and seat == self.turn_seat:  # legal: said at once
            return
        self._check_turn(seat, "TP-4.2", "take or decline the live discard")
        if phase is Phase.BUY:
            raise RuleError("TP-4.3", "the player declined the card: it is offered to the other seats")
        if phase is Phase.DRAW:
            raise RuleError("TP-4.5", "the declined card is no longer live: draw from the stock")
        if phase is Phase.MELD:
            raise RuleError("TP-4.1", "the pick-up is over: the discard is taken only at its start")

    def _check_draw(self, command: Draw, seat: int, phase: Phase) -> None:
        if phase is Phase.DRAW and seat == self.turn_seat:  # legal: said at once
            return
        self._check_turn(seat, "TP-4.6", "draw")
        if phase is Phase.PICK_UP:
            raise RuleError("TP-4.6", "take or decline the live discard before drawing")
        if phase is Phase.BUY:
            raise RuleError("TP-4.6", "the player draws once the buy offer is settled")
        if phase is Phase.MELD:
            raise RuleError("TP-4.2", "the player has already picked up this turn: taking the discard "
                                      "replaces drawing, and a turn has one pick-up")

    def _check_discard(self, command: Discard, seat: int, phase: Phase) -> None:
        player = self._check_meld_step(seat, "TP-4.15", "discard")
        self._check_in_hand(player, (command.card,), "TP-4.15")

    def _check_contract(self, command: LayContract, seat: int, phase: Phase) -> None:
        player = self._check_meld_step(seat, "TP-4.11", "lay a contract")
        if player.down:
            raise RuleError("TP-4.12", "this seat is already down: lay further sets one at a time")
        sets = command.sets
        spec = self.spec
        contract = spec.contract
        if not isinstance(sets, tuple) or len(sets) != contract.sets:
            raise RuleError("TP-4.11", f"the contract of round {spec.number} is {contract}: "
                                       f"lay exactly {contract.sets} set(s) at once")
        cards = [c for s in sets for c in s]
        self._check_in_hand(player, cards, "TP-4.11")
        for cards_of_set in sets:
            check_contract_set(cards_of_set, spec, self.rules)
        self._check_leaves_a_discard(player, len(cards))

    def _check_set(self, command: LaySet, seat: int, phase: Phase) -> None:
        player = self._check_meld_step(seat, "TP-4.12", "lay a set")
        self._check_down(player)
        cards = command.cards
        self._check_in_hand(player, cards, "TP-4.12")
        check_set(cards, self.spec, self.rules, further=True)
        self._check_leaves_a_discard(player, len(cards))

    def _check_lay_off(self, command: LayOff, seat: int, phase: Phase) -> None:
        player = self._check_meld_step(seat, "TP-4.12", "lay off")
        self._check_down(player)
        card, set_id = command.card, command.set_id
        self._check_in_hand(player, (card,), "TP-4.13")
        if not isinstance(set_id, int) or isinstance(set_id, bool) or not 0 <= set_id < len(self._table):
            raise RuleError("TP-4.13", f"there is no set {set_id!r} on the table")
        check_layoff(card, self._table[set_id], self.spec, self.rules)
        self._check_leaves_a_discard(player, 1)

    def _check_turn(self, seat: int, rule: str, doing: str) -> None:
        if seat != self.turn_seat:
            raise RuleError(rule, f"it is seat {self.turn_seat}'s turn: seat {seat} may not {doing} now")

    def _check_meld_step(self, seat: int, rule: str, doing: str) -> SeatState:
        """The player's own turn, after its pick-up (TP-4.2, TP-4.6): the seat's state, or RuleError."""
        self._check_turn(seat, rule, doing)
        phase = self.phase
        if phase is Phase.PICK_UP:
            raise RuleError("TP-4.2", "a turn starts with the pick-up: take or decline the live discard first")
        if phase is not Phase.MELD:
            raise RuleError("TP-4.6", "a turn is pick up, then meld, then discard: draw from the stock first")
        return self.players[seat]

    @staticmethod
    def _check_down(player: SeatState) -> None:
        if not player.down:
            raise RuleError("TP-4.11", "no card may be laid down before the seat lays its whole contract")

    def _leaves_a_discard(self, player: SeatState, laid: int) -> bool:
        """TP-4.16: with discard_to_go_out, a meld may not take the last card of the hand."""
        return len(player.hand) - laid >= (1 if self.rules.discard_to_go_out else 0)

    def _check_leaves_a_discard(self, player: SeatState, laid: int) -> None:
        if not self._leaves_a_discard(player, laid):
            raise RuleError("TP-4.16", "the last card must be a discard at this table (discard_to_go_out)")

    @staticmethod
    def _check_in_hand(player: SeatState, cards: Iterable[Card], rule: str) -> None:
        """Each card named once, and in the seat's hand; ``rule`` is the rule of the command naming them."""
        seen: set[int] = set()
        hand = player.hand
        for card in cards:
            if not isinstance(card, Card):
                raise RuleError("TP-1.2", f"not a card: {card!r}")
            if card.id in seen:
                raise RuleError("TP-1.2", f"{card.describe()} is named twice; every card is one physical card")
            seen.add(card.id)
            if card not in hand:
                raise RuleError(rule, f"{card.describe()} is not in this seat's hand")

    def _take(self, command: TakeDiscard, events: list[ev.Event]) -> None:
        card = self.pile.pop()
        self.pile_live = False
        self.players[command.seat].hand.append(card)
        self.phase = Phase.MELD
        events.append(ev.DiscardTaken(command.seat, card))

    def _decline(self, command: DeclineDiscard, events: list[ev.Event]) -> None:
        seat, players = command.seat, self.players
        self.buy_order = [s for s in _LEFT_OF[self.n][seat] if players[s].pennies > 0]
        self.buy_answers = {}
        events.append(ev.DiscardDeclined(seat, self.pile[-1], tuple(self.buy_order)))
        self.phase = Phase.BUY
        self._settle_buy(events)

    def _answer(self, command: Buy | PassBuy, events: list[ev.Event]) -> None:
        match command:
            case Buy(seat=seat):
                wants = True
            case PassBuy(seat=seat):
                wants = False
        self.buy_answers[seat] = wants
        events.append(ev.BuyAnswered(seat, wants))  # private: others learn only the outcome (TP-4.7)
        self._settle_buy(events)

    def _settle_buy(self, events: list[ev.Event]) -> None:
        """TP-4.3/4.7: the nearest seat that wants the card gets it, once every nearer seat has passed;
        settled as soon as the answers in decide it, answers of further seats then do not matter."""
        for seat in self.buy_order:
            answer = self.buy_answers.get(seat)
            if answer is None:
                return  # still waiting for a nearer seat
            if answer:
                self._buy(seat, events)
                break
        else:
            events.append(ev.CardDead(self.pile[-1]))
        self.pile_live = False
        self.buy_order = []
        self.buy_answers = {}
        self.phase = Phase.DRAW

    def _buy(self, seat: int, events: list[ev.Event]) -> None:
        player = self.players[seat]
        player.pennies -= 1
        self.pot += 1
        card = self.pile.pop()
        player.hand.append(card)
        penalty: list[Card] = []
        rebuilt: list[ev.Event] = []
        for _ in range(self.rules.buy_penalty_cards):
            drawn = self._from_stock(rebuilt)
            if drawn is None:
                break  # TP-4.19: a penalty card the stock cannot give is simply not taken
            penalty.append(drawn)
        player.hand.extend(penalty)
        events.extend(rebuilt)
        events.append(ev.CardBought(seat, card, len(penalty), player.pennies))
        if penalty:
            events.append(ev.CardsReceived(seat, tuple(penalty), "penalty"))

    def _draw(self, command: Draw, events: list[ev.Event]) -> None:
        card = self._from_stock(events)
        if card is None:
            self._end_round(None, "stock", events)  # TP-4.19
            return
        self.players[command.seat].hand.append(card)
        self.phase = Phase.MELD
        events.append(ev.StockDrawn(command.seat))
        events.append(ev.CardsReceived(command.seat, (card,), "draw"))

    def _from_stock(self, events: list[ev.Event]) -> Card | None:
        """The top card of the stock, rebuilding the stock from the pile if it may (TP-4.18)."""
        if not self.stock:
            if self.reshuffles_used >= self.rules.reshuffles or len(self.pile) < 2:
                return None
            self.stock = self.pile[:-1]
            self.pile = self.pile[-1:]
            self.rng.shuffle(self.stock)
            self.reshuffles_used += 1
            events.append(ev.StockRebuilt(len(self.stock), self.rules.reshuffles - self.reshuffles_used))
        return self.stock.pop()

    def _lay_contract(self, command: LayContract, events: list[ev.Event]) -> None:
        player = self.players[command.seat]
        melds = tuple(self._new_set(command.seat, cards) for cards in command.sets)
        player.down = True
        events.append(ev.ContractLaid(command.seat, melds))
        self._after_meld(command.seat, events)

    def _lay_set(self, command: LaySet, events: list[ev.Event]) -> None:
        events.append(ev.SetLaid(command.seat, self._new_set(command.seat, command.cards)))
        self._after_meld(command.seat, events)

    def _new_set(self, seat: int, cards: Sequence[Card]) -> ev.Meld:
        hand = self.players[seat].hand
        for card in cards:
            hand.remove(card)
        table = self._own_table()
        table_set = TableSet(len(table), seat, cards, self.spec.wild_ranks)
        table.append(table_set)
        self._meld_cache = None
        return ev.Meld(table_set.id, seat, tuple(cards), table_set.rank)

    def _lay_off(self, command: LayOff, events: list[ev.Event]) -> None:
        card, target = command.card, self._own_table()[command.set_id]
        self.players[command.seat].hand.remove(card)
        target.add(card)
        self._meld_cache = None
        events.append(ev.LaidOff(command.seat, card, target.id))
        self._after_meld(command.seat, events)

    def _after_meld(self, seat: int, events: list[ev.Event]) -> None:
        if not self.players[seat].hand:  # TP-4.16: out by melding every card
            events.append(ev.WentOut(seat))
            self._end_round(seat, "out", events)

    def _discard(self, command: Discard, events: list[ev.Event]) -> None:
        seat = command.seat
        hand = self.players[seat].hand
        hand.remove(command.card)
        self.pile.append(command.card)
        self.pile_live = True
        events.append(ev.Discarded(seat, command.card))
        if not hand:
            events.append(ev.WentOut(seat))
            self._end_round(seat, "out", events)
            return
        if self.turn >= self.rules.max_turns:
            self._end_round(None, "max_turns", events)  # TP-4.20
            return
        self._start_turn((seat + 1) % self.n, events)

    def _start_turn(self, seat: int, events: list[ev.Event]) -> None:
        self.turn_seat = seat
        self.turn += 1
        self.phase = Phase.PICK_UP
        events.append(ev.TurnStarted(seat, self.turn))

    # --- rounds and the game -----------------------------------------------------------------

    def _choose_dealer(self, events: list[ev.Event]) -> int:
        """TP-2.3: every seat draws; the highest deals; ties draw again among themselves."""
        cards = shoe(decks_for(self.n))
        self.rng.shuffle(cards)
        drawing = list(range(self.n))
        tie_break = 0
        while True:
            if len(cards) < len(drawing):
                cards = shoe(decks_for(self.n))
                self.rng.shuffle(cards)
            drawn = {seat: cards.pop() for seat in drawing}
            for seat in drawing:
                events.append(ev.DealerDraw(seat, drawn[seat], tie_break))
            best = max(card.rank for card in drawn.values())
            drawing = [seat for seat in drawing if drawn[seat].rank == best]
            if len(drawing) == 1:
                return drawing[0]
            tie_break += 1

    def _start_round(self, events: list[ev.Event]) -> None:
        rules, n = self.rules, self.n
        self.spec = rules.round(rules.rounds[self.round_index])
        cards = shoe(decks_for(n))
        self.rng.shuffle(cards)
        for player in self.players:
            player.hand = []
            player.down = False
        for k in range(n * rules.hand_size):  # TP-3.1: one at a time, starting left of the dealer
            self.players[(self.dealer + 1 + k) % n].hand.append(cards.pop())
        upcard = cards.pop()
        self.pile = [upcard]
        self.pile_live = True
        self.stock = cards
        self.table = []
        self._meld_cache = None
        self.reshuffles_used = 0
        self.turn = 0
        self.buy_order, self.buy_answers = [], {}
        events.append(ev.RoundStarted(self.spec.number, self.dealer, rules.hand_size, len(self.stock)))
        for seat, player in enumerate(self.players):
            events.append(ev.CardsReceived(seat, tuple(player.hand), "deal"))
        events.append(ev.UpcardTurned(upcard))
        self._start_turn((self.dealer + 1) % n, events)  # TP-3.3

    def _end_round(self, out: int | None, reason: str, events: list[ev.Event]) -> None:
        """TP-5.1/5.2: every seat scores its hand and pays a penny a card into the pot."""
        points = []
        for player in self.players:
            hand_points = sum(card.points for card in player.hand)
            player.score += hand_points
            player.paid += len(player.hand)
            self.pot += len(player.hand)
            points.append(hand_points)
        events.append(ev.RoundEnded(self.spec.number, out, reason,
                                    tuple(tuple(p.hand) for p in self.players), tuple(points),
                                    tuple(p.score for p in self.players), self.pot))
        if self.round_index + 1 < len(self.rules.rounds):
            self.round_index += 1
            self.dealer = (self.dealer + 1) % self.n  # TP-2.3: the deal passes left
            self._start_round(events)
        else:
            self._end_game(events)

    def _end_game(self, events: list[ev.Event]) -> None:
        """TP-5.4: the lowest total wins the pot; tied winners share it, odd pennies one each from the
        seat left of the last dealer."""
        low = min(p.score for p in self.players)
        winners = [s for s, p in enumerate(self.players) if p.score == low]
        share, odd = divmod(self.pot, len(winners))
        for seat in winners:
            self.players[seat].won += share
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        for seat in [s for s in order if s in winners][:odd]:
            self.players[seat].won += 1
        self.winners = tuple(winners)
        self.phase = Phase.GAME_OVER
        self.buy_order, self.buy_answers = [], {}
        events.append(ev.GameEnded(tuple(p.score for p in self.players), self.winners,
                                   tuple(p.won for p in self.players)))

    # --- what a seat may know ----------------------------------------------------------------

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know; ``None`` is a spectator. Never another seat's cards nor the stock."""
        if seat is not None and not 0 <= seat < self.n:
            raise RuleError("TP-1.1", f"there is no seat {seat} at this table")
        phase = self.phase
        pile = self.pile
        # SeatView's fields in their order, positionally (a view is built for every decision)
        return SeatView(
            seat, self.n, self.rules, self.spec.number, self.dealer, self.turn_seat, self.turn, phase,
            self.to_act(),
            tuple(self.players[seat].hand) if seat is not None else (),
            tuple([_new_tuple(PlayerInfo, (s, len(p.hand), p.pennies, p.score, p.down, p.paid, p.won))
                   for s, p in enumerate(self.players)]),
            self._melds(),
            pile[-1] if pile else None,
            self.pile_live and phase is not Phase.GAME_OVER,
            len(pile), len(self.stock), self.pot,
            self.rules.reshuffles - self.reshuffles_used,
            tuple(self.buy_order),
            tuple(self.legal_commands(seat)) if seat is not None else (),
            self.spec,
        )

    def _melds(self) -> tuple[ev.Meld, ...]:
        """The table as everybody sees it, cached until a set is laid or grows."""
        if self._meld_cache is None:
            self._meld_cache = tuple(ev.Meld(t.id, t.owner, tuple(t.cards), t.rank) for t in self._table)
        return self._meld_cache

    # --- storage and replay ------------------------------------------------------------------

    @classmethod
    def replay(cls, seats: int, rules: HouseRules | None, seed: int,
               log: Iterable[Command], *, trusted: bool = False) -> Game:
        """The game that seat count, rules, seed and command log define. ``trusted`` skips re-checking
        each command: for a log this engine already accepted (see ``apply``)."""
        game = cls(seats, rules, seed)
        for command in log:
            game.apply(command, trusted=trusted)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-able data (it holds the stock and the seed: server-side only)."""
        from .commands import format_command
        version, internal, gauss = self._rng_snapshot()
        return {
            "seats": self.n, "rules": self.rules.to_dict(), "seed": self.seed,
            "rng": [version, list(internal), gauss],
            "log": [format_command(c) for c in self.log],
            "players": [{"hand": [c.id for c in p.hand], "down": p.down, "pennies": p.pennies,
                         "score": p.score, "paid": p.paid, "won": p.won} for p in self.players],
            "pot": self.pot, "round_index": self.round_index, "dealer": self.dealer,
            "turn_seat": self.turn_seat, "turn": self.turn, "phase": self.phase.value,
            "stock": [c.id for c in self.stock], "pile": [c.id for c in self.pile],
            "pile_live": self.pile_live, "buy_order": list(self.buy_order),
            "buy_answers": [[s, a] for s, a in self.buy_answers.items()],
            "reshuffles_used": self.reshuffles_used,
            "table": [{"owner": t.owner, "cards": [c.id for c in t.cards]} for t in self._table],
            "winners": list(self.winners),
        }

    def copy(self) -> Game:
        """An independent copy of the whole state: either can be played on without touching the other, and
        both play identically from here. It has its own hands, stock, pile, seats, log and buy offer; two
        things are shared until one of the two games changes them, which then makes its own: the random
        generator (a snapshot of its state, ``rng``) and the sets on the table (``table``). Cards, commands,
        events, rules and round specs are immutable values and are shared. Much faster than
        ``from_dict(to_dict())`` (``bench/engine_bench.py`` measures the ratio), and the engine's speed
        for search: a searcher copies a world for every rollout."""
        game = Game.__new__(Game)
        # every attribute at once (numbers, flags, immutable values), then fresh containers for the mutable ones
        game.__dict__.update(self.__dict__)
        game._rng, game._rng_state = None, self._rng_snapshot()  # its generator is made when it first draws
        game.log = self.log.copy()
        new_seat = SeatState.__new__
        players = []
        for p in self.players:
            q = new_seat(SeatState)
            q.hand = p.hand.copy()
            q.down, q.pennies, q.score, q.paid, q.won = p.down, p.pennies, p.score, p.paid, p.won
            players.append(q)
        game.players = players
        game.stock = self.stock.copy()
        game.pile = self.pile.copy()
        game.buy_order = self.buy_order.copy()
        game.buy_answers = self.buy_answers.copy()
        if self._table:  # the sets are shared until either game lays a set or lays off (``_own_table``)
            self._table_shared = game._table_shared = True
        else:
            game._table = []
        game.opening_events = self.opening_events.copy()
        return game

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        from .commands import parse_command
        game = cls.__new__(cls)
        game.n = data["seats"]
        game.rules = HouseRules.from_dict(data["rules"])
        game.seed = data["seed"]
        version, internal, gauss = data["rng"]
        state = (version, tuple(internal), gauss)
        rng = random.Random.__new__(random.Random)
        rng.setstate(state)  # a bad state is refused here, not at the next shuffle
        game._rng, game._rng_state = rng, state
        game.log = [parse_command(line) for line in data["log"]]
        game.players = []
        for p in data["players"]:
            player = SeatState(p["pennies"])
            player.hand = [Card.from_id(i) for i in p["hand"]]
            player.down, player.score, player.paid, player.won = p["down"], p["score"], p["paid"], p["won"]
            game.players.append(player)
        game.pot = data["pot"]
        game.round_index = data["round_index"]
        game.spec = game.rules.round(game.rules.rounds[game.round_index])
        game.dealer, game.turn_seat, game.turn = data["dealer"], data["turn_seat"], data["turn"]
        game.phase = Phase(data["phase"])
        game.stock = [Card.from_id(i) for i in data["stock"]]
        game.pile = [Card.from_id(i) for i in data["pile"]]
        game.pile_live = data["pile_live"]
        game.buy_order = list(data["buy_order"])
        game.buy_answers = {s: a for s, a in data["buy_answers"]}
        game.reshuffles_used = data["reshuffles_used"]
        game.table = [TableSet(i, t["owner"], [Card.from_id(c) for c in t["cards"]], game.spec.wild_ranks)
                      for i, t in enumerate(data["table"])]
        game._meld_cache = None
        game.winners = tuple(data["winners"])
        game.opening_events = []
        return game


# Commands are plain values: the listing hot path hands out one object per (seat, card) or seat, built once.
_DISCARD_OF = tuple({card: Discard(seat, card) for card in shoe(MAX_DECKS)}.__getitem__ for seat in range(8))
_TAKE = tuple(TakeDiscard(seat) for seat in range(8))
_DECLINE = tuple(DeclineDiscard(seat) for seat in range(8))
_BUY = tuple(Buy(seat) for seat in range(8))
_PASS = tuple(PassBuy(seat) for seat in range(8))
_DRAW = tuple(Draw(seat) for seat in range(8))
_LEFT_OF = [[tuple((seat + i) % n for i in range(1, n)) for seat in range(n)] for n in range(9)]
"""``_LEFT_OF[n][seat]``: the other seats of an ``n``-seat table, nearest to the seat's left first."""

_APPLIERS: dict[type, Callable[[Game, Any, list[ev.Event]], None]] = {
    Discard: Game._discard, TakeDiscard: Game._take, DeclineDiscard: Game._decline, Draw: Game._draw,
    Buy: Game._answer, PassBuy: Game._answer, LayOff: Game._lay_off, LaySet: Game._lay_set,
    LayContract: Game._lay_contract,
}
_CHECKS: dict[type, Callable[[Game, Any, int, Phase], None]] = {
    Discard: Game._check_discard, TakeDiscard: Game._check_pick_up, DeclineDiscard: Game._check_pick_up,
    Draw: Game._check_draw, Buy: Game._check_answer, PassBuy: Game._check_answer, LayOff: Game._check_lay_off,
    LaySet: Game._check_set, LayContract: Game._check_contract,
}
assert set(_APPLIERS) == set(_CHECKS) == set(COMMAND_TYPES), "every command is checked and applied"
