"""What a newcomer to the terminal client tripped over, each against a real server on a loopback port and
the real screens driven by Pilot at 80x24: table ids shown (for ``bot --table`` and ``play --spectate``),
stale or glued messages, a finished game said to be over, one log line a join, a watcher's help, the
lobby's Players column given the room there is, the server's name in the lobby's title."""

from __future__ import annotations

import asyncio
from pathlib import Path

from replays import played
from rich.console import Console
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tenpennies.client.connection import Connection, HostedTable, SeatSession
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.log import TableLog
from tenpennies.client.tui.plot import ScorePlot
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, HelpScreen
from tenpennies.engine.games import kind
from tenpennies.engine.ten_pennies import events as tp_events
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb

from tuikit import Over, TableApp, lobby_of, screen_of, text_of, until

SIZE = (80, 24)
ONE_ROUND = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=6))


def log_lines(screen: TableScreen) -> list[str]:
    return [strip.text.rstrip() for strip in screen.query_one("#log", TableLog).lines]


async def waiting_table(connection: Connection, seats: int = 3) -> tuple[HostedTable, SeatSession]:
    hosted = await connection.create_table("Ann's table", seats, ONE_ROUND, decision_seconds=0, takeover_seconds=0)
    return hosted, await connection.join(hosted.table_id, "Ann")


async def finished_table(connection: Connection) -> HostedTable:
    """A table of two bots whose game is over."""
    hosted = await connection.create_table("Bots' table", 2, ONE_ROUND, seed=3, decision_seconds=0)
    for _ in range(2):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    for _ in range(500):
        listed = [t for t in await connection.tables() if t.table_id == hosted.table_id]
        if listed and listed[0].status == pb.TABLE_STATUS_FINISHED:
            return hosted
        await asyncio.sleep(0.02)  # polling the server's list, bounded
    raise AssertionError("the bots' game did not end")


# --- the table screen ---------------------------------------------------------------------------------

async def test_the_table_screen_says_the_tables_id_on_its_first_line(connection: Connection) -> None:
    hosted, me = await waiting_table(connection)
    app = TableApp(lambda: TableScreen(connection, me, host=hosted))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: log_lines(screen), "the first line")
        assert log_lines(screen)[0] == f"At Ann's table (table {hosted.table_id})"
        assert len(log_lines(screen)[0]) <= 78
        screen.ended = "Lost the table: the server went away"  # (as a stream's end says it) and a key after it
        assert str(screen.prompt()) == "Lost the table: the server went away.  L: back to the lobby"


async def test_a_hosts_refusal_goes_once_the_seats_change_and_names_the_seats_as_shown(
        connection: Connection) -> None:
    hosted, me = await waiting_table(connection)
    app = TableApp(lambda: TableScreen(connection, me, host=hosted))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: "Waiting for players" in text_of(screen, "#prompt"), "the waiting table")
        await pilot.press("g")
        # seats numbered from 0, as the lobby's "empty which seat" list and the bots' names number them
        await until(pilot, lambda: text_of(screen, "#message") != "", "the refusal")
        assert text_of(screen, "#message") == ("2 seats are empty (seats 1 and 2): fill them with players or bots "
                                               "first")
        await pilot.press("b")
        await until(pilot, lambda: "2/3 seated" in text_of(screen, "#prompt"), "a bot")
        assert text_of(screen, "#message") == ""  # the refusal was about the seats before
        await pilot.press("g")
        await until(pilot, lambda: text_of(screen, "#message") != "", "the second refusal")
        assert text_of(screen, "#message") == "seat 2 is empty: fill it with a player or a bot first"
        await pilot.press("b")
        await until(pilot, lambda: text_of(screen, "#prompt") == "All 3 seats filled: start [g]", "all seated")
        assert text_of(screen, "#message") == ""


async def test_a_player_who_joins_is_one_line_of_the_log(connection: Connection, server: Server) -> None:
    hosted, me = await waiting_table(connection)
    bob_client = Connection(f"127.0.0.1:{server.port}")
    app = TableApp(lambda: TableScreen(connection, me, host=hosted))
    following: asyncio.Task[None] | None = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.tv.info is not None, "the table")
            bob = await bob_client.join(hosted.table_id, "Bob")

            async def follow() -> None:
                async for _ in bob.follow():
                    pass

            following = asyncio.ensure_future(follow())
            await until(pilot, lambda: screen.tv.info is not None and len(screen.tv.info.seat_info) > 1
                        and screen.tv.info.seat_info[1].connected, "Bob here")
            await pilot.pause()
            assert [line for line in screen.tv.log if "Bob" in line] == ["Bob joined"]
            # away and back again is news, though
            following.cancel()
            await until(pilot, lambda: "Bob is away" in screen.tv.log, "Bob away")
            following = asyncio.ensure_future(follow())
            await until(pilot, lambda: "Bob is here" in screen.tv.log, "Bob back")
    finally:
        if following is not None:
            following.cancel()
        await bob_client.close()


async def test_a_watchers_help_lists_a_watchers_keys(connection: Connection) -> None:
    hosted, _ = await waiting_table(connection, seats=2)
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.tv.info is not None, "the table")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        console = Console(width=78, color_system=None)
        with console.capture() as captured:
            for static in app.screen.query(Static):
                console.print(static.content)
        shown = captured.get()
        assert "chat" in shown and "Watching" in shown
        for player_key in ("take / decline", "buy / pass", "draw from the stock", "contract", "discard the",
                           "Under your hand"):
            assert player_key not in shown, player_key


async def test_a_finished_game_watched_says_it_is_over(connection: Connection) -> None:
    hosted = await finished_table(connection)
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: log_lines(screen), "the first line")
        first = " ".join(log_lines(screen))  # (wrapped at 78 columns)
        assert first.startswith(f"At Bots' table (table {hosted.table_id}): the game is over: ")
        assert first.endswith(" won; this is how it ended") and ": playing" not in first, first
        assert text_of(screen, "#prompt").startswith("Game over:")


async def test_the_logs_lines_wrap_where_they_are_seen_whole(connection: Connection) -> None:
    """A wrapped line of the log loses no letters at the right edge (under a hidden scrollbar's gutter)."""
    hosted, me = await waiting_table(connection)
    app = TableApp(lambda: TableScreen(connection, me, host=hosted))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: log_lines(screen), "the first line")
        log = screen.query_one("#log", TableLog)
        for _ in range(30):  # enough to scroll
            log.add(Text("x" * 70 + " greedy bot 1 won the round"))
        log.release()
        await pilot.pause()
        seen = log.scrollable_content_region.width
        assert max(len(line) for line in log_lines(screen)) <= seen
        assert log.max_scroll_y > 0  # and it still scrolls


# --- the lobby ------------------------------------------------------------------------------------------

def lobby_app(server: Server, tmp_path: Path, **launch: object) -> TenPenniesApp:
    return TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name="ann", home=tmp_path,
                                **launch))  # type: ignore[arg-type]


async def live(pilot: Pilot[None], app: TenPenniesApp) -> LobbyScreen:
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in text_of(app.screen, "#lobby-status"),
                "the lobby to be live")
    return lobby_of(app)


async def test_the_lobby_shows_the_selected_tables_id_and_gives_players_the_room_there_is(
        server: Server, connection: Connection, tmp_path: Path) -> None:
    hosted = await connection.create_table("Cara's table", 4, ONE_ROUND)
    await connection.join(hosted.table_id, "Cara")
    for _ in range(2):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        lobby = await live(pilot, app)
        table = lobby.query_one("#tables", DataTable)
        await until(pilot, lambda: hosted.table_id in lobby.tables, "the table")
        await pilot.pause()
        selected = text_of(lobby, "#lobby-selected")
        assert selected.startswith(f"Cara's table · Ten Pennies, standard · table id {hosted.table_id}"), selected
        assert len(selected) <= 78, selected
        cells = [str(cell) for cell in table.get_row(hosted.table_id)]
        assert cells[-1] == "Cara, 2 bots, 1 free"  # whole: there is room at 80 columns
        assert table.virtual_size.width <= 80  # and the row still fits
        # a long crowd is still cut to fit
        crowd = await connection.create_table("Crowd", 8, ONE_ROUND)
        for n in range(8):
            await connection.join(crowd.table_id, f"Maximilian {n}")
        await until(pilot, lambda: crowd.table_id in lobby.tables and lobby.tables[crowd.table_id].seats == 8
                    and str(table.get_row(crowd.table_id)[-1]).endswith("…"), "the crowd, cut")
        await pilot.pause()
        assert table.virtual_size.width <= 80


async def test_the_lobby_title_names_a_server_found_on_the_lan(server: Server, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path, server_name="Kitchen table")
    async with app.run_test(size=SIZE) as pilot:
        lobby = await live(pilot, app)
        assert text_of(lobby, "#lobby-title") == (f"Ten Pennies · Kitchen table · 127.0.0.1:{server.port} · "
                                                  f"playing as ann")


async def test_an_unknown_host_is_said_in_sentences(tmp_path: Path) -> None:
    app = TenPenniesApp(Launch("server", address="nohost.invalid:50051", name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                    and "once it answers" in text_of(app.screen, "#lobby-empty"), "the lobby to say so")
        assert text_of(app.screen, "#lobby-empty") == (
            "No machine called nohost.invalid is known here: check the name, or use the server's address. "
            "The tables show here once it answers. q quits.")


async def test_enter_on_a_finished_table_shows_how_it_ended(server: Server, connection: Connection,
                                                           tmp_path: Path) -> None:
    hosted = await finished_table(connection)
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        lobby = await live(pilot, app)
        await until(pilot, lambda: hosted.table_id in lobby.tables, "the table")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.session.seat is None
        await until(pilot, lambda: log_lines(screen), "its first line")
        assert "the game is over:" in " ".join(log_lines(screen))
        assert not any("has started" in n.message for n in app._notifications)  # nothing says it goes on


async def test_a_watcher_chats_under_the_name_of_the_lobby(server: Server, connection: Connection,
                                                           tmp_path: Path) -> None:
    hosted = await connection.create_table("Bots", 2, ONE_ROUND, seed=2, decision_seconds=0)
    for _ in range(2):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        lobby = await live(pilot, app)
        await until(pilot, lambda: hosted.table_id in lobby.tables, "the table")
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table watched")
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.session.seat is None
        await pilot.press("c", *"hello all", "enter")
        await until(pilot, lambda: "ann (watching): hello all" in log_lines(screen)
                    or "name" in text_of(screen, "#message"), "the line in the log")
        assert "ann (watching): hello all" in log_lines(screen), text_of(screen, "#message")


async def test_the_game_ends_picture_shows_whose_line_is_whose_or_is_not_shown() -> None:
    """A whole game's end at 80x24: the points by round leave the score picture too few rows for its lines
    and the names under them, and it is left out (the table of points says it all) rather than drawn with its
    names cut off; at 120x40 it is drawn, every name under it."""
    record = played(seats=4, seed=3)
    game = kind("ten_pennies").new(record.seats, record.rules, record.seed)
    rounds: list[tp_events.RoundEnded] = []
    ended: tp_events.GameEnded | None = None
    for command in record.commands:
        for event in game.apply(command):
            if isinstance(event, tp_events.RoundEnded):
                rounds.append(event)
            elif isinstance(event, tp_events.GameEnded):
                ended = event
    names = ["greedy bot 0", "greedy bot 1", "greedy bot 2", "You"]
    for size, drawn in (((80, 24), False), ((120, 40), True)):
        app = Over(lambda: GameEndScreen(game.view(3), ended, names.__getitem__, 3, rounds=rounds))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            plot = app.screen.query_one(ScorePlot)
            assert plot.display == drawn, size
            if drawn:
                lines = plot.picture.plain.splitlines()
                assert len(lines) == plot.content_size.height and all(name in lines[-1] for name in names), lines
