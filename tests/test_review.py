"""The review of a game (engine/review.py): each decision of a seat scored by its game's searcher from the
seat's information alone, checked against a direct rollout on small positions, blind to hidden cards,
ordered by cost, reproducible, stoppable."""

from __future__ import annotations

import random

import pytest

from tenpennies.engine.cards import Card
from tenpennies.engine.review import REFINE_FACTOR, Review, Stopped, decisions, review_game, score_decision
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS, play_game
from tenpennies.engine.ten_pennies.commands import Discard, LayOff
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES, review_options
from tenpennies.engine.ten_pennies.strategies import fast_choice
from tenpennies.engine.ten_pennies.worlds import sample_world
from tenpennies.engine.thirty_one.bots import BOTS as T31_BOTS
from tenpennies.engine.thirty_one.bots import play_game as play_thirty_one
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
    # the Mark's numbers are the searcher's own, in the kind's order before sorting
    options = review_options(game, 0, chosen)
    assert options[0] == chosen and LayOff(0, Card.parse("7H"), 0) in options
    values = TEN_PENNIES.option_values(game, 0, options, budget=600, seed=3)
    assert sorted(values) == [o.points for o in mark.options]


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
    assert review.searcher == TEN_PENNIES.searcher[0]
    for mark in review.marks:
        assert mark.chosen == TEN_PENNIES.format_command(played.log[mark.index])
        assert played.log[mark.index].seat == 2 and len(mark.options) > 1
        chosen = next(o.points for o in mark.options if o.command == mark.chosen)
        assert mark.loss == pytest.approx(chosen - mark.best.points)
        assert [o.points for o in mark.options] == sorted(o.points for o in mark.options)
    costly = review.costliest(5)
    assert costly and all(a.loss >= b.loss for a, b in zip(costly, costly[1:], strict=False))
    assert costly[0].loss == max(m.loss for m in review.marks)
    assert review.total_loss == pytest.approx(sum(m.loss for m in review.marks))
    assert review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=1, game_id="t1",
                       refine=0) == review
    assert Review.from_dict(review.to_dict()) == review


def test_the_costliest_decisions_are_scored_again_at_a_larger_budget(played: Game) -> None:
    first = review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=1, refine=0)
    calls: list[tuple[int, int]] = []
    review = review_game(TEN_PENNIES, 4, played.rules, 21, played.log, 2, budget=8, seed=1, refine=3,
                         progress=lambda done, total: calls.append((done, total)))
    total = len(first.marks) + 3
    assert calls == [(i, total) for i in range(total + 1)]
    again = {m.index for m in sorted(first.marks, key=lambda m: (-m.loss, m.index))[:3]}
    game = Game(4, played.rules, 21)
    for index, command in enumerate(played.log):
        if index in again:
            was = next(m for m in first.marks if m.index == index)
            now = score_decision(TEN_PENNIES, game, 2, command, index, budget=8 * REFINE_FACTOR,
                                 seed=2 * 1_000_003 + index)
            assert now in review.marks and was not in review.marks
        game.apply(command)
    assert [m for m in review.marks if m.index not in again] == [m for m in first.marks if m.index not in again]
    assert [m.index for m in review.marks] == [m.index for m in first.marks]


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
    game = play_thirty_one(ThirtyOneGame(4, rules, 5), [T31_BOTS["heuristic"](s) for s in range(4)])
    review = review_game(THIRTY_ONE, 4, rules, 5, game.log, 1, budget=24, seed=2)
    assert review.marks and review.searcher == "searcher"
    assert all(m.round >= 1 and m.options[0].points <= m.options[-1].points for m in review.marks)
