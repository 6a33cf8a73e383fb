"""The private game of ``tenpennies play --local``: a server on loopback inside the client's own process,
its games in a SQLite file under the user's data directory, and the one game this client plays there.

The server runs in the caller's asyncio loop (the Textual app's), so stopping the app stops it: nothing is
left behind. The local game (its table, seat, seat token and host token) is remembered in a JSON file
beside the database (``settings.LocalGame``), so that the next start can offer to continue it.

This is the one module of the client that imports the server: to run the local game, to run a server for
``tenpennies serve`` (``serve``), and to read stored games back (``tenpennies replay``, the history, the
replay viewer).
"""

from __future__ import annotations

import asyncio
import fcntl
import os
from pathlib import Path

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.server.app import Options, Server
from tenpennies.server.front import serve
from tenpennies.server.store import NoSuchGame, PlayedGame, Store, StoredGame, played_games
from tenpennies.server.table import Settings
from tenpennies.server.workers import read_game
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.games import wire

from .connection import Connection, HostedTable, SeatSession, ServerError
from .games import client_game
from .settings import LocalGame, Unfinished

DB_FILE = "local.db"
LOCK_FILE = "local.lock"
LOCAL_SEATS = 4
PLAYER_SEAT = LOCAL_SEATS - 1  # the bots sit first, the player in the last seat
LOCAL_CLIENT = "ipv4:127.0.0.1"  # who makes the local game, as the server names a client on loopback

__all__ = ["LocalServer", "NoSuchGame", "Options", "PlayedGame", "StoredGame", "played_games", "read_game", "serve"]


class LocalServer:
    """The loopback server of ``--local``, inside the running asyncio loop. ``start`` it, use
    ``connection``, ``stop`` it: after ``stop`` its port refuses connections."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.server: Server | None = None
        self.connection: Connection | None = None
        self.lock: int | None = None

    @property
    def db(self) -> Path:
        return self.home / DB_FILE

    @property
    def port(self) -> int:
        return self.server.port if self.server else 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> Connection:
        """Start the server (RuntimeError when another local game runs from the same directory)."""
        self.home.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        # Opening the store waits on the disk (a new file's tables are written in commits: some ms, more on a
        # busy disk): in a thread, so that the app's loop goes on (it draws), and handed to the server.
        opening = asyncio.ensure_future(asyncio.to_thread(Store, str(self.db)))
        try:
            store = await asyncio.shield(opening)
        except asyncio.CancelledError:
            # the thread opens it all the same: closed once it is open, and only then the directory let go
            opening.add_done_callback(self._close_opened)
            raise
        except BaseException:
            self._drop_lock()
            raise
        try:
            # A waiting table never expires here: only this client uses the server, and only while it runs.
            server = Server(Options(host="127.0.0.1", port=0, db=str(self.db), waiting_table_ttl=0), store)
        except BaseException:
            store.close()
            self._drop_lock()
            raise
        try:
            await server.start()
        except BaseException:
            await server.stop(0)
            self._drop_lock()
            raise
        self.server = server
        self.connection = Connection(self.address)
        return self.connection

    async def stop(self) -> None:
        """Close the client's channel, then the server (its streams end at once) and its store."""
        connection, server = self.connection, self.server
        self.connection = self.server = None
        if connection is not None:
            await connection.close()
        if server is not None:
            await server.stop(0)
        self._drop_lock()

    def _close_opened(self, opening: asyncio.Future[Store]) -> None:
        """A store opened for a start that was given up: closed, and the directory let go."""
        try:
            if not opening.cancelled() and opening.exception() is None:
                opening.result().close()
        finally:
            self._drop_lock()

    def _take_lock(self) -> None:
        """One local game at a time per directory: two servers on one SQLite file would each think the
        games theirs. The lock goes with the process, however it ends."""
        fd = os.open(self.home / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RuntimeError(f"another local game is running from {self.home}") from None
        self.lock = fd

    def _drop_lock(self) -> None:
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    # --- the game ---

    async def unfinished(self) -> Unfinished | None:
        """The remembered game if it is still being played; None when there is none, it is finished, or
        the server no longer knows it (then a new game is in order)."""
        assert self.connection is not None
        game = LocalGame.load(self.home)
        if game is None:
            return None
        try:
            snapshot = await self.connection.seat(game.table_id, game.seat, game.token).snapshot()
        except ServerError:
            return None
        if snapshot.table.status == pb.TABLE_STATUS_WAITING:
            # Stopped between seating everyone and the start: every seat is filled, so start it now.
            try:
                await self.connection.start(game.table_id, game.host_token)
                snapshot = await self.connection.seat(game.table_id, game.seat, game.token).snapshot()
            except ServerError:
                return None
        if snapshot.table.status != pb.TABLE_STATUS_PLAYING or not snapshot.HasField("game"):
            return None
        entry = client_game(snapshot.table.game)
        if entry.unfinished is None:
            return Unfinished(game, 0, 0, 0, entry.title)
        number, of, position, where = entry.unfinished(snapshot)
        return Unfinished(game, number, of, position, where)

    def resume(self, game: LocalGame) -> SeatSession:
        """The remembered seat, taken up again."""
        assert self.connection is not None
        return self.connection.seat(game.table_id, game.seat, game.token)

    async def abandon(self, game: LocalGame) -> None:
        """Leave a game for a new one: the seat goes to a bot, which plays the old game out in the
        background rather than leave it waiting in the store for ever."""
        assert self.connection is not None
        try:
            await self.connection.seat(game.table_id, game.seat, game.token).leave()
        except ServerError:
            pass  # gone already: nothing to leave

    async def new_game(self, name: str, game: str = DEFAULT_GAME, rules: pb.HouseRules | None = None, *,
                       practice: bool = False) -> tuple[SeatSession, HostedTable]:
        """A 4-seat table of ``game`` (its ``rules``; None: the game's defaults) with three built-in bots (the
        game's own default bot) and the player in the last seat, started: the game is dealt when this
        returns. No decision timer and no takeover: the player plays at their own pace. ``practice``: a practice
        table (remembered, so that the client shows hints as the player goes)."""
        assert self.connection is not None and self.server is not None
        what = "practice game" if practice else "game"
        # Made in-process, with the lobby's own calls (the servicer's CreateTable, JoinTable, AddBot and
        # StartGame make the same from protobuf): over loopback gRPC, six round trips were three quarters of
        # a new game's time and a tenth of the local game's start. A refusal reads as the server's would.
        lobby = self.server.lobby
        table_rules = wire(game).rules_from_pb(rules or pb.HouseRules())
        table, host_token = await lobby.create(f"{name}'s {what}", LOCAL_SEATS, table_rules,
                                               Settings(decision_seconds=0, takeover_seconds=0), None, LOCAL_CLIENT,
                                               game=game)
        # the seats at once (each names its seat): the table takes them in turn
        joined = asyncio.ensure_future(table.join(name, PLAYER_SEAT))
        await asyncio.gather(joined, *(table.add_bot(host_token, seat, kind(game).takeover)
                                       for seat in range(PLAYER_SEAT)))
        _, token = joined.result()
        # Remembered before the start, so a game is never running that the next start cannot find.
        LocalGame(table.id, PLAYER_SEAT, token, host_token, practice).save(self.home)
        await table.start(host_token)
        return self.connection.seat(table.id, PLAYER_SEAT, token), HostedTable(table.info(), host_token)
