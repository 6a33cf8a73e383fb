"""What the table screen's cheaper frames must not change: the log shows the lines last written wherever it
has scrolled (it keeps each line as drawn, by its place in the whole log), a row of the seats strip or the
status line has the cells Textual would make of it, and a score chart is there once its screen settles."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widgets import RichLog

from tenpennies.client.plots import running_figures
from tenpennies.client.tui.footer import KeysFooter
from tenpennies.client.tui.line import Rows, row_cells
from tenpennies.client.tui.log import MAX_LINES, MIN_WIDTH, TableLog
from tenpennies.client.tui.plot import ScorePlot

from tuikit import until


class LogApp(App[None]):
    CSS = "TableLog { height: 6; }"

    def compose(self) -> ComposeResult:
        yield TableLog(id="log")


def shown(log: TableLog) -> list[str]:
    """The text of each line the log shows, top to bottom."""
    return [log.render_line(y).text.rstrip() for y in range(log.scrollable_content_region.height)]


async def test_the_log_shows_the_last_lines_written_as_it_scrolls_and_drops_old_lines() -> None:
    app = LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(TableLog)
        written = 0

        async def write(count: int) -> None:
            nonlocal written
            for _ in range(count):
                log.add(f"line {written}")
                written += 1
            log.release()
            await pilot.pause()
            await until(pilot, lambda: shown(log)[-1] == f"line {written - 1}", f"line {written - 1} shown")

        await write(20)  # scrolling: each line drawn once is kept
        assert shown(log) == [f"line {n}" for n in range(14, 20)]
        await write(3)   # the same places on the screen, other lines of the log
        assert shown(log) == [f"line {n}" for n in range(17, 23)]
        await write(MAX_LINES)  # the oldest lines are dropped: a place in the log is not a place in its list
        assert shown(log) == [f"line {n}" for n in range(written - 6, written)]
        await write(3)  # full: the last places of the list show other lines each time
        assert shown(log) == [f"line {n}" for n in range(written - 6, written)]
        log.scroll_home(animate=False, immediate=True)
        await pilot.pause()
        assert shown(log)[0] == f"line {written - MAX_LINES}"
        log.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        assert shown(log) == [f"line {n}" for n in range(written - 6, written)]


class EarlyLogApp(App[None]):
    """Lines released before the log has a width (as the table's first redraw does, before its first frame)."""
    CSS = "TableLog { height: 6; }"

    def __init__(self) -> None:
        super().__init__()
        self.room_before = -1  # the log's width as the lines were released
        self.rows_before = -1  # its rows once they were released

    def compose(self) -> ComposeResult:
        yield TableLog(id="log")

    def on_mount(self) -> None:
        log = self.query_one(TableLog)
        self.room_before = log.room
        for n in range(3):
            log.add(f"early {n}")
        log.release()
        self.rows_before = len(log.lines)


async def test_lines_released_before_the_log_has_a_width_are_written_once_it_has_one() -> None:
    """They wait in the log's queue (made into rows at a width of 0 they would be wrapped wrong, and each
    would ask for a new layout): written once the log is laid out, once each, in order."""
    app = EarlyLogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(TableLog)
        await until(pilot, lambda: "early 2" in shown(log), "the early lines shown")
        assert app.room_before == 0  # released before the log had its width
        assert app.rows_before == 0  # kept queued, not written at no width
        assert shown(log)[:3] == ["early 0", "early 1", "early 2"]
        assert len(log.lines) == 3


class TwoLogsApp(App[None]):
    CSS = "TableLog, RichLog { height: 6; }"

    def compose(self) -> ComposeResult:
        yield TableLog(id="ours")
        yield RichLog(id="textuals", wrap=True, min_width=MIN_WIDTH, max_lines=MAX_LINES)


async def test_a_line_written_to_the_log_has_the_cells_richlog_would_make_of_it() -> None:
    """The log makes a line's rows itself (the quick way where it fits, wrapped where it does not); Textual's
    ``RichLog.write`` must make the same, style for style: the same lines, both ways."""
    lines = [Text("Round 2 (2 of 7) · 1 set of 3 and 1 run of 4", style="bold"),
             Text("greedy bot 1 took the 7♠ ¹ and laid 7♥ 7♦ JK", style="dim"),
             Text.assemble(("You", "bold"), " drew; discarded the ", ("Q♣", "red on white"), "."),
             Text(""), Text("a line too long for the log, which wraps it at its width, twice over at least " * 2),
             Text("two\nlines, and\ta tab"), Text("盤 wide cells: 10 pennies left")]
    app = TwoLogsApp()
    async with app.run_test(size=(60, 16)) as pilot:
        ours, textuals = app.query_one(TableLog), app.query_one(RichLog)
        await until(pilot, lambda: ours.room > 0 and textuals.scrollable_content_region.width > 0, "the logs' sizes")
        assert ours.room == textuals.scrollable_content_region.width
        for line in lines:
            ours.add(line)
            ours.release()
            textuals.write(line)
        assert len(ours.lines) == len(textuals.lines) > len(lines)  # the long lines wrapped
        for made, written in zip(ours.lines, textuals.lines, strict=True):
            assert list(made) == list(written) and made.cell_length == written.cell_length
        assert ours.virtual_size == textuals.virtual_size


class RowsApp(App[None]):
    CSS = "Rows { height: 4; padding: 0 1; color: $text-muted; }"

    def compose(self) -> ComposeResult:
        yield Rows()


Cell = tuple[str, object, object, tuple[bool | None, ...], object]


def cells(strip: Strip) -> list[Cell]:
    """Each cell of ``strip``: its character, colours (by number or value, not by name: Textual names
    a standard colour ``color(1)`` where Rich says ``red``, the same colour on the terminal), attributes and
    the offset a selection reads (``meta``)."""
    out: list[Cell] = []
    for segment in strip:
        style = segment.style
        assert style is not None
        colour, background = (None if c is None else (c.type, c.number, c.triplet)
                              for c in (style.color, style.bgcolor))
        attributes = (style.bold, style.dim, style.italic, style.underline, style.reverse, style.strike)
        out.extend((character, colour, background, attributes, style.meta.get("offset")) for character in segment.text)
    return out


async def test_a_row_made_into_cells_the_quick_way_has_the_cells_textual_would_make_of_it() -> None:
    """``row_cells`` (a row of the seats strip or the status line, through Rich) against Textual's own
    ``Visual.to_strips`` (which ``Rows`` used, and still uses for what ``row_cells`` leaves): the same cells,
    style for style, and the same offsets for selecting text."""
    rows = [Text("  Player           Score Pennies Cards             Sets", style="dim"),
            Text.assemble(("▶ ", "bold"), ("Ann", "bold"), "     12 ", ("7♥", "red"), " ", ("JK", "bold magenta"),
                          "  ", ("Q♣ Q♠ Q♦", "dim"), (" down", "italic")),
            Text.assemble("Top of the pile: ", ("9♦", "bold red on white"), " (live)", "   ",
                          ("Your hand: 11 cards, by rank", "underline")),
            Text("盤 wide cells: 10 pennies left"), Text("a plain row")]
    app = RowsApp()
    async with app.run_test(size=(60, 10)) as pilot:
        widget = app.query_one(Rows)
        await until(pilot, lambda: widget.size.width > 0, "the rows laid out")
        width = widget.size.width
        for row in rows:
            quick = row_cells(widget, row, width)
            assert quick is not None, row.plain
            (textual,) = Visual.to_strips(widget, visualize(widget, row), width, 1, widget.visual_style)
            assert cells(quick) == cells(textual), row.plain
            assert quick.cell_length == textual.cell_length
        # what it leaves to Textual: wider than the row's room, or not one line
        assert row_cells(widget, Text("x" * (width + 1)), width) is None
        assert row_cells(widget, Text("two\nlines"), width) is None


class PlotApp(App[None]):
    def compose(self) -> ComposeResult:
        chart = running_figures([1, 2], [(5, 0), (5, 12)], ["You", "bot 1"], title="Score by round", label="R",
                                y_label="score")
        yield ScorePlot(chart, reserve=10)


async def test_a_score_chart_is_drawn_once_its_screen_has_shown() -> None:
    app = PlotApp()
    async with app.run_test(size=(60, 24)) as pilot:
        plot = app.query_one(ScorePlot)
        await until(pilot, lambda: plot.drawn is not None, "the chart drawn")
        await pilot.pause()
        assert plot.size.height == 14 and "Score by round" in str(plot.render())


class KeysApp(App[None]):
    BINDINGS = [("a", "note('a')", "Add"), ("s", "note('s')", "Start"), ("x", "note('x')", "Hidden"),
                ("?", "note('?')", "Help")]

    def __init__(self) -> None:
        super().__init__()
        self.noted: list[str] = []
        self.bells = 0
        self.start_off = False  # Start shown but disabled

    def compose(self) -> ComposeResult:
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "note" and parameters == ("x",):
            return False  # not shown at all
        if action == "note" and parameters == ("s",) and self.start_off:
            return None   # shown, dimmed
        return True

    def action_note(self, what: str) -> None:
        self.noted.append(what)

    def bell(self) -> None:
        self.bells += 1


async def test_the_footer_shows_the_screens_keys_and_a_click_presses_one() -> None:
    """One widget for the line of keys: each key shown as Textual's footer shows it (the table's snapshot
    pictures are the same cells), a key hidden by ``check_action`` left out and a disabled one dimmed; a
    click on a key presses it, on a disabled one rings the bell; the line follows the bindings."""
    app = KeysApp()
    async with app.run_test(size=(60, 5)) as pilot:
        footer = app.query_one(KeysFooter)
        await until(pilot, lambda: bool(footer.keys), "the keys shown")
        assert [(k.display, k.description, k.enabled) for k in footer.keys] == [
            ("a", "Add", True), ("s", "Start", True), ("?", "Help", True)]
        assert footer.render_line(0).text.startswith(" a Add  s Start  ? Help ")
        await pilot.click(KeysFooter, offset=(9, 0))  # on " s Start "
        assert app.noted == ["s"]
        app.start_off = True
        app.refresh_bindings()
        await until(pilot, lambda: not footer.keys[1].enabled, "Start dimmed")
        start = footer.render_line(0)
        assert all(segment.style is not None and segment.style.dim for segment in start.crop(7, 16))
        await pilot.click(KeysFooter, offset=(9, 0))
        assert app.noted == ["s"] and app.bells == 1
        await pilot.click(KeysFooter, offset=(17, 0))  # " ? Help "
        assert app.noted == ["s", "?"]
        await pilot.hover(KeysFooter, offset=(2, 0))
        await until(pilot, lambda: footer.hovered == 0, "the first key under the pointer")
        line = footer.render_line(0)
        hovered, other = (next(iter(line.crop(x, x + 1))).style for x in (0, 17))
        assert hovered is not None and other is not None and hovered.bgcolor != other.bgcolor  # the hover ground
