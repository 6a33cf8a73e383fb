"""The store on a real SQLite file: failures that stay with their record, a bounded WAL, bounded chat,
cheap reads for a restart, and files written by the first schema."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.ten_pennies import DeclineDiscard, HouseRules
from tenpennies.server.store import (
    SCHEMA,
    TRANSIENT_CUTOFF,
    TRANSIENT_TRIM,
    EventRow,
    SeatRow,
    Store,
    StoreError,
    TableRow,
    read_game,
)

# The schema of the first version, as files written by it hold it.
OLD_SCHEMA = """
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


def table(table_id: str, *, seed: int = 7, status: str = "waiting", seats: int = 2, created: float = 1.0,
          creator: str = "") -> TableRow:
    return TableRow(table_id, f"name {table_id}", seats, {"max_turns": 40}, {"decision_seconds": 30}, seed,
                    status, created, [SeatRow(s, "empty") for s in range(seats)], creator=creator)


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def store(db_path: str) -> Iterator[Store]:
    opened = Store(db_path)
    yield opened
    opened.close()


def query(path: str, sql: str, *args: Any) -> list[Any]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(sql, args).fetchall()
    conn.close()
    return rows


# --- 1. a failure stays with its record ---------------------------------------------------------------

async def test_seeds_of_the_whole_uint64_range_round_trip_through_a_reload(db_path: str) -> None:
    seeds = {"zero": 0, "top63": 2**63 - 1, "half": 2**63, "max": 2**64 - 1}
    store = Store(db_path)
    for table_id, seed in seeds.items():
        await store.create_table(table(table_id, seed=seed))
    await store.record("max", events=[(1, None, b"x")])  # writes still work after the largest seed
    for bad in (-1, 2**64):
        with pytest.raises(ValueError):
            await store.create_table(table("bad", seed=bad))
    store.close()

    store = Store(db_path)
    try:
        for table_id, seed in seeds.items():
            row = await store.load_table(table_id)
            assert row is not None and row.seed == seed
        assert {r.id: r.seed for r in await store.list_tables()} == seeds
    finally:
        store.close()


async def test_a_failing_record_fails_alone_and_the_others_of_its_batch_are_stored(db_path: str) -> None:
    store = Store(db_path)
    try:
        ids = [f"t{i}" for i in range(6)]
        for table_id in ids + ["bad"]:
            await store.create_table(table(table_id))
        with sqlite3.connect(db_path) as conn:
            conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON commands WHEN NEW.table_id = 'bad' "
                         "BEGIN SELECT RAISE(ABORT, 'no'); END")
        conn.close()

        # Another connection holds the write lock, so the writer waits on its first transaction while all
        # the other records queue up: they go together in the next one, with the failing record among them.
        blocker = sqlite3.connect(db_path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        order = ids[:3] + ["bad"] + ids[3:]
        tasks = [asyncio.ensure_future(store.record(t, command=(0, f"{t} draws"), events=[(1, None, t.encode())]))
                 for t in order]
        await asyncio.sleep(0)  # every task has queued its record
        blocker.execute("COMMIT")
        blocker.close()
        results = await asyncio.gather(*tasks, return_exceptions=True)

        outcome = dict(zip(order, results, strict=True))
        error = outcome.pop("bad")
        assert isinstance(error, StoreError) and isinstance(error.__cause__, sqlite3.IntegrityError)
        assert all(r is None for r in outcome.values()), outcome
        stored = query(db_path, "SELECT table_id FROM commands ORDER BY table_id")
        assert [t for (t,) in stored] == sorted(ids)
        assert query(db_path, "SELECT COUNT(*) FROM events WHERE table_id = 'bad'") == [(0,)]

        # Nothing is left half done: later writes, of any kind, go through.
        await store.record("bad", events=[(1, None, b"ok")], status="playing")
        await store.create_table(table("later"))
        assert (await store.load_table("bad")) is not None
        assert query(db_path, "SELECT status, last_sequence FROM tables WHERE id = 'bad'") == [("playing", 1)]
    finally:
        store.close()


async def test_a_table_that_cannot_be_created_wedges_nothing(store: Store, db_path: str) -> None:
    await store.create_table(table("a"))
    results = await asyncio.gather(store.create_table(table("a")), store.create_table(table("b")),
                                   store.record("a", events=[(1, None, b"e")]), return_exceptions=True)
    assert isinstance(results[0], StoreError) and isinstance(results[0].__cause__, sqlite3.IntegrityError)
    assert list(results[1:]) == [None, None]
    await store.record("b", command=(0, "x"))
    assert query(db_path, "SELECT id FROM tables ORDER BY id") == [("a",), ("b",)]


async def test_a_closed_store_refuses_writes_and_closes_twice(db_path: str) -> None:
    store = Store(db_path)
    await store.create_table(table("a"))
    store.close()
    store.close()
    with pytest.raises(StoreError):
        await store.record("a", command=(0, "x"))
    with pytest.raises(StoreError):
        await store.load_table("a")
    assert not os.path.exists(db_path + "-wal")  # the last connection checkpointed and removed it


# --- 2. the WAL stays small -----------------------------------------------------------------------------

async def test_the_wal_stays_bounded_under_sustained_writes(db_path: str) -> None:
    limit = 256 << 10
    store = Store(db_path, wal_limit=limit)
    wal = db_path + "-wal"
    writers, each = 8, 2500
    samples: list[int] = []
    try:
        for w in range(writers):
            await store.create_table(table(f"w{w}"))

        async def write(table_id: str) -> None:
            for i in range(1, each + 1):
                await store.record(table_id, events=[(i, None, b"chat line %d " % i + b"." * 60)], transient=i % 2 == 0)
                if i % 50 == 0:
                    samples.append(os.path.getsize(wal))

        await asyncio.gather(*(write(f"w{w}") for w in range(writers)))
        samples.append(os.path.getsize(wal))
        assert len(samples) > 300
        assert max(samples) < 3 * limit, (max(samples), store.checkpoints)
        assert store.checkpoints["restart"] > 0
        assert query(db_path, "SELECT COUNT(*), MIN(last_sequence) FROM tables") == [(writers, each)]
        assert query(db_path, "SELECT chat, COUNT(*) FROM events GROUP BY chat") == [
            (0, writers * each // 2), (1, writers * 500)]  # chat lines beyond the newest 500 are gone
    finally:
        store.close()


# --- 3. chat is bounded ---------------------------------------------------------------------------------

async def test_a_table_keeps_only_its_newest_chat_lines(db_path: str) -> None:
    store = Store(db_path, transient_kept=5)
    try:
        for table_id in ("a", "b"):
            await store.create_table(table(table_id))
        seq = 0
        chat_seqs = []
        for i in range(12):
            seq += 1
            await store.record("a", events=[(seq, None, b"game event")])
            seq += 1
            await store.record("a", events=[(seq, None, b"chat %d" % i)], transient=True)
            chat_seqs.append(seq)
        await store.record("b", events=[(1, None, b"chat b")], transient=True)
        # several chat lines in one batch, with a line for another table
        burst = [store.record("a", events=[(seq + k, None, b"burst")], transient=True) for k in (1, 2, 3)]
        results = await asyncio.gather(*burst, store.record("b", events=[(2, None, b"b2")], transient=True))
        assert results == [None] * 4
        chat_seqs += [seq + 1, seq + 2, seq + 3]

        kept = query(db_path, "SELECT seq FROM events WHERE table_id = 'a' AND chat = 1 ORDER BY seq")
        assert [s for (s,) in kept] == chat_seqs[-5:]
        assert query(db_path, "SELECT COUNT(*) FROM events WHERE table_id = 'a' AND chat = 0") == [(12,)]
        assert query(db_path, "SELECT COUNT(*) FROM events WHERE table_id = 'b' AND chat = 1") == [(2,)]
        row = await store.load_table("a")
        assert row is not None and row.last_sequence == seq + 3
        page = await store.events_page("a", 0, row.last_sequence, None, 100)
        assert [s for s, _, _ in page] == sorted([2 * i + 1 for i in range(12)] + chat_seqs[-5:])
    finally:
        store.close()

    # Both steps of trimming go through the partial index, not through every event of the table.
    for sql, args in ((TRANSIENT_CUTOFF, ("a", 5)), (TRANSIENT_TRIM, ("a", 3))):
        plan = " ".join(str(r[-1]) for r in query(db_path, "EXPLAIN QUERY PLAN " + sql, *args))
        assert "chat_events" in plan, plan


# --- 4. reads for a restart -----------------------------------------------------------------------------

def reads(store: Store) -> list[str]:
    """The tables the store's connection reads from now on (an authorizer on its own thread)."""
    seen: list[str] = []

    def authorize(action: int, arg1: str | None, arg2: str | None, db: str | None, source: str | None) -> int:
        if action == sqlite3.SQLITE_READ and arg1 is not None:
            seen.append(arg1)
        return sqlite3.SQLITE_OK

    assert store._db is not None
    store._pool.submit(store._db.set_authorizer, authorize).result()
    return seen


async def test_list_tables_gives_open_tables_with_seats_and_reads_no_history(store: Store) -> None:
    await store.create_table(table("w", created=1.0, creator="ipv4:10.0.0.2:5000"))
    await store.create_table(table("p", created=2.0, seats=3))
    for table_id, status in (("f", "finished"), ("x", "expired")):
        await store.create_table(table(table_id, created=3.0))
        await store.record(table_id, status=status)
    await store.record("p", seat=SeatRow(1, "player", "Ann", "hash", ""), status="playing",
                       command=(0, "start"), events=[(1, None, b"a"), (2, 0, b"b")], state=(1, {"turn": 1}))
    seen = reads(store)
    rows = await store.list_tables()
    assert set(seen) == {"tables", "seats"}
    assert [(r.id, r.status) for r in rows] == [("w", "waiting"), ("p", "playing")]
    w, p = rows
    assert w.creator == "ipv4:10.0.0.2:5000" and w.last_sequence == 0
    assert p.last_sequence == 2 and p.commands == [] and p.state is None
    assert [(s.seat, s.kind, s.name) for s in p.seat_rows] == [(0, "empty", ""), (1, "player", "Ann"), (2, "empty", "")]
    assert p.rules == {"max_turns": 40} and p.settings == {"decision_seconds": 30}


async def test_load_table_gives_the_latest_state_and_the_commands_after_it(db_path: str) -> None:
    store = Store(db_path)
    try:
        await store.create_table(table("t"))
        seq = 0
        for i in range(10):
            seq += 2
            state = (i + 1, {"applied": i + 1, "nested": [i, {"x": None}]}) if i in (3, 7) else None
            await store.record("t", command=(i, f"c{i}"), events=[(seq - 1, None, b"e"), (seq, i % 2, b"p")],
                               state=state)
        row = await store.load_table("t")
        assert row is not None
        assert row.state == {"applied": 8, "nested": [7, {"x": None}]} and row.state_applied == 8
        assert row.commands == ["c8", "c9"] and row.last_sequence == 20
        assert query(db_path, "SELECT COUNT(*) FROM states") == [(1,)]  # only the latest is kept
        await store.create_table(table("fresh"))
        fresh = await store.load_table("fresh")
        assert fresh is not None and fresh.state is None and fresh.commands == [] and fresh.state_applied == 0
        await store.record("fresh", command=(0, "c0"))
        await store.record("fresh", command=(1, "c1"), status="finished")
        assert await store.load_table("nope") is None
    finally:
        store.close()

    store = Store(db_path)
    try:
        seen = reads(store)
        again = await store.load_table("t")
        assert "events" not in seen
        assert again == row
        finished = await store.load_table("fresh")  # any status
        assert finished is not None and finished.status == "finished" and finished.commands == ["c0", "c1"]
        assert [r.id for r in await store.list_tables()] == ["t"]
    finally:
        store.close()


async def test_last_sequence_is_kept_with_every_event_written(store: Store, db_path: str) -> None:
    await store.create_table(table("t"))
    await store.record("t", seat=SeatRow(0, "bot", "Bot", "", "greedy"))
    assert query(db_path, "SELECT last_sequence FROM tables") == [(0,)]
    await store.record("t", events=[(1, None, b"a"), (2, 1, b"b"), (3, None, b"c")])
    await store.record("t", status="playing")
    assert query(db_path, "SELECT last_sequence FROM tables") == [(3,)]
    await asyncio.gather(*(store.record("t", events=[(s, None, b"x")]) for s in range(4, 40)))
    assert query(db_path, "SELECT last_sequence FROM tables") == [(39,)]
    assert [r.last_sequence for r in await store.list_tables()] == [39]


async def test_events_pages_are_filtered_by_audience_and_bounded(store: Store) -> None:
    await store.create_table(table("t", seats=3))
    audiences: list[int | None] = [None, 0, 1, 2, None, 1, 1, 1, 0, None] * 30
    rows: list[EventRow] = [(seq, a, b"%d" % seq) for seq, a in enumerate(audiences, start=1)]
    await store.record("t", events=rows)
    await store.record("other", events=[(1, None, b"not this table")])

    async def every(seat: int | None, after: int, upto: int, limit: int) -> list[EventRow]:
        got: list[EventRow] = []
        while True:
            page = await store.events_page("t", after, upto, seat, limit)
            assert len(page) <= limit
            got += page
            if len(page) < limit:
                return got
            after = page[-1][0]

    for seat in (None, 0, 1, 2):
        for after, upto in ((0, 300), (17, 251), (250, 250)):
            want = [r for r in rows if after < r[0] <= upto and (r[1] is None or r[1] == seat)]
            assert await every(seat, after, upto, 7) == want
    first = await store.events_page("t", 0, 300, 1, 4)
    assert [(s, a) for s, a, _ in first] == [(1, None), (3, 1), (5, None), (6, 1)]
    assert await store.events_page("t", 300, 400, None, 10) == []


async def test_a_file_of_the_first_schema_opens_and_works(db_path: str) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("INSERT INTO tables VALUES ('old', 'Old', 2, '{}', '{}', 99, 'playing', 1.0)")
        conn.execute("INSERT INTO tables VALUES ('done', 'Done', 2, '{}', '{}', 98, 'finished', 0.5)")
        conn.executemany("INSERT INTO seats VALUES (?,?,?,?,?,?)",
                         [("old", 0, "player", "Ann", "h", ""), ("old", 1, "bot", "Bot", "", "greedy")])
        conn.executemany("INSERT INTO commands VALUES ('old', ?, ?)", [(i, f"c{i}") for i in range(3)])
        conn.executemany("INSERT INTO events VALUES ('old', ?, ?, ?)", [(s, None, b"e") for s in range(1, 8)])
        conn.executemany("INSERT INTO events VALUES ('done', ?, ?, ?)", [(s, None, b"e") for s in range(1, 4)])
    conn.close()

    store = Store(db_path, transient_kept=1)
    try:
        [old] = await store.list_tables()
        assert (old.id, old.seed, old.creator, old.last_sequence) == ("old", 99, "", 7)
        assert [s.name for s in old.seat_rows] == ["Ann", "Bot"]
        loaded = await store.load_table("old")
        assert loaded is not None and loaded.commands == ["c0", "c1", "c2"] and loaded.state is None
        done = await store.load_table("done")
        assert done is not None and done.last_sequence == 3
        await store.record("old", command=(3, "c3"), events=[(8, None, b"chat")], transient=True, state=(4, {"s": 1}))
        await store.record("old", events=[(9, None, b"chat")], transient=True)
        await store.create_table(table("new", creator="me"))
    finally:
        store.close()

    store = Store(db_path)  # opening again changes nothing
    try:
        loaded = await store.load_table("old")
        assert loaded is not None and loaded.state == {"s": 1} and loaded.commands == [] and loaded.last_sequence == 9
        assert [(s, a) for s, a, _ in await store.events_page("old", 0, 9, None, 100)] == [
            (s, None) for s in range(1, 8)] + [(9, None)]
        assert [r.creator for r in await store.list_tables()] == ["", "me"]
    finally:
        store.close()


# The tables table as files written before tables named their game hold it (the other tables as SCHEMA has them).
SCHEMA_BEFORE_GAMES = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, seats INTEGER NOT NULL, rules TEXT NOT NULL,
    settings TEXT NOT NULL, seed INTEGER NOT NULL, status TEXT NOT NULL, created REAL NOT NULL,
    creator TEXT NOT NULL DEFAULT '', last_sequence INTEGER NOT NULL DEFAULT 0);
"""


async def test_a_file_made_before_tables_named_their_game_plays_ten_pennies_at_every_old_table(db_path: str) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.executescript(SCHEMA_BEFORE_GAMES + SCHEMA.split(";", 1)[1])
        conn.execute("INSERT INTO tables VALUES ('old', 'Old', 2, '{\"max_turns\": 40}', '{}', 99, 'finished', 1.0, "
                     "'me', 0)")
        conn.execute("INSERT INTO commands VALUES ('old', 0, '0 decline')")
    conn.close()
    # read-only (a replay), the old file is read as it is
    stored = read_game(db_path, "old")
    assert stored.game == DEFAULT_GAME == "ten_pennies" and stored.rules == HouseRules(max_turns=40)
    assert stored.commands == [DeclineDiscard(0)]
    assert "game" not in {r[1] for r in query(db_path, "PRAGMA table_info(tables)")}

    store = Store(db_path)  # opened by the server, it gains the column
    try:
        old = await store.load_table("old")
        assert old is not None and old.game == "ten_pennies"
        await store.create_table(TableRow("new", "New", 2, {}, {}, 1, "waiting", 2.0, game="another_game"))
        new = await store.load_table("new")
        assert new is not None and new.game == "another_game"
        assert [t.game for t in await store.list_tables()] == ["another_game"]
    finally:
        store.close()
    assert query(db_path, "SELECT id, game FROM tables ORDER BY created") == [("old", "ten_pennies"),
                                                                              ("new", "another_game")]
    assert read_game(db_path, "old").game == "ten_pennies"
