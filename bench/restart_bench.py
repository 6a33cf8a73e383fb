"""What a restart costs with many half-played tables stored, each figure also as a ratio to opening an
empty store in the same run (ratios travel between machines; raw figures do not).

    python bench/restart_bench.py                 # 1,000 tables of 4 seats, each played half way
    python bench/restart_bench.py --tables 100    # quicker
    python bench/restart_bench.py --kill          # SIGKILL under 300 busy tables -> SERVING, default flags
    python bench/restart_bench.py --kill --kills 10 --tables 300 --server-tree /tmp/before/server   # an A/B

--kill: `tenpennies serve` with its default flags, 300 people's tables of 4 seats played at human pace (a
command a second each, up their seats' Play streams, by a load process of its own on the same machine). After
--busy seconds of play the server is killed (SIGKILL) and started again on the same file and port at once; the
figure is the time from the kill until health says SERVING, each of --kills times (median and max), against a
start on an empty store measured between the kills. The players come back to their tables after each restart.
The tables are made (and their games started) by a server with --address-rate 0 first, then stopped (SIGTERM):
a client at one address making 300 tables at once is more than the default budget lets it.

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
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tenpennies.engine.ten_pennies import Game, HouseRules, format_command, parse_command
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.server.store import EventRow, SeatRow, Store, TableRow

from benchkit import LAUNCHER, SERVER_TREE

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


# --- SIGKILL under busy tables (--kill) -----------------------------------------------------------------



def spawn(db: Path, port: int, *flags: str, tree: str | None = None) -> subprocess.Popen[bytes]:
    """`tenpennies serve` on ``port`` with the SQLite file ``db``, its other flags the defaults but ``flags``;
    ``tree``: the directory of another tree's ``tenpennies.server`` to run (an A/B in one session)."""
    entry = ["-c", LAUNCHER] if tree else ["-m", "tenpennies.client.cli"]
    env = {**os.environ, **({SERVER_TREE: tree} if tree else {})}
    return subprocess.Popen([sys.executable, *entry, "serve", "--port", str(port), "--db", str(db), *flags],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def serving(port: int, give_up: float = 60.0) -> float:
    """Ask health every 5 ms until it says SERVING; the moment it did (perf_counter)."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    deadline = time.perf_counter() + give_up
    # (a channel's default backoff after a refused connection is a second: it would be the figure)
    quick = [("grpc.initial_reconnect_backoff_ms", 5), ("grpc.min_reconnect_backoff_ms", 5),
             ("grpc.max_reconnect_backoff_ms", 20)]
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=quick) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while time.perf_counter() < deadline:
            try:
                if health.Check(health_pb2.HealthCheckRequest(), timeout=1).status == \
                        health_pb2.HealthCheckResponse.SERVING:
                    return time.perf_counter()
            except grpc.RpcError:
                pass
            time.sleep(0.005)
    raise RuntimeError(f"no SERVING within {give_up} s")


def free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def players(port: int, tables: Path, count: int) -> subprocess.Popen[str]:
    """The load process: it makes ``count`` tables (when ``tables`` does not exist yet, then writes it) or comes
    back to those in ``tables``, then plays them at human pace until killed; returned once it says "ready"."""
    process = subprocess.Popen([sys.executable, __file__, "players", str(port), str(tables), str(count)],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    if line != "ready":
        process.kill()
        raise RuntimeError(f"the players did not start: {line!r}")
    return process


async def play(port: int, tables_file: Path, count: int) -> None:
    import json
    import random

    import grpc
    from fairness_bench import OWN, Visitor

    from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc

    from server_bench import LoadTable, started_tables
    links = [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=OWN, interceptors=[Visitor(f"p{n}")])
             for n in range(16)]  # each a visitor: the address's share of open tables holds 300

    async def follow(table: LoadTable, seat: int) -> None:
        """The seat's Play stream, opened again when the server refused it for the moment (a budget spent)."""
        while True:
            try:
                await table._follow(seat)
                return
            except grpc.aio.AioRpcError as error:
                if error.code() not in (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.CANCELLED,
                                        grpc.StatusCode.INTERNAL):
                    return  # the server is gone
                await asyncio.sleep(0.1 + 0.4 * random.random())
    if not tables_file.exists():
        tables, watchers = await started_tables(links, count, max_turns=100_000)
        tables_file.write_text(json.dumps([[t.id, t.host, t.tokens] for t in tables]))
    else:
        stubs = [pb_grpc.TenPenniesServiceStub(c) for c in links]
        tables = [LoadTable(stubs[i % len(stubs)], table_id, host, tokens)
                  for i, (table_id, host, tokens) in enumerate(json.loads(tables_file.read_text()))]
        watchers = [asyncio.ensure_future(follow(t, s)) for t in tables for s in range(4)]
        while sum(len(t.calls) for t in tables) < 4 * len(tables):  # every seat's stream open again
            await asyncio.sleep(0.05)
    print("ready", flush=True)

    async def drive(table: LoadTable, rng: random.Random) -> None:
        await asyncio.sleep(rng.random())
        while True:
            next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()
            try:
                await table.act(rng, measure=False)
            except (grpc.aio.AioRpcError, grpc.aio.UsageError, KeyError, asyncio.InvalidStateError):
                pass  # (the server went away under it: this process is killed next)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    await asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)), *watchers)


def kill_main(count: int, kills: int, busy: float, tree: str | None) -> None:
    import signal
    import statistics
    with tempfile.TemporaryDirectory() as tmp:
        db, empty, tables = Path(tmp) / "busy.db", Path(tmp) / "empty.db", Path(tmp) / "tables.json"
        port = free_port()
        loads = [os.getloadavg()[0]]
        server = spawn(db, port, "--address-rate", "0", tree=tree)  # (making 300 tables at once: past a budget)
        load: subprocess.Popen[str] | None = None
        killed: list[float] = []
        started: list[float] = []
        try:
            serving(port)
            load = players(port, tables, count)
            load.kill()
            load.wait()
            server.terminate()
            server.wait()
            server = spawn(db, port, tree=tree)
            serving(port)
            load = players(port, tables, count)
            for _ in range(kills):
                time.sleep(busy)
                os.kill(server.pid, signal.SIGKILL)
                at = time.perf_counter()
                server.wait()
                server = spawn(db, port, tree=tree)
                killed.append(serving(port) - at)
                load.kill()
                load.wait()
                loads.append(os.getloadavg()[0])
                server.terminate()  # a start on an empty store, between the kills, for the unit
                server.wait()
                empty.unlink(missing_ok=True)
                at = time.perf_counter()
                server = spawn(empty, port, tree=tree)
                started.append(serving(port) - at)
                server.terminate()
                server.wait()
                server = spawn(db, port, tree=tree)
                serving(port)
                load = players(port, tables, count)
        finally:
            if load is not None:
                load.kill()
                load.wait()
            server.kill()
            server.wait()
    print(f"SIGKILL under {count} busy tables (people's, at human pace) -> SERVING, default flags"
          f"{f' (server from {tree})' if tree else ''}: median {statistics.median(killed):.2f} s, max "
          f"{max(killed):.2f} s over {kills} kills ({', '.join(f'{x:.2f}' for x in killed)}); a start on an empty "
          f"store {statistics.median(started):.2f} s median ({', '.join(f'{x:.2f}' for x in started)}); load "
          f"average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="stored tables (with --kill: busy ones, 300)")
    parser.add_argument("--runs", type=int, default=5, help="each figure is the fastest of this many")
    parser.add_argument("--kill", action="store_true", help="SIGKILL under busy tables -> SERVING (see above)")
    parser.add_argument("--kills", type=int, default=5, help="with --kill: how many times")
    parser.add_argument("--busy", type=float, default=5.0, help="with --kill: seconds of play before each kill")
    parser.add_argument("--server-tree", help="with --kill: run tenpennies.server from this directory (an A/B)")
    args = parser.parse_args()
    if args.kill:
        kill_main(300 if args.tables == 1000 else args.tables, args.kills, args.busy, args.server_tree)
        return

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
    if len(sys.argv) > 1 and sys.argv[1] == "players":
        asyncio.run(play(int(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(main())
