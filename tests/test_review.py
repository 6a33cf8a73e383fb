"""The review of a game (engine/review.py): each decision of a seat scored by its game's searcher from the
seat's information alone, checked against a direct rollout on small positions, blind to hidden cards,
ordered by cost, reproducible, stoppable."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from tenpennies.client.reviews import review_pooled
from tenpennies.engine.cards import Card
from tenpennies.engine.play import play_game
from tenpennies.engine.review import (
    DEEPER,
    FIRST_WORLDS,
    SCREEN,
    SURE_FROM,
    Job,
    Mark,
    Option,
    Plan,
    Review,
    Stopped,
    Walk,
    called_mistakes,
    decisions,
    first_look,
    half_width,
    paired,
    review_game,
    score_decision,
    to_refine,
    weigh,
)
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.commands import Discard, LayOff
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES, review_options
from tenpennies.engine.ten_pennies.strategies import fast_choice
from tenpennies.engine.ten_pennies.worlds import sample_world
from tenpennies.engine.thirty_one.bots import BOTS as T31_BOTS
from tenpennies.engine.thirty_one.game import Game as ThirtyOneGame
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules

from positions import position, thirty_one

OTHERS = {1: "2C 3D 4H 5S 6C", 2: "2D 3H 4S 5C 6D", 3: "2H 3S 4C 5D 6H"}


def down_with_two(others: dict[int, str] = OTHERS) -> Game:
    """Seat 0 is down with 7H and KS left and a set of sevens on the table: laying the 7H off and throwing
    the king goes out (0 points for sure); throwing either card keeps a card for later."""
    return position(hands={0: "7H KS", **others}, down=(0,), sets=[(0, "7C 7D 7S"), (0, "9C 9D 9S")])


def direct(game: Game, seat: int, command: Discard, worlds: int, seed: int) -> tuple[float, float]:
    """The seat's mean points to the round's end after ``command`` and its standard error, by playing the
    round out with the shared policy in worlds sampled from the seat's view: written here, apart from the
    searcher, to check its numbers."""
    rng = random.Random(seed)
    view = game.view(seat)
    points = []
    for _ in range(worlds):
        world = sample_world(view, rng)
        start = world.players[seat].score
        world.apply(command)
        while world.round_index == game.round_index and not world.over:
            world.apply(fast_choice(world, world.to_act()[0]))
        points.append(world.players[seat].score - start)
    mean = sum(points) / worlds
    spread = (sum((p - mean) ** 2 for p in points) / (worlds - 1)) ** 0.5
    return mean, spread / worlds ** 0.5


def test_a_decision_is_scored_against_a_direct_rollout() -> None:
    game = down_with_two()
    chosen = Discard(0, Card.parse("7H"))
    mark = score_decision(TEN_PENNIES, game, 0, chosen, 5, budget=600, seed=3)
    assert mark.index == 5 and mark.round == 1 and mark.chosen == "0 discard 7H"
    by_command = {o.command: o.points for o in mark.options}
    assert set(by_command) == {"0 discard 7H", "0 discard KS", "0 layoff 7H 0"}, by_command
    assert mark.best.command == "0 layoff 7H 0" and mark.best.points == 0.0  # then out: nothing left
    assert [o.points for o in mark.options] == sorted(o.points for o in mark.options)
    assert mark.loss == pytest.approx(by_command["0 discard 7H"]) and mark.loss > 0
    for card in ("7H", "KS"):
        mean, error = direct(game, 0, Discard(0, Card.parse(card)), 400, seed=11)
        assert abs(by_command[f"0 discard {card}"] - mean) < 4 * error + 1.0, (card, by_command, mean, error)
    # the Mark's numbers are the searcher's own, world by world: the chosen one and the best in all its worlds
    options = review_options(game, 0, chosen)
    assert options[0] == chosen and LayOff(0, Card.parse("7H"), 0) in options
    table = TEN_PENNIES.option_rollouts(game, 0, 3)([chosen, LayOff(0, Card.parse("7H"), 0)],  # type: ignore[attr-defined]
                                                    range(mark.worlds))
    assert [sum(v) / len(v) for v in table] == pytest.approx([by_command["0 discard 7H"], 0.0])
    assert mark.costly and 0 < mark.margin < mark.loss  # keeping the seven is a mistake, and a sure one


def test_hidden_cards_the_seat_cannot_know_leave_its_review_unchanged() -> None:
    chosen = Discard(0, Card.parse("7H"))
    moved = {1: "2H 3S 4C 5D 6H", 2: "2C 3D 4H 5S 6C", 3: "QC QD JH TS 8C"}  # other hands, other stock
    marks = [score_decision(TEN_PENNIES, game, 0, chosen, 0, budget=60, seed=9)
             for game in (down_with_two(), down_with_two(moved))]
    assert marks[0] == marks[1]
    assert score_decision(TEN_PENNIES, down_with_two(), 0, chosen, 0, budget=60, seed=10) != marks[0]


def test_thirty_one_decision_is_blind_to_hidden_cards_and_prefers_the_obvious() -> None:
    def game(others: dict[int, str]) -> ThirtyOneGame:
        return thirty_one(hands={0: "AH KH 2C", **others}, pile="QH", turn_seat=0, dealer=3)

    first = game({1: "2D 3D 4D", 2: "2S 3S 4S", 3: "5C 6C 7C"})
    second = game({1: "5C 6C 7C", 2: "2D 3D 4D", 3: "8S 9S TS"})
    chosen = THIRTY_ONE.parse_command("0 draw")
    marks = [score_decision(THIRTY_ONE, g, 0, chosen, 0, budget=200, seed=4) for g in (first, second)]
    assert marks[0] == marks[1]
    points = {o.command: o.points for o in marks[0].options}
    assert points["0 take"] == marks[0].best.points == 0.0  # QH makes 31 in hearts: no life lost
    assert marks[0].loss == points["0 draw"] > 0


@pytest.fixture(scope="module")
def played() -> Game:
    rules = HouseRules(rounds=(1, 2))
    return play_game(Game(4, rules, 21), [BOTS["greedy"](s) for s in range(4)])


def test_a_whole_game_is_reviewed_in_order_costliest_first(played: Game) -> None:
    calls: list[tuple[int, int]] = []
    review = review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=1,
                         progress=lambda done, total: calls.append((done, total)), game_id="t1", refine=0)
    wanted = decisions(TEN_PENNIES, 4, played.rules, 21, played.log, 2)
    assert [m.index for m in review.marks] == wanted and len(wanted) > 10
    assert calls == [(i, len(wanted)) for i in range(len(wanted) + 1)]
    assert review.complete and review.game_id == "t1" and review.seat == 2 and review.budget == 8
    assert review.seed == 1
    assert review.searcher == TEN_PENNIES.searcher[0]
    for mark in review.marks:
        assert mark.chosen == TEN_PENNIES.format_command(played.log[mark.index])
        assert played.log[mark.index].seat == 2 and len(mark.options) > 1
        chosen = next(o.points for o in mark.options if o.command == mark.chosen)
        assert mark.loss == pytest.approx(chosen - mark.best.points)
        assert [o.points for o in mark.options] == sorted(o.points for o in mark.options)
    assert all(m.costly == (m.loss - m.margin > 0) == (m.least > 0) for m in review.marks)
    assert not review.costliest(5) and not review.called  # no mistake on 8 worlds
    assert all(m.worlds == FIRST_WORLDS for m in review.marks)
    assert all(math.isinf(m.margin) for m in review.marks if m.loss > 0)
    assert review.total_loss == pytest.approx(sum(m.loss for m in review.marks))
    assert review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=1, game_id="t1",
                       refine=0) == review
    assert Review.from_dict(review.to_dict()) == review


def test_the_looks_again_double_the_worlds_where_the_costliest_are_in_question(played: Game) -> None:
    plan = Plan(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=64, seed=1, refine=4)
    walk = Walk(TEN_PENNIES, 4, played.rules, 21, played.log, 2)
    looks = plan.looks()
    first = next(looks)
    assert [job.index for job in first] == plan.wanted
    assert all(job.most == first_look(plan.options[job.index]) and job.table is None
               and job.seed == 1_000_003 + job.index for job in first)
    assert first_look(2) > first_look(4) == first_look(9) == FIRST_WORLDS  # a choice of two: more worlds
    for job in first:
        plan.scored(job, walk.score(job))
    was = dict(plan.marks)
    sizing = plan.sizing()
    second = next(looks)
    assert [job.index for job in second] == to_refine(sizing, 4, most=64) and len(second) == 4
    assert all(job.most == 2 * was[job.index].worlds and job.table == plan.tables[job.index] for job in second)
    kept = {job.index: [list(values) for values in job.table or []] for job in second}
    for job in second:
        plan.scored(job, walk.score(job))
    grown = [i for i in kept if plan.marks[i].worlds > was[i].worlds]
    assert grown and all(plan.marks[i].worlds == 2 * was[i].worlds for i in grown)
    for i, old in kept.items():  # carried on in the same worlds: the first look's stay as they were
        assert [values[:len(before)] for values, before in zip(plan.tables[i] or [], old, strict=True)] == old
    for jobs in looks:
        for job in jobs:
            plan.scored(job, walk.score(job))
    review = plan.review()
    assert review == review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=64, seed=1, refine=4)
    assert all(m.worlds <= DEEPER * 64 for m in review.marks) and max(m.worlds for m in review.marks) > SURE_FROM
    assert plan.spent() <= sum(len(v) for t in plan.tables.values() for v in t or []) and plan.total > len(plan.wanted)


def test_the_costliest_in_question_are_told_apart_first() -> None:
    """``to_refine`` on made-up marks: the sure mistakes ranked by what they surely cost (the low end), those
    that may yet join the first five and those of the five that may yet fall out looked at again."""
    def mark(index: int, loss: float, margin: float, worlds: int = 16) -> Mark:
        options = (Option("0 discard 2C", 0.0), Option("0 discard 3C", loss)) if loss else \
            (Option("0 discard 2C", 0.0), Option("0 discard 3C", 5.0))
        return Mark(index, 1, "0 discard 3C" if loss else "0 discard 2C", options, loss, margin, worlds)

    clear = {i: mark(i, 40.0 + i, 2.0) for i in range(5)}          # five sure and far apart from the rest
    quiet = {10 + i: mark(10 + i, 0.0, 1.0) for i in range(20)}     # the chosen one clearly best
    assert to_refine({**clear, **quiet}, 12) == []
    unsure = {30: mark(30, 20.0, 25.0), 31: mark(31, 3.0, 1.0)}    # may yet be among the five; surely not
    assert to_refine({**clear, **quiet, **unsure}, 2) == [0, 30]    # it, and the fifth it may displace
    assert to_refine({**clear, **quiet, **unsure}, 12, most=16) == []  # as many worlds as they may have
    close = {5: mark(5, 39.0, 6.0)}                                 # a sixth close to the fifth
    assert to_refine({**clear, **close}, 1) == [5]                  # the outsider of farthest reach first
    assert to_refine({**clear, **close}, 3) == [0, 1, 5]            # then the lowest of the five
    assert to_refine({**clear, **quiet}, 12) == []
    costly = Review("g", 0, "search", 64, tuple({**clear, **close, **unsure}.values()), seed=1).costliest(5)
    assert [m.index for m in costly] == [4, 3, 2, 1, 0]             # the sure ones, costliest first
    missed = {32: mark(32, 30.0, 6.0)}                              # reaches the fifth only on a wider interval
    assert 30.0 + 6.0 < clear[0].least < 30.0 + SCREEN * 6.0
    assert to_refine({**clear, **missed}, 1) == [32]                # looked at again: a first look misses some


def test_the_costliest_are_what_surely_cost_most_and_say_when_too_close_to_call() -> None:
    """The list ranks by the low end of each interval: a cost seen in a few worlds, which the next seed may
    halve, comes after one as large that many worlds agree on; those the intervals cannot tell from the first
    left out are too close to call."""
    def mark(index: int, loss: float, margin: float) -> Mark:
        return Mark(index, 1, "0 discard 3C", (Option("0 discard 2C", 0.0), Option("0 discard 3C", loss)), loss,
                    margin, 64)

    wide, narrow = mark(1, 20.0, 15.0), mark(2, 12.0, 1.0)
    review = Review("g", 0, "search", 64, (wide, narrow, mark(3, 9.0, 1.0), mark(4, 8.0, 1.0)), seed=1)
    assert [m.index for m in review.costliest(4)] == [2, 3, 4, 1]   # 11, 8, 7 and 5 points surely
    assert review.too_close(4) == [] and review.too_close(9) == []  # nothing left out: every place is sure
    assert [m.index for m in review.too_close(2)] == [3]             # 9 ± 1 is no clearer than 8 ± 1, left out
    assert [m.index for m in review.too_close(3)] == [2, 3, 4]      # 20 ± 15 may cost more than any of them
    assert review.too_close(1) == []                                # 12 ± 1 surely cost more than 9 ± 1
    even = Review("g", 0, "search", 64, (mark(7, 8.0, 1.0), mark(5, 8.0, 1.0)), seed=1)
    assert [m.index for m in even.costliest(1)] == [5] and [m.index for m in even.too_close(1)] == [5]  # game order


def test_a_decision_at_the_edge_of_the_five_is_played_in_more_worlds_than_the_budget(played: Game) -> None:
    """The looks again may take a decision in question past the budget, to ``DEEPER`` times it; the rest keep
    their first look's worlds."""
    review = review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=3)
    worlds = sorted(m.worlds for m in review.marks)
    assert 8 < worlds[-1] <= DEEPER * 8 and worlds[len(worlds) // 2] == 8


def test_where_more_worlds_go_and_when_a_mistake_is_sure() -> None:
    """A made-up searcher (option o is worth ``o.worth`` plus the world's luck, the same for every option, plus
    noise of its own): what ``weigh`` plays, and what the paired interval makes of it."""
    played: list[tuple[int, int]] = []

    def rollouts(options: Sequence[int], worlds: range) -> list[list[float]]:
        for option in options:
            played.extend((option, j) for j in worlds)
        return [[worth + 20 * math.sin(j) + random.Random(f"{worth}/{j}").gauss(0, 3) for j in worlds]
                for worth in options]

    table = weigh(rollouts, [10, 0, 60], most=64)  # chosen 10, the best 0, one far worse
    assert len(table[2]) == FIRST_WORLDS  # clear of the best on the first look: no more worlds
    assert len(table[0]) == len(table[1]) > FIRST_WORLDS  # the chosen and the best: played on, in the same worlds
    assert sorted(set(played)) == sorted(played)  # no world played twice for an option
    loss, margin = paired(table, 0, 1)
    assert 0 < margin < loss == pytest.approx(10, abs=1)
    played.clear()
    carried = weigh(rollouts, [10, 0, 60], most=64, table=table)  # carried on: nothing left to decide
    assert carried == table and not played
    assert half_width([1.0, 3.0, 2.0, 4.0, 0.0]) == pytest.approx(2.776 * math.sqrt(2.5 / 5), rel=0.03)  # t(4)
    assert half_width([2.0] * 8) == math.inf and half_width([2.0] * 40) == 0  # the same in a few worlds: unknown


def test_a_review_of_hundreds_of_decisions_calls_only_the_mistakes_that_stand_out_from_their_luck() -> None:
    options = (Option("0 discard KS", 4.0), Option("0 discard 7H", 5.0))
    fair = [Mark(i, 1, "0 discard KS", options[::-1], 0.0, 3.0, 64) for i in range(300)]
    lucky = [Mark(300 + i, 1, "0 discard 7H", options, 1.0, 0.9, 64) for i in range(3)]  # clear of its own noise
    plain = Mark(400, 1, "0 discard 7H", (options[0], Option("0 discard 7H", 14.0)), 10.0, 2.0, 64)
    assert all(m.costly for m in lucky) and lucky[0].chance == pytest.approx(0.0150, abs=0.0002)
    assert Mark(1, 1, "x", options, 1.0, 1.0).chance == pytest.approx(0.025)  # the margin's own 2.5% a side
    assert fair[0].chance == 1 and Mark(1, 1, "x", options, 1.0, math.inf).chance == 1
    assert Mark(1, 1, "x", options, 1.0, 0.0).chance == 0  # a loss taken as sure (no margin measured)
    many = Review("g", 0, "search", 96, (*fair, *lucky, plain), seed=1)
    assert many.called == {400} and many.mistakes == 1 and many.costliest(5) == [plain]
    assert called_mistakes((*fair, *lucky, plain)) == {400}
    few = Review("g", 0, "search", 96, (*lucky, plain), seed=1)  # four decisions: as their intervals say
    assert few.called == {300, 301, 302, 400} and [m.index for m in few.costliest(5)] == [400, 300, 301, 302]
    assert called_mistakes((*fair[:20], *lucky, plain)) == {300, 301, 302, 400}  # three of 24 clear: not luck
    assert called_mistakes((*fair[:30], *lucky, plain)) == {400}  # of 34, luck might show as many
    assert called_mistakes((*fair[:30], *lucky, plain), rate=0.2) == {300, 301, 302, 400}
    assert called_mistakes(()) == frozenset()
    step = (Option("0 discard KS", 0.0), Option("0 discard 7H", 1.0))  # chances 0.005, 0.021, 0.024 among ten:
    clear = [Mark(10 + i, 1, "0 discard 7H", step, loss, 1.0) for i, loss in enumerate((1.314, 1.0375, 1.0087))]
    assert [round(m.chance, 3) for m in clear] == [0.005, 0.021, 0.024]  # (no worlds recorded: the normal tail)
    ten = (*fair[:7], *clear)  # the second is above 2/10 of the rate, the third within 3/10: all three called
    assert called_mistakes(ten) == {10, 11, 12} and called_mistakes((*fair[:10], *clear)) == {10}
    assert Mark(1, 1, "x", options, 3.708 / 2.131, 1.0, 16).chance == pytest.approx(0.00105, rel=0.02)  # t, 15 df


def test_a_mark_is_a_mistake_only_when_sure_and_old_reviews_still_load() -> None:
    options = (Option("0 discard KS", 4.0), Option("0 discard 7H", 10.0))
    sure = Mark(3, 1, "0 discard 7H", options, 6.0, 2.5, 64)
    unsure = Mark(3, 1, "0 discard 7H", options, 6.0, 7.0, 64)
    assert sure.costly and not unsure.costly and not Mark(3, 1, "0 discard 7H", options, 6.0, math.inf).costly
    review = Review("g", 0, "search", 48, (sure, unsure), seed=4)
    assert review.costliest(5) == [sure] and review.mistakes == 1
    for kept in (review, Review("g", 0, "search", 48, (Mark(3, 1, "0 discard 7H", options, 6.0, math.inf),))):
        assert Review.from_dict(json.loads(json.dumps(kept.to_dict()))) == kept
    old = {"game_id": "g", "seat": 0, "searcher": "search", "budget": 48,
           "marks": [{"index": 3, "round": 1, "chosen": "0 discard 7H", "loss": 6.0,
                      "options": [["0 discard KS", 4.0], ["0 discard 7H", 10.0]]}]}
    loaded = Review.from_dict(old)
    assert loaded.seed is None and loaded.marks[0].margin == 0.0 and loaded.marks[0].costly
    many = tuple(Option(f"0 discard {c}", float(p)) for p, c in enumerate(("2C", "3C", "4C", "5C", "6C")))
    late = Mark(3, 1, "0 discard 5C", many, 3.0, 1.0)
    assert [o.command for o in late.listed(3)] == ["0 discard 2C", "0 discard 3C", "0 discard 5C"]
    assert late.listed(5) == many


def test_a_review_stops_when_asked(played: Game) -> None:
    done: list[int] = []
    with pytest.raises(Stopped) as stopped:
        review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 1, budget=4,
                    progress=lambda n, total: done.append(n), stop=lambda: len(done) > 3)
    partial = stopped.value.review
    assert len(partial.marks) == 3 and not partial.complete
    assert not Review.from_dict(partial.to_dict()).complete


def test_a_thirty_one_game_is_reviewed() -> None:
    rules = ThirtyOneRules()
    game = play_game(ThirtyOneGame(4, rules, 5), [T31_BOTS["heuristic"](s) for s in range(4)])
    review = review_game(THIRTY_ONE, 4, rules, 5, game.log, 1, budget=24, seed=2)
    assert review.marks and review.searcher == "searcher"
    assert all(m.round >= 1 and m.options[0].points <= m.options[-1].points for m in review.marks)


class Swapped:
    """Ten Pennies as a review plays it, every game of it dealt with two cards of two other seats' hands
    swapped: cards the reviewed seat never sees, whose seat keeps them to the end (so the game's log plays
    on as it did)."""

    def __init__(self, first: tuple[int, Card], second: tuple[int, Card]) -> None:
        self.first, self.second = first, second

    def __getattr__(self, name: str) -> Any:
        return getattr(TEN_PENNIES, name)

    def new(self, seats: int, rules: HouseRules, seed: int) -> Game:
        game = TEN_PENNIES.new(seats, rules, seed)
        (a, card_a), (b, card_b) = self.first, self.second
        hand_a, hand_b = game.players[a].hand, game.players[b].hand
        hand_a[hand_a.index(card_a)], hand_b[hand_b.index(card_b)] = card_b, card_a
        return game


def test_a_hidden_card_never_changes_a_whole_review() -> None:
    """Two deals that differ only in cards seat 3 never sees give it the same review, looks again and all; the
    same deal with those cards changing hands for the seat (as if it could see them) does not."""
    rules = HouseRules(rounds=(1,))
    game = play_game(Game(4, rules, 1), [BOTS["greedy"](s) for s in range(4)])
    dealt = Game(4, rules, 1)
    named = {word for command in game.log for word in TEN_PENNIES.format_command(command).split()}
    kept = [[c for c in dealt.players[s].hand if c in game.players[s].hand and c.text not in named]
            for s in range(4)]  # dealt to the seat, never shown, held to the end
    first, second = next(((s, a), (t, b)) for s in range(3) for t in range(s + 1, 3) for a in kept[s]
                         for b in kept[t] if a.points != b.points)
    swapped: Any = Swapped(first, second)
    assert swapped.new(4, rules, 1).players[first[0]].hand != dealt.players[first[0]].hand
    reviews = [review_game(kind, 4, rules, 1, game.log, 3, budget=32, seed=5) for kind in (TEN_PENNIES, swapped)]
    assert reviews[0] == reviews[1] and len(reviews[0].marks) > 10
    assert max(m.worlds for m in reviews[0].marks) > SURE_FROM  # the looks again too
    seen: Any = Swapped(first, (3, kept[3][0]))  # a card of the seat's own: its review changes
    assert review_game(seen, 4, rules, 1, game.log, 3, budget=32, seed=5) != reviews[0]


def test_a_walk_remembers_what_the_log_rebuilds(played: Game) -> None:
    """A review's walk keeps the seat's memory as it goes (``Recalling``): each decision is scored as one
    scored alone, its memory rebuilt from the game's log."""
    walk = Walk(TEN_PENNIES, 4, played.rules, 21, played.log, 2)
    wanted = decisions(TEN_PENNIES, 4, played.rules, 21, played.log, 2)
    for index in wanted[::7] + wanted[3::11]:  # forward, then back to the start and forward again
        game = Game.replay(4, played.rules, 21, played.log[:index], trusted=True)
        alone = score_decision(TEN_PENNIES, game, 2, played.log[index], index, budget=8, seed=index)
        assert walk.score(Job(index, 8, index, 1.0, None))[0] == alone


@pytest.fixture(scope="module")
def blundering() -> Game:
    """One round at three seats, seat 2 playing at random: mistakes enough to find."""
    rules = HouseRules(rounds=(1,))
    return play_game(Game(3, rules, 5), [BOTS["greedy"](0), BOTS["greedy"](1), BOTS["random"](2)])


def test_two_seeds_agree_within_their_intervals(blundering: Game) -> None:
    reviews = [review_game(TEN_PENNIES, 3, blundering.rules, 5, blundering.log, 2, budget=16, seed=s)
               for s in (1, 2)]
    assert reviews[0].seed == 1 and reviews[1].seed == 2
    assert reviews[0].marks != reviews[1].marks  # other worlds
    for a, b in zip(reviews[0].marks, reviews[1].marks, strict=True):  # the same decision, the same verdict's reach
        assert a.loss - a.margin <= b.loss + b.margin and b.loss - b.margin <= a.loss + a.margin, (a, b)
    sure = [r.called for r in reviews]
    assert sure[0] & sure[1], sure  # the plainest mistakes are called by both
    for seed in (1, 2, 3):  # a plain mistake of a position: called by every seed, the right move by none
        game = down_with_two()
        wrong = score_decision(TEN_PENNIES, game, 0, Discard(0, Card.parse("7H")), 0, budget=48, seed=seed)
        right = score_decision(TEN_PENNIES, game, 0, LayOff(0, Card.parse("7H"), 0), 0, budget=48, seed=seed)
        assert wrong.costly and not right.costly and right.loss == 0


def test_a_review_in_a_pool_of_processes_is_the_one_made_in_one(played: Game) -> None:
    serial = review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=32, seed=3, refine=4)
    calls: list[tuple[int, int]] = []
    pooled = review_pooled(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=32, seed=3, refine=4, workers=2,
                           progress=lambda done, total: calls.append((done, total)))
    assert pooled == serial and max(m.worlds for m in serial.marks) > SURE_FROM  # looked at again, too
    assert [d for d, _ in calls] == list(range(len(calls))) and calls[-1][0] == calls[-1][1]
    done: list[int] = []
    with pytest.raises(Stopped) as stopped:
        review_pooled(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=32, seed=3, workers=2,
                      progress=lambda n, total: done.append(n), stop=lambda: len(done) > 5)
    partial = stopped.value.review
    assert not partial.complete and 5 <= len(partial.marks) < len(serial.marks)
    assert set(partial.marks) <= {m for m in review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=32,
                                                         seed=3, refine=0).marks}
