"""The replay viewer (client/tui/viewer.py) and its model (client/stepper.py): every step of a finished game
is the game the engine makes from the seed and that many commands, the rounds start where the game says, the
running scores are the rounds' own; on the screen, the keys step, jump a round, go to either end and to the
reviewed seat's next costly decision; pictures at 80x24 and 120x40."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from replays import played, review_of
from rich.console import Console
from rich.text import Text
from textual.app import App

from tenpennies.client.stepper import Stepper
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.line import Line
from tenpennies.client.tui.plot import ScorePlot
from tenpennies.client.tui.viewer import ReplayScreen, drawn_move
from tenpennies.engine.cards import Card
from tenpennies.engine.games import kind
from tenpennies.engine.review import Review
from tenpennies.engine.ten_pennies import events as tp
from tenpennies.engine.ten_pennies.commands import Discard
from tenpennies.engine.thirty_one import events as t31
from tenpennies.wire import games as wire_games
from tenpennies.wire.record import GameRecord

SnapCompare = Callable[..., bool]
SHORT = {"rounds": [1, 2, 3]}


class ViewerApp(App[None]):
    """The smallest app around the viewer."""

    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, record: GameRecord, review: Review | None = None, style: CardStyle | None = None) -> None:
        super().__init__()
        self.record = record
        self.review = review
        self.style = style

    async def on_mount(self) -> None:
        await self.push_screen(ReplayScreen(self.record, review=self.review, style=self.style))


def viewer(app: App[None]) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen), screen
    return screen


def text(screen: ReplayScreen, selector: str) -> str:
    """What a region of the viewer shows, as plain text."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(screen.query_one(selector, Line).text or "")
    return console.export_text()


# --- the model ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["ten_pennies", "thirty_one"])
def test_every_step_is_the_game_after_that_many_commands(game: str) -> None:
    record = played(game, seats=3, seed=11, rules=SHORT if game == "ten_pennies" else None)
    stepper = Stepper(record, every=5)
    k = kind(game)
    direct = k.new(record.seats, record.rules, record.seed)
    starts = [0]
    assert stepper.last == len(record.commands)
    for position, command in enumerate(record.commands, 1):
        events = direct.apply(command)
        if any(isinstance(e, (tp.RoundStarted, t31.DealStarted)) for e in events):
            starts.append(position)
        if position % 7 == 0 or position == stepper.last:  # backwards too: from the end towards the start
            assert stepper.game_at(position).to_dict() == direct.to_dict()
    assert stepper.game_at(3).to_dict() != direct.to_dict()
    assert stepper.rounds == starts
    assert stepper.steps[-1].lines[-1].startswith("Game over")


def test_a_step_is_told_in_the_narrators_words() -> None:
    record = played("ten_pennies", seats=3, seed=11, rules=SHORT)
    stepper = Stepper(record)
    k = kind("ten_pennies")
    game = k.new(record.seats, record.rules, record.seed)
    narrator = k.narrator(record.rules, record.seat_name, every_hand=True)
    for position, command in enumerate(record.commands[:40], 1):
        lines = tuple(line for e in game.apply(command) if (line := narrator.line(e)) is not None)
        assert stepper.steps[position].lines == lines
        assert stepper.steps[position].seat == command.seat


def test_the_running_scores_are_the_rounds_own() -> None:
    record = played("ten_pennies", seats=4, seed=3, rules=SHORT)
    stepper = Stepper(record)
    game = kind("ten_pennies").new(record.seats, record.rules, record.seed)
    ends = [e for c in record.commands for e in game.apply(c) if isinstance(e, tp.RoundEnded)]
    chart = stepper.chart()
    assert chart.ticks == ("start", "R1", "R2", "R3")
    for seat in range(4):
        totals = [y for _, y in chart.points[seat]]
        assert totals[0] == 0
        # each round's score is the one before plus that round's points
        assert totals[1:] == [float(sum(e.points[seat] for e in ends[:i + 1])) for i in range(3)]
    first_end = stepper.ends[0][0]
    assert [len(p) for p in stepper.chart(first_end - 1).points] == [1] * 4  # before a round ends: the start
    assert [len(p) for p in stepper.chart(first_end).points] == [2] * 4


def test_thirty_one_plots_lives_by_deal() -> None:
    record = played("thirty_one", seats=3, seed=5)
    stepper = Stepper(record)
    chart = stepper.chart()
    lives = record.rules.lives
    assert chart.title == "Lives by deal" and all(p[0][1] == lives for p in chart.points)
    assert all(p[-1][1] <= lives for p in chart.points)
    winners = kind("thirty_one").new(3, record.rules, record.seed)
    for c in record.commands:
        winners.apply(c)
    result = winners.result
    assert result is not None
    alive = {s for s in range(3) if chart.points[s][-1][1] > 0}
    assert alive <= set(result.winners)


def test_round_and_mistake_jumps() -> None:
    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    review = review_of(record, 3, {2: 3.5, 9: 1.25})
    stepper = Stepper(record, review=review)
    mine = [i for i, c in enumerate(record.commands) if c.seat == 3]
    assert stepper.mistakes() == [mine[2] + 1, mine[9] + 1]
    assert stepper.mistake_from(0, 1) == mine[2] + 1
    assert stepper.mistake_from(mine[2] + 1, 1) == mine[9] + 1
    assert stepper.mistake_from(mine[9] + 1, 1) is None
    assert stepper.mistake_from(mine[9] + 1, -1) == mine[2] + 1
    second = stepper.rounds[1]
    assert stepper.round_from(0, 1) == second
    assert stepper.round_from(second + 3, -1) == second  # back: to this round's start
    assert stepper.round_from(second, -1) == 0  # already there: the round before
    assert stepper.round_from(stepper.rounds[-1], 1) == stepper.last


# --- the screen -----------------------------------------------------------------------------------------

async def test_the_keys_step_jump_and_find_mistakes() -> None:
    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    review = review_of(record, 3, {2: 3.5, 9: 1.25})
    app = ViewerApp(record, review)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        stepper = screen.stepper
        assert screen.position == 0 and "round 1 (1 of 3) · step 0/" in text(screen, "#replay-head")
        await pilot.press("right", "right", "right")
        assert screen.position == 3
        await pilot.press("left")
        assert screen.position == 2
        assert stepper.steps[2].lines[-1] in text(screen, "#replay-words")
        await pilot.press("down")
        assert screen.position == stepper.rounds[1]
        assert "round 2 (2 of 3)" in text(screen, "#replay-head")
        await pilot.press("right_square_bracket")
        assert screen.position == stepper.rounds[2]
        await pilot.press("up")  # at a round's start: the round before
        assert screen.position == stepper.rounds[1]
        await pilot.press("right", "right", "up")  # inside a round: its start
        assert screen.position == stepper.rounds[1]
        await pilot.press("end")
        assert screen.position == stepper.last and "The end of the game." in text(screen, "#replay-words")
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("n")
        first = stepper.mistakes()[0]
        assert screen.position == first
        mark = text(screen, "#replay-mark")
        assert "costing 3.5 points" in mark and "better move 2" in mark
        assert screen.query_one("#replay-mark").display
        await pilot.press("n")
        assert screen.position == stepper.mistakes()[1] and "costing 1.2 points" in text(screen, "#replay-mark")
        await pilot.press("N")
        assert screen.position == first
        await pilot.press("right")
        assert not screen.query_one("#replay-mark").display
        # every hand after the step is on the board, as the engine has it
        game = stepper.game_at(screen.position)
        board = text(screen, "#replay-board")
        for seat in range(4):
            assert record.seat_name(seat) in board
            assert str(game.view(None).players[seat].pennies) in board
        await pilot.press("g")
        plot = screen.query_one(ScorePlot)
        assert plot.display and "Score by round" in str(plot.render())
        assert plot.data == stepper.chart(screen.position)
        await pilot.press("escape")
        assert not isinstance(app.screen, ReplayScreen)


async def test_without_a_review_n_is_not_offered() -> None:
    app = ViewerApp(played("thirty_one", seats=3, seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        assert screen.check_action("mistake", (1,)) is False
        await pilot.press("n")
        assert screen.position == 0
        await pilot.press("down")
        assert "deal 2" in text(screen, "#replay-head")


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.mark.parametrize("size", SIZES)
def test_picture_ten_pennies_at_a_mistake(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    app = ViewerApp(record, review_of(record, 3, {2: 3.5, 9: 1.25}))
    assert snap_compare(app, terminal_size=size, press=["down", "n"])


@pytest.mark.parametrize("size", SIZES)
def test_picture_thirty_one_with_the_lives_plot(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = ViewerApp(played("thirty_one", seats=3, seed=5))
    assert snap_compare(app, terminal_size=size, press=["down", "down", "down", "g"])


def test_each_game_on_the_screen_is_a_game_of_the_engine_and_the_wire() -> None:
    from tenpennies.client.tui.games import SCREENS
    assert set(SCREENS) <= set(wire_games.names())
    assert Path(__file__).parent.joinpath("replays.py").is_file()


def test_a_long_hand_wraps_under_its_column() -> None:
    from rich.text import Text as T

    from tenpennies.client.tui.grid import grid
    pieces = [T(f"c{i:02d}") for i in range(12)]
    text = grid(["", "Player", "Hand"], [([T(">"), T("Ann")], pieces), ([T(" "), T("Bobby")], [T("x")])], 30)
    lines = text.plain.split("\n")
    assert lines[0] == "  Player Hand"
    start = len("> Player ")  # the widest of a column: its head
    assert all(len(line) <= 30 for line in lines)
    assert lines[1].startswith("> Ann    c00") and lines[2].startswith(" " * start + "c")
    assert " ".join(line[start:] for line in lines[1:-1]).split() == [p.plain for p in pieces]
    assert lines[-1] == "  Bobby  x"


async def test_v_on_a_review_steps_through_the_game_from_its_first_costly_decision(tmp_path: Path) -> None:
    from dataclasses import replace

    from tenpennies.client.reviews import save_review
    from tenpennies.client.tui.review import ReviewScreen

    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    searcher, budget = kind("ten_pennies").searcher
    review = replace(review_of(record, 3, {4: 2.0, 9: 1.25}), searcher=searcher, budget=budget)
    save_review(tmp_path / "games.db", review, home=tmp_path)

    class ReviewApp(App[None]):
        async def on_mount(self) -> None:
            await self.push_screen(ReviewScreen(record, 3, tmp_path / "games.db", home=tmp_path))

    app = ReviewApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.kept
        await pilot.press("v")
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.review == review
        mine = [i for i, c in enumerate(record.commands) if c.seat == 3]
        assert viewer.position == mine[4] + 1 and "costing 2.0 points" in text(viewer, "#replay-mark")
        await pilot.press("n")
        assert viewer.position == mine[9] + 1


@pytest.mark.parametrize("game", ["ten_pennies", "thirty_one"])
def test_every_command_a_game_lists_has_the_narrators_words_with_its_cards_as_written(game: str) -> None:
    """``Narrator.move``, which a review's moves are shown in: every command listed in a played game (for
    every seat it waited for), each of its cards written by the narrator's card writer, no notation left."""
    record = played(game, seats=3, seed=9, rules=SHORT if game == "ten_pennies" else None)
    k = kind(game)
    narrator = k.narrator(record.rules, record.seat_name, card=lambda c: f"<{c.id}>")
    replay = k.new(record.seats, record.rules, record.seed)
    told = 0
    for command in record.commands:
        for seat in replay.to_act():
            for listed in replay.legal_commands(seat):
                words = narrator.move(listed)
                assert words and words[0].islower() and str(seat) != words.split()[0], words
                cards = [c for c in vars_of(listed) if isinstance(c, Card)]
                assert all(f"<{c.id}>" in words for c in cards), (words, listed)
                assert not any(str(c) in words.split() or c.text in words.split() for c in cards), words
                told += 1
        replay.apply(command)
    assert told > 100


def vars_of(command: object) -> list[object]:
    """A command's values, a group of cards (a set, a contract's sets) opened up."""
    found: list[object] = []
    for name in getattr(command, "__slots__", ()):
        value = getattr(command, name)
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, tuple):
                stack.extend(item)
            else:
                found.append(item)
    return found


@pytest.mark.parametrize("style", [CardStyle(), CardStyle(ascii=True), CardStyle(colour=False)],
                         ids=["symbols", "ascii", "no-colour"])
async def test_a_marks_moves_are_shown_as_the_table_shows_moves(style: CardStyle) -> None:
    """The review's mark on a step: the move chosen and each option in the narrator's words, each card drawn
    as the table draws it in the player's style (its text and colour), never the notation."""
    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    mine = [i for i, c in enumerate(record.commands) if c.seat == 3]
    discards = [n for n, i in enumerate(mine)
                if isinstance(c := record.commands[i], Discard) and c.card.suit in ("D", "H")]
    review = review_of(record, 3, {discards[1]: 3.5})  # a red card: coloured, where the style has colour
    app = ViewerApp(record, review, style)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = viewer(app)
        await pilot.press("n")
        assert screen.position == mine[discards[1]] + 1
        mark = screen.stepper.marks[screen.position]
        shown = screen.query_one("#replay-mark", Line).text
        assert isinstance(shown, Text)
        discarded = record.commands[mine[discards[1]]]
        assert isinstance(discarded, Discard)
        card = style.rich(discarded.card)
        assert f"chose to discard the {card.plain}, costing 3.5 points" in shown.plain
        assert drawn_move(record, mark.chosen, style).plain == f"discard the {card.plain}"
        assert f"discard {discarded.card}" not in shown.plain  # (the notation)
        at = shown.plain.index(card.plain)
        drawn = [span for span in shown.spans if span.start <= at < span.end and span.style == card.style]
        assert bool(drawn) == style.colour, shown.spans  # the card's own style (its colour) on it
        await pilot.press("n")


def test_picture_a_reviewed_decision_in_cards(snap_compare: SnapCompare) -> None:
    """The first costly decision at 80x24: the mark's moves in words, the cards drawn as the table draws them."""
    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    assert snap_compare(ViewerApp(record, review_of(record, 3, {2: 3.5, 9: 1.25})), terminal_size=(80, 24),
                        press=["n"])


def test_a_marks_list_always_holds_the_chosen_move_and_an_unsure_one_is_no_mistake() -> None:
    from tenpennies.client.tui.viewer import mark_text
    from tenpennies.engine.review import Mark, Option

    options = tuple(Option(f"3 discard {c}", float(p)) for p, c in enumerate(("2C", "3C", "4C", "5C", "6C")))
    sure = Mark(8, 1, "3 discard 6C", options, 4.0, 1.5, 64)
    shown = mark_text(sure, True, "Ann", Text, colour=False).plain
    assert "costing 4.0 ± 1.5 points" in shown and "3 discard 6C (chosen)" in shown  # fifth of five, still listed
    assert shown.count("\n") == 3 and "3 discard 2C" in shown and "3 discard 5C" not in shown
    unsure = Mark(8, 1, "3 discard 6C", options, 4.0, 6.5, 64)
    shown = mark_text(unsure, False, "Ann", Text, colour=False).plain
    assert "costing" not in shown and "too close to call (4.0 ± 6.5 points)" in shown
    shown = mark_text(sure, False, "Ann", Text, colour=False).plain  # clear of its noise, not called by the review
    assert "perhaps costing 4.0 ± 1.5 points (within the luck" in shown and "3 discard 6C (chosen)" in shown
    from dataclasses import replace

    record = played("ten_pennies", seats=4, seed=7, rules=SHORT)
    review = review_of(record, 3, {4: 2.0, 9: 1.25})
    both = Stepper(record, review=review).mistakes()
    unsure_second = replace(review, marks=tuple(replace(m, margin=3.0) if m.loss == 1.25 else m for m in review.marks))
    assert len(both) == 2 and Stepper(record, review=unsure_second).mistakes() == both[:1]  # n skips an unsure one
    # clear of its own interval (1.25 ± 1.24: a chance of 0.024) but not called among the game's decisions
    lucky_second = replace(review, marks=tuple(replace(m, margin=1.24) if m.loss == 1.25 else m for m in review.marks))
    lucky = next(m for m in lucky_second.marks if m.loss == 1.25)
    assert lucky.costly and lucky.index not in lucky_second.called and len(review.marks) > 8
    assert Stepper(record, review=lucky_second).mistakes() == both[:1]  # n goes to the mistakes called only
