"""A line of the table screen (the header, the status line, the prompt...): it keeps the text it drew and
redraws only when it is handed a different one (Textual's ``reactive``), and asks for a new layout only when its
height changes."""

from __future__ import annotations

from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget
from textual.widgets import Static

NEWLINE = Text("\n")


def same(a: RenderableType | None, b: RenderableType | None) -> bool:
    """Whether two texts draw alike (their words, their styles, and how they wrap)."""
    if isinstance(a, Text) and isinstance(b, Text):
        return (a.plain == b.plain and a.spans == b.spans and a.style == b.style and a.no_wrap == b.no_wrap
                and a.overflow == b.overflow and a.justify == b.justify)
    return a is b


def lines(text: RenderableType, width: int) -> int | None:
    """The lines ``text`` takes ``width`` cells wide, when that is plain to see (None: measure it)."""
    if not isinstance(text, Text):
        return None
    if text.no_wrap:
        return text.plain.count("\n") + 1
    if "\n" not in text.plain and text.cell_len <= width:
        return 1
    return None


def row_cells(widget: Widget, row: Text, width: int) -> Strip | None:
    """``row`` made into cells as ``Visual.to_strips`` makes a one-line text (the widget's style under each
    span's, each segment marked with its offset for selecting text), through Rich's own rendering in under
    half the time (a seat's line: 60 us, against 150 us through Textual's ``Content``, which styles and
    places each span on its own); None where that is not plain: a row wider than ``width``, with a break or
    a tab, or placed other than from the left."""
    plain = row.plain
    if row.cell_len > width or "\n" in plain or "\t" in plain or row.justify not in (None, "default", "left") \
            or widget.styles.text_align not in ("start", "left") or widget.styles.content_align != ("left", "top"):
        return None
    base = widget.visual_style.rich_style
    segments, x = [], 0
    for segment in NEWLINE.join((row,)).render(widget.app.console, end=""):  # its style becomes a span, as in Text
        segments.append(Segment(segment.text, base + segment.style + Style.from_meta({"offset": (x, 0)})))
        x += len(segment.text)  # (as Textual counts it: characters, not cells)
    return Strip(segments, row.cell_len)


class Shown:
    """What a line or a region of rows shows: equal to another that draws alike (``same``, row for row), so
    that Textual's ``reactive`` tells a change (a Rich ``Text``'s own equality leaves its style out: a prompt
    turned red would not be drawn again)."""

    __slots__ = ("texts",)

    def __init__(self, *texts: RenderableType | None) -> None:
        self.texts = texts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Shown):
            return NotImplemented
        return len(self.texts) == len(other.texts) and all(same(a, b) for a, b in zip(self.texts, other.texts,
                                                                                       strict=True))

    __hash__ = None  # type: ignore[assignment]  # (compared, never a key)


class Line(Static):
    """One region of text, redrawn only on a change (``shown``, a reactive: its watcher draws)."""

    shown: reactive[Shown] = reactive(Shown(None), repaint=False, init=False)

    def __init__(self, text: RenderableType | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(text if text is not None else "", id=id, classes=classes)
        self.set_reactive(Line.shown, Shown(text))
        self._height = -1  # lines at the width last drawn (-1: not yet measured)

    @property
    def text(self) -> RenderableType | None:
        """The text drawn."""
        return self.shown.texts[0]

    def show(self, text: RenderableType) -> None:
        """Draw ``text`` if it differs from what is drawn."""
        self.shown = Shown(text)

    def watch_shown(self, shown: Shown) -> None:
        """Draw the new text, and ask for a new layout only if it takes another number of lines."""
        (text,) = shown.texts
        self.update(text if text is not None else "", layout=False)
        width = self.content_size.width
        if not width or self.styles.height is not None and self.styles.height.is_cells:
            if not width:
                self.refresh(layout=True)  # not laid out yet: nothing to compare with
            return
        height = lines(text, width) if text is not None else 1
        if height is None:
            height = self.get_content_height(Size(0, 0), Size(0, 0), width)
        if height != self._height or height != self.content_size.height:
            self._height = height
            self.refresh(layout=True)


class Rows(Static):
    """A region of rows of text, one line each (none wraps): a row is made into cells only when it changes,
    and only the rows that changed are drawn again (the rest of the region, and the frame around it, are
    left as they were); a new layout only when the number of rows changes (``shown``, a reactive: its
    watcher draws). ``render`` gives the rows as one text, as a ``Static`` would show them."""

    shown: reactive[Shown] = reactive(Shown(), repaint=False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: dict[int, Strip] = {}  # each row as drawn, at ``_strip_width``
        self._strip_width = -1

    @property
    def rows(self) -> tuple[Text, ...]:
        """The rows drawn."""
        return self.shown.texts  # type: ignore[return-value]  # (``show_rows`` sets only texts)

    def show_rows(self, rows: tuple[Text, ...]) -> None:
        """Draw these rows where they differ from those drawn (``shown``, a reactive: its watcher draws)."""
        self.shown = Shown(*rows)

    def watch_shown(self, old: Shown, new: Shown) -> None:
        """Draw the rows that changed; a new layout only when the number of rows did."""
        if len(new.texts) != len(old.texts):
            self._strips.clear()
            self.refresh(layout=True)
            return
        changed = [y for y, (a, b) in enumerate(zip(old.texts, new.texts, strict=True)) if not same(a, b)]
        width = self.size.width
        for y in changed:
            self._strips.pop(y, None)
        if width:
            self.refresh(*(Region(0, y, width, 1) for y in changed))
        else:
            self.refresh()

    def render(self) -> Text:
        return Text("\n").join(self.rows)

    @property  # type: ignore[misc]
    def content(self) -> Text:
        """The rows as one text (what a ``Static`` is asked for)."""
        return self.render()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if width != self._strip_width:
            self._strips.clear()
            self._strip_width = width
        strip = self._strips.get(y)
        if strip is None:
            if y >= len(self.rows):
                return Strip.blank(width, self.visual_style.rich_style)
            strip = row_cells(self, self.rows[y], width) if self.rows[y].plain else None
            if strip is None:
                drawn = Visual.to_strips(self, visualize(self, self.rows[y]), width, 1, self.visual_style)
                strip = drawn[0] if drawn else Strip.blank(width, self.visual_style.rich_style)
            self._strips[y] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
