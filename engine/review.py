"""A review of one seat's play in a finished game: each decision it made, scored by a searcher from what the
seat knew at that moment (never the hidden cards), the choice it made and what that cost against the best,
with how sure the review is of it.

Points are the seat's expected points for the rest of the round after the option (lower is better, as the
score is); ``loss`` is the chosen option's expected points less the best option's (0 for the best choice),
``margin`` the half-width of its 95% interval: a decision's loss is clear of its noise (``Mark.costly``) when
``loss - margin > 0`` (``Mark.least``, the low end of the interval, above zero), and the review calls it a
mistake (``Review.called``) only when it is also clear of the luck of the game's other decisions: of some
hundreds looked at, a few in a hundred clear their own interval by chance, so the review keeps those of the
clear ones that a false discovery rate of ``FALSE_CALLS`` allows (Benjamini-Hochberg). These are
plain values, kept as JSON with the game (``to_dict``/``from_dict``),
shown by ``tenpennies replay --review`` and the terminal client's review and replay viewer.

How sure: a kind that can play its options world by world (``Rolling``: both games here) has every option
played in the same worlds (common random numbers), and a decision is judged on the paired differences of its
options, world by world, which the luck of a world leaves alone. Worlds go where they decide something: a
first look at every option of every decision (``first_look``: 8 to 16 worlds; a mistake is called on 16), then
looks again, each doubling the worlds of the decisions whose place among the five costliest is still in
question (``to_refine``: those that may yet be among them, and those of them that may yet fall out), and of
their options only those still in question (``weigh``), until the five are told apart or the review has spent
its rollouts (``SPEND``); a decision at that edge may be played in up to ``DEEPER`` times the budget's worlds.
The five are ranked by what each surely cost (``Mark.least``), which the luck of a few worlds moves least, and
those no interval tells from one left out are said to be too close to call (``Review.too_close``).

A review is a pure function of the game, its seed and its budget (``Plan``, ``Walk``): the same marks
whatever runs the decisions' jobs and in whatever order, in this process (``review_game``) or in a pool of
processes (the client's ``client.reviews``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import zip_longest
from typing import Any, Protocol, runtime_checkable

from .interface import Command, Game, Kind, Rules

Rollouts = Callable[[Sequence[Command], range], list[list[float]]]
"""``rollouts(options, worlds)``: each option's points in each world numbered in ``worlds`` (the same world
for a number, whichever options are played in it and whenever)."""
Table = list[list[float]]
"""A decision's options' points, world by world (option 0 the chosen one)."""


@runtime_checkable
class Rolling(Protocol):
    """A kind whose searcher plays options world by world (``option_rollouts``): what lets a review say how
    sure it is and spend its worlds where they decide something. A kind without it is reviewed by its
    ``option_values`` alone, every loss taken as sure."""

    def option_rollouts(self, game: Any, seat: int, seed: int) -> Rollouts: ...


class Memory(Protocol):
    """What a seat remembers of a game: shown each of its views in turn (``observe``); ``copy``, what it
    holds now, to keep."""

    def observe(self, view: Any) -> None: ...

    def copy(self) -> Memory: ...


@runtime_checkable
class Recalling(Protocol):
    """A ``Rolling`` kind whose worlds follow what the seat remembers of the game beyond its present view
    (``recall(seat)``: a memory shown each of the seat's views in turn), handed to ``option_rollouts``: a
    review walking the game keeps it as it goes, where each decision would rebuild it from the game's start."""

    def recall(self, seat: int) -> Memory: ...

    def option_rollouts(self, game: Any, seat: int, seed: int, memory: Any = None) -> Rollouts: ...



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
    review kept before margins were, or a searcher without worlds; infinite: too few worlds to tell, as on a
    first look that would call a mistake; for a chosen option that looked best, the interval against the
    next), ``worlds`` the most worlds an option of the decision was played in."""

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
    def least(self) -> float:
        """What the decision surely cost (95%): the low end of its loss's interval (below zero: maybe nothing)."""
        return self.loss - self.margin

    @property
    def costly(self) -> bool:
        """Its loss is clear of its own noise: a mistake, if the decision is looked at alone (a review calls it
        one only if it also stands out among the game's decisions: ``Review.called``)."""
        return self.least > 0

    @property
    def chance(self) -> float:
        """How likely a loss this clear of zero would be, were the decision no mistake at all (its one-sided p,
        Student's t on ``worlds - 1`` degrees of freedom, as its margin was made: ``half_width``); 0 for a loss
        taken as sure (a margin of 0), 1 for no loss or one too little known (an infinite margin)."""
        if self.loss <= 0 or math.isinf(self.margin):
            return 1.0
        if self.margin <= 0:
            return 0.0
        df = self.worlds - 1 if self.worlds > 1 else math.inf
        return t_tail(t95(df) * self.loss / self.margin, df)

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

    @cached_property
    def called(self) -> frozenset[int]:
        """The log positions of the decisions the review calls mistakes (``called_mistakes``)."""
        return called_mistakes(self.marks)

    def costliest(self, n: int) -> list[Mark]:
        """The ``n`` decisions the review calls mistakes (``called``) that surely cost most, by the low end of
        their interval (``Mark.least``; ties in game order): a decision seen in few worlds, whose cost the next
        seed may halve, ranks below one as costly that many worlds agree on."""
        return self._ranked[:n]

    def too_close(self, n: int) -> list[Mark]:
        """Those of the ``n`` costliest (``costliest``) whose place among them is too close to call: their
        intervals cannot tell what they cost from what the first mistake left out cost (``apart``), so another
        seed may list the one for the other."""
        listed = self._ranked
        return [m for m in listed[:n] if n < len(listed) and not apart(m, listed[n])]

    @cached_property
    def _ranked(self) -> list[Mark]:
        return ranked(m for m in self.marks if m.index in self.called)

    @property
    def mistakes(self) -> int:
        """How many decisions the review calls mistakes (``called``)."""
        return len(self.called)

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
    return list(_options(kind, seats, rules, game_seed, commands, seat))


def _options(kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
             seat: int) -> dict[int, int]:
    """``decisions``, each with how many options it had."""
    game = kind.new(seats, rules, game_seed)
    found = {}
    for index, command in enumerate(commands):
        if command.seat == seat and (count := len(kind.review_options(game, seat, command))) > 1:
            found[index] = count
        game.apply(command, trusted=True)
    return found


FALSE_CALLS = 0.1
"""The share of the mistakes a review calls that may be no mistake at all, at most (in expectation: the false
discovery rate of the Benjamini-Hochberg procedure, ``called_mistakes``). A review tests some ninety (Thirty-One)
to three hundred (Ten Pennies) decisions, and each one's 95% interval leaves it a chance in forty of looking
costly by luck. Of the mistakes called by their intervals alone, 18 of 34 of Thirty-One's and 38% of Ten
Pennies' held up in a review four times as long; of those called so, 10 of 12 and 47% (``bench/review_bench.py
--reference 4``; much of Ten Pennies' rest is the learned value's, against rollouts played out)."""
Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval (a margin is its half-width)."""


def called_mistakes(marks: Sequence[Mark], rate: float = FALSE_CALLS) -> frozenset[int]:
    """The log positions of the decisions among ``marks`` (every decision a review looked at) that it calls
    mistakes: those clear of their own noise (``Mark.costly``) that the Benjamini-Hochberg procedure keeps at a
    false discovery rate of ``rate``: the ``k`` least likely by chance (``Mark.chance``), for the largest ``k``
    whose ``k``-th chance is at most ``k * rate / len(marks)``. A review of a few decisions calls as the
    intervals do; of hundreds, a mistake must stand out from what hundreds of fair choices show by luck."""
    chances = sorted((m.chance, m.index) for m in marks if m.costly)
    count = len(marks)
    kept = max((k for k, (p, _) in enumerate(chances, 1) if p <= k * rate / count), default=0)
    return frozenset(index for _, index in chances[:kept])


FIRST_WORLDS = 8
"""The worlds of a decision's first look at each option: fewer make no interval worth the name; a clear
decision (most are) needs no more."""
FIRST_ROLLOUTS = 24
"""A review's first look at a decision plays about this many rollouts, in ``FIRST_WORLDS`` to ``SURE_FROM``
worlds an option (``first_look``): a choice of two, the commonest (take or decline, buy or pass) and the
one whose worlds differ most, is looked at in more worlds than a choice of four."""
SURE_FROM = 2 * FIRST_WORLDS
"""The fewest worlds a mistake is called on: the first look's interval is a guide to where worlds go, not a
verdict (its margin is shown as unknown, ``math.inf``, where it would call a mistake)."""
SAME_IN = 32
"""Worlds that must all show the same difference before it is taken as sure (by the rule of three, what has
not happened in 32 worlds happens in fewer than one in ten)."""
TOLERANCE = 0.1
"""What is not worth telling apart, as a part of the spread of a world's points (a tenth: a few points of a
Ten Pennies round): two options closer than that are as good as each other."""


def first_look(options: int) -> int:
    """The worlds of the first look at a decision of ``options`` options (``FIRST_ROLLOUTS``)."""
    return max(FIRST_WORLDS, min(SURE_FROM, FIRST_ROLLOUTS // max(1, options)))


def half_width(differences: Sequence[float], same_in: int = SAME_IN) -> float:
    """The half-width of the 95% interval of the mean of ``differences`` (Student's t, by its Cornish-Fisher
    expansion: within 3% of the table from 5 values on); infinite for fewer than two, or for the same
    difference in every one of fewer than ``same_in`` (a rare event, a life lost, may not have come yet)."""
    n = len(differences)
    spread = statistics.stdev(differences) if n > 1 else 0.0
    if n < 2 or (spread == 0 and n < same_in):
        return math.inf
    return t95(n - 1) * spread / math.sqrt(n)


def t95(df: float) -> float:
    """Student's t quantile of a two-sided 95% interval on ``df`` degrees of freedom, by its Cornish-Fisher
    expansion (within 3% of the table from 4 on)."""
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def t_tail(t: float, df: float) -> float:
    """The chance that Student's t on ``df`` degrees of freedom exceeds ``t`` (t >= 0), by Wallace's normal
    approximation of t (its tail within a few percent of the table's from 10 degrees of freedom on)."""
    z = t if math.isinf(df) else (8 * df + 1) / (8 * df + 3) * math.sqrt(df * math.log1p(t * t / df))
    return statistics.NormalDist().cdf(-z)


def paired(table: Sequence[Sequence[float]], i: int, j: int, same_in: int = SAME_IN) -> tuple[float, float]:
    """Option ``i`` less option ``j`` over the worlds both were played in: (mean, 95% half-width)."""
    n = min(len(table[i]), len(table[j]))
    differences = [a - b for a, b in zip(table[i][:n], table[j][:n], strict=True)]
    return statistics.fmean(differences), half_width(differences, same_in)


def weigh(rollouts: Rollouts, options: Sequence[Command], most: int, precision: float = 1.0,
          table: Table | None = None) -> Table:
    """Each option's points world by world (option 0 the chosen one): ``FIRST_WORLDS`` worlds for every option
    (or ``table``, what an earlier look found, carried on), then, doubling the worlds up to ``most``, more for
    the options still in question: the best by mean, the chosen one, and every option that may yet be the
    best (its interval against the best reaches zero) by more than is worth telling (``TOLERANCE`` of the
    spread of a world's points on the first look). Done when only the best is in question, or when the chosen
    one is not the best, nothing else is in question, and the chosen one's loss is known within ``precision``
    times itself (1: clear of zero) or within what is worth telling."""
    count = len(options)
    table = rollouts(options, range(min(FIRST_WORLDS, most))) if table is None else [list(values) for values in table]
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
        settled = not open_ if best == 0 else worlds >= SURE_FROM and not open_ and (
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


def judged(table: Table, same_in: int = SAME_IN) -> tuple[list[int], float, float]:
    """A decision's options by their mean points, best first (ties in their order, the chosen one first), and
    the chosen one's loss against the best with the half-width of its interval; for a chosen one that looks
    best, a loss of 0 and the half-width of its interval against the next."""
    means = [statistics.fmean(values) for values in table]
    order = sorted(range(len(table)), key=lambda i: (means[i], i))
    if order[0] != 0:
        loss, margin = paired(table, 0, order[0], same_in)
        return order, max(0.0, loss), margin
    return order, 0.0, paired(table, order[1], 0, same_in)[1] if len(table) > 1 else 0.0


def score_decision(kind: Kind[Any], game: Game, seat: int, chosen: Command, index: int, *, budget: int,
                   seed: int, precision: float = 1.0, memory: Memory | None = None) -> Mark:
    """One decision: ``chosen`` (command ``index`` of the log) against the other options of ``game`` as it
    stood, each valued from ``seat``'s information alone; options best first (ties keep the kind's order,
    the chosen one first). A ``Rolling`` kind's options are weighed (``weigh``, to ``precision``) from a
    first look of ``FIRST_WORLDS`` worlds each, up to ``budget`` worlds for the options in question (a
    ``Recalling`` kind's worlds from ``memory``, what the seat remembers then: None, rebuilt from the game);
    another kind's are its ``option_values`` at ``budget`` (its own unit), the loss taken as sure (margin 0)."""
    return _scored(kind, game, seat, chosen, index, budget, seed, precision, None, memory)[0]


def _scored(kind: Kind[Any], game: Game, seat: int, chosen: Command, index: int, budget: int, seed: int,
            precision: float, table: Table | None, memory: Memory | None) -> tuple[Mark, Table | None]:
    """``score_decision``, carrying on from ``table`` (an earlier look's), and the table it comes to."""
    options = list(kind.review_options(game, seat, chosen))
    if isinstance(kind, Rolling):
        rollouts = kind.option_rollouts(game, seat, seed, memory) if isinstance(kind, Recalling) \
            else kind.option_rollouts(game, seat, seed)
        table = weigh(rollouts, options, max(FIRST_WORLDS, budget), precision, table)
        order, loss, margin = judged(table)
        values = [statistics.fmean(v) for v in table]
        worlds = max(len(v) for v in table)
        if loss > 0 and worlds < SURE_FROM:
            margin = math.inf  # a first look calls no mistake
    else:
        values = kind.option_values(game, seat, options, budget=budget, seed=seed)
        order = sorted(range(len(options)), key=lambda i: (values[i], i))
        loss, margin, worlds = max(0.0, values[0] - values[order[0]]), 0.0, 0
    ranked = tuple(Option(kind.format_command(options[i]), values[i]) for i in order)
    return Mark(index, game.round_number, kind.format_command(chosen), ranked, loss, margin, worlds), table


# --- a whole game --------------------------------------------------------------------------------------

SHOWN = 5
"""The costliest decisions a review makes sure of: a player reads them first."""
REFINE = 12
"""The most decisions a look again doubles the worlds of (``to_refine``)."""
SPEND = 4
"""The rollouts of a review's looks again, at most (checked before each): a ``SPEND``-th of its budget's worlds
a decision, on average, beyond the first look's (``first_look``)."""
DEEPER = 2
"""The most worlds an option of a decision at the edge of the five is played in, as a multiple of the budget:
the five costliest of most games cost within a few points of each other, and more worlds for the few in
question there steady the list more than more decisions looked at again; but the deeper, the fewer decisions
get the worlds a mistake is called on (the ten games of ``bench/review_bench.py``, three seeds each: the lists
of two seeds shared 72 of 150 up to the budget, 92 at 2, 96 at 4; the mistakes both seeds called, 7.4, 6.6 and
5.2 a pair)."""
SCREEN = 1.5
"""How far beyond its 95% margin a decision outside the five may yet reach, for a look again: of some three
hundred decisions a game, a twentieth fall outside their interval, and a mistake missed on its first look is
missed for good."""


def upper(mark: Mark, wide: float = 1.0) -> float:
    """The far end of the interval of what the decision may have cost: the chosen one's loss and its margin,
    or, for a chosen one that looked best, how far another may yet be better; ``wide``: the margin so many
    times over."""
    if mark.loss > 0 or len(mark.options) < 2:
        return mark.loss + wide * mark.margin
    return wide * mark.margin - (mark.options[1].points - mark.options[0].points)


def ranked(marks: Iterable[Mark]) -> list[Mark]:
    """The sure mistakes among ``marks`` by what each surely cost (``Mark.least``), the most first, ties in
    game order: the order of a review's costliest."""
    return sorted((m for m in marks if m.costly), key=lambda m: (-m.least, m.index))


def apart(a: Mark, b: Mark) -> bool:
    """Whether decision ``a`` surely cost more than ``b``: the 95% interval of the difference of their costs
    (their worlds drawn apart, so their margins add as squares) is clear of zero."""
    return a.loss - b.loss > math.hypot(a.margin, b.margin)


def to_refine(marks: dict[int, Mark], count: int, sure: int = SHOWN, most: int | None = None) -> list[int]:
    """The log positions of the (at most ``count``) decisions whose place among the ``sure`` costliest is in
    question, the lower end of each interval ranking them (``Mark.least``): those outside the first ``sure``
    whose interval, ``SCREEN`` times as wide, reaches above the last of them (above zero, while fewer than
    ``sure`` are sure mistakes), the farthest reach first, two in turn with one of those among the first
    whose interval reaches below what an outsider may yet cost, the lowest first (as LUCB picks them: the
    outsider likeliest to belong and the one inside likeliest not to; more outsiders, as a decision missed on
    its first look is missed for good); in game order. ``most``: a decision played in that many worlds is not
    looked at again."""
    top = [m.index for m in ranked(marks.values())[:sure]]
    bar = marks[top[-1]].least if len(top) == sure else 0.0
    reach = {i: upper(m, SCREEN) for i, m in marks.items()}
    outside = [i for i in marks if i not in top]
    open_ = {i for i in marks if most is None or marks[i].worlds < most}
    farthest = max((reach[i] for i in outside), default=-math.inf)
    outsiders = sorted((i for i in outside if i in open_ and reach[i] > bar), key=lambda i: (-reach[i], i))
    insiders = sorted((i for i in top if i in open_ and marks[i].least < farthest),
                      key=lambda i: (marks[i].least, i))
    picked = [i for group in zip_longest(outsiders[::2], outsiders[1::2], insiders) for i in group if i is not None]
    return sorted(picked[:count])


@dataclass(frozen=True)
class Job:
    """One decision's look: its log position, the most worlds an option is played in, its searcher's seed, the
    precision it is weighed to, and the table of an earlier look carried on (None: the first look)."""

    index: int
    most: int
    seed: int
    precision: float
    table: Table | None


Scored = tuple[Mark, "Table | None"]
Scorer = Callable[[Sequence[Job]], Iterable[tuple[Job, Scored]]]
"""Where a look's jobs are scored: each job with its result (``Walk.score``) as it is done, in any order
(``review_game``'s own, in this process; the client's pool of processes); a scorer asked to stop may end
early."""


class Walk:
    """A game walked along its log to the decisions a review scores, with what the seat remembers (a
    ``Recalling`` kind's): ``score(job)``, a pure function of the game and the job. A scorer may take the jobs
    in any order (each look again starts again from the game's first decisions): the walk keeps the game as
    it stood at each decision scored (a copy, where the kind's games copy) and goes back to the nearest."""

    def __init__(self, kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                 seat: int) -> None:
        self.kind, self.seats, self.rules, self.game_seed = kind, seats, rules, game_seed
        self.commands, self.seat = commands, seat
        self.kept: dict[int, tuple[Any, Memory | None]] = {}
        self._start()

    def _start(self) -> None:
        self.game: Any = self.kind.new(self.seats, self.rules, self.game_seed)
        self.at = 0
        self.memory = self.kind.recall(self.seat) if isinstance(self.kind, Recalling) else None
        if self.memory is not None:
            self.memory.observe(self.game.view(self.seat))

    def _back(self, index: int) -> None:
        """Back to the nearest decision kept at or before ``index``, or to the game's start."""
        at = max((i for i in self.kept if i <= index), default=None)
        if at is None:
            self._start()
            return
        game, memory = self.kept[at]
        self.game, self.memory, self.at = game.copy(), None if memory is None else memory.copy(), at

    def score(self, job: Job) -> Scored:
        if job.index < self.at:
            self._back(job.index)
        game, memory = self.game, self.memory
        for command in self.commands[self.at:job.index]:
            game.apply(command, trusted=True)
            if memory is not None:
                memory.observe(game.view(self.seat))
        self.at = job.index
        if job.index not in self.kept and hasattr(game, "copy"):
            self.kept[job.index] = (game.copy(), None if memory is None else memory.copy())
        return _scored(self.kind, game, self.seat, self.commands[job.index], job.index, job.most, job.seed,
                       job.precision, job.table, memory)


class Plan:
    """A review in the making: its looks at the seat's decisions (``looks``: each look's jobs, planned once the
    one before is ``scored``), and the review they come to (``review``). Decision ``i`` of the log is searched
    with seed ``seed * 1_000_003 + i`` (each look carries the one before on, in the same worlds)."""

    def __init__(self, kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                 seat: int, *, budget: int | None = None, seed: int = 0, refine: int = REFINE,
                 game_id: str = "") -> None:
        self.kind, self.seat, self.seed, self.refine, self.game_id = kind, seat, seed, refine, game_id
        self.searcher, default = kind.searcher
        self.budget = default if budget is None else budget
        self.options = _options(kind, seats, rules, game_seed, commands, seat)
        self.wanted = list(self.options)
        self.marks: dict[int, Mark] = {}
        self.tables: dict[int, Table | None] = {}
        self.total = len(self.wanted)  # jobs planned so far
        self.done = 0

    def looks(self) -> Iterator[list[Job]]:
        """Each look's jobs: the first look at every decision, then the looks again (``to_refine``), doubling
        the worlds of the decisions in question up to ``DEEPER`` times the budget, while the rollouts they
        spent are within ``SPEND``'s share of it."""
        if not isinstance(self.kind, Rolling):
            yield [Job(i, self.budget, self.seed * 1_000_003 + i, 1.0, None) for i in self.wanted]
            return
        yield [Job(i, min(self.budget, first_look(self.options[i])), self.seed * 1_000_003 + i, 1.0, None)
               for i in self.wanted]
        allotment = self.spent() + self.budget * len(self.wanted) // SPEND
        settled: set[int] = set()  # looked at again and given no more worlds: nothing of it is in question
        deepest = DEEPER * self.budget
        while self.refine > 0 and self.spent() < allotment:
            sizing = self.sizing()
            again = to_refine({i: m for i, m in sizing.items() if i not in settled}, self.refine, most=deepest)
            if not again:
                return
            self.total += len(again)
            worlds = {i: self.marks[i].worlds for i in again}
            yield [Job(i, min(deepest, 2 * worlds[i]), self.seed * 1_000_003 + i, 0.0, self.tables[i])
                   for i in again]
            settled.update(i for i in again if self.marks[i].worlds == worlds[i])

    def sizing(self) -> dict[int, Mark]:
        """The marks as the looks again weigh them: with their intervals as the worlds show them, where a mark
        shows its margin as unknown (a first look's, which calls no mistake; the same difference in every
        world, which only more worlds make sure of, and only where a rare event decides: they go where the
        costliest are in question first)."""
        out = {}
        for i, mark in self.marks.items():
            table = self.tables[i]
            if table is not None and math.isinf(mark.margin):
                mark = Mark(mark.index, mark.round, mark.chosen, mark.options, mark.loss, judged(table, 2)[2],
                            mark.worlds)
            out[i] = mark
        return out

    def spent(self) -> int:
        """The rollouts played so far."""
        return sum(len(values) for table in self.tables.values() if table is not None for values in table)

    def scored(self, job: Job, result: Scored) -> None:
        self.marks[job.index], self.tables[job.index] = result
        self.done += 1

    def review(self, complete: bool = True) -> Review:
        marks = (self.marks[i] for i in self.wanted) if complete else (self.marks[i] for i in sorted(self.marks))
        return Review(self.game_id, self.seat, self.searcher, self.budget, tuple(marks), complete, self.seed)


def review_game(kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                seat: int, *, budget: int | None = None, seed: int = 0,
                progress: Callable[[int, int], object] | None = None, stop: Callable[[], bool] | None = None,
                game_id: str = "", refine: int = REFINE, scorer: Callable[[Walk], Scorer] | None = None) -> Review:
    """``seat``'s play in the game of ``kind`` dealt from ``game_seed`` and played by ``commands``, reviewed
    decision by decision (``score_decision``) by the kind's searcher: a first look at every decision
    (``FIRST_WORLDS`` worlds an option; ``budget`` None: the searcher's default), then looks again at the
    ``refine`` (at most, each time) whose place among the five costliest is in question (``Plan``), up to
    ``DEEPER`` times the budget's worlds.
    Deterministic: the same review for the same game, ``budget`` and ``seed``, whatever scores the jobs
    (``scorer``, made from a ``Walk`` of this game: None, that walk in this process).
    ``progress(done, total)`` is called before the first decision and after each (``total`` grows by each
    look again as it is planned); ``stop()`` is asked before each (and between the scorer's results), and True
    raises ``Stopped`` with the review so far. Raises RuleError for a log that does not replay."""
    plan = Plan(kind, seats, rules, game_seed, commands, seat, budget=budget, seed=seed, refine=refine,
                game_id=game_id)
    walk = Walk(kind, seats, rules, game_seed, commands, seat)
    score = scorer(walk) if scorer is not None else _in_turn(walk, stop)
    if progress is not None:
        progress(0, plan.total)
    for jobs in plan.looks():
        if stop is not None and stop():
            raise Stopped(plan.review(complete=False))
        for job, result in score(jobs):
            plan.scored(job, result)
            if progress is not None:
                progress(plan.done, plan.total)
            if stop is not None and stop():
                raise Stopped(plan.review(complete=False))
        if len(plan.marks) < len(plan.wanted) or plan.done < plan.total:  # the scorer ended early: asked to stop
            raise Stopped(plan.review(complete=False))
    return plan.review()


def _in_turn(walk: Walk, stop: Callable[[], bool] | None) -> Scorer:
    """A scorer that scores each job in this process, in turn, and ends at a ``stop``."""
    def score(jobs: Sequence[Job]) -> Iterator[tuple[Job, Scored]]:
        for job in jobs:
            if stop is not None and stop():
                return
            yield job, walk.score(job)
    return score
