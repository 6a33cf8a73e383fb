"""Your history (client/history.py, client/tui/history.py): the local games' file, written by a real server,
listed newest first with the date, the game, the opponents, the place, the score and the pennies left, each
row the engine's own end of that game; enter opens the replay viewer on it. And ``play --replay``/``--history``
as the command line reads them."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from replays import played, review_of
from rich.console import Console
from test_tui_app import parse
from textual.app import App
from textual.widgets import DataTable, Static

from tenpennies.client import cli
from tenpennies.client.bot import SeatStats, play_seat
from tenpennies.client.connection import Connection
from tenpennies.client.history import history, history_row
from tenpennies.client.local import PlayedGame, played_games, read_game
from tenpennies.client.reviews import save_review
from tenpennies.client.settings import LocalGame, TablePrefs
from tenpennies.client.tui.app import ContinueScreen, Launch, TenPenniesApp
from tenpennies.client.tui.history import HistoryScreen
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.review import ReviewScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, RoundEndScreen
from tenpennies.client.tui.viewer import ReplayScreen
from tenpennies.engine.games import kind
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.commands import DeclineDiscard, Discard, Draw, PassBuy
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping

from serverkit import subscribed
from tuikit import until

RULES = HouseRules(max_turns=30, rounds=(1, 2))


async def finished_game(connection: Connection, seed: int) -> str:
    """A seeded Ten Pennies table: two built-in bots first, then a person's seat (played by a remote greedy
    bot, as the local game seats its player last), played to its end."""
    table = await connection.create_table(f"game {seed}", 3, mapping.rules_to_pb(RULES), decision_seconds=0,
                                          takeover_seconds=0, seed=seed)
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    session = await connection.join(table.table_id, "You")
    game = asyncio.ensure_future(play_seat(GreedyBot(), session, stats=SeatStats()))
    await subscribed(connection.service, table.table_id, seats=[2])
    await connection.start(table.table_id, table.host_token)
    assert await asyncio.wait_for(game, 60) is not None
    return table.table_id


async def test_the_history_lists_each_finished_game_as_it_ended(
        server: Server, connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path / "home"))  # where the reviews are kept
    first = await finished_game(connection, 5)
    second = await finished_game(connection, 6)
    db = server.options.db
    rows = history(db)
    assert [r.table_id for r in rows] == [second, first]  # newest first
    for row in rows:
        record = read_game(db, row.table_id)
        game = kind("ten_pennies").new(record.seats, record.rules, record.seed)
        for command in record.commands:
            game.apply(command)
        result = game.result
        assert result is not None
        assert row.seat == 2 and row.opponents == ("greedy bot", "greedy bot") and row.game == "Ten Pennies"
        assert row.against == "greedy bot ×2"
        assert row.score == result.scores[2]
        assert row.place == 1 + sum(1 for s in result.scores if s < result.scores[2])
        assert row.won == (2 in result.winners)
        assert row.result == ("won" if row.won else f"{['1st', '2nd', '3rd'][row.place - 1]} of 3")
        assert row.pennies == game.view(None).players[2].pennies
        assert len(row.date) == len("2026-12-02 03:30")
    listed = played_games(db)
    assert all(p.state is not None for p in listed) or all(p.later for p in listed)

    # on the screen: a row a game, enter replays the one under the cursor, with its review's marks if kept
    review = review_of(read_game(db, first), 2, {1: 2.5})
    save_review(db, review)
    app = HistoryApp(Path(db))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.record.table_id == first
        assert viewer.review == review
        await pilot.press("n")
        assert viewer.position == review.marks[1].index + 1 and viewer.query_one("#replay-mark").display
        await pilot.press("end")
        assert viewer.stepper.game_at(viewer.position).over
        await pilot.press("escape")
        assert isinstance(app.screen, HistoryScreen)

        # r reviews your play in the game under the cursor: a review kept by the game's searcher opens at once
        searcher, budget = kind("ten_pennies").searcher
        kept = replace(review_of(read_game(db, second), 2, {0: 4.0}), searcher=searcher, budget=budget)
        save_review(db, kept)
        await pilot.press("up", "r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None,
                    "the kept review")
        shown = app.screen
        assert isinstance(shown, ReviewScreen) and shown.record.table_id == second and shown.seat == 2
        assert shown.review == kept


class HistoryApp(App[None]):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, db: Path) -> None:
        super().__init__()
        self.db = db

    async def on_mount(self) -> None:
        await self.push_screen(HistoryScreen(self.db))


def test_a_thirty_one_game_counts_its_place_and_lives() -> None:
    record = played("thirty_one", seats=3, seed=5)
    game = PlayedGame(record.table_id, record.name, record.game, 1.7e9, record.seats, record.names, (2,),
                      record.rules, record.seed, None, list(record.commands))
    row = history_row(game)
    final = game.final()
    result = final.result
    assert result is not None
    assert row.place == result.scores[2] and row.pennies is None and row.game == "Thirty-One"
    assert row.score == result.tallies["lives"][2]
    assert row.opponents == ("Ann", "Bob") and row.against == "Ann, Bob"


def test_no_file_no_games(tmp_path: Path) -> None:
    assert history(tmp_path / "none.db") == []


def test_the_command_line_opens_the_viewer_and_the_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    launch = cli.play_launch(parse(*("--replay", "abc", "--db", "games.db")), {})
    assert launch.mode == "replay" and launch.replay == "abc" and launch.db == Path("games.db")
    launch = cli.play_launch(parse(*("--replay", "abc", "--server", "127.0.0.1:5000")), {})
    assert launch.mode == "replay" and launch.address == "127.0.0.1:5000" and launch.db is None
    assert cli.play_launch(parse(*("--history",)), {}).mode == "history"
    for wrong in (("--db", "x.db"), ("--replay", "a", "--history"), ("--replay", "a", "--local"),
                  ("--history", "--server", "127.0.0.1:5000"), ("--replay", "a", "--db", "x", "--server", "h:1")):
        with pytest.raises(ValueError):
            cli.play_launch(parse(*wrong), {})


async def test_the_local_start_screen_shows_your_games_and_play_replay_opens_one(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
        played_table = first.screen
        assert isinstance(played_table, TableScreen)
        await until(pilot, lambda: played_table.tv.view is not None, "the game")
    saved = LocalGame.load(tmp_path)
    assert saved is not None

    again = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with again.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ContinueScreen) and again.screen.query("#continue"),
                    "the offer to continue")
        await pilot.press("h")
        await until(pilot, lambda: isinstance(again.screen, HistoryScreen), "your games")
        note = str(again.screen.query_one("#history-note").render())
        assert "No finished game yet" in note  # the game of last time is not over: not in the history
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(again.screen, ContinueScreen), "the same question again")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the table")
        resumed = again.screen
        assert isinstance(resumed, TableScreen) and resumed.session.table_id == saved.table_id

    # play --replay GAME_ID: the local games' file by default; a game stopped part way shows as far as it went
    viewer = TenPenniesApp(Launch("replay", home=tmp_path, replay=saved.table_id[:6]))
    async with viewer.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(viewer.screen, ReplayScreen), "the viewer")
        screen = viewer.screen
        assert isinstance(screen, ReplayScreen) and screen.record.table_id == saved.table_id
        await pilot.press("end")
        assert screen.position == len(screen.record.commands)
        await pilot.press("escape")
        await until(pilot, lambda: viewer.return_code is not None, "the app to end")
    assert viewer.return_code == 0

    nothing = TenPenniesApp(Launch("replay", home=tmp_path, replay="nosuchgame"))
    async with nothing.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: nothing.return_code is not None, "the app to end")
    assert nothing.return_code == 1


async def test_r_in_the_lobby_replays_and_R_reviews_a_finished_table_from_the_server(
        server: Server, connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path / "home"))  # where the reviews are kept
    finished = await finished_game(connection, 8)
    waiting = await connection.create_table("waiting", 3)
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name="ann", home=tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and {finished, waiting.table_id}
                    <= set(app.screen.tables), "the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        tables = lobby.query_one("#tables", DataTable)
        tables.move_cursor(row=tables.get_row_index(waiting.table_id))
        await until(pilot, lambda: lobby.check_action("replay", ()) is False, "no replay of a waiting table")
        tables.move_cursor(row=tables.get_row_index(finished))
        await until(pilot, lambda: lobby.check_action("replay", ()) is True, "the replay offered")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        stored = read_game(server.options.db, finished)
        assert viewer.record.table_id == finished and viewer.record.commands == stored.commands
        assert viewer.record.seed == stored.seed and viewer.record.names == stored.names
        await pilot.press("end")
        assert viewer.stepper.game_at(viewer.position).over
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")

        # R reviews it: the person's seat (ann holds none here), a review kept for this server opens at once
        searcher, budget = kind("ten_pennies").searcher
        kept = replace(review_of(stored, 2, {0: 4.0}), searcher=searcher, budget=budget)
        save_review(f"127.0.0.1:{server.port}", kept)
        await until(pilot, lambda: lobby.check_action("review", ()) is True, "the review offered")
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None,
                    "the kept review")
        shown = app.screen
        assert isinstance(shown, ReviewScreen) and shown.record.commands == stored.commands
        assert shown.review == kept
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby again")

    # play --replay GAME_ID --server HOST:PORT: the same record, from the server
    launched = TenPenniesApp(Launch("replay", address=f"127.0.0.1:{server.port}", home=tmp_path, replay=finished))
    async with launched.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(launched.screen, ReplayScreen), "the viewer")
        shown = launched.screen
        assert isinstance(shown, ReplayScreen) and shown.record.commands == stored.commands
        await pilot.press("escape")
        await until(pilot, lambda: launched.return_code is not None, "the app to end")
    refused = TenPenniesApp(Launch("replay", address=f"127.0.0.1:{server.port}", home=tmp_path,
                                   replay=waiting.table_id))
    async with refused.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: refused.return_code is not None, "the app to end")
    assert refused.return_code == 1  # a game not finished: the server says no


async def test_your_games_open_from_the_local_game_its_end_and_its_table(tmp_path: Path) -> None:
    """``make play`` with no unfinished game starts a new one at once (no start screen): your games are
    offered at the table (H, in the footer and the help) and by the game-end screen (h)."""
    TablePrefs(guide_seen=True, offer_pause=0, bell=False).save(tmp_path)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path, rounds=(1,), rules=("max_turns=4",)))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        seated = app.screen
        assert isinstance(seated, TableScreen)
        table: TableScreen = seated
        assert table.history is not None and table.check_action("history", ()) is True
        assert "Your games" in {b.binding.description for b in table.active_bindings.values()}  # the footer's
        await pilot.press("question_mark")
        await until(pilot, lambda: not isinstance(app.screen, TableScreen), "the help")
        assert "your games: each to replay or review" in shown(app.screen)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "the table again")
        for _ in range(200):  # play by keys until the game is over
            await until(pilot, lambda: table.legal or app.screen is not table or table.tv.game_end is not None,
                        "a decision, a dialog or the end")
            if table.tv.game_end is not None:
                break
            if isinstance(app.screen, RoundEndScreen):
                await pilot.press("space")
                continue
            kinds = {type(c) for c in table.legal}
            key = next(k for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x"))
                       if kind in kinds)
            before = table.tv.sequence
            await pilot.press(key)
            await until(pilot, lambda before=before: table.tv.sequence > before, "the move told")  # type: ignore[misc]
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen | RoundEndScreen), "the game's end")
        if isinstance(app.screen, RoundEndScreen):
            await pilot.press("space")
        await until(pilot, lambda: isinstance(app.screen, GameEndScreen), "the standings")
        said = shown(app.screen)
        assert "R reviews your play in this game, H shows your games, to replay or review" in said, said
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "your games, from the game's end")
        listed = app.screen
        assert isinstance(listed, HistoryScreen)
        await until(pilot, lambda: len(listed.rows) == 1, "the game just played")
        assert listed.rows[0].table_id == table.session.table_id
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "the table again")
        await pilot.press("H")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen), "your games, from the table")


def shown(screen: object) -> str:
    """What a screen's texts say, as plain text."""
    console = Console(width=200, color_system=None)
    with console.capture() as captured:
        for static in screen.query(Static):  # type: ignore[attr-defined]
            console.print(static.content)
    return captured.get()


async def test_a_game_left_to_a_bot_says_so_and_each_game_shows_the_id_replay_takes(
        server: Server, connection: Connection) -> None:
    table = await connection.create_table("left early", 3, mapping.rules_to_pb(RULES), decision_seconds=0,
                                          takeover_seconds=0, seed=7)
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    session = await connection.join(table.table_id, "root")  # (the login name: the local game's default)
    await connection.start(table.table_id, table.host_token)
    await session.leave()  # in round 1: a bot plays the seat out

    async def finished() -> bool:
        return any(t.table_id == table.table_id and t.status == pb.TABLE_STATUS_FINISHED
                   for t in await connection.tables())
    for _ in range(600):
        if await finished():
            break
        await asyncio.sleep(0.05)
    assert await finished()
    played = await finished_game(connection, 5)  # played to its end

    app = HistoryApp(Path(server.options.db))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        table_widget = screen.query_one(DataTable)
        shown = str(screen.query_one("#history-game").render())
        assert f"Game id {played}" in shown and f"tenpennies replay {played}" in shown, shown
        await until(pilot, lambda: "bot from 1" in str(table_widget.get_cell(table.table_id, "Result")),
                    "the game left to a bot, marked")
        assert "bot" not in str(table_widget.get_cell(played, "Result"))
        await pilot.press("down")
        await until(pilot, lambda: "You left it in round 1: a bot played your seat from there"
                    in str(screen.query_one("#history-game").render()), "the line under the list")
        await pilot.press("y")
        assert app.clipboard == table.table_id
        await pilot.press("enter")  # the replay calls your seat as the table did
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        board = str(viewer.query_one("#replay-board").render())
        assert viewer.record.seat_name(2) == "You" and "You" in board and "root" not in board, board
