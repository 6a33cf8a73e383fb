"""Your history: the local games played (``client.history``), newest first, each opening the replay viewer
(enter), or its review of your play (r). Reached from the local start screen with ``h``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tenpennies.wire.record import GameRecord

from ..history import HistoryRow, history
from ..local import NoSuchGame, read_game
from .cards import CardStyle
from .footer import KeysFooter
from .review import ReviewScreen
from .viewer import open_replay, review_for

COLUMNS = ("Date", "Game", "Opponents", "Result", "Score", "Pennies")


class HistoryScreen(Screen[None]):
    """The games in the local games' file ``db``, newest first; enter replays the one under the cursor."""

    CSS_PATH = "history.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True),
        Binding("r", "review", "Review"),
        Binding("escape", "close", "Back"),
    ]

    def __init__(self, db: Path, *, style: CardStyle | None = None) -> None:
        super().__init__()
        self.db = db
        self.style = style or CardStyle()
        self.rows: list[HistoryRow] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("Your games", style="bold"), id="history-head")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="history-note")
        yield KeysFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for column in COLUMNS:
            table.add_column(column, key=column)
        try:
            self.rows = history(self.db)
        except (sqlite3.Error, NoSuchGame) as error:
            self.query_one("#history-note", Static).update(f"Cannot read {self.db}: {error}")
            return
        for row in self.rows:
            result = Text(row.result, style="bold" if row.won else "")
            table.add_row(row.date, row.game, row.against, result, str(row.score),
                          "" if row.pennies is None else str(row.pennies), key=row.table_id)
        note = (f"{len(self.rows)} game{'s' if len(self.rows) != 1 else ''} · Score: Ten Pennies' (lower is better), "
                "Thirty-One's lives, tokens or points · enter replays a game") if self.rows else \
            "No finished game yet: your local games show here once played to their end."
        self.query_one("#history-note", Static).update(note)
        table.focus()

    def chosen(self, what: str) -> tuple[HistoryRow, GameRecord] | None:
        """The game under the cursor and its record (None: no game, or said why it cannot be read)."""
        if not self.rows:
            return None
        row = self.rows[self.query_one(DataTable).cursor_row]
        try:
            return row, read_game(self.db, row.table_id)
        except (sqlite3.Error, NoSuchGame) as error:
            self.notify(str(error), title=f"No {what}", severity="warning", markup=False)
            return None

    def action_replay(self) -> None:
        if (chosen := self.chosen("replay")) is not None:
            row, record = chosen
            open_replay(self.app, record, review=review_for(str(self.db), record.table_id, row.seat),
                        style=self.style)

    def action_review(self) -> None:
        """Your play in the game under the cursor, reviewed (a kept review opens at once)."""
        if (chosen := self.chosen("review")) is not None:
            row, record = chosen
            self.app.push_screen(ReviewScreen(record, row.seat, str(self.db), style=self.style))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_replay()

    def action_close(self) -> None:
        self.dismiss(None)
