"""``tenpennies serve --workers N``: a front on one address and tables in worker processes, for real (the workers
are processes of their own, on unix sockets, each with its SQLite file; the front runs in the test's loop)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterator
from pathlib import Path
from typing import cast

import grpc
import pytest

from tenpennies.client.connection import Connection, Link, open_channel, stub
from tenpennies.client.local import read_game
from tenpennies.client.trust import Pinned, probe
from tenpennies.server.app import Options
from tenpennies.server.front import QUICK_EXIT, Front
from tenpennies.server.workers import worker_db
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import pem_to_der

import test_server
from serverkit import Service, ThinClient, full_table, start_server_process, subscribed
from test_server import SHORT, stored


async def running_front(tmp_path: Path, **options: object) -> Front:
    front = Front(Options(port=0, db=str(tmp_path / "games.db"), allow_seeds=True, workers=2,
                          **options))  # type: ignore[arg-type]
    await front.start()
    return front


@pytest.fixture
async def front(tmp_path: Path) -> AsyncIterator[Front]:
    # its tests play whole games at full speed from one address, over 500 commands a second (the default
    # budget, one for the whole server): a load no one player makes
    running = await running_front(tmp_path, address_rate=5000)
    yield running
    await running.stop(0)


@pytest.fixture
async def service(front: Front) -> AsyncIterator[Service]:
    channel = open_channel(f"127.0.0.1:{front.port}")
    yield stub(channel)
    await channel.close()


def holder(db: Path, table_id: str) -> int | None:
    """Which worker's store holds the table (by reading the files, not asking the front)."""
    for index in range(4):
        path = worker_db(str(db), index)
        if Path(path).exists():
            with sqlite3.connect(path) as conn:
                if conn.execute("SELECT 1 FROM tables WHERE id=?", (table_id,)).fetchone():
                    return index
    return None


def _parent(stat: Path) -> int:
    """The parent pid in a /proc/<pid>/stat (0: the process is gone or a zombie)."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return 0 if fields[0] == "Z" else int(fields[1])


def socket_directory(worker: int) -> Path:
    """The directory of a worker's socket (``Options.bind``), from its command line."""
    options = json.loads(Path(f"/proc/{worker}/cmdline").read_bytes().split(b"\0")[-2])
    return Path(options["bind"].removeprefix("unix:")).parent


def commands_stored(db: str, table_id: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM commands WHERE table_id=?", (table_id,)).fetchone()[0])


class Counting(ThinClient):
    """A thin client that counts the commands the server acknowledged."""

    acknowledged = 0

    async def _act(self, legal: list[pb.Command]) -> None:
        refused = self.refused
        await super()._act(legal)
        if self.refused == refused:
            self.acknowledged += 1


async def playing(service: Service, seed: int) -> tuple[str, list[Counting], list[asyncio.Task[None]]]:
    table_id, host, sessions = await full_table(service, rules=SHORT, seed=seed)
    clients = [Counting(s, seed=seed * 10 + i) for i, s in enumerate(sessions)]
    tasks = [asyncio.ensure_future(c.play()) for c in clients]
    await subscribed(service, table_id, seats=range(4))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    return table_id, clients, tasks


async def until(condition: object, timeout: float = 60, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        assert loop.time() < give_up, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.01)


async def test_tables_made_at_one_address_land_on_every_worker_are_listed_together_and_played(
        front: Front, service: Service, tmp_path: Path) -> None:
    lobby = service.WatchTables(pb.WatchTablesRequest())
    first = await lobby.read()
    assert list(first.tables) == []
    a, clients_a, tasks_a = await playing(service, seed=5)
    b, clients_b, tasks_b = await playing(service, seed=6)
    db = tmp_path / "games.db"
    assert {holder(db, a), holder(db, b)} == {0, 1}, "two tables made in turn go to the two workers"
    listed = {t.table_id for t in (await service.ListTables(pb.ListTablesRequest())).tables}
    assert {a, b} <= listed
    seen: set[str] = set()
    while not {a, b} <= seen:  # the lobby stream of the front hears of both workers' tables
        seen |= {t.table_id for t in (await lobby.read()).tables}
    lobby.cancel()
    await asyncio.wait_for(asyncio.gather(*tasks_a, *tasks_b), 120)
    for table_id, clients in ((a, clients_a), (b, clients_b)):
        game, _ = stored(Path(worker_db(str(db), holder(db, table_id) or 0)), table_id)
        assert game.over
        assert all(c.game_ended is not None and list(c.game_ended.scores) == [p.score for p in game.players]
                   for c in clients)
        assert read_game(db, table_id).commands == game.log  # `tenpennies replay --db` finds it, whichever worker
    finished = {t.table_id: t.status for t in (await service.ListTables(pb.ListTablesRequest())).tables}
    assert finished[a] == finished[b] == pb.TABLE_STATUS_FINISHED


async def test_tables_made_at_once_spread_over_the_workers(front: Front, service: Service, tmp_path: Path) -> None:
    made = await asyncio.gather(*(service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2))
                                  for i in range(6)))
    places = Counter(holder(tmp_path / "games.db", m.table.table_id) for m in made)
    assert places == {0: 3, 1: 3}


async def test_a_worker_killed_loses_no_acknowledged_command_restarts_and_only_its_tables_pause(
        front: Front, service: Service, tmp_path: Path) -> None:
    a, clients_a, tasks_a = await playing(service, seed=7)
    b, clients_b, tasks_b = await playing(service, seed=8)
    db = tmp_path / "games.db"
    victim = front.workers[holder(db, b) or 0]
    assert holder(db, a) != victim.index
    await until(lambda: sum(len(c.received) for c in clients_b) > 200, what="table b under way")
    os.kill(victim.pid or 0, signal.SIGKILL)
    for task in tasks_b:  # its streams break; those of the other worker's table go on
        with pytest.raises(grpc.aio.AioRpcError):
            await task
    acknowledged = sum(c.acknowledged for c in clients_b)
    await until(lambda: not victim.up.is_set(), what="the front sees the worker gone")
    moved_on = sum(len(c.received) for c in clients_a)
    await until(lambda: sum(len(c.received) for c in clients_a) > moved_on + 40 or all(t.done() for t in tasks_a),
                what="the other worker's table goes on")
    assert not victim.up.is_set(), "table a moved on while b's worker was down"
    await until(lambda: victim.up.is_set(), what="the killed worker is started again")
    assert victim.starts == 2
    assert commands_stored(victim.options.db, b) >= acknowledged > 0  # every acknowledged command is stored
    # the seats of the paused table resume through the same address, from their last sequence
    await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients_b), *tasks_a), 120)
    game, _ = stored(Path(victim.options.db), b)
    assert game.over and all(c.game_ended is not None and list(c.game_ended.scores) == [p.score for p in game.players]
                             for c in clients_b)
    assert b in {t.table_id for t in (await service.ListTables(pb.ListTablesRequest())).tables}


async def test_a_worker_killed_soon_after_its_start_is_back_at_once_and_one_that_keeps_dying_waits(
        front: Front) -> None:
    """A worker is started again at once whenever it exits, however soon after its start; only a second quick
    exit in a row waits ``QUICK_EXIT`` first, so that a worker that cannot start does not spin."""
    worker = front.workers[1]
    await until(lambda: worker.up.is_set(), what="worker 1 up")
    waits: list[float] = []
    while len(waits) < 4 and (not waits or waits[-1] < QUICK_EXIT):  # killed as soon as it is up, again and again
        starts = worker.starts
        os.kill(worker.pid or 0, signal.SIGKILL)
        gone = asyncio.get_running_loop().time()
        await until(lambda: worker.starts > starts, what="the worker started again")  # noqa: B023
        waits.append(asyncio.get_running_loop().time() - gone)
        await until(lambda: worker.up.is_set(), what="worker 1 up again")
    assert waits[0] < QUICK_EXIT, f"the first time it is started again at once: {waits}"
    assert waits[-1] >= QUICK_EXIT, f"a worker that keeps dying as it starts waits before it starts again: {waits}"


async def test_the_front_hides_what_a_seat_may_not_see(front: Front, service: Service, tmp_path: Path) -> None:
    """The privacy checks of the one-process server, through the front (the first table is worker 0's); health
    and reflection for generic clients (grpcurl) there too."""
    await test_server.test_no_seat_or_spectator_ever_receives_a_card_it_may_not_know(
        None, service, tmp_path)  # type: ignore[arg-type]
    await test_server.test_hostile_requests_get_the_right_code_and_change_nothing(None, service)  # type: ignore[arg-type]
    await test_server.test_health_and_reflection_work_for_generic_clients(front)  # type: ignore[arg-type]


async def test_limits_count_every_worker_and_workers_see_the_real_client(tmp_path: Path) -> None:
    front = await running_front(tmp_path, tables_per_address=3, address_rate=40, address_burst=40)
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        made = []
        for i in range(3):  # a client naming another address gets nowhere: only the front sets it
            created = await service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2),
                                                metadata=(("tp-peer", "ipv4:10.9.9.9:1"),))
            made.append(created.table.table_id)
        db = tmp_path / "games.db"
        assert {holder(db, t) for t in made} == {0, 1}
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await service.CreateTable(pb.CreateTableRequest(name="t3", seats=2))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "3 open tables" in refused.value.details()
        for table_id in made:  # the worker kept who made it: this client, not the front nor the forged name
            with sqlite3.connect(worker_db(str(db), holder(db, table_id) or 0)) as conn:
                (creator,) = conn.execute("SELECT creator FROM tables WHERE id=?", (table_id,)).fetchone()
            assert creator == "ipv4:127.0.0.1"
        codes: list[grpc.StatusCode] = []
        began = asyncio.get_running_loop().time()
        while grpc.StatusCode.RESOURCE_EXHAUSTED not in codes and len(codes) < 1000:
            try:  # one budget per address across the workers: 40 saved up and 40 a second, no more
                await service.GetSnapshot(pb.GetSnapshotRequest(table_id=made[len(codes) % 3]))
                codes.append(grpc.StatusCode.OK)
            except grpc.aio.AioRpcError as error:
                codes.append(error.code())
        spent = asyncio.get_running_loop().time() - began
        assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
        assert codes.count(grpc.StatusCode.OK) <= 40 + 40 * spent + 1, (len(codes), spent)
    finally:
        await channel.close()
        await front.stop(0)


async def test_serve_with_workers_keeps_table_ids_on_their_worker_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    process, port = start_server_process(db, "--workers", "2")
    try:
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        made = [(await full_table(service, seats=2, seed=i)) for i in range(4)]
        assert {holder(db, t.table_id) for t in made} == {0, 1}
        short = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=6, rounds=[1, 2]))
        bots = await service.CreateTable(pb.CreateTableRequest(name="bots", seats=2, seed=3, rules=short))
        for _ in range(2):
            await service.AddBot(pb.AddBotRequest(table_id=bots.table.table_id, host_token=bots.host_token))
        await service.StartGame(pb.StartGameRequest(table_id=bots.table.table_id, host_token=bots.host_token))
        for _ in range(3000):  # (a minute at most)
            snapshot = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=bots.table.table_id))).snapshot
            if snapshot.table.status == pb.TABLE_STATUS_FINISHED:
                break
            await asyncio.sleep(0.02)
        assert snapshot.table.status == pb.TABLE_STATUS_FINISHED, "the bots did not finish their game"
        await channel.close()
        workers = [int(stat.parent.name) for stat in Path("/proc").glob("[0-9]*/stat")
                   if _parent(stat) == process.pid]
        assert len(workers) == 2
        sockets = {socket_directory(pid) for pid in workers}
        assert len(sockets) == 1
        process.send_signal(signal.SIGKILL)  # the front: its workers die with it
        process.wait()
        await until(lambda: not any(Path(f"/proc/{pid}").exists() and _parent(Path(f"/proc/{pid}/stat")) != 0
                                    for pid in workers), what="the workers die with the front")
        assert all(path.is_dir() for path in sockets), "a front killed cannot remove its sockets' directory"

        process, port = start_server_process(db, "--workers", "1")  # fewer asked: as many as the stores need
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        listed = {t.table_id for t in (await service.ListTables(pb.ListTablesRequest())).tables}
        assert listed == {t.table_id for t in made}
        for table in made:  # each answers its seat's token: its worker found it, with its seats as they were
            table.sessions[1].service = service
            snapshot = await table.sessions[1].snapshot()
            assert snapshot.table.table_id == table.table_id
            assert [s.name for s in snapshot.table.seat_info] == ["player 0", "player 1"]
        with pytest.raises(grpc.aio.AioRpcError) as unknown:
            await service.GetSnapshot(pb.GetSnapshotRequest(table_id="nope"))
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
        watch = service.Subscribe(pb.SubscribeRequest(table_id=bots.table.table_id, from_sequence=0))
        opening = await watch.read()
        assert opening.snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER, "the finished game, read from its store"
        while not (await watch.read()).events.events[-1].HasField("game_ended"):
            pass
        watch.cancel()
        await channel.close()
        assert not any(path.exists() for path in sockets), "the killed front's sockets are cleared by the next one"
        again = {socket_directory(int(stat.parent.name)) for stat in Path("/proc").glob("[0-9]*/stat")
                 if _parent(stat) == process.pid}
        process.send_signal(signal.SIGTERM)  # stopped, the front removes its own
        process.wait()
        assert again and not any(path.exists() for path in again)
    finally:
        process.kill()
        process.wait()


async def test_a_client_plays_at_its_tables_worker_and_comes_back_through_the_front_when_it_dies(
        front: Front, tmp_path: Path) -> None:
    connection = Connection(f"127.0.0.1:{front.port}")
    try:
        hosted = await connection.create_table("direct", 2, pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40)),
                                               decision_seconds=0, takeover_seconds=0, seed=4)
        sessions = [await connection.join(hosted.table_id, f"p{s}") for s in range(2)]
        worker = front.workers[holder(tmp_path / "games.db", hosted.table_id) or 0]
        assert all(s.worker_port == worker.port and s.front is connection.service for s in sessions)
        assert worker.port != front.port
        watcher = cast(AsyncGenerator[pb.Snapshot | pb.Event | Link, None], sessions[0].follow())
        assert isinstance(await anext(watcher), Link)  # up, at the worker's own port
        await connection.start(hosted.table_id, hosted.host_token)
        os.kill(worker.pid or 0, signal.SIGKILL)
        links = []
        async for message in watcher:  # down, then up again: through the front, which waited for the worker
            if isinstance(message, Link):
                links.append(message.up)
                if message.up:
                    break
        assert links[0] is False and links[-1] is True
        assert sessions[0].front is None and sessions[0].service is connection.service
        await watcher.aclose()
    finally:
        await connection.close()


async def test_a_workers_own_port_takes_only_table_requests_and_believes_no_named_client(tmp_path: Path) -> None:
    front = await running_front(tmp_path, address_rate=40, address_burst=40)
    channel = open_channel(f"127.0.0.1:{front.port}")
    made = await stub(channel).CreateTable(pb.CreateTableRequest(name="t", seats=2))
    worker = front.workers[holder(tmp_path / "games.db", made.table.table_id) or 0]
    direct = open_channel(f"127.0.0.1:{worker.port}")
    service = stub(direct)
    try:
        for call in (service.CreateTable(pb.CreateTableRequest(name="t", seats=2)),
                     service.ListTables(pb.ListTablesRequest())):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=made.table.table_id))).snapshot.table.name
        codes: list[grpc.StatusCode] = []
        for i in range(60):  # naming another client each time buys nothing: the worker's budget is this address's
            try:
                await service.GetSnapshot(pb.GetSnapshotRequest(table_id=made.table.table_id),
                                          metadata=(("tp-peer", f"ipv4:10.0.{i}.1:1"),))
                codes.append(grpc.StatusCode.OK)
            except grpc.aio.AioRpcError as error:
                codes.append(error.code())
        assert grpc.StatusCode.RESOURCE_EXHAUSTED in codes
    finally:
        await direct.close()
        await channel.close()
        await front.stop(0)


async def test_a_client_has_one_budget_across_the_front_and_every_workers_port(tmp_path: Path) -> None:
    """An address's budget is spent once, wherever it asks: what it spent at the front is gone at the workers'
    own ports too, and a call the front passes on is charged there alone."""
    burst, rate = 40, 1.0
    front = await running_front(tmp_path, address_rate=rate, address_burst=burst)
    channel = open_channel(f"127.0.0.1:{front.port}")
    directs = [open_channel(f"127.0.0.1:{worker.port}") for worker in front.workers]
    try:
        began = asyncio.get_running_loop().time()
        made = await stub(channel).CreateTable(pb.CreateTableRequest(name="t", seats=2))
        ask = pb.GetSnapshotRequest(table_id=made.table.table_id)
        for _ in range(25):  # with the create, 26 of the 40: each charged once, not at the front and its worker
            assert (await stub(channel).GetSnapshot(ask)).snapshot.table.name == "t"
        codes = Counter[grpc.StatusCode]()
        for direct in directs:  # 20 at each worker's own port: on a budget of its own, each would take them all
            for _ in range(20):
                try:
                    await stub(direct).GetSnapshot(ask)
                    codes[grpc.StatusCode.OK] += 1
                except grpc.aio.AioRpcError as error:  # (NOT_FOUND where the table is the other worker's)
                    codes[error.code()] += 1
        spent = asyncio.get_running_loop().time() - began
        taken = sum(count for code, count in codes.items() if code != grpc.StatusCode.RESOURCE_EXHAUSTED)
        assert codes[grpc.StatusCode.RESOURCE_EXHAUSTED]
        assert taken <= burst - 26 + rate * spent + 1, (codes, spent)
    finally:
        for direct in directs:
            await direct.close()
        await channel.close()
        await front.stop(0)


async def test_over_tls_the_workers_serve_the_fronts_certificate_and_a_pinned_client_plays_there(
        tmp_path: Path) -> None:
    front = await running_front(tmp_path, tls=True)
    assert front.certificate is not None and front.fingerprint is not None
    pinned = Pinned.of(pem_to_der(front.certificate.cert))
    connection = Connection(f"127.0.0.1:{front.port}", pinned=pinned)
    try:
        hosted = await connection.create_table("tls", 2, seed=1)
        session = await connection.join(hosted.table_id, "p0")
        assert session.worker_port and session.front is not None  # straight to the worker, with the same pin
        assert (await session.snapshot()).table.table_id == hosted.table_id
        seen = await asyncio.to_thread(probe, f"127.0.0.1:{session.worker_port}")
        assert seen.certificate is not None and Pinned.of(seen.certificate).fingerprint == front.fingerprint
    finally:
        await connection.close()
        await front.stop(0)


async def test_a_host_closing_its_waiting_table_frees_its_share_at_the_front_too(tmp_path: Path) -> None:
    front = await running_front(tmp_path, tables_per_address=2)
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        made = [await service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2)) for i in range(2)]
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await service.CreateTable(pb.CreateTableRequest(name="t2", seats=2))
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        await service.CloseTable(pb.CloseTableRequest(table_id=made[0].table.table_id,
                                                      host_token=made[0].host_token))
        listed = await service.ListTables(pb.ListTablesRequest())
        assert made[0].table.table_id not in [t.table_id for t in listed.tables]
        await service.CreateTable(pb.CreateTableRequest(name="t2", seats=2))  # the share came back at once
    finally:
        await channel.close()
        await front.stop(0)
