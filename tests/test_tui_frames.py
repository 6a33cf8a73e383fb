"""What the table screen's cheaper frames must not change: the log shows the lines last written wherever it
has scrolled (it keeps each line as drawn, by its place in the whole log), and a score chart is there once
its screen settles."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tenpennies.client.plots import running_figures
from tenpennies.client.tui.log import MAX_LINES, TableLog
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


class TwoLogsApp(App[None]):
    CSS = "TableLog { height: 6; }"

    def compose(self) -> ComposeResult:
        yield TableLog(id="fast")
        yield TableLog(id="slow")


async def test_a_line_written_the_quick_way_has_the_cells_richlog_would_make_of_it() -> None:
    """``add_line`` makes the cells of a line that fits itself; ``RichLog.write`` (which it stands for, and
    which still writes what does not fit) must make the same, style for style: the same log, both ways."""
    lines = [Text("Round 2 (2 of 7) · 1 set of 3 and 1 run of 4", style="bold"),
             Text("greedy bot 1 took the 7♠ ¹ and laid 7♥ 7♦ JK", style="dim"),
             Text.assemble(("You", "bold"), " drew; discarded the ", ("Q♣", "red on white"), "."),
             Text(""), Text("a line too long for the log, which wraps it at its width, twice over at least " * 2),
             Text("盤 wide cells: 10 pennies left")]
    app = TwoLogsApp()
    async with app.run_test(size=(60, 16)) as pilot:
        fast, slow = app.query_one("#fast", TableLog), app.query_one("#slow", TableLog)
        await until(pilot, lambda: fast._size_known and slow._size_known, "the logs' sizes")
        for line in lines:
            fast.add_line(line, scroll_end=True)
            slow.write(line)
        assert len(fast.lines) == len(slow.lines) > len(lines)  # the long line wrapped (both ways: ``write``)
        for made, written in zip(fast.lines, slow.lines, strict=True):
            assert list(made) == list(written) and made.cell_length == written.cell_length
        assert fast.virtual_size == slow.virtual_size


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
