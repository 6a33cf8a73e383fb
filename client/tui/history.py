"""Your history: the local games played (``client.history``), newest first, each opening the replay viewer
(enter). Reached from the local start screen with ``h``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..history import HistoryRow, history
from ..local import NoSuchGame, read_game
from .cards import CardStyle
from .footer import KeysFooter
from .viewer import open_replay, review_for

COLUMNS = ("Date", "Game", "Opponents", "Result", "Score", "Pennies")


class HistoryScreen(Screen[None]):
    """The games in the local games' file ``db``, newest first; enter replays the one under the cursor."""

    CSS_PATH = "history.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True),
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

    def action_replay(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows:
            return
        row = self.rows[table.cursor_row]
        try:
            record = read_game(self.db, row.table_id)
        except (sqlite3.Error, NoSuchGame) as error:
            self.notify(str(error), title="No replay", severity="warning", markup=False)
            return
        open_replay(self.app, record, review=review_for(str(self.db), record.table_id, row.seat), style=self.style)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_replay()

    def action_close(self) -> None:
        self.dismiss(None)
