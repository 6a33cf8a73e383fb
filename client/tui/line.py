"""A line of the table screen (the header, the status line, the prompt...): it keeps the text it drew and
redraws only when it is handed a different one, and asks for a new layout only when its height changes."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.geometry import Size
from textual.widgets import Static


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


class Line(Static):
    """One region of text, redrawn only on a change."""

    def __init__(self, text: RenderableType | None = None, *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(text if text is not None else "", id=id, classes=classes)
        self.text: RenderableType | None = text
        self._height = -1  # lines at the width last drawn (-1: not yet measured)

    def show(self, text: RenderableType) -> bool:
        """Draw ``text`` if it differs from what is drawn; True when it did."""
        if same(text, self.text):
            return False
        self.text = text
        self.update(text, layout=False)
        width = self.content_size.width
        if not width or self.styles.height is not None and self.styles.height.is_cells:
            if not width:
                self.refresh(layout=True)  # not laid out yet: nothing to compare with
            return True
        height = lines(text, width)
        if height is None:
            height = self.get_content_height(Size(0, 0), Size(0, 0), width)
        if height != self._height or height != self.content_size.height:
            self._height = height
            self.refresh(layout=True)
        return True
