"""Built-in strategies beyond ``random`` and ``greedy``: three penny-timing plans and a searching bot.

All of them share one play policy (``meld_policy`` and the pick-up and buy tests below):

* **take** the live discard when it is wild, when it makes a pair or better with a natural in hand (of a
  suit the set can still take), or, once down, when it can be laid off or makes a set with a pair;
* **buy** conservatively: a buy costs a penny and ``buy_penalty_cards`` cards, so only a wild card, or a
  card that brings the contract nearer *and* completes a set it needs (sets of 3 or 4), or leaves it one
  card short (sets of 5 or more: those take more than the discards of one round), and only while not
  down. When to spend the pennies is the plan's;
* **meld**: lay the contract as soon as it can (the listed way that lays the most points), then every
  further set and every lay-off, so a hand that can empty goes out;
* **discard** deadwood: never a wild card while a natural is left, the ranks with fewest cards (counting
  only the suits a set may hold together) first, then a card nobody can lay off on the table while some
  other seat is down, then the most points.

The plans (``PLANS``) differ only in when they may spend pennies, counted per round:
``averaging`` one buy a round and two in the last two rounds; ``early`` any qualifying buy, at once,
to go down and out fast; ``holdout`` none until the last three rounds of the game, then any.

``SamplerBot`` is the shared policy with a search over its costly choices: where the policy would take
the live discard or buy it, it samples worlds consistent with its view and memory
(``worlds.sample_world``), plays each on to the end of the round with the fast policy for every seat,
once per candidate (take or decline, buy or keep the penny) on the same worlds, and overrules the policy
only when the search shows a clear gain.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import CARDS_PER_DECK, MAX_DECKS, Card, shoe
from .commands import Buy, Command, DeclineDiscard, Discard, Draw, LayContract, LayOff, LaySet, PassBuy, TakeDiscard
from .game import Game, Phase, PlayerInfo, SeatState, SeatView
from .melds import TableSet, contract_candidates, layoff_refusal, set_candidates
from .rules import HouseRules, RoundSpec
from .worlds import Remembering, sample_world

# --- hand judgement ----------------------------------------------------------------------------------


def _tally(hand: Iterable[Card], spec: RoundSpec, rules: HouseRules) -> tuple[list[int], int, set[int]]:
    """Naturals per rank (a list by rank, 0 to 15) that one set may hold together (one per suit under
    TP-4.9), the wild count, and the faces counted under TP-4.9 (rank and suit, as the id of the first deck's
    card). A rollout's hot path: every meld step and every buy offer asks it."""
    wild_ranks = spec.wild_ranks
    counts = [0] * 16
    faces: set[int] = set()
    wilds = 0
    if rules.distinct_suits:
        for card in hand:
            rank = card.rank
            if rank in wild_ranks:
                wilds += 1
            elif card.suit is None:
                counts[rank] += 1
            else:
                face = card.id % CARDS_PER_DECK
                if face not in faces:
                    faces.add(face)
                    counts[rank] += 1
    else:
        for card in hand:
            rank = card.rank
            if rank in wild_ranks:
                wilds += 1
            else:
                counts[rank] += 1
    return counts, wilds, faces


def _distance(counts: list[int], wilds: int, spec: RoundSpec) -> int:
    """``contract_distance`` of a hand's ``_tally``."""
    contract = spec.contract
    size, cap = contract.size, spec.wild_cap
    need = [size - n for n in sorted(counts, reverse=True)[:contract.sets] if n < size]
    return sum(need) - min(wilds, sum(min(x, cap) for x in need))


def contract_distance(hand: Iterable[Card], spec: RoundSpec, rules: HouseRules) -> int:
    """About how many cards the hand lacks to lay the round's contract: the best rank groups, each short
    of the contract's size, less the wild cards that may fill them (the round's cap a set)."""
    counts, wilds, _ = _tally(hand, spec, rules)
    return _distance(counts, wilds, spec)


def buy_helps(hand: Sequence[Card], card: Card, spec: RoundSpec, rules: HouseRules) -> bool:
    """The conservative buying test: a wild card while the contract is not complete, or a card that brings
    the contract nearer and leaves its set complete (sets of 3-4) or one card short (sets of 5-7)."""
    counts, wilds, faces = _tally(hand, spec, rules)
    if card.rank in spec.wild_ranks:
        return _distance(counts, wilds, spec) > 0
    rank = card.rank
    joins = not (rules.distinct_suits and card.suit is not None and card.id % CARDS_PER_DECK in faces)
    size = spec.contract.size
    if size - counts[rank] - joins - min(spec.wild_cap, wilds) > (0 if size <= 4 else 1):
        return False
    before = _distance(counts, wilds, spec)
    counts[rank] += joins
    return _distance(counts, wilds, spec) < before


TableRanks = Sequence[tuple[int | None, frozenset[str] | set[str]]]
"""The sets on the table as (rank, suits of their naturals): all a lay-off test needs."""


def _lays_off(card: Card, table: TableRanks, spec: RoundSpec, rules: HouseRules) -> bool:
    if card.rank in spec.wild_ranks:
        return bool(table)
    for rank, suits in table:
        if rank == card.rank and not (rules.distinct_suits and card.suit is not None and card.suit in suits):
            return True
    return False


def wants_card(hand: Sequence[Card], card: Card, down: bool, table: TableRanks, spec: RoundSpec,
               rules: HouseRules) -> bool:
    """Take the live discard? (see the module's docstring)"""
    if card.rank in spec.wild_ranks:
        return True
    distinct = rules.distinct_suits and card.suit is not None
    alike = [c for c in hand if c.rank == card.rank and not (distinct and c.suit == card.suit)]
    if down:
        return _lays_off(card, table, spec, rules) or len({c.suit for c in alike}) >= 2
    return bool(alike)


def _discard_key(card: Card, counts: list[int], wild_ranks: frozenset[int],
                 feeds: bool) -> tuple[bool, int, bool, int, int]:
    """The shared policy's order of discards (the largest goes first): a natural card before a wild one, the
    ranks with fewest usable naturals, a card no other seat can lay off, the most points, the lowest id."""
    return (card.rank not in wild_ranks, -counts[card.rank], not feeds, card.points, -card.id)


def meld_policy(hand: Sequence[Card], legal: Sequence[Command], table: TableRanks, others_down: bool,
                spec: RoundSpec, rules: HouseRules) -> Command:
    """The shared meld-phase choice among ``legal`` (see the module's docstring)."""
    best_meld: Command | None = None
    best_points = -1
    layoff: LayOff | None = None
    discards: list[Discard] = []
    for command in legal:
        if isinstance(command, Discard):
            discards.append(command)
        elif isinstance(command, LayContract):
            points = sum(c.points for s in command.sets for c in s)
            if points > best_points:
                best_meld, best_points = command, points
        elif isinstance(command, LaySet):
            points = sum(c.points for c in command.cards)
            if points > best_points:
                best_meld, best_points = command, points
        elif isinstance(command, LayOff):
            if layoff is None or (command.card.points, -command.card.id) > (layoff.card.points, -layoff.card.id):
                layoff = command
    if best_meld is not None:
        return best_meld
    if layoff is not None:
        return layoff
    return ranked_discards(hand, discards, table, others_down, spec, rules)[0]


def ranked_discards(hand: Sequence[Card], discards: Sequence[Discard], table: TableRanks, others_down: bool,
                    spec: RoundSpec, rules: HouseRules) -> list[Discard]:
    """The listed discards, best first by the shared policy."""
    counts, _, _ = _tally(hand, spec, rules)
    wild_ranks = spec.wild_ranks

    def key(d: Discard) -> tuple[bool, int, bool, int, int]:
        feeds = others_down and _lays_off(d.card, table, spec, rules)
        return _discard_key(d.card, counts, wild_ranks, feeds)

    return sorted(discards, key=key, reverse=True)


def view_table(view: SeatView) -> list[tuple[int | None, frozenset[str]]]:
    wild_ranks = view.spec.wild_ranks
    return [(m.rank, frozenset(c.suit for c in m.cards if c.suit is not None and c.rank not in wild_ranks))
            for m in view.table]


def _others_down(players: Sequence[PlayerInfo | SeatState], seat: int) -> bool:
    """Whether a seat other than ``seat`` has gone down (a view's players or a whole game's)."""
    return any(p.down for s, p in enumerate(players) if s != seat)


def fits(view: SeatView, card: Card) -> bool:
    """Whether ``card`` goes with the seat's hand or the table by the shared pick-up test (wild, alike to a
    natural in hand, or once down a lay-off or a set with a pair): the policy takes such a card."""
    assert view.seat is not None, "a spectator has no hand"
    return wants_card(view.hand, card, view.players[view.seat].down, view_table(view), view.spec, view.rules)


def would_take(view: SeatView) -> bool:
    """The shared policy's pick-up: take the live discard (else decline it)?"""
    return view.discard_top is not None and fits(view, view.discard_top)


def would_buy(view: SeatView) -> bool:
    """The shared policy's buying test, before a plan's penny allowance: buy the card offered?"""
    assert view.seat is not None, "a spectator does not buy"
    card = view.discard_top
    return (card is not None and not view.players[view.seat].down
            and buy_helps(view.hand, card, view.spec, view.rules))


# --- penny plans -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """When a bot may spend its pennies: ``per_round`` buys a round (None: no limit), ``late_rounds`` and
    ``per_late_round`` for the last rounds of the game, and ``first_round_left``: no buying while more
    rounds than that are left (this one included)."""

    name: str
    per_round: int | None
    late_rounds: int = 0
    per_late_round: int | None = None
    first_round_left: int | None = None

    def allowance(self, rules: HouseRules, round_number: int) -> int | None:
        """Buys allowed this round (None: as many as qualify)."""
        left = len(rules.rounds) - rules.rounds.index(round_number)  # this round included
        if self.first_round_left is not None and left > self.first_round_left:
            return 0
        if left <= self.late_rounds:
            return self.per_late_round
        return self.per_round


PLANS = {
    "averaging": Plan("averaging", per_round=1, late_rounds=2, per_late_round=2),
    "early": Plan("early", per_round=None),
    "holdout": Plan("holdout", per_round=None, first_round_left=3),
}


class PlanBot:
    """The shared play policy with a penny plan (``PLANS``). It keeps one thing across calls: its pennies
    when it first saw the round, to count its buys this round. ``seed`` is accepted for the registry; the
    bot makes no random choice."""

    def __init__(self, plan: Plan | str, seed: int = 0) -> None:
        self.plan = PLANS[plan] if isinstance(plan, str) else plan
        self.seed = seed
        self._round: tuple[int, int, int] | None = None
        self._pennies = 0

    def choose(self, view: SeatView) -> Command:
        seat = view.seat
        assert seat is not None, "a spectator does not play"
        me = view.players[seat]
        key = (seat, view.round, view.dealer)
        if key != self._round:
            self._round, self._pennies = key, me.pennies
        phase = view.phase
        if phase is Phase.PICK_UP:
            return TakeDiscard(seat) if would_take(view) else DeclineDiscard(seat)
        if phase is Phase.BUY:
            allowed = self.plan.allowance(view.rules, view.round)
            bought = self._pennies - me.pennies
            if (allowed is None or bought < allowed) and would_buy(view):
                return Buy(seat)
            return PassBuy(seat)
        if phase is Phase.DRAW:
            return Draw(seat)
        return meld_policy(view.hand, view.legal, view_table(view),
                           _others_down(view.players, seat), view.spec, view.rules)


# --- the fast policy, on a whole game ----------------------------------------------------------------


def fast_choice(game: Game, seat: int) -> Command:
    """The shared policy for ``seat`` read straight from a whole game (no view is built), buying whenever
    the conservative test allows: the rollout policy of ``SamplerBot``. Always a legal command."""
    phase = game.phase
    player = game.players[seat]
    if phase is Phase.DRAW:
        return _DRAW[seat]
    spec, rules = game.spec, game.rules
    if phase is Phase.PICK_UP:
        table = _table_ranks(game) if player.down else ()  # only a seat that is down lays off
        take = wants_card(player.hand, game.pile[-1], player.down, table, spec, rules)
        return _TAKE[seat] if take else _DECLINE[seat]
    if phase is Phase.BUY:
        wanted = not player.down and buy_helps(player.hand, game.pile[-1], spec, rules)
        return _BUY[seat] if wanted else _PASS[seat]
    return _fast_meld(game, seat)


def _table_ranks(game: Game) -> list[tuple[int | None, set[str]]]:
    """The sets on ``game``'s table as a lay-off test reads them (``TableRanks``), read without making a copy's
    shared table its own (``Game.table`` would: the policy only reads it)."""
    return [(t.rank, t.suits) for t in game._table]


def _fast_meld(game: Game, seat: int) -> Command:
    """``meld_policy`` on a whole game, without listing every legal command: the same choice where the
    contract estimate finds the contract (a rare contract it misses is simply not laid in a rollout)."""
    player = game.players[seat]
    hand = player.hand
    spec, rules = game.spec, game.rules
    keep = 1 if rules.discard_to_go_out else 0
    counts: list[int] | None = None
    table = game._table  # read only (``_table_ranks``)
    if not player.down:
        counts, wilds, _ = _tally(hand, spec, rules)
        if _distance(counts, wilds, spec) == 0:
            best: tuple[tuple[Card, ...], ...] | None = None
            best_points = -1
            for sets in contract_candidates(hand, spec, rules, limit=8):
                laid = sum(len(x) for x in sets)
                points = sum(c.points for x in sets for c in x)
                if len(hand) - laid >= keep and points > best_points:
                    best, best_points = sets, points
            if best is not None:
                return LayContract(seat, best)
    else:
        chosen: tuple[Card, ...] | None = None
        best_points = -1
        for cards in set_candidates(hand, spec, rules, 3):
            points = sum(c.points for c in cards)
            if len(hand) - len(cards) >= keep and points > best_points:
                chosen, best_points = cards, points
        if chosen is not None:
            return LaySet(seat, chosen)
        if len(hand) - 1 >= keep and table:
            wild_ranks = spec.wild_ranks
            by_rank: dict[int | None, list[TableSet]] = {}
            for target in table:
                by_rank.setdefault(target.rank, []).append(target)
            for card in sorted(hand, key=_layoff_order, reverse=True):
                targets = table if card.rank in wild_ranks else by_rank.get(card.rank, ())
                for target in targets:
                    if layoff_refusal(card, target, spec, rules) is None:
                        return LayOff(seat, card, target.id)
    if counts is None:
        counts = _tally(hand, spec, rules)[0]
    return _DISCARD_OF[seat](_deadwood(hand, counts, table, _others_down(game.players, seat), spec, rules))


def _deadwood(hand: Sequence[Card], counts: list[int], table: Sequence[TableSet], others_down: bool,
              spec: RoundSpec, rules: HouseRules) -> Card:
    """The card the shared policy discards: the largest ``_discard_key``, each key packed into one number
    (a natural card, fewest usable naturals of its rank, feeds nobody, most points, lowest id: each part's
    range fits below the next's, so the numbers order as the keys do; no two cards tie, their ids differ)."""
    wild_ranks = spec.wild_ranks
    suits_by_rank: dict[int, list[set[str]]] = {}
    if others_down:
        for target in table:
            if target.rank is not None:
                suits_by_rank.setdefault(target.rank, []).append(target.suits)
    wild_feeds = others_down and bool(table)
    distinct = rules.distinct_suits
    best, best_key = hand[0], -1
    for card in hand:
        rank = card.rank
        if rank in wild_ranks:
            key = ((64 << 1) | (not wild_feeds)) << 16
        else:
            suits = suits_by_rank.get(rank)
            feeds = suits is not None and (not distinct or card.suit is None
                                           or any(card.suit not in held for held in suits))
            key = (((128 + 64 - counts[rank]) << 1) | (not feeds)) << 16
        key |= _LOW_KEY[card.id]
        if key > best_key:
            best, best_key = card, key
    return best


_LOW_KEY = [(card.points << 10) | (1023 - card.id) for card in shoe(MAX_DECKS)]
"""A card's most points, then lowest id, as one number by its id (the larger first): the low part of its
``_deadwood`` key, and the order lay-offs are tried in (``_layoff_order``)."""


def _layoff_order(card: Card) -> int:
    return _LOW_KEY[card.id]


# Commands are plain values: a rollout hands out one object per seat (or seat and card), built once.
_DRAW = tuple(Draw(seat) for seat in range(8))
_TAKE = tuple(TakeDiscard(seat) for seat in range(8))
_DECLINE = tuple(DeclineDiscard(seat) for seat in range(8))
_BUY = tuple(Buy(seat) for seat in range(8))
_PASS = tuple(PassBuy(seat) for seat in range(8))
_DISCARD_OF = tuple({card: Discard(seat, card) for card in shoe(MAX_DECKS)}.__getitem__ for seat in range(8))


# --- the searching bot -------------------------------------------------------------------------------

DEFAULT_SAMPLES = 300
"""Rollouts a decision gets by default (spread over its candidate commands): tuned so that a searched
decision takes about half a second of one core's time on a 2-core development machine (~1.7 ms a rollout
played out; 48 rollouts 0.10 s, 200 rollouts 0.34 s of CPU a decision; since only takes, buys
and discards are searched, whose rollouts are longer, 300 rollouts take about 0.65 s; a loaded machine
takes longer by the clock). ``bench/engine_bench.py`` measures decisions per second. A number of rollouts,
not a time, so that the bot is deterministic from its seed (``seconds=`` trades that for a clock)."""


class SamplerBot(Remembering):
    """The shared policy, searching the decisions where it would take the live discard or buy it, and its
    discards: samples worlds consistent with its view and its memory, plays each on to the end of the
    round (or ``horizon`` commands) with ``fast_choice`` for every seat, once per candidate command on the
    same worlds (common random numbers: the candidates differ only by the command), and scores each
    rollout: the mean of the other seats' points this round less its own, less ``penny_points`` for each
    penny it spent (none in the game's last round). It keeps the policy's choice unless another candidate
    beats it on the same worlds by more than ``margin`` standard errors of the paired difference, over at
    least ``min_worlds`` worlds (then the best such one).

    Candidates: take or decline when the policy would take, buy or pass when it would buy (so it buys
    like the ``early`` plan unless the search, counting the penny, finds passing better); in the meld
    phase the policy's meld when it has one (going down, further sets and lay-offs are not searched),
    else the policy's best ``max_discards`` discards, one per rank. Declines, passes and draws are not
    searched: their alternatives (taking or buying a card the policy does not want) rarely pay, and
    searching them cost most of the old budget for nothing. Measured against greedy on full games
    (docs/BOTS.md) at 16 rollouts a decision, searching every decision with four
    discards and a margin of one standard error lost to the policy, and so did takes, buys and four
    discards at two: most discards differ by a few points a round, below what a few rollouts can tell
    apart, so the noise decided. Two discards at 48 rollouts do not lose to it.

    Budget: ``samples`` rollouts a decision (default ``DEFAULT_SAMPLES``; each candidate gets
    ``samples // candidates`` worlds, at least one), deterministic from ``seed``; or ``seconds``, a time
    budget instead (worlds are sampled until it runs out; not reproducible).

    Memory: it remembers per seat what ``worlds.SeatMemory`` remembers. ``observe(view)``, when a driver
    calls it after every command (``engine.play.play_game`` does), gives it the full memory; ``choose`` folds in
    the views it decides on in any case."""

    def __init__(self, seed: int = 0, *, samples: int | None = None, seconds: float | None = None,
                 horizon: int | None = None, max_discards: int = 2, penny_points: float = 5.0,
                 margin: float = 2.0, min_worlds: int = 8) -> None:
        if samples is not None and seconds is not None:
            raise ValueError("give samples or seconds, not both")
        super().__init__()
        self.rng = random.Random(seed)
        self.samples = DEFAULT_SAMPLES if samples is None and seconds is None else samples
        self.seconds = seconds
        self.horizon = horizon
        self.max_discards = max_discards
        self.penny_points = penny_points
        self.margin = margin
        self.min_worlds = min_worlds
        self.decisions = 0
        self.rollouts = 0

    def candidates(self, view: SeatView) -> list[Command]:
        """The commands searched, the policy's own choice first (see the class docstring); one command
        alone is played without a search."""
        seat = view.seat
        assert seat is not None
        legal = view.legal
        table = view_table(view)
        me = view.players[seat]
        card = view.discard_top
        if view.phase is Phase.PICK_UP:
            take = card is not None and wants_card(view.hand, card, me.down, table, view.spec, view.rules)
            return [TakeDiscard(seat), DeclineDiscard(seat)] if take else [DeclineDiscard(seat)]
        if view.phase is Phase.BUY:
            buy = card is not None and not me.down and buy_helps(view.hand, card, view.spec, view.rules)
            return [Buy(seat), PassBuy(seat)] if buy else [PassBuy(seat)]
        if view.phase is not Phase.MELD:
            return list(legal)
        others_down = _others_down(view.players, seat)
        choice = meld_policy(view.hand, legal, table, others_down, view.spec, view.rules)
        if not isinstance(choice, Discard) or self.max_discards <= 1:
            return [choice]
        ranked = ranked_discards(view.hand, [c for c in legal if isinstance(c, Discard)], table, others_down,
                                 view.spec, view.rules)
        out: list[Command] = []
        ranks: set[int] = set()
        for command in ranked:
            if command.card.rank not in ranks:
                ranks.add(command.card.rank)
                out.append(command)
                if len(out) >= self.max_discards:
                    break
        return out

    def choose(self, view: SeatView) -> Command:
        seat = view.seat
        assert seat is not None, "a spectator does not play"
        self.observe(view)
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        self.decisions += 1
        memory = self.memories[seat]
        values: list[list[float]] = [[] for _ in candidates]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        worlds = 0
        per_candidate = max(1, (self.samples or 0) // len(candidates))
        last_round = view.round == view.rules.rounds[-1]
        while True:
            world = sample_world(view, self.rng, memory)
            for i, command in enumerate(candidates):
                values[i].append(self._rollout(world.copy(), seat, command, last_round))
            worlds += 1
            if deadline is None:
                if worlds >= per_candidate:
                    break
            elif time.perf_counter() >= deadline:
                break
        self.rollouts += worlds * len(candidates)
        return candidates[self._pick(values)]

    def _pick(self, values: list[list[float]]) -> int:
        """The policy's own choice (index 0) unless another candidate beats it on the same worlds by more
        than ``margin`` standard errors of the paired difference, over at least ``min_worlds`` worlds: a
        few noisy rollouts must not talk the bot out of a sound move. Then the one with the best mean
        difference."""
        worlds = len(values[0])
        if worlds < max(2, self.min_worlds):
            return 0
        best, best_gain = 0, 0.0
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], values[0], strict=True)]
            mean = sum(diffs) / worlds
            var = sum((d - mean) ** 2 for d in diffs) / (worlds - 1)
            if mean > self.margin * (var / worlds) ** 0.5 and mean > best_gain:
                best, best_gain = i, mean
        return best

    def _rollout(self, game: Game, seat: int, command: Command, last_round: bool) -> float:
        """Play ``command`` and then the round out: others' mean round points less ours, less pennies."""
        round_index = game.round_index
        start_scores = [p.score for p in game.players]
        start_pennies = game.players[seat].pennies
        game.apply(command, trusted=True)
        steps = 0
        horizon = self.horizon
        while game.round_index == round_index and not game.over:
            if horizon is not None and steps >= horizon:
                break
            actor = game.to_act()[0]
            game.apply(fast_choice(game, actor), trusted=True)
            steps += 1
        players = game.players
        if game.round_index == round_index and not game.over:  # cut short: count the hands as they are
            points = [p.score - s + sum(c.points for c in p.hand) for p, s in zip(players, start_scores, strict=True)]
        else:
            points = [p.score - s for p, s in zip(players, start_scores, strict=True)]
        others = sum(points) - points[seat]
        value = others / (len(points) - 1) - points[seat]
        if not last_round:
            value -= self.penny_points * (start_pennies - players[seat].pennies)
        return value
