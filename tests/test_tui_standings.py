"""The lobby of a server that runs a tournament: its progress on the status line, and ``t`` for the
standings, as the server gives them; a server without one has no ``t``. Real server, real bots over
gRPC, the real app driven by Pilot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.app import App
from textual.widgets import DataTable, Static

from tenpennies.client.connection import Connection
from tenpennies.client.tui import lobby as lobby_module
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.standings import StandingsScreen
from tenpennies.engine.tournament import FRACTIONS, wins_text
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb

from test_tournament_server import Bot, start_server, write_config
from tuikit import status_of, until

SIZE = (120, 40)


def read_wins(text: str) -> float:
    """Wins as shown (``2``, ``1½``, ``⅓``) as a number."""
    glyphs = {glyph: n / d for (n, d), glyph in FRACTIONS.items()}
    whole = text.rstrip("".join(glyphs))
    return (float(whole) if whole else 0.0) + sum(glyphs[c] for c in text[len(whole):])


async def test_the_lobby_shows_the_tournament_and_its_standings(tmp_path: Path) -> None:
    server = await start_server(tmp_path / "cup.db", write_config(tmp_path, games=3))
    address = f"127.0.0.1:{server.port}"
    connection = Connection(address)
    try:
        bots = [Bot("ada", seed=1), Bot("bea", seed=2), Bot("cy", seed=3)]
        await asyncio.wait_for(asyncio.gather(*(bot.run(address) for bot in bots)), 120)
        expected = await connection.standings()
        assert expected is not None and expected.games_played == 3

        app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and "'cup': 3 of 3 games played" in status_of(app), "the tournament on the status line")
            assert "t: standings" in status_of(app)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen), "the standings")
            table = app.screen.query_one("#standings-table", DataTable)
            await until(pilot, lambda: table.row_count == 3, "a row a bot")
            for place, standing in enumerate(expected.standings, 1):
                cells = [str(cell) for cell in table.get_row(standing.name)]
                assert cells[:3] == [str(place), standing.name, str(standing.games)]
                assert read_wins(cells[3]) == pytest.approx(standing.shared_wins, abs=0.05)
                assert cells[3] == wins_text(standing.shared_wins) and "." not in cells[3]  # 2 or 1½, not 2.00
                assert cells[5:9] == [f"{standing.tallies['pennies']:+d}", str(standing.tallies["buys"]),
                                      str(standing.illegal), str(standing.timed_out)]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back to the lobby")
            await pilot.resize_terminal(80, 24)  # the status line keeps to one line: the numbers stay
            await until(pilot, lambda: "tournament: 3/3 games (over) · t: standings" in status_of(app), "short")
            assert len(status_of(app)) <= 78
    finally:
        await connection.close()
        await server.stop(0)


async def test_a_lobby_without_a_tournament_has_no_standings_key(server: Server, tmp_path: Path) -> None:
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in status_of(app), "live")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: not any(w.group == "standings" and not w.is_finished for w in app.workers),
                    "the check for a tournament")
        assert lobby.tournament is None and "tournament" not in status_of(app)
        assert lobby.check_action("standings", ()) is False
        await pilot.press("t")
        await pilot.pause()
        assert app.screen is lobby


class StandingsApp(App[None]):
    """The standings window alone, styled as the real app styles it (lobby.tcss)."""

    CSS_PATH = str(Path(lobby_module.__file__).with_name("lobby.tcss"))

    def __init__(self, connection: Connection, standings: pb.GetStandingsResponse) -> None:
        super().__init__()
        self.connection, self.standings = connection, standings

    async def on_mount(self) -> None:
        await self.push_screen(StandingsScreen(self.connection, self.standings))


def eight_bots() -> pb.GetStandingsResponse:
    names = ["averaging", "greedy", "early", "random", "cautious", "a bot named at length", "hoarder", "z"]
    return pb.GetStandingsResponse(
        tournament="Sunday cup", game="ten_pennies", tallies=["pennies", "buys"], games_played=40, games_total=48,
        games_playing=2,
        standings=[pb.Standing(name=name, games=40, wins=12 - n, shared_wins=12 - n + (0.5 if n == 0 else 0),
                               mean_score=123.4 + n, mean_score_margin=45.6,
                               tallies={"pennies": -25 + n, "buys": 30 + n}, illegal=n, timed_out=100 + n,
                               rating_mu=24.87, rating_sigma=1.23) for n, name in enumerate(names)])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_standings_window_fits_the_terminal(server: Server, size: tuple[int, int]) -> None:
    connection = Connection(f"127.0.0.1:{server.port}")  # a server with no tournament: nothing refreshes
    app = StandingsApp(connection, eight_bots())
    try:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen), "the standings")
            await pilot.pause()
            box = app.screen.query_one("#standings").region
            assert box.x >= 0 and box.right <= size[0] and box.bottom <= size[1], box  # the border whole
            table = app.screen.query_one("#standings-table", DataTable)
            assert table.row_count == 8
            assert [str(c.label) for c in table.columns.values()] == \
                ["#", "Bot", "Games", "Wins", "Mean", "Pen.", "Buys", "Ill.", "T/o", "Rating"]
            assert table.virtual_size.width <= table.content_size.width  # every column shown, Rating too
            assert [str(c) for c in table.get_row("greedy")][3] == "11"  # wins, whole or shared
            assert [str(c) for c in table.get_row("averaging")][3] == "12½"  # (not 12.50)
            assert [str(c) for c in table.get_row("averaging")][4:] == ["123.4±45.6", "-25", "30", "0", "100",
                                                                        "24.9±1.2"]
            assert str(table.get_row("a bot named at length")[1]) == "a bot named…"
            screen = app.screen
            assert isinstance(screen, StandingsScreen)
            screen.standings.standings[0].tallies["pennies"] = 3  # won: signed too
            screen.show(screen.standings)
            assert [str(c) for c in table.get_row("averaging")][5:7] == ["+3", "30"]
            note = app.screen.query_one("#standings-note", Static)
            assert note.region.bottom <= box.bottom and note.region.height >= 2  # wrapped, not cut
            assert str(note.render()).endswith("Escape closes.")
    finally:
        await connection.close()


def thirty_one_bots() -> pb.GetStandingsResponse:
    names = ["heuristic", "random", "searcher", "a bot named at length"]
    return pb.GetStandingsResponse(
        tournament="Scat cup", game="thirty_one", tallies=["lives"], games_played=12, games_total=12,
        standings=[pb.Standing(name=name, games=12 if n else 0, shared_wins=5.5 - n if n else 0,
                               mean_score=1.25 + n, mean_score_margin=0.375, tallies={"lives": 30 - n} if n else {},
                               illegal=n, timed_out=n, rating_mu=24.87, rating_sigma=1.23)
                   for n, name in enumerate(names)])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_thirty_one_tournaments_window_shows_places_and_the_presets_tally(
        server: Server, size: tuple[int, int]) -> None:
    connection = Connection(f"127.0.0.1:{server.port}")  # a server with no tournament: nothing refreshes
    standings = thirty_one_bots()
    standings.standings[0].ClearField("mean_score")  # a bot with no game yet
    app = StandingsApp(connection, standings)
    try:
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, StandingsScreen), "the standings")
            await pilot.pause()
            box = app.screen.query_one("#standings").region
            assert box.x >= 0 and box.right <= size[0] and box.bottom <= size[1], box
            table = app.screen.query_one("#standings-table", DataTable)
            assert [str(c.label) for c in table.columns.values()] == \
                ["#", "Bot", "Games", "Wins", "Place", "Lives", "Ill.", "T/o", "Rating"]
            assert table.virtual_size.width <= table.content_size.width
            assert [str(c) for c in table.get_row("random")][3:] == ["4½", "2.25±0.38", "2.4", "1", "1",
                                                                     "24.9±1.2"]
            assert [str(c) for c in table.get_row("heuristic")][4:6] == ["-", "-"]
            note = str(app.screen.query_one("#standings-note", Static).render())
            assert "Place: mean finishing place" in note and "Lives: a game's" in note and "Pen." not in note
    finally:
        await connection.close()
