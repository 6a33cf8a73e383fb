"""A terminal client played by keys, in a LAN host (``tests/netns.py``): the real ``TenPenniesApp`` (what
``tenpennies play --server`` opens) under Textual's Pilot, headless at 80x24.

It opens the server's lobby (or, with ``--browse NAME``, the servers found on the LAN, and the one of that
name when it shows), waits for the table to be listed, joins it with ``enter`` and plays its seat
to the end by the keys a player would press for a legal command (``d`` decline, ``p`` pass, ``r`` draw,
``home x`` discard the first card). It prints JSON lines, ``{"at": ..., "t": unix time, ...}``:

* ``asked``: the client asked whether to trust the server's certificate (its fingerprint); ``refused``:
  it was not trusted, and the client quit with these words;
* ``found``: the server showed among those found on the LAN (its name, address);
* ``lobby``: the table is listed; ``seated``: joined (seat, token);
* ``move``: a command sent by keys, and the sequence it moved the game to;
* ``holding``: (``--hold-at N``) the Nth decision is left unanswered until the game moves on without it;
* ``link``: the seat's stream went down or came back (the table's *Reconnecting…*), with what the
  prompt said;
* ``snapshot``: the screen started again from a snapshot (the first, and after every reconnect);
* ``refused``: the server refused a key's command (a decision that a timer had already answered);
* ``over``: the game's end as the screen shows it: the scores, the hand, the log, and the sequence
  number of every event the stream delivered (to compare with the server's history).

Exit 0 at the game's end; a failed wait ends it with a traceback and exit 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from tenpennies.client import view as view_module
from tenpennies.client.discovery import FoundServer
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.servers import ServersScreen, row_key
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.trust import TrustScreen
from tenpennies.engine.ten_pennies import DeclineDiscard, Discard, Draw, PassBuy
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.v2 import tenpennies_pb2 as pb

SIZE = (80, 24)
KEYS = ((DeclineDiscard, ("d",)), (PassBuy, ("p",)), (Draw, ("r",)), (Discard, ("home", "x")))


def say(at: str, **fields: Any) -> None:
    print(json.dumps({"at": at, "t": time.time(), **fields}), flush=True)


class Delivered:
    """Every event the table screen's stream delivers, in order (history after a resume included), and
    every snapshot: a wrapper round ``TableView``'s two entry points, which only the stream calls."""

    def __init__(self) -> None:
        self.events: list[tuple[int, str]] = []
        self.snapshots: list[int] = []
        self.timed_out: list[int] = []  # sequences of the timer's decisions for this seat
        apply_event, apply_snapshot = view_module.TableView.apply_event, view_module.TableView.apply_snapshot

        def on_event(tv: view_module.TableView, event: pb.Event | view_module.Incoming) -> str | None:
            message = event.message if isinstance(event, view_module.Incoming) else event  # the screen's: read once
            kind = message.WhichOneof("kind") or ""
            self.events.append((message.sequence, kind))
            if kind == "timer_expired" and message.timer_expired.seat == tv.seat:
                self.timed_out.append(message.sequence)
            return apply_event(tv, event)

        def on_snapshot(tv: view_module.TableView, snapshot: pb.Snapshot) -> None:
            self.snapshots.append(snapshot.sequence)
            say("snapshot", sequence=snapshot.sequence, over=snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER)
            apply_snapshot(tv, snapshot)

        view_module.TableView.apply_event = on_event  # type: ignore[method-assign, assignment]
        view_module.TableView.apply_snapshot = on_snapshot  # type: ignore[method-assign, assignment]


class Player:
    def __init__(self, app: TenPenniesApp, pilot: Pilot[None], args: argparse.Namespace) -> None:
        self.app, self.pilot, self.args = app, pilot, args
        self.screen: TableScreen | None = None
        self.link_up: bool | None = None

    def text(self, selector: str) -> str:
        assert self.screen is not None
        return str(self.screen.query_one(selector).render())

    def watch_link(self) -> None:
        """Say when the stream's link changes (the screen's ``link``), a link down once the prompt shows it."""
        if self.screen is None or self.screen.link is None or self.screen.link.up == self.link_up:
            return
        link, prompt = self.screen.link, self.text("#prompt")
        if not link.up and "Reconnecting" not in prompt:
            return  # the screen took the news and asked for a redraw: said once the prompt shows it
        self.link_up = link.up
        say("link", up=link.up, reason=link.reason, prompt=prompt)

    async def until(self, condition: Callable[[], object], what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.watch_link()
            if condition():
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what} within {timeout} s")
            await self.pilot.pause(0.02)

    async def find(self) -> None:
        """Browse mode: wait for the server named ``--browse`` among those found on the LAN, and open it."""
        app, name = self.app, self.args.browse

        def found() -> FoundServer | None:
            screen = app.screen
            if not isinstance(screen, ServersScreen):
                return None
            return next((s for s in screen.found.values() if s.name == name), None)

        await self.until(found, f"server {name!r} found on the LAN", 30)
        server = found()
        screen = app.screen
        assert server is not None and isinstance(screen, ServersScreen)
        say("found", name=server.name, address=server.address, tls=server.tls, tables=server.tables)
        servers = screen.query_one("#servers", DataTable)
        servers.focus()
        for _ in range(servers.row_count):
            key = servers.coordinate_to_cell_key(servers.cursor_coordinate).row_key.value
            if key == row_key(server):
                break
            await self.pilot.press("down")
        await self.pilot.press("enter")

    async def trust(self) -> bool:
        """A TLS server met for the first time asks the player to trust its certificate: answer ``--trust``
        (y or n). False: the client will not connect, and has quit saying why."""
        app = self.app
        await self.until(lambda: isinstance(app.screen, (TrustScreen, LobbyScreen)), "the lobby or a question", 30)
        asked = app.screen
        if not isinstance(asked, TrustScreen):
            return True
        say("asked", fingerprint=asked.fingerprint, address=asked.address)
        await self.pilot.press(self.args.trust)
        if self.args.trust == "y":
            return True
        await self.until(lambda: app.return_code is not None, "the client to quit", 15)
        words = " ".join(str(m) for m in getattr(app, "_exit_renderables", []))  # what the terminal is left
        say("refused", message=words, code=app.return_code)
        return False

    async def join(self) -> None:
        app, table_id = self.app, self.args.table
        await self.until(lambda: isinstance(app.screen, LobbyScreen) and table_id in app.screen.tables,
                         "table in the lobby", 30)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        say("lobby", tables=len(lobby.tables), status=str(lobby.query_one("#lobby-status").render()),
            address=lobby.connection.address)
        if self.args.stop_at == "lobby":
            return
        for _ in range(len(lobby.tables)):
            selected = lobby.selected
            if selected is not None and selected.table_id == table_id:
                break
            await self.pilot.press("down")
        await self.pilot.press("enter")
        await self.until(lambda: isinstance(app.screen, TableScreen), "table screen", 15)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.session.seat is not None
        self.screen = screen
        seat = screen.session.seat
        await self.until(lambda: screen.tv.info is not None and screen.tv.info.seat_info[seat].connected,
                         "own seat connected", 15)
        say("seated", seat=seat, token=screen.session.token)

    def over(self) -> bool:
        assert self.screen is not None
        v = self.screen.tv.view
        return self.screen.tv.game_end is not None or (v is not None and v.phase is Phase.GAME_OVER)

    async def play(self) -> None:
        screen = self.screen
        assert screen is not None
        decisions = 0
        while True:
            await self.until(lambda: self.over() or screen.legal, "decision or the game's end", self.args.timeout)
            if self.over():
                return
            decisions += 1
            if decisions == self.args.hold_at:  # a player gone quiet: the decision is left to the server
                await self.hold(screen)
                continue
            keys = next((k for kind, k in KEYS if any(isinstance(c, kind) for c in screen.legal)), None)
            if keys is None:
                raise AssertionError(f"no plain key for {screen.legal}")
            if self.args.think:
                await self.pilot.pause(self.args.think)  # a person's pace
                if self.over() or not screen.legal:
                    continue  # the decision went (the timer, a nearer seat's buy) while it thought
            await self.press(screen, keys)

    async def hold(self, screen: TableScreen) -> None:
        before = screen.tv.sequence
        say("holding", sequence=before, deadline_ms=screen.tv.deadline_ms)
        await self.until(lambda: screen.tv.sequence > before, "the game to move on without me", 60)

    async def press(self, screen: TableScreen, keys: tuple[str, ...]) -> None:
        """Press ``keys`` (the last sends a command) and wait for the game to move, or for a refusal (a timer
        answered first, or the link was down), then for the stream to move on."""
        before = screen.tv.sequence
        screen.say("")
        await self.pilot.press(*keys)
        await self.until(lambda: screen.tv.sequence > before or self.text("#message").strip(),
                         f"the game to move after {keys}", self.args.timeout)
        refused = self.text("#message").strip()
        if screen.tv.sequence > before:
            say("move", keys=list(keys), sequence=screen.tv.sequence)
        elif refused:
            say("refused", keys=list(keys), message=refused)
            await self.until(lambda: screen.tv.sequence > before, "the stream to move on", self.args.timeout)

    def report(self, delivered: Delivered) -> None:
        screen = self.screen
        assert screen is not None and screen.tv.view is not None
        v, end = screen.tv.view, screen.tv.game_end
        say("over", sequence=screen.tv.sequence, events=delivered.events, snapshots=delivered.snapshots,
            timed_out=delivered.timed_out,
            hand=sorted(c.id for c in v.hand), scores=list(end.scores) if end else [p.score for p in v.players],
            pennies=[p.pennies for p in v.players], log=list(screen.tv.log), prompt=self.text("#prompt"))


async def main(args: argparse.Namespace) -> None:
    delivered = Delivered()
    home, style = Path(args.home), CardStyle(ascii=True, colour=False)
    if args.browse:
        launch = Launch("browse", name=args.name, tls_ca=args.tls_ca, style=style, home=home, data=home)
    else:
        launch = Launch("server", address=args.server, name=args.name, tls_ca=args.tls_ca, style=style, home=home)
    app = TenPenniesApp(launch)
    async with app.run_test(size=SIZE) as pilot:
        player = Player(app, pilot, args)
        if args.browse:
            await player.find()
        if not await player.trust():
            return
        await player.join()
        if args.stop_at == "lobby":
            return
        await player.play()
        player.report(delivered)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--server", metavar="HOST:PORT", help="open this server's lobby")
    where.add_argument("--browse", metavar="NAME", help="find the server of this name on the LAN (mDNS) and open it")
    parser.add_argument("--name", required=True)
    parser.add_argument("--home", required=True, help="TENPENNIES_HOME of this client (client.json)")
    parser.add_argument("--table", required=True)
    parser.add_argument("--tls-ca", metavar="FILE")
    parser.add_argument("--trust", choices=("y", "n"), default="n",
                        help="the answer when asked to trust a TLS server's certificate (its first connection)")
    parser.add_argument("--timeout", type=float, default=30, help="longest wait for any one thing")
    parser.add_argument("--hold-at", type=int, default=0, metavar="N",
                        help="leave the Nth decision unanswered (say holding) until the game moves on without it")
    parser.add_argument("--think", type=float, default=0, metavar="SECONDS",
                        help="wait this long before each answer, as a person would")
    parser.add_argument("--stop-at", choices=("lobby", "end"), default="end",
                        help="lobby: stop once the table is listed (discovery); end: play the game out")
    asyncio.run(main(parser.parse_args()))
    sys.exit(0)
