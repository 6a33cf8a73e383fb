"""The built-in strategies (engine/ten_pennies/bots.py BOTS, engine/ten_pennies/strategies.py): legal, deterministic,
and stronger than random where they should be, measured on duplicate deals."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from tenpennies.engine.cards import decks_for
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import play_duplicate_deal, play_game
from tenpennies.engine.ten_pennies import Card, Command, Game, HouseRules, SeatView
from tenpennies.engine.ten_pennies.bots import BOTS, GreedyBot
from tenpennies.engine.ten_pennies.commands import Buy, DeclineDiscard, Discard, PassBuy, TakeDiscard
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.strategies import PLANS, PlanBot, SamplerBot, buy_helps, contract_distance
from tenpennies.engine.ten_pennies.worlds import SeatMemory

from positions import position

CHEAP = ("random", "greedy", "averaging", "early", "holdout")


def short_rules(rng: random.Random, seats: int) -> HouseRules:
    max_hand = min(11, (decks_for(seats) * 54 - 1) // seats)
    return HouseRules(
        preset=rng.choice(["standard", "deuces"]), distinct_suits=rng.random() < 0.8,
        all_wild_sets=rng.random() < 0.8, wild_layoff_cap=rng.random() < 0.3,
        discard_to_go_out=rng.random() < 0.3,
        later_set_wilds="one_per_three" if rng.random() < 0.3 else "round_cap",
        hand_size=rng.randint(5, max_hand), buy_pennies=rng.randint(0, 10), buy_penalty_cards=rng.randint(0, 3),
        reshuffles=rng.randint(0, 2), max_turns=rng.randint(4, 14), rounds=(rng.randint(1, 7),))


class Checked:
    """Wraps a bot: every command it chooses must be one its view lists (apply would refuse others)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        observe = getattr(bot, "observe", None)
        if observe is not None:
            self.observe = observe

    def choose(self, view: SeatView) -> Command:
        command: Command = self.bot.choose(view)
        assert command in view.legal, f"{type(self.bot).__name__} chose {command}, not listed"
        return command


def play_checked(game: Game, bots: Sequence[Bot]) -> Game:
    return play_game(game, [Checked(b) for b in bots])


def test_cheap_strategies_play_thousands_of_games_with_only_listed_commands() -> None:
    rng = random.Random(2026)
    played: Counter[str] = Counter()
    for number in range(1250):
        seats = rng.randint(2, 8)
        rules = short_rules(rng, seats)
        names = [CHEAP[(number + s) % len(CHEAP)] for s in range(seats)]
        game = play_checked(Game(seats, rules, number), [BOTS[n](number * 10 + s) for s, n in enumerate(names)])
        assert game.over
        played.update(set(names))
    assert min(played[n] for n in CHEAP) >= 1000, played


def test_sampler_plays_only_listed_commands() -> None:
    rng = random.Random(7)
    for number in range(16):
        seats = rng.randint(2, 5)
        rules = short_rules(rng, seats)
        bots: list[Bot] = [SamplerBot(number + s, samples=2, max_discards=2) if s % 2 == 0
                           else PlanBot(rng.choice(list(PLANS))) for s in range(seats)]
        assert play_checked(Game(seats, rules, number), bots).over


def test_same_seed_same_game() -> None:
    rules = HouseRules(rounds=(1, 6), max_turns=12)
    for name in (*CHEAP, "sampler"):
        def bots(name: str = name) -> list[Bot]:
            if name == "sampler":
                return [SamplerBot(s, samples=3) for s in range(3)]
            return [BOTS[name](s) for s in range(3)]
        first = play_game(Game(3, rules, 5), bots())
        again = play_game(Game(3, rules, 5), bots())
        assert first.log == again.log and first.to_dict() == again.to_dict()


def test_sampler_with_a_time_budget_answers_in_time() -> None:
    game = Game(4, HouseRules(rounds=(1,)), 3)
    bot = SamplerBot(seconds=0.05)
    while not game.over:
        seat = game.to_act()[0]
        command = bot.choose(game.view(seat)) if seat == 0 else GreedyBot().choose(game.view(seat))
        assert command in game.view(seat).legal
        game.apply(command)
        if bot.decisions >= 3:
            break
    assert bot.rollouts > 0


def test_the_sampler_keeps_a_memory_per_seat() -> None:
    bot = SamplerBot(samples=2)
    game = Game(3, HouseRules(rounds=(1,), max_turns=8), 1)
    play_game(game, [bot, bot, bot])
    assert sorted(bot.memories) == [0, 1, 2]
    assert all(isinstance(m, SeatMemory) for m in bot.memories.values())


def test_the_sampler_searches_its_takes_buys_and_discards_only() -> None:
    """Over real games: the policy's own choice comes first; a take and a buy are searched against the
    decline and the pass, a discard against the next best discard of another rank; a decline, a pass, a
    draw and a meld are played without a search."""
    game = Game(4, HouseRules(rounds=(1, 4)), 21)
    sampler, policy, wide = SamplerBot(samples=2), PlanBot("early"), SamplerBot(samples=2, max_discards=3)
    searched: Counter[str] = Counter()
    while not game.over:
        for seat in game.to_act():
            view = game.view(seat)
            candidates = sampler.candidates(view)
            assert candidates[0] == policy.choose(view)
            assert all(c in view.legal for c in candidates)
            if view.phase is Phase.PICK_UP:
                wanted = candidates[0] == TakeDiscard(seat)
                assert candidates == ([TakeDiscard(seat), DeclineDiscard(seat)] if wanted else [DeclineDiscard(seat)])
            elif view.phase is Phase.BUY:
                wanted = candidates[0] == Buy(seat)
                assert candidates == ([Buy(seat), PassBuy(seat)] if wanted else [PassBuy(seat)])
            elif isinstance(candidates[0], Discard) and len({c.rank for c in view.hand}) >= 3:
                discards = wide.candidates(view)
                assert len(candidates) == 2 and discards[:2] == candidates  # the policy's best two, then a third
                assert len({c.card.rank for c in discards if isinstance(c, Discard)}) == 3
                searched["three discards"] += 1
            elif not isinstance(candidates[0], Discard):
                assert len(candidates) == 1  # a meld is not searched
            if len(candidates) > 1:
                searched[view.phase.value] += 1
        seat = game.to_act()[0]
        game.apply(BOTS["early"](0).choose(game.view(seat)))
    assert searched["pick_up"] > 0 and searched["buy"] > 0 and searched["three discards"] > 0, searched


def test_the_search_overrules_the_policy_only_on_clear_evidence() -> None:
    bot = SamplerBot(min_worlds=8, margin=2.0)
    policy = [float(v) for v in (10, -5, 3, 8, -2, 0, 7, 4, -6, 1)]
    assert bot._pick([policy, [v + 6 for v in policy]]) == 1            # a steady gain on the same worlds
    assert bot._pick([policy, [v + 6 for v in policy], [v + 9 for v in policy]]) == 2  # the best gain
    noisy = [v + g for v, g in zip(policy, (30, -25, 28, -20, 25, -30, 22, -18, 27, -24), strict=True)]
    assert bot._pick([policy, noisy]) == 0                               # a gain within the noise
    assert bot._pick([policy, [v - 6 for v in policy]]) == 0             # a loss
    few = policy[:7]
    assert bot._pick([few, [v + 6 for v in few]]) == 0                   # too few worlds to overrule

# --- the shared policy's judgement -----------------------------------------------------------------

def test_buying_is_conservative() -> None:
    game = position(hands={0: "7H 7S 9C 9D KD 4S 3C QH"}, round=1)
    spec, rules, hand = game.spec, game.rules, game.players[0].hand
    assert contract_distance(hand, spec, rules) == 2
    assert buy_helps(hand, Card.parse("7C"), spec, rules)       # completes a set of the contract
    assert buy_helps(hand, Card.parse("9H"), spec, rules)
    assert buy_helps(hand, Card.parse("JK"), spec, rules)       # a wild card
    assert not buy_helps(hand, Card.parse("KH"), spec, rules)   # a pair would still be one short
    assert not buy_helps(hand, Card.parse("7H.1"), spec, rules)  # a second 7 of hearts cannot join (TP-4.9)
    laid = position(hands={0: "7H 7S 7C 9C 9D 9H QH"}, round=1)
    assert not buy_helps(laid.players[0].hand, Card.parse("QS"), spec, rules)  # the contract is complete


def test_plans_spend_their_pennies_as_named() -> None:
    seven_rounds = HouseRules()
    assert [PLANS["averaging"].allowance(seven_rounds, r) for r in range(1, 8)] == [1, 1, 1, 1, 1, 2, 2]
    assert [PLANS["early"].allowance(seven_rounds, r) for r in range(1, 8)] == [None] * 7
    assert [PLANS["holdout"].allowance(seven_rounds, r) for r in range(1, 8)] == [0, 0, 0, 0, None, None, None]


# --- strength on duplicate deals -------------------------------------------------------------------

def duplicate(make_x: Callable[[int], Bot], make_y: Callable[[int], Bot], deals: int,
              rules: HouseRules, first_seed: int = 1000) -> tuple[float, float, float, float]:
    """Each deal played twice at 4 seats, x y x y and y x y x: (mean score of x, of y, mean difference
    x - y per deal, its 95% half-interval)."""
    diffs, xs, ys = [], [], []
    for deal in range(deals):
        x_total, y_total = play_duplicate_deal(TEN_PENNIES, make_x, make_y, rules, first_seed, deal)
        xs.append(x_total)
        ys.append(y_total)
        diffs.append(x_total - y_total)
    mean = sum(diffs) / deals
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (deals - 1))
    return sum(xs) / deals, sum(ys) / deals, mean, 1.96 * sd / math.sqrt(deals)


def test_greedy_and_every_plan_beat_random_by_a_wide_margin() -> None:
    rules = HouseRules(rounds=(1, 5))
    for name in ("greedy", "averaging", "early", "holdout"):
        mine, theirs, diff, half = duplicate(BOTS[name], BOTS["random"], 40, rules)
        assert diff + half < 0, f"{name} {mine:.1f} vs random {theirs:.1f}: {diff:+.1f} ± {half:.1f}"
        assert mine < theirs / 2, f"{name} {mine:.1f} is not far below random's {theirs:.1f}"


def test_the_sampler_is_not_worse_than_greedy() -> None:
    rules = HouseRules(rounds=(1,))
    mine, theirs, diff, half = duplicate(lambda seed: SamplerBot(seed, samples=8, horizon=60),
                                         lambda seed: GreedyBot(), 6, rules)
    assert diff - half < 0, f"sampler {mine:.1f} vs greedy {theirs:.1f}: {diff:+.1f} ± {half:.1f}"
