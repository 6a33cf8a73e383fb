"""The review in the terminal client (client/tui/review.py), with a real Textual Pilot: offered at the game's
end, made in a worker with a progress bar, the costliest decisions shown with the better move, kept so that
it opens at once the next time, and stopped by Escape (what was scored so far shown, nothing kept)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App
from textual.widgets import ProgressBar, Static

from tenpennies.client.connection import Connection
from tenpennies.client.reviews import load_review, save_review
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.review import ReviewScreen, move_text
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, RoundEndScreen
from tenpennies.client.tui.viewer import drawn_move
from tenpennies.engine.play import play_game
from tenpennies.engine.review import Mark, Option, Review
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.engine.ten_pennies.commands import DeclineDiscard, Discard, Draw, PassBuy
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.record import GameRecord

from tuikit import TableApp, screen_of, until

SIZE = (80, 24)
ASCII = CardStyle(ascii=True)


def plain(renderable: object) -> str:
    console = Console(width=78, color_system=None, legacy_windows=False)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def shown(screen: ReviewScreen) -> str:
    return "\n".join(plain(s.content) for s in screen.query(Static))


async def test_the_game_end_offers_the_review_which_is_kept_and_opens_at_once_the_second_time(
        connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    hosted = await connection.create_table("end", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=4)),
                                           seed=5, decision_seconds=0, takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, style=ASCII))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        for _ in range(200):  # play by keys until the game is over
            await until(pilot, lambda: screen.legal or not isinstance(app.screen, TableScreen) or
                        screen.tv.game_end is not None, "a decision, a dialog or the end")
            if screen.tv.game_end is not None:
                break
            if isinstance(app.screen, RoundEndScreen):
                await pilot.press("space")
                continue
            kinds = {type(c) for c in screen.legal}
            key = next(k for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x"))
                       if kind in kinds)
            before = screen.tv.sequence
            await pilot.press(key)
            await until(pilot, lambda before=before: screen.tv.sequence > before, "the move told")  # type: ignore[misc]
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen | RoundEndScreen), "the game's end")
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("space")
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "the standings")
        assert "R reviews your play" in "\n".join(str(w.render()) for w in app.screen.query(Static))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review's screen")
        review_screen = app.screen
        assert isinstance(review_screen, ReviewScreen) and not review_screen.kept
        await until(pilot, lambda: review_screen.review is not None, "the review made", timeout=120)
        review = review_screen.review
        assert review is not None and review.complete and review.marks
        kept = load_review(connection.address, hosted.table_id, me.seat or 0)
        assert kept == review
        text = shown(review_screen)
        assert "Review of Me's play" in text and f"{len(review.marks)} decisions with a choice" in text, text
        for mark in review.costliest(3):  # each move as the table shows one: words, the player's cards (ASCII)
            played, better = (drawn_move(review_screen.record, m, ASCII).plain for m in (mark.chosen,
                                                                                     mark.best.command))
            assert played in text and better in text, (played, better, text)
            if len(mark.chosen.split()) > 2:  # a move with a card: not the notation ("discard 7H": "discard the 7H")
                assert move_text(mark.chosen) not in text
            assert f"{mark.loss:.1f}" in text
        assert not review_screen.query_one(ProgressBar).display
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the review closed")

        record = await connection.game_record(hosted.table_id)
        app.push_screen(ReviewScreen(record, me.seat or 0, connection.address))
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review again")
        again = app.screen
        assert isinstance(again, ReviewScreen)
        await pilot.pause()
        assert again.kept and again.review == review and again.worker is None  # opened at once, no search


class ReviewApp(App[None]):
    def __init__(self, screen: ReviewScreen) -> None:
        super().__init__()
        self.review_screen = screen

    async def on_mount(self) -> None:
        await self.push_screen(self.review_screen)


async def test_escape_stops_a_review_and_nothing_is_kept(tmp_path: Path) -> None:
    rules = HouseRules()
    game = play_game(Game(4, rules, 3), [BOTS["greedy"](s) for s in range(4)])
    record = GameRecord("g1", "long", 4, rules, 3, "finished", ["a", "b", "c", "d"], list(game.log))
    screen = ReviewScreen(record, 1, tmp_path / "games.db", budget=400, home=tmp_path)
    app = ReviewApp(screen)
    async with app.run_test(size=SIZE) as pilot:
        bar = screen.query_one(ProgressBar)
        await until(pilot, lambda: (bar.progress or 0) >= 2, "some progress", timeout=60)
        assert bar.total is not None and bar.total > 50
        await pilot.press("escape")
        await until(pilot, lambda: screen.review is not None, "the review stopped", timeout=60)
        assert screen.review is not None and not screen.review.complete
        assert 2 <= len(screen.review.marks) < bar.total
        assert "Stopped after" in shown(screen) and "not kept" in shown(screen)
        assert load_review(tmp_path / "games.db", "g1", 1, home=tmp_path) is None
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), "closed")


def made_review() -> Review:
    """A review written out by hand (so that the picture does not move when the searcher improves)."""
    def mark(index: int, round: int, chosen: str, margin: float, *options: tuple[str, float]) -> Mark:
        ranked = tuple(Option(c, p) for c, p in sorted(options, key=lambda o: o[1]))
        return Mark(index, round, chosen, ranked, dict(options)[chosen] - ranked[0].points, margin, 64)

    searcher, budget = TEN_PENNIES.searcher  # (the kept review a screen at the default budget finds)
    return Review("0000abcd", 1, searcher, budget, (
        mark(12, 1, "1 take", 4.5, ("1 take", 41.5), ("1 decline", 30.25)),
        mark(40, 1, "1 discard 9H", 3.0, ("1 discard 9H", 22.0), ("1 discard KS", 14.5), ("1 discard 5C", 23.0)),
        mark(95, 2, "1 buy", 2.0, ("1 buy", 35.0), ("1 pass", 35.0)),
        mark(160, 3, "1 pass", 6.25, ("1 pass", 60.75), ("1 buy", 48.0)),
        mark(230, 4, "1 discard JK", 9.0, ("1 discard JK", 70.0), ("1 discard 2C", 19.5), ("1 discard 8D", 21.0)),
        mark(301, 5, "1 decline", 2.5, ("1 decline", 12.0), ("1 take", 14.0)),
        mark(340, 6, "1 decline", 8.0, ("1 decline", 15.0), ("1 take", 10.0)),  # too close to call: not listed
    ), seed=0)


def test_review_screen_picture(snap_compare: Callable[..., bool], tmp_path: Path) -> None:
    """A kept review, opened at once at 80x24: the costliest first (three in bold), each with the better move."""
    record = GameRecord("0000abcd", "Ann's game", 4, HouseRules(), 1, "finished", ["greedy bot", "Ann", "", ""],
                        [])
    save_review(tmp_path / "games.db", made_review(), home=tmp_path)
    screen = ReviewScreen(record, 1, tmp_path / "games.db", home=tmp_path)
    assert snap_compare(ReviewApp(screen), terminal_size=SIZE)


async def test_a_kept_review_shows_its_costliest_decisions_at_80x24(tmp_path: Path) -> None:
    record = GameRecord("0000abcd", "Ann's game", 4, HouseRules(), 1, "finished", ["greedy bot", "Ann", "", ""],
                        [])
    save_review(tmp_path / "games.db", made_review(), home=tmp_path)
    screen = ReviewScreen(record, 1, tmp_path / "games.db", home=tmp_path)
    async with ReviewApp(screen).run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert screen.kept and screen.worker is None
        lines = [line for line in shown(screen).splitlines() if line.strip()]
        costly = [line.split() for line in lines if line.lstrip()[:2] in ("1.", "2.", "3.", "4.", "5.")]
        assert [row[1:3] for row in costly] == [["r4", "#231"], ["r1", "#13"], ["r3", "#161"], ["r1", "#41"]], lines
        assert costly[0][3:] == ["discard", "the", "JK", "50.5", "±", "9.0", "discard", "the", "2♣"]  # as drawn
        assert "7 decisions with a choice (seed 0), 4 of them sure mistakes: 87.0 points" in shown(screen)
