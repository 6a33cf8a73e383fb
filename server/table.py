"""A table: one game, its seats and its subscribers, changed one step at a time.

Every change (a join, a command, a timer, a bot's move) runs in the table's turn (``Turn``), so commands
are applied one at a time in the order they came. Once begun a change finishes (stored, fanned out, the
next decision scheduled) whatever happens to the request that asked for it, so a client deadline of a
millisecond cannot leave a change half made: most changes run in a task of their own; a command, the
common change, is made at once in its requester's call up to handing it to the store (nothing in that part
waits), and the store's commit finishes it (``Table._finish``) and passes the turn on, with no task. A
change is written to the store before its events go out; if the store refuses it, the table is rebuilt
from the store, as if the change had never been asked for. Fan-out never waits: each subscriber has a
bounded queue, and one that falls too far behind is dropped and resumes later from its last sequence
number. What a change's subscribers get is framed once per audience from the events' stored bytes
(``wire.frames``): every stream of an audience is handed the same bytes, written as they are.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
import unicodedata
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from tenpennies.engine import games
from tenpennies.engine import seats as seat_loop
from tenpennies.engine.interface import Bot, Command, Event, Kind, RuleError
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.frames import event_batch
from tenpennies.wire.games import WireGame, wire
from tenpennies.wire.record import GameRecord
from tenpennies.wire.words import DECISION_SECONDS, SEAT_KINDS, TABLE_STATUSES, TAKEOVER_SECONDS

from .handlers import aside
from .store import EventRow, SeatRow, Store, StoreError, TableRow

SUBSCRIBER_QUEUE = 1024   # batches of events a subscriber may have waiting before it is dropped
RECENT_EVENTS = 512       # events kept in memory for resuming subscribers; older ones come from the store
RECENT_BYTES = 32 << 10   # and at most this many bytes of them (kept as stored: serialized)
HISTORY_PAGE = 256        # events read from the store at a time for a resuming subscriber
MAX_SPECTATORS = 200      # spectator streams a table serves at once; seats always get theirs
STREAMS_PER_SEAT = 4      # streams one seat's token may hold open at once
STATE_EVERY = 64          # commands between stored game states (a restart replays at most this many)
RETRY_SECONDS = 1.0       # before a bot tries again a move the store refused
TOURNAMENT_CREATOR = "tournament:"  # the creator of a tournament's table: this, then the tournament's name
MAX_NAME = 40
MAX_CHAT = 500
MAX_PASSWORD = 128
SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # the standard library's scrypt at the usual interactive cost (16 MiB)
WRONG_PASSWORD = "wrong password for this private table"
# A guess at a private table's password costs a slow hash, paid by whoever guesses (``PasswordChecks``): the
# server hashes one password at a time, taking the clients (connections) waiting in turn, each from its own
# queue; a client has at most a few checks under way or waiting, and a wrong guess keeps one of them taken for
# a pause after it (its answer comes after the pause too). A check whose request is cut short still holds its
# client's place until its hash is done: giving up on a guess gains nothing.
WRONG_PASSWORD_PAUSE = 0.5  # seconds
PASSWORD_QUEUE = 4          # checks of one client (connection) under way, waiting, or pausing after a wrong guess
PASSWORD_CHECKS = 256       # checks of all clients together
PASSWORD_HASHERS = 1        # hashes being computed at once, server-wide (each takes ~0.1 s of a core and 16 MiB)


T = TypeVar("T")
log = logging.getLogger(__name__)
LOBBY_BEHIND = 0.5  # seconds the lobby's entry of a busy table may lag behind the table's own sequence
DECISIONS_KEPT = 8  # a seat's newest decisions kept in memory, to tell its late answers at once
COMMAND_CACHE = 16384  # commands kept in their wire form (a DecisionRequest copies them)
_COMMANDS: dict[Command, pb.Command] = {}
Item = tuple[int | None, pb.Event]  # (audience seat or None for everybody, event)


class TableError(Exception):
    """A request the table refuses; the servicer maps each kind to a status code."""


class NotFound(TableError):
    pass


class Unauthenticated(TableError):
    pass


class PermissionDenied(TableError):
    pass


class Conflict(TableError):
    """The table's state does not allow it now (FAILED_PRECONDITION)."""


class Full(TableError):
    """A limit of the server's is reached (RESOURCE_EXHAUSTED)."""


class Stale(TableError):
    """An answer to a decision that is no longer open (ABORTED): it lost a race, it broke no rule.
    ``open``: the sequence of the decision the seat faces now (0: none)."""

    def __init__(self, named: int, open_now: int) -> None:
        now = f"decision {open_now} is open now" if open_now else "no decision of this seat's is open now"
        super().__init__(f"that answer came too late: decision {named} is no longer open ({now}); "
                         "nothing changed")
        self.open = open_now


class PastTheEnd(TableError):
    """A resume from a sequence the table has not reached (OUT_OF_RANGE)."""


class NotThisSeats(Conflict):
    """A named decision that was never this seat's (another seat's, or no decision at all): refused as a
    command out of turn is (FAILED_PRECONDITION), and counted as illegal like one."""

    def __init__(self, named: int, open_now: int) -> None:
        now = f"decision {open_now} is open now" if open_now else "no decision of this seat's is open now"
        super().__init__(f"decision {named} was never this seat's: name the sequence of a DecisionRequest sent to "
                         f"this seat ({now}); nothing changed")
        self.open = open_now


class DecisionRequired(BadRequest):
    """A command that names no decision where the seat has a numbered one open (a Play stream, a tournament's
    table): the question could have changed under it, so it is not guessed at (INVALID_ARGUMENT)."""

    def __init__(self, open_now: int) -> None:
        super().__init__(f"decision: name the decision this command answers (decision {open_now} is open now; "
                         "commands on a Play stream and at a tournament's table must name it); nothing changed")
        self.open = open_now


class Unavailable(TableError):
    """The change could not be stored; nothing changed, and asking again may work (UNAVAILABLE)."""


NOT_STORED = "the server could not store that change, so nothing changed: try again"


def empty_seats(seats: list[int]) -> str:
    """Why a table cannot start, in words: its empty seats numbered as the clients show them (from 0, as
    on the wire), ``seat 3 is empty`` or ``2 seats are empty (seats 2 and 3)``."""
    if len(seats) == 1:
        return f"seat {seats[0]} is empty: fill it with a player or a bot first"
    numbers = ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
    return f"{len(seats)} seats are empty (seats {numbers}): fill them with players or bots first"


class StreamEnd(Enum):
    """Put in a subscriber's queue, last, to end its stream."""
    FELL_BEHIND = "fell behind"   # it resumes from the last sequence number it received
    SEAT_LEFT = "seat left"       # the seat is no longer the subscriber's
    CLOSED = "closed"             # the host closed the waiting table


@dataclass
class Settings:
    """How the server runs a table; stored with it. ``seeded``: the creator chose the seed.
    ``host_token_hash``: the SHA-256 of the host's token (the creator's). ``hosted``: the server itself
    seats the players (a tournament's table): nobody joins it from outside. ``password_hash``: a private
    table's password, salted and hashed (``hash_password``); empty for a table anyone may join."""

    decision_seconds: int = DECISION_SECONDS
    takeover_seconds: int = TAKEOVER_SECONDS
    seeded: bool = False
    host_token_hash: str = ""
    hosted: bool = False
    password_hash: str = ""

    async def lock(self, password: str, checks: PasswordChecks | None = None, client: str = "") -> None:
        """Make the table private: only the password's salted hash is kept (made in a thread, slow on purpose,
        in ``client``'s turn among the server's password ``checks``)."""
        self.password_hash = await (checks or PasswordChecks()).run(client, hash_password, password)

    def validate(self) -> None:
        for name in ("decision_seconds", "takeover_seconds"):
            value = getattr(self, name)
            if not 0 <= value <= 24 * 3600:
                raise BadRequest(f"{name} must be 0 to 86400")


@dataclass
class Bookkeeping:
    """The server's own knowledge of a table, kept aside while a change runs (see Table._rebuild)."""

    seats: list[tuple[str, bool, tuple[Command, ...]]]  # token hash, taken over, the timer's moves to come
    asked: dict[int, tuple[Command, ...]]
    last_asked: dict[int, tuple[Command, ...]]
    deadlines: dict[int, int]
    defaulted: list[int]
    decision_at: dict[int, int]


class Turn:
    """The table's lock: one change at a time, in the order they asked. ``take_now`` takes it at once if it is
    free and nobody waits (a command's common case: no wait, no task); whoever finishes a change releases it
    (a commit's callback, not only the task that took it), handing it to the next in line."""

    __slots__ = ("held", "_waiting")

    def __init__(self) -> None:
        self.held = False
        self._waiting: deque[asyncio.Future[None]] = deque()

    def take_now(self) -> bool:
        if self.held or self._waiting:
            return False
        self.held = True
        return True

    async def take(self) -> None:
        if self.take_now():
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed the turn as it was cancelled: pass it on
                self.release()
            raise

    def release(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():  # (one whose waiter gave up is skipped)
                turn.set_result(None)  # held all along: handed over
                return
        self.held = False


@dataclass
class Change:
    """A change handed to the store: its events as published once stored (``rows``: as stored) and the store's
    answer (``stored``: a future, StoreError if it was refused)."""

    items: list[Item]
    rows: list[EventRow]
    stored: asyncio.Future[None]
    seat_row: SeatRow | None
    status: str | None


class Seat:
    __slots__ = ("kind", "name", "token_hash", "bot", "streams", "taken_over", "owed", "player")

    def __init__(self, row: SeatRow) -> None:
        self.kind, self.name, self.token_hash, self.bot = row.kind, row.name, row.token_hash, row.bot
        self.streams = 0          # live subscriptions with this seat's token
        self.taken_over = False   # a built-in bot plays while the player is gone
        # the moves the timer still makes for the seat as each becomes legal (Kind.timed_out), until it acts
        self.owed: tuple[Command, ...] = ()
        self.player: Bot | None = None  # the built-in bot, when one plays the seat

    def row(self, seat: int) -> SeatRow:
        return SeatRow(seat, self.kind, self.name, self.token_hash, self.bot)

    @property
    def bot_playing(self) -> bool:
        return self.kind == "bot" or self.taken_over


StreamItem = bytes | pb.PlayResult | StreamEnd
"""What a subscriber's queue carries: a change's events, framed for its audience (``wire.frames.event_batch``:
a whole SubscribeResponse or PlayResponse), the result of a command its Play stream sent, or the end."""


class Mailbox:
    """A subscriber's queue: what its stream has yet to send, at most ``limit`` items (``put_nowait`` raises
    asyncio.QueueFull past it), read by one stream; ``take_all`` hands over everything waiting at once. A
    lighter asyncio.Queue: no task accounting, one waiter."""

    __slots__ = ("limit", "_items", "_waiter")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: deque[StreamItem] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: StreamItem) -> None:
        if len(self._items) >= self.limit:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def get_nowait(self) -> StreamItem:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self) -> StreamItem:
        await self._wait()
        return self._items.popleft()

    async def take_all(self) -> list[StreamItem]:
        """Everything waiting (at least one item: it waits for one)."""
        await self._wait()
        items = list(self._items)
        self._items.clear()
        return items

    async def _wait(self) -> None:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None


class Subscriber:
    __slots__ = ("seat", "queue")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue = Mailbox(SUBSCRIBER_QUEUE)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    """A private table's password as stored: scrypt with a random salt, ``scrypt$n$r$p$salt$hash`` (hex).
    Slow on purpose: call it in a thread."""
    if len(password) > MAX_PASSWORD:
        raise BadRequest(f"a table's password is at most {MAX_PASSWORD} characters")
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def password_matches(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (compared in constant time)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt" or len(password) > MAX_PASSWORD:
            return False
        given = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p))
    except ValueError:
        return False
    return hmac.compare_digest(given.hex(), digest)


class PasswordChecks:
    """The server's password hashing, shared fairly: at most ``hashers`` hashes at once; the clients waiting
    are served in turn (round robin), each from its own queue of at most PASSWORD_QUEUE; ``peak`` is the most
    hashes ever run at once."""

    def __init__(self, hashers: int = PASSWORD_HASHERS) -> None:
        self.hashers = hashers
        self.peak = 0
        self._running = 0
        self._held: dict[str, int] = {}  # client -> its checks under way, waiting or pausing
        self._queues: dict[str, deque[asyncio.Future[None]]] = {}  # client -> its checks waiting for a turn
        self._order: deque[str] = deque()  # the clients with a queue, in turn

    async def run(self, client: str, work: Callable[..., T], *args: Any,
                  pause_after: Callable[[T], float] = lambda _: 0.0) -> T:
        """``work(*args)`` in a thread, in ``client``'s turn; Full if the client (or the server) has as many
        checks under way as it may. The client's place is held until the work is done, and then for
        ``pause_after(result)`` seconds more, even if the caller gave up meanwhile."""
        if self._held.get(client, 0) >= PASSWORD_QUEUE or sum(self._held.values()) >= PASSWORD_CHECKS:
            raise Full("too many tries at a password at once: try again in a moment")
        aside()  # waiting for a hash, and the pause after a wrong guess, hold no place among all clients' work
        self._held[client] = self._held.get(client, 0) + 1
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if client not in self._queues:
            self._queues[client] = deque()
            self._order.append(client)
        self._queues[client].append(turn)
        self._next()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given its turn as it was cancelled: pass it on
                self._running -= 1
                self._next()
            self._release(client)
            raise
        job = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(_hashers(self.hashers), work, *args))

        def done(finished: asyncio.Future[T]) -> None:
            self._running -= 1
            self._next()
            pause = 0.0
            if not finished.cancelled() and finished.exception() is None:
                pause = pause_after(finished.result())
            if pause:
                asyncio.get_running_loop().call_later(pause, self._release, client)
            else:
                self._release(client)
        job.add_done_callback(done)
        return await asyncio.shield(job)

    def _release(self, client: str) -> None:
        self._held[client] -= 1
        if not self._held[client]:
            del self._held[client]

    def _next(self) -> None:
        """Give free hashers to the clients waiting, one check per client in turn."""
        while self._running < self.hashers and self._order:
            client = self._order.popleft()
            queue = self._queues[client]
            while queue and queue[0].done():  # (given up while waiting)
                queue.popleft()
            if not queue:
                del self._queues[client]
                continue
            turn = queue.popleft()
            if queue:
                self._order.append(client)
            else:
                del self._queues[client]
            self._running += 1
            self.peak = max(self.peak, self._running)
            turn.set_result(None)


_HASHERS: dict[int, ThreadPoolExecutor] = {}


HASHER_NICE = 10
"""The CPU priority of the threads that hash passwords (a nice value: 0 is the process's own, 19 the lowest)."""


def _hashers(count: int) -> ThreadPoolExecutor:
    """The threads that hash passwords (``count`` of them), each at a low CPU priority (``HASHER_NICE``): a hash is
    slow on purpose (a core for a tenth of a second), and a client guessing at a password keeps one going all the
    time; the game's own work (the event loop, the store, the players' own processes on the machine) comes first
    when the cores are busy, and a hash still gets about a tenth of a busy core (a second, not a tenth of one)."""
    pool = _HASHERS.get(count)
    if pool is None:
        pool = _HASHERS[count] = ThreadPoolExecutor(count, thread_name_prefix="password", initializer=_low_priority)
    return pool


def _low_priority() -> None:
    try:  # (Linux: a thread's nice value is its own)
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHER_NICE)
    except (AttributeError, OSError):
        pass


def now_ms() -> int:
    return int(time.time() * 1000)


class Table:
    """One table, playing the game its row names (``engine.games``), known only through the game interface.
    Built from its stored row; ``loaded`` is False until the game itself has been read (a restart reads
    only the tables' rows, and each game when it is first needed)."""

    def __init__(self, row: TableRow, store: Store, *, loaded: bool = True, ttl: float = 0) -> None:
        self.id, self.name, self.n = row.id, row.name, row.seats
        self.kind: Kind[Any] = games.kind(row.game)
        self.wire: WireGame = wire(row.game)
        self.rules = self.kind.rules_from_dict(row.rules)
        self.settings = Settings(**row.settings)
        self.seed = row.seed
        self.creator = row.creator
        self.created = row.created
        self.store = store
        self.recent: deque[EventRow] = deque()  # the newest events, as stored (RECENT_EVENTS, RECENT_BYTES)
        self._recent_bytes = 0
        self.subscribers: set[Subscriber] = set()
        self.asked: dict[int, tuple[Command, ...]] = {}  # seat -> the legal commands of its open decision
        self.deadlines: dict[int, int] = {}               # seat -> unix ms its open decision times out; 0: never
        # per seat, since this server loaded the table (for tournament standings): commands the rules
        # refused, and decisions the timer or the takeover bot made for the seat
        self.refused = [0] * self.n
        self.defaulted = [0] * self.n
        self.last_asked: dict[int, tuple[Command, ...]] = {}  # seat -> its latest decision's legal commands
        # seat -> the sequence of its open decision's DecisionRequest (absent: none, or asked before a restart)
        self.decision_at: dict[int, int] = {}
        # seat -> the sequences of its newest DecisionRequests; any other number a seat names is looked up among
        # its own events in the store (``_asked``), so that no answer's words or time tell one seat anything of
        # another's private events
        self.decisions_sent: dict[int, deque[int]] = {}
        self.ttl = ttl                 # seconds a waiting table with nobody seated or watching lives; 0: ever
        self.idle_since = time.time()
        self._was_idle = False
        self._lobby_told = 0.0  # time.monotonic() when the lobby was last told of this table
        self._lobby_later: asyncio.TimerHandle | None = None  # a telling put off (``_tell_lobby_soon``)
        self.closed = False
        self.on_change: Callable[[Table], None] | None = None  # told when what TableInfo shows changes
        self._turn = Turn()
        self._watched: asyncio.Task[pb.Snapshot] | None = None  # a spectators' snapshot waiting for its turn
        self.passwords = PasswordChecks()  # the server's (the lobby's), once the lobby holds the table
        # the password last found right, keyed-hashed in memory only: it is let in at once, without scrypt
        self._password_key = secrets.token_bytes(16)
        self._password_known = b""
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due = 0  # unix ms the timer is set for: the earliest deadline when it was set, or earlier
        self._bot_scheduled = False
        self._gone_watch: dict[int, asyncio.TimerHandle] = {}  # seat -> its pending takeover
        self._tasks: set[asyncio.Task[Any]] = set()
        # the game being played (an interface.Game; Any, so that its owner may read its own game's
        # details through the table), None until it starts
        self.game: Any = None
        self.loaded = False
        self._restore(row, with_game=loaded or row.status == "waiting")

    def _restore(self, row: TableRow, *, with_game: bool) -> None:
        """Seats, status and sequence from a stored row; with ``with_game``, the game too (from its
        latest stored state and the commands after it, which the engine accepted once already)."""
        self.status = row.status
        self.seq = row.last_sequence
        self.seats = [Seat(r) for r in sorted(row.seat_rows, key=lambda r: r.seat)]
        for seat, state in enumerate(self.seats):
            if state.kind == "bot":
                state.player = self._bot(seat, state.bot)
        if not with_game:
            return
        self.game = None
        if row.status not in ("waiting", "expired"):
            game = self.kind.load(row.state) if row.state is not None else self.kind.new(self.n, self.rules,
                                                                                         self.seed)
            for text in row.commands:
                game.apply(self.kind.parse_command(text), trusted=True)
            self.game = game
        self.loaded = True

    async def _ready(self) -> None:
        """Read the game from the store if it has not been yet (call under the lock)."""
        if self.loaded:
            return
        row = await self.store.load_table(self.id)
        if row is None:
            raise NotFound(f"no table {self.id!r}")
        self._restore(row, with_game=True)
        if self.status == "playing":
            await self._resume()

    # --- running changes -----------------------------------------------------------------------

    async def _change(self, step: Callable[[], Awaitable[T]]) -> T:
        """Run ``step`` in the table's turn, in a task of its own that finishes even if the request that
        asked for it is cancelled (a client's deadline, a dropped connection)."""
        return await asyncio.shield(self._spawn(self._locked(step)))

    async def _locked(self, step: Callable[[], Awaitable[T]]) -> T:
        """Run one change in the table's turn. If the store refuses it, the table goes back to what the store
        holds, and to the server's own bookkeeping as it was before the change (so nothing changed), and
        the change's requester hears UNAVAILABLE."""
        await self._turn.take()
        try:
            if self.status == "expired":
                raise NotFound(f"no table {self.id!r}: it waited too long for players")
            if self.closed:
                raise Unavailable("this table is closed here: ask again")
            try:
                await self._ready()
            except StoreError as error:
                raise Unavailable("the server could not read this table: try again") from error
            before = self._bookkeeping()
            try:
                return await step()
            except StoreError as error:
                await self._rebuild(before)
                raise Unavailable(NOT_STORED) from error
        finally:
            self._turn.release()

    def _spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_finished)
        return task

    # --- the outside world's requests ----------------------------------------------------------

    async def join(self, name: str, seat: int | None, *, token_hash: str = "", password: str = "",
                   client: str = "") -> tuple[int, str]:
        """Sit a player down; its new token comes back. With ``token_hash``, the seat takes a token the
        player already holds (a tournament bot's) and no new one is made ("" comes back). A private
        table needs its ``password``."""
        name = clean_name(name)
        if self.settings.hosted and not token_hash:
            raise PermissionDenied("the server seats the players of this table (a tournament's): watch it, or "
                                   "register a bot with the tournament")
        if not token_hash:
            await self.admit(password, client)

        async def step() -> tuple[int, str]:
            free = self._free_seat(seat)
            token = "" if token_hash else secrets.token_urlsafe(24)
            self.seats[free] = Seat(SeatRow(free, "player", name, token_hash or hash_token(token)))
            await self._commit([(None, self._seat_event(free))], seat_row=self.seats[free].row(free))
            return free, token
        task = self._spawn(self._locked(step))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:  # cut short: nobody will hold the token, so the seat is given back
            task.add_done_callback(self._undo_join)
            raise

    def _undo_join(self, task: asyncio.Task[tuple[int, str]]) -> None:
        if not task.cancelled() and task.exception() is None and task.result()[1]:
            self._spawn(self.unjoin(task.result()[1]))

    async def unjoin(self, token: str) -> None:
        """Give back a seat whose token never reached its player (the join was cut short): emptied while the
        table waits (once it plays, the seat is the takeover bot's, as for any player who went away)."""
        async def step() -> None:
            seat = self._seat_of(token)
            if self.status == "waiting":
                await self._empty_seat(seat)
        await self._change(step)

    async def add_bot(self, host_token: str, seat: int | None, strategy: str) -> int:
        if strategy not in self.kind.bots:
            raise BadRequest(f"this game has no {strategy} bot")

        async def step() -> int:
            self._check_host(host_token)
            free = self._free_seat(seat)
            self.seats[free] = Seat(SeatRow(free, "bot", f"{strategy} bot", "", strategy))
            self.seats[free].player = self._bot(free, strategy)
            await self._commit([(None, self._seat_event(free))], seat_row=self.seats[free].row(free))
            return free
        return await self._change(step)

    async def remove_seat(self, host_token: str, seat: int) -> None:
        """The host empties a waiting seat: a bot's, or a player's (whose streams end)."""
        async def step() -> None:
            self._check_host(host_token)
            if self.status != "waiting":
                raise Conflict("the game has started: seats can no longer be emptied")
            if not 0 <= seat < self.n:
                raise BadRequest(f"there is no seat {seat} at this table of {self.n}")
            if self.seats[seat].kind == "empty":
                raise Conflict(f"seat {seat} is already empty")
            await self._empty_seat(seat)
        await self._change(step)

    async def leave(self, token: str) -> None:
        async def step() -> None:
            seat = self._seat_of(token)
            if self.status == "waiting":
                await self._empty_seat(seat)
            elif self.status == "playing" and not self.seats[seat].taken_over:
                await self._take_over(seat)
        await self._change(step)

    async def start(self, host_token: str) -> None:
        async def step() -> None:
            self._check_host(host_token)
            if self.status != "waiting":
                raise Conflict("the game has already started")
            empty = [s for s, seat in enumerate(self.seats) if seat.kind == "empty"]
            if empty:
                raise Conflict(empty_seats(empty))
            self.game = self.kind.new(self.n, self.rules, self.seed)
            self.status = "playing"
            for seat, state in enumerate(self.seats):
                if state.kind == "player" and state.streams == 0:
                    self._watch_gone(seat)
            await self._commit(self._wire(self.game.opening_events, None), status="playing")
        await self._change(step)

    async def command(self, token: str, message: pb.Command, decision: int = 0,
                      accepted: Callable[[int], None] | None = None, *, named: bool = False) -> int:
        """Apply a seat's command. ``decision`` names the decision it answers (its DecisionRequest's
        sequence; 0: not named): an answer to one no longer open is refused as ``Stale``, never applied to
        a newer question, and counted neither as illegal nor as a timeout; a number never sent to the seat
        is refused as ``NotThisSeats`` and counted as illegal. ``named``: the command must name its decision
        when the seat has a numbered one open (a Play stream's; a tournament's table always asks it).
        ``accepted`` is called with the sequence once the change is published, at once (a Play stream's
        result goes out with the events).

        When the table's turn is free (the common case), the command is made here, at once, up to handing it
        to the store, and the store's commit finishes it (``_finish``): no task, and whatever becomes of this
        call from then on, the change is finished. Else it waits for its turn in a task, as any change."""
        named = named or bool(self.tournament)
        own = False  # the named decision was the seat's (judged as the command arrives, not when its turn comes)
        arrived_at = self.seq
        if decision and decision <= arrived_at:
            seat = self._seat_of(token)
            own = decision == self.decision_at.get(seat) or decision in self.decisions_sent.get(seat, ()) \
                or await self._asked(seat, decision)
        if self.closed or not self.loaded or self.status == "expired" or not self._turn.take_now():
            async def step() -> int:
                seat, change = self._command_now(token, message, decision, named, own, arrived_at)
                await self._stored(change)
                return self._accepted(seat, accepted)
            return await self._change(step)
        try:
            before = self._bookkeeping()
            seat, change = self._command_now(token, message, decision, named, own, arrived_at)
        except BaseException:
            self._turn.release()
            raise
        answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        change.stored.add_done_callback(lambda _: self._finish(change, before, answer,
                                                               lambda: self._accepted(seat, accepted)))
        return await answer

    async def _asked(self, seat: int, decision: int) -> bool:
        """Whether event ``decision`` was a DecisionRequest of ``seat``'s, from the store: only the seat's own
        private events are read, so any other number costs the same whatever it was (Unavailable if the store
        cannot say)."""
        try:
            data = await self.store.private_event_at(self.id, decision, seat)
        except StoreError as error:
            raise Unavailable("the server could not look that decision up, so nothing changed: try again") \
                from error
        return data is not None and pb.Event.FromString(data).HasField("decision_request")

    def _command_now(self, token: str, message: pb.Command, decision: int, named: bool = False,
                     own: bool = False, arrived_at: int | None = None) -> tuple[int, Change]:
        """A seat's command checked, applied and handed to the store (in the table's turn); nothing in it waits.
        ``own``: the decision it names was the seat's, and ``arrived_at`` the table's sequence, when it came (a
        number the table had not reached then was never the seat's, whatever it is now)."""
        seat = self._seat_of(token)
        open_now = self.decision_at.get(seat, 0)
        past = decision > (self.seq if arrived_at is None else arrived_at)
        # (a decision asked before a restart whose sequence is unknown: answers are judged as unnamed)
        if decision and (past or decision != open_now and not (seat in self.asked and not open_now)):
            if own and not past:
                raise Stale(decision, open_now)
            self.refused[seat] += 1  # like any command out of turn
            raise NotThisSeats(decision, open_now)
        if not decision and named and open_now:
            raise DecisionRequired(open_now)
        command: Command | None = None
        try:
            command = self.wire.command_from_pb(seat, message)
            if self.game is None:
                raise Conflict("the game has not started")
            change = self._apply_now(command)
        except (BadRequest, RuleError):
            # an answer to the seat's latest question that came too late (a nearer seat's buy settled
            # the offer, a timer acted first) lost a race: only commands never offered count
            if command not in self.last_asked.get(seat, ()):
                self.refused[seat] += 1
            raise
        self.seats[seat].owed = ()  # the person is back at the controls (a store's refusal puts it back)
        return seat, change

    def _accepted(self, seat: int, accepted: Callable[[int], None] | None) -> int:
        if accepted is not None:
            accepted(self.seq)
        return self.seq

    def _finish(self, change: Change, before: Bookkeeping, answer: asyncio.Future[T], then: Callable[[], T]) -> None:
        """The store's answer to a change made outside a task (``command``): publish it and pass the turn on,
        and tell the requester, if it still waits. If the store refused it, the table goes back to what the
        store holds first (as ``_locked`` does), in a task, with the turn held until it is done."""
        error = change.stored.exception()
        if error is None:
            try:
                self._committed(change)
                result = then()
            except Exception as fault:  # a fault of the server's: the requester hears of it, the table goes on
                log.exception("a table change failed once stored")
                if not answer.done():
                    answer.set_exception(fault)
                return
            finally:
                self._turn.release()
            if not answer.done():
                answer.set_result(result)
            return

        async def back() -> None:
            try:
                await self._rebuild(before)
            finally:
                self._turn.release()
                if not answer.done():
                    refused = Unavailable(NOT_STORED)
                    refused.__cause__ = error
                    answer.set_exception(refused)
        self._spawn(back())

    async def chat(self, token: str, name: str, text: str, password: str = "", client: str = "") -> int:
        if not on_one_line(text):
            raise BadRequest(f"text: a chat line is 1 to {MAX_CHAT} characters on one line (no line "
                             "break, tab, other control character or direction override)")
        text = text.strip()
        if not text or len(text) > MAX_CHAT:
            raise BadRequest(f"text: a chat line is 1 to {MAX_CHAT} printable characters")
        watcher = "" if token else f"{clean_name(name)} (watching)"
        if not token:
            await self.admit(password, client)  # a private table's watchers chat with its password, as they watch

        async def step() -> int:
            if token:
                seat = self._seat_of(token)
                message = pb.ChatPosted(seat=seat, name=self.seats[seat].name, text=text)
            else:
                message = pb.ChatPosted(name=watcher, text=text)
            await self._commit([(None, pb.Event(chat_posted=message))], transient=True)
            return self.seq
        return await self._change(step)

    @property
    def locked(self) -> bool:
        """A private table: joining and watching it need its password."""
        return bool(self.settings.password_hash)

    async def admit(self, password: str, client: str = "") -> None:
        """Let in one who would join or watch without a seat's token: anyone, unless the table is private
        and ``password`` is not its password (PermissionDenied, plainly). ``client``: who asks (the
        connection), whose turn among the server's password checks it is."""
        if not self.locked:
            return
        if not password:
            raise PermissionDenied("this is a private table: joining or watching it needs its password")
        given = hmac.digest(self._password_key, password.encode(), "sha256")
        if self._password_known and hmac.compare_digest(given, self._password_known):
            return
        if await self.passwords.run(client, password_matches, self.settings.password_hash, password,
                                    pause_after=lambda right: 0.0 if right else WRONG_PASSWORD_PAUSE):
            self._password_known = given
            return
        await asyncio.sleep(WRONG_PASSWORD_PAUSE)  # the guesser waits for its answer too
        raise PermissionDenied(WRONG_PASSWORD)

    @property
    def tournament(self) -> str:
        """The tournament this table plays a game of, by name; empty: an ordinary table."""
        return self.creator.removeprefix(TOURNAMENT_CREATOR) if self.creator.startswith(TOURNAMENT_CREATOR) else ""

    async def record(self, token: str, password: str = "", client: str = "", *,
                     tournament_running: bool = False) -> GameRecord:
        """The finished game as it was played (read by the store's reader thread), for a replay or a review.
        Refused (Conflict) before the game's end: its record would show every hidden card and the stock; and
        while ``tournament_running``, the tournament this table belongs to: its seed deals the tournament's
        other games. A private table's record needs a seat's ``token`` or the ``password``."""
        if self.status != "finished":
            doing = {"waiting": "has not started", "playing": "is still being played"}.get(self.status,
                                                                                           "never finished")
            raise Conflict(f"table {self.id}'s game {doing}: its record is given once the game is finished")
        if tournament_running:
            raise Conflict(f"table {self.id} is a game of the tournament {self.tournament!r}, still running: the "
                           "tournament's seed deals its other games too, so its records are given once it is over")
        if token:
            self._seat_of(token)
        else:
            await self.admit(password, client)
        found = await self.store.game_record(self.id)
        if found is None:
            raise NotFound(f"no table {self.id!r}")
        return found

    async def snapshot(self, token: str, password: str = "", client: str = "") -> pb.Snapshot:
        """What the seat of ``token`` may see now, taken in the table's turn (never in the middle of a change);
        no token: a spectator's, shared by the spectators who ask while one is waiting for its turn (a crowd
        of them, or one client asking again and again, costs the table's players one turn, not one each; the
        message is the same for every spectator, and a request that joins one waiting still gets the table as
        it was after it asked). The message is shared: read it, never change it."""
        if not token:
            await self.admit(password, client)
            watched = self._watched
            if watched is None or watched.done():
                async def watch() -> pb.Snapshot:
                    return self._snapshot(None)
                watched = self._watched = self._spawn(self._locked(watch))
            return await asyncio.shield(watched)

        async def step() -> pb.Snapshot:
            return self._snapshot(self._seat_of(token))
        return await self._change(step)

    async def subscribe(self, token: str, password: str = "", client: str = "") -> tuple[pb.Snapshot, Subscriber]:
        """Register a subscriber and return it with its snapshot; its queue carries every event after
        the snapshot. If the caller is cancelled meanwhile, the registration is undone once made. A
        spectator (no token) of a private table needs its ``password``."""
        if not token:
            await self.admit(password, client)

        async def step() -> tuple[pb.Snapshot, Subscriber]:
            seat = self._seat_of(token) if token else None
            if seat is None:
                if sum(1 for s in self.subscribers if s.seat is None) >= MAX_SPECTATORS:
                    raise Full(f"this table already has {MAX_SPECTATORS} spectators")
            elif self.seats[seat].streams >= STREAMS_PER_SEAT:
                raise Full(f"seat {seat} already has {STREAMS_PER_SEAT} streams open")
            snapshot = self._snapshot(seat)  # what the stream starts from; the queue carries the rest
            subscriber = Subscriber(seat)
            self.subscribers.add(subscriber)
            if seat is not None:
                try:
                    await self._connected(seat)
                except BaseException:
                    self.subscribers.discard(subscriber)
                    raise
            return snapshot, subscriber

        task = self._spawn(self._locked(step))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(self._undo_subscribe)
            raise

    def _undo_subscribe(self, task: asyncio.Task[tuple[pb.Snapshot, Subscriber]]) -> None:
        if not task.cancelled() and task.exception() is None:
            self.unsubscribe(task.result()[1])

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Called when a stream ends, however it ends; the bookkeeping runs as a task of its own."""
        if subscriber in self.subscribers:
            self.subscribers.discard(subscriber)
            if subscriber.seat is not None and not self.closed:
                self._spawn(self._disconnected(subscriber.seat))
            self._note_idle()

    async def history(self, seat: int | None, after: int, upto: int) -> AsyncIterator[bytes]:
        """The events ``seat`` may see with after < sequence <= upto, in pages (each framed as a stream's
        batch, from the stored bytes): from memory when the recent events reach back far enough, else from
        the store a page at a time. It holds no lock, and no more than a page in memory, whatever the
        history's length."""
        while after < upto:
            if self.recent and self.recent[0][0] <= after + 1:
                page = [data for s, a, data in self.recent if after < s <= upto and (a is None or a == seat)]
                for start in range(0, len(page), HISTORY_PAGE):  # pages as the store's: a batch's bound
                    yield event_batch(page[start:start + HISTORY_PAGE])
                return
            rows: list[EventRow] = await self.store.events_page(self.id, after, upto, seat, HISTORY_PAGE)
            if not rows:
                return
            yield event_batch([data for _, _, data in rows])
            after = rows[-1][0]

    def info(self) -> pb.TableInfo:
        message = pb.TableInfo(
            table_id=self.id, name=self.name, seats=self.n, status=TABLE_STATUSES[self.status],
            rules=self.wire.rules_to_pb(self.rules),
            settings=pb.TableSettings(decision_seconds=self.settings.decision_seconds,
                                      takeover_seconds=self.settings.takeover_seconds),
            seat_info=[self._seat_info(s) for s in range(self.n)], last_sequence=self.seq, locked=self.locked,
            game=self.kind.name)
        if self.settings.seeded:
            message.seed = self.seed
        if self.tournament:
            message.tournament = self.tournament
        expires = self.expires_at()
        if expires is not None:
            message.expires_at = int(expires)
        return message

    @property
    def idle(self) -> bool:
        """Waiting, with nobody seated (bots aside) and nobody watching."""
        return (self.status == "waiting" and not self.subscribers
                and all(seat.kind != "player" for seat in self.seats))

    def expires_at(self) -> float | None:
        """When this table closes if it stays idle (None: it is not idle, or never expires)."""
        return self.idle_since + self.ttl if self.ttl and self.idle else None

    def _note_idle(self) -> bool:
        """Start the idle clock when the table becomes idle (the last player left, the last watcher
        went), and tell the lobby, whose TableInfo shows when the table expires. True if it told it."""
        idle = self.idle
        if idle and not self._was_idle:
            self.idle_since = time.time()
        if idle == self._was_idle:
            return False
        self._was_idle = idle
        self._tell_lobby()
        return True

    def _tell_lobby(self) -> None:
        if self._lobby_later is not None:
            self._lobby_later.cancel()
            self._lobby_later = None
        self._lobby_told = time.monotonic()
        if self.on_change is not None:
            self.on_change(self)

    def _tell_lobby_soon(self) -> None:
        """Tell the lobby of a change it need not hear of at once (the sequence moving on): at most once every
        LOBBY_BEHIND, the last such change never later than that (a busy table's entry is at most that far
        behind it, and costs the lobby one update a period, however many events it makes)."""
        if self._lobby_later is not None or self.on_change is None:
            return
        wait = self._lobby_told + LOBBY_BEHIND - time.monotonic()
        if wait <= 0:
            self._tell_lobby()
        else:
            self._lobby_later = asyncio.get_running_loop().call_later(wait, self._tell_lobby)

    async def close_waiting(self, host_token: str) -> None:
        """The host closes its table before the game starts: it is gone (as an expired one is), and every
        stream of it ends (``StreamEnd.CLOSED``)."""
        async def step() -> None:
            self._check_host(host_token)
            if self.status != "waiting":
                raise Conflict("table_id: only a waiting table is closed; once its game has started it ends when "
                               "it is played out")
            await self.store.record(self.id, status="expired")
            self.status = "expired"
            for subscriber in list(self.subscribers):
                self._end_stream(subscriber, StreamEnd.CLOSED)
        await self._change(step)

    async def expire_if_idle(self, now: float) -> bool:
        """Close this table if it has been idle for the lobby's time to live; True if it was."""
        async def step() -> bool:
            expires = self.expires_at()
            if expires is None or expires > now:
                return False
            await self.store.record(self.id, status="expired")
            self.status = "expired"
            return True
        try:
            return await self._change(step)
        except StoreError:
            return False

    async def ensure_loaded(self) -> None:
        """Read the game now (a restart does it table by table, in the background)."""
        async def step() -> None:
            return None
        await self._change(step)

    async def _resume(self) -> None:
        """Every player is gone until it subscribes again; bots and timers start over. An open decision
        keeps the deadline it was asked with (its DecisionRequest was stored with it, before the restart):
        the time the server was down counts, and a deadline that passed meanwhile is acted on at once."""
        for seat, state in enumerate(self.seats):
            if state.kind == "player":
                self._watch_gone(seat)
        self.asked, self.deadlines, self.decision_at = {}, {}, {}
        again = [(seat, message) for seat, message in self._decisions(None) if seat is not None]
        try:  # (what _decisions returns was stored before the restart)
            tails = await self.store.private_tail(self.id, [seat for seat, _ in again])
        except StoreError:
            tails = {}  # unread: fresh deadlines rather than none (and answers judged as unnamed)
        for seat, message in again:
            asked = _last_asked(tails.get(seat, []))
            if asked is not None and asked.decision_request.legal_commands == message.decision_request.legal_commands:
                self.deadlines[seat] = asked.decision_request.deadline_ms
                self.decision_at[seat] = asked.sequence  # answers naming it are answers to it still
                self.decisions_sent.setdefault(seat, deque(maxlen=DECISIONS_KEPT)).append(asked.sequence)
        self._after_change()

    async def close(self) -> None:
        """Stop: no new change starts; the changes under way finish; timers stop."""
        self.closed = True
        if self._timer:
            self._timer.cancel()
            self._timer = None
        if self._lobby_later is not None:
            self._lobby_later.cancel()
            self._lobby_later = None
        for watch in self._gone_watch.values():
            watch.cancel()
        self._gone_watch.clear()
        running = [t for t in self._tasks if not t.done()]
        if running:
            await asyncio.wait(running, timeout=5)
        try:  # a command under way outside a task (``command``) finishes with its commit
            await asyncio.wait_for(self._turn.take(), 5)
            self._turn.release()
        except TimeoutError:
            pass

    # --- applying commands ---------------------------------------------------------------------

    async def _apply(self, command: Command, timer: bool = False) -> None:
        """Apply through the engine (RuleError leaves everything as it was), store, then publish."""
        await self._stored(self._apply_now(command, timer))

    def _apply_now(self, command: Command, timer: bool = False) -> Change:
        """Apply through the engine (RuleError leaves everything as it was) and hand the change to the store."""
        assert self.game is not None
        events = self.game.apply(command)
        self._show_bots()
        items = self._wire(events, command.seat)
        if timer:
            self.defaulted[command.seat] += 1  # before the commit: the game's result counts it
            items.insert(0, (self.kind.timer_audience(self.game, command), pb.Event(timer_expired=pb.TimerExpired(
                seat=command.seat, command=self.wire.command_to_pb(command)))))
        finished = self.game.over
        if finished:
            self.status = "finished"
        count = len(self.game.log)
        state = (count, self.game.to_dict()) if finished or count % STATE_EVERY == 0 else None
        return self._record(items, command=(count - 1, self.kind.format_command(command)),
                            status="finished" if finished else None, state=state)

    def _wire(self, events: Sequence[Event], actor: int | None) -> list[Item]:
        """The wire form of a game change's events, and the decision requests that follow from it."""
        items: list[Item] = [(e.to, self.wire.event_to_pb(e, self.rules)) for e in events]
        return items + self._decisions(actor)

    def _decisions(self, actor: int | None) -> list[Item]:
        """A private DecisionRequest for every seat the game now waits for whose decision is new: the
        seat that just acted always has a new one; a seat still facing the same choice keeps its
        request and its deadline (a seat's answer to a question several seats are asked changes
        nobody else's decision)."""
        if actor is not None:  # its decision is over (a new one, if any, gets a deadline of its own below)
            self.asked.pop(actor, None)
            self.deadlines.pop(actor, None)
            self.decision_at.pop(actor, None)
        awaited = self._awaited()
        for seat in [s for s in self.asked if s not in awaited]:
            del self.asked[seat]
            self.deadlines.pop(seat, None)
            self.decision_at.pop(seat, None)
        assert self.game is not None or not awaited
        items: list[Item] = []
        seconds = self.settings.decision_seconds
        for seat in awaited:
            legal = tuple(self.game.legal_commands(seat)) if self.game else ()
            if self.asked.get(seat) == legal:
                continue
            self.asked[seat] = self.last_asked[seat] = legal
            self.deadlines[seat] = now_ms() + seconds * 1000 if seconds else 0
            items.append((seat, pb.Event(decision_request=pb.DecisionRequest(
                seat=seat, legal_commands=[self._command_pb(c) for c in legal],
                deadline_ms=self.deadlines[seat]))))
        return items

    def _command_pb(self, command: Command) -> pb.Command:
        """A legal command's wire form, made once (a decision lists many, and the same ones come back turn
        after turn): kept in a bounded cache shared by the tables (a command names its game's own type)."""
        made = _COMMANDS.get(command)
        if made is None:
            if len(_COMMANDS) >= COMMAND_CACHE:
                _COMMANDS.clear()
            made = _COMMANDS[command] = self.wire.command_to_pb(command)
        return made

    def _awaited(self) -> list[int]:
        """The seats the game waits for that a person (or a remote bot) plays."""
        if self.game is None or self.game.over:
            return []
        return [s for s in self.game.to_act() if not self._server_plays(s)]

    async def _commit(self, items: list[Item], *, command: tuple[int, str] | None = None,
                      seat_row: SeatRow | None = None, status: str | None = None,
                      state: tuple[int, dict[str, Any]] | None = None, transient: bool = False) -> None:
        """Store a change, then publish it. ``transient``: chat, or a connection coming and going (the
        store keeps only the newest of those)."""
        await self._stored(self._record(items, command=command, seat_row=seat_row, status=status, state=state,
                                        transient=transient))

    def _record(self, items: list[Item], *, command: tuple[int, str] | None = None,
                seat_row: SeatRow | None = None, status: str | None = None,
                state: tuple[int, dict[str, Any]] | None = None, transient: bool = False) -> Change:
        """Number and serialise a change's events and hand it to the store (its group commit)."""
        stamp = now_ms()
        rows: list[EventRow] = []
        seq = self.seq
        for audience, message in items:
            seq += 1
            message.sequence = seq
            message.time_ms = stamp
            rows.append((seq, audience, message.SerializeToString()))
        stored = self.store.record_soon(self.id, command=command, events=rows, seat=seat_row, status=status,
                                        state=state, transient=transient)
        return Change(items, rows, stored, seat_row, status)

    async def _stored(self, change: Change) -> None:
        """Wait for the store to take a change, then publish it (StoreError if refused: see _locked)."""
        await change.stored
        self._committed(change)

    def _committed(self, change: Change) -> None:
        """A change the store holds: the table's sequence moves on, and it goes out."""
        rows, items = change.rows, change.items
        if rows:
            self.seq = rows[-1][0]
        self._keep_recent(rows)
        for _, message in items:
            if message.HasField("decision_request"):
                seat = message.decision_request.seat
                self.decision_at[seat] = message.sequence
                self.decisions_sent.setdefault(seat, deque(maxlen=DECISIONS_KEPT)).append(message.sequence)
        self._publish(rows)
        if change.seat_row is not None or change.status is not None \
                or any(m.HasField("seat_changed") for _, m in items):
            if not self._note_idle():  # else the lobby has heard of this change already
                self._tell_lobby()
        elif rows:
            self._tell_lobby_soon()  # the sequence moved: the lobby hears of it within LOBBY_BEHIND
        self._after_change()

    def _keep_recent(self, rows: list[EventRow]) -> None:
        """Keep the newest events for resuming streams, within RECENT_EVENTS and RECENT_BYTES."""
        recent = self.recent
        for row in rows:
            recent.append(row)
            self._recent_bytes += len(row[2])
        while recent and (len(recent) > RECENT_EVENTS or self._recent_bytes > RECENT_BYTES):
            self._recent_bytes -= len(recent.popleft()[2])

    def _bookkeeping(self) -> Bookkeeping:
        """What the server knows of the table beyond the store: seats' connections and takeovers, and
        the open decisions with their deadlines."""
        return Bookkeeping([(s.token_hash, s.taken_over, s.owed) for s in self.seats],
                           dict(self.asked), dict(self.last_asked), dict(self.deadlines), list(self.defaulted),
                           dict(self.decision_at))

    async def _rebuild(self, before: Bookkeeping) -> None:
        """Go back to what the store holds, and to the bookkeeping as it was, after a change the store
        refused. Streams are counted again from the subscribers actually registered."""
        try:
            row = await self.store.load_table(self.id)
        except StoreError:
            row = None
        if row is None:  # the table cannot be read back: close it rather than serve a guess
            log.error("table %s could not be read back after a failed write: closed", self.id)
            self.closed = True
            return
        self._restore(row, with_game=True)
        for seat, state in enumerate(self.seats):
            token_hash, taken_over, owed = before.seats[seat]
            if state.kind == "player" and token_hash == state.token_hash:
                state.taken_over, state.owed = taken_over, owed
                state.player = self._bot(seat, self.kind.takeover) if taken_over else None
            state.streams = sum(1 for s in self.subscribers if s.seat == seat)
            if self.status == "playing" and state.kind == "player" and not state.streams and not state.taken_over:
                self._watch_gone(seat)
        self.asked, self.last_asked = before.asked, before.last_asked
        self.deadlines, self.defaulted = before.deadlines, before.defaulted
        self.decision_at = before.decision_at
        self._after_change(bot_delay=RETRY_SECONDS)  # a bot's move the store refused is tried again

    def _publish(self, rows: list[EventRow]) -> None:
        """Each subscriber gets, in one message, the events of this change that it may see: framed once for
        each audience (a seat, or the spectators), the same bytes for every stream of it."""
        batches: dict[int | None, bytes] = {}
        for subscriber in list(self.subscribers):
            seat = subscriber.seat
            batch = batches.get(seat)
            if batch is None:
                batch = batches[seat] = event_batch([data for _, audience, data in rows
                                                     if audience is None or audience == seat])
            if batch:
                self.tell(subscriber, batch)

    def tell(self, subscriber: Subscriber, item: bytes | pb.PlayResult) -> None:
        """Queue ``item`` on a subscriber's stream; one too far behind is dropped (it resumes from its last
        sequence)."""
        try:
            subscriber.queue.put_nowait(item)
        except asyncio.QueueFull:
            if subscriber in self.subscribers:
                self._end_stream(subscriber, StreamEnd.FELL_BEHIND)
                if subscriber.seat is not None:
                    self._spawn(self._disconnected(subscriber.seat))

    def _end_stream(self, subscriber: Subscriber, why: StreamEnd) -> None:
        """Unlink a subscriber and end its stream: what it had queued is dropped, the end goes last."""
        self.subscribers.discard(subscriber)
        while not subscriber.queue.empty():
            subscriber.queue.get_nowait()
        subscriber.queue.put_nowait(why)

    async def _empty_seat(self, seat: int) -> None:
        for subscriber in [s for s in self.subscribers if s.seat == seat]:
            # the seat is no longer theirs: end their streams before anyone else can sit there
            self._end_stream(subscriber, StreamEnd.SEAT_LEFT)
        self.seats[seat] = Seat(SeatRow(seat, "empty"))
        await self._commit([(None, self._seat_event(seat))], seat_row=self.seats[seat].row(seat))

    # --- timers and bots -----------------------------------------------------------------------

    def _server_plays(self, seat: int) -> bool:
        state = self.seats[seat]
        return state.bot_playing or self._owed_now(seat) is not None

    def _owed_now(self, seat: int) -> Command | None:
        """The timer's next move for ``seat`` if the game waits for the seat and that move is legal now."""
        owed = self.seats[seat].owed
        if owed and self.game is not None and seat in self.game.to_act() and self.game.is_legal(owed[0]):
            return owed[0]
        return None

    def _after_change(self, bot_delay: float = 0) -> None:
        if self.closed or self.game is None or self.game.over:
            return
        if any(self._server_plays(s) for s in self.game.to_act()) and not self._bot_scheduled:
            self._bot_scheduled = True
            if bot_delay:
                asyncio.get_running_loop().call_later(bot_delay, lambda: self._spawn(self._bot_step()))
            else:
                self._spawn(self._bot_step())
        due = min((d for d in self.deadlines.values() if d), default=0)
        if self._timer is not None:
            if due and self._timer_due <= due:
                return  # the timer set fires first: it looks again then (no timer made and cancelled a change)
            self._timer.cancel()
            self._timer = None
        if due:
            self._timer_due = due
            self._timer = asyncio.get_running_loop().call_later(max(0.0, (due - now_ms()) / 1000), self._timer_fired)

    def _timer_fired(self) -> None:
        self._timer = None
        self._spawn(self._timer_expired())

    async def _bot_step(self) -> None:
        """One move by a seat the server plays; the next is scheduled after it, so tables take turns."""
        await self._locked(self._bot_move)

    async def _bot_move(self) -> None:
        self._bot_scheduled = False
        if self.game is None or self.game.over:
            return
        seat = next((s for s in self.game.to_act() if self._server_plays(s)), None)
        if seat is None:
            return
        state = self.seats[seat]
        owed = self._owed_now(seat)
        if owed is not None:
            state.owed = state.owed[1:]
            await self._apply(owed, timer=True)
            return
        assert state.player is not None
        game = self.game
        # The one seat loop's check: a confused bot gets the game's safe default and never stalls the table.
        command = seat_loop.ask(state.player, game.view(seat), lambda view: self.kind.timed_out(game, seat)[0],
                            game.is_legal).command
        if state.taken_over:
            self.defaulted[seat] += 1
        await self._apply(command)

    async def _timer_expired(self) -> None:
        await self._locked(self._act_for_the_late)

    async def _act_for_the_late(self) -> None:
        """Act for every awaited seat whose decision is past its deadline, with the safe default."""
        if self.game is None or self.game.over:
            return
        try:
            now = now_ms() + 5  # a timer may fire a hair early
            for seat in [s for s, d in self.deadlines.items() if d and d <= now]:
                if self.game.over or seat not in self._awaited():
                    continue  # an earlier default settled the offer, or ended the round
                first, *later = self.kind.timed_out(self.game, seat)
                self.seats[seat].owed = tuple(later)
                await self._apply(first, timer=True)
        finally:
            self._after_change()

    async def _connected(self, seat: int) -> None:
        state = self.seats[seat]
        state.streams += 1
        watch = self._gone_watch.pop(seat, None)
        if watch is not None:
            watch.cancel()
        if state.streams == 1 or state.taken_over:
            state.taken_over = False
            state.player = None
            items: list[Item] = [(None, self._seat_event(seat))]
            if self.game is not None and not self.game.over:
                items += self._decisions(None)  # a reclaimed seat: the game waits for the person again
            await self._commit(items, transient=len(items) == 1)

    async def _disconnected(self, seat: int) -> None:
        async def step() -> None:
            state = self.seats[seat]
            state.streams = max(0, state.streams - 1)
            if state.streams == 0 and state.kind == "player":
                if self.status == "playing":
                    self._watch_gone(seat)
                await self._commit([(None, self._seat_event(seat))], transient=True)
        await self._locked(step)

    def _watch_gone(self, seat: int) -> None:
        """A bot takes the seat over if its player stays gone for takeover_seconds (one watch a seat)."""
        seconds = self.settings.takeover_seconds
        old = self._gone_watch.pop(seat, None)
        if old is not None:
            old.cancel()
        if seconds:
            self._gone_watch[seat] = asyncio.get_running_loop().call_later(
                seconds, lambda: self._spawn(self._locked(lambda: self._takeover_if_gone(seat))))

    async def _takeover_if_gone(self, seat: int) -> None:
        self._gone_watch.pop(seat, None)
        state = self.seats[seat]
        if state.streams == 0 and not state.taken_over and self.status == "playing":
            await self._take_over(seat)

    async def _take_over(self, seat: int) -> None:
        state = self.seats[seat]
        state.taken_over = True
        state.player = self._bot(seat, self.kind.takeover)
        await self._commit([(None, self._seat_event(seat))] + self._decisions(None))

    def _show_bots(self) -> None:
        """A built-in bot that remembers what it saw (``observe``, see engine.bots) sees its seat's view
        after every command, as in play_game."""
        assert self.game is not None
        for seat, state in enumerate(self.seats):
            observe = getattr(state.player, "observe", None)
            if callable(observe) and state.bot_playing and not self.game.over:
                observe(self.game.view(seat))

    def _bot(self, seat: int, strategy: str) -> Bot:
        """A built-in bot for ``seat``; a random one draws from its own seeded stream."""
        return self.kind.bots[strategy](self.seed + 1 + seat)

    # --- helpers -------------------------------------------------------------------------------

    def _seat_of(self, token: str) -> int:
        if not token:
            raise Unauthenticated("this needs the seat's token, given when the seat was joined")
        digest = hash_token(token)
        for seat, state in enumerate(self.seats):
            if state.kind == "player" and hmac.compare_digest(state.token_hash, digest):
                return seat
        raise PermissionDenied("that token holds no seat at this table")

    def _check_host(self, token: str) -> None:
        if not token:
            raise Unauthenticated("this needs the host's token, given when the table was created")
        if not hmac.compare_digest(self.settings.host_token_hash, hash_token(token)):
            raise PermissionDenied("only the table's host may do that")

    def _free_seat(self, seat: int | None) -> int:
        if self.status != "waiting":
            raise Conflict("the game has started: no seat is free")
        if seat is None:
            free = next((s for s, state in enumerate(self.seats) if state.kind == "empty"), None)
            if free is None:
                raise Conflict("the table is full")
            return free
        if not 0 <= seat < self.n:
            raise BadRequest(f"there is no seat {seat} at this table of {self.n}")
        if self.seats[seat].kind != "empty":
            raise Conflict(f"seat {seat} is taken")
        return seat

    def _seat_info(self, seat: int) -> pb.SeatInfo:
        state = self.seats[seat]
        return pb.SeatInfo(seat=seat, kind=SEAT_KINDS[state.kind], name=state.name,
                           connected=state.streams > 0, bot_playing=state.bot_playing)

    def _seat_event(self, seat: int) -> pb.Event:
        return pb.Event(seat_changed=pb.SeatChanged(seat=self._seat_info(seat)))

    def _snapshot(self, seat: int | None) -> pb.Snapshot:
        """All ``seat`` may see now. The deadline is the seat's own if the game waits for it, else
        the first one due (so everybody can show the clock of the seat that is thinking)."""
        deadline = self.deadlines.get(seat, 0) if seat is not None else 0
        if not deadline:
            deadline = min((d for d in self.deadlines.values() if d), default=0)
        snapshot = pb.Snapshot(table=self.info(), sequence=self.seq, decision_deadline_ms=deadline,
                               decision=self.decision_at.get(seat, 0) if seat is not None else 0)
        if self.game is not None:
            snapshot.game.CopyFrom(self.wire.game_view(self.game, seat))
        return snapshot


def _last_asked(tail: list[bytes]) -> pb.Event | None:
    """A seat's open decision as stored: the newest DecisionRequest event among its last private events
    (``tail``, newest first; nothing private comes to a seat between its question and its answer)."""
    for data in tail:
        event = pb.Event.FromString(data)
        if event.HasField("decision_request"):
            return event
    return None


def _finished(task: asyncio.Task[Any]) -> None:
    """A change's task is done; its outcome went to whoever awaited it, or nowhere if they left. A
    refusal whose requester left is no error of the server's; anything else is logged."""
    if task.cancelled():
        return
    error = task.exception()
    if error is not None and not isinstance(error, (TableError, RuleError, BadRequest)):
        log.error("a table change failed", exc_info=error)


def clean_name(name: str) -> str:
    """A table's or a seat's name, its runs of spaces made one and trimmed (BadRequest if it is no name, or
    holds a line break, a tab or another control character: refused, never stored changed)."""
    if not on_one_line(name):
        raise BadRequest(f"name: a name is 1 to {MAX_NAME} characters on one line (no line break, tab, "
                         "other control character or direction override)")
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME:
        raise BadRequest(f"name: a name is 1 to {MAX_NAME} characters on one line")
    return name


# What a name or a chat line may not hold: a control character (Unicode Cc: line breaks, tabs, escapes), a line
# or paragraph separator, or a direction override (text that shows other than it reads). Other white space
# (a no-break space) is a space; joiners and the like (an emoji's ZWJ) are kept.
_OFF_LINE_CATEGORIES = frozenset(("Cc", "Cs", "Zl", "Zp"))
_DIRECTION_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def on_one_line(text: str) -> bool:
    return not any(unicodedata.category(c) in _OFF_LINE_CATEGORIES or c in _DIRECTION_OVERRIDES for c in text)
