"""What a review costs and how steady its advice is: the review figures of docs/BENCHMARKS.md.

Each game is played by four bots (Ten Pennies: ``greedy``; Thirty-One: ``heuristic``), dealt from ``seed + g``,
and its last seat (the local player's) is reviewed twice, with two review seeds, at the default budget (or
``--budget``), as the player gets it: in a pool of every core (``client.reviews.review_pooled``). Per game:
each review's wall-clock seconds, how many decisions it calls sure mistakes, and how far the two seeds agree:

* the five costliest (``Review.costliest(5)``, the sure mistakes that surely cost most): how many the two
  lists share, of the longer; the aim holds for a game when at most one decision of the longer list is
  missing from the other (4 of 5 shared, 3 of 4, ...); and how many of each list the review itself calls too
  close to call (``Review.too_close(5)``: its interval cannot tell it from the first left out), and whether
  that mark means what it says: of the listed decisions not so marked, how many the other seed lists too,
  against those marked;
* the sure mistakes: those both call so, of those either does.

``--reference N``: a third review of each game, at N times the budget, another seed, and (Ten Pennies) its
rollouts played to the round's end (no learned value: ``TenPennies.horizon`` None), in one process: how many
of each review's five costliest the long review also calls sure mistakes (advice that holds up with more
worlds and without the value). ``--serial``: the first review made again in one process, its marks checked
equal to the pool's, with its time. ``--json FILE``: every review's marks, to study. The machine's load
average is printed before and after: the figures are wall-clock seconds on a shared machine.

    python bench/review_bench.py --games 10                      # Ten Pennies, whole games
    python bench/review_bench.py --game thirty_one --games 10
    python bench/review_bench.py --games 2 --rounds 3 --reference 4   # quick
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tenpennies.client.reviews import default_workers, review_pooled
from tenpennies.engine.interface import Kind
from tenpennies.engine.play import play_game
from tenpennies.engine.review import Review, review_game
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES, TenPennies
from tenpennies.engine.thirty_one.bots import BOTS as T31_BOTS
from tenpennies.engine.thirty_one.game import Game as ThirtyOneGame
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules

SEAT = 3
SHOWN = 5


def top(review: Review) -> set[int]:
    return {m.index for m in review.costliest(SHOWN)}


def agree(a: Review, b: Review) -> tuple[int, int, bool]:
    """The five costliest of two reviews: how many they share, the longer list's length, and whether at most
    one decision of the longer list is missing from the other (the aim: 4 of 5)."""
    first, second = top(a), top(b)
    longer = max(len(first), len(second))
    shared = len(first & second)
    return shared, longer, shared >= longer - 1


def held_by_mark(a: Review, b: Review) -> tuple[int, int, int, int]:
    """Of the two reviews' five costliest, those not marked too close to call that the other review lists too,
    of how many; the same for those marked: (held, unmarked, held, marked)."""
    counts = [0, 0, 0, 0]
    for one, other in ((a, b), (b, a)):
        close = {m.index for m in one.too_close(SHOWN)}
        for index in top(one):
            at = 2 if index in close else 0
            counts[at] += index in top(other)
            counts[at + 1] += 1
    return counts[0], counts[1], counts[2], counts[3]


def sure_shared(a: Review, b: Review) -> float:
    """The decisions both call sure mistakes, of those either does (1: the same, or neither calls any)."""
    first, second = a.called, b.called
    return len(first & second) / len(first | second) if first | second else 1.0


def timed(make: Callable[[], Review]) -> tuple[Review, float]:
    start = time.perf_counter()
    review = make()
    return review, time.perf_counter() - start


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def bench(kind: Kind[Any], game: Any, label: str, budget: int, seeds: Sequence[int], workers: int,
          reference: int, serial: bool, dump: list[Any] | None) -> dict[str, float]:
    def review(seed: int) -> Callable[[], Review]:
        return lambda: review_pooled(kind, game.seats, game.rules, game.seed, game.log, SEAT, budget=budget,
                                     seed=seed, workers=workers)

    made = [timed(review(s)) for s in seeds]
    (a, a_seconds), (b, b_seconds) = made
    shared, longer, holds = agree(a, b)
    print(f"{label}: {len(game.log)} commands, {len(a.marks)} decisions of seat {SEAT}; budget {budget}")
    close = [len(r.too_close(SHOWN)) for r in (a, b)]
    print(f"  {a_seconds:5.1f} s and {b_seconds:5.1f} s a review ({workers} processes); sure mistakes "
          f"{a.mistakes} / {b.mistakes}, shared {sure_shared(a, b):.2f}; five costliest shared {shared} of "
          f"{longer}: {'holds' if holds else 'FAILS'}  [{sorted(top(a))} / {sorted(top(b))}], too close to "
          f"call {close[0]} / {close[1]}")
    marked = held_by_mark(a, b)
    row = {"seconds": (a_seconds + b_seconds) / 2, "shared": shared, "longer": longer, "holds": float(holds),
           "mistakes": (a.mistakes + b.mistakes) / 2, "sure_shared": sure_shared(a, b), "close": sum(close),
           "shown": len(top(a)) + len(top(b)), "firm_held": marked[0], "firm": marked[1],
           "close_held": marked[2]}
    if serial:
        alone, alone_seconds = timed(lambda: review_game(kind, game.seats, game.rules, game.seed, game.log, SEAT,
                                                         budget=budget, seed=seeds[0]))
        assert alone == a, "the pool's marks differ from one process's"
        print(f"  in one process: {alone_seconds:5.1f} s (the same marks); the pool's speed-up "
              f"{alone_seconds / a_seconds:.2f}x")
        row["serial"] = alone_seconds
    if reference:
        full: Any = kind
        if kind is TEN_PENNIES:
            full = TenPennies()
            full.horizon = None  # played out: the reference owes nothing to the learned value
        long, long_seconds = timed(lambda: review_game(full, game.seats, game.rules, game.seed, game.log, SEAT,
                                                       budget=budget * reference, seed=max(seeds) + 1))
        sure = long.called
        held = [len(top(r) & sure) for r in (a, b)]
        print(f"  reference at {reference}x the budget ({long_seconds:.1f} s): {long.mistakes} sure mistakes; "
              f"of each review's five costliest, {held[0]} of {len(top(a))} and {held[1]} of {len(top(b))} are "
              f"among them")
        row["held"] = sum(held)
        row["listed"] = len(top(a)) + len(top(b))
        made.append((long, long_seconds))
    if dump is not None:
        dump.append({"game": game.seed, "reviews": [{"seconds": t, "review": r.to_dict()} for r, t in made]})
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("ten_pennies", "thirty_one"), default="ten_pennies")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7, help="Ten Pennies: rounds 1 to N (default 7: whole games)")
    parser.add_argument("--budget", type=int, default=None, help="default: the game's searcher's")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--review-seeds", type=int, nargs=2, default=(1, 2))
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--reference", type=int, default=0, metavar="N",
                        help="also a review at N times the budget, to check the five costliest against")
    parser.add_argument("--serial", action="store_true", help="also the first review in one process")
    parser.add_argument("--json", default=None, metavar="FILE", help="write every review's marks to FILE")
    args = parser.parse_args()
    dump: list[Any] | None = None if args.json is None else []
    print(load(), flush=True)
    rows = []
    for g in range(args.games):
        seed = args.seed + g
        if args.game == "ten_pennies":
            kind: Kind[Any] = TEN_PENNIES
            game: Any = play_game(Game(4, HouseRules(rounds=tuple(range(1, args.rounds + 1))), seed),
                                  [BOTS["greedy"](10 * g + s) for s in range(4)])
        else:
            kind = THIRTY_ONE
            game = play_game(ThirtyOneGame(4, ThirtyOneRules(), seed),
                             [T31_BOTS["heuristic"](10 * g + s) for s in range(4)])
        budget = kind.searcher[1] if args.budget is None else args.budget
        rows.append(bench(kind, game, f"{kind.title} game {seed}", budget, args.review_seeds, args.workers,
                          args.reference, args.serial, dump))
        if args.json is not None:
            Path(args.json).write_text(json.dumps(dump))
    n = len(rows)
    seconds = [r["seconds"] for r in rows]
    line = (f"| {args.game} | {n} games | {statistics.fmean(seconds):.1f} s a review (at most {max(seconds):.1f}), "
            f"{args.workers} processes | sure mistakes {statistics.fmean(r['mistakes'] for r in rows):.1f}, shared "
            f"{statistics.fmean(r['sure_shared'] for r in rows):.2f} | five costliest: "
            f"{sum(int(r['shared']) for r in rows)} shared of {sum(int(r['longer']) for r in rows)}, holds on "
            f"{sum(int(r['holds']) for r in rows)} of {n} games; too close to call "
            f"{sum(int(r['close']) for r in rows)} of the {sum(int(r['shown']) for r in rows)} listed; listed by the "
            f"other seed too: {sum(int(r['firm_held']) for r in rows)} of the {sum(int(r['firm']) for r in rows)} "
            f"not marked, {sum(int(r['close_held']) for r in rows)} of the {sum(int(r['close']) for r in rows)} "
            f"marked |")
    if args.reference:
        line += (f" held up at {args.reference}x: {sum(int(r['held']) for r in rows)} of "
                 f"{sum(int(r['listed']) for r in rows)} |")
    print(line)
    print(load())


if __name__ == "__main__":
    main()
