"""The first screen of ``tenpennies play`` with no flag: the servers on the LAN, found as they appear.

The list follows ``client.discovery.Browser`` in a worker (name, address, open tables, seats free at
waiting tables, TLS); the server played on last time (``client.json``) is offered on the first row,
found or not. Beside the list: an address typed by hand (HOST:PORT), and the local game against bots.
The screen is dismissed with the player's ``Choice``; the app opens that lobby (or the local game).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Static

from tenpennies.engine.games import DEFAULT_GAME

from ..arguments import address as check_address
from ..arguments import game_title
from ..discovery import Browser, Change, FoundServer
from .cards import clip
from .footer import KeysFooter
from .games import SCREENS

REMEMBERED = "remembered"  # the row key of the server played on last time
FOUND = "lan:"  # the row keys of servers found begin so: a record may call itself anything, "remembered" too
COLUMNS = (("name", "Server"), ("address", "Address"), ("tables", "Tables"), ("seats", "Seats free"),
           ("tls", "TLS"))
NAME_WIDTH = 26
QUIET = 5.0  # seconds of browsing with nothing found before the status line suggests an address


@dataclass(frozen=True)
class Choice:
    """What the player chose: a server's lobby (``address``; ``tls``: it serves TLS, as far as known;
    ``name``: its name, when it was found on the LAN), or the local game against bots."""

    kind: Literal["server", "local"]
    address: str = ""
    tls: bool = False
    name: str = ""
    game: str = ""  # local: the game of a new local game ("": the default game), by its name in ``engine.games``


def server_row(server: FoundServer, last: bool) -> tuple[Text | str, ...]:
    """A found server's row (``last``: the server played on last time, marked ``*``)."""
    name = clip(server.name, NAME_WIDTH)
    return (Text(("*" if last else "") + name), Text(server.address), str(server.tables), str(server.seats_free),
            "on" if server.tls else "off")


def row_key(server: FoundServer) -> str:
    """The list's row of a server found (never the remembered server's row, whatever the record says)."""
    return FOUND + server.key


LOCAL_KEYS = {name: SCREENS[name].key for name in sorted(SCREENS, key=lambda name: name != DEFAULT_GAME)
              if SCREENS[name].key}
"""The key of a local game of each game that has one (its screen entry's), the default game's first."""
LOCAL_HELP = "\n".join(f"  [b]{key}[/b]{' ' * (7 - len(key))}play {game_title(name)} locally against three bots"
                       + (" (no server needed)" if n == 0 else "") for n, (name, key) in enumerate(LOCAL_KEYS.items()))

SERVERS_HELP = f"""\
[b]Servers on the LAN[/b], listed as they answer (mDNS).

  [b]enter[/b]  open the lobby of the server under the cursor
  [b]a[/b]      connect to an address: type HOST:PORT, then enter
{LOCAL_HELP}
  [b]esc[/b]    from the address field back to the list
  [b]q[/b]      quit

The first row is the server you played on last time (*), found
or not. A server missing here may be on another network, or
behind a network that drops multicast (a container's bridge):
connect to its address instead. Escape closes this help."""


class ServersHelp(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="servers-help", classes="lobby-modal"):
            yield Static(SERVERS_HELP)
        yield KeysFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


class ServerList(DataTable[Text | str]):
    """The servers: enter (select a row) opens one's lobby, and the footer says so."""

    BINDINGS = [Binding("enter", "select_cursor", "Open")]


class ServersScreen(Screen[Choice]):
    """The servers found on the LAN, live; ``remembered``: the server played on last time (HOST:PORT);
    ``interface``: browse on that interface only."""

    BINDINGS = [
        Binding("a", "address", "Address"),
        *(Binding(key, f"local('{name}')", "Local game" if name == DEFAULT_GAME else f"Local {game_title(name)}")
          for name, key in LOCAL_KEYS.items()),
        Binding("question_mark", "help", "Help", key_display="?"),
    ]

    class Changed(Message):
        def __init__(self, change: Change) -> None:
            super().__init__()
            self.change = change

    class Failed(Message):
        """Browsing could not start (the interface, the sockets): the list stays empty, say why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def __init__(self, name: str, *, remembered: str | None = None, interface: str | None = None) -> None:
        super().__init__()
        self.player_name = name
        self.remembered = remembered
        self.interface = interface
        self.found: dict[str, FoundServer] = {}
        self.waited = False  # QUIET seconds have passed

    def compose(self) -> ComposeResult:
        yield Static(f"Ten Pennies · servers on the LAN · playing as {self.player_name}", id="servers-title",
                     markup=False)
        yield Static(self.looking_text(), id="servers-status", markup=False)  # an interface's name, an error
        table = ServerList(id="servers", cursor_type="row", zebra_stripes=True)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        if self.remembered:
            self.add_remembered(table)
        yield table
        with Horizontal(id="servers-address"):
            yield Label("Connect to an address:")
            yield Input(placeholder="HOST:PORT", id="address", max_length=260, compact=True)
        yield Static("", id="servers-error", markup=False)  # what was typed, as typed
        with Horizontal(id="servers-local"):  # the default game's, then each other game's (every one registered)
            yield Button("Play locally against bots", id="local", compact=True)
            for name in SCREENS:
                if name != DEFAULT_GAME:
                    yield Button(f"{game_title(name)} locally", id=f"local-{name}", compact=True)
        yield KeysFooter(compact=True)

    def looking_text(self) -> str:
        where = f" (interface {self.interface})" if self.interface else ""
        found = len(self.found)
        if not found and self.waited:
            local = f", {LOCAL_KEYS[DEFAULT_GAME]} to play locally" if DEFAULT_GAME in LOCAL_KEYS else ""
            return f"No server found on the LAN{where} yet: a to connect to an address{local}"
        count = "none found yet" if not found else f"{found} found"
        return f"Looking for servers on the LAN{where}… {count}"

    def on_mount(self) -> None:
        self.query_one("#servers", DataTable).focus()
        self.browse()
        self.set_timer(QUIET, self.quiet)

    def quiet(self) -> None:
        """A while with nothing found: say what else there is (a server announces itself within seconds)."""
        self.waited = True
        status = self.query_one("#servers-status", Static)
        if not status.has_class("failed"):
            status.update(self.looking_text())

    @work(exclusive=True, group="browse", exit_on_error=False)
    async def browse(self) -> None:
        try:
            async with Browser(self.interface) as browser:
                async for change in browser.changes():
                    self.post_message(self.Changed(change))
        except (ValueError, OSError) as error:
            self.post_message(self.Failed(str(error)))

    def add_remembered(self, table: DataTable[Text | str]) -> None:
        assert self.remembered is not None
        table.add_row(Text("*last played", style="italic"), Text(self.remembered), "", "", "", key=REMEMBERED)

    def on_servers_screen_changed(self, message: Changed) -> None:
        table = self.query_one("#servers", DataTable)
        server = message.change.server
        if message.change.kind == "gone":
            if self.found.pop(server.key, None) is not None:
                table.remove_row(row_key(server))
        else:
            row = server_row(server, server.address == self.remembered)
            if server.key in self.found:
                for (key, _), cell in zip(COLUMNS, row, strict=True):
                    table.update_cell(row_key(server), key, cell)
            else:
                table.add_row(*row, key=row_key(server))
            self.found[server.key] = server
        self.one_row_for_the_remembered(table)
        self.query_one("#servers-status", Static).update(self.looking_text())

    def one_row_for_the_remembered(self, table: DataTable[Text | str]) -> None:
        """The server played on last time has one row: the found one (marked ``*``) while it is found at
        that address, else its own; either way the first row."""
        if not self.remembered:
            return
        found = any(s.address == self.remembered for s in self.found.values())
        listed = REMEMBERED in table.rows
        if found == listed:
            cursor = table.coordinate_to_cell_key(table.cursor_coordinate).row_key if table.row_count else None
            if found:
                table.remove_row(REMEMBERED)
            else:
                self.add_remembered(table)
            # rows keep the order they were found in, the last played first
            table.sort(key=lambda row: not (isinstance(row[0], Text) and row[0].plain.startswith("*")
                                            and str(row[1]) == self.remembered))
            # the cursor stays on its row; on the last played one's, it goes with it to the row that replaced it
            row = table.get_row_index(cursor) if cursor is not None and cursor in table.rows else 0
            table.move_cursor(row=row)

    def on_servers_screen_failed(self, message: Failed) -> None:
        status = self.query_one("#servers-status", Static)
        status.update(f"Cannot look for servers: {message.reason}")
        status.add_class("failed")

    @on(DataTable.RowSelected, "#servers")
    def row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if key == REMEMBERED and self.remembered:
            self.dismiss(Choice("server", self.remembered))
        elif key is not None and key.startswith(FOUND) and (server := self.found.get(key[len(FOUND):])) is not None:
            self.dismiss(Choice("server", server.address, tls=server.tls, name=server.name))  # TLS: the app asks

    @on(Input.Submitted, "#address")
    def address_given(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        try:
            check_address(text)
        except argparse.ArgumentTypeError:
            self.show_error(f"{text!r} is not HOST:PORT (e.g. 192.168.1.5:50051)" if text else
                            "Type the server's HOST:PORT (e.g. 192.168.1.5:50051)")
            return
        self.dismiss(Choice("server", text))

    def show_error(self, text: str) -> None:
        error = self.query_one("#servers-error", Static)
        error.update(text)
        error.add_class("shown")

    @on(Button.Pressed)
    def local_pressed(self, event: Button.Pressed) -> None:
        """``#local``: the local game (the default game's); ``#local-NAME``: a local game of that game."""
        button = event.button.id or ""
        if button == "local" or button.startswith("local-"):
            self.action_local(button.removeprefix("local").removeprefix("-"))

    def action_address(self) -> None:
        self.query_one("#address", Input).focus()

    def action_local(self, game: str = "") -> None:
        self.dismiss(Choice("local", game=game))

    def action_help(self) -> None:
        self.app.push_screen(ServersHelp())

    def key_escape(self) -> None:
        """From the address field back to the list."""
        self.query_one("#servers", DataTable).focus()
