"""The table's log: the game in words, newest last. A line is appended as its event comes (the lines
before it are never drawn again); it keeps the last ``MAX_LINES``, wraps at the full width and scrolls to
its end, with no scrollbar drawn (its glyphs at the right edge read as stray marks)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

MAX_LINES = 300


class TableLog(RichLog):
    """The log region of the table screen."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, max_lines=MAX_LINES, markup=False)
        self.can_focus = False

    def add(self, line: str, style: str = "") -> None:
        """Append one line (plain: ``[t]`` is a key, not markup)."""
        self.write(Text(line, style=style))
