"""Pictures (client/plots.py): the data of each is made once from results (running totals, score
distributions, ratings over games, as the standings rate them), then drawn in the terminal (plotext) and as
SVG; ``tenpennies tournament --plot`` prints them and ``--out`` writes them as files."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.text import Text

from tenpennies.client import tournament as tn
from tenpennies.client.plots import (
    Chart,
    chart,
    deal_figures,
    ratings_over_games,
    running_scores,
    score_distribution,
    svg,
)
from tenpennies.engine.thirty_one.events import PlayerInfo
from tenpennies.engine.tournament import GameResult, standings

SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class End:
    round: int
    scores: tuple[int, ...]


def game(index: int, seats: tuple[str, ...], scores: tuple[int, ...]) -> GameResult:
    low = min(scores)
    n = len(seats)
    return GameResult(index=index, seats=seats, scores=scores, winners=tuple(s for s in range(n) if scores[s] == low),
                      illegal=(0,) * n, timeouts=(0,) * n)


GAMES = [game(0, ("a", "b", "c"), (10, 40, 25)), game(1, ("b", "c", "a"), (5, 50, 30)),
         game(2, ("c", "a", "b"), (0, 15, 15)), game(3, ("a", "b", "c"), (20, 20, 60))]


def test_running_scores_start_at_nothing_and_follow_each_round() -> None:
    data = running_scores([End(1, (5, 20)), End(3, (25, 20))], ["Ann", "Bob"])
    assert data.ticks == ("start", "R1", "R3")
    assert data.points == (((0, 0), (1, 5), (2, 25)), ((0, 0), (1, 20), (2, 20)))
    text = chart(data, 60, 12, colour=False)
    assert "Score by round" in text and "Ann" in text and "Bob" in text and "R3" in text
    assert "\x1b[" not in text and "\x1b[" in chart(data, 60, 12)
    assert max(len(line) for line in text.splitlines()) <= 60 and len(text.splitlines()) == 12


def test_deal_figures_count_what_the_preset_keeps() -> None:
    players = [PlayerInfo(0, 3, 2, False, False, 5, 1), PlayerInfo(1, 3, 0, True, False, 3, 4),
               PlayerInfo(2, 0, 0, False, True, 0, 7)]
    assert deal_figures(players, "lives") == (2, 0, 0)
    assert deal_figures(players, "tokens") == (5, 3, 0)
    assert deal_figures(players, "points") == (1, 4, 0)


def test_a_tournaments_pictures_come_from_its_games() -> None:
    scores = score_distribution(GAMES)
    assert scores.names == ("a", "b", "c") and scores.shape == "bars"
    assert sorted(y for _, y in scores.points[0]) == [10, 15, 20, 30]  # a's four games
    ratings = ratings_over_games(("a", "b", "c"), GAMES)
    final = {s.name: s.rating_mu for s in standings(("a", "b", "c"), GAMES)}
    for name, points in zip(ratings.names, ratings.points, strict=True):
        assert len(points) == 5 and [x for x, _ in points] == [0, 1, 2, 3, 4]
        assert points[-1][1] == pytest.approx(final[name])
    assert "Rating" in chart(ratings, 80, 16, colour=False)


def test_svg_is_a_picture_with_a_line_a_name() -> None:
    for data in (score_distribution(GAMES), ratings_over_games(("a", "b", "c"), GAMES),
                 running_scores([End(1, (5, 20))], ["A&B", "<C>"])):
        root = ET.fromstring(svg(data))
        assert root.tag == f"{SVG}svg"
        assert len(root.findall(f"{SVG}polyline")) == len(data.names)
        labels = [t.text for t in root.findall(f"{SVG}text")]
        assert data.title in labels and all(name in labels for name in data.names)


def test_tournament_plot_prints_and_writes_the_pictures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    tn.add_arguments(parser)
    where = tmp_path / "out"
    args = parser.parse_args(["--bots", "greedy,random,greedy,random", "--games", "4", "--seed", "7",
                              "--rule", "rounds=1", "--plot", "--out", f"{where}/"])
    assert tn.run(args) == 0
    out = capsys.readouterr().out
    assert "Scores (a game's points, lower is better)" in out and "Rating (mu) over games" in out
    data = json.loads((where / "results.json").read_text())
    for name in tn.PLOT_FILES:
        root = ET.fromstring((where / name).read_text())
        assert len(root.findall(f"{SVG}polyline")) == len(data["standings"])
    # a file for --out: the pictures beside it, named after it
    args = parser.parse_args(["--bots", "greedy,random,greedy,random", "--games", "4", "--seed", "7",
                              "--rule", "rounds=1", "--plot", "--out", str(tmp_path / "t.json")])
    assert tn.run(args) == 0
    assert (tmp_path / "t.json").is_file() and (tmp_path / "t-scores.svg").is_file()
    assert (tmp_path / "t-ratings.svg").is_file()


def test_scores_are_ticked_in_whole_numbers() -> None:
    text = chart(running_scores([End(1, (40, 110)), End(2, (70, 110))], ["Ann", "Bob"]), 60, 14, colour=False)
    ticks = [line.split("┤")[0].strip() for line in text.splitlines() if "┤" in line]
    assert ticks and all(t.isdigit() for t in ticks) and "110" in ticks and "0" in ticks


def test_charts_load_in_a_thread_of_their_own() -> None:
    """``load_charts`` imports plotext in a thread, once: a fresh interpreter without it has it afterwards,
    and the caller's thread went on meanwhile (it returned before the import could have finished)."""
    program = textwrap.dedent("""
        import sys, threading
        from tenpennies.client import plots
        assert "plotext" not in sys.modules
        plots.load_charts()
        loading = plots._loading
        assert loading is not None and loading is not threading.current_thread()
        plots.load_charts()
        assert plots._loading is loading  # once a process
        loading.join(30)
        assert "plotext" in sys.modules
        print("loaded")
    """)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "loaded", done.stderr


def test_the_names_go_under_the_picture_where_no_line_runs_over_them() -> None:
    data = Chart("Score by round", ("Ann", "greedy bot 1", "greedy bot 2", "You"),
                 tuple(tuple((float(x), float(y)) for x, y in enumerate(ys)) for ys in
                       ((10, 30, 55), (0, 5, 12), (40, 60, 90), (3, 20, 35))), ticks=("1", "2", "3"))
    for colour in (False, True):
        lines = Text.from_ansi(chart(data, 60, 10, colour=colour)).plain.splitlines()
        assert len(lines) == 10  # the height asked for, the names' line in it
        assert all(name in lines[-1] for name in data.names), lines[-1]
        assert not any(name in line for line in lines[:-1] for name in data.names), lines
    narrow = Text.from_ansi(chart(data, 30, 12, colour=False)).plain.splitlines()
    assert len(narrow) == 12 and all(len(line) <= 30 for line in narrow[-2:])  # the names on two lines
    assert all(any(name in line for line in narrow[-2:]) for name in data.names), narrow
