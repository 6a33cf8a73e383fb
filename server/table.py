"""A table: one game, its seats and its subscribers, changed one step at a time.

Every change (a join, a command, a timer, a bot's move) runs under the table's lock, so commands are
applied one at a time in the order they came. A change is written to the store before its events go
out. Fan-out never waits: each subscriber has a bounded queue, and one that falls too far behind is
dropped and resumes later from its last sequence number.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Awaitable

from tenpennies.engine import (Command, DeclineDiscard, Discard, Draw, Game, HouseRules, PassBuy, format_command, parse_command)
from tenpennies.engine.bots import BOTS
from tenpennies.engine.game import Phase
from tenpennies.v1 import tenpennies_pb2 as pb

from . import mapping
from .store import EventRow, SeatRow, Store, TableRow

SUBSCRIBER_QUEUE = 1024   # batches of events a subscriber may have waiting before it is dropped
RECENT_EVENTS = 512       # events kept in memory for resuming subscribers; older ones come from the store
MAX_SUBSCRIBERS = 256     # streams a table serves at once (seats and spectators)
MAX_NAME = 40
MAX_CHAT = 500

STATUS = {"waiting": pb.TABLE_STATUS_WAITING, "playing": pb.TABLE_STATUS_PLAYING,
          "finished": pb.TABLE_STATUS_FINISHED}
SEAT_KINDS = {"empty": pb.SEAT_KIND_EMPTY, "player": pb.SEAT_KIND_PLAYER, "bot": pb.SEAT_KIND_BOT}


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


class StreamEnd(Enum):
    """Put in a subscriber's queue, last, to end its stream."""
    FELL_BEHIND = "fell behind"   # it resumes from the last sequence number it received
    SEAT_LEFT = "seat left"       # the seat is no longer the subscriber's


@dataclass
class Settings:
    decision_seconds: int = 30
    takeover_seconds: int = 60

    def validate(self) -> None:
        for name in ("decision_seconds", "takeover_seconds"):
            value = getattr(self, name)
            if not 0 <= value <= 24 * 3600:
                raise mapping.BadRequest(f"{name} must be 0 to 86400")


class Seat:
    __slots__ = ("kind", "name", "token_hash", "bot", "streams", "taken_over", "auto_draw", "epoch", "player")

    def __init__(self, row: SeatRow) -> None:
        self.kind, self.name, self.token_hash, self.bot = row.kind, row.name, row.token_hash, row.bot
        self.streams = 0          # live subscriptions with this seat's token
        self.taken_over = False   # a built-in bot plays while the player is gone
        self.auto_draw = False    # the timer declined for the seat, so the server draws for it too
        self.epoch = 0            # bumps on every connect, so a stale takeover timer does nothing
        self.player = None        # the built-in bot, when one plays the seat

    def row(self, seat: int) -> SeatRow:
        return SeatRow(seat, self.kind, self.name, self.token_hash, self.bot)

    @property
    def bot_playing(self) -> bool:
        return self.kind == "bot" or self.taken_over


class Subscriber:
    __slots__ = ("seat", "queue")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue = asyncio.Queue(SUBSCRIBER_QUEUE)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now_ms() -> int:
    return int(time.time() * 1000)


class Table:
    def __init__(self, row: TableRow, store: Store) -> None:
        self.id, self.name, self.n = row.id, row.name, row.seats
        self.rules = HouseRules.from_dict(row.rules)
        self.settings = Settings(**row.settings)
        self.seed = row.seed
        self.status = row.status
        self.store = store
        self.seats = [Seat(r) for r in sorted(row.seat_rows, key=lambda r: r.seat)]
        self.game: Game | None = None
        self.seq = row.last_sequence
        self.recent: deque[tuple[int, int | None, pb.Event]] = deque(maxlen=RECENT_EVENTS)
        self.subscribers: set[Subscriber] = set()
        self.deadline_ms = 0
        self._lock = asyncio.Lock()
        self._version = 0          # bumps on every game change: a stale timer does nothing
        self._timer: asyncio.TimerHandle | None = None
        self._bot_scheduled = False
        self._tasks: set[asyncio.Task] = set()
        self.closed = False
        if row.status != "waiting":
            self.game = Game.replay(self.n, self.rules, self.seed, [parse_command(c) for c in row.commands])
        for seat, state in enumerate(self.seats):
            if state.kind == "bot":
                state.player = self._bot(seat, state.bot)

    # --- the outside world's requests ----------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        name = _clean_name(name)
        async with self._lock:
            seat = self._free_seat(seat)
            token = secrets.token_urlsafe(24)
            self.seats[seat] = Seat(SeatRow(seat, "player", name, hash_token(token)))
            await self._commit([(None, self._seat_event(seat))], seat_row=self.seats[seat].row(seat))
            return seat, token

    async def add_bot(self, seat: int | None, strategy: str) -> int:
        async with self._lock:
            seat = self._free_seat(seat)
            self.seats[seat] = Seat(SeatRow(seat, "bot", f"{strategy} bot", "", strategy))
            self.seats[seat].player = self._bot(seat, strategy)
            await self._commit([(None, self._seat_event(seat))], seat_row=self.seats[seat].row(seat))
            return seat

    async def leave(self, token: str) -> None:
        async with self._lock:
            seat = self._seat_of(token)
            if self.status == "waiting":
                for subscriber in [s for s in self.subscribers if s.seat == seat]:
                    # the seat is no longer theirs: end their streams before anyone else can sit there
                    self.subscribers.discard(subscriber)
                    subscriber.queue.put_nowait(StreamEnd.SEAT_LEFT)
                self.seats[seat] = Seat(SeatRow(seat, "empty"))
                await self._commit([(None, self._seat_event(seat))], seat_row=self.seats[seat].row(seat))
            elif self.status == "playing" and not self.seats[seat].taken_over:
                await self._take_over(seat)

    async def start(self, token: str) -> None:
        async with self._lock:
            self._seat_of(token)
            if self.status != "waiting":
                raise Conflict("the game has already started")
            empty = [s for s, seat in enumerate(self.seats) if seat.kind == "empty"]
            if empty:
                raise Conflict(f"seats {empty} are empty: fill them with players or bots first")
            self.game = Game(self.n, self.rules, self.seed)
            self.status = "playing"
            for seat, state in enumerate(self.seats):
                if state.kind == "player" and state.streams == 0:
                    self._watch_gone(seat)
            await self._commit(self._wire(self.game.opening_events), status="playing")

    async def command(self, token: str, message: pb.Command) -> int:
        async with self._lock:
            seat = self._seat_of(token)
            command = mapping.command_from_pb(seat, message)
            if self.game is None:
                raise Conflict("the game has not started")
            await self._apply(command)
            self.seats[seat].auto_draw = False  # the person is back at the controls
            return self.seq

    async def chat(self, token: str, name: str, text: str) -> int:
        text = text.strip()
        if not text or len(text) > MAX_CHAT or not text.isprintable():
            raise mapping.BadRequest(f"a chat message is 1 to {MAX_CHAT} printable characters")
        async with self._lock:
            if token:
                seat = self._seat_of(token)
                message = pb.ChatPosted(seat=seat, name=self.seats[seat].name, text=text)
            else:
                message = pb.ChatPosted(name=f"{_clean_name(name)} (watching)", text=text)
            await self._commit([(None, pb.Event(chat_posted=message))])
            return self.seq

    async def snapshot(self, token: str) -> pb.Snapshot:
        async with self._lock:
            return self._snapshot(self._seat_of(token) if token else None)

    async def subscribe(self, token: str, from_sequence: int | None
                        ) -> tuple[pb.Snapshot, list[pb.Event], Subscriber]:
        """Register a subscriber; return the snapshot, the events after ``from_sequence`` that it
        reflects (history, in order; none if None) and the subscriber whose queue carries the rest."""
        async with self._lock:
            seat = self._seat_of(token) if token else None
            if len(self.subscribers) >= MAX_SUBSCRIBERS:
                raise Full(f"this table already has {MAX_SUBSCRIBERS} streams")
            snapshot = self._snapshot(seat)
            subscriber = Subscriber(seat)
            self.subscribers.add(subscriber)
            history = [] if from_sequence is None else await self._history(seat, from_sequence, self.seq)
            if seat is not None:
                await self._connected(seat)
            return snapshot, history, subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Called when a stream ends, however it ends; the bookkeeping runs as a task of its own."""
        if subscriber in self.subscribers and not self.closed:
            self.subscribers.discard(subscriber)
            if subscriber.seat is not None:
                self._spawn(self._disconnected(subscriber.seat))

    def info(self) -> pb.TableInfo:
        return pb.TableInfo(
            table_id=self.id, name=self.name, seats=self.n, status=STATUS[self.status],
            rules=mapping.rules_to_pb(self.rules),
            settings=pb.TableSettings(decision_seconds=self.settings.decision_seconds,
                                      takeover_seconds=self.settings.takeover_seconds),
            seat_info=[self._seat_info(s) for s in range(self.n)], last_sequence=self.seq)

    def resume(self) -> None:
        """After a restart: every player is gone until it subscribes again; timers and bots start over."""
        for seat, state in enumerate(self.seats):
            if state.kind == "player":
                self._watch_gone(seat)
        self._version += 1
        self._set_deadline(self._awaited())  # the decision requests themselves were stored before
        self._after_change()

    def close(self) -> None:
        self.closed = True
        if self._timer:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()

    # --- applying commands ---------------------------------------------------------------------

    async def _apply(self, command: Command, timer: bool = False) -> None:
        """Apply through the engine (RuleError leaves everything as it was), store, then publish."""
        events = self.game.apply(command)
        items = self._wire(events)
        if timer:
            items.insert(0, (None, pb.Event(timer_expired=pb.TimerExpired(
                seat=command.seat, command=mapping.command_to_pb(command)))))
        finished = self.game.over
        if finished:
            self.status = "finished"
        await self._commit(items, command=(len(self.game.log) - 1, format_command(command)),
                           status="finished" if finished else None)

    def _wire(self, events) -> list[tuple[int | None, pb.Event]]:
        items = [(e.to, mapping.event_to_pb(e, self.rules)) for e in events]
        self._version += 1
        return items + self._decisions()

    def _decisions(self) -> list[tuple[int | None, pb.Event]]:
        """A private DecisionRequest for every player seat the game now waits for."""
        waiting = self._awaited()
        self._set_deadline(waiting)
        return [(s, pb.Event(decision_request=pb.DecisionRequest(
            seat=s, legal_commands=[mapping.command_to_pb(c) for c in self.game.legal_commands(s)],
            deadline_ms=self.deadline_ms))) for s in waiting]

    def _awaited(self) -> list[int]:
        """The seats the game waits for that a person (or a remote bot) plays."""
        if self.game is None or self.game.over:
            return []
        return [s for s in self.game.to_act() if not self._server_plays(s)]

    def _set_deadline(self, waiting: list[int]) -> None:
        seconds = self.settings.decision_seconds
        self.deadline_ms = now_ms() + seconds * 1000 if waiting and seconds else 0

    async def _commit(self, items: list[tuple[int | None, pb.Event]], *, command: tuple[int, str] | None = None,
                      seat_row: SeatRow | None = None, status: str | None = None) -> None:
        stamp = now_ms()
        rows: list[EventRow] = []
        for audience, message in items:
            self.seq += 1
            message.sequence = self.seq
            message.time_ms = stamp
            rows.append((self.seq, audience, message.SerializeToString()))
        await self.store.record(self.id, command=command, events=rows, seat=seat_row, status=status)
        for audience, message in items:
            self.recent.append((message.sequence, audience, message))
        self._publish(items)
        self._after_change()

    def _publish(self, items: list[tuple[int | None, pb.Event]]) -> None:
        """Each subscriber gets, in one batch, the events of this change that it may see."""
        for subscriber in list(self.subscribers):
            seat = subscriber.seat
            batch = [message for audience, message in items if audience is None or audience == seat]
            if not batch:
                continue
            try:
                subscriber.queue.put_nowait(batch)
            except asyncio.QueueFull:  # too far behind: drop it, it resumes from its last sequence
                self.subscribers.discard(subscriber)
                while not subscriber.queue.empty():
                    subscriber.queue.get_nowait()
                subscriber.queue.put_nowait(StreamEnd.FELL_BEHIND)
                if seat is not None:
                    self._spawn(self._disconnected(seat))

    # --- timers and bots -----------------------------------------------------------------------

    def _server_plays(self, seat: int) -> bool:
        state = self.seats[seat]
        return state.bot_playing or (state.auto_draw and self.game.phase is Phase.DRAW)

    def _after_change(self) -> None:
        if self.closed or self.game is None or self.game.over:
            return
        if any(self._server_plays(s) for s in self.game.to_act()) and not self._bot_scheduled:
            self._bot_scheduled = True
            self._spawn(self._bot_step())
        if self._timer:
            self._timer.cancel()
            self._timer = None
        if self.deadline_ms:
            version = self._version
            delay = max(0.0, (self.deadline_ms - now_ms()) / 1000)
            self._timer = asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._timer_expired(version)))

    async def _bot_step(self) -> None:
        """One move by a seat the server plays; the next is scheduled after it, so tables take turns."""
        async with self._lock:
            self._bot_scheduled = False
            if self.game is None or self.game.over:
                return
            for seat in self.game.to_act():
                if self._server_plays(seat):
                    state = self.seats[seat]
                    if state.auto_draw:
                        state.auto_draw = False
                        await self._apply(Draw(seat), timer=True)
                    else:
                        view = self.game.view(seat)
                        command = state.player.choose(view)
                        if command not in view.legal and not self.game.is_legal(command):
                            command = view.legal[0]  # never let a confused bot stall the table
                        await self._apply(command)
                    return

    async def _timer_expired(self, version: int) -> None:
        """The safe default for every seat still awaited: pass on buys, decline and draw, discard the
        highest-point card."""
        async with self._lock:
            if version != self._version or self.game is None or self.game.over:
                return
            for seat in [s for s in self.game.to_act() if not self._server_plays(s)]:
                if self.game.over or seat not in self.game.to_act():
                    continue  # an earlier default settled the offer
                if self.game.phase is Phase.BUY:
                    await self._apply(PassBuy(seat), timer=True)
                elif self.game.phase is Phase.PICK_UP:
                    self.seats[seat].auto_draw = True
                    await self._apply(DeclineDiscard(seat), timer=True)
                elif self.game.phase is Phase.DRAW:
                    await self._apply(Draw(seat), timer=True)
                else:
                    card = max(self.game.players[seat].hand, key=lambda c: (c.points, c.id))
                    await self._apply(Discard(seat, card), timer=True)

    async def _connected(self, seat: int) -> None:
        state = self.seats[seat]
        state.streams += 1
        state.epoch += 1
        if state.streams == 1 or state.taken_over:
            state.taken_over = False
            state.player = None
            items = [(None, self._seat_event(seat))]
            if self.game is not None and not self.game.over:
                self._version += 1
                items += self._decisions()  # the game waits for the person again
            await self._commit(items)

    async def _disconnected(self, seat: int) -> None:
        async with self._lock:
            state = self.seats[seat]
            state.streams = max(0, state.streams - 1)
            if state.streams == 0 and not self.closed:
                await self._commit([(None, self._seat_event(seat))])
                if self.status == "playing":
                    self._watch_gone(seat)

    def _watch_gone(self, seat: int) -> None:
        seconds = self.settings.takeover_seconds
        if seconds:
            epoch = self.seats[seat].epoch
            asyncio.get_running_loop().call_later(
                seconds, lambda: self._spawn(self._takeover_if_gone(seat, epoch)))

    async def _takeover_if_gone(self, seat: int, epoch: int) -> None:
        async with self._lock:
            state = self.seats[seat]
            if state.epoch == epoch and state.streams == 0 and not state.taken_over and self.status == "playing":
                await self._take_over(seat)

    async def _take_over(self, seat: int) -> None:
        state = self.seats[seat]
        state.taken_over = True
        state.player = self._bot(seat, "greedy")
        self._version += 1
        await self._commit([(None, self._seat_event(seat))] + self._decisions())

    def _bot(self, seat: int, strategy: str):
        """A built-in bot for ``seat``; a random one draws from its own seeded stream."""
        return BOTS[strategy](self.seed + 1 + seat)

    def _spawn(self, coro: Awaitable) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- helpers -------------------------------------------------------------------------------

    def _seat_of(self, token: str) -> int:
        if not token:
            raise Unauthenticated("this needs the seat's token, given when the seat was joined")
        digest = hash_token(token)
        for seat, state in enumerate(self.seats):
            if state.kind == "player" and hmac.compare_digest(state.token_hash, digest):
                return seat
        raise PermissionDenied("that token holds no seat at this table")

    def _free_seat(self, seat: int | None) -> int:
        if self.status != "waiting":
            raise Conflict("the game has started: no seat is free")
        if seat is None:
            seat = next((s for s, state in enumerate(self.seats) if state.kind == "empty"), None)
            if seat is None:
                raise Conflict("the table is full")
            return seat
        if not 0 <= seat < self.n:
            raise mapping.BadRequest(f"there is no seat {seat} at this table of {self.n}")
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
        snapshot = pb.Snapshot(table=self.info(), sequence=self.seq, decision_deadline_ms=self.deadline_ms)
        if self.game is not None:
            snapshot.game.CopyFrom(mapping.view_to_pb(self.game.view(seat), self.game.winners))
        return snapshot

    async def _history(self, seat: int | None, after: int, upto: int) -> list[pb.Event]:
        if after >= upto:
            return []
        if self.recent and self.recent[0][0] <= after + 1:
            rows = [(s, a, m) for s, a, m in self.recent if after < s <= upto]
            return [m for s, a, m in rows if a is None or a == seat]
        stored = await self.store.events_after(self.id, after, upto)
        return [pb.Event.FromString(data) for s, a, data in stored if a is None or a == seat]


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise mapping.BadRequest(f"a name is 1 to {MAX_NAME} printable characters")
    return name


class Lobby:
    """The tables of this server: the open ones from the store at start-up, and those made since.
    Finished tables stay listed (and watchable) until MAX_FINISHED newer ones push them out of memory;
    their games stay in the store."""

    MAX_TABLES = 5000    # open tables (waiting or playing)
    MAX_FINISHED = 200

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}

    async def load(self) -> None:
        for row in await self.store.load_tables():
            table = Table(row, self.store)
            self.tables[row.id] = table
            if table.status == "playing":
                table.resume()

    async def create(self, name: str, seats: int, rules: HouseRules, settings: Settings,
                     seed: int | None) -> Table:
        finished = [t for t in self.tables.values() if t.status == "finished"]
        for table in finished[:max(0, len(finished) - self.MAX_FINISHED)]:  # oldest first
            table.close()
            del self.tables[table.id]
        if len(self.tables) - min(len(finished), self.MAX_FINISHED) >= self.MAX_TABLES:
            raise Full("this server has as many open tables as it can hold")
        rules.validate(seats)
        settings.validate()
        name = _clean_name(name or "table")
        table_id = secrets.token_hex(4)
        row = TableRow(table_id, name, seats, rules.to_dict(), settings.__dict__.copy(),
                       seed if seed is not None else secrets.randbits(63), "waiting", time.time(),
                       [SeatRow(s, "empty") for s in range(seats)])
        await self.store.create_table(row)
        table = Table(row, self.store)
        self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise NotFound(f"no table {table_id!r}")
        return table

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
