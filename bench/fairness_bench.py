"""Fair under load: other tables' latency with one client at its limit, and memory over a soak.

    python bench/fairness_bench.py                       # both, sized for a small shared machine
    python bench/fairness_bench.py --only soak --tables 150 --soak-minutes 10 --settle 900   # the issue's soak
    python bench/fairness_bench.py --only fairness       # or --only soak
    python bench/fairness_bench.py --only fairness --floods unknown,snapshots   # some kinds of flood only
    python bench/fairness_bench.py --only fairness --server-tree /tmp/before/server   # another tree's server (A/B)

Fairness: `tenpennies serve` with its default flags; K tables of 4 seats at human pace (about a command a second
each) from one client address (``[::1]``, each of its connections a visitor of its own, ``tp-visitor``, so that
the address's share of open tables holds K with the default --tables-per-address); their p99 from sending a
command to its event reaching all four seats. Then, for each kind of flood in turn, quiet and flooded in turns
(--slices of each, --seconds of each in all; the time after each flooded turn until the server is quiet again is
left out), so that the
machine's moods fall on both alike. Flooded: another client (``127.0.0.1``, 8 connections, a process of its own,
started before the first turn) spends its whole budget (the server's --address-rate a second, its default) on
one kind of request, open loop, steadily (``--pattern steady``) or all it saved up at once (the server's burst)
each time it is full, every two seconds (``--pattern bursts``):

- ``unknown``: GetSnapshot of table ids that do not exist;
- ``snapshots``: a spectator's GetSnapshot of a busy table (one of the K);
- ``streams``: a spectator's Subscribe to a busy table, cancelled once its snapshot came;
- ``passwords``: JoinTable of a private table (the flooder's own) with a wrong password each time;
- ``creates``: CreateTable then CloseTable (two requests), again and again;
- ``lists``: ListTables (each costing by the tables listed).

One line each: the quiet window's p99, the flooded window's, their ratio (the issue asks for <= 2x), the
requests the flooder sent a second and how they were answered, and the server's CPU in each window.

Soak: K tables at human pace for M minutes, each table replaced by a new one when its game ends; the server's
RSS sampled as it goes: its growth a minute over the second half (a least-squares line), and what it is once
every client has left and the server holds no table (at the end every player leaves its seat, the takeover
bots finish the games, and the finished tables nobody watches leave memory after the lobby's FINISHED_LINGER;
waited for up to --settle seconds), against where it started: after a warm-up of a few tables that have gone
again. The machine's load average is printed with it (the soak shares the machine with whatever else runs).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

from tenpennies.server.app import HOUSEKEEPING_SECONDS
from tenpennies.server.lobby import Lobby
from tenpennies.server.service import list_cost
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import VISITOR_METADATA

from benchkit import LAUNCHER, SERVER_TREE
from server_bench import LoadTable, _pct, started_tables

DEFAULT_BUDGET = 500.0  # `tenpennies serve`'s --address-rate
UNMEASURED = ("warm", "pause")  # the players' windows not measured

ABUSER_CONNECTIONS = 8
OWN = [("grpc.use_local_subchannel_pool", 1)]
FLOODS = ("unknown", "snapshots", "streams", "passwords", "creates", "lists")


def start_server(db: Path, *flags: str, tree: str | None = None) -> tuple[subprocess.Popen[str], int]:
    """`tenpennies serve` on [::] (both loopback addresses reach it) with ``flags`` beside its defaults; ``tree``:
    the directory of another tree's ``tenpennies.server`` package, to run instead of this one."""
    entry = ["-c", LAUNCHER] if tree else ["-m", "tenpennies.client.cli"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", **({SERVER_TREE: tree} if tree else {})}
    process = subprocess.Popen(
        [sys.executable, *entry, "serve", "--host", "[::]", "--port", "0", "--db", str(db), "--no-advertise", *flags],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"listening on \S+:(\d+)", line)
    if not match:
        process.kill()
        raise RuntimeError(f"the server did not start: {line}")
    return process, int(match.group(1))


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- the tables' players (a process of their own) -----------------------------------------------------

def channels(address: str, count: int, visitors: bool = False) -> list[grpc.aio.Channel]:
    """``count`` connections of their own; ``visitors``: each names a visitor of its own on CreateTable (its
    address's share of open tables is then the visitor's: the default --tables-per-address holds more tables)."""
    return [grpc.aio.insecure_channel(address, options=OWN,
                                      interceptors=[Visitor(f"bench{n}")] if visitors else None)
            for n in range(count)]


class Visitor(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Names a visitor (``tp-visitor``) on every unary call, as `tenpennies web`'s clients do."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        metadata = grpc.aio.Metadata(*(details.metadata or ()), (VISITOR_METADATA, self.name))
        return await continuation(details._replace(metadata=metadata), request)


async def human_windows(port: int, count: int, seconds: float) -> None:
    """Play ``count`` tables at human pace, their latencies pooled by the window named on stdin (any name; those
    in UNMEASURED are not kept): "report" prints each name's figures as one JSON line and starts afresh, "stop"
    ends."""
    links = channels(f"[::1]:{port}", 8, visitors=True)
    tables, watchers = await started_tables(links, count, max_turns=100_000)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    window: list[str] = ["warm"]
    pooled: dict[str, list[float]] = collections.defaultdict(list)
    # the same without the table a flood of snapshots or streams aims at (told on stdin: "aim <table id>")
    others: dict[str, list[float]] = collections.defaultdict(list)
    aimed = [""]

    async def drive(table: LoadTable, rng: random.Random) -> None:
        await asyncio.sleep(rng.random())
        while window[0] != "stop":
            next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()
            await table.act(rng, measure=True)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    def collect() -> None:
        """The latencies measured since the last window began, to that window's pool."""
        for t in tables:
            if window[0] not in UNMEASURED:
                pooled[window[0]].extend(t.latencies)
                if t.id != aimed[0]:
                    others[window[0]].extend(t.latencies)
            t.latencies.clear()
    driving = asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)))
    while window[0] != "stop":
        line = (await reader.readline()).decode().strip() or "stop"
        collect()  # (a command sent in one window and answered in the next counts in the next)
        if line.startswith("aim "):
            aimed[0] = line.removeprefix("aim ")
            continue
        if line == "report":
            print(json.dumps({name: {"p50": _pct(sorted(xs), 50), "p99": _pct(sorted(xs), 99), "max": max(xs) * 1000,
                                     "samples": len(xs), "others_p99": _pct(sorted(others[name]), 99)}
                              for name, xs in pooled.items() if xs}), flush=True)
            pooled.clear()
            others.clear()
            window[0] = "pause"
            continue
        window[0] = line
    await driving
    for w in watchers:
        w.cancel()
    for c in links:
        await c.close()


async def abuse(kind: str, port: int, budget: float, seconds: float, pattern: str = "steady") -> None:
    """One client at its limit: ``budget`` request costs a second over 8 connections, open loop, all of one
    ``kind`` (``FLOODS``), steadily or in bursts (``pattern``); prints what it sent and how it was answered."""
    links = channels(f"127.0.0.1:{port}", ABUSER_CONNECTIONS)
    stubs = [pb_grpc.TenPenniesServiceStub(c) for c in links]
    for stub in stubs:  # connected before it starts (a process starting would be load of its own)
        await stub.ListTables(pb.ListTablesRequest())
    listed = (await stubs[0].ListTables(pb.ListTablesRequest())).tables
    busy = next(t.table_id for t in listed if t.status == pb.TABLE_STATUS_PLAYING)
    secret = ""
    if kind == "passwords":  # a private table of its own to guess at
        secret = (await stubs[0].CreateTable(pb.CreateTableRequest(name="secret", seats=4, password="right one"))
                  ).table.table_id
    cost = {"lists": list_cost(len(listed)), "creates": 2.0}.get(kind, 1.0)
    sent = 0
    answers: collections.Counter[str] = collections.Counter()
    print(f"ready {busy}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    going = asyncio.Event()
    done = asyncio.Event()
    flooded = 0.0  # seconds spent flooding

    async def control() -> None:  # "go", "pause" (the flooding stops and starts again), "stop"
        nonlocal flooded
        since = 0.0
        while True:
            line = (await reader.readline()).decode().strip() or "stop"
            if line == "go":
                since = time.perf_counter()
                going.set()
            elif going.is_set():
                flooded += time.perf_counter() - since
                going.clear()
                for task in list(tasks):  # the flood stops: what it still waits for, it gives up
                    task.cancel()
            if line == "stop":
                done.set()
                return
    tasks: set[asyncio.Task[None]] = set()
    controlling = asyncio.ensure_future(control())
    cpu = time.process_time()

    async def one(stub: pb_grpc.TenPenniesServiceStub, n: int) -> None:
        nonlocal sent
        sent += 1
        try:
            if kind == "unknown":
                await stub.GetSnapshot(pb.GetSnapshotRequest(table_id=secrets.token_hex(4)))
            elif kind == "snapshots":
                await stub.GetSnapshot(pb.GetSnapshotRequest(table_id=busy))
            elif kind == "streams":
                call = stub.Subscribe(pb.SubscribeRequest(table_id=busy))
                try:
                    await call.read()  # its snapshot
                finally:
                    call.cancel()
            elif kind == "passwords":
                await stub.JoinTable(pb.JoinTableRequest(table_id=secret, name="eve", password=f"guess {n}"))
            elif kind == "creates":
                made: pb.CreateTableResponse = await stub.CreateTable(pb.CreateTableRequest(name=f"flood {n}", seats=4))
                sent += 1
                await stub.CloseTable(pb.CloseTableRequest(table_id=made.table.table_id, host_token=made.host_token))
            else:
                await stub.ListTables(pb.ListTablesRequest())
            answers["OK"] += 1
        except grpc.aio.AioRpcError as error:
            words = error.details() or ""
            why = " (busy)" if "requests from this client at once" in words else \
                " (password checks)" if "password at once" in words else ""
            answers[error.code().name + why] += 1
    n = 0
    # steady: a request whenever the budget allows one; bursts: the whole saved-up budget (the server's burst, twice
    # its rate) at once, again each time it is full (every two seconds)
    burst = 1 if pattern == "steady" else max(1, int(2 * budget / cost))
    while not done.is_set():
        await asyncio.wait([asyncio.ensure_future(going.wait()), controlling], return_when=asyncio.FIRST_COMPLETED)
        spent, started = 0.0, time.perf_counter()  # (a budget saved up while paused: spent as it allows)
        while going.is_set():
            for _ in range(burst):
                spent += cost
                task = asyncio.ensure_future(one(stubs[n % len(stubs)], n))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                n += 1
            ahead = spent / budget - (time.perf_counter() - started)
            if ahead > 0:
                try:
                    await asyncio.wait_for(asyncio.shield(controlling), ahead)
                except TimeoutError:
                    pass
    cores = (time.process_time() - cpu) / max(flooded, 1e-9)
    for task in list(tasks):  # what is still under way (a guess waiting for its answer) is not waited for
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps({"sent": sent, "answers": dict(answers), "per_s": sent / max(flooded, 1e-9), "cores": cores}),
          flush=True)
    for c in links:
        await c.close()


async def soak(port: int, count: int, minutes: float) -> None:
    """``count`` tables at human pace for ``minutes``; a table whose game ended is left and replaced."""
    links = channels(f"[::1]:{port}", 8)
    stop_at = time.perf_counter() + minutes * 60
    games = 0

    async def keep_one(i: int) -> None:
        nonlocal games
        rng = random.Random(i)
        while time.perf_counter() < stop_at:
            tables, watchers = await started_tables([links[i % len(links)]], 1, max_turns=60)
            table = tables[0]
            quiet_since = time.perf_counter()
            while time.perf_counter() < stop_at:
                next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()
                if await table.act(rng, measure=False):
                    quiet_since = time.perf_counter()
                elif time.perf_counter() - quiet_since > 3:  # asked nothing for 3 s: the game is over
                    break
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            for w in watchers:
                w.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
            if time.perf_counter() >= stop_at:  # the players leave: the takeover bots finish the game
                for token in table.tokens:
                    try:
                        await table.stub.LeaveTable(pb.LeaveTableRequest(table_id=table.id, token=token))
                    except grpc.aio.AioRpcError:
                        pass
            games += 1
    await asyncio.gather(*(keep_one(i) for i in range(count)))
    for c in links:
        await c.close()
    print(json.dumps({"games": games}), flush=True)


# --- the orchestra ------------------------------------------------------------------------------------

def fairness(tmp: str, count: int, seconds: float, budget: float, floods: list[str], tree: str | None,
             pattern: str = "steady", slices: int = 5) -> None:
    flags = [] if budget == DEFAULT_BUDGET else ["--address-rate", str(budget)]
    server, port = start_server(Path(tmp) / "fair.db", *flags, tree=tree)
    players = subprocess.Popen([sys.executable, __file__, "players", str(port), str(count), str(seconds)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert players.stdin is not None and players.stdout is not None
    load = [os.getloadavg()[0]]
    piece = seconds / slices

    def say(process: subprocess.Popen[str], line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(f"{line}\n")
        process.stdin.flush()

    def window(name: str, length: float) -> float:
        """Start the players' window ``name`` and let it run ``length`` seconds; the server's CPU seconds meanwhile."""
        say(players, name)
        used = cpu_seconds(server.pid)
        time.sleep(length)
        return cpu_seconds(server.pid) - used
    def settle() -> None:
        """What a flood left under way is served (a password's hash goes on once its guesser gave up), in neither
        window: until the server is back to a quiet share of a core, for at most SETTLE seconds."""
        give_up = time.perf_counter() + SETTLE
        while window("pause", 0.25) / 0.25 > SETTLED and time.perf_counter() < give_up:
            pass
    try:
        assert players.stdout.readline().strip() == "ready"
        time.sleep(2)  # warm-up
        for kind in floods:
            abuser = subprocess.Popen([sys.executable, __file__, "abuse", kind, str(port), str(budget), str(seconds),
                                       pattern], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert abuser.stdin is not None and abuser.stdout is not None
            quiet_cpu = busy_cpu = 0.0
            try:
                ready, _, busy = abuser.stdout.readline().strip().partition(" ")
                assert ready == "ready"
                say(players, f"aim {busy}")
                for _ in range(slices):  # quiet and flooded in turns, so that the machine's moods fall on both
                    quiet_cpu += window("quiet", piece)
                    say(abuser, "go")
                    busy_cpu += window(kind, piece)
                    say(abuser, "pause")
                    settle()
                say(abuser, "stop")
                spent = json.loads(abuser.stdout.readline())
                abuser.wait(30)
            finally:
                abuser.kill()
            say(players, "report")
            figures = json.loads(players.stdout.readline())
            quiet, busy = figures["quiet"], figures[kind]
            load.append(os.getloadavg()[0])
            answers = ", ".join(f"{n:,} {code}" for code, n in sorted(spent["answers"].items(), key=lambda kv: -kv[1]))
            print(f"flood {kind:<9}: other tables' p99 {quiet['p99']:6.1f} ms quiet, {busy['p99']:6.1f} ms flooded: "
                  f"{busy['p99'] / quiet['p99']:.2f}x; without the table flooded snapshots aim at "
                  f"{busy['others_p99'] / quiet['others_p99']:.2f}x "
                  f"(p50 {quiet['p50']:.1f} -> {busy['p50']:.1f} ms, max "
                  f"{quiet['max']:.0f} -> {busy['max']:.0f} ms; server CPU {quiet_cpu / seconds:.2f} -> "
                  f"{busy_cpu / seconds:.2f} cores; the flooder sent {spent['per_s']:,.0f}/s: {answers}; itself "
                  f"{spent['cores']:.2f} cores)", flush=True)
        say(players, "stop")
        players.wait(30)
    finally:
        players.kill()
        server.terminate()
        server.wait()
    print(f"fairness, {count} tables at human pace, {seconds:g} s of each (in {slices} turns), the flooder {pattern}, "
          f"default flags{' but ' + ' '.join(flags) if flags else ''}{f' (server from {tree})' if tree else ''}: load "
          f"average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} cores", flush=True)


SETTLE = 8.0  # seconds at most after each flooded turn, measured in neither (``settle``)
SETTLED = 0.2  # the server's share of a core that is quiet again (the players alone: about 0.05)


WARM_UP = (4, 0.25)  # tables, minutes: the soak's load in small, before its start is measured


def soak_run(tmp: str, count: int, minutes: float, settle: float) -> None:
    server, port = start_server(Path(tmp) / "soak.db", "--address-rate", "0", "--tables-per-address", "100000")
    samples: list[tuple[float, float]] = []
    try:
        first_rss = rss_mb(server.pid)
        # warmed up (modules, the bots, grpc's and SQLite's first buffers), and its warm-up tables gone again
        subprocess.run([sys.executable, __file__, "soak", str(port), str(WARM_UP[0]), str(WARM_UP[1])],
                       check=True, stdout=subprocess.DEVNULL)
        tables_held(port, time.perf_counter() + settle)
        time.sleep(HOUSEKEEPING_SECONDS + 1)
        start_rss = rss_mb(server.pid)
        players = subprocess.Popen([sys.executable, __file__, "soak", str(port), str(count), str(minutes)],
                                   stdout=subprocess.PIPE, text=True)
        began = time.perf_counter()
        while players.poll() is None:
            samples.append((time.perf_counter() - began, rss_mb(server.pid)))
            time.sleep(2)
        assert players.stdout is not None
        games = json.loads(players.stdout.read().strip().splitlines()[-1])["games"]
        end_rss = rss_mb(server.pid)
        left = time.perf_counter()
        held = tables_held(port, left + settle)  # the clients are gone: their tables finish and leave memory
        time.sleep(HOUSEKEEPING_SECONDS + 1)  # (and the memory freed is given back at the next sweep)
        after, waited = rss_mb(server.pid), time.perf_counter() - left
        load = os.getloadavg()
    finally:
        server.terminate()
        server.wait()
    half = samples[len(samples) // 2:]  # the growth a minute over the second half: a least-squares line
    slope = statistics.linear_regression([t / 60 for t, _ in half], [r for _, r in half]).slope \
        if len(half) > 1 else float("nan")
    print(f"soak, {count} tables at human pace for {minutes:g} min ({games} games): RSS {start_rss:.1f} -> "
          f"{end_rss:.1f} MB (peak {max(r for _, r in samples):.1f}), {slope:+.2f} MB/min in the second half; "
          f"{after:.1f} MB {waited:.0f} s after the clients left ({after - start_rss:+.1f} MB), the server holding "
          f"{held} tables (started at {first_rss:.1f} MB, {start_rss:.1f} after a warm-up of {WARM_UP[0]} tables "
          f"for {WARM_UP[1] * 60:.0f} s; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} at the end, "
          f"{os.cpu_count()} cores)")


def tables_held(port: int, give_up: float) -> int:
    """Wait until the server holds no table in memory (its lobby lists those it holds), or ``give_up``;
    how many it still holds."""
    with grpc.insecure_channel(f"[::1]:{port}") as channel:
        lobby = pb_grpc.TenPenniesServiceStub(channel)
        while True:
            held = len(lobby.ListTables(pb.ListTablesRequest()).tables)
            if not held or time.perf_counter() > give_up:
                return held
            time.sleep(2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=40, help="tables at human pace (the issue: 150)")
    parser.add_argument("--seconds", type=float, default=10.0, help="fairness: of quiet, and of each flood")
    parser.add_argument("--slices", type=int, default=5, help="fairness: the turns quiet and flooded take")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="the server's --address-rate (default)")
    parser.add_argument("--floods", default=",".join(FLOODS), help=f"kinds of flood, of {', '.join(FLOODS)}")
    parser.add_argument("--server-tree", help="run tenpennies.server from this directory (an A/B in one session)")
    parser.add_argument("--pattern", choices=("steady", "bursts"), default="steady",
                        help="the flooder spends its budget steadily, or all it saved up at once every 2 s")
    parser.add_argument("--soak-minutes", type=float, default=2.0, help="the soak's length (the issue: 10)")
    parser.add_argument("--settle", type=float, default=Lobby.FINISHED_LINGER + 600,
                        help="at most this many seconds after the soak's clients leave for their tables to go")
    parser.add_argument("--only", choices=("fairness", "soak"))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if options.only != "soak":
            floods = [kind for kind in options.floods.split(",") if kind]
            assert set(floods) <= set(FLOODS), f"kinds of flood: {', '.join(FLOODS)}"
            fairness(tmp, options.tables, options.seconds, options.budget, floods, options.server_tree,
                     options.pattern, options.slices)
        if options.only != "fairness":
            soak_run(tmp, options.tables, options.soak_minutes, options.settle)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "players":
        asyncio.run(human_windows(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
    elif len(sys.argv) > 1 and sys.argv[1] == "abuse":
        asyncio.run(abuse(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]))
    elif len(sys.argv) > 1 and sys.argv[1] == "soak":
        asyncio.run(soak(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
    else:
        main()
