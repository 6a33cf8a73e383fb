"""The review of a seat's play in a finished game, as a screen: made in a worker thread with a progress bar
(Escape stops it), kept once made (``client.reviews``) so that it opens at once the next time, and shown as
the costliest decisions first, each with what it cost and the better option.

``ReviewScreen(record, seat, source)`` is all a screen that offers a review needs: the game-end screens of
the table, the lobby's finished tables and the local games' history open it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from tenpennies.engine.games import kind
from tenpennies.engine.review import DEEPER, Mark, Review, Stopped
from tenpennies.wire.record import GameRecord

from ..reviews import current, load_review, plus_minus, review_record, save_review
from .cards import CardStyle
from .footer import KeysFooter
from .viewer import ReplayScreen, drawn_move

SHOWN = 8
"""The costliest decisions listed (the first three stand out)."""


def move_text(command: str) -> str:
    """A command's notation without its seat (the review is one seat's): ``3 discard KS`` -> ``discard KS``
    (the screen shows moves as the table does: ``viewer.drawn_move``)."""
    seat, _, rest = command.partition(" ")
    return rest if seat.isdigit() and rest else command


def marks_table(review: Review, count: int = SHOWN, move: Callable[[str], str | Text] = move_text) -> Table | Text:
    """The ``count`` costliest of the decisions the review is sure are mistakes: where, the move made, what it
    cost with its 95% margin (``~``: too close to call against the first one left out, ``Review.too_close``), the
    better move (each as ``move`` writes it from its notation; the screen's: ``viewer.drawn_move``); the first
    three in bold. They are listed by what each surely cost (the low end of its margin)."""
    costly = review.costliest(count)
    close = {mark.index for mark in review.too_close(count)}
    if not costly:
        return Text("No decision was surely a mistake: every choice was the searcher's best, or too close to "
                    "call.")
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=True)
    table.add_column("", no_wrap=True)
    table.add_column("Where", no_wrap=True)
    table.add_column("Played", ratio=1)
    table.add_column("Cost", justify="right", no_wrap=True)
    table.add_column("Better", ratio=1)
    for place, mark in enumerate(costly, 1):
        table.add_row(f"{place}.", where(mark), move(mark.chosen),
                      f"{mark.loss:.1f} {plus_minus(mark.margin)}{' ~' if mark.index in close else ''}",
                      move(mark.best.command),
                      style="bold" if place <= 3 else "")
    return table


def where(mark: Mark) -> str:
    return f"r{mark.round} #{mark.index + 1}"


class ReviewScreen(ModalScreen[None]):
    """``seat``'s play in the game of ``record`` reviewed (``source``: the local games' file or the server's
    address the record came from: where a kept review is found). A kept review shows at once; else it is
    made in a thread worker, its progress shown, Escape stopping it (what was scored so far is shown, not
    kept). ``budget``: the searcher's (None: the game's default); ``home``: where reviews are kept (None:
    the data directory); ``style``: how the player's cards are drawn (the moves are shown as the table shows
    them: the narrator's words, the cards in that style)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "step_through", "Step through"),
        Binding("escape", "stop_or_close", "Stop / close"),
        Binding("q", "app.quit", "Quit"),
    ]

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen #dialog {
        width: 78; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; padding: 0 1; background: $panel;
    }
    ReviewScreen #progress { width: 100%; }
    ReviewScreen .dim { color: $text-muted; }
    """

    def __init__(self, record: GameRecord, seat: int, source: str | Path, *, budget: int | None = None,
                 home: Path | None = None, style: CardStyle | None = None, seed: int | None = None) -> None:
        super().__init__()
        self.style = style or CardStyle()
        self.record = record
        self.seat = seat
        self.source = source
        self.searcher, default = kind(record.game).searcher
        self.budget = default if budget is None else budget
        self.home = home
        self.seed = seed
        self.review: Review | None = None
        self.kept = False                 # the review shown was kept already (opened at once)
        self.stopping = False             # Escape asked the worker to stop
        self.worker: Worker[Review] | None = None
        self.total = 0

    def compose(self) -> ComposeResult:
        name = self.record.seat_name(self.seat)
        with Vertical(id="dialog"):
            yield Static(Text(f"Review of {name}'s play in {self.record.name or self.record.table_id}",
                              style="bold"), id="title")
            yield Static("", id="status")
            yield ProgressBar(id="progress", show_eta=False)
            yield Static("", id="marks")
            yield Static("Escape stops the review.", id="keys", classes="dim")
        yield KeysFooter()

    def on_mount(self) -> None:
        kept = load_review(self.source, self.record.table_id, self.seat, searcher=self.searcher,
                           budget=self.budget, home=self.home)
        if kept is not None and current(kept, self.seed):
            self.kept = True
            self.show(kept)
            return
        self.query_one("#status", Static).update(
            f"The searcher ({self.searcher}) scores each of {self.record.seat_name(self.seat)}'s decisions from "
            f"what the seat knew then ({self.budget} worlds a decision, up to {DEEPER * self.budget} at the edge of "
            f"the five costliest; seed "
            f"{0 if self.seed is None else self.seed})...")
        self.worker = self.run_worker(self._review, thread=True, exclusive=True, exit_on_error=False)

    def _review(self) -> Review:
        """In the worker's thread: the review, kept once whole."""
        try:
            review = review_record(self.record, self.seat, budget=self.budget, progress=self._progressed,
                                   stop=lambda: self.stopping, seed=0 if self.seed is None else self.seed)
        except Stopped as stopped:
            return stopped.review
        save_review(self.source, review, home=self.home)
        return review

    def _progressed(self, done: int, total: int) -> None:
        if not self.stopping:
            self.app.call_from_thread(self.progressed, done, total)

    def on_unmount(self) -> None:
        self.stopping = True  # closed or quit while the worker runs: it stops at its next decision

    def progressed(self, done: int, total: int) -> None:
        self.total = total
        self.query_one("#progress", ProgressBar).update(total=max(total, 1), progress=done)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self.worker:
            return
        if event.state is WorkerState.SUCCESS:
            result = event.worker.result
            assert result is not None
            self.show(result)
        elif event.state is WorkerState.ERROR:
            self.query_one("#status", Static).update(Text(f"The review failed: {event.worker.error}", style="red"))
            self.query_one("#keys", Static).update("Escape closes.")

    def show(self, review: Review) -> None:
        self.review = review
        self.refresh_bindings()  # (v steps through it now)
        self.query_one("#progress", ProgressBar).display = False
        costing = review.mistakes
        seed = "" if review.seed is None else f" (seed {review.seed})"
        if review.complete:
            head = (f"{len(review.marks)} decisions with a choice{seed}, {costing} of them sure mistakes: "
                    f"{review.total_loss:.1f} points expected lost in all.")
        else:
            head = (f"Stopped after {len(review.marks)} of {self.total} decisions (not kept): the costliest so "
                    f"far, {review.total_loss:.1f} points expected lost.")
        self.query_one("#status", Static).update(Text(
            head + " Cost: expected points for the rest of the round against the better move, ± its 95% margin; "
            "listed by the least each surely cost, ~ too close to call."))
        self.query_one("#marks", Static).update(marks_table(review, move=self.move))
        self.query_one("#keys", Static).update("v steps through the game in the replay viewer, n there to each "
                                               "mistake; Escape closes.")

    def move(self, notation: str) -> Text:
        """A move of the review as the table shows moves (``viewer.drawn_move``)."""
        return drawn_move(self.record, notation, self.style)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """v once there is a review to step through (the footer shows it then)."""
        return self.review is not None if action == "step_through" else True

    def action_step_through(self) -> None:
        """The game in the replay viewer, this review's marks on it, at its first mistake."""
        if self.review is None:
            return
        viewer = ReplayScreen(self.record, review=self.review, style=self.style)
        first = viewer.stepper.mistake_from(0, 1)
        if first is not None:
            viewer.position = first
        self.dismiss()
        self.app.push_screen(viewer)

    def action_stop_or_close(self) -> None:
        if self.review is None and self.worker is not None and self.worker.is_running:
            self.stopping = True
            self.query_one("#status", Static).update("Stopping...")
            return
        self.dismiss()
