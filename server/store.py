"""SQLite storage: tables, seats, every accepted command and every event, written before events go out.

One connection, used from one worker thread, so the event loop never waits on the disk and writes
never interleave. WAL with synchronous=NORMAL: a committed write survives the process being killed
(SIGKILL); only a power cut may lose the last moments.

Every write (a new table, a record) goes through one queue and one path: the records that arrive while a
commit runs go together in the next transaction (group commit). If that transaction fails, each of its
records is retried in a transaction of its own, so only a record that fails by itself gets an error
(`StoreError`); the connection is never left inside a transaction.

Checkpoints (which fsync) run on a thread of their own, so that commits do not wait for them. A writer
that never pauses keeps a PASSIVE checkpoint from ever reaching the end of the WAL, so the WAL would grow
without bound: when the -wal file passes `wal_limit`, the writer, between two transactions, runs a
RESTART checkpoint (the PASSIVE ones have copied most of the WAL by then, so it is short), and
`journal_size_limit` keeps the file at most that big.

Reading for a restart is cheap: `list_tables` reads table and seat rows only, `load_table` one table's
latest stored state and the commands after it, `events_page` a bounded page of events.

Reads a client can cause (`load_table`: a finished game read back, a game read after a restart;
`events_page`: history for a resuming stream; `finished_ids`) run on a reader thread with a connection of its
own, so that they never queue behind the writer's commits nor hold them up (WAL: readers and the writer do not
block each other).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from queue import SimpleQueue
from typing import Any, TypeVar

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.wire.record import EventRow as EventRow
from tenpennies.wire.record import GameRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

# The game a table plays (engine.games); a row made before tables said so plays the default game.
GAME_COLUMN = f"game TEXT NOT NULL DEFAULT '{DEFAULT_GAME}'"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL, rules TEXT NOT NULL,
    settings TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL, created REAL NOT NULL,
    creator TEXT NOT NULL DEFAULT '', last_sequence INTEGER NOT NULL DEFAULT 0, {GAME_COLUMN});
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL, bot TEXT NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT NOT NULL, idx INTEGER NOT NULL, command TEXT NOT NULL, PRIMARY KEY (table_id, idx));
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, audience INTEGER, data BLOB NOT NULL,
    chat INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, seq));
CREATE TABLE IF NOT EXISTS states (
    table_id TEXT PRIMARY KEY, applied INTEGER NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_bots (
    tournament TEXT NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL, registered REAL NOT NULL,
    PRIMARY KEY (tournament, name));
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament TEXT NOT NULL, game INTEGER NOT NULL, table_id TEXT NOT NULL, names TEXT NOT NULL,
    result TEXT, finished INTEGER, host_token TEXT NOT NULL DEFAULT '', PRIMARY KEY (tournament, game));
"""

# Columns added since the first schema: an older file gets them (ALTER TABLE) when it is opened.
ADDED_COLUMNS = {
    "tables": [("creator", "TEXT NOT NULL DEFAULT ''"), ("last_sequence", "INTEGER NOT NULL DEFAULT 0"),
               ("game", GAME_COLUMN.removeprefix("game "))],
    "events": [("chat", "INTEGER NOT NULL DEFAULT 0")],
    "tournament_bots": [("address", "TEXT NOT NULL DEFAULT ''")],
}

# Created after the columns they index exist.
INDEXES = """
CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, created);
CREATE INDEX IF NOT EXISTS chat_events ON events (table_id, seq) WHERE chat = 1;
"""

# The `chat` column marks transient events (named for chat lines, the first of them): the oldest past the
# newest transient_kept of a table, and deleting it and older ones.
TRANSIENT_CUTOFF = "SELECT seq FROM events WHERE table_id = ? AND chat = 1 ORDER BY seq DESC LIMIT 1 OFFSET ?"
TRANSIENT_TRIM = "DELETE FROM events WHERE table_id = ? AND chat = 1 AND seq <= ?"

OPEN_STATUSES = ("waiting", "playing")
STATUSES = ("waiting", "playing", "finished", "expired")


@dataclass
class TournamentGameRow:
    """One game of a tournament: its number (from 0), its table, the bots' names by seat, and once it is
    over its result (``{"scores", "winners", "tallies", "illegal", "timed_out"}`` by seat) and its place in
    the order games finished (from 0: the order ratings are updated in). ``host_token``: the table's host
    token, kept only until the game is over (it can do nothing once the game has started; a restart between
    making the table and starting the game needs it)."""

    game: int
    table_id: str
    names: list[str]
    result: dict[str, Any] | None = None
    finished: int | None = None
    host_token: str = ""


class StoreError(Exception):
    """A write that could not be stored (the cause is chained); nothing of it was stored."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str = ""
    token_hash: str = ""
    bot: str = ""


@dataclass
class TableRow:
    id: str
    name: str
    seats: int
    rules: dict[str, Any]
    settings: dict[str, Any]
    seed: int                      # 0 .. 2**64-1
    status: str                    # waiting, playing, finished or expired
    created: float
    seat_rows: list[SeatRow] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)   # the commands after `state` (all if state is None)
    last_sequence: int = 0
    creator: str = ""              # the creating client's address
    state: dict[str, Any] | None = None                 # the latest stored game state
    state_applied: int = 0         # how many commands `state` covers: commands[0] has this index
    game: str = DEFAULT_GAME       # the game it plays, by its name in engine.games


CHECKPOINT_SECONDS = 2.0
WAL_LIMIT = 32 << 20
TRANSIENT_KEPT = 500
BUSY_TIMEOUT_MS = 10_000       # waiting for another process's write transaction
RESTART_WAIT_MS = 250          # waiting for another process's readers to let the WAL restart
RESTART_RETRY_SECONDS = 2.0
PASSIVE_EVERY_COMMITS = 32

SIGNED = 1 << 63
UNSIGNED = 1 << 64


def seed_to_db(seed: int) -> int:
    """A uint64 seed as the signed 64-bit integer SQLite can hold (the same 64 bits)."""
    if not 0 <= seed < UNSIGNED:
        raise ValueError(f"a seed is 0 .. 2**64-1, not {seed}")
    return seed - UNSIGNED if seed >= SIGNED else seed


def seed_from_db(value: int) -> int:
    return value + UNSIGNED if value < 0 else value


# A write queued for the writer thread: the function that performs it inside a transaction, its arguments,
# the loop and future of the caller waiting for it.
_Op = tuple[Callable[..., str | None], tuple[Any, ...], asyncio.AbstractEventLoop, asyncio.Future[None]]


class Writer(Executor):
    """The writer's thread: runs what it is handed one at a time, in order (the writer's connection is used by it
    alone). Waking it for a group commit (``call``) is a queue's put: no future, no executor bookkeeping, which
    were a share of every command's hand-off; ``submit`` (an Executor's) is for the rest (reads on the writer's
    connection, opening and closing it)."""

    def __init__(self, name: str) -> None:
        self._jobs: SimpleQueue[Callable[[], object] | None] = SimpleQueue()
        self._stopped = False
        self._thread = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def call(self, fn: Callable[[], object]) -> None:
        """Run ``fn()`` on the writer's thread, after what it has been handed already (RuntimeError once shut down)."""
        if self._stopped:
            raise RuntimeError("cannot schedule new work after shutdown")
        self._jobs.put(fn)

    def waiting(self) -> bool:
        """Whether work waits for the thread."""
        return not self._jobs.empty()

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()

        def job() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:
                future.set_exception(error)
            else:
                future.set_result(result)
        self.call(job)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if not self._stopped:
            self._stopped = True
            self._jobs.put(None)
        if wait and self._thread is not threading.current_thread():
            self._thread.join()

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job()
            except Exception:  # (a job reports its own outcome; this is a fault of the store's)
                log.exception("the store's writer failed")


class Store:
    def __init__(self, path: str, *, wal_limit: int = WAL_LIMIT, transient_kept: int = TRANSIENT_KEPT) -> None:
        if wal_limit <= 0 or transient_kept < 0:
            raise ValueError("wal_limit must be positive and transient_kept not negative")
        self.path = path
        self.wal_limit = wal_limit
        self.transient_kept = transient_kept
        self._wal_path = path + "-wal"
        self._pool = Writer("store")
        self._db: sqlite3.Connection | None = None
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-read")
        self._read_db: sqlite3.Connection | None = None  # opened by the reader thread, used by it alone
        self._lock = threading.Lock()            # guards _pending, _flushing, _closed
        self._pending: list[_Op] = []
        self._flushing = False
        self._closed = False
        self._closing = threading.Event()
        self._wake = threading.Event()           # the writer asks the checkpoint thread for a PASSIVE one
        self._checkpoint_lock = threading.Lock()  # one checkpoint at a time (SQLite would refuse a second)
        self._since_wake = 0                     # commits since the checkpoint thread was last woken
        # Wake it every so many commits: about an eighth of wal_limit at 16 KiB a commit, at least 32.
        self._passive_every = max(PASSIVE_EVERY_COMMITS, wal_limit // (8 * 16384))
        self._passive_at = wal_limit // 8        # or once the -wal file is this big
        self._restart_after = 0.0                # after a RESTART that could not finish, wait a while
        self.checkpoints = {"passive": 0, "restart": 0, "restart_busy": 0}
        self._checkpointer = threading.Thread(target=self._checkpoint_now_and_then, name="checkpoint",
                                              daemon=True)
        try:
            self._pool.submit(self._open).result()
        except BaseException:
            self._pool.shutdown(wait=True)
            self._reader.shutdown(wait=True)
            raise
        self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        db.execute(f"PRAGMA journal_size_limit={self.wal_limit}")
        return db

    def _connect_writer(self) -> sqlite3.Connection:
        db = self._connect()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpoint thread and the writer see to it
        return db

    def _open(self) -> None:
        db = self._connect_writer()
        try:
            db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            self._migrate(db)
            for statement in INDEXES.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.close()
            raise
        self._db = db

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        """Add the columns a file made by an older version lacks; fill in what they hold."""
        for table, columns in ADDED_COLUMNS.items():
            present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            for name, definition in columns:
                if name in present:
                    continue
                db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
                if (table, name) == ("tables", "last_sequence"):  # once: the primary key finds each max
                    db.execute("UPDATE tables SET last_sequence = "
                               "(SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = tables.id)")

    def close(self) -> None:
        """Store what is queued, stop the checkpoint thread, close the file (SQLite checkpoints it then)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._closing.set()
        self._wake.set()
        if self._checkpointer.is_alive():
            self._checkpointer.join()
        self._pool.submit(self._shut).result()
        self._pool.shutdown(wait=True)
        self._reader.submit(self._shut_reader).result()
        self._reader.shutdown(wait=True)

    async def renew_connections(self) -> None:
        """Close the writer's and the reader's connections and open them afresh (the reader's when next
        needed), each on its own thread, between transactions. What a connection gathers while the server is
        busy stays with it: SQLite's page cache (up to 2 MiB each) and statements, and the Python list that
        remembers each cursor made on it (a weak reference a cursor, pruned every 200 cursors; each may sit in
        an arena of the allocator's that holds nothing else any more): a quiet server calls this to give them
        back (``Server``'s housekeeping)."""
        await self._run(self._renew_writer)
        if self._closed:
            return
        await asyncio.get_running_loop().run_in_executor(self._reader, self._shut_reader)

    def _renew_writer(self) -> None:
        if self._db is None:  # closed meanwhile
            return
        fresh = self._connect_writer()
        self._db.close()
        self._db = fresh

    def _shut_reader(self) -> None:
        if self._read_db is not None:
            self._read_db.close()
            self._read_db = None

    def _shut(self) -> None:
        while self._flush_batch():
            pass
        if self._db is not None:
            self._db.close()
            self._db = None

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreError("the store is closed")
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(db, *args)`` on the reader thread, with its own connection (never the writer's)."""
        if self._closed:
            raise StoreError("the store is closed")
        return await asyncio.get_running_loop().run_in_executor(self._reader, self._reading, fn, args)

    def _reading(self, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        if self._read_db is None:
            self._read_db = self._connect()
        return fn(self._read_db, *args)

    # --- checkpoints ---

    def _wal_size(self) -> int:
        try:
            return os.stat(self._wal_path).st_size
        except FileNotFoundError:
            return 0

    def _checkpoint_now_and_then(self) -> None:
        """PASSIVE checkpoints, every CHECKPOINT_SECONDS and whenever the writer says the WAL has grown.
        They never block the writer; they copy most of the WAL so that a RESTART has little left to do."""
        db = self._connect()
        try:
            while not self._closing.is_set():
                self._wake.wait(CHECKPOINT_SECONDS)
                self._wake.clear()
                if self._closing.is_set():
                    break
                with self._checkpoint_lock:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                self.checkpoints["passive"] += 1
        except Exception:  # the writer still restarts the WAL when it is too big
            log.exception("checkpoint thread stopped")
        finally:
            db.close()

    def _after_commit(self) -> None:
        """On the writer thread, between transactions: keep the WAL under wal_limit.

        Once the WAL holds more than wal_limit, a RESTART checkpoint (the PASSIVE ones have copied most
        of it already) makes the next transaction write from the start of the file again; the file keeps
        its size (journal_size_limit trims anything past wal_limit), so no large truncation either.
        After a restart, the file grows past wal_limit only when the WAL holds more than that again."""
        size = self._wal_size()
        if size > self.wal_limit and time.monotonic() >= self._restart_after:
            db = self._db
            assert db is not None
            with self._checkpoint_lock:  # if a PASSIVE one runs, it leaves this one less to do
                db.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")  # commits wait meanwhile: not long
                try:
                    busy, _, _ = db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                finally:
                    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if busy:  # another process's reader kept the WAL from restarting: try again a little later
                self.checkpoints["restart_busy"] += 1
                self._restart_after = time.monotonic() + RESTART_RETRY_SECONDS
            else:
                self.checkpoints["restart"] += 1
            self._passive_at = self.wal_limit
            return
        self._since_wake += 1
        if self._since_wake >= self._passive_every or size > self._passive_at:
            self._since_wake = 0
            self._passive_at = size + self.wal_limit // 8
            self._wake.set()

    # --- writes ---

    async def create_table(self, row: TableRow) -> None:
        if row.status not in STATUSES:
            raise ValueError(f"unknown status {row.status!r}")
        values = (row.id, row.name, row.seats, json.dumps(row.rules), json.dumps(row.settings),
                  seed_to_db(row.seed), row.status, row.created, row.creator, row.game)
        seats = [(row.id, s.seat, s.kind, s.name, s.token_hash, s.bot) for s in row.seat_rows]
        await self._submit(self._insert_table, (values, seats))

    def _insert_table(self, values: tuple[Any, ...], seats: list[tuple[Any, ...]]) -> None:
        db = self._db
        assert db is not None
        db.execute("INSERT INTO tables (id, name, seats, rules, settings, seed, status, created, creator, game) "
                   "VALUES (?,?,?,?,?,?,?,?,?,?)", values)
        db.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?)", seats)

    async def record(self, table_id: str, *, command: tuple[int, str] | None = None,
                     events: Sequence[EventRow] = (), seat: SeatRow | None = None, status: str | None = None,
                     state: tuple[int, dict[str, Any]] | None = None, transient: bool = False) -> None:
        """Store a command (its index and text), its events, a seat's change, a new status, the game state
        after the table's first `state[0]` commands (only the latest is kept); return once committed.
        With `transient`, the events are worth keeping only in a bounded number (chat lines, a seat's
        connection coming and going): a table keeps the newest `transient_kept` of them.
        Raises StoreError if it could not be stored (then nothing of it was)."""
        await self.record_soon(table_id, command=command, events=events, seat=seat, status=status, state=state,
                               transient=transient)

    def record_soon(self, table_id: str, *, command: tuple[int, str] | None = None,
                    events: Sequence[EventRow] = (), seat: SeatRow | None = None, status: str | None = None,
                    state: tuple[int, dict[str, Any]] | None = None, transient: bool = False) -> asyncio.Future[None]:
        """``record``, handed to the writer at once: the future is done once it is committed (or with
        StoreError). Call it on the event loop."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        seat_values = None if seat is None else (table_id, seat.seat, seat.kind, seat.name, seat.token_hash,
                                                 seat.bot)
        state_values = None if state is None else (table_id, state[0], json.dumps(state[1]))
        return self._submit_soon(self._write, (table_id, command, list(events), seat_values, status, state_values,
                                               transient))

    def _write(self, table_id: str, command: tuple[int, str] | None, events: list[EventRow],
               seat: tuple[Any, ...] | None, status: str | None, state: tuple[int, int, str] | None,
               transient: bool) -> str | None:
        """Inside a transaction; returns the table id if transient events were added (to trim them)."""
        db = self._db
        assert db is not None
        if command is not None:
            db.execute("INSERT INTO commands VALUES (?,?,?)", (table_id, command[0], command[1]))
        if events:
            db.executemany("INSERT INTO events (table_id, seq, audience, data, chat) VALUES (?,?,?,?,?)",
                           [(table_id, seq, audience, data, int(transient)) for seq, audience, data in events])
            db.execute("UPDATE tables SET last_sequence = MAX(last_sequence, ?) WHERE id = ?",
                       (max(seq for seq, _, _ in events), table_id))
        if seat is not None:
            db.execute("INSERT OR REPLACE INTO seats VALUES (?,?,?,?,?,?)", seat)
        if status is not None:
            db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
        if state is not None:
            db.execute("INSERT OR REPLACE INTO states VALUES (?,?,?)", state)
        return table_id if transient and events else None

    def _trim_transient(self, table_id: str) -> None:
        """Delete all but the newest transient_kept transient events of a table (both use the chat index)."""
        db = self._db
        assert db is not None
        row = db.execute(TRANSIENT_CUTOFF, (table_id, self.transient_kept)).fetchone()
        if row is not None:
            db.execute(TRANSIENT_TRIM, (table_id, row[0]))

    async def _submit(self, fn: Callable[..., str | None], args: tuple[Any, ...]) -> None:
        await self._submit_soon(fn, args)

    def _submit_soon(self, fn: Callable[..., str | None], args: tuple[Any, ...]) -> asyncio.Future[None]:
        """Queue a write for the writer's next group commit; the future says how it went (StoreError)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if self._closed:
                done.set_exception(StoreError("the store is closed"))
                return done
            self._pending.append((fn, args, loop, done))
            start = not self._flushing
            self._flushing = True
        if start:
            self._pool.call(self._flush)
        return done

    def _flush(self) -> None:
        """Group commits while writes come; when other work for the writer's connection waits (``_run``), the
        next commit queues behind it."""
        while self._flush_batch():
            if self._pool.waiting():
                try:
                    self._pool.call(self._flush)
                except RuntimeError:  # shut down: _shut has stored everything queued
                    pass
                return

    def _flush_batch(self) -> bool:
        """Store the queued writes; False (and no flush under way) if there were none."""
        with self._lock:
            batch, self._pending = self._pending, []
            if not batch:
                self._flushing = False
                return False
        errors: list[BaseException | None] = [None] * len(batch)
        try:
            if self._db is None:
                raise StoreError("the store is closed")
            error = self._transaction(batch)
            if error is not None:
                if len(batch) == 1:
                    errors[0] = error
                else:  # find the record(s) at fault: each on its own
                    errors = [self._transaction([op]) for op in batch]
            try:
                self._after_commit()
            except Exception:
                log.exception("checkpoint failed")
        except BaseException as exc:  # never leave a caller waiting
            errors = [exc] * len(batch)
        _settle_all(batch, errors)
        return True

    def _transaction(self, ops: Iterable[_Op]) -> StoreError | None:
        """Perform ops in one transaction; if it fails, roll it back and return the error."""
        db = self._db
        assert db is not None
        try:
            db.execute("BEGIN IMMEDIATE")
            trimmed_tables = {fn(*args) for fn, args, _, _ in ops} - {None}
            for table_id in trimmed_tables:
                assert table_id is not None
                self._trim_transient(table_id)
            db.execute("COMMIT")
            return None
        except Exception as exc:
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    log.exception("rollback failed")
            error = StoreError(f"not stored: {exc}")
            error.__cause__ = exc
            return error

    async def add_tournament_bot(self, tournament: str, name: str, token_hash: str, address: str = "") -> None:
        """A bot registered under ``name`` by a client at ``address`` (StoreError if the name is taken: the
        primary key)."""
        await self._submit(self._insert_bot, (tournament, name, token_hash, time.time(), address))

    def _insert_bot(self, tournament: str, name: str, token_hash: str, registered: float, address: str) -> None:
        db = self._db
        assert db is not None
        db.execute("INSERT INTO tournament_bots (tournament, name, token_hash, registered, address) "
                   "VALUES (?,?,?,?,?)", (tournament, name, token_hash, registered, address))

    async def drop_tournament_bot(self, tournament: str, name: str) -> None:
        """Forget a bot's registration (one that went away without playing a game): its name is free."""
        await self._submit(self._drop_bot, (tournament, name))

    def _drop_bot(self, tournament: str, name: str) -> None:
        db = self._db
        assert db is not None
        db.execute("DELETE FROM tournament_bots WHERE tournament = ? AND name = ?", (tournament, name))

    async def add_tournament_game(self, tournament: str, row: TournamentGameRow) -> None:
        await self._submit(self._insert_game, (tournament, row.game, row.table_id, json.dumps(row.names),
                                               row.host_token))

    def _insert_game(self, tournament: str, game: int, table_id: str, names: str, host_token: str) -> None:
        db = self._db
        assert db is not None
        db.execute("INSERT INTO tournament_games (tournament, game, table_id, names, host_token) VALUES (?,?,?,?,?)",
                   (tournament, game, table_id, names, host_token))

    async def finish_tournament_game(self, tournament: str, game: int, result: dict[str, Any],
                                     finished: int) -> None:
        await self._submit(self._finish_game, (tournament, game, json.dumps(result), finished))

    def _finish_game(self, tournament: str, game: int, result: str, finished: int) -> None:
        db = self._db
        assert db is not None
        db.execute("UPDATE tournament_games SET result = ?, finished = ?, host_token = '' "
                   "WHERE tournament = ? AND game = ?",
                   (result, finished, tournament, game))

    async def drop_tournament_game(self, tournament: str, game: int) -> None:
        """Forget a game whose table never got going (its number is played again)."""
        await self._submit(self._drop_game, (tournament, game))

    def _drop_game(self, tournament: str, game: int) -> None:
        db = self._db
        assert db is not None
        db.execute("DELETE FROM tournament_games WHERE tournament = ? AND game = ? AND result IS NULL",
                   (tournament, game))

    # --- reads ---

    async def load_tournament(self, tournament: str) -> tuple[dict[str, tuple[str, str]], list[TournamentGameRow]]:
        """A tournament's bots (name -> (token hash, the address that registered it), in the order they
        registered) and games (by number)."""
        return await self._run(self._load_tournament, tournament)

    def _load_tournament(self, tournament: str) -> tuple[dict[str, tuple[str, str]], list[TournamentGameRow]]:
        db = self._db
        assert db is not None
        bots = {name: (token_hash, address) for name, token_hash, address in db.execute(
            "SELECT name, token_hash, address FROM tournament_bots WHERE tournament = ? ORDER BY registered, name",
            (tournament,))}
        games = [TournamentGameRow(game, table_id, json.loads(names),
                                   None if result is None else json.loads(result), finished, host_token)
                 for game, table_id, names, result, finished, host_token in db.execute(
                     "SELECT game, table_id, names, result, finished, host_token FROM tournament_games "
                     "WHERE tournament = ? ORDER BY game", (tournament,))]
        return bots, games

    async def list_tables(self) -> list[TableRow]:
        """The open tables (waiting or playing), oldest first, with their seats; no commands, no state.
        Reads table and seat rows only, however long the games' histories."""
        return await self._run(self._list_tables)

    def _list_tables(self) -> list[TableRow]:
        db = self._db
        assert db is not None
        marks = ",".join("?" * len(OPEN_STATUSES))
        rows: dict[str, TableRow] = {}
        for r in db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN ({marks}) ORDER BY created",
                            OPEN_STATUSES):
            rows[r[0]] = _table_row(r)
        for r in db.execute("SELECT s.table_id, s.seat, s.kind, s.name, s.token_hash, s.bot FROM tables t "
                            f"JOIN seats s ON s.table_id = t.id WHERE t.status IN ({marks})", OPEN_STATUSES):
            rows[r[0]].seat_rows.append(SeatRow(*r[1:]))
        for row in rows.values():
            row.seat_rows.sort(key=lambda s: s.seat)
        return list(rows.values())

    async def load_table(self, table_id: str) -> TableRow | None:
        """One table, whatever its status: seats, the latest stored state, the commands after it, the last
        sequence number. None if there is no such table."""
        return await self._read(_load_table, table_id)

    async def game_record(self, table_id: str) -> StoredGame | None:
        """The table's game, read whole (``read_game``'s reading, on the reader thread); None: no such table."""
        return await self._read(_game_record, table_id)

    async def finished_ids(self) -> set[str]:
        """The ids of every finished table (the lobby's index: an id in none of its lists is unknown)."""
        return await self._read(_finished_ids)

    async def events_page(self, table_id: str, after: int, upto: int, seat: int | None,
                          limit: int) -> list[EventRow]:
        """At most `limit` events with after < sequence <= upto, in order, that `seat` may see (those for
        everyone and those for that seat; for None, those for everyone)."""
        return await self._read(_events_page, table_id, after, upto, seat, limit)

    async def private_event_at(self, table_id: str, sequence: int, seat: int) -> bytes | None:
        """The event at ``sequence`` if it was ``seat``'s alone (its bytes); None if there is no such event."""
        return await self._read(_private_event_at, table_id, sequence, seat)

    async def private_tail(self, table_id: str, seats: Sequence[int], limit: int = 8) -> dict[int, list[bytes]]:
        """For each of ``seats``, its newest ``limit`` private events (the Event bytes), newest first."""
        return await self._read(_private_tail, table_id, list(seats), limit)


def _finished_ids(db: sqlite3.Connection) -> set[str]:
    return {table_id for (table_id,) in db.execute("SELECT id FROM tables WHERE status = 'finished'")}


def _load_table(db: sqlite3.Connection, table_id: str) -> TableRow | None:
    db.execute("BEGIN")  # one snapshot
    try:
        r = db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        if r is None:
            return None
        row = _table_row(r)
        row.seat_rows = [SeatRow(*s) for s in db.execute(
            "SELECT seat, kind, name, token_hash, bot FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,))]
        state = db.execute("SELECT applied, state FROM states WHERE table_id = ?", (table_id,)).fetchone()
        if state is not None:
            row.state_applied, row.state = state[0], json.loads(state[1])
        row.commands = [c for (c,) in db.execute(
            "SELECT command FROM commands WHERE table_id = ? AND idx >= ? ORDER BY idx",
            (table_id, row.state_applied))]
        return row
    finally:
        db.execute("COMMIT")


def _events_page(db: sqlite3.Connection, table_id: str, after: int, upto: int, seat: int | None,
                 limit: int) -> list[EventRow]:
    if seat is None:
        return list(db.execute(
            "SELECT seq, audience, data FROM events WHERE table_id = ? AND seq > ? AND seq <= ? "
            "AND audience IS NULL ORDER BY seq LIMIT ?", (table_id, after, upto, limit)))
    return list(db.execute(
        "SELECT seq, audience, data FROM events WHERE table_id = ? AND seq > ? AND seq <= ? "
        "AND (audience IS NULL OR audience = ?) ORDER BY seq LIMIT ?", (table_id, after, upto, seat, limit)))


def _private_event_at(db: sqlite3.Connection, table_id: str, sequence: int, seat: int) -> bytes | None:
    row = db.execute("SELECT data FROM events WHERE table_id = ? AND seq = ? AND audience = ?",
                     (table_id, sequence, seat)).fetchone()
    return None if row is None else bytes(row[0])


def _private_tail(db: sqlite3.Connection, table_id: str, seats: list[int], limit: int) -> dict[int, list[bytes]]:
    return {seat: [data for (data,) in db.execute(
        "SELECT data FROM events WHERE table_id = ? AND audience = ? ORDER BY seq DESC LIMIT ?",
        (table_id, seat, limit))] for seat in seats}


TABLE_COLUMNS = "id, name, seats, rules, settings, seed, status, created, creator, last_sequence, game"


def _table_row(r: Sequence[Any]) -> TableRow:
    return TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), seed_from_db(r[5]), r[6], r[7],
                    creator=r[8], last_sequence=r[9], game=r[10])


def _settle_all(batch: list[_Op], errors: list[BaseException | None]) -> None:
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
    for (_, _, loop, future), error in zip(batch, errors, strict=True):
        by_loop.setdefault(loop, []).append((future, error))
    for loop, outcomes in by_loop.items():
        try:
            loop.call_soon_threadsafe(_settle, outcomes)
        except RuntimeError:  # that loop is closed: nobody is waiting any more
            pass


def _settle(outcomes: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for future, error in outcomes:
        if not future.done():
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)


StoredGame = GameRecord  # the name the store has always used


class NoSuchGame(LookupError):
    pass


def read_game(db: str | Path, game_id: str) -> StoredGame:
    """The table ``game_id`` (or the one table whose id starts with it) from the file, opened read-only.
    Raises NoSuchGame, or sqlite3.Error for a file that is not a readable store."""
    path = Path(db)
    if not path.is_file():
        raise NoSuchGame(f"no such file: {path}")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        ids = [i for (i,) in conn.execute("SELECT id FROM tables WHERE id = ?", (game_id,))]
        if not ids:
            pattern = game_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            ids = [i for (i,) in conn.execute("SELECT id FROM tables WHERE id LIKE ? ESCAPE '\\' LIMIT 2",
                                              (pattern,))]
        if len(ids) != 1:
            raise NoSuchGame(f"no game {game_id!r} in {path}" if not ids
                             else f"more than one game in {path} starts with {game_id!r}")
        found = _game_record(conn, ids[0])
    finally:
        conn.close()
    assert found is not None
    return found


def _game_record(conn: sqlite3.Connection, table_id: str) -> StoredGame | None:
    """The table ``table_id``'s game, read whole (None: no such table); NoSuchGame for a game this program
    does not have. A file of an older schema is read as it is: a table that names no game plays the default."""
    named = "game" in {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
    query = f"SELECT id, name, seats, rules, seed, status, {'game' if named else '?'} FROM tables WHERE id = ?"
    row = conn.execute(query, (*(() if named else (DEFAULT_GAME,)), table_id)).fetchone()
    if row is None:
        return None
    table_id, name, seats, rules, seed, status, game = row
    try:
        played = kind(game)
    except LookupError:
        raise NoSuchGame(f"table {table_id} plays {game!r}, a game this program does not have") from None
    names = [""] * seats
    for seat, seat_name in conn.execute("SELECT seat, name FROM seats WHERE table_id = ?", (table_id,)):
        if 0 <= seat < seats:
            names[seat] = seat_name
    commands = [played.parse_command(text) for (text,) in conn.execute(
        "SELECT command FROM commands WHERE table_id = ? ORDER BY idx", (table_id,))]
    events: list[EventRow] = list(conn.execute(
        "SELECT seq, audience, data FROM events WHERE table_id = ? ORDER BY seq", (table_id,)))
    return StoredGame(table_id, name, seats, played.rules_from_dict(json.loads(rules)), seed_from_db(seed), status,
                      names, commands, game, events)


@dataclass
class PlayedGame:
    """A finished game as a list of played games shows it (the local games' history): its table, when it was
    made (``created``, seconds since the epoch), its seats' names and which of them people held (``people``;
    the others bots), and its end: ``final()`` is the game as it ended, from the latest stored state and the
    commands after it (the whole log where no state was stored). ``read_game`` reads it whole, to replay."""

    table_id: str
    name: str
    game: str
    created: float
    seats: int
    names: list[str]
    people: tuple[int, ...]
    rules: Any
    seed: int
    state: dict[str, Any] | None
    later: list[Any]  # the commands after ``state`` (all of them where there is none)

    def final(self) -> Any:
        """The game as it ended (an engine game of ``game``'s kind)."""
        played = kind(self.game)
        game = played.load(self.state) if self.state is not None else played.new(self.seats, self.rules, self.seed)
        for command in self.later:
            game.apply(command, trusted=True)
        return game


def played_games(db: str | Path, *, limit: int = 500) -> list[PlayedGame]:
    """The finished games in the file, newest first (at most ``limit``), opened read-only; games of a kind
    this program does not have are left out. Raises NoSuchGame for a missing file, sqlite3.Error for a file
    that is not a readable store."""
    path = Path(db)
    if not path.is_file():
        raise NoSuchGame(f"no such file: {path}")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    games: list[PlayedGame] = []
    try:
        named = "game" in {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
        rows = conn.execute(f"SELECT id, name, seats, rules, seed, created, {'game' if named else '?'} FROM tables "
                            "WHERE status = 'finished' ORDER BY created DESC, id LIMIT ?",
                            (*(() if named else (DEFAULT_GAME,)), limit)).fetchall()
        for table_id, name, seats, rules, seed, created, game in rows:
            try:
                played = kind(game)
            except LookupError:
                continue
            names, people = [""] * seats, []
            for seat, seat_name, seat_kind in conn.execute(
                    "SELECT seat, name, kind FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)):
                if 0 <= seat < seats:
                    names[seat] = seat_name
                    if seat_kind == "player":
                        people.append(seat)
            stored = conn.execute("SELECT applied, state FROM states WHERE table_id = ?", (table_id,)).fetchone()
            applied, state = (stored[0], json.loads(stored[1])) if stored is not None else (0, None)
            later = [played.parse_command(text) for (text,) in conn.execute(
                "SELECT command FROM commands WHERE table_id = ? AND idx >= ? ORDER BY idx", (table_id, applied))]
            games.append(PlayedGame(table_id, name, game, created, seats, names, tuple(people),
                                    played.rules_from_dict(json.loads(rules)), seed_from_db(seed), state, later))
    finally:
        conn.close()
    return games
