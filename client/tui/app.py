"""The terminal client's app: what ``tenpennies play`` opens.

Three ways in (``Launch.mode``):

* ``local``: a private server on loopback runs inside this app's asyncio loop (``client.local``), a game
  against three built-in bots is made (or the unfinished one continued) and the table opens. Quitting the
  app stops the server: nothing is left running.
* ``server``: the lobby of a server (``LobbyScreen``).
* ``spectate``: one table of a server, watched; leaving it shows that server's lobby.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, Static

from ..connection import Connection, HostedTable, SeatSession, ServerError
from ..local import LocalServer, Unfinished, data_dir
from .cards import CardStyle
from .lobby import LobbyScreen, refusal
from .table import TableScreen

Mode = Literal["local", "server", "spectate"]


@dataclass(frozen=True)
class Launch:
    """What ``tenpennies play`` asked for. ``address``: host:port of the server (server and spectate
    modes); ``table_id``: the table to watch (spectate); ``home``: where local games are kept."""

    mode: Mode
    address: str = ""
    name: str = "player"
    tls_ca: str | None = None
    table_id: str = ""
    style: CardStyle = field(default_factory=CardStyle)
    home: Path = field(default_factory=data_dir)


class ContinueScreen(ModalScreen[bool]):
    """The local game left unfinished last time: continue it (True) or start a new one (False)."""

    BINDINGS = [Binding("c", "choose(True)", "Continue"), Binding("n", "choose(False)", "New game"),
                Binding("escape", "choose(True)", "Continue", show=False)]

    def __init__(self, unfinished: Unfinished) -> None:
        super().__init__()
        self.unfinished = unfinished

    def compose(self) -> ComposeResult:
        with Vertical(id="continue-box", classes="lobby-modal"):
            yield Label("Your last game is not finished.", id="continue-title")
            yield Button(f"Continue your game ({self.unfinished.label})", id="continue", variant="primary")
            yield Button("New game", id="new")
            yield Label("c continue · n new game (bots play the old one out)", classes="hint")

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "continue")

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)


class TenPenniesApp(App[None]):
    """Ten Pennies in the terminal. ``q`` or Ctrl-C quits from anywhere but a text field; each screen
    has its own ``?`` help."""

    TITLE = "Ten Pennies"
    CSS_PATH = ["lobby.tcss", "table.tcss"]
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("q", "quit", "Quit"),
                Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

    def __init__(self, launch: Launch) -> None:
        super().__init__()
        self.launch = launch
        self.local: LocalServer | None = None
        self.connection: Connection | None = None

    def compose(self) -> ComposeResult:
        if self.launch.mode == "local":
            text = "Starting your local game…"
        else:
            text = f"Connecting to {self.launch.address}…"
        yield Static(text, id="splash")
        yield Footer()

    def on_mount(self) -> None:
        if self.launch.mode == "local":
            self.open_local()
            return
        self.connection = Connection(self.launch.address, self.launch.tls_ca)
        lobby = LobbyScreen(self.connection, self.launch.name, style=self.launch.style)
        self.push_screen(lobby)
        if self.launch.mode == "spectate":
            self.push_screen(TableScreen(self.connection, self.connection.spectate(self.launch.table_id),
                                         style=self.launch.style, leave_to_lobby=True))

    @work(exclusive=True, group="launch", exit_on_error=False)
    async def open_local(self) -> None:
        """Start the local server, then continue the unfinished game or make a new one, and sit down."""
        self.local = local = LocalServer(self.launch.home)
        try:
            connection = await local.start()
            unfinished = await local.unfinished()
            host: HostedTable | None = None
            session: SeatSession
            if unfinished is not None and await self.push_screen_wait(ContinueScreen(unfinished)):
                session = local.resume(unfinished.game)
            else:
                if unfinished is not None:
                    await local.abandon(unfinished.game)
                session, host = await local.new_game(self.launch.name)
        except ServerError as error:
            self.exit(return_code=1, message=f"The local game could not start: {refusal(error)}")
            return
        except Exception as error:  # the data directory, the store, the port: say so, leave cleanly
            self.exit(return_code=1, message=f"The local game could not start: {error}")
            return
        await self.push_screen(TableScreen(connection, session, style=self.launch.style, host=host,
                                           leave_to_lobby=False))

    async def on_unmount(self) -> None:
        """Every screen and worker is gone by now: close the channel, then stop the local server."""
        if self.connection is not None:
            await self.connection.close()
        if self.local is not None:
            await self.local.stop()
