"""Engine speed, one figure a line, each also as a ratio to a plain-Python baseline timed in the same run.

The baseline is a loop that does what any engine step must at least do in Python: build a short list
of small objects and pick one at random. Ratios to it travel between machines; raw figures do not.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tenpennies.engine import Game, HouseRules
from tenpennies.engine.bots import GreedyBot, RandomBot, play_game
from tenpennies.engine.cards import shoe

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # for positions, imported where it is used


def best_of(runs: int, fn: Callable[[], object]) -> float:
    """The fastest of ``runs`` timings: the least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def baseline_steps_per_s() -> float:
    rng = random.Random(0)

    class Step:
        __slots__ = ("seat", "card")

        def __init__(self, seat: int, card: int) -> None:
            self.seat, self.card = seat, card

    steps = 200_000

    def loop() -> None:
        for i in range(steps):
            rng.choice([Step(i & 3, c) for c in range(12)])
    return steps / best_of(3, loop)


def games(seats: int, kind: str, count: int) -> tuple[float, float]:
    """(games/s, commands/s) over ``count`` full 7-round games."""
    commands = 0

    def run() -> None:
        nonlocal commands
        commands = 0
        for seed in range(count):
            bots = [GreedyBot() if kind == "greedy" else RandomBot(seed * 10 + s) for s in range(seats)]
            commands += len(play_game(Game(seats, HouseRules(), seed), bots).log)
    elapsed = best_of(2, run)
    return count / elapsed, commands / elapsed


def listing_per_s(hand_text: str, seats: int, round_no: int) -> float:
    from positions import position
    game = position(seats, round=round_no, hands={0: hand_text})
    n = 2000
    return n / best_of(3, lambda: [game.legal_commands(0) for _ in range(n)])


def main() -> None:
    base = baseline_steps_per_s()
    print(f"baseline python step: {base:,.0f} steps/s (1.00x)")
    for seats in (4, 8):
        for kind, count in (("random", 6), ("greedy", 12)):
            per_game, per_command = games(seats, kind, count)
            print(f"engine {kind} {seats} seats: {per_command:,.0f} commands/s ({per_command / base:.3f}x baseline)")
            print(f"engine {kind} {seats} seats: {per_game:,.1f} games/s, {1000 / per_game:.1f} ms/game")
    ordinary = "3C 5D 7H 7S 9C JD QH KS AS 2D JK 8C"
    wilds = [c for c in shoe(4) if c.rank in (2, 14, 15)]
    heavy = " ".join(c.text for c in wilds + [c for c in shoe(4) if c.rank in (5, 6, 7, 8)][:30])
    for name, hand, seats, round_no in (("12-card hand, round 1", ordinary, 4, 1),
                                        ("12-card hand, round 5", ordinary, 4, 5),
                                        ("70 cards, 40 wild, round 5", heavy, 8, 5)):
        rate = listing_per_s(hand, seats, round_no)
        print(f"legal listing, {name}: {rate:,.0f} listings/s ({rate / base:.3f}x baseline)")


if __name__ == "__main__":
    main()
