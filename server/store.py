"""SQLite storage: tables, seats, every accepted command and every event, written before events go out.

One connection, used from one worker thread, so the event loop never waits on the disk and writes
never interleave. WAL with synchronous=NORMAL: a committed write survives the process being killed
(SIGKILL); only a power cut may lose the last moments.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL, rules TEXT NOT NULL,
    settings TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    token_hash TEXT NOT NULL, bot TEXT NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE IF NOT EXISTS commands (
    table_id TEXT NOT NULL, idx INTEGER NOT NULL, command TEXT NOT NULL, PRIMARY KEY (table_id, idx));
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, audience INTEGER, data BLOB NOT NULL,
    PRIMARY KEY (table_id, seq));
"""


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
    seed: int
    status: str
    created: float
    seat_rows: list[SeatRow] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    last_sequence: int = 0


CHECKPOINT_SECONDS = 2.0
EventRow = tuple[int, int | None, bytes]  # (sequence, audience seat or None for all, Event bytes)


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._pending: list = []
        self._flushing = False
        self._pool.submit(self._open).result()

    def _open(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # Checkpoints (which fsync) run on a thread of their own, so that commits never wait for one.
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.executescript(SCHEMA)
        self._db = db
        self._checkpointer = threading.Thread(target=self._checkpoint_now_and_then, name="checkpoint", daemon=True)
        self._checkpointer.start()

    def _checkpoint_now_and_then(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self._closing.wait(CHECKPOINT_SECONDS):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    async def _run(self, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        self._closing.set()
        self._checkpointer.join()

        def shut() -> None:
            if self._db is not None:
                self._db.close()
                self._db = None
        self._pool.submit(shut).result()
        self._pool.shutdown(wait=True)

    # --- writes ---

    async def create_table(self, row: TableRow) -> None:
        await self._run(self._create_table, row)

    def _create_table(self, row: TableRow) -> None:
        db = self._db
        db.execute("BEGIN")
        db.execute("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?)",
                   (row.id, row.name, row.seats, json.dumps(row.rules), json.dumps(row.settings), row.seed,
                    row.status, row.created))
        db.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?)",
                       [(row.id, s.seat, s.kind, s.name, s.token_hash, s.bot) for s in row.seat_rows])
        db.execute("COMMIT")

    async def record(self, table_id: str, *, command: tuple[int, str] | None = None,
                     events: list[EventRow] = (), seat: SeatRow | None = None, status: str | None = None) -> None:
        """Store a command (its index and text), its events, a seat's change, a new status; return once
        committed. Records that arrive while a commit runs go together in the next one (group commit)."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        with self._lock:
            self._pending.append(((table_id, command, events, seat, status), done))
            start = not self._flushing
            self._flushing = True
        if start:
            self._pool.submit(self._flush, loop)
        await done

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._flushing = False
                    return
            error = None
            db = self._db
            db.execute("BEGIN")
            try:
                for record, _ in batch:
                    self._write(*record)
                db.execute("COMMIT")
            except Exception as exc:  # nothing of the batch is stored; every caller hears of it
                db.execute("ROLLBACK")
                error = exc
            loop.call_soon_threadsafe(_settle, [done for _, done in batch], error)

    def _write(self, table_id, command, events, seat, status) -> None:
        db = self._db
        if command is not None:
            db.execute("INSERT INTO commands VALUES (?,?,?)", (table_id, command[0], command[1]))
        if events:
            db.executemany("INSERT INTO events VALUES (?,?,?,?)",
                           [(table_id, seq, audience, data) for seq, audience, data in events])
        if seat is not None:
            db.execute("INSERT OR REPLACE INTO seats VALUES (?,?,?,?,?,?)",
                       (table_id, seat.seat, seat.kind, seat.name, seat.token_hash, seat.bot))
        if status is not None:
            db.execute("UPDATE tables SET status=? WHERE id=?", (status, table_id))

    # --- reads ---

    async def load_tables(self) -> list[TableRow]:
        """The open tables (waiting or playing), with their seats and command logs. Finished games stay
        in the store, for replay, and are not loaded."""
        return await self._run(self._load_tables)

    def _load_tables(self) -> list[TableRow]:
        db = self._db
        rows = {}
        for r in db.execute("SELECT id, name, seats, rules, settings, seed, status, created FROM tables "
                            "WHERE status != 'finished' ORDER BY created"):
            rows[r[0]] = TableRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]), r[5], r[6], r[7])
        open_ids = "SELECT id FROM tables WHERE status != 'finished'"
        for table_id, seat, kind, name, token_hash, bot in db.execute(
                f"SELECT * FROM seats WHERE table_id IN ({open_ids}) ORDER BY seat"):
            rows[table_id].seat_rows.append(SeatRow(seat, kind, name, token_hash, bot))
        for table_id, command in db.execute(
                f"SELECT table_id, command FROM commands WHERE table_id IN ({open_ids}) ORDER BY table_id, idx"):
            rows[table_id].commands.append(command)
        for table_id, last in db.execute(
                f"SELECT table_id, MAX(seq) FROM events WHERE table_id IN ({open_ids}) GROUP BY table_id"):
            rows[table_id].last_sequence = last
        return list(rows.values())

    async def events_after(self, table_id: str, after: int, upto: int) -> list[EventRow]:
        return await self._run(self._events_after, table_id, after, upto)

    def _events_after(self, table_id: str, after: int, upto: int) -> list[EventRow]:
        return list(self._db.execute(
            "SELECT seq, audience, data FROM events WHERE table_id=? AND seq>? AND seq<=? ORDER BY seq",
            (table_id, after, upto)))


def _settle(futures: list[asyncio.Future], error: Exception | None) -> None:
    for future in futures:
        if not future.done():
            if error is None:
                future.set_result(None)
            else:
                future.set_exception(error)
