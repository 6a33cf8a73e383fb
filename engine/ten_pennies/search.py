"""Judging a seat's options by what it knows: ``option_values``, the searcher that the game review and the
``searcher`` bot share.

A seat's options are valued by determinized rollouts: a world is a whole game consistent with everything
the seat knows (``worlds.sample_world``: its view, and what it remembers of the round), and each option
is played in that world, then the round is played out to its end with the shared policy
(``strategies.fast_choice``) for every seat. An option's value is the seat's points for the rest of the
round (the cards left in its hand when the round ends), averaged over the worlds: lower is better.

Every option is played in the same worlds, with the same random generator for the rest of the round
(the stock's reshuffles) and the stock ordered so that the seats after draw alike whichever option is played
(``aligned``), so two options differ only by what the option changes: common random numbers. The luck of a
world (a hand dealt to go out in two turns, or one that will hold 80 points whatever the seat does) is the
same for every option and cancels from their differences, which is what a choice needs; those differences
are far less noisy than the values themselves.

A review's rollouts (``option_rollouts``) stop ``HORIZON`` turns on and take the learned value of the seat's
position then (``value.py``), where it was fitted to the house rules; the searching bot plays its out.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from . import value as learned
from .commands import Buy, Command, DeclineDiscard, Discard, PassBuy, TakeDiscard
from .game import Game, Phase, SeatView
from .rules import RuleError
from .strategies import PlanBot, fast_choice, fits, ranked_discards, view_table
from .worlds import Remembering, SeatMemory, sample_world


def option_values(game: Game, seat: int, options: Sequence[Command], *, budget: int, seed: int,
                  memory: SeatMemory | None = None) -> list[float]:
    """``seat``'s expected points for the rest of the round after each of ``options`` (lower is better),
    decided only from what ``seat`` knows, and reproducible from ``seed``.

    ``budget`` is the rollouts to spend in all: each option is played in ``budget // len(options)``
    worlds (at least one), the same worlds for every option. The worlds are sampled from ``seat``'s view
    and from ``memory`` (what the seat remembers of the round: ``worlds.SeatMemory``, which must have
    observed the seat's present view last); without one, the memory is rebuilt from the game's command
    log when that log replays to this game (a game played from its seed), else the view alone is used.
    Every option must be legal for ``seat`` now (``ValueError`` otherwise)."""
    if not options:
        return []
    if seat not in game.to_act():
        raise ValueError(f"seat {seat} has no decision to make now")
    for option in options:
        if option.seat != seat or not game.is_legal(option):
            raise ValueError(f"{option} is not one of seat {seat}'s options now")
    if budget < 1:
        raise ValueError("the budget is at least one rollout")
    view = game.view(seat)
    if memory is None:
        memory = seat_memory(game, seat)
    elif memory.last != view:
        raise ValueError("the memory has not observed the seat's present view last")
    table = paired_values(view, memory, options, worlds=max(1, budget // len(options)), rng=random.Random(seed))
    return [sum(values) / len(values) for values in table]


HORIZON = 12
"""The turns a review's rollout plays before the learned value of the seat's position takes over
(``value.value``, where it was fitted to the house rules): three rounds of turns at four seats. Against
rollouts played out (``bench/value_train.py --check``): a world's difference between two options less than
half as spread (20 points against 44), and the mean differences about 0.6 as large, more than their noise
explains (the value averages; most for a meld or a discard); 8 turns shrank them more, 16 spread them more."""


def option_rollouts(game: Game, seat: int, seed: int, memory: SeatMemory | None = None, *,
                    horizon: int | None = HORIZON) -> Callable[[Sequence[Command], range], list[list[float]]]:
    """What a review extends a decision with, world by world: ``rollouts(options, worlds)`` is, for each of
    ``options``, ``seat``'s points for the rest of the round in each world numbered in ``worlds`` (its rollouts
    stopped ``horizon`` turns on, where the learned value was fitted to the house rules, ``value.fitted``; None:
    played to the round's end). World ``j`` is sampled (with the generator of its rollouts) from ``seed`` and ``j``
    alone, from the seat's view and memory (as ``option_values``; a memory given is copied: it may observe
    on), so an option played later in world ``j`` meets the same world as every option played in it before:
    more worlds for some options keep their differences paired."""
    if seat not in game.to_act():
        raise ValueError(f"seat {seat} has no decision to make now")
    view = game.view(seat)
    if memory is None:
        known = seat_memory(game, seat)
    elif memory.last != view:
        raise ValueError("the memory has not observed the seat's present view last")
    else:
        known = memory.copy()
    if not learned.fitted(game.rules):
        horizon = None

    def rollouts(options: Sequence[Command], worlds: range) -> list[list[float]]:
        for option in options:
            if option.seat != seat or not game.is_legal(option):
                raise ValueError(f"{option} is not one of seat {seat}'s options now")
        table: list[list[float]] = [[] for _ in options]
        for j in worlds:
            rng = random.Random(f"{seed}/{j}")
            world = sample_world(view, rng, known)
            for values, value in zip(table, world_values(world, seat, options, rng.getrandbits(64), horizon=horizon),
                                     strict=True):
                values.append(value)
        return table

    return rollouts


def paired_values(view: SeatView, memory: SeatMemory | None, options: Sequence[Command], *, worlds: int,
                  rng: random.Random, penny_points: float = 0.0,
                  deadline: float | None = None) -> list[list[float]]:
    """For each option, the seat's points for the rest of the round in each of ``worlds`` worlds sampled
    from ``view`` and ``memory`` (the same worlds, in order, for every option), plus ``penny_points`` for
    each penny the seat spends in the rollout. ``deadline`` (a ``time.perf_counter()`` reading) stops
    sampling early, after at least one world."""
    seat = view.seat
    assert seat is not None, "a spectator has no options"
    table: list[list[float]] = [[] for _ in options]
    for _ in range(worlds):
        world = sample_world(view, rng, memory)
        for values, value in zip(table, world_values(world, seat, options, rng.getrandbits(64), penny_points),
                                 strict=True):
            values.append(value)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return table


def world_values(world: Game, seat: int, options: Sequence[Command], rollout_seed: int,
                 penny_points: float = 0.0, horizon: int | None = None) -> list[float]:
    """``seat``'s points for the rest of the round after each option, each played out (``rollout``, to
    ``horizon``) in a copy of ``world`` (its stock ``aligned`` to the option) whose random generator is seeded
    from ``rollout_seed`` (the same for every option), plus ``penny_points`` a penny it spends."""
    values = []
    pennies = world.players[seat].pennies
    for option in options:
        game = world.copy()
        aligned(game, option)
        game.rng.seed(rollout_seed)
        points = rollout(game, seat, option, horizon)
        values.append(points + penny_points * (pennies - game.players[seat].pennies) if penny_points else points)
    return values


def aligned(world: Game, option: Command) -> None:
    """Order ``world``'s stock so that, after ``option``, the other seats draw the cards they would draw after
    any other option of the decision: a buy's penalty cards come from the bottom of the stock, and a seat that
    takes the live discard leaves the card it would have drawn to the bottom. In a sampled world the stock's
    order is unknown to the seat (its cards are dealt at random), so each option's worlds are as likely as
    before; only the pairing is closer: two options' differences are then less of the luck of the draw."""
    stock = world.stock
    if isinstance(option, Buy):
        k = min(world.rules.buy_penalty_cards, len(stock))
        if k:
            world.stock = stock[k:] + stock[:k]
    elif isinstance(option, TakeDiscard) and stock:
        world.stock = stock[-1:] + stock[:-1]


def rollout(game: Game, seat: int, option: Command, horizon: int | None = None) -> float:
    """Play ``option`` in ``game`` (changing it), then the round to its end with the shared policy for
    every seat: ``seat``'s points for the rest of the round. ``horizon``: stop at the start of the turn
    that many turns on, if the round goes on, and take the learned value of the seat's position then
    (``value.value``)."""
    round_index = game.round_index
    start = game.players[seat].score
    last = None if horizon is None else game.turn + horizon
    game.apply(option, trusted=True)
    while game.round_index == round_index and game.phase is not Phase.GAME_OVER:
        if last is not None and game.turn >= last and game.phase is Phase.PICK_UP:
            return float(game.players[seat].score - start) + learned.value(game, seat)
        game.apply(fast_choice(game, game.first_to_act()), trusted=True)
    return float(game.players[seat].score - start)


def seat_memory(game: Game, seat: int) -> SeatMemory | None:
    """What ``seat`` remembers of the present round, rebuilt by replaying the game's command log from its
    seed and showing the seat each view of the round; None when the log does not replay to ``game``
    (a game set up by hand, or a sampled world: then only the view is known)."""
    if not game.log:
        return None
    try:
        replayed = Game(game.n, game.rules, game.seed)
        memory = SeatMemory(seat)
        round_index = game.round_index
        for command in game.log:
            if replayed.round_index == round_index:
                memory.observe(replayed.view(seat))
            replayed.apply(command)
    except (RuleError, ValueError, LookupError):
        return None
    view = game.view(seat)
    if replayed.view(seat) != view:
        return None
    memory.observe(view)
    return memory


# --- the searching bot -------------------------------------------------------------------------------

DEFAULT_WORLDS = 64
"""Worlds a searched decision samples by default; every candidate is played out in each of them."""


class SearchBot(Remembering):
    """The shared policy with a determinized search over the decisions that shape a round: whether to
    take the live discard, whether to buy a card that goes with its hand, and which card to discard.

    Each such decision is judged by ``paired_values``: ``worlds`` worlds sampled from the seat's view and
    memory, every candidate played out to the round's end in each (common random numbers), a candidate's
    value its points for the rest of the round plus ``penny_points`` a penny spent (none in the game's
    last round). It plays the candidate of least mean value, but keeps the policy's own choice unless
    another beats it on the same worlds by more than ``margin`` standard errors of the paired difference.

    Candidates: take and decline, whatever the policy would do; buy and pass when the card offered is
    wild or goes with the hand (``strategies.fits``); in the meld phase the policy's meld if it has one
    (not searched), else its best ``max_discards`` discards, one per card. A draw, and a buy offer of a
    card that goes with nothing, are played without a search.

    Budget: ``worlds`` a searched decision (deterministic from ``seed``), or ``seconds``, a clock budget
    per searched decision instead (not reproducible). Memory: like ``SamplerBot``, one
    ``worlds.SeatMemory`` per seat, fed by ``observe`` and by the views it decides on."""

    def __init__(self, seed: int = 0, *, worlds: int = DEFAULT_WORLDS, seconds: float | None = None,
                 max_discards: int = 1, penny_points: float = 2.0, margin: float = 1.0) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.seconds = seconds
        self.max_discards = max_discards
        self.penny_points = penny_points
        self.margin = margin
        self.policy = PlanBot("early")
        self.decisions = 0
        self.overruled = 0

    def candidates(self, view: SeatView) -> list[Command]:
        """The commands searched, the policy's own choice first; one command alone is played unsearched."""
        seat = view.seat
        assert seat is not None
        choice = self.policy.choose(view)
        card = view.discard_top
        if view.phase is Phase.PICK_UP:
            return [choice, DeclineDiscard(seat)] if isinstance(choice, TakeDiscard) else [choice]
        if view.phase is Phase.BUY:
            if Buy(seat) not in view.legal or card is None or not fits(view, card):
                return [choice]
            return [choice, PassBuy(seat) if isinstance(choice, Buy) else Buy(seat)]
        if view.phase is not Phase.MELD or not isinstance(choice, Discard) or self.max_discards <= 1:
            return [choice]
        players = view.players
        ranked = ranked_discards(view.hand, [c for c in view.legal if isinstance(c, Discard)],
                                 view_table(view), any(p.down for p in players if p.seat != seat),
                                 view.spec, view.rules)
        out: list[Command] = [choice]
        seen = {(choice.card.rank, choice.card.suit)}
        for command in ranked:
            key = (command.card.rank, command.card.suit)
            if key not in seen:
                seen.add(key)
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
        last_round = view.round == view.rules.rounds[-1]
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        table = paired_values(view, self.memories[seat], candidates,
                              worlds=self.worlds if deadline is None else 1_000_000, rng=self.rng,
                              penny_points=0.0 if last_round else self.penny_points, deadline=deadline)
        best = pick(table, self.margin)
        if best:
            self.overruled += 1
        return candidates[best]


def pick(table: Sequence[Sequence[float]], margin: float) -> int:
    """The candidate of least mean value, unless it beats the first (the policy's choice) by no more than
    ``margin`` standard errors of their paired difference: then the first."""
    worlds = len(table[0])
    means = [sum(values) / worlds for values in table]
    best = min(range(len(table)), key=lambda i: (means[i], i))
    if best == 0 or worlds < 2:
        return 0
    diffs = [a - b for a, b in zip(table[0], table[best], strict=True)]
    gain = means[0] - means[best]
    var = sum((d - gain) ** 2 for d in diffs) / (worlds - 1)
    return best if gain > margin * (var / worlds) ** 0.5 else 0
