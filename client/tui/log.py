"""The table's log: the game in words, newest last. A line is appended as its event comes (the lines
before it are never drawn again); it keeps the last ``MAX_LINES``, wraps at the full width and scrolls to
its end, with no scrollbar drawn (its glyphs at the right edge read as stray marks)."""

from __future__ import annotations

from collections import deque
from typing import Self

from rich.style import Style
from rich.text import Text
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widgets import RichLog

from .line import NEWLINE

MAX_LINES = 300


class TableLog(RichLog):
    """The log region of the table screen.

    A line written to a ``RichLog`` makes the log longer (its virtual size), which asks the whole screen
    for a new layout, and scrolls to the end only once the screen has nothing left to draw (under a stream
    of events, seconds late). Once the log scrolls, a longer log changes nothing of the screen's layout:
    the line is drawn in place and the log scrolled to it at once."""

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: a line is wrapped at the log's own width, however narrow (RichLog's default is 78,
        # wider than the log beside the seats on a wide terminal, where lines were cut)
        super().__init__(id=id, wrap=True, max_lines=MAX_LINES, markup=False, min_width=20)
        self.can_focus = False
        self._in_place = False
        self._held: deque[Text] = deque(maxlen=MAX_LINES)  # lines queued, not written yet
        self._written: deque[Text] = deque(maxlen=MAX_LINES)  # the lines written, as they were given
        self._wrapped_at = 0  # the width they were written at (wrapped, where longer)
        # each line as drawn, by its place in the whole log, scroll and width: the log scrolls a line or more
        # at every event, and every line it shows then comes from here rather than being styled again
        self._drawn: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._rich_style: tuple[int, Style] | None = None

    def add(self, line: str, style: str = "") -> None:
        """Queue one line (plain: ``[t]`` is a key, not markup): the lines queued are written together by
        ``release``, which the table screen calls as it draws."""
        self._held.append(Text(line, style=style))

    def release(self) -> None:
        """Write the lines queued since the last time, and scroll to the last once. Before the log has a
        width they stay queued (``RichLog.write`` would keep them aside and write each again as the log
        first resizes, each asking the screen for a new layout: a whole frame more, once the table showed)."""
        if not self._held or not self._size_known:
            return
        width = self.scrollable_content_region.width
        if self._written and width != self._wrapped_at:
            self.unwrite()  # (resized, and drawn before its Resize came: at the new width, the old lines too)
        self._wrapped_at = width
        self._written.extend(self._held)
        while self._held and not self.show_vertical_scrollbar:  # not scrolling yet: as RichLog does it
            self.add_line(self._held.popleft(), scroll_end=self.auto_scroll)
        if not self._held:
            return
        self._in_place = True
        try:
            appended = False
            while self._held:
                line = self._held.popleft()
                if self.fits(line):
                    self.append_strip(line)
                    appended = True
                else:
                    self.write(line, scroll_end=False)
            if appended:
                self.lengthened()  # once for them all
        finally:
            self._in_place = False
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def fits(self, line: Text) -> bool:
        """Whether ``line`` is one row of the log as it is (most are): no line break, no tab, not wider."""
        plain = line.plain
        return (self._size_known and "\n" not in plain and "\t" not in plain
                and line.cell_len <= self.scrollable_content_region.width)

    def append_strip(self, line: Text) -> None:
        """Add a line that ``fits`` to the log's lines, with the cells ``RichLog.write`` makes of it, in a
        fifth of its time (it measures the line, wraps it and splits what it rendered into lines: 60% of
        a redraw at full speed); the caller then calls ``lengthened``."""
        # as Text's own rendering does it: joined (its style becomes a span), then rendered
        strip = Strip(NEWLINE.join((line,)).render(self.app.console, end=""))
        self.lines.append(strip)
        self._widest_line_width = max(self._widest_line_width, strip.cell_length)

    def add_line(self, line: Text, scroll_end: bool) -> None:
        """Write ``line`` as ``RichLog.write`` does (the quick way where it ``fits``)."""
        if not self.fits(line):
            self.write(line, scroll_end=scroll_end)
            return
        self.append_strip(line)
        self.lengthened()
        if scroll_end:
            self.scroll_end(animate=False, immediate=False, x_axis=False)

    def lengthened(self) -> None:
        """Lines were appended (``append_strip``): keep the last ``max_lines`` and set the log's length, as
        ``RichLog.write`` does after it appends."""
        if self.max_lines is not None and len(self.lines) > self.max_lines:
            self._start_line += len(self.lines) - self.max_lines
            self.refresh()  # the same places show other lines
            self.lines = self.lines[-self.max_lines:]
        self.virtual_size = Size(self._widest_line_width, len(self.lines))

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        if index >= len(self.lines):  # below the last line: blank (a line written there later is new)
            return super().render_line(y)
        key = (index + self._start_line, scroll_x, self.scrollable_content_region.width, self._widest_line_width)
        strip = self._drawn.get(key)
        if strip is None:
            strip = self._drawn[key] = super().render_line(y)
        return strip

    @property
    def rich_style(self) -> Style:
        """The log's style, kept while its styles stay the same (as Textual keeps ``visual_style``): RichLog
        asks for it twice for each line it draws, and each time it is worked out again through every
        ancestor, a third of the log's frame at full speed."""
        key = self.styles._cache_key
        if self._rich_style is None or self._rich_style[0] != key:
            self._rich_style = (key, super().rich_style)
        return self._rich_style[1]

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()
        self._rich_style = None

    def clear(self) -> Self:
        self._drawn.clear()  # the places start again from 0
        self._written.clear()
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        """The log grew or shrank (the seats strip above it grows as sets are laid): its last line stays in
        view, as it does when a line is written. (Textual calls RichLog's own handler too, after this one.)
        The first time, the lines queued before it had a width are written."""
        if event.size.width and not self._size_known:
            self._size_known = True
            self.release()
        elif self._written and self.scrollable_content_region.width != self._wrapped_at:
            self.unwrite()
            self.release()
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def unwrite(self) -> None:
        """Take the lines written back into the queue, ahead of those queued, for ``release`` to write again:
        the log is wider or narrower than when they were written (the terminal was resized, or the log went
        beside the seats), and a ``RichLog`` keeps each line as first wrapped, cut at a narrower log's edge
        and short in a wider one."""
        lines = [*self._written, *self._held]
        self.clear()
        self._held.clear()
        self._held.extend(lines)  # (at most ``MAX_LINES``: the newest)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        return super().refresh(*regions, repaint=repaint, layout=layout and not self._in_place, recompose=recompose)
