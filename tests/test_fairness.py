"""Fair under load: no client can slow, lock out or crowd out the others. Each test runs a real
server on a loopback port with a real SQLite file and many clients, and fails on the server as it was."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import secrets
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.bot import SeatPlayer, SeatStats
from tenpennies.client.connection import (
    Backoff,
    Connection,
    Link,
    SeatSession,
    ServerError,
    join,
    open_channel,
    stub,
)
from tenpennies.client.trust import explain, settle
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.engine.ten_pennies.bots import BOTS
from tenpennies.server import app
from tenpennies.server.app import Options, Server
from tenpennies.server.budget import Buckets
from tenpennies.server.front import Front
from tenpennies.server.lobby import Lobby
from tenpennies.server.service import BUSY, IN_FLIGHT_PER_CLIENT, Admission
from tenpennies.server.table import RECENT_BYTES, Full, Settings, Table
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import VISITOR_VARIABLE

from serverkit import Service

LATE = 1.4  # seconds a late client takes to answer a 1 s timer
OWN = [("grpc.use_local_subchannel_pool", 1)]  # a channel with a connection of its own, as another process has


async def running_server(path: Path, **options: Any) -> Server:
    server = Server(Options(db=str(path), allow_seeds=True, **{"port": 0, **options}))
    await server.start()
    return server


def _late_choice(legal: list[pb.Command]) -> pb.Command:
    """What a greedy client answers: buy when offered, take the discard, else the first command listed."""
    kinds = {c.WhichOneof("kind"): c for c in legal}
    return kinds.get("buy") or kinds.get("take_discard") or legal[0]


# --- late answers ------------------------------------------------------------------------------------------

async def test_an_answer_the_timer_beat_is_refused_as_stale_never_counted_illegal_nor_applied_to_a_newer_question(
        server: Server, service: Service) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="late", seats=3, seed=11, settings=pb.TableSettings(decision_seconds=1, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    session = await join(service, table_id, "late client", 0)
    for seat in (1, 2):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                              strategy=pb.BOT_STRATEGY_GREEDY))
    outcomes: list[str] = []
    bought: list[pb.Event] = []
    answers: set[asyncio.Task[None]] = set()

    async def answer_late(sequence: int, legal: list[pb.Command]) -> None:
        await asyncio.sleep(LATE)  # the client is slow: this is the scenario, not a wait for a state
        try:
            await session.send(_late_choice(legal), decision=sequence)
            outcomes.append("accepted")
        except ServerError as error:
            outcomes.append("stale" if error.stale else error.status)

    async def play() -> None:
        seen = 0
        async for message in session.stream():
            if isinstance(message, pb.Snapshot):
                seen = message.sequence
                if message.game.legal_commands:
                    answers.add(asyncio.create_task(answer_late(message.decision,
                                                                list(message.game.legal_commands))))
                continue
            kind = message.WhichOneof("kind")
            if kind == "card_bought" and message.card_bought.seat == 0:
                bought.append(message)
            if kind == "decision_request" and message.sequence > seen:
                answers.add(asyncio.create_task(answer_late(message.sequence,
                                                            list(message.decision_request.legal_commands))))
            if len(answers) >= 8 or kind == "game_ended":
                return

    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(play(), 60)
    await asyncio.gather(*answers)
    table = server.lobby.tables[table_id]
    assert outcomes and set(outcomes) == {"stale"}, outcomes
    assert table.refused[0] == 0       # none counted as illegal
    assert table.defaulted[0] >= len(outcomes)  # the timer acted each time
    assert not bought                  # no late "buy" landed on another card's offer


async def test_an_answer_naming_its_open_decision_is_applied_and_one_naming_none_keeps_todays_behaviour(
        server: Server, service: Service) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="named", seats=2, seed=5, settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    first = await join(service, table_id, "first", 0)
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=1,
                                          strategy=pb.BOT_STRATEGY_GREEDY))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    snapshot = await first.snapshot()
    while not snapshot.game.legal_commands:  # the bot may be first: its move comes at once
        snapshot = await first.snapshot()
    assert snapshot.decision > 0
    with_old = snapshot.decision
    await first.send(snapshot.game.legal_commands[0], decision=snapshot.decision)
    try:  # the same decision named again: it is no longer open
        await first.send(snapshot.game.legal_commands[0], decision=with_old)
        raise AssertionError("an answer to a decision no longer open was taken")
    except ServerError as error:
        assert error.code() == grpc.StatusCode.ABORTED and error.stale
        assert "too late" in error.message
        now = (await first.snapshot()).decision
        assert dict(error.trailing_metadata() or ())["tp-decision"] == str(now)
    fresh = await first.snapshot()
    if fresh.game.legal_commands:  # naming no decision: judged against what the seat faces now, as before
        await first.send(fresh.game.legal_commands[0])


# --- a stranger's lookups and reads ------------------------------------------------------------------------

def _trace(server: Server) -> list[str]:
    """Every statement either of the store's connections runs from now on."""
    statements: list[str] = []
    store = server.store
    assert store._db is not None
    store._pool.submit(store._db.set_trace_callback, statements.append).result()
    store._reader.submit(lambda: store._reading(lambda db: db.set_trace_callback(statements.append), ())).result()
    return statements


async def test_unknown_table_ids_cost_no_store_read(server: Server, service: Service) -> None:
    statements = _trace(server)
    calls = [service.GetSnapshot(pb.GetSnapshotRequest(table_id=secrets.token_hex(4))) for _ in range(300)]
    calls += [service.JoinTable(pb.JoinTableRequest(table_id=secrets.token_hex(4), name="x")) for _ in range(100)]
    codes = {await _code(call) for call in calls}
    assert codes == {grpc.StatusCode.NOT_FOUND}
    assert statements == []


async def test_spectators_asking_at_once_cost_the_table_one_turn_and_see_it_as_it_stands_after_they_asked(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(name="watched", seats=2))
    table_id, host = created.table.table_id, created.host_token
    table = server.lobby.tables[table_id]
    asked: list[str] = []
    made: list[int | None] = []
    ask, make = Table.snapshot, Table._snapshot

    async def asking(self: Table, token: str, password: str = "", client: str = "") -> pb.Snapshot:
        asked.append(token)
        return await ask(self, token, password, client)

    def making(self: Table, seat: int | None) -> pb.Snapshot:
        made.append(seat)
        return make(self, seat)
    monkeypatch.setattr(Table, "snapshot", asking)
    monkeypatch.setattr(Table, "_snapshot", making)
    assert table._turn.take_now()  # a change under way: whoever reads the table waits for its end
    calls = [asyncio.ensure_future(service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id)))
             for _ in range(IN_FLIGHT_PER_CLIENT)]
    await _until(lambda: len(asked) == IN_FLIGHT_PER_CLIENT, "every spectator's request reached the table")
    table.name = "renamed in the change"  # what the change did: each spectator asked before it ended
    table._turn.release()
    answers = await asyncio.gather(*calls)
    assert made == [None], "the spectators waiting together were shown one snapshot"
    assert {a.snapshot.table.name for a in answers} == {"renamed in the change"}
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=0,
                                          strategy=pb.BOT_STRATEGY_GREEDY))
    later = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
    # one who asks after the next change sees it
    assert made == [None, None] and later.snapshot.table.seat_info[0].kind == pb.SEAT_KIND_BOT


async def test_history_and_finished_games_are_read_while_the_writer_is_busy(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="done", seats=2, seed=3, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=20))))
    table_id, host = created.table.table_id, created.host_token
    for seat in (0, 1):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                              strategy=pb.BOT_STRATEGY_GREEDY))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    table = server.lobby.tables[table_id]
    await _until(lambda: table.status == "finished", "the bots finish their game")
    last = table.seq
    monkeypatch.setattr(Lobby, "MAX_FINISHED", 0)
    await server.lobby._forget_finished()  # the finished table leaves memory: read back on demand
    assert table_id not in server.lobby.tables
    release = threading.Event()
    server.store._pool.submit(release.wait, 30)  # the writer is busy (a long commit, a slow disk)
    try:
        session = SeatSession(service, table_id, None, last_sequence=0)
        seen = 0

        async def read() -> None:
            nonlocal seen
            async for message in session.stream():
                if isinstance(message, pb.Event):
                    seen = message.sequence
                    if seen >= last:
                        return
        await asyncio.wait_for(read(), 10)
    finally:
        release.set()
    assert seen == last


async def test_one_address_at_its_limit_is_held_to_its_budget_and_another_is_served(tmp_path: Path) -> None:
    server = await running_server(tmp_path / "budget.db", host="[::]", advertise=False, rate=1000, burst=2000,
                                  address_rate=100, address_burst=200)
    greedy = [open_channel(f"127.0.0.1:{server.port}", options=OWN) for _ in range(8)]  # one client, 8 connections
    other = open_channel(f"[::1]:{server.port}")                            # another client
    try:
        started = time.monotonic()
        calls = [stub(channel).GetSnapshot(pb.GetSnapshotRequest(table_id="nope"))
                 for channel in greedy for _ in range(150)]
        codes = [await _code(call) for call in calls]
        elapsed = time.monotonic() - started
        served = codes.count(grpc.StatusCode.NOT_FOUND)
        assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) >= len(codes) // 2
        assert served <= 200 + 100 * elapsed + 5  # its burst and its rate, all connections together
        assert await _code(stub(other).GetSnapshot(pb.GetSnapshotRequest(table_id="nope"))) == \
            grpc.StatusCode.NOT_FOUND  # not refused: the other client has a budget of its own
    finally:
        for channel in [*greedy, other]:
            await channel.close()
        await server.stop(0)


async def _code(call: Any) -> grpc.StatusCode:
    try:
        await call
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


async def _until(condition: Any, what: str, seconds: float = 30) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not condition():
        assert loop.time() < give_up, f"never happened: {what}"
        await asyncio.sleep(0.02)


# --- requests taken in turns ------------------------------------------------------------------------------

FLOODER = "ipv4:127.0.0.1"
GARBAGE = b"\xff\xff\xff\xff"  # no message starts so: an invalid field tag


class Held:
    """Every table lookup in the order it came in (``entered``); those of ids starting "hold" wait there until let
    go: the requests that got their turn hold it (a server busy with them)."""

    def __init__(self, server: Server, monkeypatch: pytest.MonkeyPatch, hold: str = "hold") -> None:
        self.entered: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.open = False
        real = server.lobby.get

        async def get(table_id: str) -> Any:
            self.entered.append(table_id)
            if table_id.startswith(hold) and not self.open:
                await self.gates.setdefault(table_id, asyncio.Event()).wait()
            return await real(table_id)
        monkeypatch.setattr(server.lobby, "get", get)

    def let_go(self, table_id: str | None = None) -> None:
        """Let one held lookup go on (None: all, and any to come)."""
        if table_id is None:
            self.open = True
        for name, gate in self.gates.items():
            if table_id in (None, name):
                gate.set()


def _waiting(server: Server, client: str) -> int:
    admission = getattr(server, "admission", None)  # (a server that takes no turns: nothing waits)
    return admission.waiting(client) if admission is not None else 0


def _lookups(channel: grpc.aio.Channel, names: list[str]) -> list[asyncio.Future[grpc.StatusCode]]:
    return [asyncio.ensure_future(_code(stub(channel).GetSnapshot(pb.GetSnapshotRequest(table_id=name))))
            for name in names]


async def test_a_flooders_requests_wait_behind_its_own_and_another_clients_request_is_taken_before_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = await running_server(tmp_path / "turns.db", host="[::]", advertise=False)
    held = Held(server, monkeypatch)
    flooder = [open_channel(f"127.0.0.1:{server.port}", options=OWN) for _ in range(8)]  # one client, 8 connections
    other = open_channel(f"[::1]:{server.port}", options=OWN)                            # another client
    try:
        calls = [call for n, channel in enumerate(flooder) for call in _lookups(channel, [f"hold {n}.{k}"
                                                                                          for k in range(5)])]
        await _until(lambda: len(held.entered) + _waiting(server, FLOODER) == 40, "the flooder's 40 requests are in")
        assert len(held.entered) == IN_FLIGHT_PER_CLIENT  # the server works on 8 of them; 32 wait their turn
        assert await _code(stub(other).GetSnapshot(pb.GetSnapshotRequest(table_id="other"))) == \
            grpc.StatusCode.NOT_FOUND  # answered while all 8 are held
        assert held.entered[IN_FLIGHT_PER_CLIENT:] == ["other"]  # before any of the 32 that came before it
        held.let_go()
        assert set(await asyncio.gather(*calls)) == {grpc.StatusCode.NOT_FOUND}
        assert len(held.entered) == 41
    finally:
        for channel in [*flooder, other]:
            await channel.close()
        await server.stop(0)


async def test_the_people_behind_one_address_coming_back_at_once_all_get_their_streams(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """160 seats' streams opened at once from one address (a restart, 40 tables behind one NAT), all of them in
    before the first is served: each sets up in its turn, none is refused for waiting."""
    server = await running_server(tmp_path / "back.db", tables_per_address=40)
    channel = open_channel(f"127.0.0.1:{server.port}")
    service = stub(channel)
    try:
        tables = []
        for n in range(40):
            created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(name=f"t{n}", seats=4))
            tables.append(created.table.table_id)
        tokens = [(table_id, (await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name=f"p{seat}"))).token)
                  for table_id in tables for seat in range(4)]
        held = Held(server, monkeypatch, hold="")  # every lookup waits until let go
        streams = [service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=token))
                   for table_id, token in tokens]
        reading = asyncio.gather(*(stream.read() for stream in streams))
        await _until(lambda: len(held.entered) + _waiting(server, FLOODER) == 160, "all 160 are in")
        held.let_go()
        firsts = await reading
        assert all(first.HasField("snapshot") for first in firsts)
        for stream in streams:
            stream.cancel()
    finally:
        await channel.close()
        await server.stop(0)


async def test_beyond_its_queue_a_flooders_request_is_refused_unread_and_spends_no_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = await running_server(tmp_path / "queue.db", host="[::]", advertise=False)
    server.admission.waiting_max = 40  # (a client may have WAITING_PER_CLIENT waiting: fewer here, the same rule)
    held = Held(server, monkeypatch)
    charged: list[str] = []
    allow = server.limiter.allow

    def counted(peer: str, cost: float = 1.0) -> bool:
        charged.append(peer)
        return allow(peer, cost)
    monkeypatch.setattr(server.limiter, "allow", counted)
    channel = open_channel(f"127.0.0.1:{server.port}", options=OWN)
    raw = channel.unary_unary("/tenpennies.v2.TenPenniesService/GetSnapshot")  # bytes as they are
    queued = IN_FLIGHT_PER_CLIENT + 40
    try:
        calls = _lookups(channel, [f"hold {n}" for n in range(queued)])
        await _until(lambda: len(held.entered) + _waiting(server, FLOODER) == queued, "the flooder's requests are in")
        assert len(charged) == queued
        for call in (stub(channel).GetSnapshot(pb.GetSnapshotRequest(table_id="one more")), raw(GARBAGE)):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call  # refused before it is read: bytes that do not even parse are refused alike
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and refused.value.details() == BUSY
            assert ("tp-refusal", "1") in tuple(refused.value.trailing_metadata() or ())
        assert len(charged) == queued  # the refusals spent nothing
        assert "one more" not in held.entered
        held.let_go()
        assert set(await asyncio.gather(*calls)) == {grpc.StatusCode.NOT_FOUND}
        with pytest.raises(grpc.aio.AioRpcError) as malformed:  # once let in, it is read: and does not parse
            await raw(GARBAGE)
        assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        await channel.close()
        await server.stop(0)


async def test_when_the_server_is_busy_the_clients_waiting_are_served_in_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = await running_server(tmp_path / "round.db", host="[::]", advertise=False)
    server.admission.slots = 2  # the server works on two requests at once: a third waits, whoever's it is
    held = Held(server, monkeypatch)
    flooder = open_channel(f"127.0.0.1:{server.port}", options=OWN)
    other = open_channel(f"[::1]:{server.port}", options=OWN)
    try:
        calls = _lookups(flooder, [f"hold a{n}" for n in range(6)])
        await _until(lambda: len(held.entered) == 2 and _waiting(server, FLOODER) == 4, "two served, four waiting")
        calls += _lookups(other, ["hold b"])
        await _until(lambda: _waiting(server, "ipv6:%5B::1%5D") == 1, "the other client's request waits")
        for served in range(2, 7):  # one slot freed at a time: the next request comes in, from each client in turn
            held.let_go(next(name for name in held.entered if not held.gates[name].is_set()))
            await _until(lambda served=served: len(held.entered) == served + 1, "the next request is taken")
        # the flooder's turn came first (its queue was first in turn), then the other's, before 3 more of the flooder's
        assert held.entered[2].startswith("hold a") and held.entered[3] == "hold b"
        held.let_go()
        assert set(await asyncio.gather(*calls)) == {grpc.StatusCode.NOT_FOUND}
    finally:
        for channel in (flooder, other):
            await channel.close()
        await server.stop(0)


async def test_at_a_front_a_flooders_requests_wait_behind_its_own_and_beyond_its_queue_are_refused_unread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve --workers``: the front's own part of a request (finding its table's worker) is taken in turn as
    one process takes the whole of it, and a request beyond its client's queue is refused there, unread."""
    front = Front(Options(port=0, db=str(tmp_path / "front.db"), host="[::]", advertise=False, workers=2))
    await front.start()
    front.admission.waiting_max = 32  # (a client may have WAITING_PER_CLIENT waiting: fewer here, the same rule)
    entered: list[str] = []
    gate = asyncio.Event()
    finding = front._worker_of

    async def worker_of(parse: Any, request: bytes, context: Any) -> Any:
        table_id = parse(request).table_id
        entered.append(table_id)
        if table_id.startswith("hold"):
            await gate.wait()
        return await finding(parse, request, context)
    monkeypatch.setattr(front, "_worker_of", worker_of)
    flooder = [open_channel(f"127.0.0.1:{front.port}", options=OWN) for _ in range(8)]  # one client, 8 connections
    other = open_channel(f"[::1]:{front.port}", options=OWN)                            # another client
    raw = flooder[0].unary_unary("/tenpennies.v2.TenPenniesService/GetSnapshot")  # bytes as they are
    try:
        calls = [call for n, channel in enumerate(flooder) for call in _lookups(channel, [f"hold {n}.{k}"
                                                                                          for k in range(5)])]
        await _until(lambda: len(entered) + front.admission.waiting(FLOODER) == 40, "the flooder's 40 requests are in")
        assert len(entered) == IN_FLIGHT_PER_CLIENT  # the front works on 8 of them; 32 wait their turn
        assert await _code(stub(other).GetSnapshot(pb.GetSnapshotRequest(table_id="other"))) == \
            grpc.StatusCode.NOT_FOUND  # answered while all 8 are held
        assert entered[IN_FLIGHT_PER_CLIENT:] == ["other"]  # before any of the 32 that came before it
        for call in (stub(flooder[0]).GetSnapshot(pb.GetSnapshotRequest(table_id="one more")), raw(GARBAGE)):
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await call  # refused before it is read: bytes that do not even parse are refused alike
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and refused.value.details() == BUSY
            assert ("tp-refusal", "1") in tuple(refused.value.trailing_metadata() or ())
        assert "one more" not in entered
        gate.set()
        assert set(await asyncio.gather(*calls)) == {grpc.StatusCode.NOT_FOUND}
    finally:
        for channel in [*flooder, other]:
            await channel.close()
        await front.stop(0)


async def test_a_turn_given_as_its_request_gave_up_passes_on_and_a_wait_elsewhere_gives_back_the_servers_slot() -> None:
    admission = Admission(per_client=1, waiting=4, slots=1)
    first = admission.now("a")
    assert first is not None and admission.now("a") is None
    gave_up = asyncio.ensure_future(admission.wait("a"))
    patient = asyncio.ensure_future(admission.wait("a"))
    await asyncio.sleep(0)
    assert admission.waiting("a") == 2
    gave_up.cancel()  # (its task not yet told)
    first.release()   # the turn passes to the one still waiting, not to the one that gave up
    with pytest.raises(asyncio.CancelledError):
        await gave_up
    ticket = await patient
    assert admission.running == 1 and admission.in_flight == {"a": 1} and not admission.waiting("a")
    assert admission.now("b") is None  # the server's one slot is taken
    ticket.aside()  # its request waits for something else (a password's hash): the server's slot is free again
    other = admission.now("b")
    assert other is not None
    for turn in (ticket, other, ticket):  # (ending a turn twice changes nothing)
        turn.release()
    assert admission.running == 0 and not admission.in_flight
    first = admission.now("a")  # every request waiting gives up at once, and the turn comes up before they know
    assert first is not None
    waiting = [asyncio.ensure_future(admission.wait("a")) for _ in range(3)]
    await asyncio.sleep(0)
    for task in waiting:
        task.cancel()
    first.release()
    assert [isinstance(outcome, asyncio.CancelledError)
            for outcome in await asyncio.gather(*waiting, return_exceptions=True)] == [True] * 3
    assert admission.running == 0 and not admission.in_flight and not admission.waiting("a")
    again = admission.now("a")  # (and the client is taken at once again)
    assert again is not None
    again.release()


# --- joins cut short -------------------------------------------------------------------------------------

async def test_a_join_cut_short_by_its_deadline_leaves_no_seat_behind(tmp_path: Path) -> None:
    server = await running_server(tmp_path / "joins.db", tables_per_address=100)
    channel = open_channel(f"127.0.0.1:{server.port}")
    service = stub(channel)
    rng = random.Random(4)
    try:
        tables: dict[str, int] = {}
        for _ in range(40):
            created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(name="t", seats=4))
            tables[created.table.table_id] = 0
        for table_id in tables:
            for _ in range(4):
                code = await _code(service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="hasty"),
                                                     timeout=rng.uniform(0.0005, 0.003)))
                tables[table_id] += code == grpc.StatusCode.OK
        cut = 160 - sum(tables.values())
        assert cut, "no deadline cut a join short: the test proves nothing"

        async def seated(table_id: str) -> int:
            reply: pb.GetSnapshotResponse = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
            return sum(1 for s in reply.snapshot.table.seat_info if s.kind == pb.SEAT_KIND_PLAYER)
        for table_id, joined in tables.items():  # (a seat given back is emptied in a task of its own)
            give_up = asyncio.get_running_loop().time() + 10
            while await seated(table_id) != joined:
                assert asyncio.get_running_loop().time() < give_up, \
                    f"table {table_id}: {await seated(table_id)} seats taken, {joined} tokens handed out"
                await asyncio.sleep(0.02)
    finally:
        await channel.close()
        await server.stop(0)


# --- refusals at the open-table cap --------------------------------------------------------------------------

async def test_a_create_refused_at_the_open_table_cap_is_cheap(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Lobby, "MAX_TABLES", 2000)
    lobby = server.lobby
    await asyncio.gather(*(lobby.create_hosted(f"filler {n}", 2, HouseRules(), Settings(), n, f"filler:{n % 97}")
                           for n in range(2000)))
    code = await _code(service.CreateTable(pb.CreateTableRequest(name="one more", seats=2)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    started = time.perf_counter()
    for _ in range(5000):
        with pytest.raises(Full):
            await lobby.create("one more", 2, HouseRules(), Settings(), None, "ipv4:10.0.0.9")
    assert time.perf_counter() - started < 0.25  # counted, not searched for (a search of 2000 tables: ~1.5 s)


# --- password checks ---------------------------------------------------------------------------------------

async def test_guessers_cannot_lock_out_a_friend_and_abandoned_guesses_still_cost_the_guesser(tmp_path: Path) -> None:
    server = await running_server(tmp_path / "private.db")
    address = f"127.0.0.1:{server.port}"
    host = Connection(address, options=OWN)
    guessers = [open_channel(address, options=OWN) for _ in range(20)]  # twenty clients guessing
    friend = Connection(address, options=OWN)
    tables = [(await host.create_table(f"Secret {n}", 4, password="open sesame")).table_id for n in range(4)]
    stop = asyncio.Event()
    tried = 0
    target = tables[0]  # everybody guesses at the table the friend is joining

    async def guess(channel: grpc.aio.Channel, n: int) -> None:
        nonlocal tried
        service = stub(channel)
        while not stop.is_set():
            tried += 1  # half of them give up on each guess after 20 ms, half wait for the answer
            await _code(service.JoinTable(pb.JoinTableRequest(table_id=target, name="eve", password=f"guess {tried}"),
                                          timeout=0.02 if n % 2 else None))
    guessing = [asyncio.create_task(guess(channel, n)) for n, channel in enumerate(guessers)]
    try:
        while tried < 40:  # the guessing is under way
            await asyncio.sleep(0.01)
        for table_id in tables:  # each table's first right password is hashed: it waits its turn, and gets in
            target = table_id
            started = time.monotonic()
            assert (await friend.join(table_id, "friend", password="open sesame")).seat == 0
            assert time.monotonic() - started < 10
    finally:
        stop.set()
        await asyncio.gather(*guessing)
        for channel in guessers:
            await channel.close()
        await host.close()
        await friend.close()
        await server.stop(0)
    assert server.lobby.passwords.peak == 1  # never more than one hash at once, however many were abandoned


# --- tournaments -------------------------------------------------------------------------------------------

async def test_one_address_cannot_take_a_tournament_and_its_unclaimed_registrations_expire(tmp_path: Path) -> None:
    config = tmp_path / "cup.json"
    config.write_text(json.dumps({"name": "cup", "seats": 2, "games": 4, "bots_per_address": 3,
                                  "unclaimed_seconds": 1}))
    server = await running_server(tmp_path / "cup.db", host="[::]", advertise=False, tournament=str(config))
    squatter = stub(open_channel(f"127.0.0.1:{server.port}", options=OWN))
    honest = stub(open_channel(f"[::1]:{server.port}", options=OWN))
    tournament = server.tournament
    assert tournament is not None
    try:
        codes = [await _code(squatter.RegisterBot(pb.RegisterBotRequest(name=f"squat {n}"))) for n in range(10)]
        assert codes.count(grpc.StatusCode.OK) == 3 and codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 7
        token = (await honest.RegisterBot(pb.RegisterBotRequest(name="honest"))).bot_token  # its own share
        # the honest bot, waiting for its seat, keeps its registration however long it waits
        waiting = honest.WaitForSeat(pb.WaitForSeatRequest(bot_token=token))
        await _until(lambda: tournament.bots["honest"].link is not None, "the honest bot waits for a seat")
        await _until(lambda: set(tournament.bots) == {"honest"}, "the squatters' unclaimed registrations expire", 10)
        with sqlite3.connect(tmp_path / "cup.db") as conn:
            assert [name for (name,) in conn.execute("SELECT name FROM tournament_bots")] == ["honest"]
        assert await _code(squatter.RegisterBot(pb.RegisterBotRequest(name="squat 0"))) == grpc.StatusCode.OK
        waiting.cancel()
    finally:
        await server.stop(0)


async def test_seats_are_dealt_fairly_among_addresses(tmp_path: Path) -> None:
    config = tmp_path / "cup.json"
    config.write_text(json.dumps({"name": "cup", "seats": 2, "games": 4, "bots_per_address": 8}))
    server = await running_server(tmp_path / "cup.db", tournament=str(config))
    tournament = server.tournament
    assert tournament is not None
    try:
        for n in range(5):
            await tournament.register(f"a{n}", "", "ipv4:10.0.0.1")
        await tournament.register("zed", "", "ipv4:10.0.0.2")
        tournament._met(["a0", "a1"])  # the first game: two of the many bots of one address
        # every pair of the others has met nobody: the next seat goes to the address that has had none
        assert "zed" in tournament.best_group(["a2", "a3", "a4", "zed"], 2)
    finally:
        await server.stop(0)


# --- visitors of tenpennies web ---------------------------------------------------------------------------

async def test_twelve_visitors_at_one_address_each_get_a_lobby_and_tables_of_their_own(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tenpennies web``'s client processes (12 by default, all at the web machine's address) each name the
    visitor they speak for (``python -m tenpennies.client.web`` sets it from the visitor's home)."""
    address = f"127.0.0.1:{server.port}"
    visitors: list[Connection] = []
    streams: list[Any] = []
    try:
        for n in range(12):
            monkeypatch.setenv(VISITOR_VARIABLE, f"{n:032x}")
            visitor = Connection(address)
            visitors.append(visitor)
            lobby = visitor.watch_tables()
            streams.append(lobby)
            await anext(lobby)  # its lobby
            for k in range(3):  # and tables of its own, more than 20 between them
                await visitor.create_table(f"visitor {n} table {k}", 2)
        monkeypatch.delenv(VISITOR_VARIABLE)
        plain = Connection(address)  # a client that names no visitor has the address's share alone
        visitors.append(plain)
        watching = [plain.watch_tables() for _ in range(Lobby.WATCHERS_PER_ADDRESS)]
        streams += watching
        for lobby in watching:
            await anext(lobby)
        with pytest.raises(ServerError) as refused:
            await anext(plain.watch_tables())
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        for stream in streams:
            await stream.aclose()
        for visitor in visitors:
            await visitor.close()


# --- a certificate that changes under a client ------------------------------------------------------------

async def test_a_certificate_that_changes_mid_stream_is_said_as_the_lobby_says_it_and_a_bot_stops_with_the_flag(
        tmp_path: Path) -> None:
    first = await running_server(tmp_path / "first.db", tls=True, advertise=False)
    address = f"127.0.0.1:{first.port}"
    assert first.fingerprint is not None
    host = Connection(address, pinned=await asyncio.to_thread(settle, address, first.fingerprint))
    hosted = await host.create_table("cert", 2)
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tenpennies.client.cli", "bot", "--server", address, "--fingerprint", first.fingerprint,
        "--table", hosted.table_id, "--strategy", "greedy", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "HOME": str(tmp_path)})
    watcher = host.spectate(hosted.table_id)
    links: list[Link] = []

    async def watch() -> None:
        async for item in watcher.follow(Backoff(first=0.05, most=0.2)):
            if isinstance(item, Link):
                links.append(item)
                if not item.up and item.error is not None and item.error.code() == grpc.StatusCode.UNAVAILABLE \
                        and "certificate" in item.reason:
                    return
    watching = asyncio.ensure_future(watch())
    await _until(lambda: any(link.up for link in links), "the spectator's stream is up")
    await _until(lambda: hosted.table_id in first.lobby.tables and
                 first.lobby.tables[hosted.table_id].seats[0].streams == 1, "the bot's stream is up", 30)
    port = first.port
    await first.stop(0)
    second = await running_server(tmp_path / "second.db", tls=True, advertise=False, port=port)  # a new certificate
    try:
        _, err = await asyncio.wait_for(bot.communicate(), 30)
        said = err.decode()
        assert bot.returncode == 1, said  # the bot stopped (it did not retry for ever)
        assert f"--fingerprint {second.fingerprint}" in said and "CHANGED" in said, said
        await asyncio.wait_for(watching, 30)
        down = links[-1]
        assert down.error is not None
        assert down.reason == explain(down.error, address)  # the lobby's words for it, on the table screen
        assert "certificate" in down.reason and "out of reach" not in down.reason
    finally:
        watching.cancel()
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
        await host.close()
        await second.stop(0)


async def test_a_refusal_leaves_no_more_garbage_than_an_answer(server: Server, service: Service) -> None:
    """A client refused hundreds of times a second must not pile up cycles for the collector to stall the
    server over: a refused call leaves what an answered one does (grpc's own), nothing of the refusal's."""
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(name="here", seats=2))

    async def garbage(table_id: str) -> int:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(200):
                await _code(service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id)))
            gc.collect()
            return len(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    answered = await garbage(created.table.table_id)
    refused = await garbage("no such table")
    assert refused <= answered * 1.2 + 50, (refused, answered)


# --- memory ----------------------------------------------------------------------------------------------------

async def test_finished_tables_leave_memory_as_they_finish_and_are_read_back_on_demand(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Lobby, "MAX_FINISHED", 2)
    tables: list[str] = []
    for n in range(5):
        created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
            name=f"bots {n}", seats=2, seed=n, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=20))))
        table_id, host = created.table.table_id, created.host_token
        for seat in (0, 1):
            await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                                  strategy=pb.BOT_STRATEGY_GREEDY))
        await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
        tables.append(table_id)
    lobby = server.lobby
    await _until(lambda: len(lobby.finished) == 5, "every game is over")
    await _until(lambda: sum(1 for t in lobby.tables.values() if t.status == "finished") <= 2,
                 "the finished tables beyond the kept few leave memory")
    kept = [t for t in lobby.tables.values() if t.status == "finished"]
    assert kept and all(t.recent for t in kept)
    for table in kept:  # the events kept for resuming streams: as stored, within the bound
        assert sum(len(data) for _, _, data in table.recent) <= RECENT_BYTES
        assert all(isinstance(data, bytes) for _, _, data in table.recent)
    for table_id in tables:  # each read back when asked
        reply: pb.GetSnapshotResponse = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
        assert reply.snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER


async def test_clients_that_left_leave_nothing_behind_and_their_finished_tables_leave_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-client state (request budgets, lobby streams, password queues, shares of open tables) goes once the
    clients have gone, and so do their finished tables nobody watches; each is read back when asked."""
    monkeypatch.setattr(Lobby, "FINISHED_LINGER", 0.5)
    monkeypatch.setattr(app, "HOUSEKEEPING_SECONDS", 0.1)
    # budgets that take seconds to be full again (a client's few requests here: 5 of a connection's, 2.5 s)
    server = await running_server(tmp_path / "left.db", rate=2, burst=30, address_rate=2, address_burst=30,
                                  waiting_table_ttl=1)
    lobby, limiter, addresses = server.lobby, server.limiter, server.limiter.addresses
    assert isinstance(addresses, Buckets)  # (one process: its own)
    assert limiter.addresses is not None
    address = f"127.0.0.1:{server.port}"
    tables: list[str] = []
    try:
        clients = [grpc.aio.insecure_channel(address, options=OWN) for _ in range(3)]
        stubs = [stub(c) for c in clients]
        try:
            for n, service in enumerate(stubs):  # each client a game of bots of its own
                created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
                    name=f"left {n}", seats=2, seed=n,
                    rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=20))))
                table_id, host = created.table.table_id, created.host_token
                for seat in (0, 1):
                    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                                          strategy=pb.BOT_STRATEGY_GREEDY))
                await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
                tables.append(table_id)
            watching = stubs[0].WatchTables(pb.WatchTablesRequest())  # a lobby stream
            await watching.read()
            private: pb.CreateTableResponse = await stubs[1].CreateTable(pb.CreateTableRequest(
                name="private", seats=2, password="open sesame"))  # a password hashed, and a wrong guess at it
            assert await _code(stubs[2].JoinTable(pb.JoinTableRequest(
                table_id=private.table.table_id, name="guess", password="open says me"))) != grpc.StatusCode.OK
            assert len(limiter.connections.buckets) == 3 and addresses.buckets and lobby.watchers
            assert lobby._open_by
            await _until(lambda: len(lobby.finished) == len(tables), "every game is over")
            watching.cancel()
        finally:
            for channel in clients:
                await channel.close()
        await _until(lambda: not limiter.connections.buckets and not addresses.buckets,
                     "the request budgets of the clients that left are forgotten")
        await _until(lambda: not lobby.watchers, "their lobby streams are gone")
        await _until(lambda: not lobby.passwords._held and not lobby.passwords._queues,
                     "their password checks are gone")
        await _until(lambda: not lobby._open_by and not lobby._open_by_address,
                     "their shares of open tables are gone (the private table expired)")
        await _until(lambda: not any(t.status == "finished" for t in lobby.tables.values()),
                     "their finished tables nobody watches leave memory")
        channel = open_channel(address)
        try:
            for table_id in tables:  # each read back when asked
                reply: pb.GetSnapshotResponse = await stub(channel).GetSnapshot(
                    pb.GetSnapshotRequest(table_id=table_id))
                assert reply.snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER
            assert set(tables) <= set(lobby.tables)
            await _until(lambda: not any(t.status == "finished" for t in lobby.tables.values()),
                         "and leave memory again once nobody watches")
        finally:
            await channel.close()
    finally:
        await server.stop(0)


class NamingSession(SeatSession):
    """A seat's session that keeps the decision each command named (the SDK must always name one)."""

    named: list[int]

    async def send(self, command: pb.Command, decision: int | None = None) -> int:
        self.named.append(self.decision if decision is None else decision)
        return await super().send(command, decision)


class SlowGreedy:
    """Answers 1.4 s after it is asked: later than a 1 s timer."""

    def __init__(self) -> None:
        self.inner = BOTS["greedy"](1)

    def choose(self, view: Any) -> Any:
        time.sleep(LATE)  # (in the SDK's thinking thread) the bot is slow: the scenario, not a wait for a state
        return self.inner.choose(view)


async def test_the_sdk_names_every_decision_and_a_bot_slower_than_its_timer_is_never_counted_illegal(
        server: Server, service: Service) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="slow", seats=3, seed=11, settings=pb.TableSettings(decision_seconds=1, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    joined = await join(service, table_id, "slow bot", 0)
    session = NamingSession(service, table_id, 0, joined.token)
    session.named = []
    for seat in (1, 2):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                              strategy=pb.BOT_STRATEGY_GREEDY))
    stats = SeatStats()
    player = SeatPlayer(SlowGreedy(), session, stats=stats, margin=2.0)  # it waits for its bot past the timer
    playing = asyncio.ensure_future(player.run())
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    table = server.lobby.tables[table_id]
    try:
        # A few times, or as often as it did before the game ended: the SDK answers at once while its bot still
        # thinks over an earlier decision, and on a loaded machine a decision comes so near its deadline that
        # the SDK's own default reaches the server first, so how often the timer acts depends on the timing.
        await _until(lambda: table.defaulted[0] >= 4 or table.status == "finished",
                     "the timer acts for the slow bot a few times, or the game's end", 120)
    finally:
        playing.cancel()
        await asyncio.gather(playing, return_exceptions=True)
    assert table.defaulted[0] >= 1 and stats.slow >= 1, (table.defaulted, stats)  # the scenario: it was late
    assert session.named and all(session.named), session.named  # it sent, and always named the decision
    assert stats.illegal == 0 and table.refused[0] == 0, (session.named, stats)
