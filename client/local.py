"""The private game of ``tenpennies play --local``: a server on loopback inside the client's own process,
its games in a SQLite file under the user's data directory, and the one game this client plays there.

The server runs in the caller's asyncio loop (the Textual app's), so stopping the app stops it: nothing is
left behind. The local game (its table, seat, seat token and host token) is remembered in a JSON file
beside the database, so that the next start can offer to continue it.

The client's settings (``client.json``: the last server and name, and per server the seats and host
tokens it holds there, ``ServerMemory``) live in the user's config directory. Files that hold tokens
are written 0600.

``TENPENNIES_HOME``, when set, holds everything (data and the client's settings) instead of the user's
platform directories; tests use it.
"""

from __future__ import annotations

import fcntl
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from tenpennies.server.app import Options, Server
from tenpennies.v1 import tenpennies_pb2 as pb

from .connection import Connection, HostedTable, SeatSession, ServerError

HOME_VARIABLE = "TENPENNIES_HOME"
APP_NAME = "tenpennies"
DB_FILE = "local.db"
LOCK_FILE = "local.lock"
GAME_FILE = "local-game.json"
CONFIG_FILE = "client.json"
LOCAL_SEATS = 4
PLAYER_SEAT = LOCAL_SEATS - 1  # the bots sit first, the player in the last seat
LOCAL_BOT = "greedy"


def data_dir() -> Path:
    """Where local games are kept: $TENPENNIES_HOME, else the user's data directory (never the work tree)."""
    home = os.environ.get(HOME_VARIABLE)
    return Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME))


def config_dir() -> Path:
    """Where the client's settings (the last server and name) are kept: $TENPENNIES_HOME, else the user's
    config directory."""
    home = os.environ.get(HOME_VARIABLE)
    return Path(home) if home else Path(platformdirs.user_config_dir(APP_NAME))


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write through a temporary file and a rename, so that a crash leaves the old file or the new one.
    The file is the user's alone (0600): it may hold seat and host tokens, which are secrets."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        os.fchmod(out.fileno(), 0o600)  # a scratch file left by an older version may have had wider modes
        out.write(json.dumps(data, indent=1) + "\n")
    os.replace(scratch, path)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # missing or damaged: as if there were none
    return data if isinstance(data, dict) else None


# --- the client's remembered settings ---------------------------------------------------------------

@dataclass
class ClientConfig:
    """What ``tenpennies play`` remembers between runs: the last server it played on, and the name."""

    server: str | None = None
    name: str | None = None
    tls_ca: str | None = None

    @classmethod
    def load(cls, directory: Path | None = None) -> ClientConfig:
        data = _read_json((directory or config_dir()) / CONFIG_FILE) or {}
        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) and value else None
        return cls(text("server"), text("name"), text("tls_ca"))

    def save(self, directory: Path | None = None) -> None:
        """Write the settings, keeping what else the file holds (the seats remembered per server)."""
        path = (directory or config_dir()) / CONFIG_FILE
        _write_json(path, {**(_read_json(path) or {}), **asdict(self)})


SERVERS_KEY = "servers"


@dataclass
class ServerMemory:
    """What this client holds on one server, remembered in ``client.json`` across runs so that a player
    who quits can take the seat up again: per table, the seat and its token (``seats``) and the host's
    token of the tables it made (``hosted``). Kept under ``servers`` by address (host:port)."""

    address: str
    directory: Path
    seats: dict[str, tuple[int, str]] = field(default_factory=dict)
    hosted: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, address: str, directory: Path | None = None) -> ServerMemory:
        directory = directory or config_dir()
        memory = cls(address, directory)
        servers = (_read_json(directory / CONFIG_FILE) or {}).get(SERVERS_KEY)
        entry = servers.get(address) if isinstance(servers, dict) else None
        if not isinstance(entry, dict):
            return memory
        seats, hosted = entry.get("seats"), entry.get("hosted")
        for table_id, held in (seats.items() if isinstance(seats, dict) else ()):
            try:
                memory.seats[str(table_id)] = (int(held["seat"]), str(held["token"]))
            except (KeyError, TypeError, ValueError):
                continue  # damaged: as if it were not there
        for table_id, token in (hosted.items() if isinstance(hosted, dict) else ()):
            if isinstance(token, str) and token:
                memory.hosted[str(table_id)] = token
        return memory

    def save(self) -> None:
        """Write this server's entry (an empty one goes), keeping the rest of the file."""
        path = self.directory / CONFIG_FILE
        data = _read_json(path) or {}
        servers = data.get(SERVERS_KEY)
        servers = dict(servers) if isinstance(servers, dict) else {}
        if self.seats or self.hosted:
            servers[self.address] = {
                "seats": {table_id: {"seat": seat, "token": token}
                          for table_id, (seat, token) in self.seats.items()},
                "hosted": dict(self.hosted)}
        else:
            servers.pop(self.address, None)
        data[SERVERS_KEY] = servers
        _write_json(path, data)

    def tables(self) -> set[str]:
        return set(self.seats) | set(self.hosted)

    def forget(self, table_id: str) -> bool:
        """Forget the table altogether (gone, or finished); True if anything was held there."""
        held = self.seats.pop(table_id, None) is not None
        return (self.hosted.pop(table_id, None) is not None) or held


# --- the local game ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class LocalGame:
    """The game this client plays on its local server: enough to take the seat up again."""

    table_id: str
    seat: int
    token: str
    host_token: str

    @classmethod
    def load(cls, home: Path) -> LocalGame | None:
        data = _read_json(home / GAME_FILE)
        if data is None:
            return None
        try:
            return cls(str(data["table_id"]), int(data["seat"]), str(data["token"]), str(data["host_token"]))
        except (KeyError, TypeError, ValueError):
            return None

    def save(self, home: Path) -> None:
        _write_json(home / GAME_FILE, asdict(self))


@dataclass(frozen=True)
class Unfinished:
    """A remembered local game that is still being played: where it stands."""

    game: LocalGame
    round: int        # the round being played (TP-2.1's number)
    of: int           # how many rounds the table plays
    position: int     # which of them it is (1-based)

    @property
    def label(self) -> str:
        return f"round {self.position} of {self.of}"


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
        # A waiting table never expires here: only this client uses the server, and only while it runs.
        server = Server(Options(host="127.0.0.1", port=0, db=str(self.db), waiting_table_ttl=0))
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
        rounds = list(snapshot.table.rules.rounds) or list(range(1, 8))
        number = snapshot.game.round
        position = rounds.index(number) + 1 if number in rounds else number
        return Unfinished(game, number, len(rounds), position)

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

    async def new_game(self, name: str) -> tuple[SeatSession, HostedTable]:
        """A 4-seat table with three built-in bots and the player in the last seat, started: the game is in
        round 1 when this returns. No decision timer and no takeover: the player plays at their own pace."""
        assert self.connection is not None
        connection = self.connection
        hosted = await connection.create_table(f"{name}'s game", LOCAL_SEATS, pb.HouseRules(),
                                               decision_seconds=0, takeover_seconds=0)
        for seat in range(PLAYER_SEAT):
            await connection.add_bot(hosted.table_id, hosted.host_token, LOCAL_BOT, seat=seat)
        session = await connection.join(hosted.table_id, name, seat=PLAYER_SEAT)
        # Remembered before the start, so a game is never running that the next start cannot find.
        LocalGame(hosted.table_id, PLAYER_SEAT, session.token, hosted.host_token).save(self.home)
        info = await connection.start(hosted.table_id, hosted.host_token)
        return session, HostedTable(info, hosted.host_token)
