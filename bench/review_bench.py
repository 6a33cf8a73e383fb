"""What a review costs and how steady its advice is: the review figures of docs/BENCHMARKS.md.

Each game is played by four bots of ``--bot`` (the local game's opponents), dealt from ``seed + g``, and its
last seat (the local player's) is reviewed twice with two review seeds, two ways in the same run:

* ``old``: the review as it was (each decision's options valued by ``option_values`` at the budget, the
  twelve costliest valued again at eight times it, every loss above zero a mistake), written out here;
* ``new``: ``engine.review.review_game`` (paired intervals, worlds where they decide something, only sure
  mistakes), in this process alone, then in a pool of every core (its marks checked equal to the serial's).

Per game: each way's wall-clock seconds, how many of the five costliest decisions the two seeds share (of
at most five: the new way lists only sure mistakes), how far they agree on which decisions are mistakes
(those both call so, of those either does), and the ratios new/old measured in the same run (the
machine's numbers are noisy; their ratios are steadier).

    python bench/review_bench.py --games 2 --rounds 3 --seed 100
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from tenpennies.engine.interface import Kind
from tenpennies.engine.review import Mark, Option, Review, decisions, default_workers, review_game
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS, play_game
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.thirty_one.bots import BOTS as T31_BOTS
from tenpennies.engine.thirty_one.bots import play_game as play_thirty_one
from tenpennies.engine.thirty_one.game import Game as ThirtyOneGame
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules

SEAT = 3
OLD_REFINE, OLD_FACTOR = 12, 8
OLD_BUDGET = {"ten_pennies": 48, "thirty_one": 256}  # rollouts a decision, over its options


def old_review(kind: Kind[Any], game: Any, seat: int, budget: int, seed: int) -> Review:
    """The review as it was: means alone, the twelve costliest again at eight times the budget."""
    wanted = decisions(kind, game.seats, game.rules, game.seed, game.log, seat)

    def score(played: Any, index: int, spend: int, salt: int) -> Mark:
        command = game.log[index]
        options = list(kind.review_options(played, seat, command))
        values = kind.option_values(played, seat, options, budget=spend, seed=(seed + salt) * 1_000_003 + index)
        order = sorted(range(len(options)), key=lambda i: (values[i], i))
        ranked = tuple(Option(kind.format_command(options[i]), values[i]) for i in order)
        return Mark(index, played.round_number, kind.format_command(command), ranked,
                    max(0.0, values[0] - values[order[0]]))

    def walk(indices: Sequence[int], spend: int, salt: int) -> dict[int, Mark]:
        out = {}
        played = kind.new(game.seats, game.rules, game.seed)
        for index, command in enumerate(game.log[:max(indices, default=-1) + 1]):
            if index in indices:
                out[index] = score(played, index, spend, salt)
            played.apply(command, trusted=True)
        return out

    marks = walk(wanted, budget, 0)
    again = sorted(i for i in marks if marks[i].loss > 0)
    again = sorted(sorted(again, key=lambda i: (-marks[i].loss, i))[:OLD_REFINE])
    marks.update(walk(again, budget * OLD_FACTOR, 1))
    return Review("", seat, kind.searcher[0], budget, tuple(marks[i] for i in wanted))


def top(review: Review) -> set[int]:
    return {m.index for m in review.costliest(5)}


def shared(a: Review, b: Review) -> float:
    """How far two reviews agree on which decisions are mistakes: the ones both call so, of those either
    does (1: the same, or neither calls any)."""
    first, second = ({m.index for m in r.marks if m.costly} for r in (a, b))
    return len(first & second) / len(first | second) if first | second else 1.0


def timed(make: Any) -> tuple[Review, float]:
    start = time.perf_counter()
    review = make()
    return review, time.perf_counter() - start


def bench(kind: Kind[Any], game: Any, label: str, budget: int, seeds: tuple[int, int], workers: int) -> list[float]:
    """One game's lines; returns the two ways' agreements (five costliest, mistakes shared) and seconds (old,
    new in one process, new pooled)."""
    old = [timed(lambda s=s: old_review(kind, game, SEAT, OLD_BUDGET[kind.name], s)) for s in seeds]
    new = [timed(lambda s=s: review_game(kind, game.seats, game.rules, game.seed, game.log, SEAT, budget=budget,
                                         seed=s, workers=1)) for s in seeds]
    pooled, pooled_seconds = timed(lambda: review_game(kind, game.seats, game.rules, game.seed, game.log, SEAT,
                                                        budget=budget, seed=seeds[0], workers=workers))
    assert pooled == new[0][0], "the pool's marks differ from the serial run's"
    old_agree = len(top(old[0][0]) & top(old[1][0]))
    new_agree = len(top(new[0][0]) & top(new[1][0]))
    old_shared, new_shared = shared(old[0][0], old[1][0]), shared(new[0][0], new[1][0])
    fewest = min(5, len(top(new[0][0])), len(top(new[1][0])))
    old_seconds = sum(s for _, s in old) / 2
    new_seconds = sum(s for _, s in new) / 2
    marks = len(new[0][0].marks)
    print(f"{label}: {len(game.log)} commands, {marks} decisions of seat {SEAT}; budget {budget}")
    print(f"  old: {old_seconds:6.1f} s a review, {sum(m.loss > 0 for m in old[0][0].marks):3} called costly, "
          f"costliest five shared by two seeds: {old_agree} of 5, mistakes shared {old_shared:.2f}")
    print(f"  new: {new_seconds:6.1f} s a review in one process, {pooled_seconds:6.1f} s in {workers} "
          f"(same marks), {new[0][0].mistakes:3} sure mistakes ({new[1][0].mistakes} with the other seed), "
          f"costliest five shared: {new_agree} of {fewest}, mistakes shared {new_shared:.2f}")
    print(f"  ratios: time new/old {new_seconds / old_seconds:.2f} (one process), pooled/old "
          f"{pooled_seconds / old_seconds:.2f}, speed-up of the pool {new_seconds / pooled_seconds:.2f}x", flush=True)
    return [old_agree, new_agree, old_shared, new_shared, old_seconds, new_seconds, pooled_seconds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("ten_pennies", "thirty_one"), default="ten_pennies")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7, help="Ten Pennies: rounds 1 to N (default 7)")
    parser.add_argument("--budget", type=int, default=None, help="default: the game's searcher's")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--review-seeds", type=int, nargs=2, default=(1, 2))
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    rows = []
    for g in range(args.games):
        seed = args.seed + g
        if args.game == "ten_pennies":
            kind: Kind[Any] = TEN_PENNIES
            game: Any = play_game(Game(4, HouseRules(rounds=tuple(range(1, args.rounds + 1))), seed),
                                  [BOTS["greedy"](10 * g + s) for s in range(4)])
        else:
            kind = THIRTY_ONE
            game = play_thirty_one(ThirtyOneGame(4, ThirtyOneRules(), seed),
                                   [T31_BOTS["heuristic"](10 * g + s) for s in range(4)])
        budget = kind.searcher[1] if args.budget is None else args.budget
        rows.append(bench(kind, game, f"{kind.title} game {seed}", budget, tuple(args.review_seeds), args.workers))
    old_agree, new_agree, old_shared, new_shared, old_s, new_s, pooled_s = (sum(c) for c in zip(*rows, strict=True))
    n = len(rows)
    print(f"| {args.game} | {n} games | five costliest shared: old {old_agree / n:.1f}, new {new_agree / n:.1f} | "
          f"mistakes shared: old {old_shared / n:.2f}, new {new_shared / n:.2f} | "
          f"time new/old {new_s / old_s:.2f} one process, {pooled_s / old_s:.2f} "
          f"pooled | pool speed-up {new_s / pooled_s:.2f}x |")


if __name__ == "__main__":
    main()
