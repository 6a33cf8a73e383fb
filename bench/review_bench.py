"""What a review costs and what its budget buys: the README's *Reviewing your play* figures.

Each game is played by four bots of ``--bot`` (the local game's opponents), dealt from ``seed + g``; the
last seat (the local player's) is reviewed at each ``--budgets`` with ``--review-seed`` (and once more at
the largest budget with another seed, the reference): the CPU seconds of each whole-game review (one core,
``time.process_time``), and how many of each review's costliest five decisions are among the reference's.

    python bench/review_bench.py --games 1 --budgets 48 --seed 7
"""

from __future__ import annotations

import argparse
import time

from tenpennies.engine.review import Review, review_game
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS, play_game
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES

SEAT = 3


def reviewed(game: Game, seed: int, budget: int, review_seed: int) -> tuple[Review, float]:
    start = time.process_time()
    review = review_game(TEN_PENNIES, game.n, game.rules, seed, game.log, SEAT, budget=budget, seed=review_seed)
    return review, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--budgets", type=int, nargs="+", default=[48])
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    parser.add_argument("--review-seed", type=int, default=1)
    args = parser.parse_args()
    budgets = sorted(args.budgets)
    for g in range(args.games):
        seed = args.seed + g
        game = play_game(Game(4, HouseRules(), seed), [BOTS[args.bot](10 * g + s) for s in range(4)])
        reference, seconds = reviewed(game, seed, budgets[-1], args.review_seed + 1000)
        top = {m.index for m in reference.costliest(5)}
        print(f"game {seed}: {len(game.log)} commands, {len(reference.marks)} decisions of seat {SEAT} reviewed, "
              f"{sum(len(m.options) for m in reference.marks)} options; reference at {budgets[-1]}: {seconds:.1f} s",
              flush=True)
        for budget in budgets:
            review, seconds = reviewed(game, seed, budget, args.review_seed)
            agree = len(top & {m.index for m in review.costliest(5)})
            print(f"  budget {budget:>4}: {seconds:6.1f} s CPU, total loss {review.total_loss:7.1f}, "
                  f"costliest five: {agree} of 5 as the reference's", flush=True)


if __name__ == "__main__":
    main()
