"""Engine speed, one figure a line, each also as a ratio to a plain-Python baseline timed in the same run.

The baseline is a loop that does what any engine step must at least do in Python: build a short list
of small objects and pick one at random. Ratios to it travel between machines; raw figures do not.

With the bench extra (``pip install -e '.[bench]'``: OpenSpiel from PyPI) one line also sets our random-legal
play beside OpenSpiel's C++ gin rummy driven from Python the same way, as a ratio from the same run; without
it the line says it was skipped.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tenpennies.engine.cards import shoe
from tenpennies.engine.play import RandomBot, play_game
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.strategies import DEFAULT_SAMPLES, SamplerBot
from tenpennies.engine.thirty_one.game import Game as ThirtyOneGame
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules

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


def thirty_one_games(seats: int, preset: str, count: int) -> tuple[float, float]:
    """(games/s, commands/s) over ``count`` whole games of Thirty-One between random-legal bots."""
    commands = 0

    def run() -> None:
        nonlocal commands
        commands = 0
        for seed in range(count):
            bots = [RandomBot(seed * 10 + s) for s in range(seats)]
            game = ThirtyOneGame(seats, ThirtyOneRules.of(preset), seed)
            commands += len(play_game(game, bots).log)
    elapsed = best_of(2, run)
    return count / elapsed, commands / elapsed


def interleaved(runs: int, *work: Callable[[], int]) -> list[float]:
    """Each ``work`` (returning how many steps it made) run ``runs`` times in turn, the runs interleaved so
    that a busy spell of the machine falls on all of them alike: steps per second of CPU time of each, at
    its best run (CPU time, not the clock: the other processes of a shared machine then cost less)."""
    best = [float("inf")] * len(work)
    steps = [0] * len(work)
    for _ in range(runs):
        for i, fn in enumerate(work):
            start = time.process_time()
            steps[i] = fn()
            best[i] = min(best[i], time.process_time() - start)
    return [n / t for n, t in zip(steps, best, strict=True)]


def random_legal_commands(games: int) -> int:
    """Whole 4-seat games of random-legal play driven as OpenSpiel drives a game: list the legal commands
    of the seat to act, pick one at random, apply it (checked, as a command from outside is); the count of
    commands applied."""
    commands = 0
    for seed in range(games):
        game, rng = Game(4, HouseRules(), seed), random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal_commands(game.to_act()[0])))
            commands += 1
    return commands


def open_spiel_gin_rummy() -> Callable[[int], int] | None:
    """Whole games of OpenSpiel's gin rummy played at random the same way, or None without OpenSpiel. A
    chance node (a card dealt or drawn) is an action too, picked among its legal actions: gin rummy's
    chance outcomes are equally likely, and asking for them (``chance_outcomes``) would be slower."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]  # the optional bench extra
    except ImportError:
        return None
    gin_rummy = pyspiel.load_game("gin_rummy")

    def play(games: int) -> int:
        actions = 0
        for seed in range(games):
            rng, state = random.Random(seed), gin_rummy.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions
    return play


def listing_per_s(hand_text: str, seats: int, round_no: int) -> float:
    from positions import position
    game = position(seats, round=round_no, hands={0: hand_text})
    n = 2000
    return n / best_of(3, lambda: [game.legal_commands(0) for _ in range(n)])


def copy_vs_storage() -> tuple[float, float]:
    """(Game.copy per second, its ratio to Game.from_dict(game.to_dict())) on a 4-seat game mid-round."""
    game = Game(4, HouseRules(), 3)
    bot = GreedyBot()
    for _ in range(200):
        seat = game.to_act()[0]
        game.apply(bot.choose(game.view(seat)))
    n = 2000
    copy = best_of(3, lambda: [game.copy() for _ in range(n)])
    stored = best_of(3, lambda: [Game.from_dict(game.to_dict()) for _ in range(n // 10)]) * 10
    return n / copy, stored / copy


def sampler_decisions_per_s() -> tuple[float, float]:
    """(decisions per second, rollouts per decision) of the sampler at its default budget, one sampler
    seat among three greedy ones, over the decisions with a choice of the first rounds of a game."""
    bot = SamplerBot(1)
    game = Game(4, HouseRules(rounds=(1, 5)), 11)
    start = time.perf_counter()
    play_game(game, [bot, GreedyBot(), GreedyBot(), GreedyBot()])
    elapsed = time.perf_counter() - start
    return bot.decisions / elapsed, bot.rollouts / max(bot.decisions, 1)


def main() -> None:
    base = baseline_steps_per_s()
    print(f"baseline python step: {base:,.0f} steps/s (1.00x)")
    spiel = open_spiel_gin_rummy()
    if spiel is None:
        ours = interleaved(5, lambda: random_legal_commands(2))[0]
        print(f"random-legal, legal listing + random pick + checked apply: {ours:,.0f} commands/s "
              f"({ours / base:.3f}x baseline); OpenSpiel gin_rummy: skipped (no open_spiel: pip install -e '.[bench]')")
    else:
        ours, theirs = interleaved(8, lambda: random_legal_commands(2), lambda: spiel(20))
        print(f"random-legal, legal listing + random pick + checked apply: {ours:,.0f} commands/s "
              f"({ours / base:.3f}x baseline); OpenSpiel gin_rummy (C++), the same loop: {theirs:,.0f} "
              f"actions/s; ours {ours / theirs:.2f}x OpenSpiel's")
    for seats in (4, 8):
        for kind, count in (("random", 6), ("greedy", 12)):
            per_game, per_command = games(seats, kind, count)
            print(f"engine {kind} {seats} seats: {per_command:,.0f} commands/s ({per_command / base:.3f}x baseline)")
            print(f"engine {kind} {seats} seats: {per_game:,.1f} games/s, {1000 / per_game:.1f} ms/game")
    per_game, per_command = thirty_one_games(4, "classic", 40)
    print(f"engine thirty-one random 4 seats (classic): {per_command:,.0f} commands/s "
          f"({per_command / base:.3f}x baseline), {1000 / per_game:.1f} ms/game")
    ordinary = "3C 5D 7H 7S 9C JD QH KS AS 2D JK 8C"
    wilds = [c for c in shoe(4) if c.rank in (2, 14, 15)]
    heavy = " ".join(c.text for c in wilds + [c for c in shoe(4) if c.rank in (5, 6, 7, 8)][:30])
    for name, hand, seats, round_no in (("12-card hand, round 1", ordinary, 4, 1),
                                        ("12-card hand, round 5", ordinary, 4, 5),
                                        ("70 cards, 40 wild, round 5", heavy, 8, 5)):
        rate = listing_per_s(hand, seats, round_no)
        print(f"legal listing, {name}: {rate:,.0f} listings/s ({rate / base:.3f}x baseline)")
    copies, ratio = copy_vs_storage()
    print(f"Game.copy: {copies:,.0f} copies/s ({copies / base:.4f}x baseline), {ratio:.0f}x faster than "
          f"from_dict(to_dict())")
    decisions, rollouts = sampler_decisions_per_s()
    print(f"sampler ({DEFAULT_SAMPLES} rollouts a decision): {decisions:.2f} decisions/s "
          f"({decisions / base:.7f}x baseline), {rollouts:.0f} rollouts a decision")


if __name__ == "__main__":
    main()
