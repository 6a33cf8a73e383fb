"""What the client keeps between runs: ``client.json`` (the last server and name, and per server the seats and
host tokens it holds there, ``ServerMemory``) in the user's config directory, and the local game this client
plays (``LocalGame``) beside the local server's database. Files that hold tokens are written 0600.

``TENPENNIES_HOME``, when set, holds everything (data and the client's settings) instead of the user's
platform directories; tests use it.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.wire.common import config_dir

GAME_FILE = "local-game.json"
CONFIG_FILE = "client.json"


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


TABLE_KEY = "table"
AUTO_PASS = ("never", "unfit")  # remembered auto-pass modes ("for this round" is the table's, for one round)
OFFER_PAUSE = 0.6  # seconds a new buy offer ignores keys, by default
# how the other seats' turns come on the screen: the seconds before each (instant: as they come)
PACES = {"instant": 0.0, "normal": 0.5, "slow": 1.2}


@dataclass
class TablePrefs:
    """How the table screen behaves for this player, remembered in ``client.json`` under ``table``:
    ``bell`` rings the terminal's bell at a new decision; ``offer_pause`` is how long (seconds) a new buy
    offer ignores keys, so that a key meant for the offer before is not taken for it; ``auto_pass`` passes
    buy offers by itself: ``never``, or ``unfit`` (only a card that fits nothing in the hand);
    ``guide_seen``: Ten Pennies' first-game guide was shown (help reopens it), and ``guides_seen`` the other
    games' whose guide was (by their engine name: ``seen_guide``); ``pace``: how the other seats' turns come on
    the screen (``PACES``: instant, or a moment before each, so that bots' turns are seen one by one)."""

    bell: bool = True
    offer_pause: float = OFFER_PAUSE
    auto_pass: str = "never"
    guide_seen: bool = False
    pace: str = "instant"
    guides_seen: list[str] = field(default_factory=list)

    def seen_guide(self, game: str) -> bool:
        """Whether the first-game guide of ``game`` (its engine name; "" the default game) was shown."""
        return self.guide_seen if game in ("", DEFAULT_GAME) else game in self.guides_seen

    def saw_guide(self, game: str) -> None:
        """The guide of ``game`` was shown (remembered once saved)."""
        if game in ("", DEFAULT_GAME):
            self.guide_seen = True
        elif game not in self.guides_seen:
            self.guides_seen.append(game)

    @classmethod
    def load(cls, directory: Path | None = None) -> TablePrefs:
        data = (_read_json((directory or config_dir()) / CONFIG_FILE) or {}).get(TABLE_KEY)
        prefs = cls()
        if not isinstance(data, dict):
            return prefs
        if isinstance(data.get("bell"), bool):
            prefs.bell = data["bell"]
        pause = data.get("offer_pause")
        if isinstance(pause, (int, float)) and not isinstance(pause, bool) and 0 <= pause <= 5:
            prefs.offer_pause = float(pause)
        if data.get("auto_pass") in AUTO_PASS:
            prefs.auto_pass = data["auto_pass"]
        if isinstance(data.get("guide_seen"), bool):
            prefs.guide_seen = data["guide_seen"]
        if data.get("pace") in PACES:
            prefs.pace = data["pace"]
        seen = data.get("guides_seen")
        if isinstance(seen, list):
            prefs.guides_seen = [game for game in seen if isinstance(game, str)]
        return prefs

    def save(self, directory: Path | None = None) -> None:
        """Write these settings, keeping the rest of the file."""
        path = (directory or config_dir()) / CONFIG_FILE
        _write_json(path, {**(_read_json(path) or {}), TABLE_KEY: asdict(self)})


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
    practice: bool = False  # a practice table: hints shown as the player goes

    @classmethod
    def load(cls, home: Path) -> LocalGame | None:
        data = _read_json(home / GAME_FILE)
        if data is None:
            return None
        try:
            return cls(str(data["table_id"]), int(data["seat"]), str(data["token"]), str(data["host_token"]),
                       data.get("practice") is True)
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
    where: str = ""   # a game without rounds: where it stands in its own words ("Thirty-One, deal 3")

    @property
    def label(self) -> str:
        return self.where or f"round {self.position} of {self.of}"


