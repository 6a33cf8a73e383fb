"""The table's log: the game in words, newest last. A line is appended as its event comes (the lines
before it are never drawn again); it keeps the last ``MAX_LINES``, wraps at the full width and scrolls to
its end, with no scrollbar drawn (its glyphs at the right edge read as stray marks).

A line-API widget of its own (Textual's ``ScrollView``, as its ``RichLog`` is), built on Textual's public
API only: it keeps its rows itself, so that nothing of ``RichLog``'s insides is borrowed."""

from __future__ import annotations

from collections import deque
from typing import Self

from rich.measure import measure_renderables
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle

from .line import NEWLINE

MAX_LINES = 300  # rows kept (as a RichLog's ``max_lines``: rows, a wrapped line's rows each)
MIN_WIDTH = 20   # a line is wrapped at the log's width, but never narrower than this (RichLog's ``min_width``)


class TableLog(ScrollView, can_focus=False):
    """The log region of the table screen: lines queued by ``add`` and written together by ``release``
    (which the table screen calls as it draws), each made into its rows once, as ``RichLog.write`` makes
    them (the tests hold it to that, cell for cell).

    A longer log does not ask the screen for a new layout once the log scrolls (its size is its share of
    the screen, not its content's): the new rows are drawn in place and the log scrolled to them at once.
    Each row is kept as drawn, by its place in the whole log (not in the rows kept), its scroll and width:
    the log scrolls a row or more at every event, and every row it shows then comes from there rather than
    being styled again."""

    DEFAULT_CSS = """
    TableLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Strip] = []  # the rows kept, oldest first
        self.dropped = 0              # rows dropped from the front (``MAX_LINES``): a row's place is this + its index
        self.widest = 0               # the widest row's cells
        self._queued: deque[Text] = deque(maxlen=MAX_LINES)   # lines queued, not written yet
        self._written: deque[Text] = deque(maxlen=MAX_LINES)  # the lines written, as they were given
        self._wrapped_at = 0  # the width they were written at (wrapped, where longer)
        self._drawn: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._style: tuple[VisualStyle, Style] | None = None  # the log's style, by Textual's own for it

    # --- writing ---------------------------------------------------------------------------------

    def add(self, line: str | Text, style: str = "") -> None:
        """Queue one line (a plain one in ``style``: ``[t]`` is a key, not markup; or a text as it is): the
        lines queued are written together by ``release``, which the table screen calls as it draws."""
        self._queued.append(Text(line, style=style) if isinstance(line, str) else line)

    @property
    def room(self) -> int:
        """The cells a row has (0: not laid out yet)."""
        return self.scrollable_content_region.width

    def release(self) -> None:
        """Write the lines queued since the last time, and scroll to the last once. Before the log has a
        width they stay queued (written as it is first laid out: ``on_resize``)."""
        room = self.room
        if not self._queued or not room:
            return
        if self._written and room != self._wrapped_at:
            self.unwrite()  # (resized, and drawn before its Resize came: at the new width, the old lines too)
        self._wrapped_at = room
        self._written.extend(self._queued)
        while self._queued:
            self.append(self._queued.popleft(), room)
        self.lengthened()
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def fits(self, line: Text, room: int) -> bool:
        """Whether ``line`` is one row of the log as it is (most are): no line break, no tab, not wider."""
        plain = line.plain
        return "\n" not in plain and "\t" not in plain and line.cell_len <= room

    def append(self, line: Text, room: int) -> None:
        """Add the rows of ``line`` (the caller then calls ``lengthened``). A line that ``fits`` is made into
        its one row in a fifth of the time a wrap takes (measure, wrap, split: 60% of a redraw at full speed),
        as Text's own rendering makes it (joined, its style becomes a span); any other is wrapped as
        ``RichLog.write`` wraps it."""
        console = self.app.console
        if self.fits(line, room):
            strip = Strip(NEWLINE.join((line,)).render(console, end=""))
            self.lines.append(strip)
            self.widest = max(self.widest, strip.cell_length)
            return
        text = line.copy()
        text.expand_tabs()
        options = console.options
        width = max(min(measure_renderables(console, options, [text]).maximum, room), MIN_WIDTH)
        rows = list(Segment.split_lines(console.render(text, options.update_width(width))))
        if not rows:
            self.lines.append(Strip.blank(width))
            self.widest = max(self.widest, width)
            return
        self.lines.extend(Strip.from_lines(rows))
        self.widest = max(self.widest, max(sum(segment.cell_length for segment in row) for row in rows))

    def lengthened(self) -> None:
        """Rows were appended: keep the last ``MAX_LINES``, and set the log's length. Once the log scrolls,
        in place (no new layout of the screen: the log is as tall as its share of it, whatever its length)."""
        if len(self.lines) > MAX_LINES:
            self.dropped += len(self.lines) - MAX_LINES
            self.lines = self.lines[-MAX_LINES:]
        size = Size(self.widest, len(self.lines))
        if size == self.virtual_size:
            self.refresh()  # (as many rows as before: the oldest gone, the newest in their places)
        elif self.show_vertical_scrollbar:
            self.set_reactive(TableLog.virtual_size, size)
            self.refresh()
        else:
            self.virtual_size = size

    def clear(self) -> Self:
        """Empty the log (the lines queued stay queued)."""
        self.lines = []
        self.dropped = 0
        self.widest = 0
        self._written.clear()
        self._drawn.clear()
        self.virtual_size = Size(0, 0)
        self.refresh()
        return self

    def unwrite(self) -> None:
        """Take the lines written back into the queue, ahead of those queued, for ``release`` to write again:
        the log is wider or narrower than when they were written (the terminal was resized, or the log went
        beside the seats), and a row is kept as first wrapped, cut at a narrower log's edge and short in a
        wider one."""
        lines = [*self._written, *self._queued]
        self.clear()
        self._queued.clear()
        self._queued.extend(lines)  # (at most ``MAX_LINES``: the newest)

    def on_resize(self, event: events.Resize) -> None:
        """The log grew or shrank (the seats strip above it grows as sets are laid): its last line stays in
        view, as it does when a line is written. The first time, the lines queued before it had a width are
        written; at another width, every line is wrapped again."""
        if self._written and self.room != self._wrapped_at:
            self.unwrite()
        self.release()
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    # --- drawing ---------------------------------------------------------------------------------

    @property
    def log_style(self) -> Style:
        """The log's style, worked out again only when Textual's own for the widget (``visual_style``, which
        Textual keeps while the widget's styles stay the same) is new: worked out at every row it was a third
        of the log's frame at full speed (through every ancestor, each time). Rows drawn in the old style
        are drawn again."""
        visual = self.visual_style
        if self._style is None or self._style[0] is not visual:
            self._style = (visual, self.rich_style)
            self._drawn.clear()
        return self._style[1]

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        style = self.log_style
        if index >= len(self.lines):  # below the last row: blank (a row written there later is new)
            return Strip.blank(width, style)
        key = (index + self.dropped, scroll_x, width, self.widest)
        strip = self._drawn.get(key)
        if strip is None:
            row = self.lines[index].crop_extend(scroll_x, scroll_x + width, style)
            strip = self._drawn[key] = row.apply_style(style)
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._style = None
        self._drawn.clear()
