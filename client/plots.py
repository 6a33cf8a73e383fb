"""Pictures of numbers: each seat's running score by round (a game's end, the replay viewer), a tournament's
score distributions and ratings over games. Terminal first (plotext draws them in text, ``chart``), and the
same pictures as SVG files (``svg``), written here in a few lines rather than pulling in a plotting library.

The data of a picture is a ``Chart``, made once from the results (``running_scores``, ``running_figures``,
``score_distribution``, ``ratings_over_games``); both drawings read it and nothing else.
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Literal, Protocol

from tenpennies.engine.tournament import GameResult, Standings

# One colour a seat (or a bot), in the same order on the terminal and in a file.
COLOURS = ("red", "blue", "green", "magenta", "cyan", "yellow")
MARKERS = ("dot", "x", "+", "o", "*", "#")  # without colours
SVG_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#bcbd22")


@dataclass(frozen=True)
class Chart:
    """A picture's data: one line (or one histogram) a name. ``lines``: ``points[i]`` is a ``(x, y)`` pair
    of ``names[i]``; ``bars``: ``points[i]`` its values, drawn as a histogram. ``ticks``: the x axis' labels
    where a line's x values are places (rounds), not amounts."""

    title: str
    names: tuple[str, ...]
    points: tuple[tuple[tuple[float, float], ...], ...]
    shape: Literal["lines", "bars"] = "lines"
    x_label: str = ""
    y_label: str = ""
    ticks: tuple[str, ...] = ()


class RoundEnd(Protocol):
    """A round's end as both the engine's event and the wire's message have it: its round and every seat's
    score so far."""

    @property
    def round(self) -> int: ...

    @property
    def scores(self) -> Sequence[int]: ...


def running_scores(ends: Sequence[RoundEnd], names: Sequence[str], *, title: str = "Score by round") -> Chart:
    """Ten Pennies: each seat's score after each round played (from 0 before the first), lowest wins."""
    return running_figures([e.round for e in ends], [tuple(e.scores) for e in ends], names, title=title,
                           label="R", y_label="score")


def running_figures(rounds: Sequence[int], figures: Sequence[Sequence[int]], names: Sequence[str], *,
                    title: str, label: str, y_label: str, start: Sequence[int] | None = None) -> Chart:
    """Each seat's figure after each of ``rounds`` (``figures[i][seat]``), from ``start`` (0 for all seats
    when not given) before the first: ``label`` names a round on the x axis (``R`` for a round, ``D`` a deal)."""
    seats = len(names)
    first = tuple(start) if start is not None else (0,) * seats
    ticks = ("start", *(f"{label}{r}" for r in rounds))
    points = tuple(tuple((float(i), float(row[s])) for i, row in enumerate((first, *figures)))
                   for s in range(seats))
    return Chart(title, tuple(names), points, ticks=ticks, y_label=y_label)


class Standing(Protocol):
    """A seat as a deal of a game of lives, tokens or points leaves it (its game's public ``PlayerInfo``)."""

    @property
    def out(self) -> bool: ...

    @property
    def lives(self) -> int: ...

    @property
    def tokens(self) -> int: ...

    @property
    def points(self) -> int: ...


def deal_figures(players: Sequence[Standing], scoring: str) -> tuple[int, ...]:
    """Thirty-One: each seat's figure as its preset counts it (``scoring``: lives, 0 once out or riding free;
    tokens; points)."""
    return tuple(0 if p.out else int(getattr(p, scoring)) for p in players)


class DealEnd(Protocol):
    @property
    def deal(self) -> int: ...

    @property
    def players(self) -> Sequence[Standing]: ...


def running_deals(ends: Sequence[DealEnd], names: Sequence[str], scoring: str, start: Sequence[int]) -> Chart:
    """Thirty-One: each seat's lives (tokens, points) after each deal played, from ``start``."""
    return running_figures([e.deal for e in ends], [deal_figures(e.players, scoring) for e in ends], names,
                           title=f"{scoring.capitalize()} by deal", label="D", y_label=scoring, start=start)


def score_distribution(games: Sequence[GameResult], title: str = "Scores (a game's points, lower is better)"
                       ) -> Chart:
    """A tournament: each bot's game scores, as a histogram."""
    scores: dict[str, list[float]] = {}
    for game in games:
        for seat, name in enumerate(game.seats):
            scores.setdefault(name, []).append(float(game.scores[seat]))
    names = tuple(sorted(scores))
    return Chart(title, names,
                 tuple(tuple((0.0, v) for v in scores[n]) for n in names), shape="bars", x_label="score",
                 y_label="games")


def ratings_over_games(entries: Sequence[str], games: Sequence[GameResult]) -> Chart:
    """A tournament: each bot's rating (openskill's mu, as the standings rate) after each of its games, in
    the games' order (the standings' own, ``engine.tournament.Standings``)."""
    table = Standings(entries)
    points: dict[str, list[tuple[float, float]]] = {name: [(0.0, table.enter(name).rating_mu)] for name in entries}
    for number, game in enumerate(sorted(games, key=lambda g: g.index), 1):
        table.add(game)
        for name in set(game.seats):
            points.setdefault(name, []).append((float(number), table.enter(name).rating_mu))
    names = tuple(sorted(points))
    return Chart("Rating (mu) over games", names, tuple(tuple(points[n]) for n in names), x_label="games",
                 y_label="mu")


# --- the terminal ------------------------------------------------------------------------------------------

def load_charts() -> None:
    """Import plotext (what ``chart`` draws with) in a thread of its own, once a process: for a screen that
    shows a picture later (a round's end over the table), so that the ~40-90 ms of the import are spent while
    the screen waits on the players, not in the first frame of that picture."""
    global _loading
    if _loading is None and "plotext" not in sys.modules:
        _loading = threading.Thread(target=importlib.import_module, args=("plotext",), name="import plotext",
                                    daemon=True)
        _loading.start()


_loading: threading.Thread | None = None


def chart(data: Chart, width: int, height: int, *, colour: bool = True) -> str:
    """``data`` drawn in ``width`` x ``height`` cells of text (with ANSI colours unless ``colour`` is off:
    then each name has a marker of its own)."""
    import plotext as plt  # here, not with the module: it takes ~90 ms, which a screen without a picture skips

    # the names under the picture, not in it: plotext's legend sits in the plot, where the lines run over it
    legend = _legend(data.names, max(width, 20), colour)
    plt.clear_figure()
    plt.plotsize(max(width, 20), max(height - len(legend), 6))
    plt.theme("clear")
    plt.title(data.title)
    for i, points in enumerate(data.points):
        colour_of = COLOURS[i % len(COLOURS)] if colour else "default"
        if data.shape == "bars":
            plt.hist([y for _, y in points], bins=min(20, max(5, width // 4)), color=colour_of)
        elif points:
            marker = "braille" if colour else MARKERS[i % len(MARKERS)]
            plt.plot([x for x, _ in points], [y for _, y in points], marker=marker, color=colour_of)
    if data.ticks:
        plt.xticks(list(range(len(data.ticks))), list(data.ticks))
    whole = [y for points in data.points for _, y in points]
    if data.shape == "lines" and whole and all(y == int(y) for y in whole):  # scores: ticks as whole numbers
        ticks = _whole_ticks(min(whole), max(whole), max(2, min(5, (height - 3) // 2 + 1)))
        plt.yticks(ticks, [str(t) for t in ticks])
    if data.x_label:
        plt.xlabel(data.x_label)
    text: str = plt.build()
    plt.clear_figure()
    text = text if colour else plt.uncolorize(text)
    return "\n".join([text.rstrip("\n"), *(_legend_line(line, colour) for line in legend)])


# how each name's mark is drawn under the picture: its line's colour, or (without colours) its marker
LEGEND_MARKS = {"dot": "•", "x": "x", "+": "+", "o": "o", "*": "*", "#": "#"}


def _legend(names: Sequence[str], width: int, colour: bool) -> list[list[tuple[int, str]]]:
    """The names as rows of (index, name) that fit ``width`` (``  ██ name`` each), as many rows as they take."""
    rows: list[list[tuple[int, str]]] = [[]]
    used = 0
    for i, name in enumerate(names):
        cells = 5 + len(name)  # two spaces, the mark (two cells), a space, the name
        if used and used + cells > width:
            rows.append([])
            used = 0
        rows[-1].append((i, name))
        used += cells
    return rows if names else []


def _legend_line(row: Sequence[tuple[int, str]], colour: bool) -> str:
    import plotext as plt

    out = []
    for i, name in row:
        if colour:
            out.append("  " + plt.colorize("██", COLOURS[i % len(COLOURS)]) + f" {name}")
        else:
            out.append(f"  {LEGEND_MARKS[MARKERS[i % len(MARKERS)]] * 2} {name}")
    return "".join(out)


# --- a file ------------------------------------------------------------------------------------------------

def svg(data: Chart, width: int = 720, height: int = 360) -> str:
    """``data`` as an SVG picture: axes with a few ticks, a polyline a name (or a histogram's outline), the
    names as a legend."""
    left, right, top, bottom = 56, 140, 30, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    if data.shape == "bars":
        series = _histograms(data)
    else:
        series = [list(p) for p in data.points]
    xs = [x for s in series for x, _ in s] or [0.0, 1.0]
    ys = [y for s in series for _, y in s] or [0.0, 1.0]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if data.shape == "bars":
        y0 = 0.0
    x1, y1 = (x1 if x1 > x0 else x0 + 1), (y1 if y1 > y0 else y0 + 1)

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return top + plot_h - (y - y0) / (y1 - y0) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14" font-weight="bold">{escape(data.title)}</text>',
           f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
           f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>']
    for k in range(5):
        y = y0 + (y1 - y0) * k / 4
        out.append(f'<text x="{left - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{_number(y)}</text>')
        out.append(f'<line x1="{left}" y1="{sy(y):.1f}" x2="{left + plot_w}" y2="{sy(y):.1f}" stroke="#ddd"/>')
    if data.ticks:
        for i, tick in enumerate(data.ticks):
            out.append(f'<text x="{sx(i):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{escape(tick)}</text>')
    else:
        for k in range(5):
            x = x0 + (x1 - x0) * k / 4
            out.append(f'<text x="{sx(x):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{_number(x)}</text>')
    if data.x_label:
        out.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" text-anchor="middle">{escape(data.x_label)}</text>')
    for i, (name, points) in enumerate(zip(data.names, series, strict=True)):
        colour = SVG_COLOURS[i % len(SVG_COLOURS)]
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>')
        out.append(f'<rect x="{left + plot_w + 12}" y="{top + 16 * i}" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{left + plot_w + 26}" y="{top + 16 * i + 10}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _histograms(data: Chart, bins: int = 20) -> list[list[tuple[float, float]]]:
    """Each name's values as a histogram's outline (a step line over shared bins)."""
    values = [y for points in data.points for _, y in points] or [0.0]
    low, high = min(values), max(values)
    width = (high - low) / bins or 1.0
    outlines = []
    for points in data.points:
        counts = [0] * bins
        for _, y in points:
            counts[min(bins - 1, int((y - low) / width))] += 1
        line = [(low, 0.0)]
        for b, count in enumerate(counts):
            line += [(low + b * width, float(count)), (low + (b + 1) * width, float(count))]
        outlines.append([*line, (low + bins * width, 0.0)])
    return outlines


def _whole_ticks(low: float, high: float, count: int) -> list[int]:
    """About ``count`` whole numbers from ``low`` to ``high``, evenly spaced (one if they are equal)."""
    if high <= low:
        return [int(low)]
    top = int(high)
    step = max(1, round((high - low) / (count - 1)))
    ticks = list(range(int(low), top + 1, step))
    if ticks[-1] != top:  # the top itself, instead of a tick too near it
        ticks = [*ticks[:-1], top] if top - ticks[-1] < step / 2 else [*ticks, top]
    return ticks


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 or value == int(value) else f"{value:.1f}"
