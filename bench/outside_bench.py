"""The server as outside testing found it, measured from outside: `tenpennies serve` in a process of its
own, figures as ratios against a baseline measured in the same run (these machines are noisy).

    python bench/outside_bench.py              # 120,000-event history, 1,000 stored tables
    python bench/outside_bench.py --quick      # smaller

- Long history: one table whose history is 120,000 events; 50 streams resume from sequence 0 and read
  nothing more. The server's resident memory and a spectator's GetSnapshot time, against the same
  server with no such streams. Then the streams read everything: the time to drain, and the peak memory.
- Restart: a store of 1,000 half-played tables. The time from starting the process to health SERVING,
  against starting on an empty store; then the first GetSnapshot of a table (read on demand), and of
  every table.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tenpennies.server.store import SeatRow, Store, TableRow
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc

sys.path.insert(0, str(Path(__file__).parent))
from benchkit import start_server  # noqa: E402
from restart_bench import build  # noqa: E402  (the stored tables, as the restart bench writes them)


def serve(db: Path) -> tuple[subprocess.Popen[str], int, float]:
    """Start the server; return it, its port and the seconds until it answered health checks."""
    started = time.perf_counter()
    process, port = start_server(db)

    async def healthy() -> None:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    reply = await health.Check(health_pb2.HealthCheckRequest(), timeout=1)
                    if reply.status == health_pb2.HealthCheckResponse.SERVING:
                        return
                except grpc.aio.AioRpcError:
                    pass
                await asyncio.sleep(0.005)
    asyncio.run(healthy())
    return process, port, time.perf_counter() - started


def rss_mb(process: subprocess.Popen[str]) -> float:
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stop(process: subprocess.Popen[str]) -> float:
    """Stop the server gracefully (SIGTERM); return the seconds it took to exit."""
    started = time.perf_counter()
    process.terminate()
    process.wait(120)
    return time.perf_counter() - started


async def long_table(db: Path, events: int) -> str:
    """A finished table whose stored history is ``events`` public events."""
    store = Store(str(db))
    row = TableRow("long", "long", 2, {}, {"decision_seconds": 0, "takeover_seconds": 0}, 1, "finished",
                   time.time(), seat_rows=[SeatRow(0, "bot", "greedy bot", "", "greedy"),
                                           SeatRow(1, "bot", "greedy bot", "", "greedy")])
    await store.create_table(row)
    text = "x" * 40
    for start in range(0, events, 500):
        batch = [(seq, None, pb.Event(sequence=seq, chat_posted=pb.ChatPosted(name="bench", text=text))
                  .SerializeToString()) for seq in range(start + 1, min(events, start + 500) + 1)]
        await store.record("long", events=batch)
    store.close()
    return "long"


async def snapshot_times(port: int, table_id: str, count: int = 20) -> float:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        service = pb_grpc.TenPenniesServiceStub(channel)
        times = []
        for _ in range(count):
            started = time.perf_counter()
            await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
            times.append(time.perf_counter() - started)
        return statistics.median(times)


async def resume_streams(port: int, table_id: str, streams: int, process: subprocess.Popen[str],
                         last: int) -> tuple[float, float, float]:
    """Open the streams, read only their snapshot; measure memory and GetSnapshot; then drain them."""
    channels = [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(streams)]
    calls = [pb_grpc.TenPenniesServiceStub(c).Subscribe(pb.SubscribeRequest(table_id=table_id, from_sequence=0))
             for c in channels]
    for call in calls:
        await call.read()
    peak = 0.0
    for _ in range(20):  # the server pages history into the streams' flow-control windows
        peak = max(peak, rss_mb(process))
        await asyncio.sleep(0.05)
    during = await snapshot_times(port, table_id)
    started = time.perf_counter()

    async def drain(call: grpc.aio.UnaryStreamCall) -> None:
        while True:
            message = await call.read()
            if message.events.events and message.events.events[-1].sequence >= last:
                return
    draining = asyncio.ensure_future(asyncio.gather(*(drain(c) for c in calls)))
    while not draining.done():
        peak = max(peak, rss_mb(process))
        await asyncio.sleep(0.05)
    await draining
    drained = time.perf_counter() - started
    for call in calls:
        call.cancel()
    for channel in channels:
        await channel.close()
    return peak, during, drained


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    events, streams, tables, commands = (20_000, 10, 100, 150) if args.quick else (120_000, 50, 1000, 300)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "long.db"
        table_id = asyncio.run(long_table(db, events))
        process, port, _ = serve(db)
        try:
            base_rss = rss_mb(process)
            base_snapshot = asyncio.run(snapshot_times(port, table_id))
            peak, during, drained = asyncio.run(resume_streams(port, table_id, streams, process, events))
        finally:
            stop(process)
        print(f"long history: {events:,} events, {streams} streams resuming from 0")
        print(f"  memory: {base_rss:.0f} MB before, peak {peak:.0f} MB with the streams: {peak / base_rss:.2f}x")
        print(f"  GetSnapshot: {base_snapshot * 1000:.1f} ms alone, {during * 1000:.1f} ms beside the streams: "
              f"{during / base_snapshot:.2f}x")
        print(f"  every stream read its whole history in {drained:.1f} s "
              f"({streams * events / drained:,.0f} events/s)")

        empty = Path(folder) / "empty.db"
        Store(str(empty)).close()
        process, _, empty_start = serve(empty)
        stop(process)
        many = Path(folder) / "many.db"
        asyncio.run(build(str(many), tables, commands))
        process, port, start = serve(many)
        try:
            first, every = asyncio.run(first_and_every(port))
        finally:
            stopped = stop(process)
        print(f"restart: {tables:,} tables half-played ({commands} commands each)")
        print(f"  health SERVING after {start:.2f} s; on an empty store {empty_start:.2f} s: "
              f"{start / empty_start:.2f}x")
        print(f"  first GetSnapshot of a table (its game read on demand): {first * 1000:.1f} ms")
        print(f"  GetSnapshot of every table, one after another: {every:.2f} s")
        print(f"  then a graceful stop (SIGTERM) took {stopped:.2f} s")


async def first_and_every(port: int) -> tuple[float, float]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        service = pb_grpc.TenPenniesServiceStub(channel)
        tables = (await service.ListTables(pb.ListTablesRequest())).tables
        started = time.perf_counter()
        await service.GetSnapshot(pb.GetSnapshotRequest(table_id=tables[-1].table_id))
        first = time.perf_counter() - started
        started = time.perf_counter()
        for table in tables:
            await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table.table_id))
        return first, time.perf_counter() - started


if __name__ == "__main__":
    main()
