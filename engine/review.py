"""A review of one seat's play in a finished game: each decision it made, scored by a searcher from what the
seat knew at that moment (never the hidden cards), the choice it made and what that cost against the best,
with how sure the review is of it.

Points are the seat's expected points for the rest of the round after the option (lower is better, as the
score is); ``loss`` is the chosen option's expected points less the best option's (0 for the best choice),
``margin`` the half-width of its 95% interval: a decision is a mistake (``Mark.costly``) only when its loss is
clear of the noise, ``loss - margin > 0``. These are plain values, kept as JSON with the game
(``to_dict``/``from_dict``), shown by ``tenpennies replay --review`` and the terminal client's review and
replay viewer.

How sure: a kind that can play its options world by world (``Rolling``: both games here) has every option
played in the same worlds (common random numbers), and a decision is judged on the paired differences of its
options, world by world, which the luck of a world leaves alone. Worlds go where they decide something: a
first look for every option, then more worlds, a doubling at a time, only for the options whose interval
against the best still overlaps zero (the chosen one always among them), up to a cap. The decisions that may
yet be among the costliest are then looked at again, in the same worlds and more, up to a larger cap.
Decisions are scored in a pool of processes, each one walking the game from its seed and log; the marks are
the same whatever the number of processes.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import resource_tracker
from multiprocessing.pool import AsyncResult
from typing import Any, Protocol, runtime_checkable

from .games import GAMES
from .interface import Command, Game, Kind, Rules

Rollouts = Callable[[Sequence[Command], range], list[list[float]]]
"""``rollouts(options, worlds)``: each option's points in each world numbered in ``worlds`` (the same world
for a number, whichever options are played in it and whenever)."""


@runtime_checkable
class Rolling(Protocol):
    """A kind whose searcher plays options world by world (``option_rollouts``): what lets a review say how
    sure it is and spend its worlds where they decide something. A kind without it is reviewed by its
    ``option_values`` alone, every loss taken as sure."""

    def option_rollouts(self, game: Any, seat: int, seed: int) -> Rollouts: ...


@dataclass(frozen=True)
class Option:
    """One thing the seat could have done (its command's notation) and its expected points."""

    command: str
    points: float


@dataclass(frozen=True)
class Mark:
    """One decision of the reviewed seat: ``index`` is the position of its command in the game's command
    log (0-based), ``round`` the round (or deal) it fell in, ``options`` best first; ``loss`` what the
    chosen option cost against the best, ``margin`` the half-width of its 95% interval (0: not measured, a
    review kept before margins were, or a searcher without worlds; infinite: too few worlds to tell; for a
    chosen option that looked best, the interval against the next), ``worlds`` the most worlds an option of
    the decision was played in."""

    index: int
    round: int
    chosen: str
    options: tuple[Option, ...]
    loss: float
    margin: float = 0.0
    worlds: int = 0

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def costly(self) -> bool:
        """A mistake the review is sure of: its loss is clear of the noise."""
        return self.loss - self.margin > 0

    def listed(self, count: int) -> tuple[Option, ...]:
        """The ``count`` best options, the chosen one always among them (in place of the last if it ranks
        lower): what a list of a decision's options shows."""
        top = self.options[:count]
        if count < 1 or any(o.command == self.chosen for o in top):
            return top
        chosen = [o for o in self.options if o.command == self.chosen]
        return top[:count - 1] + tuple(chosen[:1])


@dataclass(frozen=True)
class Review:
    """The reviewed ``seat``'s decisions in log order (only those with more than one option), by
    ``searcher`` at ``budget`` (its own unit: rollouts or seconds, named in the searcher's docs) from
    ``seed`` (None: a review kept before its seed was); ``complete`` False: a review stopped part of the way
    (``Stopped``), never stored."""

    game_id: str
    seat: int
    searcher: str
    budget: int
    marks: tuple[Mark, ...]
    complete: bool = True
    seed: int | None = None

    def costliest(self, n: int) -> list[Mark]:
        """The ``n`` costliest of the decisions the review is sure are mistakes (``Mark.costly``), costliest
        first (ties in game order)."""
        costly = [m for m in self.marks if m.costly]
        return sorted(costly, key=lambda m: (-m.loss, m.index))[:n]

    @property
    def mistakes(self) -> int:
        """How many decisions the review is sure cost something."""
        return sum(1 for m in self.marks if m.costly)

    @property
    def total_loss(self) -> float:
        return sum(m.loss for m in self.marks)

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "searcher": self.searcher, "budget": self.budget,
                "complete": self.complete, "seed": self.seed,
                "marks": [{"index": m.index, "round": m.round, "chosen": m.chosen, "loss": m.loss,
                           "margin": None if math.isinf(m.margin) else m.margin, "worlds": m.worlds,
                           "options": [[o.command, o.points] for o in m.options]} for m in self.marks]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        seed = data.get("seed")
        return cls(str(data["game_id"]), int(data["seat"]), str(data["searcher"]), int(data["budget"]),
                   tuple(Mark(int(m["index"]), int(m["round"]), str(m["chosen"]),
                              tuple(Option(str(c), float(p)) for c, p in m["options"]), float(m["loss"]),
                              math.inf if (g := m.get("margin", 0.0)) is None else float(g),
                              int(m.get("worlds", 0)))
                         for m in data["marks"]), bool(data.get("complete", True)),
                   None if seed is None else int(seed))


class Stopped(Exception):
    """``review_game`` was stopped before its end (its ``stop`` said so): ``review`` holds the decisions
    scored so far (``complete`` False), to show but not to keep."""

    def __init__(self, review: Review) -> None:
        super().__init__(f"stopped after {len(review.marks)} decisions")
        self.review = review


def decisions(kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
              seat: int) -> list[int]:
    """The positions in ``commands`` of ``seat``'s decisions a review scores: its commands where it had more
    than one option (``kind.review_options``)."""
    game = kind.new(seats, rules, game_seed)
    found = []
    for index, command in enumerate(commands):
        if command.seat == seat and len(kind.review_options(game, seat, command)) > 1:
            found.append(index)
        game.apply(command, trusted=True)
    return found


FIRST_WORLDS = 8
"""The worlds of a decision's first look at each option: fewer make no interval worth the name; a clear
decision (most are) needs no more."""
SAME_IN = 32
"""Worlds that must all show the same difference before it is taken as sure (by the rule of three, what has
not happened in 32 worlds happens in fewer than one in ten)."""
TOLERANCE = 0.1
"""What is not worth telling apart, as a part of the spread of a world's points (a tenth: a few points of a
Ten Pennies round): two options closer than that are as good as each other."""


def half_width(differences: Sequence[float]) -> float:
    """The half-width of the 95% interval of the mean of ``differences`` (Student's t, by its Cornish-Fisher
    expansion: within 3% of the table from 5 values on); infinite for fewer than two, or for the same
    difference in every one of fewer than ``SAME_IN`` (a rare event, a life lost, may not have come yet)."""
    n = len(differences)
    spread = statistics.stdev(differences) if n > 1 else 0.0
    if n < 2 or (spread == 0 and n < SAME_IN):
        return math.inf
    z = 1.959964
    df = n - 1
    t = z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
    return t * spread / math.sqrt(n)


def paired(table: Sequence[Sequence[float]], i: int, j: int) -> tuple[float, float]:
    """Option ``i`` less option ``j`` over the worlds both were played in: (mean, 95% half-width)."""
    n = min(len(table[i]), len(table[j]))
    differences = [a - b for a, b in zip(table[i][:n], table[j][:n], strict=True)]
    return statistics.fmean(differences), half_width(differences)


def weigh(rollouts: Rollouts, options: Sequence[Command], most: int, precision: float = 1.0,
          table: list[list[float]] | None = None) -> list[list[float]]:
    """Each option's points world by world (option 0 the chosen one): ``FIRST_WORLDS`` worlds for every option
    (or ``table``, what an earlier look found, carried on), then, doubling the worlds up to ``most``, more for
    the options still in question: the best by mean, the chosen one, and every option that may yet be the
    best (its interval against the best reaches zero) by more than is worth telling (``TOLERANCE`` of the
    spread of a world's points on the first look). Done when only the best is in question, or when the chosen
    one is not the best, nothing else is in question, and the chosen one's loss is known within ``precision``
    times itself (1: clear of zero) or within what is worth telling."""
    count = len(options)
    table = rollouts(options, range(FIRST_WORLDS)) if table is None else [list(values) for values in table]
    worlds = max(len(values) for values in table)
    tolerance = TOLERANCE * statistics.pstdev([v for values in table for v in values[:FIRST_WORLDS]])
    while True:
        means = [statistics.fmean(values) for values in table]
        best = min(range(count), key=lambda i: (means[i], i))
        if len(table[best]) < worlds:  # a best that was left behind is caught up first, so it pairs in full
            table[best] += rollouts([options[best]], range(len(table[best]), worlds))[0]
            continue
        open_ = [i for i in range(count) if i != best and in_question(paired(table, i, best), tolerance)]
        loss, margin = paired(table, 0, best)
        settled = not open_ if best == 0 else worlds >= 2 * FIRST_WORLDS and not open_ and (
            margin <= precision * loss or loss + margin <= tolerance)  # a mistake is not called on a first look
        if settled or worlds >= most:
            return table
        grown = min(most, 2 * worlds)
        playing = sorted({0, best, *open_})
        for i in playing:  # one left behind earlier and in question again: caught up first
            if len(table[i]) < worlds:
                table[i] += rollouts([options[i]], range(len(table[i]), worlds))[0]
        for i, values in zip(playing, rollouts([options[i] for i in playing], range(worlds, grown)), strict=True):
            table[i] += values
        worlds = grown


def in_question(interval: tuple[float, float], tolerance: float) -> bool:
    """Whether an option whose (mean, half-width) interval against the best is ``interval`` may yet be the
    best (the interval reaches zero) by more than ``tolerance`` (its far end is beyond it)."""
    mean, half = interval
    return mean - half <= 0 < mean + half - tolerance


Table = list[list[float]]


def score_decision(kind: Kind[Any], game: Game, seat: int, chosen: Command, index: int, *, budget: int,
                   seed: int, precision: float = 1.0) -> Mark:
    """One decision: ``chosen`` (command ``index`` of the log) against the other options of ``game`` as it
    stood, each valued from ``seat``'s information alone; options best first (ties keep the kind's order,
    the chosen one first). A ``Rolling`` kind's options are weighed (``weigh``, to ``precision``) from a
    first look of ``FIRST_WORLDS`` worlds each, up to ``budget`` worlds for the options in question; another
    kind's are its ``option_values`` at ``budget`` (its own unit), the loss taken as sure (margin 0)."""
    return _scored(kind, game, seat, chosen, index, budget, seed, precision, None)[0]


def _scored(kind: Kind[Any], game: Game, seat: int, chosen: Command, index: int, budget: int, seed: int,
            precision: float, table: Table | None) -> tuple[Mark, Table | None]:
    """``score_decision``, carrying on from ``table`` (an earlier look's), and the table it comes to."""
    options = list(kind.review_options(game, seat, chosen))
    if isinstance(kind, Rolling):
        table = weigh(kind.option_rollouts(game, seat, seed), options, max(FIRST_WORLDS, budget), precision, table)
        values = [statistics.fmean(v) for v in table]
        worlds = max(len(v) for v in table)
    else:
        values, worlds = kind.option_values(game, seat, options, budget=budget, seed=seed), 0
    order = sorted(range(len(options)), key=lambda i: (values[i], i))
    ranked = tuple(Option(kind.format_command(options[i]), values[i]) for i in order)
    loss, margin = paired(table, 0, order[0]) if table and order[0] != 0 else (0.0, 0.0)
    if table and order[0] == 0 and len(options) > 1:  # the chosen is the best: how sure, against the next
        margin = paired(table, order[1], 0)[1]
    mark = Mark(index, game.round_number, kind.format_command(chosen), ranked, max(0.0, loss), margin, worlds)
    return mark, table


REFINE = 12
"""How many decisions a review looks at again at a time, those that may yet be among the five costliest
(their loss's interval reaches above the fifth-largest lower end): a player reads the costliest first, and
what sets them apart is a few points of loss. Each look doubles the worlds of the one before, up to
``REFINE_FACTOR`` times the budget, until the loss is known within ``REFINE_PRECISION`` of itself."""
REFINE_FACTOR = 4
REFINE_PRECISION = 0.2
SHOWN = 5
"""The costliest decisions whose order a review makes sure of (``REFINE``)."""


def upper(mark: Mark) -> float:
    """The far end of the interval of what the decision may have cost: the chosen one's loss and its margin,
    or, for a chosen one that looked best, how far another may yet be better."""
    if mark.loss > 0 or len(mark.options) < 2:
        return mark.loss + mark.margin
    return mark.margin - (mark.options[1].points - mark.options[0].points)


def to_refine(marks: dict[int, Mark], count: int, sure: int = SHOWN) -> list[int]:
    """The log positions of the (at most ``count``) decisions that may yet be among the ``sure`` costliest:
    the reach of their loss (``upper``) above the ``sure``-th largest lower end, the farthest first (the
    least known of the likely costliest); in game order."""
    lows = sorted((m.loss - m.margin for m in marks.values()), reverse=True)
    bar = max(0.0, lows[sure - 1]) if len(lows) >= sure else 0.0
    reach = sorted((i for i, m in marks.items() if upper(m) > bar),
                   key=lambda i: (-upper(marks[i]), i))
    return sorted(reach[:count])


class _Walk:
    """A game walked along its log to the decisions a review scores, rebuilt from its seed when asked for an
    earlier one (a worker of the pool takes decisions in any order)."""

    def __init__(self, kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                 seat: int) -> None:
        self.kind, self.seats, self.rules, self.game_seed = kind, seats, rules, game_seed
        self.commands, self.seat = commands, seat
        self.game = kind.new(seats, rules, game_seed)
        self.at = 0

    def score(self, index: int, budget: int, seed: int, precision: float,
              table: Table | None) -> tuple[Mark, Table | None]:
        if index < self.at:
            self.game, self.at = self.kind.new(self.seats, self.rules, self.game_seed), 0
        for command in self.commands[self.at:index]:
            self.game.apply(command, trusted=True)
        self.at = index
        return _scored(self.kind, self.game, self.seat, self.commands[index], index, budget, seed, precision, table)


_walk: _Walk | None = None  # a pool worker's game, set up once by ``_set_up``


def _set_up(name: str, seats: int, rules: Rules, game_seed: int, commands: Sequence[Command], seat: int) -> None:
    global _walk
    _walk = _Walk(GAMES[name], seats, rules, game_seed, commands, seat)


def _score(index: int, budget: int, seed: int, precision: float, table: Table | None) -> tuple[Mark, Table | None]:
    assert _walk is not None, "a worker is set up before it scores"
    return _walk.score(index, budget, seed, precision, table)


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def _start_tracker() -> None:
    """Start multiprocessing's resource tracker, handing it a real stderr: a screen may stand in for stderr
    with a stream of no file of its own (Textual does), and the tracker, started with the pool's first
    process, would be handed that stream's bad file number and fail the pool."""
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, ValueError, OSError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    standing, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = standing


POOL_FROM = 8
"""Fewer decisions than this are scored in this process: starting workers would cost more than it saves."""


Job = tuple[int, int, int, float, "Table | None"]  # (log position, budget, seed, precision, table so far)


def review_game(kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                seat: int, *, budget: int | None = None, seed: int = 0,
                progress: Callable[[int, int], object] | None = None, stop: Callable[[], bool] | None = None,
                game_id: str = "", refine: int = REFINE, workers: int | None = None) -> Review:
    """``seat``'s play in the game of ``kind`` dealt from ``game_seed`` and played by ``commands``, reviewed
    decision by decision (``score_decision``) by the kind's searcher: a first look at every decision (up to
    twice ``FIRST_WORLDS`` worlds, and no more than ``budget``; None: the searcher's default), then looks again
    at the ``refine`` (at most, each time) that may yet be among the five costliest, doubling the worlds each
    time up to ``REFINE_FACTOR`` times the budget (``to_refine``). Deterministic: decision ``i`` of the log is
    searched with seed ``seed * 1_000_003 + i`` (each look carries the one before on, in the same worlds),
    whatever ``workers`` (processes; None: every core this process may use, 1: this process alone).
    ``progress(done, total)`` is called before the first decision and after each (``total`` grows by each
    look again as it is planned); ``stop()`` is asked before each (and while the pool works), and True raises
    ``Stopped`` with the review so far. Raises RuleError for a log that does not replay."""
    searcher, default = kind.searcher
    spend = default if budget is None else budget
    wanted = decisions(kind, seats, rules, game_seed, commands, seat)
    marks: dict[int, Mark] = {}
    tables: dict[int, Table | None] = {}
    total = len(wanted)
    done = 0

    def stopped() -> Stopped:
        return Stopped(Review(game_id, seat, searcher, spend, tuple(marks[i] for i in sorted(marks)),
                              complete=False, seed=seed))

    def scored(index: int, result: tuple[Mark, Table | None]) -> None:
        nonlocal done
        marks[index], tables[index] = result
        done += 1
        if progress is not None:
            progress(done, total)

    def looks() -> Iterator[list[Job]]:
        """Each look's jobs, planned once the one before is scored."""
        nonlocal total
        most = min(spend, 2 * FIRST_WORLDS) if isinstance(kind, Rolling) else spend
        yield [(i, most, seed * 1_000_003 + i, 1.0, None) for i in wanted]
        while refine > 0 and isinstance(kind, Rolling) and most < spend * REFINE_FACTOR:
            most = min(spend * REFINE_FACTOR, max(2 * most, spend))
            again = to_refine(marks, refine)
            if not again:
                return
            total += len(again)
            yield [(i, most, seed * 1_000_003 + i, REFINE_PRECISION, tables[i]) for i in again]

    count = default_workers() if workers is None else workers
    pooled = count > 1 and len(wanted) >= POOL_FROM and GAMES.get(kind.name) is kind
    if progress is not None:
        progress(0, total)
    if not pooled:
        walk = _Walk(kind, seats, rules, game_seed, commands, seat)
        for jobs in looks():
            for job in jobs:
                if stop is not None and stop():
                    raise stopped()
                scored(job[0], walk.score(*job))
    else:
        _start_tracker()
        # multiprocessing's Pool, not concurrent.futures': a review stopped (a player's escape) ends its workers
        # at once (terminate), where an executor's shutdown lets the rollouts under way run on to their end
        pool = multiprocessing.get_context("spawn").Pool(
            count, initializer=_set_up, initargs=(kind.name, seats, rules, game_seed, list(commands), seat))
        try:
            for jobs in looks():
                if stop is not None and stop():
                    raise stopped()
                pending: dict[AsyncResult[tuple[Mark, Table | None]], int] = {
                    pool.apply_async(_score, job): job[0] for job in jobs}
                while pending:
                    finished = sorted((r for r in pending if r.ready()), key=pending.__getitem__)
                    if not finished:
                        next(iter(pending)).wait(0.2)
                    for result in finished:
                        scored(pending.pop(result), result.get())
                    if pending and stop is not None and stop():
                        raise stopped()
        finally:
            pool.terminate()
            pool.join()
    return Review(game_id, seat, searcher, spend, tuple(marks[i] for i in wanted), seed=seed)
