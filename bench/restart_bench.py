"""What a restart costs with many half-played tables stored, each figure also as a ratio to opening an
empty store in the same run (ratios travel between machines; raw figures do not).

    python bench/restart_bench.py                 # 1,000 tables of 4 seats, each played half way
    python bench/restart_bench.py --tables 100    # quicker

The database is built through Store.record, one record per command (its events and, every 64 commands,
the game state), as the server writes them, with real games of greedy bots. Then, each timed on a store
opened afresh (the file in the page cache: a warm restart):

- open + list_tables: what must happen before the port opens;
- load_table of every table: one after another, and all at once;
- rebuilding every game from its state and the commands after it, beside replaying its whole log (what a
  restart did before states were stored).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from tenpennies.engine.ten_pennies import Game, HouseRules, format_command, parse_command
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.server.store import EventRow, SeatRow, Store, TableRow

SEATS = 4
STATE_EVERY = 64


def half_game(seed: int, commands: int) -> tuple[list[str], list[list[EventRow]], dict[int, dict[str, Any]]]:
    """A game of greedy bots played for `commands` commands: each command's text, its event rows and,
    every STATE_EVERY commands, the state after them."""
    game = Game(SEATS, HouseRules(), seed=seed)
    bots = [GreedyBot() for _ in range(SEATS)]
    texts: list[str] = []
    rows: list[list[EventRow]] = []
    states: dict[int, dict[str, Any]] = {}
    seq = 0
    while len(texts) < commands and not game.over:
        seat = game.to_act()[0]
        command = bots[seat].choose(game.view(seat))
        events = game.apply(command)
        texts.append(format_command(command))
        batch: list[EventRow] = []
        for event in events:
            seq += 1
            batch.append((seq, event.to, repr(event).encode()))
        rows.append(batch)
        if len(texts) % STATE_EVERY == 0:
            states[len(texts)] = game.to_dict()
    return texts, rows, states


async def build(path: str, tables: int, commands: int) -> float:
    """The database of `tables` half-played tables; returns how long writing it took."""
    store = Store(path)
    played = [half_game(seed, commands) for seed in range(tables)]
    start = time.perf_counter()
    for i in range(tables):
        await store.create_table(TableRow(
            f"t{i:04d}", f"table {i}", SEATS, HouseRules().to_dict(), {"decision_seconds": 30}, i, "playing",
            time.time(), [SeatRow(s, "player", f"Player {s}", f"{i:04d}{s}".ljust(64, "0"), "")
                          for s in range(SEATS)],  # people's tables: nothing moves until a player is back
            creator="ipv4:127.0.0.1:1"))

    async def write(i: int) -> None:
        texts, rows, states = played[i]
        for idx, (text, events) in enumerate(zip(texts, rows, strict=True)):
            state = states.get(idx + 1)
            await store.record(f"t{i:04d}", command=(idx, text), events=events,
                               state=None if state is None else (idx + 1, state))

    await asyncio.gather(*(write(i) for i in range(tables)))
    seconds = time.perf_counter() - start
    store.close()
    return seconds


async def open_and_list(path: str) -> tuple[float, int]:
    start = time.perf_counter()
    store = Store(path)
    rows = await store.list_tables()
    seconds = time.perf_counter() - start
    store.close()
    return seconds, len(rows)


def best(values: list[float]) -> float:
    return min(values)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5, help="each figure is the fastest of this many")
    args = parser.parse_args()

    full_game = Game(SEATS, HouseRules(), seed=0)
    bots = [GreedyBot() for _ in range(SEATS)]
    while not full_game.over:
        seat = full_game.to_act()[0]
        full_game.apply(bots[seat].choose(full_game.view(seat)))
    commands = len(full_game.log) // 2

    with tempfile.TemporaryDirectory() as tmp:
        empty, full = str(Path(tmp) / "empty.db"), str(Path(tmp) / "full.db")
        Store(empty).close()
        write_s = await build(full, args.tables, commands)
        size = os.path.getsize(full)

        empty_s = best([(await open_and_list(empty))[0] for _ in range(args.runs)])
        list_runs = [await open_and_list(full) for _ in range(args.runs)]
        list_s, listed = best([s for s, _ in list_runs]), list_runs[0][1]
        assert listed == args.tables

        store = Store(full)
        ids = [row.id for row in await store.list_tables()]
        one_by_one: list[float] = []
        at_once: list[float] = []
        rows: list[TableRow | None] = []
        for _ in range(args.runs):
            start = time.perf_counter()
            rows = [await store.load_table(table_id) for table_id in ids]
            one_by_one.append(time.perf_counter() - start)
            start = time.perf_counter()
            await asyncio.gather(*(store.load_table(table_id) for table_id in ids))
            at_once.append(time.perf_counter() - start)
        store.close()
        loaded = [row for row in rows if row is not None]
        tail = sum(len(row.commands) for row in loaded) / len(loaded)

        start = time.perf_counter()
        for row in loaded:
            game = Game.from_dict(row.state) if row.state is not None else Game(SEATS, HouseRules(), row.seed)
            for text in row.commands:
                game.apply(parse_command(text), trusted=True)
        from_state_s = time.perf_counter() - start
        start = time.perf_counter()
        for row in loaded:
            log = (row.state["log"] if row.state is not None else []) + row.commands
            Game.replay(SEATS, HouseRules(), row.seed, [parse_command(text) for text in log], trusted=True)
        replay_s = time.perf_counter() - start

    n = args.tables

    def line(what: str, seconds: float) -> None:
        print(f"{what:<52} {seconds * 1000:10.1f} ms {seconds / empty_s:10.1f} x empty open")

    print(f"{n} tables of {SEATS} seats, {commands} commands each (half a game), a state every {STATE_EVERY}: "
          f"{size / 2**20:.1f} MiB, written in {write_s:.1f} s ({n * commands / write_s:,.0f} records/s)")
    line("open an empty store + list_tables (the unit)", empty_s)
    line(f"open + list_tables ({n} tables)", list_s)
    line("load_table of every table, one after another", best(one_by_one))
    line("load_table of every table, all at once", best(at_once))
    print(f"{'  per table (one after another)':<52} {best(one_by_one) / n * 1e6:10.1f} us"
          f"   {tail:.1f} commands after the state on average")
    line("rebuild every game: its state + the commands after", from_state_s)
    line("rebuild every game: replay its whole log", replay_s)


if __name__ == "__main__":
    asyncio.run(main())
