"""Judging a seat's options from what it knows (engine/ten_pennies/search.py): ``option_values``, which the
game review calls, and the ``searcher`` bot built on it."""

from __future__ import annotations

import math
import random
import time

import pytest

from tenpennies.engine.cards import Card, decks_for, shoe
from tenpennies.engine.play import play_game
from tenpennies.engine.ten_pennies import Game, HouseRules, SeatView, parse_cards
from tenpennies.engine.ten_pennies import value as learned
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.commands import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayOff,
    PassBuy,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.search import (
    SearchBot,
    aligned,
    option_rollouts,
    option_values,
    pick,
    rollout,
    seat_memory,
)
from tenpennies.engine.ten_pennies.strategies import fast_choice, meld_policy, view_table, would_buy, would_take
from tenpennies.engine.ten_pennies.worlds import SeatMemory, sample_world

from positions import position

# Seat 0 is down in round 1 (two sets of three) with the queen of spades and the four of hearts, its set of
# queens on the table; every other seat holds one card and is not down, so nobody else can go out before
# seat 0's next turn, and seat 0 goes out on it with whatever it keeps but the four. The round ends after
# that turn (TP-4.20), so keeping the four costs its points unless a wild card or the other queen of spades
# comes to seat 0.
LATE = {"hands": {0: "QS 4H", 1: "8C", 2: "5D", 3: "KH"}, "pile": "9C", "down": (0,), "sets": [(0, "QH QD QC")],
        "round": 1, "rounds": (1,), "max_turns": 5}


def late_position(**changes: object) -> Game:
    return position(**{**LATE, **changes})  # type: ignore[arg-type]


def direct_values(game: Game, seat: int, options: list[Command], worlds: int, seed: int) -> list[tuple[float, float]]:
    """Each option's mean points for the rest of the round and its standard error, by rolling it out with
    the shared policy in ``worlds`` deals of the cards ``seat`` cannot see, dealt here by the test itself
    (the other hands keep their sizes; the rest is the stock)."""
    rng = random.Random(seed)
    seen = {c.id for c in game.players[seat].hand} | {c.id for c in game.pile} \
        | {c.id for t in game.table for c in t.cards}
    unseen = [c for c in shoe(decks_for(game.n)) if c.id not in seen]
    results: list[list[int]] = [[] for _ in options]
    for _ in range(worlds):
        rng.shuffle(unseen)
        world = game.copy()
        cards = list(unseen)
        for s, player in enumerate(world.players):
            if s != seat:
                player.hand = [cards.pop() for _ in player.hand]
        world.stock = cards
        world.rng.seed(rng.getrandbits(64))
        for i, option in enumerate(options):
            played = world.copy()
            start = played.players[seat].score
            played.apply(option)
            while played.round_index == world.round_index and not played.over:
                played.apply(fast_choice(played, played.to_act()[0]))
            results[i].append(played.players[seat].score - start)
    out = []
    for values in results:
        mean = sum(values) / worlds
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (worlds - 1))
        out.append((mean, sd / math.sqrt(worlds)))
    return out


def test_option_values_agree_with_a_direct_rollout_on_a_late_position() -> None:
    game = late_position()
    lay_off, keep_queen, keep_four = LayOff(0, Card.parse("QS"), 0), Discard(0, Card.parse("4H")), \
        Discard(0, Card.parse("QS"))
    options: list[Command] = [lay_off, keep_queen, keep_four]
    values = option_values(game, 0, options, budget=3 * 400, seed=5)
    # going out now, or keeping the queen to lay off next turn, leaves nothing in hand whatever is hidden
    assert values[0] == 0.0 and values[1] == 0.0
    # keeping the four: the four's points and more, unless a wild card or the other queen of spades comes
    direct = direct_values(game, 0, options, 400, seed=6)
    assert direct[0] == (0.0, 0.0) and direct[1] == (0.0, 0.0)
    mean, error = direct[2]
    assert mean > 2
    assert abs(values[2] - mean) < 4 * error * math.sqrt(2), (values[2], mean, error)


def test_option_values_decide_only_from_the_seats_information() -> None:
    """Moving cards the seat cannot see (another hand's card and the stock's order) changes nothing, given
    the same seed; a card the seat sees does."""
    game = position(hands={0: "7H 7S 9C KD 4S", 1: "8C 8D 2H JS 5C", 2: "5D 5H TC TS 3D", 3: "KH KS 6C 6D 3S"},
                    pile="9D", round=1, rounds=(1,))
    hidden = game.copy()
    stock_card = hidden.stock.pop()
    hidden.players[1].hand[0], stock_card = stock_card, hidden.players[1].hand[0]
    hidden.stock.insert(0, stock_card)
    random.Random(3).shuffle(hidden.stock)
    assert hidden.to_dict() != game.to_dict() and hidden.view(0) == game.view(0)
    options: list[Command] = [Discard(0, c) for c in parse_cards("KD 4S 9C")]
    values = option_values(game, 0, options, budget=60, seed=11)
    assert option_values(hidden, 0, options, budget=60, seed=11) == values
    assert option_values(game, 0, options, budget=60, seed=11) == values  # reproducible
    assert option_values(game, 0, options, budget=60, seed=12) != values  # other worlds
    seen = game.copy()
    seen.pile[-1] = Card.parse("9H")  # the pile's top is public
    assert option_values(seen, 0, options, budget=60, seed=11) != values


def test_the_searcher_chooses_only_from_the_seats_information() -> None:
    game = Game(4, HouseRules(rounds=(1,)), 31)
    policy = BOTS["early"](0)
    decided = 0
    while not game.over and decided < 6:
        seat = game.to_act()[0]
        view = game.view(seat)
        bot = SearchBot(7, worlds=6)
        if len(bot.candidates(view)) > 1:
            hidden = game.copy()
            others = [s for s in range(4) if s != seat]
            a, b = hidden.players[others[0]].hand, hidden.players[others[1]].hand
            a[0], b[0] = b[0], a[0]
            random.Random(decided).shuffle(hidden.stock)
            assert hidden.view(seat) == view and hidden.to_dict() != game.to_dict()
            choice = bot.choose(view)
            assert SearchBot(7, worlds=6).choose(hidden.view(seat)) == choice
            decided += 1
        game.apply(policy.choose(view))
    assert decided == 6


def test_an_options_worlds_draw_alike_whichever_option_is_played() -> None:
    """``aligned``: a buy's penalty cards come from the bottom of a sampled stock, and a take leaves the card
    its seat would have drawn to the bottom, so the seats after draw the cards they would draw after a pass or
    a decline (a sampled stock's order is unknown to the seat: each option's worlds are as likely)."""
    game = Game(4, HouseRules(rounds=(1,)), 5)
    while game.phase is not Phase.PICK_UP or game.to_act()[0] != 0:
        game.apply(fast_choice(game, game.to_act()[0]))
    world = sample_world(game.view(0), random.Random(1))
    stock = list(world.stock)
    taken = world.copy()
    aligned(taken, TakeDiscard(0))
    assert taken.stock == stock[-1:] + stock[:-1]
    taken.apply(TakeDiscard(0))
    declined = world.copy()
    aligned(declined, DeclineDiscard(0))
    assert declined.stock == stock
    declined.apply(DeclineDiscard(0))
    while declined.phase is Phase.BUY:
        declined.apply(PassBuy(declined.to_act()[0]))
    declined.apply(Draw(0))
    assert taken.stock[1:] == declined.stock  # the next seats draw alike
    buying = world.copy()
    buying.apply(DeclineDiscard(0))
    offered = buying.to_act()[0]
    passing = buying.copy()
    aligned(buying, Buy(offered))
    buying.apply(Buy(offered))
    penalty = buying.rules.buy_penalty_cards
    assert buying.players[offered].hand[-penalty:] == stock[:penalty][::-1]  # from the bottom
    passing.apply(PassBuy(offered))
    while passing.phase is Phase.BUY:
        passing.apply(PassBuy(passing.to_act()[0]))
    while buying.phase is Phase.BUY:
        buying.apply(PassBuy(buying.to_act()[0]))
    assert buying.stock == passing.stock[penalty:]  # the draws to come: the same cards in the same order


def test_a_rollout_stops_at_its_horizon_where_the_value_was_fitted() -> None:
    game = Game(4, HouseRules(rounds=(1, 2)), 9)
    for _ in range(12):
        game.apply(fast_choice(game, game.to_act()[0]))
    seat = game.to_act()[0]
    option = fast_choice(game, seat)
    world = sample_world(game.view(seat), random.Random(2))
    stopped = world.copy()
    points = rollout(stopped, seat, option, horizon=8)
    assert stopped.round_index == world.round_index and stopped.phase is Phase.PICK_UP
    assert stopped.turn == world.turn + 8 and points == learned.value(stopped, seat)
    played = world.copy()
    assert rollout(played, seat, option) == played.players[seat].score - world.players[seat].score
    assert played.round_index != world.round_index  # to the round's end
    assert learned.fitted(game.rules) and not learned.fitted(HouseRules(buy_penalty_cards=1))
    options = TEN_PENNIES.review_options(game, seat, option)
    fitted = option_rollouts(game, seat, 3)(options, range(4))
    assert fitted != option_rollouts(game, seat, 3, horizon=None)(options, range(4))
    other = Game(4, HouseRules(rounds=(1, 2), buy_penalty_cards=1), 9)  # house rules the value was not fitted to
    for _ in range(12):
        other.apply(fast_choice(other, other.to_act()[0]))
    seat = other.to_act()[0]
    options = TEN_PENNIES.review_options(other, seat, fast_choice(other, seat))
    assert option_rollouts(other, seat, 3)(options, range(4)) == \
        option_rollouts(other, seat, 3, horizon=None)(options, range(4))


def test_the_rollout_policy_discards_what_the_shared_policy_does() -> None:
    """``fast_choice`` reads the game straight (its discard's key packed into one number, each hand tallied once
    a step): wherever the shared policy read from the seat's view discards, it discards the same card, takes
    and buys alike."""
    compared = {"discard": 0, "take": 0, "buy": 0}
    for seed in range(3):
        game = Game(4, HouseRules(rounds=(1, 3, 5, 7)), seed)
        while not game.over:
            seat = game.to_act()[0]
            view = game.view(seat)
            fast = fast_choice(game, seat)
            if view.phase is Phase.MELD:
                shared = meld_policy(view.hand, view.legal, view_table(view),
                                     any(p.down for p in view.players if p.seat != seat), view.spec, view.rules)
                if isinstance(shared, Discard):
                    assert fast == shared, (seed, view.hand, fast, shared)
                    compared["discard"] += 1
            elif view.phase is Phase.PICK_UP:
                assert isinstance(fast, TakeDiscard) == would_take(view)
                compared["take"] += 1
            elif view.phase is Phase.BUY:
                assert isinstance(fast, Buy) == would_buy(view)
                compared["buy"] += 1
            game.apply(fast)
    assert min(compared.values()) > 50, compared


def test_option_values_refuse_what_the_seat_may_not_do() -> None:
    game = late_position()
    with pytest.raises(ValueError):
        option_values(game, 0, [Discard(0, Card.parse("KH"))], budget=4, seed=0)  # not in its hand
    with pytest.raises(ValueError):
        option_values(game, 1, [Discard(1, Card.parse("8C"))], budget=4, seed=0)  # not its turn
    with pytest.raises(ValueError):
        option_values(game, 0, [Discard(0, Card.parse("4H"))], budget=0, seed=0)
    assert option_values(game, 0, [], budget=4, seed=0) == []


def test_the_seats_memory_is_rebuilt_from_the_log() -> None:
    """A game played from its seed: ``seat_memory`` remembers what a memory shown every view remembers."""
    game = Game(4, HouseRules(rounds=(1, 2)), 8)
    watched = SeatMemory(2)
    policy = BOTS["early"](0)
    knew = 0
    while not game.over:
        watched.observe(game.view(2))
        if 2 in game.to_act():
            rebuilt = seat_memory(game, 2)
            assert rebuilt is not None
            assert rebuilt.known == watched.known and rebuilt.pile == watched.pile
            knew += sum(len(k) for k in watched.known)
        seat = game.to_act()[0]
        game.apply(policy.choose(game.view(seat)))
    assert knew > 0  # it did remember cards in other hands
    assert seat_memory(late_position(), 0) is None  # a position set by hand has no log to replay


def test_the_searcher_keeps_the_policy_unless_another_choice_is_clearly_better() -> None:
    policy = [float(v) for v in (10, -5, 3, 8, -2, 0, 7, 4, -6, 1)]
    assert pick([policy, [v - 6 for v in policy]], 1.0) == 1                         # a steady gain
    assert pick([policy, [v - 6 for v in policy], [v - 9 for v in policy]], 1.0) == 2  # the best one
    noisy = [v - g for v, g in zip(policy, (30, -25, 28, -20, 25, -30, 22, -18, 27, -24), strict=True)]
    assert pick([policy, noisy], 1.0) == 0                                           # within the noise
    assert pick([policy, [v + 6 for v in policy]], 1.0) == 0                         # a loss


def test_the_searcher_plays_only_listed_commands_and_is_deterministic() -> None:
    class Listed(SearchBot):
        def choose(self, view: SeatView) -> Command:
            command = super().choose(view)
            assert command in view.legal, f"the searcher chose {command}, not listed"
            return command

    def played(seed: int) -> list[int]:
        game = Game(4, HouseRules(rounds=(1, 4)), seed)
        bots = [Listed(seed * 10 + s, worlds=2) if s % 2 == 0 else BOTS["greedy"](0) for s in range(4)]
        return [p.score for p in play_game(game, bots).players]

    assert played(3) == played(3)
    assert "searcher" in BOTS and isinstance(BOTS["searcher"](1), SearchBot)


def test_a_searched_decision_of_the_default_budget_is_within_a_second() -> None:
    """In the last round, whose hands are the largest (docs/BOTS.md gives the figures)."""
    game = Game(4, HouseRules(rounds=(7,)), 12)
    bot = SearchBot(1)
    timed = 0
    while timed < 2:
        seat = game.to_act()[0]
        view = game.view(seat)
        if len(bot.candidates(view)) > 1:
            started = time.process_time()
            bot.choose(view)
            assert time.process_time() - started < 1.0
            timed += 1
        game.apply(fast_choice(game, seat))
