"""The terminal client's app: what ``tenpennies play`` opens.

Three ways in (``Launch.mode``):

* ``local``: a private server on loopback runs inside this app's asyncio loop (``client.local``), a game
  against three built-in bots is made (or the unfinished one continued) and the table opens. Quitting the
  app stops the server: nothing is left running.
* ``server``: the lobby of a server (``LobbyScreen``), with the seats and tables this client held there
  in an earlier run (``ServerMemory``, in ``client.json`` under ``Launch.home``).
* ``spectate``: one table of a server, watched; leaving it shows that server's lobby.
* ``browse``: the servers on the LAN (``ServersScreen``), the remembered one, an address typed by hand or the
  local game; the choice then opens as ``server`` (remembered for next time) or ``local`` would.

After the app is gone, ``farewell`` is a line for the terminal (the local game is kept, and how to go on).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import RuleError
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import data_dir

from ..arguments import game_title, local_rules
from ..connection import Connection, HostedTable, SeatSession, ServerError
from ..local import DB_FILE, LocalServer, NoSuchGame, read_game
from ..settings import ClientConfig, LocalGame, ServerMemory, TablePrefs, Unfinished
from ..trust import KnownServers, Pinned, TrustError, TrustRefused, Verdict
from .cards import CardStyle
from .footer import KeysFooter
from .games import SCREENS, screen_game
from .history import HistoryScreen
from .lobby import LobbyScreen, refusal
from .servers import Choice, ServersScreen
from .table import TableScreen
from .trust import RefusedScreen, confirm, refuse, verdict_for
from .viewer import ReplayScreen, review_for, seat_of_person

Mode = Literal["local", "server", "spectate", "browse", "history", "replay"]
# gRPC's own reconnect backoff grows to minutes; a lobby waiting for a server that comes back should see
# it within a couple of seconds (its own retries are jittered and at most about 3 s apart).
# A link that goes silent (a cable pulled, Wi-Fi gone) breaks no TCP connection: without keepalive pings the
# table would sit frozen until TCP gave up. A ping after 3 s without a word from the server (it allows one each
# 2 s), answered within 2 s, tells within 5 s, and the table says Reconnecting... (tests/test_lan.py cuts a
# host's link).
RECONNECT = (("grpc.initial_reconnect_backoff_ms", 500), ("grpc.min_reconnect_backoff_ms", 500),
             ("grpc.max_reconnect_backoff_ms", 2000),
             ("grpc.keepalive_time_ms", 3000), ("grpc.keepalive_timeout_ms", 2000),
             ("grpc.http2.max_pings_without_data", 0))
FAREWELL = "Your game is kept: make play (or tenpennies play --local) continues it."


class ServerConnection(Connection):
    """A ``Connection`` whose channel tries a server that went away again soon (``RECONNECT``)."""

    def __init__(self, address: str, tls_ca: str | None = None, pinned: Pinned | None = None) -> None:
        super().__init__(address, tls_ca, pinned=pinned, options=RECONNECT)


@dataclass(frozen=True)
class Launch:
    """What ``tenpennies play`` asked for. ``address``: host:port of the server (server and spectate
    modes); ``table_id``: the table to watch (spectate); ``home``: where local games are kept (local), or
    where ``client.json`` remembers the seats held on servers (server, spectate and browse). Browse only:
    ``data``, where local games are kept; ``interface``, the network interface to look for servers on."""

    mode: Mode
    address: str = ""
    name: str = "player"
    tls_ca: str | None = None
    table_id: str = ""
    style: CardStyle = field(default_factory=CardStyle)
    home: Path = field(default_factory=data_dir)
    data: Path = field(default_factory=data_dir)
    interface: str | None = None
    server_name: str = ""  # the server's name as found on the LAN (the lobby's title says it)
    rounds: tuple[int, ...] = ()  # local: a new game plays these rounds (empty: all seven)
    practice: bool = False        # local: a new game is a practice table
    config: Path | None = None  # local: where client.json (the table settings) is kept; None: ``home``
    game: str = ""  # local: the game of a new local game ("": the default game), by its name in ``engine.games``
    rules: tuple[str, ...] = ()  # local: its rules, as ``--rule NAME=VALUE`` writes them
    replay: str = ""  # replay: the game (table id, or its first characters) to open in the replay viewer
    db: Path | None = None  # replay: the SQLite file it is in (None: the local games', or ``address``'s server)


How = Literal["continue", "new", "short", "practice", "history"]


@dataclass(frozen=True)
class Start:
    """The local start screen's answer: continue the unfinished game, or a new game of ``game``: a whole one,
    a short one or a practice table (of a game whose screen entry offers them); or first the history of the
    games played."""

    how: How
    game: str = DEFAULT_GAME


def offering(games: list[str], what: str) -> str | None:
    """The first of ``games`` whose screen entry offers a short game (``what``: "short") or a practice table."""
    return next((g for g in games if (screen_game(g).short if what == "short" else screen_game(g).practice)), None)


class ContinueScreen(ModalScreen[Start]):
    """The local start screen, when the game of last time is not finished: continue it, or start a new game
    instead (the bots then play the old one out): of the game ``--game`` named (the default game if none) or of
    another game (``g``, or its key), or a short game or a practice table (of the first game, that one first,
    whose screen entry offers them)."""

    CSS_PATH = "lobby.tcss"  # its looks are the lobby's modals': a local game's app loads that sheet only here

    # (the footer's keys fit 80 columns; a modal hides the app's own keys, q among them)
    BINDINGS = [Binding("c", "choose('continue')", "Continue"), Binding("n", "choose('new')", "New"),
                Binding("s", "choose('short')", "Short"), Binding("p", "choose('practice')", "Practice"),
                Binding("g", "other", "Other game"), Binding("h", "choose('history')", "Your games"),
                Binding("escape", "choose('continue')", "Continue", show=False),
                Binding("q", "app.quit", "Quit")]

    def __init__(self, unfinished: Unfinished, game: str = DEFAULT_GAME) -> None:
        super().__init__()
        self.unfinished = unfinished
        self.game = game or DEFAULT_GAME
        # the games played here: the one asked for first
        self.games = [self.game, *(name for name in SCREENS if name != self.game)]
        self.other = self.games[1] if len(self.games) > 1 else self.game
        self.short = offering(self.games, "short")
        self.practice = offering(self.games, "practice")
        # a key for a new game of each other game (its screen entry's): not in the footer, which has no room
        keys = {b.key for b in self.BINDINGS if isinstance(b, Binding)}
        self.game_keys = {screen_game(name).key: name for name in reversed(self.games[1:])
                          if screen_game(name).key and screen_game(name).key not in keys}

    def compose(self) -> ComposeResult:
        with Vertical(id="continue-box", classes="lobby-modal"):
            yield Label("Your last game is not finished.", id="continue-title")
            yield Button(f"Continue your game ({self.unfinished.label})", id="continue", variant="primary")
            yield Button(f"New game of {game_title(self.game)}", id="new")
            for name in self.games[1:]:
                yield Button(f"New game of {game_title(name)}", id=f"new-{name}")
            if self.short is not None:
                short = screen_game(self.short).short
                assert short is not None
                yield Button(f"Short game of {game_title(self.short)} ({short.what})", id="short")
            if self.practice is not None:
                yield Button(f"Practice table of {game_title(self.practice)} (hints as you play)", id="practice")
            yield Label("A new game leaves this one to the bots to play out.", classes="hint")
        yield KeysFooter()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        button = event.button.id or ""
        if button.startswith("new-"):
            self.dismiss(Start("new", button.removeprefix("new-")))
        else:
            self.action_choose(button)  # type: ignore[arg-type]  # (the other buttons' ids are the choices)

    def on_key(self, event: events.Key) -> None:
        if event.key in self.game_keys:
            event.stop()
            self.dismiss(Start("new", self.game_keys[event.key]))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters[:1] == ("short",):
            return self.short is not None
        if action == "choose" and parameters[:1] == ("practice",):
            return self.practice is not None
        return True

    def action_choose(self, how: How, game: str = "") -> None:
        """``game``: "" for the screen's own game (a short game or a practice table: the game offering it)."""
        if how == "short":
            game = game or self.short or ""
        elif how == "practice":
            game = game or self.practice or ""
        if how in ("short", "practice") and not game:
            return
        self.dismiss(Start(how, game or self.game))

    def action_other(self) -> None:
        self.dismiss(Start("new", self.other))


TERMINAL_CHECK = 1.0
"""Seconds between two looks at whether the client's terminal is still there (``watch_terminal``)."""


class TenPenniesApp(App[None]):
    """Ten Pennies in the terminal. ``q`` or Ctrl-C quits from anywhere but a text field; each screen
    has its own ``?`` help."""

    TITLE = "Ten Pennies"
    CSS_PATH = ["lobby.tcss", "table.tcss", "servers.tcss"]
    LOCAL_CSS_PATH = ["table.tcss"]  # a local game shows its table alone (and ContinueScreen, which brings its own)
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("q", "quit", "Quit"),
                Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

    def __init__(self, launch: Launch) -> None:
        # Each sheet is parsed as the app starts: a local game's start-up waits for none it never shows.
        here = Path(__file__).parent
        super().__init__(css_path=[here / name for name in self.LOCAL_CSS_PATH] if launch.mode == "local" else None)
        self.launch = launch
        self.local: LocalServer | None = None
        self.connection: Connection | None = None
        self.farewell: str | None = None  # said in the terminal once the app is gone
        self.came_from: Launch | None = None  # the servers screen's launch, while a server chosen there is reached
        self.early_continue = False  # c pressed while the local game was starting: continue without asking
        self.mounted = asyncio.Event()  # the app is mounted: a screen may be pushed over its splash

    def compose(self) -> ComposeResult:
        if self.launch.mode in ("history", "replay"):
            text = "Reading your games…"
        elif self.launch.mode == "local":
            text = "Starting your local game…"
        elif self.launch.mode == "browse":
            text = "Looking for servers on the LAN…"
        else:
            text = f"Connecting to {self.launch.address}…"
        yield Static(text, id="splash")
        yield KeysFooter()  # (its keys in its first frame, made at once)

    def on_load(self) -> None:
        if self.launch.mode == "local":
            # started as the app starts: the server's start waits mostly on grpc's and SQLite's threads, which
            # then work while the app composes its splash (``open_local`` shows nothing before it is mounted)
            self.open_local()

    async def on_mount(self) -> None:
        self.mounted.set()
        self.watch_terminal()
        if self.launch.mode == "history":
            await self.push_screen(HistoryScreen(self.launch.home / DB_FILE, style=self.launch.style),
                                   lambda _: self.exit())
            return
        if self.launch.mode == "replay":
            self.open_replay_launch()
            return
        if self.launch.mode == "local":
            return  # started as the app loaded (``on_load``)
        if self.launch.mode == "browse":
            self.show_servers()
            return
        await self.reach_server()  # awaited: a server needing no question shows its lobby as the app starts

    def watch_terminal(self) -> None:
        """End when the terminal goes away, whether or not its hang-up reached this process: a program between
        them may keep SIGHUP from it (nohup; a make that outlives its terminal), and the input thread would then
        spin on a terminal that is gone. Nothing to watch when the client did not start in a terminal."""
        try:
            fd = sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
        except (ValueError, OSError):
            return
        if fd < 0 or not os.isatty(fd):
            return

        def check() -> None:
            if not os.isatty(fd):
                self.exit()
        self.set_interval(TERMINAL_CHECK, check, name="terminal")

    def show_servers(self) -> None:
        config = ClientConfig.load(self.launch.home)
        self.push_screen(ServersScreen(self.launch.name, remembered=config.server, interface=self.launch.interface),
                         self.chosen)

    def chosen(self, choice: Choice | None) -> None:
        """The servers screen's choice: the local game, or a server's lobby (remembered for next time once
        reached, with the CA it was reached with; the remembered server keeps its own CA unless --tls-ca says
        another)."""
        match choice:
            case Choice(kind="local", game=game):
                self.launch = replace(self.launch, mode="local", home=self.launch.data,
                                      config=self.launch.config or self.launch.home, game=game or self.launch.game)
                self.query_one("#splash", Static).update("Starting your local game…")
                self.open_local()
            case Choice(kind="server", address=address, name=server_name):
                config = ClientConfig.load(self.launch.home)
                tls_ca = self.launch.tls_ca or (config.tls_ca if address == config.server else None)
                self.came_from = self.launch
                self.launch = replace(self.launch, mode="server", address=address, tls_ca=tls_ca,
                                      server_name=server_name)
                self.open_server()

    def open_server(self) -> None:
        """``reach_server`` in a worker (from the servers screen)."""
        self.run_worker(self.reach_server(), group="launch", exclusive=True, exit_on_error=False)

    async def reach_server(self) -> None:
        """Settle how to connect to ``launch.address`` (``tui.trust``: a TLS server's certificate is trusted
        on first use), then show its lobby; asking the player, or saying why not to connect, runs in a worker."""
        known = KnownServers.at(self.launch.home)
        try:
            verdict = await verdict_for(self.launch.address, self.launch.tls_ca, known)
        except TrustError as error:
            self.run_worker(self.turn_away(error), group="launch", exit_on_error=False)
            return
        if verdict.ask:
            self.run_worker(self.trust_first(verdict, known), group="launch", exit_on_error=False)
            return
        self.show_lobby(verdict.pinned)

    async def trust_first(self, verdict: Verdict, known: KnownServers) -> None:
        try:
            pinned = await confirm(self, self.launch.address, verdict, known)
        except TrustError as error:
            await self.turn_away(error)
            return
        self.show_lobby(pinned)

    async def turn_away(self, error: TrustError) -> None:
        """Not connecting: say why and quit (``tui.trust.refuse``); a server chosen on the servers screen,
        say why and go back to that screen."""
        if self.came_from is None:
            await refuse(self, error)
            return
        if isinstance(error, TrustRefused):
            await self.push_screen_wait(RefusedScreen("Not the server you trusted", str(error),
                                                      hint="Not connected. Enter goes back to the servers."))
        else:
            self.notify(str(error), title="Not connected", severity="warning", timeout=8, markup=False)
        self.launch, self.came_from = self.came_from, None
        self.show_servers()

    def show_lobby(self, pinned: Pinned | None) -> None:
        """The lobby of ``launch.address`` (and, spectating, the table watched over it)."""
        try:
            self.connection = ServerConnection(self.launch.address, self.launch.tls_ca, pinned)
        except OSError as error:  # the CA file
            self.exit(return_code=1, message=f"Cannot use the CA file {self.launch.tls_ca}: {error}")
            return
        if self.came_from is not None:  # chosen on the servers screen: offered first next time
            try:
                ClientConfig(self.launch.address, self.launch.name, self.launch.tls_ca).save(self.launch.home)
            except OSError:
                pass  # not remembered: the game goes on
            self.came_from = None
        memory = ServerMemory.load(self.launch.address, self.launch.home)
        lobby = LobbyScreen(self.connection, self.launch.name, style=self.launch.style, memory=memory,
                            server_name=self.launch.server_name)
        self.push_screen(lobby)
        if self.launch.mode == "spectate":
            lobby.watch_table(self.launch.table_id)  # a private table's password is asked first

    @work(exclusive=True, group="launch", exit_on_error=False)
    async def open_local(self) -> None:
        """Start the local server, then continue the unfinished game or make a new one, and sit down."""
        self.local = local = LocalServer(self.launch.home)
        try:
            connection = await local.start()
            unfinished = await local.unfinished()
            host: HostedTable | None = None
            session: SeatSession
            wanted = self.launch.game or DEFAULT_GAME
            start = Start("new", wanted)
            if unfinished is not None:
                await self.mounted.wait()
                start = Start("continue") if self.early_continue else await self.push_screen_wait(
                    ContinueScreen(unfinished, wanted))
                while start.how == "history":  # the games played, then the same question again
                    await self.push_screen_wait(HistoryScreen(local.db, style=self.launch.style))
                    start = await self.push_screen_wait(ContinueScreen(unfinished, wanted))
            story = practice = False
            if unfinished is not None and start.how == "continue":
                session, story, practice = local.resume(unfinished.game), True, unfinished.game.practice
            else:
                if unfinished is not None:
                    await local.abandon(unfinished.game)
                short = screen_game(start.game).short
                rounds = self.launch.rounds if start.game == wanted and start.how != "short" else ()
                practice = start.how == "practice" or (start.how == "new" and self.launch.practice
                                                       and start.game == wanted)
                rules = self.launch.rules if start.game == wanted else ()  # --rule's game
                if rounds:  # --rounds: the rule of that name, written as --rule gives it
                    rules = (*rules, "rounds=" + ",".join(str(r) for r in rounds))
                if start.how == "short" and short is not None:
                    rules = (*rules, *short.settings)
                session, host = await local.new_game(self.launch.name, start.game, local_rules(start.game, rules),
                                                     practice=practice)
                story = True  # the game is dealt and the bots may have moved before the screen follows it
            home = self.launch.config or self.launch.home  # where client.json keeps the table settings
            table = TableScreen(connection, session, style=self.launch.style, host=host, leave_to_lobby=False,
                                prefs=TablePrefs.load(home), home=home, guide=True, story=story, hints=practice,
                                source=str(local.db), history=local.db)
            # the stream read to its snapshot first: the table's first frame shows the hand and the prompt
            await table.open_stream()
        except ServerError as error:
            self.exit(return_code=1, message=f"The local game could not start: {refusal(error)}")
            return
        except Exception as error:  # the data directory, the store, the port: say so, leave cleanly
            self.exit(return_code=1, message=f"The local game could not start: {error}")
            return
        await self.mounted.wait()
        await self.push_screen(table)

    @work(exclusive=True, group="launch", exit_on_error=False)
    async def open_replay_launch(self) -> None:
        """``play --replay GAME_ID``: the game from ``--db``'s file (the local games' by default) or, with
        ``--server``, from that server; the viewer, then the terminal again."""
        launch = self.launch
        try:
            if launch.address:
                self.connection = ServerConnection(launch.address, launch.tls_ca)
                record = await self.connection.game_record(launch.replay)
            else:
                record = read_game(launch.db or launch.home / DB_FILE, launch.replay)
            screen = ReplayScreen(record, review=review_for(launch.address or str(launch.db or launch.home / DB_FILE),
                                                            record.table_id, seat_of_person(record)),
                                  style=launch.style)
        except (NoSuchGame, LookupError, ServerError, RuleError, sqlite3.Error, OSError) as error:
            self.exit(return_code=1, message=f"No replay: {error}")
            return
        await self.push_screen_wait(screen)
        self.exit()

    def on_key(self, event: events.Key) -> None:
        """A ``c`` pressed on the splash, before the offer to continue the local game could be shown, is
        that offer's answer (``n``, which gives the old game to the bots, is asked for on the offer itself)."""
        if self.launch.mode == "local" and event.key == "c" and len(self.screen_stack) == 1:
            self.early_continue = True

    async def action_quit(self) -> None:
        """Quit; a player who holds seats at games going on is told, in the terminal, where they are and how
        to come back (the local game says so as it stops: ``on_unmount``)."""
        lobby = next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)
        if lobby is not None:
            where = {s.session.table_id: s.game.where() for s in self.screen_stack
                     if isinstance(s, TableScreen) and s.tv.view is not None}
            self.farewell = "\n".join(lobby.kept(where)) or None
        self.exit()

    async def on_unmount(self) -> None:
        """Every screen and worker is gone by now: close the channel, then (saying whether the local game
        goes on) stop the local server."""
        if self.connection is not None:
            await self.connection.close()
        if self.local is not None:
            if await self.local_game_unfinished():
                self.farewell = FAREWELL
            await self.local.stop()

    async def local_game_unfinished(self) -> bool:
        """Whether the remembered local game is still to be played (asked of the local server, briefly)."""
        assert self.local is not None
        game, connection = LocalGame.load(self.launch.home), self.local.connection
        if game is None or connection is None:
            return False
        try:
            snapshot = await asyncio.wait_for(
                connection.seat(game.table_id, game.seat, game.token).snapshot(), timeout=3)
        except (ServerError, TimeoutError):
            return False
        return bool(snapshot.table.status != pb.TABLE_STATUS_FINISHED)
