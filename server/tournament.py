"""Tournament mode: bots register under a name, hold a WaitForSeat stream open, and are seated as seats free
up; every game is an ordinary table the tournament hosts, played by the bots with their own token. The
scheduler and the standings live here, not in the table: a table plays one game by the rules, timers and
takeover as any other, and tells the lobby when it is over.

Who meets whom: whenever ``seats`` connected bots are idle (not at an unfinished game) and games remain,
the group that has met least (the sum of its pairs' meetings; then fewest games; then names) is seated. While
other games are being played, a group is seated only if no better one could be made from every connected
bot, busy or not: it waits for those games to end rather than repeat the same meetings.

Every change is stored before anyone hears of it: a registration before its token goes out, a game (its
table, seats and number) before any bot is told its seat, a result before the standings show it.

Where the games are played is a ``Games``: this process's lobby (``LobbyGames``), or, for ``serve --workers``,
the workers (``front.WorkerGames``: each game's table on the worker the front's placement picks, made, seated
and read through ``games_service`` on the worker's unix socket). The bookkeeping is the same either way.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import math
import secrets
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol

import grpc

from tenpennies.engine.games import DEFAULT_GAME, UnknownGame, kind
from tenpennies.engine.interface import RuleError, Rules
from tenpennies.engine.tournament import (
    MAX_SEED,
    TOURNAMENT_DECISION_SECONDS,
    GameResult,
    Standing,
    Standings,
    deal_seed,
    seated,
)
from tenpennies.wire.errors import BadRequest

from .lobby import Lobby
from .store import Store, StoreError, TournamentGameRow
from .table import (
    TOURNAMENT_CREATOR,
    Conflict,
    Full,
    PermissionDenied,
    Settings,
    Table,
    TableError,
    Unauthenticated,
    clean_name,
    hash_token,
)

log = logging.getLogger(__name__)

MAX_GAMES = 100_000
LINK_QUEUE = 64          # seatings a WaitForSeat stream may have waiting (a bot sits at one game at a time)
RETRY_SECONDS = 1.0      # before the scheduler tries again after the store or the lobby refused
SEARCH_LIMIT = 5000      # groups compared one by one; with more idle bots, the group is built greedily
CONFIG_KEYS = {"name", "game", "seats", "games", "rules", "decision_seconds", "takeover_seconds", "seed", "max_bots",
               "bots_per_address", "unclaimed_seconds"}


# --- the config ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TournamentConfig:
    """What ``serve --tournament CONFIG`` reads: a JSON file, or TOML if its name ends in .toml. ``game``:
    the game played, by its name in ``engine.games`` (no other spelling); ``rules`` are that game's, read by
    its ``Kind``."""

    name: str
    games: int
    rules: Rules
    seats: int = 4
    decision_seconds: int = TOURNAMENT_DECISION_SECONDS
    takeover_seconds: int = 10
    seed: int = 0
    max_bots: int = 256
    bots_per_address: int = 8    # bots one client address may have registered and not yet gone
    unclaimed_seconds: int = 60  # a bot that has played no game goes this long after its WaitForSeat closed
    #                              (or after registering, if it never opened one), then its name is free; 0: never
    game: str = DEFAULT_GAME

    @classmethod
    def load(cls, path: str | Path) -> TournamentConfig:
        """Read and check a config file; ValueError says what is wrong with it."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the tournament config {path}: {error}") from None
        try:
            data = tomllib.loads(text) if str(path).endswith(".toml") else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"{path}: not valid {'TOML' if str(path).endswith('.toml') else 'JSON'}: "
                             f"{error}") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a tournament config is a table of settings")
        try:
            return cls.from_dict(data)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        unknown = set(data) - CONFIG_KEYS
        if unknown:
            raise ValueError(f"no such tournament setting: {', '.join(sorted(unknown))} "
                             f"(known: {', '.join(sorted(CONFIG_KEYS))})")
        if "name" not in data or not isinstance(data["name"], str):
            raise ValueError("a tournament has a name (a string)")
        if "games" not in data:
            raise ValueError("say how many games to play in all (games)")
        numbers = {"games": (1, MAX_GAMES), "seats": (2, 8), "decision_seconds": (0, 86400),
                   "takeover_seconds": (0, 86400), "seed": (0, MAX_SEED), "max_bots": (2, 10_000),
                   "bots_per_address": (1, 10_000), "unclaimed_seconds": (0, 86400)}
        for key, (low, high) in numbers.items():
            value = data.get(key, low)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{key} is a whole number from {low} to {high}, not {value!r}")
        game = data.get("game", DEFAULT_GAME)
        if not isinstance(game, str):
            raise ValueError(f"game is a game's name (a string), not {game!r}")
        try:
            game_kind = kind(game)
        except UnknownGame as error:
            raise ValueError(str(error)) from None
        rules_data = data.get("rules", {})
        if not isinstance(rules_data, dict):
            raise ValueError("rules is a table of the game's house rules")
        try:
            rules = game_kind.rules_from_dict(rules_data)
            game_kind.validate(rules, data.get("seats", 4))
        except (RuleError, TypeError) as error:
            raise ValueError(f"rules: {error}") from None
        config = cls(name=clean_name(data["name"]), games=data["games"], rules=rules, game=game,
                     **{k: data[k] for k in ("seats", "decision_seconds", "takeover_seconds", "seed", "max_bots",
                                             "bots_per_address", "unclaimed_seconds") if k in data})
        if config.max_bots < config.seats:
            raise ValueError(f"max_bots ({config.max_bots}) is fewer than the seats of a game ({config.seats})")
        return config

    @property
    def tallies(self) -> tuple[str, ...]:
        """The game's own tallies the standings add up (``Kind.tournament_tallies``)."""
        return kind(self.game).tournament_tallies(self.rules)

    def game_seed(self, number: int) -> int:
        """The deal seed of game ``number`` (from 0), numbered as the headless tournament numbers them
        (``engine.tournament``): game ``number`` plays deal ``number // seats`` at rotation ``number % seats``.
        They are duplicate deals (a deal replayed with the seats rotated) when the scheduler seats the same
        bots in those games, as it does when as many bots as seats take part; with more bots it may seat
        another group on the next number, which then meets the deal as a fresh one. From the tournament's
        seed and the number alone, so that a tournament plays the same deals again given who sits where."""
        return deal_seed(self.seed, number // self.seats)

    def game_table(self, number: int) -> GameTable:
        """What game ``number``'s table is made with."""
        return GameTable(f"{self.name} #{number + 1}", self.game, self.seats, self.rules, self.decision_seconds,
                         self.takeover_seconds, self.game_seed(number), TOURNAMENT_CREATOR + self.name)


@dataclass(frozen=True)
class GameTable:
    """A tournament game's table as it is made: hosted by the server (it seats the bots), with the
    tournament's seed, timers and rules, made by ``TOURNAMENT_CREATOR`` and the tournament's name."""

    name: str
    game: str
    seats: int
    rules: Rules
    decision_seconds: int
    takeover_seconds: int
    seed: int
    creator: str

    def to_dict(self) -> dict[str, Any]:
        """As JSON takes it (the rules as the store keeps them), for a worker to make it (``games_service``)."""
        return {**{k: v for k, v in self.__dict__.items() if k != "rules"},
                "rules": kind(self.game).rules_to_dict(self.rules)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameTable:
        return cls(**{**data, "rules": kind(data["game"]).rules_from_dict(data["rules"])})


# --- results and standings ----------------------------------------------------------------------------

def game_result(table: Table) -> dict[str, Any]:
    """What a finished game counts for, by seat, as it is stored: the game's result (final scores, the
    winners, and under ``tallies`` the game's own, ``Result.tallies``: a seat's pennies and buys, or lives and
    tokens), the commands each seat sent that the rules refused, and the decisions the timer or the takeover
    bot made for it (both counted by the table while the server runs: a restart mid-game starts them again)."""
    result = table.game.result if table.game is not None else None
    assert result is not None, "a finished game has a result"
    return {"scores": list(result.scores), "winners": list(result.winners),
            "tallies": {name: list(tally) for name, tally in result.tallies.items()},
            "illegal": list(table.refused), "timed_out": list(table.defaulted)}


def stored_result(number: int, names: list[str], result: dict[str, Any],
                  tallies: Iterable[str] = ()) -> GameResult:
    """A stored result as the standings take it, with the game's own ``tallies`` (``TournamentConfig.tallies``):
    none of a tally the result does not have (results stored before buys, illegal and timed_out were
    counted)."""
    none = [0] * len(names)
    # a result stored before the tallies had a key of their own has them beside the scores
    stored = result.get("tallies", result)
    return GameResult(index=number, seats=tuple(names), scores=tuple(result["scores"]),
                      winners=tuple(result["winners"]), illegal=tuple(result.get("illegal", none)),
                      timeouts=tuple(result.get("timed_out", none)),
                      tallies={name: tuple(stored.get(name, none)) for name in tallies})


# --- where the games are played -------------------------------------------------------------------------

Ended = Callable[[str, dict[str, Any]], None]
"""Told of a tournament table's game that has ended: its table id and its result (``game_result``)."""


class GamesError(Exception):
    """The place the games are played could not do what was asked now (a worker away): tried again later."""


class Games(Protocol):
    """Where a tournament's games are played: their tables made, seated and started, and their ends told."""

    def follow(self, ended: Ended) -> None:
        """Tell ``ended`` of each tournament table whose game ends from now on (maybe more than once)."""

    async def open(self, table: GameTable, number: int) -> tuple[str, str]:
        """Make game ``number``'s table, waiting: its id and its host token."""

    async def set_up(self, table_id: str, host_token: str, players: list[tuple[str, str]]) -> None:
        """Seat ``players`` (name, the bot's token hash), by seat, where a seat is empty; start the game if it
        has not started."""

    async def state(self, table_id: str) -> tuple[str, dict[str, Any] | None]:
        """A table's status ("gone" for none) and, once finished, its game's result; from now on, its end is
        told to ``follow``'s ``ended``."""


class LobbyGames:
    """A tournament's games at this process's lobby: a one-process server's, or a worker's for the front
    (``games_service``)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def follow(self, ended: Ended) -> None:
        def changed(table: Table) -> None:
            if table.status == "finished" and table.game is not None and table.tournament:
                ended(table.id, game_result(table))
        self.lobby.listeners.append(changed)

    async def open(self, table: GameTable, number: int) -> tuple[str, str]:
        settings = Settings(decision_seconds=table.decision_seconds, takeover_seconds=table.takeover_seconds,
                            hosted=True)
        made, host_token = await self.lobby.create_hosted(table.name, table.seats, table.rules, settings, table.seed,
                                                          table.creator, game=table.game)
        return made.id, host_token

    async def set_up(self, table_id: str, host_token: str, players: list[tuple[str, str]]) -> None:
        table = await self.lobby.get(table_id)
        for seat, (name, token_hash) in enumerate(players):
            if table.seats[seat].kind == "empty":
                await table.join(name, seat, token_hash=token_hash)
        if table.status == "waiting":
            await table.start(host_token)

    async def state(self, table_id: str) -> tuple[str, dict[str, Any] | None]:
        try:
            table = await self.lobby.get(table_id)
        except (TableError, StoreError):
            return "gone", None
        if table.status != "finished":
            return table.status, None
        await table.ensure_loaded()
        return table.status, game_result(table)


GAMES_SERVICE = "tenpennies.worker.TournamentGames"
"""The front's way to a worker's ``LobbyGames`` (``serve --workers`` with a tournament): JSON over gRPC on the
worker's unix socket, refused anywhere else. Between two processes of one server, never a client's."""


def games_service(lobby: Lobby) -> grpc.GenericRpcHandler:
    """The worker's side of ``GAMES_SERVICE``: ``Open``, ``SetUp``, ``State``, each ``LobbyGames``' own."""
    games = LobbyGames(lobby)

    async def open_table(request: dict[str, Any]) -> dict[str, Any]:
        table_id, host_token = await games.open(GameTable.from_dict(request["table"]), request["number"])
        return {"table_id": table_id, "host_token": host_token}

    async def set_up(request: dict[str, Any]) -> dict[str, Any]:
        await games.set_up(request["table_id"], request["host_token"], [tuple(p) for p in request["players"]])
        return {}

    async def state(request: dict[str, Any]) -> dict[str, Any]:
        status, result = await games.state(request["table_id"])
        return {"status": status, "result": result}

    def handler(method: Callable[[dict[str, Any]], Any]) -> grpc.RpcMethodHandler:
        async def answer(request: dict[str, Any], context: Any) -> dict[str, Any] | None:
            if not str(context.peer()).startswith("unix:"):  # the front's socket alone
                context.set_code(grpc.StatusCode.PERMISSION_DENIED)
                context.set_details("this is between a server's own processes")
                return None
            try:
                response: dict[str, Any] = await method(request)
            except (TableError, StoreError, BadRequest, RuleError) as error:
                context.set_code(grpc.StatusCode.FAILED_PRECONDITION)
                context.set_details(str(error))
                return None
            return response
        return grpc.unary_unary_rpc_method_handler(answer, json.loads, lambda d: json.dumps(d).encode())
    return grpc.method_handlers_generic_handler(GAMES_SERVICE, {
        "Open": handler(open_table), "SetUp": handler(set_up), "State": handler(state)})


def still_running(table_id: str, tournament: str) -> str:
    """Why a tournament game's record is not given yet (as ``Table.record`` says it)."""
    return (f"table {table_id} is a game of the tournament {tournament!r}, still running: the tournament's seed "
            "deals its other games too, so its records are given once it is over")


# --- bots and their streams -------------------------------------------------------------------------

@dataclass(frozen=True)
class Seating:
    """A seat the tournament gives a bot: the bot plays it with its own token."""

    table_id: str
    seat: int
    game: int  # from 0


class LinkEnd(Enum):
    """Put in a link's queue, last, to end its WaitForSeat stream."""
    OVER = "the tournament is over"
    REPLACED = "another WaitForSeat stream with this bot's token took over"
    FELL_BEHIND = "this stream fell behind"


class Bot:
    __slots__ = ("name", "token_hash", "link", "address", "unclaimed", "away")

    def __init__(self, name: str, token_hash: str, address: str = "") -> None:
        self.name, self.token_hash, self.address = name, token_hash, address
        self.link: BotLink | None = None  # its open WaitForSeat stream: a bot without one is not seated
        self.unclaimed: asyncio.TimerHandle | None = None  # its registration's expiry, while it has no stream
        self.away = False  # gone for longer than unclaimed_seconds after playing: no longer in its address's share


class BotLink:
    """One WaitForSeat stream."""

    __slots__ = ("bot", "queue")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.queue: asyncio.Queue[Seating | LinkEnd] = asyncio.Queue(LINK_QUEUE)


@dataclass(frozen=True)
class StandingsReport:
    name: str
    game: str
    tallies: tuple[str, ...]
    records: list[Standing]
    games_played: int
    games_total: int
    games_playing: int


# --- the tournament ---------------------------------------------------------------------------------

def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


class Tournament:
    def __init__(self, config: TournamentConfig, games: Games, store: Store) -> None:
        self.config = config
        self.name = config.name
        self.tables = games  # where the games are played
        self.store = store
        self.bots: dict[str, Bot] = {}
        self._by_hash: dict[str, Bot] = {}
        self._registering: dict[str, str] = {}  # name -> the address registering it
        self.games: dict[int, TournamentGameRow] = {}  # by number
        self._playing: dict[str, int] = {}             # table id -> game number, for started unfinished games
        self._unready: set[int] = set()  # made but not yet started
        self._results: list[tuple[int, dict[str, Any]]] = []  # finished, not yet stored as a result
        self._recording: set[int] = set()
        self.finished = 0
        self.standings = Standings()
        self.meetings: dict[tuple[str, str], int] = {}
        self.seated_games: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()

    # --- start and stop ---

    async def load(self) -> None:
        """The bots, games and results stored so far (after the lobby, or the workers, have read their tables)."""
        bots, games = await self.store.load_tournament(self.name)
        for name, (token_hash, address) in bots.items():
            self._add_bot(Bot(name, token_hash, address))
        for row in sorted((g for g in games if g.finished is not None), key=lambda g: g.finished or 0):
            assert row.result is not None
            self.standings.add(stored_result(row.game, row.names, row.result, self.config.tallies))
        self.finished = sum(1 for g in games if g.result is not None)
        for row in games:
            self.games[row.game] = row
            self._met(row.names)
        self.tables.follow(self._table_changed)
        for row in [g for g in games if g.result is None]:
            await self._resume_game(row)
        for bot in self.bots.values():  # none has a stream yet
            self._unclaimed(bot)

    async def _resume_game(self, row: TournamentGameRow) -> None:
        """After a restart: a game being played goes on; one that finished meanwhile is counted; one whose
        table never started (or is gone) is set up again or forgotten."""
        status, result = await self.tables.state(row.table_id)
        if status in ("gone", "expired") or (status == "waiting" and not row.host_token):
            log.warning("tournament %s: game %d never got going; it is played again", self.name, row.game + 1)
            await self.store.drop_tournament_game(self.name, row.game)
            del self.games[row.game]
            self._met(row.names, -1)
            return
        if status == "waiting":
            self._unready.add(row.game)
        elif status == "playing":
            self._playing[row.table_id] = row.game
        else:  # finished while the server was down, or before its result was stored
            assert result is not None
            self._playing[row.table_id] = row.game
            self._table_changed(row.table_id, result)

    def start(self) -> None:
        self._spawn(self._run())
        self._wake.set()

    async def close(self) -> None:
        """Stop making games (the server is stopping: its streams end with it, and bots come back)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- what bots ask ---

    @property
    def over(self) -> bool:
        return self.finished >= self.config.games

    def withholds(self, table_id: str) -> bool:
        """Whether the table is a game of this tournament while it runs: its record is given once the
        tournament is over (``still_running``)."""
        return not self.over and any(row.table_id == table_id for row in self.games.values())

    def summary(self) -> str:
        """What the server says of it as it starts."""
        report = self.report()
        return (f"tournament {report.name!r}: {len(report.records)} bot(s) registered, "
                f"{report.games_played} of {report.games_total} games played")

    async def register(self, name: str, token: str, address: str = "") -> str:
        """A new bot's token; or, with the token a name was given, that name taken up again. ``address``: the
        registering client's, which may have at most ``bots_per_address`` bots that have not gone away."""
        name = clean_name(name)
        bot = self.bots.get(name)
        if bot is not None:
            if token and hmac.compare_digest(bot.token_hash, hash_token(token)):
                return token
            raise Conflict(f"the name {name!r} is taken in this tournament: give its bot_token to take it up "
                           "again, or choose another name")
        if token:
            raise PermissionDenied(f"no bot named {name!r} is registered: register without a bot_token")
        if self.over:
            raise Conflict(f"the tournament {self.name!r} is over")
        if name in self._registering:
            raise Conflict(f"the name {name!r} is being registered by someone else: choose another name")
        if len(self.bots) + len(self._registering) >= self.config.max_bots:
            raise Full(f"the tournament {self.name!r} already has {self.config.max_bots} bots")
        mine = sum(1 for bot in self.bots.values() if bot.address == address and not bot.away) + \
            sum(1 for a in self._registering.values() if a == address)
        if address and mine >= self.config.bots_per_address:
            raise Full(f"you already have {mine} bots in the tournament {self.name!r} (at most "
                       f"{self.config.bots_per_address} from one address): a bot that has played no game and "
                       f"waits for no seat frees its place after {self.config.unclaimed_seconds} s")
        self._registering[name] = address
        token = secrets.token_urlsafe(24)
        # once begun, the registration finishes (stored and known) whatever happens to the request
        return await asyncio.shield(self._spawn(self._register(name, token, address)))

    async def _register(self, name: str, token: str, address: str) -> str:
        try:
            await self.store.add_tournament_bot(self.name, name, hash_token(token), address)
            bot = self._add_bot(Bot(name, hash_token(token), address))
            self._unclaimed(bot)
        finally:
            self._registering.pop(name, None)
        self._wake.set()
        return token

    def _unclaimed(self, bot: Bot) -> None:
        """A bot with no WaitForSeat open goes away after a while: its registration, if it has played no game;
        else its place in its address's share (it stays in the standings, and may come back)."""
        if bot.unclaimed is not None:
            bot.unclaimed.cancel()
            bot.unclaimed = None
        if self.config.unclaimed_seconds:
            bot.unclaimed = asyncio.get_running_loop().call_later(
                self.config.unclaimed_seconds, lambda: self._spawn(self._forget(bot)))

    async def _forget(self, bot: Bot) -> None:
        bot.unclaimed = None
        if self.bots.get(bot.name) is not bot or bot.link is not None:
            return
        if self.seated_games.get(bot.name):
            bot.away = bot.name not in self._busy()  # (one at a game being played is not away yet)
            if not bot.away:
                self._unclaimed(bot)
            return
        await self.store.drop_tournament_bot(self.name, bot.name)
        if self.bots.get(bot.name) is bot and bot.link is None and not self.seated_games.get(bot.name):
            del self.bots[bot.name]
            self._by_hash.pop(bot.token_hash, None)
            self.standings.table.pop(bot.name, None)
            self.seated_games.pop(bot.name, None)

    def _add_bot(self, bot: Bot) -> Bot:
        self.bots[bot.name] = bot
        self._by_hash[bot.token_hash] = bot
        self.standings.enter(bot.name)
        self.seated_games.setdefault(bot.name, 0)
        return bot

    def connect(self, token: str) -> tuple[list[Seating], BotLink]:
        """Open a bot's WaitForSeat stream: the seats of its games being played, and the link that will
        carry each new one. A stream the bot had open before ends (the latest one wins)."""
        if not token:
            raise Unauthenticated("this needs the bot's token, given by RegisterBot")
        bot = self._by_hash.get(hash_token(token))
        if bot is None:
            raise PermissionDenied("that token is no bot's in this tournament")
        if bot.link is not None:
            self._end(bot.link, LinkEnd.REPLACED)
        link = BotLink(bot)
        bot.link = link
        bot.away = False
        if bot.unclaimed is not None:
            bot.unclaimed.cancel()
            bot.unclaimed = None
        current = [self._seating(row, bot.name) for row in self.games.values()
                   if row.result is None and row.table_id in self._playing and bot.name in row.names]
        if self.over:
            self._end(link, LinkEnd.OVER)
        self._wake.set()
        return current, link

    def disconnect(self, link: BotLink) -> None:
        """A WaitForSeat stream ended, however it ended: the bot is no longer seated."""
        if link.bot.link is link:
            link.bot.link = None
            self._unclaimed(link.bot)
            self._wake.set()

    def report(self) -> StandingsReport:
        return StandingsReport(self.name, self.config.game, self.config.tallies, self.standings.ranked(), self.finished,
                               self.config.games,
                               len(self._playing) + len(self._unready))

    # --- the scheduler ---

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._record_results()
                await self._set_up_unready()
                await self._seat_idle_bots()
            except (StoreError, TableError, BadRequest, RuleError, GamesError) as error:
                log.warning("tournament %s: %s; trying again in %s s", self.name, error, RETRY_SECONDS)
                self._wake_later()
            except Exception:
                log.exception("tournament %s: the scheduler failed; trying again", self.name)
                self._wake_later()

    def _wake_later(self) -> None:
        asyncio.get_running_loop().call_later(RETRY_SECONDS, self._wake.set)

    def _table_changed(self, table_id: str, result: dict[str, Any]) -> None:
        """A tournament table's game has ended (``Games.follow``): note it if it is one of ours being played."""
        number = self._playing.get(table_id)
        if number is None or number in self._recording:
            return
        self._recording.add(number)
        self._results.append((number, result))
        self._wake.set()

    async def _record_results(self) -> None:
        while self._results:
            number, result = self._results[0]
            row = self.games[number]
            await self.store.finish_tournament_game(self.name, number, result, self.finished)
            self._results.pop(0)
            self._recording.discard(number)
            row.result, row.finished, row.host_token = result, self.finished, ""
            self.finished += 1
            self._playing.pop(row.table_id, None)
            self.standings.add(stored_result(number, row.names, result, self.config.tallies))
            log.info("tournament %s: game %d over (%d of %d)", self.name, number + 1, self.finished,
                     self.config.games)
        if self.over:
            for bot in self.bots.values():
                if bot.link is not None:
                    self._end(bot.link, LinkEnd.OVER)

    def _busy(self) -> set[str]:
        """The bots at an unfinished game (one being played, or made and not yet started)."""
        return {name for number in [*self._playing.values(), *self._unready] for name in self.games[number].names}

    async def _seat_idle_bots(self) -> None:
        while len(self.games) < self.config.games:
            busy = self._busy()
            connected = [b.name for b in self.bots.values() if b.link is not None]
            idle = sorted(name for name in connected if name not in busy)
            seats = self.config.seats
            if len(idle) < seats:
                return
            group = self.best_group(idle, seats)
            if len(self.games) > self.finished and \
                    self._pair_sum(group) > self._pair_sum(self.best_group(sorted(connected), seats)):
                return  # better meetings come when the games being played end: wait for them
            await self._open_game(next(n for n in range(self.config.games) if n not in self.games), group)

    def _pair_sum(self, group: Iterable[str]) -> int:
        return sum(self.meetings.get(_pair(a, b), 0) for a, b in combinations(group, 2))

    def best_group(self, pool: list[str], size: int) -> list[str]:
        """The ``size`` bots of ``pool`` (sorted) that have met least: the sum of their pairs' meetings,
        then their games, then their names. Every group is compared while there are few; beyond that the
        group is built greedily, from the bot with fewest games."""
        seats_by_address: dict[str, int] = {}
        for name, games in self.seated_games.items():
            bot = self.bots.get(name)
            if bot is not None:
                seats_by_address[bot.address] = seats_by_address.get(bot.address, 0) + games

        def key(group: tuple[str, ...]) -> tuple[int, int, int, tuple[str, ...]]:
            # met least; then the addresses that have had fewest seats (one client's many bots do not crowd out
            # another's); then the bots with fewest games; then names
            addresses = [self.bots[n].address if n in self.bots else "" for n in group]
            return (self._pair_sum(group), sum(seats_by_address.get(a, 0) for a in addresses),
                    sum(self.seated_games.get(n, 0) for n in group), group)
        if math.comb(len(pool), size) <= SEARCH_LIMIT:
            return list(min(key(group) for group in combinations(pool, size))[-1])
        group = [min(pool, key=lambda n: (self.seated_games.get(n, 0), n))]
        while len(group) < size:
            group.append(min((n for n in pool if n not in group), key=lambda n: (
                sum(self.meetings.get(_pair(n, m), 0) for m in group), self.seated_games.get(n, 0), n)))
        return sorted(group)

    def _met(self, names: list[str], count: int = 1) -> None:
        for a, b in combinations(names, 2):
            self.meetings[_pair(a, b)] = self.meetings.get(_pair(a, b), 0) + count
        for name in names:
            self.seated_games[name] = self.seated_games.get(name, 0) + count

    async def _open_game(self, number: int, group: list[str]) -> None:
        """Make game ``number``'s table, store the game, then seat the bots and start it."""
        names = list(seated(group, number % len(group)))  # the seats rotate from game to game (duplicate deals)
        table_id, host_token = await self.tables.open(self.config.game_table(number), number)
        row = TournamentGameRow(number, table_id, names, host_token=host_token)
        await self.store.add_tournament_game(self.name, row)
        self.games[number] = row
        self._met(names)
        self._unready.add(number)
        await self._set_up(row)

    async def _set_up_unready(self) -> None:
        for number in sorted(self._unready):
            await self._set_up(self.games[number])

    async def _set_up(self, row: TournamentGameRow) -> None:
        """Seat the bots of a stored game at its table and start it (whatever of that is left to do), then
        tell each bot its seat."""
        await self.tables.set_up(row.table_id, row.host_token,
                                 [(name, self.bots[name].token_hash) for name in row.names])
        self._unready.discard(row.game)
        self._playing[row.table_id] = row.game
        for name in row.names:
            link = self.bots[name].link
            if link is not None:
                self._send(link, self._seating(row, name))

    def _seating(self, row: TournamentGameRow, name: str) -> Seating:
        return Seating(row.table_id, row.names.index(name), row.game)

    def _send(self, link: BotLink, seating: Seating) -> None:
        try:
            link.queue.put_nowait(seating)
        except asyncio.QueueFull:  # it reconnects, and gets the seats of its games being played again
            self._end(link, LinkEnd.FELL_BEHIND)

    def _end(self, link: BotLink, why: LinkEnd) -> None:
        """End a link's stream: what it had queued is dropped, the end goes last; the bot is unseated."""
        while not link.queue.empty():
            link.queue.get_nowait()
        link.queue.put_nowait(why)
        if link.bot.link is link:
            link.bot.link = None

