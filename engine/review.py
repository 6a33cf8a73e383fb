"""A review of one seat's play in a finished game: each decision it made, scored by a searcher from what the
seat knew at that moment (never the hidden cards), the choice it made and what that cost against the best.

Points are the seat's expected points for the rest of the round after the option (lower is better, as the
score is); ``loss`` is the chosen option's expected points less the best option's (0 for the best choice).
These are plain values, kept as JSON with the game (``to_dict``/``from_dict``), shown by ``tenpennies replay
--review`` and the terminal client's review and replay viewer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .interface import Command, Game, Kind, Rules


@dataclass(frozen=True)
class Option:
    """One thing the seat could have done (its command's notation) and its expected points."""

    command: str
    points: float


@dataclass(frozen=True)
class Mark:
    """One decision of the reviewed seat: ``index`` is the position of its command in the game's command
    log (0-based), ``round`` the round (or deal) it fell in, ``options`` best first."""

    index: int
    round: int
    chosen: str
    options: tuple[Option, ...]
    loss: float

    @property
    def best(self) -> Option:
        return self.options[0]


@dataclass(frozen=True)
class Review:
    """The reviewed ``seat``'s decisions in log order (only those with more than one option), by
    ``searcher`` at ``budget`` (its own unit: rollouts or seconds, named in the searcher's docs);
    ``complete`` False: a review stopped part of the way (``Stopped``), never stored."""

    game_id: str
    seat: int
    searcher: str
    budget: int
    marks: tuple[Mark, ...]
    complete: bool = True

    def costliest(self, n: int) -> list[Mark]:
        """The ``n`` decisions that cost the most, costliest first (ties in game order); none that cost 0."""
        costly = [m for m in self.marks if m.loss > 0]
        return sorted(costly, key=lambda m: (-m.loss, m.index))[:n]

    @property
    def total_loss(self) -> float:
        return sum(m.loss for m in self.marks)

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "searcher": self.searcher, "budget": self.budget,
                "complete": self.complete,
                "marks": [{"index": m.index, "round": m.round, "chosen": m.chosen, "loss": m.loss,
                           "options": [[o.command, o.points] for o in m.options]} for m in self.marks]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        return cls(str(data["game_id"]), int(data["seat"]), str(data["searcher"]), int(data["budget"]),
                   tuple(Mark(int(m["index"]), int(m["round"]), str(m["chosen"]),
                              tuple(Option(str(c), float(p)) for c, p in m["options"]), float(m["loss"]))
                         for m in data["marks"]), bool(data.get("complete", True)))


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


def score_decision(kind: Kind[Any], game: Game, seat: int, chosen: Command, index: int, *, budget: int,
                   seed: int) -> Mark:
    """One decision: ``chosen`` (command ``index`` of the log) against the other options of ``game`` as it
    stood, each valued by ``kind.option_values`` from ``seat``'s information alone; options best first (ties
    keep the kind's order, the chosen one first)."""
    options = list(kind.review_options(game, seat, chosen))
    values = kind.option_values(game, seat, options, budget=budget, seed=seed)
    order = sorted(range(len(options)), key=lambda i: (values[i], i))
    ranked = tuple(Option(kind.format_command(options[i]), values[i]) for i in order)
    loss = values[0] - values[order[0]]
    return Mark(index, game.round_number, kind.format_command(chosen), ranked, max(0.0, loss))


REFINE = 12
"""How many of the costliest decisions of the first look a review scores again, at ``REFINE_FACTOR`` times the
budget: a decision's loss is the chosen option's mean less the best option's, and the noise of a few dozen
rollouts makes some other option look better than it is, so the first look's costliest are partly luck; the
second look keeps those that are costly indeed (the ones a player reads first) for a third more time."""
REFINE_FACTOR = 8


def review_game(kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                seat: int, *, budget: int | None = None, seed: int = 0,
                progress: Callable[[int, int], object] | None = None, stop: Callable[[], bool] | None = None,
                game_id: str = "", refine: int = REFINE) -> Review:
    """``seat``'s play in the game of ``kind`` dealt from ``game_seed`` and played by ``commands``, reviewed
    decision by decision (``score_decision``) by the kind's searcher at ``budget`` (None: the searcher's
    default), then the ``refine`` costliest of them again at ``REFINE_FACTOR`` times the budget (their marks
    replaced). Deterministic: decision ``i`` of the log is searched with seed ``seed * 1_000_003 + i`` (the
    second time, ``+ 1`` to the seed). ``progress(done, total)`` is called before the first decision and after
    each (``total`` counts the second looks); ``stop()`` is asked before each, and True raises ``Stopped``
    with the review so far. Raises RuleError for a log that does not replay."""
    searcher, default = kind.searcher
    spend = default if budget is None else budget
    wanted = set(decisions(kind, seats, rules, game_seed, commands, seat))
    total = len(wanted) + min(refine, len(wanted))
    marks: list[Mark] = []
    done = 0

    def scored(game: Game, command: Command, index: int, times: int, salt: int) -> Mark:
        nonlocal done
        if stop is not None and stop():
            raise Stopped(Review(game_id, seat, searcher, spend, tuple(marks), complete=False))
        mark = score_decision(kind, game, seat, command, index, budget=spend * times,
                              seed=(seed + salt) * 1_000_003 + index)
        done += 1
        if progress is not None:
            progress(done, total)
        return mark

    if progress is not None:
        progress(0, total)
    game = kind.new(seats, rules, game_seed)
    for index, command in enumerate(commands):
        if index in wanted:
            marks.append(scored(game, command, index, 1, 0))
        game.apply(command)
    costly = sorted((i for i, m in enumerate(marks) if m.loss > 0), key=lambda i: (-marks[i].loss, i))[:refine]
    again = {marks[i].index: i for i in costly}
    if again:
        game = kind.new(seats, rules, game_seed)
        last = max(again)
        for index, command in enumerate(commands[:last + 1]):
            if index in again:
                marks[again[index]] = scored(game, command, index, REFINE_FACTOR, 1)
            game.apply(command, trusted=True)
    if progress is not None and done < total:
        progress(total, total)
    return Review(game_id, seat, searcher, spend, tuple(marks))
