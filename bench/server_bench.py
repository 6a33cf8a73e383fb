"""Server load, over loopback, with the load generator in a process of its own.

    python bench/server_bench.py            # everything, as `make bench` runs it
    python bench/server_bench.py --quick    # smaller K, shorter windows

People's pace: K tables of 4 seats, each table getting about one command a second; the time from sending
a command to its event reaching all four seats (p50, p99), the commands served of those meant to be sent
(K a second), the server's CPU use and its CPU per command. Each seat holds a Play stream and sends its
commands up it; at 500 tables the same load also runs with Subscribe + SendCommand (the calls before Play),
for the ratio of the two in the same run. Beside each, the floor: a bare grpc.aio server whose every message
up a stream goes down the four streams of its group (a table's seats), with nothing else done, at the same
pace (its CPU a message is what any one-process grpc.aio server pays for a command at people's pace).
Memory: the server's RSS for each idle Play stream (the tables and their seats made before it is counted).
Full speed: 50 tables whose seats act the moment they are asked; commands a second, beside a bare
grpc.aio ping-pong over 200 concurrent streams measured in the same run (the ceiling).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.server.lobby import Lobby
from tenpennies.server.store import Store
from tenpennies.server.table import Settings
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import WORKER_PORT_METADATA

CHANNELS = 16  # the load generator's connections; tables are spread over them
ECHO = "/bench.Echo/Ping"
FAN = "/bench.Echo/Fan"


# --- the load generator (its own process) ---------------------------------------------------------

def choose(legal: list[pb.Command], rng: random.Random) -> pb.Command | None:
    """Keep every command public and the game going: take the discard, draw, discard; pass on buys."""
    kinds = {c.WhichOneof("kind"): c for c in legal}
    for kind in ("take_discard", "draw", "pass_buy"):
        if kind in kinds:
            return kinds[kind]
    discards = [c for c in legal if c.WhichOneof("kind") == "discard"]
    return rng.choice(discards) if discards else None


class LoadTable:
    """One table's four seats. ``play``: each seat's commands go up its Play stream (else SendCommand, with
    a Subscribe stream each)."""

    play = True
    measuring = False  # (the class's: the window in which commands served are counted)

    def __init__(self, stub: pb_grpc.TenPenniesServiceStub, table_id: str, host: str, tokens: list[str]) -> None:
        self.stub, self.id, self.host, self.tokens = stub, table_id, host, tokens
        self.legal: dict[int, list[pb.Command]] = {}
        self.decision: dict[int, int] = {}  # seat -> the decision its legal commands answer
        self.last_seq = 0
        self.pending: tuple[int, float, dict[int, float]] | None = None  # (after seq, sent at, arrivals)
        self.latencies: list[float] = []
        self.changed = asyncio.Event()
        self.commands = 0  # accepted
        self.served = 0    # accepted while measuring
        self.calls: dict[int, grpc.aio.StreamStreamCall] = {}
        self.results: dict[int, asyncio.Future[int]] = {}
        self.ids = 0

    async def watch(self, seat: int) -> None:
        """Follow the seat's stream, subscribing again when grpc.aio cancels it (it cancels some of a
        thousand streams opened together), as a real client does."""
        while True:
            try:
                await self._follow(seat)
                return
            except grpc.aio.AioRpcError as error:
                if error.code() not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.INTERNAL):
                    raise  # (a Play call's first write among thousands may fail as INTERNAL: opened again)
                await asyncio.sleep(0.05)

    async def _follow(self, seat: int) -> None:
        if self.play:
            call = self.stub.Play()
            await call.write(pb.PlayRequest(table_id=self.id, token=self.tokens[seat]))
            self.calls[seat] = call
            stream = call
        else:
            stream = self.stub.Subscribe(pb.SubscribeRequest(table_id=self.id, token=self.tokens[seat]))
        async for message in stream:
            for result in getattr(message, "results", ()):
                waiting = self.results.pop(result.id, None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(result.code)
            if message.HasField("snapshot"):
                self.legal[seat] = list(message.snapshot.game.legal_commands)
                self.decision[seat] = message.snapshot.decision
                self.changed.set()
                continue
            now = time.perf_counter()
            for event in message.events.events:
                self.last_seq = max(self.last_seq, event.sequence)
                if self.pending and event.sequence > self.pending[0] and seat not in self.pending[2]:
                    self.pending[2][seat] = now
                    if len(self.pending[2]) == len(self.tokens):
                        self.latencies.append(max(self.pending[2].values()) - self.pending[1])
                        self.pending = None
                if event.HasField("decision_request"):
                    self.legal[seat] = list(event.decision_request.legal_commands)
                    self.decision[seat] = event.sequence
                    self.changed.set()

    async def act(self, rng: random.Random, measure: bool) -> bool:
        """Send one command for the seat the game waits for; False if none is asked yet."""
        for seat, legal in list(self.legal.items()):
            command = choose(legal, rng)
            if command is None:
                continue
            del self.legal[seat]
            if measure:
                self.pending = (self.last_seq, time.perf_counter(), {})
            try:
                if self.play:
                    self.ids += 1
                    answer: asyncio.Future[int] = asyncio.get_running_loop().create_future()
                    self.results[self.ids] = answer
                    await self.calls[seat].write(pb.PlayRequest(id=self.ids, command=command,
                                                                 decision=self.decision.get(seat, 0)))
                    if await answer:
                        raise RuntimeError("refused")
                else:
                    await self.stub.SendCommand(pb.SendCommandRequest(table_id=self.id, token=self.tokens[seat],
                                                                      command=command,
                                                                      decision=self.decision.get(seat, 0)))
                self.commands += 1
                self.served += LoadTable.measuring
            except (grpc.aio.AioRpcError, RuntimeError):
                self.pending = None
            return True
        return False


DIRECT_VARIABLE = "BENCH_DIRECT"
DIRECT: dict[int, list[pb_grpc.TenPenniesServiceStub]] = {}  # a worker's port -> stubs on connections to it


async def make_tables(stubs: list[pb_grpc.TenPenniesServiceStub], count: int, max_turns: int,
                      port: int = 0) -> list[LoadTable]:
    """``count`` tables; with ``port`` (where they were made), each table's requests go straight to the worker
    that holds it when the server names one (``serve --workers``: the trailing ``tp-worker-port``), as a
    client that skips the front's hop does."""
    async def one(i: int) -> LoadTable:
        stub = stubs[i % len(stubs)]
        call = stub.CreateTable(pb.CreateTableRequest(
            name=f"load {i}", seats=4, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=max_turns)),
            settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
        created: pb.CreateTableResponse = await call
        worker = dict(await call.trailing_metadata() or ()).get(WORKER_PORT_METADATA)
        if port and worker:
            direct = DIRECT.setdefault(int(worker),
                                       [pb_grpc.TenPenniesServiceStub(c) for c in connections(int(worker))])
            stub = direct[i % len(direct)]
        table_id = created.table.table_id
        tokens: list[str] = []
        for s in range(4):
            joined: pb.JoinTableResponse = await stub.JoinTable(pb.JoinTableRequest(table_id=table_id, name=f"p{s}"))
            tokens.append(joined.token)
        return LoadTable(stub, table_id, created.host_token, tokens)
    tables: list[LoadTable] = []
    for start in range(0, count, 100):
        tables += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 100))))
    return tables


def connections(port: int) -> list[grpc.aio.Channel]:
    """CHANNELS connections of their own (channels to one address would otherwise share one)."""
    return [grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
            for _ in range(CHANNELS)]


async def all_connected(table: LoadTable, timeout: float = 30) -> None:
    """Wait until the server shows every seat of ``table`` with a live subscription."""
    give_up = time.perf_counter() + timeout
    while True:
        reply: pb.GetSnapshotResponse = await table.stub.GetSnapshot(pb.GetSnapshotRequest(table_id=table.id))
        if all(seat.connected for seat in reply.snapshot.table.seat_info):
            return
        if time.perf_counter() > give_up:
            raise RuntimeError(f"table {table.id}: not every seat subscribed after {timeout} s")
        await asyncio.sleep(0.05)


async def started_tables(channels: list[grpc.aio.Channel], count: int, max_turns: int,
                         direct_to: int = 0) -> tuple[list[LoadTable], list[asyncio.Task[None]]]:
    """``count`` full tables, every seat subscribed, every game started (``direct_to``: ``make_tables``)."""
    tables = await make_tables([pb_grpc.TenPenniesServiceStub(c) for c in channels], count, max_turns, direct_to)
    watchers = [asyncio.ensure_future(t.watch(s)) for t in tables for s in range(4)]
    for start in range(0, len(tables), 100):
        await asyncio.gather(*(all_connected(t) for t in tables[start:start + 100]))
    for t in tables:
        await t.stub.StartGame(pb.StartGameRequest(table_id=t.id, host_token=t.host))
    return tables, watchers


async def human_pace(port: int, count: int, seconds: float) -> dict[str, float]:
    channels = connections(port)
    tables, watchers = await started_tables(channels, count, max_turns=100_000)
    stop_at = time.perf_counter() + 2 + seconds
    measure_from = time.perf_counter() + 2  # a warm-up first

    async def mark() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        LoadTable.measuring = True
        print("measuring", flush=True)
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        LoadTable.measuring = False
        print("measured", flush=True)
    marker = asyncio.ensure_future(mark())

    async def drive(table: LoadTable, rng: random.Random) -> None:
        await asyncio.sleep(rng.random())
        while time.perf_counter() < stop_at:
            next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()  # about one a second
            await table.act(rng, measure=time.perf_counter() > measure_from)
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    await asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)))
    await marker
    for w in watchers:
        w.cancel()
    for c in channels:
        await c.close()
    latencies = sorted(x for t in tables for x in t.latencies)
    return {"samples": len(latencies), "p50": _pct(latencies, 50), "p99": _pct(latencies, 99),
            "commands": sum(t.commands for t in tables), "served": sum(t.served for t in tables)}


async def full_speed(port: int, count: int, seconds: float) -> dict[str, float]:
    """Tables whose seats act the moment they are asked; with ``DIRECT_VARIABLE`` set, each table's requests go
    to its worker's own port when the server names one (``make_tables``)."""
    direct = bool(os.environ.get(DIRECT_VARIABLE))
    channels = connections(port)
    tables, watchers = await started_tables(channels, count, max_turns=300, direct_to=port if direct else 0)
    stop_at = time.perf_counter() + 1 + seconds
    counted_from = time.perf_counter() + 1
    counted = 0

    async def mark() -> None:  # for a parent measuring the server's CPU over the counted window
        await asyncio.sleep(max(0.0, counted_from - time.perf_counter()))
        print("measuring", flush=True)
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        print("measured", flush=True)
    marker = asyncio.ensure_future(mark())

    async def drive(table: LoadTable, rng: random.Random) -> None:
        nonlocal counted
        while time.perf_counter() < stop_at:
            table.changed.clear()
            if await table.act(rng, measure=False):
                if time.perf_counter() > counted_from:
                    counted += 1
            else:
                try:
                    await asyncio.wait_for(table.changed.wait(), 1)
                except TimeoutError:
                    pass
    await asyncio.gather(*(drive(t, random.Random(i)) for i, t in enumerate(tables)))
    await marker
    for w in watchers:
        w.cancel()
    for c in channels:
        await c.close()
    return {"commands_per_s": counted / seconds}


async def idle_streams(port: int, count: int, seconds: float) -> dict[str, float]:
    """``count`` tables with their seats joined (then 'measuring': the server's memory without streams), every
    seat's Play stream open and idle (then 'measured': with them), held ``seconds``."""
    channels = connections(port)
    tables = await make_tables([pb_grpc.TenPenniesServiceStub(c) for c in channels], count, max_turns=300)
    await asyncio.sleep(1)
    print("measuring", flush=True)
    watchers = [asyncio.ensure_future(t.watch(s)) for t in tables for s in range(4)]
    for start in range(0, len(tables), 100):
        await asyncio.gather(*(all_connected(t) for t in tables[start:start + 100]))
    await asyncio.sleep(seconds)
    print("measured", flush=True)
    for w in watchers:
        w.cancel()
    for c in channels:
        await c.close()
    return {"streams": 4 * count}


async def human_pace_sending(port: int, count: int, seconds: float) -> dict[str, float]:
    """People's pace with Subscribe + SendCommand (the calls before Play)."""
    LoadTable.play = False
    return await human_pace(port, count, seconds)


async def ping_pong(port: int, streams: int, seconds: float) -> dict[str, float]:
    channels = connections(port)
    calls = [c.unary_unary(ECHO) for c in channels]
    stop_at = time.perf_counter() + 1 + seconds
    counted_from = time.perf_counter() + 1
    counted = 0

    async def loop(i: int) -> None:
        nonlocal counted
        call = calls[i % len(calls)]
        while time.perf_counter() < stop_at:
            await call(b"ping")
            if time.perf_counter() > counted_from:
                counted += 1
    await asyncio.gather(*(loop(i) for i in range(streams)))
    for c in channels:
        await c.close()
    return {"round_trips_per_s": counted / seconds}


async def fan_pace(port: int, count: int, seconds: float) -> dict[str, float]:
    """People's pace on the bare echo server's Fan: ``count`` groups of four streams, each group sent about a
    message a second (from its seats in turn), every message going down its group's four streams."""
    channels = connections(port)
    fan = [c.stream_stream(FAN) for c in channels]
    latencies: list[float] = []
    served = 0
    measuring = False

    class Group:
        def __init__(self, i: int) -> None:
            self.name = f"group {i}".encode()
            self.calls: list[Any] = []
            self.open = fan[i % len(fan)]
            self.sent_at = 0.0
            self.arrived = 0
            self.done = asyncio.Event()

        async def follow(self, call: Any) -> None:
            while await call.read() is not grpc.aio.EOF:
                self.arrived += 1
                if self.arrived == 4:
                    self.done.set()
    groups = [Group(i) for i in range(count)]
    followers = []
    for group in groups:
        while len(group.calls) < 4:
            call = group.open()
            try:  # every stream answers its first message with the group's name
                await call.write(group.name)
                await asyncio.wait_for(call.read(), 10)
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError, TimeoutError):  # (as Play's: opened again)
                call.cancel()
                continue
            group.calls.append(call)
            followers.append(asyncio.ensure_future(group.follow(call)))
    stop_at = time.perf_counter() + 2 + seconds
    measure_from = time.perf_counter() + 2

    async def mark() -> None:
        nonlocal measuring
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        measuring = True
        print("measuring", flush=True)
        await asyncio.sleep(max(0.0, stop_at - time.perf_counter()))
        measuring = False
        print("measured", flush=True)
    marker = asyncio.ensure_future(mark())

    async def drive(group: Group, rng: random.Random) -> None:
        nonlocal served
        await asyncio.sleep(rng.random())
        seat = 0
        while time.perf_counter() < stop_at:
            next_at = time.perf_counter() + 0.8 + 0.4 * rng.random()
            group.arrived, started = 0, time.perf_counter()
            group.done.clear()
            try:
                await group.calls[seat].write(b"x" * 200)  # about a command's events for one seat
                await asyncio.wait_for(group.done.wait(), 10)
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError, TimeoutError):
                return  # (a stream grpc.aio cut: the group stops)
            if measuring:
                latencies.append(time.perf_counter() - started)
                served += 1
            seat = (seat + 1) % 4
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    await asyncio.gather(*(drive(g, random.Random(i)) for i, g in enumerate(groups)))
    await marker
    for follower in followers:
        follower.cancel()
    for c in channels:
        await c.close()
    latencies.sort()
    return {"samples": len(latencies), "p50": _pct(latencies, 50), "p99": _pct(latencies, 99),
            "commands": served, "served": served}


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(len(values) * p / 100))] * 1000


# --- the bare echo server (its own process) -------------------------------------------------------

async def echo_server() -> None:
    """Ping: answers what it is sent. Fan: a bidirectional stream whose first message names a group (a table);
    every later message on any stream of the group goes down all the group's streams, as a command's events
    go to a table's four seats on Play, with nothing else done: the floor under a command at people's pace."""
    server = grpc.aio.server()
    groups: dict[bytes, list[asyncio.Queue[bytes]]] = {}

    async def ping(request: bytes, context: grpc.aio.ServicerContext) -> bytes:
        return request

    async def fan(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> AsyncIterator[bytes]:
        group = await anext(aiter(requests))
        mine: asyncio.Queue[bytes] = asyncio.Queue()
        members = groups.setdefault(group, [])
        members.append(mine)

        async def relay() -> None:
            async for message in requests:
                for member in members:
                    member.put_nowait(message)
        relaying = asyncio.ensure_future(relay())
        try:
            yield group
            while True:
                yield await mine.get()
        finally:
            relaying.cancel()
            members.remove(mine)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        "bench.Echo", {"Ping": grpc.unary_unary_rpc_method_handler(ping),
                       "Fan": grpc.stream_stream_rpc_method_handler(fan)})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await server.wait_for_termination()


# --- the orchestra --------------------------------------------------------------------------------

def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(args: list[str]) -> tuple[subprocess.Popen[str], int]:
    """The server (or the echo server) ``args`` start; ``serve`` as one process unless ``--workers`` says
    otherwise, so that its pid is the whole server (its CPU, its memory)."""
    if "serve" in args and "--workers" not in args:
        args = [*args, "--workers", "1"]
    process = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None  # stdout=PIPE
    match = re.search(r"listening on [\d.]+:(\d+)", process.stdout.readline())
    assert match, "the server did not start"
    return process, int(match.group(1))


def loadgen(mode: str, port: int, count: int, seconds: float, server_pid: int | None = None) -> dict[str, float]:
    """Run the load generator; with ``server_pid``, also the server's CPU use (cores) over the window
    in which the generator measures (it prints 'measuring' and 'measured' around it)."""
    process = subprocess.Popen([sys.executable, __file__, "loadgen", mode, str(port), str(count), str(seconds)],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None  # stdout=PIPE
    marks: dict[str, tuple[float, float, int]] = {}
    result: dict[str, float] = {}
    for line in process.stdout:
        line = line.strip()
        if line in ("measuring", "measured"):
            marks[line] = (cpu_seconds(server_pid) if server_pid else 0.0, time.perf_counter(),
                           rss_kb(server_pid) if server_pid else 0)
        elif line.startswith("{"):
            result = json.loads(line)
    if process.wait() != 0:
        raise RuntimeError("the load generator failed")
    if server_pid and len(marks) == 2:
        (cpu0, t0, rss0), (cpu1, t1, rss1) = marks["measuring"], marks["measured"]
        result["server_cpu"] = (cpu1 - cpu0) / (t1 - t0)
        result["rss_kb"] = rss1 - rss0
    return result


def serve(db: str) -> tuple[subprocess.Popen[str], int]:
    return start(["-m", "tenpennies.client.cli", "serve", "--port", "0", "--rate", "100000", "--address-rate", "0",
                  "--tables-per-address", "100000", "--db", db])


def people(mode: str, k: int, window: float, db: str) -> dict[str, float]:
    """People's pace at ``k`` tables on our server (``mode`` human: Play, sending: SendCommand + Subscribe) or
    on the bare echo server's Fan (``mode`` fan: the floor)."""
    server, port = start([__file__, "echo"]) if mode == "fan" else serve(db)
    result = loadgen(mode, port, k, window, server.pid)
    server.terminate()
    server.wait()
    result["cpu_ms_per_command"] = 1000 * result["server_cpu"] * window / max(1, result["served"])
    how = {"human": "Play", "sending": "SendCommand + Subscribe",
           "fan": "the floor (a bare grpc.aio server fanning each message out to its group's 4 streams)"}[mode]
    print(f"people's pace, {k} tables ({4 * k} streams), {how}: p50 {result['p50']:.1f} ms, "
          f"p99 {result['p99']:.1f} ms, served {result['served'] / window:,.0f} of {k:,} commands/s, "
          f"server CPU {result['server_cpu']:.2f} cores = {result['cpu_ms_per_command']:.2f} ms a command",
          flush=True)
    return result


async def table_part(commands: int, db: str) -> float:
    """The table's own part of a command, in this process, without gRPC: one table of four seats, each with a
    subscriber drained as its stream would be, commands sent one at a time (each its own store transaction, as at
    people's pace) through ``Table.command``: the engine, protobuf, the store's commit and its thread, fan-out.
    CPU (every thread) a command, in microseconds."""
    store = Store(db)
    lobby = Lobby(store, allow_seeds=True)
    try:
        table, host = await lobby.create("part", 4, HouseRules(max_turns=100_000), Settings(0, 0), 1, "bench")
        tokens = [(await table.join(f"p{seat}", seat))[1] for seat in range(4)]
        queues = [(await table.subscribe(token))[1].queue for token in tokens]
        await table.start(host)
        rng = random.Random(1)
        done = 0
        started = time.process_time()
        while done < commands and table.asked:
            seat = min(table.asked)
            legal = [table.wire.command_to_pb(c) for c in table.asked[seat]]
            await table.command(tokens[seat], choose(legal, rng) or legal[0])
            done += 1
            for queue in queues:
                while not queue.empty():
                    queue.get_nowait()
        return 1e6 * (time.process_time() - started) / max(1, done)
    finally:
        await lobby.close()
        store.close()


def idle_memory(k: int, db: str) -> float:
    """The server's memory for each idle Play stream (kB): RSS with ``4 k`` seats' streams open, less without."""
    server, port = serve(db)
    result = loadgen("idle", port, k, 3.0, server.pid)
    server.terminate()
    server.wait()
    per_stream = result["rss_kb"] * 1.024 / result["streams"]  # (RSS is in KiB)
    print(f"memory per idle Play stream: {per_stream:.1f} kB ({result['streams']:,.0f} streams over {k} tables; "
          "the server's RSS with them open, less with the tables and seats alone)", flush=True)
    return per_stream


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables", type=int, nargs="*", help="people's-pace table counts (default 500 1000 2000)")
    options = parser.parse_args()
    ks = options.tables or ((50, 100) if options.quick else (500, 1000, 2000))
    window = 4.0 if options.quick else 10.0
    print(f"server bench: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} "
          "(the load generator shares the machine: compare ratios from the same run)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        echo, echo_port = start([__file__, "echo"])
        ceiling = loadgen("ping", echo_port, 200, window)["round_trips_per_s"]
        echo.terminate()
        echo.wait()
        print(f"ceiling: bare grpc.aio ping-pong, 200 streams: {ceiling:,.0f} round trips/s (1.00x)", flush=True)

        before = people("sending", ks[0], window, f"{tmp}/sending.db")
        for k in ks:
            floor = people("fan", k, window, "")
            result = people("human", k, window, f"{tmp}/human{k}.db")
            print(f"  at {k} tables: CPU a command {result['cpu_ms_per_command']:.2f} ms = "
                  f"{result['cpu_ms_per_command'] / floor['cpu_ms_per_command']:.2f}x the floor's "
                  f"{floor['cpu_ms_per_command']:.2f} ms (aim: 0.5 ms); p99 {result['p99']:.0f} ms (aim at 1,000 "
                  f"tables: < 50 ms), served {result['served'] / window:,.0f} of {k:,} a second", flush=True)
            if k == ks[0]:
                print(f"  Play against SendCommand + Subscribe at {k} tables: CPU a command "
                      f"{result['cpu_ms_per_command'] / before['cpu_ms_per_command']:.2f}x, p99 "
                      f"{result['p99'] / before['p99']:.2f}x", flush=True)
        idle_memory(ks[0], f"{tmp}/idle.db")
        part = asyncio.run(table_part(300 if options.quick else 1500, f"{tmp}/part.db"))
        print(f"the table's own part of a command (in-process, no gRPC: engine, protobuf, the store's commit and "
              f"thread, fan-out; one transaction a command): {part:.0f} us of CPU", flush=True)

        server, port = start(["-m", "tenpennies.client.cli", "serve", "--port", "0", "--rate", "100000",
                              "--address-rate", "0", "--tables-per-address", "100000", "--db", f"{tmp}/full.db"])
        rate = loadgen("full", port, 50, window)["commands_per_s"]
        server.terminate()
        server.wait()
        print(f"server full speed, 50 tables: {rate:,.0f} commands/s ({rate / ceiling:.2f}x the ping-pong ceiling)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "echo":
        asyncio.run(echo_server())
    elif len(sys.argv) > 1 and sys.argv[1] == "loadgen":
        mode, port, count, seconds = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
        run = {"human": human_pace, "sending": human_pace_sending, "full": full_speed, "ping": ping_pong,
               "fan": fan_pace, "idle": idle_streams}[mode]
        print(json.dumps(asyncio.run(run(port, count, seconds))))
    else:
        main()
