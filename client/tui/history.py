"""Your history: the local games played (``client.history``), newest first, each opening the replay viewer
(enter), or its review of your play (r); the game under the cursor named by its id (``y`` copies it), and a game
the player left to a bot marked so. Reached from the local start screen with ``h``."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from tenpennies.wire.record import GameRecord

from ..history import HistoryRow, history, left_in
from ..local import NoSuchGame, read_game
from .cards import CardStyle
from .footer import KeysFooter
from .review import ReviewScreen
from .viewer import open_replay, review_for

COLUMNS = ("Date", "Game", "Opponents", "Result", "Score", "Pennies")
YOU = "You"  # the player's seat, as the table says it


class HistoryScreen(Screen[None]):
    """The games in the local games' file ``db``, newest first; enter replays the one under the cursor."""

    CSS_PATH = "history.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True),
        Binding("r", "review", "Review"),
        Binding("y", "copy_id", "Copy game id"),
        Binding("escape", "close", "Back"),
    ]

    def __init__(self, db: Path, *, style: CardStyle | None = None) -> None:
        super().__init__()
        self.db = db
        self.style = style or CardStyle()
        self.rows: list[HistoryRow] = []
        self.left: dict[str, int] = {}  # the games the player left to a bot: the round they left in

    def compose(self) -> ComposeResult:
        yield Static(Text("Your games", style="bold"), id="history-head")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="history-game")
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
        if self.rows:
            self.game_line(self.rows[0])
            self.mark_left()

    @work(thread=True, exclusive=True, group="history-left")
    def mark_left(self) -> None:
        """Each game the player left to a bot, marked in its result once its events are read (a game each,
        off the screen's own thread): the result is the bot's as much as the player's."""
        for row in list(self.rows):
            try:
                left = left_in(read_game(self.db, row.table_id), row.seat)
            except (sqlite3.Error, NoSuchGame):
                continue
            if left is not None:
                self.app.call_from_thread(self.show_left, row, left)

    def show_left(self, row: HistoryRow, left: int) -> None:
        self.left[row.table_id] = left
        if self.is_attached:
            self.query_one(DataTable).update_cell(row.table_id, "Result", Text(f"{row.result}, bot from {left}"),
                                                  update_width=True)
            if self.rows[self.query_one(DataTable).cursor_row] is row:
                self.game_line(row)

    def game_line(self, row: HistoryRow) -> None:
        """The game under the cursor: its id (what ``tenpennies replay`` takes), and who played it out."""
        line = Text(f"Game id {row.table_id}", style="bold")
        line.append(f" · tenpennies replay {row.table_id} · y copies the id")
        left = self.left.get(row.table_id)
        if left is not None:
            line.append(f"\nYou left it in round {left}: a bot played your seat from there", style="italic")
        self.query_one("#history-game", Static).update(line)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if self.rows and 0 <= event.cursor_row < len(self.rows):
            self.game_line(self.rows[event.cursor_row])

    def action_copy_id(self) -> None:
        """The game's id on the clipboard (the terminal's, where it lets a program set it)."""
        if self.rows:
            table_id = self.rows[self.query_one(DataTable).cursor_row].table_id
            self.app.copy_to_clipboard(table_id)
            self.notify(f"Game id {table_id} copied", timeout=3)

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
            # your seat named as the table named it (not the login name the local game was made with)
            names = [YOU if seat == row.seat else name for seat, name in enumerate(record.names)]
            open_replay(self.app, replace(record, names=names),
                        review=review_for(str(self.db), record.table_id, row.seat), style=self.style)

    def action_review(self) -> None:
        """Your play in the game under the cursor, reviewed (a kept review opens at once)."""
        if (chosen := self.chosen("review")) is not None:
            row, record = chosen
            self.app.push_screen(ReviewScreen(record, row.seat, str(self.db), style=self.style))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_replay()

    def action_close(self) -> None:
        self.dismiss(None)
