"""``serve --workers 2`` against ``--workers 1`` at full speed, in the same run.

    python bench/workers_bench.py                 # as `make bench` runs it
    python bench/workers_bench.py --quick         # shorter windows

Each server gets the same load: TABLES tables of four seats acting the moment they are asked (server_bench's
full-speed load generator), split over LOADGENS generator processes so that one Python client is not the limit.
Printed: commands a second and the ratio; the server's CPU (front and workers together) per command; the
front's own CPU per command (what passing requests through it costs); and the machine's load average, since
on a small machine the generators take cores the workers would use (docs/SCALING.md says how to read it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import WORKER_PORT_METADATA

from server_bench import DIRECT_VARIABLE, cpu_seconds, start

TABLES = 50
HERE = Path(__file__).parent


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a front's workers)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def full_speed(workers: int, tables: int, loadgens: int, seconds: float, db: str, direct: bool = False
               ) -> dict[str, float]:
    server, port = start(["-m", "tenpennies.client.cli", "serve", "--port", "0", "--rate", "100000",
                          "--address-rate", "0", "--tables-per-address", "100000", "--db", db,
                          "--workers", str(workers)])
    try:
        pids = [server.pid, *children(server.pid)]
        generators = [subprocess.Popen([sys.executable, str(HERE / "server_bench.py"), "loadgen", "full", str(port),
                                        str(tables // loadgens), str(seconds)], stdout=subprocess.PIPE, text=True,
                                       env={**os.environ, DIRECT_VARIABLE: "1" if direct else ""})
                      for _ in range(loadgens)]
        marks: dict[str, tuple[list[float], float]] = {}
        rate = 0.0
        for index, generator in enumerate(generators):
            assert generator.stdout is not None
            for line in generator.stdout:
                line = line.strip()
                if index == 0 and line in ("measuring", "measured"):
                    marks[line] = ([cpu_seconds(p) for p in [*pids, *(g.pid for g in generators)]],
                                   time.perf_counter())
                elif line.startswith("{"):
                    rate += json.loads(line)["commands_per_s"]
            if generator.wait() != 0:
                raise RuntimeError("a load generator failed")
        (cpu0, t0), (cpu1, t1) = marks["measuring"], marks["measured"]
        spent = [b - a for a, b in zip(cpu0, cpu1, strict=True)]
        used, clients = spent[:len(pids)], spent[len(pids):]
        commands = rate * (t1 - t0)
        return {"rate": rate, "cores": sum(used) / (t1 - t0), "ms_per_command": 1000 * sum(used) / commands,
                "front_ms_per_command": 1000 * used[0] / commands if workers > 1 else 0.0,
                "client_ms_per_command": 1000 * sum(clients) / commands}
    finally:
        server.terminate()
        server.wait()


async def restart(db: str) -> dict[str, float]:
    """A worker killed (SIGKILL) under a table: how long its table's next request waits (the front holds it
    until the worker is back), and one of the other worker's tables meanwhile."""
    server, port = start(["-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", db, "--workers", "2"])
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    service = pb_grpc.TenPenniesServiceStub(channel)
    try:
        made = [(await service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2))).table.table_id
                for i in range(2)]  # one on each worker (the fewer open tables, the lower index)
        victim = next(pid for pid in children(server.pid)
                      if b".worker1" in Path(f"/proc/{pid}/cmdline").read_bytes())
        os.kill(victim, signal.SIGKILL)
        began = time.perf_counter()
        paused = asyncio.ensure_future(service.GetSnapshot(pb.GetSnapshotRequest(table_id=made[1])))
        await service.GetSnapshot(pb.GetSnapshotRequest(table_id=made[0]))
        other = time.perf_counter() - began
        await paused  # the front asks the worker again once it is back
        return {"paused": time.perf_counter() - began, "other": other}
    finally:
        await channel.close()
        server.terminate()
        server.wait()


async def one_budget(db: str, seconds: float) -> dict[str, float]:
    """One address flooding snapshots of its tables (default flags) for ``seconds``: the requests a second the
    server took (not refused for its budget) through the front alone, then through the front and both
    workers' own ports at once. One budget per address: the same either way."""
    server, port = start(["-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", db, "--workers", "2"])
    front = grpc.aio.insecure_channel(f"127.0.0.1:{port}")
    channels = [front]
    try:
        service = pb_grpc.TenPenniesServiceStub(front)
        asks = []
        for i in range(2):  # one table on each worker (the fewer open tables, the lower index)
            call = service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2))
            made = await call
            worker_port = dict(await call.trailing_metadata() or ()).get(WORKER_PORT_METADATA)
            channels.append(grpc.aio.insecure_channel(f"127.0.0.1:{worker_port}"))
            asks.append(pb.GetSnapshotRequest(table_id=made.table.table_id))

        async def flood(through: list[grpc.aio.Channel]) -> float:
            taken, stop_at = 0, time.perf_counter() + seconds

            async def one(channel: grpc.aio.Channel, ask: pb.GetSnapshotRequest) -> None:
                nonlocal taken
                stub = pb_grpc.TenPenniesServiceStub(channel)
                while time.perf_counter() < stop_at:
                    try:
                        await stub.GetSnapshot(ask)
                        taken += 1
                    except grpc.aio.AioRpcError as error:
                        if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                            taken += 1
            began = time.perf_counter()
            await asyncio.gather(*(one(channel, asks[k % 2] if channel is front else asks[through.index(channel) - 1])
                                   for channel in through for k in range(16)))
            return taken / (time.perf_counter() - began)
        alone = await flood([front])
        await asyncio.sleep(3)  # (the budget saved up again: 1000 at 500 a second)
        spread = await flood(channels)
        return {"front": alone, "spread": spread}
    finally:
        for channel in channels:
            await channel.close()
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--loadgens", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the three servers, one after another")
    options = parser.parse_args()
    window = 4.0 if options.quick else 10.0
    kinds = (("--workers 1", 1, False), ("--workers 2, every request through the front", 2, False),
             ("--workers 2, table requests at the worker's own port", 2, True))
    results: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in kinds}
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(options.rounds):  # interleaved, so that a busy spell of the machine hits all three
            for name, workers, direct in kinds:
                results[name].append(full_speed(workers, options.tables, options.loadgens, window,
                                                f"{tmp}/{round_}-{workers}-{direct}.db", direct))
            loads.append(os.getloadavg()[0])
        restarted = asyncio.run(restart(f"{tmp}/restart.db"))
        budget = asyncio.run(one_budget(f"{tmp}/budget.db", 3.0 if options.quick else 6.0))
    for name, _, _ in kinds:
        runs = results[name]
        rates = ", ".join(f"{r['rate']:,.0f}" for r in runs)
        front = max(r["front_ms_per_command"] for r in runs)
        cpu = statistics.median(r["ms_per_command"] for r in runs)
        clients = statistics.median(r["client_ms_per_command"] for r in runs)
        print(f"server full speed, {options.tables} tables, {name}: {rates} commands/s, median {cpu:.2f} ms CPU a "
              f"command" + (f", the front up to {front:.2f} ms of it" if front else "") +
              f" (the load generators {clients:.2f} ms)")
    one = [r["rate"] for r in results[kinds[0][0]]]
    for name, _, _ in kinds[1:]:
        ratios = [r["rate"] / base for r, base in zip(results[name], one, strict=True)]
        print(f"{name} against --workers 1: {statistics.median(ratios):.2f}x (median; rounds "
              f"{', '.join(f'{x:.2f}x' for x in ratios)})")
    print(f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores over the rounds, "
          f"{options.loadgens} load generators on the same machine")
    print(f"one address flooding snapshots (default flags: 500 a second, 1,000 saved up): {budget['front']:,.0f} "
          f"taken a second through the front alone, {budget['spread']:,.0f} through the front and both workers' own "
          f"ports at once ({budget['spread'] / budget['front']:.2f}x: one budget wherever it asks)")
    print(f"a worker killed (SIGKILL): its table answered again {restarted['paused']:.2f} s later (the worker "
          f"started again); the other worker's table answered {1000 * restarted['other']:.1f} ms after the kill")


if __name__ == "__main__":
    main()
