"""Strength of one Thirty-One bot against another on duplicate deals: the Thirty-One strength table of docs/BOTS.md.

Each deal (a whole game, dealt from seed ``seed + d``) is played twice at 4 seats, seatings X Y X Y and
Y X Y X (``engine.play.play_duplicate_deal``), so the luck of the cards cancels. A bot's figure is its
mean finishing place (1 the best, 4 the worst; tied seats share a place); the paired difference X - Y
is given with its 95% interval (1.96 standard errors over the deals): negative and clear of zero means X
is the stronger.

    python bench/thirty_one_strength.py heuristic random --preset classic --deals 40
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

from tenpennies.engine.play import play_duplicate_deal
from tenpennies.engine.thirty_one.bots import BOTS
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.rules import PRESET_NAMES, Rules


def interval(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("x", choices=list(BOTS))
    parser.add_argument("y", choices=list(BOTS))
    parser.add_argument("--preset", choices=PRESET_NAMES, default="classic")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    rules = Rules.of(args.preset)
    xs, ys = [], []
    started = time.perf_counter()
    for deal in range(args.deals):
        x, y = play_duplicate_deal(THIRTY_ONE, BOTS[args.x], BOTS[args.y], rules, args.seed, deal)
        xs.append(x)
        ys.append(y)
    diff, margin = interval([a - b for a, b in zip(xs, ys, strict=True)])
    print(f"| {args.x} vs {args.y} | {args.preset} | {args.deals} | {sum(xs) / len(xs):.2f} | "
          f"{sum(ys) / len(ys):.2f} | {diff:+.2f} ± {margin:.2f} | {time.perf_counter() - started:.0f} s |")


if __name__ == "__main__":
    main()
