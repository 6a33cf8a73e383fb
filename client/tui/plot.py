"""A picture on a screen (``client.plots``): drawn in text to the width it is given, again when that changes,
and only then (it keeps the chart and the size it drew)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import Static

from ..plots import Chart, chart

MOST = 14   # lines a picture takes at most
LEAST = 6   # fewer than this for the picture itself (its names under it besides) and it is not shown: no room


def legend_rows(names: tuple[str, ...], width: int) -> int:
    """The rows the names take under the picture (as ``client.plots`` lays them out: ``  ██ name`` each, as
    many a row as fit ``width``)."""
    rows, used = 0, 0
    for name in names:
        cells = 5 + len(name)
        if not rows or used + cells > width:
            rows += 1
            used = 0
        used += cells
    return rows


class ScorePlot(Static):
    """``data`` drawn in the widget's width. Its height: what the terminal has left once ``reserve`` lines
    (the rest of its screen) are taken, ``MOST`` at most; hidden when that leaves the picture under ``LEAST``
    once its names are under it (a picture without them would be lines nobody can tell apart: the names are
    never cut off).

    The height is set as the widget mounts (it takes no measuring); the chart is drawn when its frame asks
    for it, once the layout has given it its width: drawn as it mounted it was drawn twice (a guess at the
    width, then the width laid out), 5 ms more of a round's end dialog's first frame."""

    DEFAULT_CSS = "ScorePlot { height: auto; }"

    def __init__(self, data: Chart | None, *, colour: bool = True, reserve: int = 14, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.data = data  # None: nothing to draw (hidden)
        self.colour = colour
        self.reserve = reserve
        self.drawn: tuple[Chart, int, int] | None = None
        self.picture = Text()
        self.wanted = data is not None  # shown when there is room (False: hidden whatever the room)

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def show(self, data: Chart | None) -> None:
        """Draw ``data`` instead (nothing if it is the one drawn); None hides the picture."""
        if data is None:
            self.hide()
            return
        self.data = data
        self.wanted = True
        if self.is_mounted:  # (else as it mounts)
            self.fit()
            self.refresh()

    def hide(self) -> None:
        self.wanted = False
        self.display = False

    def height_now(self) -> int:
        return min(MOST, self.app.size.height - self.reserve)

    def fit(self) -> None:
        """Shown or hidden, and its height, by the room the terminal leaves."""
        height = self.height_now()
        width = max(self.content_size.width or self.app.size.width - 6, 20)  # (a guess until laid out)
        names = legend_rows(self.data.names, width) if self.data is not None else 0
        self.display = self.wanted and height >= LEAST + names
        if self.display:
            self.styles.height = height  # (a layout only when it changes)

    def render(self) -> Text:
        width, height = self.content_size.width, self.height_now()
        if self.data is None:
            return self.picture
        if width and self.drawn != (self.data, width, height):
            self.drawn = (self.data, width, height)
            self.picture = Text.from_ansi(chart(self.data, width, height, colour=self.colour), no_wrap=True)
        return self.picture
