"""The terminal client's shell, for real: the lobby against a real server on a loopback port, the local
game with its in-process server, and ``tenpennies play --local`` in a real terminal (a pty)."""

from __future__ import annotations

import argparse
import errno
import fcntl
import os
import re
import select
import shutil
import signal
import socket
import struct
import sys
import termios
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, Select, Static, Switch

from tenpennies.client import cli
from tenpennies.client.connection import Connection
from tenpennies.client.settings import CONFIG_FILE, GAME_FILE, ClientConfig, LocalGame, ServerMemory, TablePrefs
from tenpennies.client.tui.app import FAREWELL, ContinueScreen, Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import (
    NAME_WIDTH,
    PLAYERS_WIDTH,
    CreateTableScreen,
    LobbyScreen,
    players_text,
    table_row,
)
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.thirty_one import THIRTY_ONE_SHORT
from tenpennies.engine.ten_pennies import DeclineDiscard, Discard, Draw, HouseRules, PassBuy
from tenpennies.engine.ten_pennies.rules import KNOBS
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.ten_pennies import KNOB_WORDS, rules_from_pb, rules_to_pb
from tenpennies.wire.words import DECISION_SECONDS

from tuikit import lobby_of, status_of, until

SIZE = (80, 24)


@pytest.fixture
async def other(server: Server) -> AsyncIterator[Connection]:
    """Another client of the same server."""
    connection = Connection(f"127.0.0.1:{server.port}")
    yield connection
    await connection.close()


def lobby_app(server: Server, tmp_path: Path, name: str = "ann") -> TenPenniesApp:
    return TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name=name, home=tmp_path))


async def create_form(pilot: Pilot[None], app: TenPenniesApp) -> None:
    """Wait for the lobby, and open the create-table form with c."""
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    await pilot.press("c")
    await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")


def row(app: TenPenniesApp, table_id: str) -> list[str]:
    table = app.screen.query_one("#tables", DataTable)
    return [str(cell) for cell in table.get_row(table_id)]


def listed(app: TenPenniesApp, table_id: str) -> bool:
    screen = app.screen
    return isinstance(screen, LobbyScreen) and table_id in screen.tables \
        and screen.query_one("#tables", DataTable).is_valid_row_index(
            screen.query_one("#tables", DataTable).get_row_index(table_id))


async def remote_table(connection: Connection, table_id: str) -> pb.TableInfo:
    return next(t for t in await connection.tables() if t.table_id == table_id)


# --- the lobby --------------------------------------------------------------------------------------------

async def test_the_lobby_lists_a_table_made_by_another_client_and_follows_it_live(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in str(
            app.screen.query_one("#lobby-status", Static).render()), "the lobby to be live")
        hosted = await other.create_table("Bob's", 3,
                                          pb.HouseRules(ten_pennies=pb.TenPenniesRules(preset=pb.PRESET_DEUCES)),
                                          decision_seconds=45, seed=99)
        await until(pilot, lambda: listed(app, hosted.table_id), "the new table")
        assert row(app, hosted.table_id)[:6] == ["Bob's", "0/3", "waiting", "deuces", "45s", "99"]
        await other.add_bot(hosted.table_id, hosted.host_token, "random")
        await other.join(hosted.table_id, "bob")
        await until(pilot, lambda: row(app, hosted.table_id)[1] == "2/3", "the seats to fill")
        assert row(app, hosted.table_id)[6] == "bob, 1 bot, 1 free"
        # Not this client's table: no host actions on it.
        lobby = lobby_of(app)
        assert lobby.check_action("add_bot", ("greedy",)) is False
        assert lobby.check_action("start", ()) is False


async def test_the_lobby_says_when_the_server_is_lost_and_comes_back_by_itself(tmp_path: Path) -> None:
    first = Server(Options(port=0, db=str(tmp_path / "x.db")))
    await first.start()
    port = first.port
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{port}", name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        def status() -> str:
            return str(app.screen.query_one("#lobby-status", Static).render())

        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in status(), "live")
        await first.stop(0)
        await until(pilot, lambda: "Lost the server" in status(), "the lobby to say it is lost")
        assert f"Lost the server at 127.0.0.1:{port}; trying again" in status()
        assert not lobby_of(app).tables and app.screen.query_one("#tables", DataTable).row_count == 0
        again = Server(Options(port=port, db=str(tmp_path / "x.db")))
        await again.start()
        try:
            maker = Connection(f"127.0.0.1:{port}")
            made = await maker.create_table("After", 2)
            await maker.close()
            # The lobby's retries are at most about 3 s apart, and so are the channel's own.
            await until(pilot, lambda: listed(app, made.table_id), "the lobby to come back", timeout=10)
            assert "live" in status()
        finally:
            await again.stop(0)


async def test_creating_a_table_from_the_form_shows_the_servers_refusal_with_its_rule(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await create_form(pilot, app)
        form = app.screen
        form.query_one("#name", Input).value = ""
        await pilot.press(*"Big table")
        form.query_one("#seats", Select).value = 8
        form.query_one("#preset", Select).value = pb.PRESET_DEUCES
        form.query_one("#later_set_wilds", Select).value = pb.LATER_SET_WILDS_ONE_PER_THREE
        assert [str(form.query_one(f"#{knob}-word", Label).render()) for knob in
                ("distinct_suits", "all_wild_sets", "wild_layoff_cap", "discard_to_go_out")] == \
            ["on", "on", "off", "off"]  # each switch says what it is
        form.query_one("#discard_to_go_out", Switch).value = True
        form.query_one("#all_wild_sets", Switch).value = False
        await until(pilot, lambda: str(form.query_one("#all_wild_sets-word", Label).render()) == "off",
                    "the switch to say off")
        form.query_one("#hand_size", Input).value = "30"  # 8 hands of 30 do not fit the shoe
        form.query_one("#rounds", Input).value = "1, 3, 7"
        form.query_one("#decision_seconds", Input).value = "0"
        await pilot.press("ctrl+s")
        error = form.query_one("#create-error", Static)
        await until(pilot, lambda: "TP-3.1" in str(error.render()), "the refusal")
        assert isinstance(app.screen, CreateTableScreen)  # the form stays, to be put right
        form.query_one("#hand_size", Input).value = "9"
        form.query_one("#buy_pennies", Input).value = "3"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the form to close")
        lobby = lobby_of(app)
        assert len(lobby.hosted) == 1
        table_id = next(iter(lobby.hosted))
        await until(pilot, lambda: listed(app, table_id), "the table in the list")
        assert row(app, table_id)[:5] == ["*Big table", "0/8", "waiting", "deuces", "off"]
        info = await remote_table(other, table_id)
        rules = info.rules.ten_pennies
        assert (info.seats, rules.preset, rules.hand_size, rules.buy_pennies, list(rules.rounds)) == \
            (8, pb.PRESET_DEUCES, 9, 3, [1, 3, 7])
        assert (rules.discard_to_go_out, rules.all_wild_sets, rules.later_set_wilds) == \
            (True, False, pb.LATER_SET_WILDS_ONE_PER_THREE)
        assert info.settings.decision_seconds == 0
        # A field that is no number at all is caught before asking the server.
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form again")
        app.screen.query_one("#max_turns", Input).value = ""
        await pilot.press("ctrl+s")
        assert "Max turns" in str(app.screen.query_one("#create-error", Static).render())
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


async def test_the_create_form_has_a_field_of_each_house_rule_and_untouched_asks_for_the_defaults(
        server: Server, other: Connection, tmp_path: Path) -> None:
    """The form's knob fields come from the declarations (KNOBS): one per house rule, by its name, under its
    label, showing its default; sent as it opens, the table gets the rule book's rules and the wire's timer."""
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await create_form(pilot, app)
        form = app.screen
        labels = [str(label.render()) for label in form.query("#create-grid > Label")]
        for knob in KNOBS:
            assert knob.label in labels, knob.name
            field = form.query_one(f"#{knob.name}")
            if isinstance(field, Switch):
                assert field.value is knob.default
                assert str(form.query_one(f"#{knob.name}-word", Label).render()) == knob.word(knob.default)
            elif isinstance(field, Select):
                assert KNOB_WORDS[knob.name][field.value] == knob.default  # type: ignore[index]
            else:
                assert isinstance(field, Input) and field.value == knob.word(knob.default)
        assert form.query_one("#decision_seconds", Input).value == str(DECISION_SECONDS)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the form to close")
        table_id = next(iter(lobby_of(app).hosted))
        info = await remote_table(other, table_id)
        assert rules_from_pb(info.rules) == HouseRules() and info.rules == rules_to_pb(HouseRules())
        assert info.settings.decision_seconds == DECISION_SECONDS


async def test_join_add_bots_and_start_from_the_lobby_reach_the_table(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await create_form(pilot, app)
        await pilot.press("ctrl+s")  # the defaults: 4 seats, standard
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.hosted, "the table")
        lobby = lobby_of(app)
        table_id = next(iter(lobby.hosted))
        await until(pilot, lambda: listed(app, table_id) and lobby.selected is not None
                    and lobby.selected.table_id == table_id, "the cursor on the new table")
        assert lobby.check_action("start", ()) is True
        await pilot.press("b", "b", "B")
        await until(pilot, lambda: row(app, table_id)[1] == "3/4", "three bots")
        assert row(app, table_id)[6] == "3 bots, 1 free"
        # Empty a seat and fill it again.
        await pilot.press("x")
        await until(pilot, lambda: app.screen.query("#remove-seats"), "the seat picker")
        await pilot.press("enter")
        await until(pilot, lambda: row(app, table_id)[1] == "2/4", "a seat emptied")
        await pilot.press("b")
        await until(pilot, lambda: row(app, table_id)[1] == "3/4", "three bots again")
        await pilot.press("enter")  # join: the last seat
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table screen")
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.seat == 3 and table.host is not None and table.host.table_id == table_id
        await pilot.press("g")  # the host starts it from the table
        await until(pilot, lambda: table.tv.view is not None and table.tv.view.round == 1, "round 1")
        assert (await remote_table(other, table_id)).status == pb.TABLE_STATUS_PLAYING


async def test_the_host_starts_a_table_of_bots_from_the_lobby_and_watches_it(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await create_form(pilot, app)
        app.screen.query_one("#seats", Select).value = 2
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.hosted, "the table")
        table_id = next(iter(lobby_of(app).hosted))
        await until(pilot, lambda: listed(app, table_id), "the table listed")
        await pilot.press("g")  # not full: refused, and the lobby stays
        await pilot.press("b", "b")
        await until(pilot, lambda: row(app, table_id)[1] == "2/2", "two bots")
        await pilot.press("g")
        await until(pilot, lambda: row(app, table_id)[2] in ("playing", "finished"), "the game to start")
        assert lobby_of(app).check_action("start", ()) is False  # started: no more host actions
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, watched")
        watched = app.screen
        assert isinstance(watched, TableScreen) and watched.session.seat is None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_server_that_never_answered_is_said_so_plainly_and_joined_when_it_comes(tmp_path: Path) -> None:
    port = free_port()
    address = f"127.0.0.1:{port}"
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "trying again" in status_of(app),
                    "the lobby to say the server does not answer")
        assert status_of(app).startswith(f"Cannot reach the server at {address}; trying again")
        assert "failed to connect" not in status_of(app) and "Lost" not in status_of(app)
        empty = str(app.screen.query_one("#lobby-empty", Static).render())
        assert "press c" not in empty and app.screen.query_one("#tables", DataTable).row_count == 0
        # A call that cannot reach it says so, not "Refused" as if a rule forbade it.
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
        await pilot.press("ctrl+s")
        error = app.screen.query_one("#create-error", Static)
        await until(pilot, lambda: "Nothing answers" in str(error.render()), "the form to say so")
        assert str(error.render()) == (f"Nothing answers at {address}: is the server running, and is port {port} "
                                       f"open in its firewall?")
        await pilot.press("escape")
        server = Server(Options(port=port, db=str(tmp_path / "late.db")))
        await server.start()
        try:
            await until(pilot, lambda: "live" in status_of(app), "the lobby to find the server", timeout=10)
            await until(pilot, lambda: "press c" in str(app.screen.query_one("#lobby-empty", Static).render()),
                        "the hint to make a table")
        finally:
            await server.stop(0)


def test_the_players_column_counts_bots_and_free_seats_and_cuts_with_an_ellipsis() -> None:
    seats = [pb.SeatInfo(seat=0, kind=pb.SEAT_KIND_PLAYER, name="Ana"),
             pb.SeatInfo(seat=1, kind=pb.SEAT_KIND_BOT, name="greedy bot"),
             pb.SeatInfo(seat=2, kind=pb.SEAT_KIND_BOT, name="random bot"),
             pb.SeatInfo(seat=3, kind=pb.SEAT_KIND_EMPTY)]
    info = pb.TableInfo(table_id="t", name="x", seats=4, seat_info=seats)
    assert players_text(info, None) == "Ana, 2 bots, 1 free"
    assert players_text(info, 0) == ">Ana, 2 bots, 1 free"
    crowd = pb.TableInfo(table_id="t", name="x", seats=8, seat_info=[
        pb.SeatInfo(seat=n, kind=pb.SEAT_KIND_PLAYER, name=f"Maximilian {n}") for n in range(8)])
    cells = [str(cell) for cell in table_row(crowd, True, None)]
    assert cells[-1].endswith("…") and len(cells[-1]) <= PLAYERS_WIDTH
    # Every column at its widest (a seeded table aside) fits 80 columns, a space either side of each.
    games = max(len("standard"), *(len(short) for short in THIRTY_ONE_SHORT.values()))  # either game's
    widest = [NAME_WIDTH + 1, len("Seats"), len("finished"), games, len("Timer"), len("Seed"), PLAYERS_WIDTH]
    assert sum(widest) + 2 * len(widest) <= 80


async def play_a_turn(pilot: Pilot[None], screen: TableScreen) -> None:
    """Wait for this seat's turn to decide something, then do it by key (decline, pass, draw, discard)."""
    def mine() -> int:
        return sum(1 for line in screen.tv.log if line.startswith("You "))

    keys = ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x"))
    await until(pilot, lambda: any(isinstance(c, kind) for c in screen.legal for kind, _ in keys),
                "this seat's turn", timeout=30)
    before = mine()
    key = next(key for kind, key in keys if any(isinstance(c, kind) for c in screen.legal))
    await pilot.press(key)
    await until(pilot, lambda: mine() > before, "the seat's move in the log")


async def test_after_a_restart_the_lobby_gives_the_seat_and_the_host_keys_back(
        server: Server, other: Connection, tmp_path: Path) -> None:
    home = tmp_path / "home"
    address = f"127.0.0.1:{server.port}"
    first = TenPenniesApp(Launch("server", address=address, name="ann", home=home))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, LobbyScreen) and "live" in status_of(first), "live")
        # A second table, made and left waiting: its host keys must work after the restart.
        await pilot.press("c")
        await until(pilot, lambda: isinstance(first.screen, CreateTableScreen), "the form")
        first.screen.query_one("#name", Input).value = "Later"
        first.screen.query_one("#seats", Select).value = 2
        first.screen.query_one("#rounds", Input).value = "1"  # soon over, once started
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(first.screen, LobbyScreen) and len(first.screen.hosted) == 1,
                    "the waiting table")
        later = next(iter(lobby_of(first).hosted))
        # The table played: no decision timer, three bots, this client in the last seat, started.
        await pilot.press("c")
        await until(pilot, lambda: isinstance(first.screen, CreateTableScreen), "the form")
        first.screen.query_one("#decision_seconds", Input).value = "0"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(first.screen, LobbyScreen) and len(first.screen.hosted) == 2,
                    "the table to play")
        table_id = next(t for t in lobby_of(first).hosted if t != later)
        await until(pilot, lambda: listed(first, table_id) and lobby_of(first).selected is not None
                    and lobby_of(first).selected.table_id == table_id, "the cursor on it")  # type: ignore[union-attr]
        await pilot.press("b", "b", "b")
        await until(pilot, lambda: row(first, table_id)[1] == "3/4", "three bots")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
        table = first.screen
        assert isinstance(table, TableScreen)
        token = table.session.token
        await pilot.press("g")
        await play_a_turn(pilot, table)
        config = home / CONFIG_FILE
        assert os.stat(config).st_mode & 0o777 == 0o600  # it holds tokens
        held = ServerMemory.load(address, home)
        assert held.seats[table_id] == (3, token) and set(held.hosted) == {table_id, later}
        await pilot.press("q")
    # The client is gone: its seat is away. A table it held once is gone from the server since.
    held.seats["gone-table"] = (0, "stale")
    held.save()
    assert ServerMemory.load(address, home).tables() == {table_id, later, "gone-table"}

    again = TenPenniesApp(Launch("server", address=address, name="ann", home=home))
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, LobbyScreen) and listed(again, table_id)
                    and listed(again, later), "the lobby")
        lobby = lobby_of(again)
        await until(pilot, lambda: row(again, table_id)[6] == ">ann, 3 bots", "this client's seat marked")
        assert row(again, table_id)[0] == "*ann's table"
        assert row(again, later)[0] == "*Later"
        assert ServerMemory.load(address, home).tables() == {table_id, later}  # the table not listed: forgotten
        # The host keys work on the waiting table.
        again.screen.query_one("#tables", DataTable).move_cursor(
            row=again.screen.query_one("#tables", DataTable).get_row_index(later))
        await until(pilot, lambda: lobby.check_action("add_bot", ("greedy",)) is True, "the host keys")
        await pilot.press("b")
        await until(pilot, lambda: row(again, later)[1] == "1/2", "a bot added after the restart")
        await pilot.press("b")
        await until(pilot, lambda: row(again, later)[1] == "2/2", "two bots")
        await pilot.press("g")  # two bots play it out: a finished table is forgotten (its * stays this run)
        await until(pilot, lambda: row(again, later)[2] == "finished", "the bots' game to finish", timeout=60)
        assert ServerMemory.load(address, home).tables() == {table_id} and row(again, later)[0] == "*Later"
        # enter takes the seat up again, and the game goes on from it.
        again.screen.query_one("#tables", DataTable).move_cursor(
            row=again.screen.query_one("#tables", DataTable).get_row_index(table_id))
        await until(pilot, lambda: lobby.check_action("leave", ()) is True, "the seat held")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the seat taken up again")
        table = again.screen
        assert isinstance(table, TableScreen)
        assert (table.session.table_id, table.session.seat, table.session.token) == (table_id, 3, token)
        await until(pilot, lambda: table.tv.view is not None, "the game")
        await play_a_turn(pilot, table)
        info = await remote_table(other, table_id)
        assert info.seat_info[3].connected and not info.seat_info[3].bot_playing


# --- the local game ----------------------------------------------------------------------------------------

def refused(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(2)
        try:
            probe.connect(("127.0.0.1", port))
        except ConnectionRefusedError:
            return True
        return False


async def test_local_mode_seats_three_bots_and_the_player_and_stops_its_server_on_exit(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        table = app.screen
        assert isinstance(table, TableScreen)
        await until(pilot, lambda: table.tv.view is not None, "the game")
        assert table.tv.view is not None and table.tv.view.round == 1
        assert table.session.seat == 3
        assert app.local is not None and app.local.connection is not None
        port = app.local.port
        assert not refused(port)
        (info,) = await app.local.connection.tables()
        assert [s.kind for s in info.seat_info] == [pb.SEAT_KIND_BOT] * 3 + [pb.SEAT_KIND_PLAYER]
        assert info.seat_info[3].name == "me" and info.status == pb.TABLE_STATUS_PLAYING
        assert info.settings.decision_seconds == 0  # the local game waits for its player
        saved = LocalGame.load(tmp_path)
        assert saved is not None and saved.table_id == info.table_id and saved.seat == 3
        assert (tmp_path / "local.db").exists()
        await pilot.press("q")
    assert refused(port)
    assert app.farewell == FAREWELL  # said in the terminal once the app is gone


async def test_local_mode_again_offers_to_continue_the_game(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
        played = first.screen
        assert isinstance(played, TableScreen)
        await until(pilot, lambda: played.tv.view is not None, "the game")
        hand = played.tv.view.hand if played.tv.view is not None else ()
    saved = LocalGame.load(tmp_path)
    assert saved is not None

    again = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ContinueScreen) and again.screen.query("#continue"),
                    "the offer to continue")
        assert "Continue your game (round 1 of 7)" in str(again.screen.query_one("#continue").render())
        await pilot.press("c")
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the table")
        resumed = again.screen
        assert isinstance(resumed, TableScreen)
        assert resumed.session.table_id == saved.table_id and resumed.session.seat == 3
        await until(pilot, lambda: resumed.tv.view is not None, "the game")
        # the log survives: the game's story is told again from the stream's history
        await until(pilot, lambda: any(line.startswith("The game starts") for line in resumed.tv.log),
                    "the log told again")
        dealt = next(line for line in resumed.tv.log if line.startswith("Dealt to You: "))
        assert sorted(dealt.removeprefix("Dealt to You: ").split()) == sorted(resumed.card_style.text(c) for c in hand)

    # New game: the old one goes to the bots, a new one is made and remembered.
    third = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with third.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(third.screen, ContinueScreen), "the offer to continue")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(third.screen, TableScreen), "the new table")
        fresh = third.screen
        assert isinstance(fresh, TableScreen)
        assert fresh.session.table_id != saved.table_id
        newer = LocalGame.load(tmp_path)
        assert newer is not None and newer.table_id == fresh.session.table_id
        assert third.local is not None and third.local.connection is not None
        old = next(t for t in await third.local.connection.tables() if t.table_id == saved.table_id)
        assert old.seat_info[3].bot_playing


async def test_a_c_pressed_before_the_offer_to_continue_appears_continues(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
    saved = LocalGame.load(tmp_path)
    assert saved is not None
    again = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with again.run_test(size=SIZE) as pilot:
        assert not isinstance(again.screen, ContinueScreen)  # still starting: the splash
        await pilot.press("c")
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the table, continued")
        resumed = again.screen
        assert isinstance(resumed, TableScreen) and resumed.session.table_id == saved.table_id


async def test_a_finished_or_unknown_local_game_starts_a_new_one_directly(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    LocalGame("no-such-table", 3, "token", "host").save(tmp_path)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, with no question")
        saved = LocalGame.load(tmp_path)
        assert saved is not None and saved.table_id != "no-such-table"


async def test_two_local_games_cannot_share_one_directory(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
        second = TenPenniesApp(Launch("local", name="me", home=tmp_path))
        async with second.run_test(size=SIZE) as pilot2:
            await until(pilot2, lambda: second.return_code is not None, "the second to give up")
        assert second.return_code == 1
    assert second.farewell is None  # no game of its own to keep


# --- the command line --------------------------------------------------------------------------------------

def parse(*argv: str) -> argparse.Namespace:
    parser_args: list[argparse.Namespace] = []

    def grab(args: argparse.Namespace) -> int:
        parser_args.append(args)
        return 0

    original = cli.cmd_play
    cli.cmd_play = grab
    try:
        cli.main(["play", *argv])
    finally:
        cli.cmd_play = original
    return parser_args[0]


def test_play_flags_remembered_server_and_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    first = cli.play_launch(parse(), {})  # no flag: the servers on the LAN to choose from
    assert first.mode == "browse" and first.home == tmp_path and first.data == tmp_path and first.name
    served = cli.play_launch(parse("--server", "10.0.0.2:5000", "--name", "Ann", "--ascii"), {"NO_COLOR": "1"})
    assert (served.mode, served.address, served.name) == ("server", "10.0.0.2:5000", "Ann")
    assert served.style == CardStyle(ascii=True, colour=False)
    assert ClientConfig.load(tmp_path) == ClientConfig("10.0.0.2:5000", "Ann", None)
    assert (tmp_path / CONFIG_FILE).exists()
    again = cli.play_launch(parse("--four-colour"), {})  # no flag: the servers (the remembered one among them)
    assert (again.mode, again.address, again.name, again.style) == ("browse", "", "Ann", CardStyle(four_colour=True))
    assert ClientConfig.load(tmp_path) == ClientConfig("10.0.0.2:5000", "Ann", None)  # still remembered
    watching = cli.play_launch(parse("--spectate", "t1"), {})
    assert (watching.mode, watching.address, watching.table_id) == ("spectate", "10.0.0.2:5000", "t1")
    local = cli.play_launch(parse("--local"), {})
    assert local.mode == "local" and local.name == "Ann"
    assert ClientConfig.load(tmp_path).server == "10.0.0.2:5000"  # --local forgets no server


def test_play_refuses_flags_that_do_not_go_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    assert cli.main(["play", "--spectate", "t1"]) == 2
    assert "--spectate needs --server" in capsys.readouterr().err
    assert cli.main(["play", "--local", "--spectate", "t1"]) == 2
    with pytest.raises(SystemExit):
        cli.main(["play", "--local", "--server", "h:1"])
    with pytest.raises(SystemExit):
        cli.main(["play", "--server", "nohost"])
    assert cli.main(["play", "--server", "h:1", "--interface", "lo"]) == 2
    assert "--interface is where to look for servers" in capsys.readouterr().err
    assert cli.main(["play", "--interface", "no-such-interface0"]) == 2
    assert "this machine has no such interface" in capsys.readouterr().err


def test_bots_is_the_headless_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bots", "--seats", "3", "--seed", "5", "--rule", "max_turns=40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ten Pennies: 3 seats") and "round 7:" in out


# --- a real terminal ---------------------------------------------------------------------------------------

ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[@-Z\\-_])")


def in_session(sid: int) -> list[int]:
    """Every process of the session ``sid`` (a pty child leads its own session)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


class Terminal:
    """A program in a pseudo-terminal, its output read as plain text (escape sequences dropped)."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = SIZE, *,
                 hang_up_ignored: bool = False) -> None:
        try:
            pid, fd = os.forkpty()
        except OSError as error:
            pytest.skip(f"no pty: {error}")
        if pid == 0:  # the child: exec at once, with the signals a terminal's program starts with
            try:
                # what the test process ignored or blocked (a worker of pytest-xdist, a library's thread) would
                # be the program's too, across exec: closing the terminal would then not hang it up
                signal.pthread_sigmask(signal.SIG_SETMASK, set())
                for number in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGPIPE):
                    signal.signal(number, signal.SIG_DFL)
                if hang_up_ignored:  # as nohup starts it, or a make that outlives the terminal leaves it
                    signal.signal(signal.SIGHUP, signal.SIG_IGN)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.raw = b""
        self.status: int | None = None

    def read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                self.raw += os.read(self.fd, 65536)
            except OSError as error:
                if error.errno != errno.EIO:  # EIO: the other side is closed
                    raise

    @property
    def text(self) -> str:
        return ANSI.sub(b"", self.raw).decode("utf-8", "replace")

    def wait_for(self, pattern: str, timeout: float, after: int = 0) -> None:
        """Read until ``pattern`` shows in the output (in what came after ``after`` bytes of it)."""
        deadline = time.monotonic() + timeout
        while pattern.lower() not in ANSI.sub(b"", self.raw[after:]).decode("utf-8", "replace").lower():
            if time.monotonic() > deadline or self.exited():
                pytest.fail(f"{pattern!r} never appeared; the screen said:\n{self.text[-2000:]}")
            self.read(0.1)

    def send(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def settle(self, seconds: float) -> None:
        """Keep reading for ``seconds``: a gap between keys, so that a lone escape is not read as the
        start of the next key's sequence (alt+key)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.read(left)

    def exited(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is not None

    def wait_exit(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self.exited():
            if time.monotonic() > deadline:
                return False
            self.read(0.05)
        return True

    def hang_up(self, timeout: float) -> bool:
        """Close the terminal (the program's session gets SIGHUP), then wait for it to end."""
        os.close(self.fd)
        self.fd = -1
        deadline = time.monotonic() + timeout
        while not self.exited():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)  # nothing to read any more: poll the exit
        return True

    def close(self) -> None:
        if not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        if self.fd >= 0:
            os.close(self.fd)


def test_play_local_in_a_real_terminal_quits_and_leaves_nothing_behind(tmp_path: Path) -> None:
    program = shutil.which("tenpennies", path=str(Path(sys.executable).parent))
    if program is None:
        pytest.skip("the tenpennies command is not installed beside this Python")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "TERM": "xterm-256color",
           "TENPENNIES_HOME": str(tmp_path), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    terminal = Terminal([program, "play", "--local"], env)
    try:
        terminal.wait_for("Round 1", timeout=60)
        assert in_session(terminal.pid) == [terminal.pid]  # one process: the server runs inside it
        before = len(terminal.raw)
        terminal.send(b"?")
        terminal.wait_for("this help", timeout=15, after=before)  # the table's help
        terminal.send(b"\x1b")
        terminal.settle(0.5)
        terminal.send(b"q")
        assert terminal.wait_exit(timeout=20), "the client did not quit"
        assert terminal.status is not None and os.waitstatus_to_exitcode(terminal.status) == 0
        for _ in range(20):  # what it wrote last, after giving the terminal back
            if FAREWELL in terminal.text:
                break
            terminal.read(0.1)
        assert FAREWELL in terminal.text
        assert in_session(terminal.pid) == []  # nothing left behind
    finally:
        terminal.close()
    assert LocalGame.load(tmp_path) is not None and (tmp_path / GAME_FILE).exists()
    # And again: it offers to continue.
    terminal = Terminal([program, "play", "--local"], env)
    try:
        terminal.wait_for("Continue your game (round", timeout=60)
        terminal.send(b"\x03")  # Ctrl-C quits too
        assert terminal.wait_exit(timeout=20), "Ctrl-C did not quit"
        assert in_session(terminal.pid) == []
    finally:
        terminal.close()
    # And closing the terminal ends it all.
    terminal = Terminal([program, "play", "--local"], env)
    try:
        terminal.wait_for("Continue your game (round", timeout=60)
        terminal.send(b"c")
        terminal.wait_for("Round 1", timeout=30)
        assert terminal.hang_up(timeout=20), "closing the terminal did not end the client"
        assert in_session(terminal.pid) == []
    finally:
        terminal.close()
    # Even when the hang-up never reaches it: it sees its terminal gone (rather than spin on it for good).
    terminal = Terminal([program, "play", "--local"], env, hang_up_ignored=True)
    try:
        terminal.wait_for("Continue your game (round", timeout=60)
        assert terminal.hang_up(timeout=20), "a client deaf to the hang-up did not end with its terminal"
        assert in_session(terminal.pid) == []
    finally:
        terminal.close()

