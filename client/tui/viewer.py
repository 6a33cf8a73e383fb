"""The replay viewer: a finished game step by step, forwards and back, every hand shown (the game's board: its
screen entry's), the narrator's words for each step, a review's marks on the reviewed seat's decisions.

``ReplayScreen(record, review=None)``: ← → a step, ↑ ↓ (or [ ]) a round, home / end the deal and the end,
``n`` / ``N`` the next / previous mistake the review calls, ``g`` each seat's running score by round,
escape back. The game is rebuilt once (``client.stepper.Stepper``); a step is a copy of a kept game and a
few commands at most. Each region is a widget that keeps what it drew and redraws only on a change.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen

from tenpennies.engine.cards import Card
from tenpennies.engine.interface import RuleError
from tenpennies.engine.review import Mark, Review
from tenpennies.wire.record import GameRecord

from ..reviews import load_review, move_words, plus_minus
from ..stepper import Stepper
from .cards import CardStyle
from .footer import KeysFooter
from .games import screen_game
from .line import Line
from .plot import ScorePlot

BEFORE = 6  # earlier steps whose words stay above the step's own, dim


def drawn_move(record: GameRecord, notation: str, style: CardStyle) -> Text:
    """A reviewed move (its notation, as a ``Mark`` keeps it) as the table shows a move: in the narrator's
    words (``client.reviews.move_words``: ``discard the 6♣``), each card drawn as the table draws it in the
    player's style (``CardStyle.rich``: its colour, a second deck's copy raised)."""
    cards: list[Card] = []

    def marked(card: Card) -> str:
        cards.append(card)
        return f"\0{len(cards) - 1}\0"

    out = Text()
    for i, piece in enumerate(move_words(record.game, record.rules, notation, marked).split("\0")):
        out.append_text(style.rich(cards[int(piece)]) if i % 2 else Text(piece))
    return out


def mark_text(mark: Mark, called: bool, name: str, move: Callable[[str], Text], colour: bool = True) -> Text:
    """A reviewed decision: what was chosen, what it cost against the best option (a mistake where the review
    ``called`` it one: ``Review.called``), the best options (each move as ``move`` draws it from its notation:
    ``drawn_move``)."""
    head = Text(f"Review: {name} chose to ")
    head.append_text(move(mark.chosen))
    if called:
        head.append(f", costing {mark.loss:.1f}{f' {plus_minus(mark.margin)}' if mark.margin else ''} points")
        head.stylize_before("bold yellow" if colour else "bold")
    elif mark.costly:  # clear of its own noise, but not of the luck of the game's hundreds of decisions
        head.append(f", perhaps costing {mark.loss:.1f} {plus_minus(mark.margin)} points (within the luck of a "
                    "game's many decisions: not called a mistake)")
        head.stylize_before("bold")
    elif mark.loss > 0:  # the searcher's best was another, by less than it can tell
        head.append(f", too close to call ({mark.loss:.1f} {plus_minus(mark.margin)} points)")
        head.stylize_before("bold")
    else:
        head.append(", the best option")
        head.stylize_before("bold")
    text = head
    for option in mark.listed(3):  # the chosen one always among them
        text.append(f"\n  {option.points:6.1f}  ")
        text.append_text(move(option.command))
        if option.command == mark.chosen:
            text.append(" (chosen)")
    return text


class ReplayScreen(Screen[None]):
    """A finished game's replay (see the module). ``review``: a seat's review of it, whose marks show on their
    steps and ``n`` jumps between; ``style``: how cards are drawn."""

    CSS_PATH = "viewer.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Step", key_display="←→"),
        Binding("right", "step(1)", "Step", show=False),
        Binding("up", "round(-1)", "Round", key_display="↑↓"),
        Binding("down", "round(1)", "Round", show=False),
        Binding("left_square_bracket", "round(-1)", "Round back", show=False),
        Binding("right_square_bracket", "round(1)", "Round on", show=False),
        Binding("home", "to(0)", "Start/end", key_display="home/end"),
        Binding("end", "to(-1)", "End", show=False),
        Binding("n", "mistake(1)", "Mistake"),
        Binding("N", "mistake(-1)", "Mistake back", show=False),
        Binding("g", "plot", "Scores"),
        Binding("escape", "close", "Back"),
    ]

    def __init__(self, record: GameRecord, *, review: Review | None = None, style: CardStyle | None = None,
                 position: int = 0) -> None:
        super().__init__()
        self.style = style or CardStyle()
        self.stepper = Stepper(record, review=review, card=self.style.text)
        self.record = record
        self.review = review
        self.board = screen_game(record.game).board
        self.position = max(0, min(position, self.stepper.last))
        self.plotting = False

    def compose(self) -> ComposeResult:
        yield Line(id="replay-head")
        yield Line(id="replay-board")
        with VerticalScroll(id="replay-story", can_focus=False):  # the arrows are the steps' keys
            yield Line(id="replay-words")
            yield Line(id="replay-mark")  # under the step's words: in view where the story scrolls to its end
        yield ScorePlot(self.stepper.chart(self.position), colour=self.style.colour, reserve=13, id="replay-plot")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(ScorePlot).hide()
        self.redraw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "mistake":
            return bool(self.stepper.mistakes())  # no review (or nothing costly): hidden (False)
        return True

    # --- what is drawn ---

    def where(self) -> str:
        """Where the step is: the round (deal) of how many, the step's number of how many."""
        st = self.stepper
        word = st.how.word
        step = st.steps[self.position]
        rounds = len(st.rounds)
        at = f"{word} {step.round}" if step.round else "the deal"
        count = f" ({st.round_of(self.position)} of {rounds})" if word == "round" and step.round else ""
        return f"{at}{count} · step {self.position}/{st.last}"

    def redraw(self) -> None:
        st, record = self.stepper, self.record
        step = st.steps[self.position]
        head = Text(record.name or record.table_id, style="bold")
        head.append(f" · {self.where()}")
        if self.review is not None:
            costly = st.mistakes()
            passed = sum(1 for p in costly if p <= self.position)
            head.append(f" · mistakes ({record.seat_name(self.review.seat)}): {passed}/{len(costly)}", style="dim")
        self.query_one("#replay-head", Line).show(head)
        game = st.game_at(self.position)
        width = (self.size.width or self.app.size.width) - 2  # (the board's padding)
        self.query_one("#replay-board", Line).show(self.board(game, record, self.style, width))
        words = Text()
        for earlier in st.steps[max(0, self.position - BEFORE):self.position]:  # the story so far, dim
            if earlier.lines:
                words.append("\n".join(earlier.lines) + "\n", style="dim")
        words.append("\n".join(step.lines) or "(nothing to tell)", style="bold")
        if game.over and self.position == st.last:
            words.append("\nThe end of the game.", style="bold")
        self.query_one("#replay-words", Line).show(words)
        self.query_one("#replay-story", VerticalScroll).scroll_end(animate=False)
        mark = st.marks.get(self.position)
        mark_line = self.query_one("#replay-mark", Line)
        mark_line.show(mark_text(mark, mark.index in self.review.called, record.seat_name(self.review.seat),
                                 self.move, self.style.colour)
                       if mark is not None and self.review is not None else Text())
        mark_line.display = mark is not None
        if self.plotting:
            self.query_one(ScorePlot).show(self.stepper.chart(self.position))

    def move(self, notation: str) -> Text:
        """A reviewed move as the table shows moves (``drawn_move``)."""
        return drawn_move(self.record, notation, self.style)

    # --- keys ---

    def go(self, position: int) -> None:
        position = max(0, min(position, self.stepper.last))
        if position != self.position:
            self.position = position
            self.redraw()

    def action_step(self, step: int) -> None:
        self.go(self.position + step)

    def action_round(self, step: int) -> None:
        self.go(self.stepper.round_from(self.position, step))

    def action_to(self, position: int) -> None:
        self.go(self.stepper.last if position < 0 else position)

    def action_mistake(self, step: int) -> None:
        found = self.stepper.mistake_from(self.position, step)
        if found is None:
            self.notify("No more mistakes that way.", timeout=3)
            return
        self.go(found)

    def action_plot(self) -> None:
        self.plotting = not self.plotting
        self.query_one(ScorePlot).show(self.stepper.chart(self.position) if self.plotting else None)

    def action_close(self) -> None:
        self.dismiss(None)


def review_for(source: str, game_id: str, seat: int) -> Review | None:
    """The kept review of ``seat`` in the game ``game_id`` of ``source`` (the local games' file or a server's
    address), if one was made (``client.reviews.load_review``); a reviews file that cannot be read is no
    review: the game is shown without marks."""
    try:
        return load_review(source, game_id, seat)
    except (sqlite3.Error, OSError):
        return None


def seat_of_person(record: GameRecord) -> int:
    """The seat a review is looked for: the local game seats its player last (the bots first)."""
    return record.seats - 1


def open_replay(app: Any, record: GameRecord, *, review: Review | None = None, style: CardStyle | None = None) -> None:
    """Push the viewer for ``record`` on ``app``, or say why it cannot be shown (a game the viewer does not
    know, a log that does not replay)."""
    try:
        screen = ReplayScreen(record, review=review, style=style)
    except (LookupError, RuleError) as error:
        app.notify(str(error), title="No replay", severity="warning", timeout=6, markup=False)
        return
    app.push_screen(screen)
