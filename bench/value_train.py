"""Fit the learned value of a Ten Pennies position (engine/ten_pennies/value.py) on self-play, and write its
cells (engine/ten_pennies/value_weights.py).

Games of four seats at the rule book's house rules, dealt from ``--seed`` on, every seat played by the rollout
policy (``strategies.fast_choice``, as a review's rollouts play). At the start of every turn each seat's
position is sorted into its cell (``value.cell``) and, when the round ends, paired with the points the seat
then held: one least-squares line a cell (points at the end against the hand's points now), a line a round
and a seat down or not for the cells with fewer than ``--least`` positions. Games ``--games`` on (``--held-out``
of them) are held out: their positions' error is printed by round against the simplest guesses (the hand's
points as they are, and the mean of the round's positions).

``--check G``: instead, what the value does to a review: on every fifth decision of seat 3 in ``G`` games of
four ``greedy`` bots (whole games, dealt from 100 on), each option against the chosen one in ``--worlds``
worlds with rollouts played out, and in as many other worlds stopped at ``search.HORIZON`` with the value:
how spread a world's difference is each way, how large the truncated mean differences are against the
played-out ones (the slope, corrected for the played-out means' own noise), and how far apart the two means
are for their noise (a mean squared z near 1: within the noise).

    python bench/value_train.py --games 1500            # ~1.5 minutes on one core
    python bench/value_train.py --games 1500 --write    # and write value_weights.py
    python bench/value_train.py --check 3               # ~5 minutes
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tenpennies.engine.play import play_game
from tenpennies.engine.review import decisions
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.search import HORIZON, seat_memory, world_values
from tenpennies.engine.ten_pennies.strategies import fast_choice
from tenpennies.engine.ten_pennies.value import Cell, cell
from tenpennies.engine.ten_pennies.worlds import sample_world

Samples = dict[Cell, list[tuple[float, float]]]


def positions(seed: int) -> Samples:
    """Every seat's position at the start of every turn of one self-played game, by cell: (its hand's points
    by tens, its points at the end of the round)."""
    game = Game(4, HouseRules(), seed)
    out: Samples = {}
    pending: list[tuple[Cell, int, float]] = []
    round_index = game.round_index
    while not game.over:
        if game.phase is Phase.PICK_UP:
            for seat in range(4):
                key, points = cell(game, seat)
                pending.append((key, seat, points))
        scores = [p.score for p in game.players]
        game.apply(fast_choice(game, game.to_act()[0]), trusted=True)
        if game.round_index != round_index or game.over:
            for key, seat, points in pending:
                out.setdefault(key, []).append((points, float(game.players[seat].score - scores[seat])))
            pending = []
            round_index = game.round_index
    return out


def line(rows: list[tuple[float, float]]) -> tuple[float, float]:
    """The least-squares line through (x, y): (intercept, slope); flat for rows of one x."""
    n = len(rows)
    mx = sum(x for x, _ in rows) / n
    my = sum(y for _, y in rows) / n
    sxx = sum((x - mx) ** 2 for x, _ in rows)
    slope = sum((x - mx) * (y - my) for x, y in rows) / sxx if sxx > 1e-9 else 0.0
    return my - slope * mx, slope


def check(games: int, worlds: int) -> None:
    """``--check``: the value's rollouts against rollouts played out (see the module)."""
    rows: list[tuple[float, float, float, float, str]] = []

    def table(view: Any, memory: Any, options: Sequence[Any], tag: str, horizon: int | None) -> list[list[float]]:
        out: list[list[float]] = [[] for _ in options]
        for j in range(worlds):
            rng = random.Random(f"{tag}/{j}")
            world = sample_world(view, rng, memory)
            for values, value in zip(out, world_values(world, 3, options, rng.getrandbits(64), horizon=horizon),
                                     strict=True):
                values.append(value)
        return out

    for seed in range(100, 100 + games):
        played = play_game(Game(4, HouseRules(), seed), [BOTS["greedy"](10 * (seed - 100) + s) for s in range(4)])
        wanted = decisions(TEN_PENNIES, 4, played.rules, seed, played.log, 3)[::5]
        game = Game(4, played.rules, seed)
        for index, command in enumerate(played.log):
            if index in wanted:
                options = TEN_PENNIES.review_options(game, 3, command)
                view, memory = game.view(3), seat_memory(game, 3)
                out = table(view, memory, options, f"out {index}", None)
                cut = table(view, memory, options, f"cut {index}", HORIZON)
                for k in range(1, len(options)):
                    a = [x - y for x, y in zip(out[0], out[k], strict=True)]
                    b = [x - y for x, y in zip(cut[0], cut[k], strict=True)]
                    rows.append((statistics.fmean(a), statistics.variance(a), statistics.fmean(b),
                                 statistics.variance(b), game.phase.value))
            game.apply(command, trusted=True)
    for label, chosen in [("all", rows)] + [(p, [r for r in rows if r[4] == p]) for p in ("pick_up", "buy", "meld")]:
        if len(chosen) < 3:
            continue
        out_means, cut_means = [r[0] for r in chosen], [r[2] for r in chosen]
        noise = statistics.fmean(r[1] for r in chosen) / worlds
        cov = statistics.fmean((a - statistics.fmean(out_means)) * (b - statistics.fmean(cut_means))
                               for a, b in zip(out_means, cut_means, strict=True))
        signal = statistics.pvariance(out_means) - noise
        z2 = statistics.fmean((r[0] - r[2]) ** 2 * worlds / (r[1] + r[3]) for r in chosen if r[1] + r[3] > 0)
        spread_out = statistics.fmean(r[1] for r in chosen) ** 0.5
        spread_cut = statistics.fmean(r[3] for r in chosen) ** 0.5
        print(f"{label:8} {len(chosen):4} option pairs: a world's difference spread {spread_out:5.1f} points played "
              f"out, {spread_cut:5.1f} with the value; slope {cov / signal if signal > 0 else math.nan:4.2f}; mean "
              f"squared z of the gap {z2:4.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--held-out", type=int, default=150)
    parser.add_argument("--least", type=int, default=200, help="the fewest positions a cell of its own is fitted on")
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument("--write", action="store_true", help="write engine/ten_pennies/value_weights.py")
    parser.add_argument("--check", type=int, default=0, metavar="G", help="instead, check the value on G games")
    parser.add_argument("--worlds", type=int, default=48, help="--check: worlds a decision (default 48)")
    args = parser.parse_args()
    if args.check:
        check(args.check, args.worlds)
        return
    started = time.perf_counter()
    train: Samples = {}
    test: Samples = {}
    for g in range(args.games + args.held_out):
        for key, rows in positions(args.seed + g).items():
            (train if g < args.games else test).setdefault(key, []).extend(rows)
    print(f"{sum(map(len, train.values()))} positions to fit, {sum(map(len, test.values()))} held out "
          f"({time.perf_counter() - started:.0f} s)")
    by_round: dict[tuple[int, bool], list[tuple[float, float]]] = {}
    for key, rows in train.items():
        by_round.setdefault((key[0], key[1]), []).extend(rows)
    rounds = {key: line(rows) for key, rows in sorted(by_round.items())}
    cells = {key: line(rows) for key, rows in sorted(train.items()) if len(rows) >= args.least}
    print(f"{len(cells)} cells of their own, of {len(train)}")
    for number in range(1, 8):
        for down in (False, True):
            held = [(key, x, y) for key, rows in test.items() if key[:2] == (number, down) for x, y in rows]
            if not held:
                continue
            fitted = [(max(0.0, a + b * x), y) for key, x, y in held
                      for a, b in [cells.get(key) or rounds[key[0], key[1]]]]
            mean = sum(y for _, y in by_round[number, down]) / len(by_round[number, down])
            error = math.sqrt(sum((f - y) ** 2 for f, y in fitted) / len(held))
            hand = math.sqrt(sum((10 * x - y) ** 2 for _, x, y in held) / len(held))
            flat = math.sqrt(sum((mean - y) ** 2 for _, _, y in held) / len(held))
            print(f"round {number} {'down' if down else 'not down':8}: {len(held):6} held-out positions, error "
                  f"{error:5.1f} points (the hand as it is {hand:5.1f}, the mean {flat:5.1f})")
    if args.write:
        path = Path(__file__).resolve().parent.parent / "engine" / "ten_pennies" / "value_weights.py"
        out = ['"""The learned value\'s cells (``value.py``): (intercept, slope) by cell and by round and seat down,',
               f'written by bench/value_train.py ({args.games} self-played games from seed {args.seed}); do not edit.',
               '"""',
               "", "CELLS: dict[tuple[int, bool, int, int], tuple[float, float]] = {"]
        out += [f"    {key}: ({a:.4g}, {b:.4g})," for key, (a, b) in cells.items()]
        out += ["}", "BY_ROUND: dict[tuple[int, bool], tuple[float, float]] = {"]
        out += [f"    {key}: ({a:.4g}, {b:.4g})," for key, (a, b) in rounds.items()]
        out.append("}")
        path.write_text("\n".join(out) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
