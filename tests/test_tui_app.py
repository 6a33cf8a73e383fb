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
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Select, Static

from tenpennies.client import cli
from tenpennies.client.connection import Connection
from tenpennies.client.local import CONFIG_FILE, GAME_FILE, ClientConfig, LocalGame
from tenpennies.client.tui.app import ContinueScreen, Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import CreateTableScreen, LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.server.app import Options, Server
from tenpennies.v1 import tenpennies_pb2 as pb

SIZE = (80, 24)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(Options(port=0, db=str(tmp_path / "x.db"), allow_seeds=True))
    await running.start()
    yield running
    await running.stop(0)


@pytest.fixture
async def other(server: Server) -> AsyncIterator[Connection]:
    """Another client of the same server."""
    connection = Connection(f"127.0.0.1:{server.port}")
    yield connection
    await connection.close()


async def until(pilot: Pilot[None], condition: Callable[[], object], what: str, timeout: float = 15) -> None:
    """Let the app run until ``condition()`` holds, polling; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def lobby_app(server: Server, tmp_path: Path, name: str = "ann") -> TenPenniesApp:
    return TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name=name, home=tmp_path))


def lobby_of(app: TenPenniesApp) -> LobbyScreen:
    screen = app.screen
    assert isinstance(screen, LobbyScreen), screen
    return screen


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
        hosted = await other.create_table("Bob's", 3, pb.HouseRules(preset=pb.PRESET_DEUCES),
                                          decision_seconds=45, seed=99)
        await until(pilot, lambda: listed(app, hosted.table_id), "the new table")
        assert row(app, hosted.table_id)[:6] == ["Bob's", "0/3", "waiting", "deuces", "45s", "99"]
        await other.add_bot(hosted.table_id, hosted.host_token, "random")
        await other.join(hosted.table_id, "bob")
        await until(pilot, lambda: row(app, hosted.table_id)[1] == "2/3", "the seats to fill")
        assert "random bot" in row(app, hosted.table_id)[6] and "bob" in row(app, hosted.table_id)[6]
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
        again = Server(Options(port=port, db=str(tmp_path / "x.db")))
        await again.start()
        try:
            maker = Connection(f"127.0.0.1:{port}")
            made = await maker.create_table("After", 2)
            await maker.close()
            await until(pilot, lambda: listed(app, made.table_id), "the lobby to come back", timeout=30)
            assert "live" in status()
        finally:
            await again.stop(0)


async def test_creating_a_table_from_the_form_shows_the_servers_refusal_with_its_rule(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
        form = app.screen
        form.query_one("#name", Input).value = ""
        await pilot.press(*"Big table")
        form.query_one("#seats", Select).value = 8
        form.query_one("#preset", Select).value = pb.PRESET_DEUCES
        form.query_one("#later_set_wilds", Select).value = pb.LATER_SET_WILDS_ONE_PER_THREE
        form.query_one("#discard_to_go_out", Checkbox).value = True
        form.query_one("#all_wild_sets", Checkbox).value = False
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
        rules = info.rules
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


async def test_join_add_bots_and_start_from_the_lobby_reach_the_table(
        server: Server, other: Connection, tmp_path: Path) -> None:
    app = lobby_app(server, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
        await pilot.press("ctrl+s")  # the defaults: 4 seats, standard
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.hosted, "the table")
        lobby = lobby_of(app)
        table_id = next(iter(lobby.hosted))
        await until(pilot, lambda: listed(app, table_id) and lobby.selected is not None
                    and lobby.selected.table_id == table_id, "the cursor on the new table")
        assert lobby.check_action("start", ()) is True
        await pilot.press("b", "b", "B")
        await until(pilot, lambda: row(app, table_id)[1] == "3/4", "three bots")
        assert "random bot" in row(app, table_id)[6]
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
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
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


async def test_local_mode_again_offers_to_continue_the_game(tmp_path: Path) -> None:
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
    saved = LocalGame.load(tmp_path)
    assert saved is not None

    again = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ContinueScreen), "the offer to continue")
        assert "Continue your game (round 1 of 7)" in str(again.screen.query_one("#continue").render())
        await pilot.press("c")
        await until(pilot, lambda: isinstance(again.screen, TableScreen), "the table")
        resumed = again.screen
        assert isinstance(resumed, TableScreen)
        assert resumed.session.table_id == saved.table_id and resumed.session.seat == 3
        await until(pilot, lambda: resumed.tv.view is not None, "the game")

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


async def test_a_finished_or_unknown_local_game_starts_a_new_one_directly(tmp_path: Path) -> None:
    LocalGame("no-such-table", 3, "token", "host").save(tmp_path)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, with no question")
        saved = LocalGame.load(tmp_path)
        assert saved is not None and saved.table_id != "no-such-table"


async def test_two_local_games_cannot_share_one_directory(tmp_path: Path) -> None:
    first = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(first.screen, TableScreen), "the table")
        second = TenPenniesApp(Launch("local", name="me", home=tmp_path))
        async with second.run_test(size=SIZE) as pilot2:
            await until(pilot2, lambda: second.return_code is not None, "the second to give up")
        assert second.return_code == 1


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
    first = cli.play_launch(parse(), {})
    assert first.mode == "local" and first.home == tmp_path and first.name
    served = cli.play_launch(parse("--server", "10.0.0.2:5000", "--name", "Ann", "--ascii"), {"NO_COLOR": "1"})
    assert (served.mode, served.address, served.name) == ("server", "10.0.0.2:5000", "Ann")
    assert served.style == CardStyle(ascii=True, colour=False)
    assert ClientConfig.load(tmp_path) == ClientConfig("10.0.0.2:5000", "Ann", None)
    assert (tmp_path / CONFIG_FILE).exists()
    again = cli.play_launch(parse("--four-colour"), {})  # no flag: the remembered server and name
    assert (again.mode, again.address, again.name, again.style) == \
        ("server", "10.0.0.2:5000", "Ann", CardStyle(four_colour=True))
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

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = SIZE) -> None:
        try:
            pid, fd = os.forkpty()
        except OSError as error:
            pytest.skip(f"no pty: {error}")
        if pid == 0:  # the child: exec at once
            try:
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

