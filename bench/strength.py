"""Strength of one bot against another on duplicate deals: the strength table of docs/BOTS.md.

Each deal is played twice at 4 seats, seatings X Y X Y and Y X Y X, so each bot sits every seat of the
deal once and the luck of the cards cancels. Per deal, X's score is the mean final score of its four
seat-games, Y's likewise; the table gives the mean over deals of X, of Y and of the paired difference
X - Y, each with a 95% interval (1.96 standard errors over the deals). Lower scores are better, so a
negative difference whose interval is clear of zero means X is the stronger.

Deal ``d`` is dealt from seed ``seed + d`` and the bot at seat ``s`` is made with seed ``10 * d + s``
(``engine.play.play_duplicate_deal``, which tests/test_bots.py's ``duplicate`` also plays), so a run is
reproducible from its options, and a long one can be split (``--start``) with every deal played as in one
run; games are played with ``engine.play.play_game`` (every bot is shown its seat's view after every command).

    python bench/strength.py sampler greedy --deals 40 --rounds 7 --samples 48 --seed 1000
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence

from tenpennies.engine.interface import Bot
from tenpennies.engine.play import play_duplicate_deal
from tenpennies.engine.ten_pennies import HouseRules, RuleError
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.search import DEFAULT_WORLDS, SearchBot
from tenpennies.engine.ten_pennies.strategies import DEFAULT_SAMPLES, SamplerBot


def maker(name: str, samples: int | None, worlds: int = DEFAULT_WORLDS) -> Callable[[int], Bot]:
    """A bot factory by ``BOTS`` name; ``sampler`` at ``samples`` rollouts a decision, ``searcher`` at
    ``worlds`` worlds a searched decision."""
    if name == "sampler":
        return lambda seed: SamplerBot(seed, samples=samples)
    if name == "searcher":
        return lambda seed: SearchBot(seed, worlds=worlds)
    return BOTS[name]


def label_of(name: str, samples: int, worlds: int) -> str:
    """How the table's row names a bot: with its budget if it searches."""
    if name == "sampler":
        return f"sampler ({samples} rollouts)"
    if name == "searcher":
        return f"searcher ({worlds} worlds)"
    return name


def interval(values: Sequence[float]) -> tuple[float, float]:
    """(mean, 95% half-interval: 1.96 standard errors; 0 for fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


def rounds_of(text: str) -> tuple[int, ...]:
    """``7``: rounds 1 to 7; ``1,5``: those rounds."""
    try:
        if "," in text:
            rounds = tuple(int(r) for r in text.split(","))
            HouseRules(rounds=rounds).validate(4)
            return rounds
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"rounds are a count (7) or a list (1,5), not {text!r}") from None
    except RuleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not 1 <= count <= 7:
        raise argparse.ArgumentTypeError(f"a game has 1 to 7 rounds, not {count}")
    return tuple(range(1, count + 1))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("x", choices=sorted(BOTS), help="the bot measured")
    parser.add_argument("y", choices=sorted(BOTS), help="the bot it is measured against")
    parser.add_argument("--deals", type=int, default=30, help="deals, each played twice (default 30)")
    parser.add_argument("--rounds", type=rounds_of, default=tuple(range(1, 8)),
                        help="a count (7: rounds 1-7, the default) or a list of rounds (1,5)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"the sampler's rollouts a decision (default {DEFAULT_SAMPLES})")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS,
                        help=f"the searcher's worlds a searched decision (default {DEFAULT_WORLDS})")
    parser.add_argument("--seed", type=int, default=1000, help="deal d is dealt from seed + d (default 1000)")
    parser.add_argument("--start", type=int, default=0,
                        help="the first deal's number d (default 0): a long run can be split, deal for deal")
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args(argv)
    if args.start < 0:
        parser.error("deals are numbered from 0")
    if args.deals < 2:
        parser.error("play at least 2 deals (an interval needs two)")
    if args.samples < 1:
        parser.error("the sampler needs at least 1 rollout a decision")
    rules = HouseRules(rounds=args.rounds)
    if args.worlds < 1:
        parser.error("the searcher needs at least 1 world a decision")
    make_x, make_y = maker(args.x, args.samples, args.worlds), maker(args.y, args.samples, args.worlds)
    xs: list[float] = []
    ys: list[float] = []
    started = time.perf_counter()
    first = args.start
    for deal in range(first, first + args.deals):
        x, y = play_duplicate_deal(TEN_PENNIES, make_x, make_y, rules, args.seed, deal)
        xs.append(x)
        ys.append(y)
        if not args.quiet:
            diff, half = interval([a - b for a, b in zip(xs, ys, strict=True)])
            print(f"deal {deal:3} ({deal - first + 1}/{args.deals}): {args.x} {x:6.1f}  {args.y} {y:6.1f}   "
                  f"so far {diff:+.1f} ± {half:.1f}  ({time.perf_counter() - started:.0f} s)", flush=True)
    x_mean, x_half = interval(xs)
    y_mean, y_half = interval(ys)
    diff, half = interval([a - b for a, b in zip(xs, ys, strict=True)])
    label = f"{label_of(args.x, args.samples, args.worlds)} vs {label_of(args.y, args.samples, args.worlds)}"
    verdict = "clear of zero" if abs(diff) > half else "not clear of zero"
    last = first + args.deals - 1
    print(f"{label}: rounds {','.join(map(str, args.rounds))}, {args.deals} deals (deals {first}-{last}, dealt "
          f"from seeds {args.seed + first}-{args.seed + last}), {time.perf_counter() - started:.0f} s")
    print(f"| {label} | {len(args.rounds)} | {args.deals} | {x_mean:.1f} ± {x_half:.1f} | "
          f"{y_mean:.1f} ± {y_half:.1f} | {diff:+.1f} ± {half:.1f} | ({verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
