"""Issue 6's guarantees (tests/test_server_hardening.py, for one process) with ``serve --workers 2``: through the
front, and where it applies at a worker's own port. Most tests share one front and its two worker processes
(started once for the module); a test that needs other options or restarts the whole server starts its own."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tenpennies.client.connection import Connection, SeatSession, join, open_channel, stub
from tenpennies.server.app import Options
from tenpennies.server.front import Front, Worker
from tenpennies.server.lobby import Lobby
from tenpennies.server.service import MALFORMED
from tenpennies.server.table import HISTORY_PAGE, MAX_SPECTATORS, RECENT_EVENTS, STREAMS_PER_SEAT
from tenpennies.v2 import tenpennies_pb2 as pb

import test_play
import test_private_tables
import test_server
import test_server_hardening as one_process
from serverkit import DEADLINES, Service, ThinClient, full_table, start, subscribed
from test_server import stored
from test_server_hardening import code_of, spectator_snapshot, stored_events
from test_workers import holder, until

pytestmark = pytest.mark.asyncio(loop_scope="module")
TWO_ROUNDS = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40, rounds=[1, 2]))
SERVICE = "/tenpennies.v2.TenPenniesService/"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Front]:
    """One front and two workers for the module's tests (each makes tables of its own)."""
    db = tmp_path_factory.mktemp("shared") / "games.db"
    front = Front(Options(port=0, db=str(db), allow_seeds=True, workers=2, tables_per_address=1000))
    await front.start()
    yield front
    await front.stop(0)


@pytest_asyncio.fixture(loop_scope="module")
async def service(shared: Front) -> AsyncIterator[Service]:
    channel = open_channel(f"127.0.0.1:{shared.port}")
    yield stub(channel)
    await channel.close()


def worker_of(front: Front, table_id: str) -> Worker:
    index = holder(Path(front.options.db), table_id)
    assert index is not None, f"no worker's store holds {table_id}"
    return front.workers[index]


async def kill_and_wait(front: Front, worker: Worker) -> None:
    """SIGKILL a worker, and wait until the front has started it again and read its lobby."""
    starts = worker.starts
    os.kill(worker.pid or 0, signal.SIGKILL)
    await until(lambda: worker.starts > starts and worker.up.is_set(), what="the worker is started again")


def raw(port: int, method: str, streaming: str = "unary_unary") -> Any:
    """A method of the service at ``port`` that takes and gives bytes as they are."""
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
    return channel, getattr(channel, streaming)(SERVICE + method, request_serializer=lambda b: b,
                                                response_deserializer=lambda b: b)


# --- resume: no gap, no double, through the front, at a worker's port, across the worker's restart ----------

async def test_seat_streams_resume_from_their_sequence_with_no_gap_or_double_across_a_workers_restart(
        shared: Front, service: Service) -> None:
    """Seats 0 and 1 follow with Subscribe (commands by SendCommand), seats 2 and 3 with Play; seats 0 and 2
    through the front, 1 and 3 at the worker's own port; a spectator through the front. The worker is killed
    mid-game; every stream resumes from its last sequence and brings exactly the events stored for it."""
    table_id, host, sessions = await full_table(service, rules=TWO_ROUNDS, seed=31)
    worker = worker_of(shared, table_id)
    direct = open_channel(f"127.0.0.1:{worker.port}")
    try:
        for seat, session in enumerate(sessions):
            session.play = seat >= 2
            if seat % 2:
                session.service = stub(direct)
        clients = [ThinClient(s, seed=40 + i) for i, s in enumerate(sessions)]
        watcher = ThinClient(SeatSession(service, table_id, None), seed=0)
        everyone = [*clients, watcher]
        tasks = [asyncio.ensure_future(c.play()) for c in everyone]
        await subscribed(service, table_id, seats=range(4), watchers=[watcher])
        await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
        await until(lambda: sum(len(c.received) for c in clients) > 150, what="the game under way")
        await kill_and_wait(shared, worker)
        for task in tasks:
            with pytest.raises(grpc.aio.AioRpcError):
                await task
        # the worker's own port answers again, and the seats' channel to it knows (refused while the worker was
        # down, it waits out a reconnect backoff first: a call made meanwhile fails at once, "connection refused")
        await asyncio.wait_for(direct.channel_ready(), 60)
        await asyncio.wait_for(asyncio.gather(*(c.play() for c in everyone)), 120)
    finally:
        await direct.close()
    events = stored_events(Path(worker.options.db), table_id)
    ended = next(seq for seq, _, e in events if e.HasField("game_ended"))
    for seat, client in enumerate(everyone):
        audiences = (None,) if client is watcher else (None, seat)
        first = client.received[0]
        assert isinstance(first, pb.Snapshot)
        expected = [seq for seq, audience, _ in events if audience in audiences and first.sequence < seq <= ended]
        got = [m.sequence for m in client.received if isinstance(m, pb.Event)]
        assert got == expected, f"{'the spectator' if client is watcher else f'seat {seat}'} missed or doubled events"
        assert sum(1 for m in client.received if isinstance(m, pb.Snapshot)) == 2


# --- crash safety: a client's deadline cuts nothing in half --------------------------------------------------

async def test_commands_cut_by_millisecond_deadlines_at_the_front_are_whole_or_not_at_all(
        shared: Front, service: Service) -> None:
    """Seat 0's commands, by SendCommand or in a Play stream's first message, with 1-8 ms deadlines through the
    front (which passes what is left of the deadline on to the worker): each change is made whole or not at all,
    the game goes on to its end, every stored public event reaches a watcher, and no cut stream holds the seat."""
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=4, rules=TWO_ROUNDS, seed=8))
    table_id, host = created.table.table_id, created.host_token
    me = await test_play.full_seats(service, table_id, host)
    watcher = service.Subscribe(pb.SubscribeRequest(table_id=table_id))
    watched_from = (await watcher.read()).snapshot.sequence
    seen: list[int] = []

    async def watch() -> None:
        while (message := await watcher.read()) is not grpc.aio.EOF:
            seen.extend(e.sequence for e in message.events.events)
    watching = asyncio.ensure_future(watch())
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    rng = random.Random(5)
    cut = 0
    for _ in range(3000):
        snapshot = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id, token=me))).snapshot
        if snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER:
            break
        legal = list(snapshot.game.legal_commands)
        if not legal:
            await asyncio.sleep(0.005)  # the bots are playing
            continue
        choice = next((c for c in legal if c.WhichOneof("kind") in ("lay_contract", "lay_set", "lay_off",
                                                                      "draw", "pass_buy")), legal[-1])
        deadline = rng.choice(DEADLINES)
        if rng.random() < 0.5:
            code = await code_of(service.SendCommand(pb.SendCommandRequest(table_id=table_id, token=me,
                                                                           command=choice), timeout=deadline))
            assert code in (grpc.StatusCode.OK, grpc.StatusCode.DEADLINE_EXCEEDED,
                            grpc.StatusCode.FAILED_PRECONDITION), code
            cut += code == grpc.StatusCode.DEADLINE_EXCEEDED
            continue
        call = service.Play(timeout=deadline)
        try:
            await call.write(pb.PlayRequest(table_id=table_id, token=me, id=1, command=choice,
                                            decision=snapshot.decision))
            while (message := await call.read()) is not grpc.aio.EOF and not message.results:
                pass
            call.cancel()
        except grpc.aio.AioRpcError as error:
            # (grpc.aio's client says INTERNAL for a write on a call its deadline has already ended)
            assert error.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED,
                                    grpc.StatusCode.INTERNAL), error
            cut += 1
    assert snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER, "the table stalled"
    assert cut, "no deadline ever cut a request: the test proves nothing"
    db = Path(worker_of(shared, table_id).options.db)
    events = stored_events(db, table_id)
    await until(lambda: events[-1][0] in seen or watching.done(), what="the watcher has caught up")
    watcher.cancel()
    public = [seq for seq, audience, _ in events if audience is None and seq > watched_from]
    assert [s for s in seen if s in set(public)] == public, "a stored public event never reached the watcher"
    game, _ = stored(db, table_id)  # the stored log is the game played, whole
    ended = next(e.game_ended for _, _, e in events if e.HasField("game_ended"))
    assert game.over and list(ended.scores) == [p.score for p in game.players]
    await until_free(service, table_id, me)


async def until_free(service: Service, table_id: str, token: str) -> None:
    """No stream of the seat is left behind: it shows unconnected, and it may open all its streams again."""
    async def gone() -> bool:
        return not (await spectator_snapshot(service, table_id)).table.seat_info[0].connected
    await until_async(gone, "every cut stream of the seat is let go")
    calls = [service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=token)) for _ in range(STREAMS_PER_SEAT)]
    try:
        for call in calls:
            assert (await call.read()).HasField("snapshot")
    finally:
        for call in calls:
            call.cancel()


async def code_of_first(call: Any) -> grpc.StatusCode:
    """OK if the stream's first message is its snapshot, else the code it ended with."""
    try:
        first = await call.read()
    except grpc.aio.AioRpcError as error:
        return error.code()
    assert first.HasField("snapshot"), first
    return grpc.StatusCode.OK


async def until_async(condition: Any, what: str, timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not await condition():
        assert loop.time() < give_up, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.02)


async def test_subscribes_cut_while_they_are_set_up_leave_no_stream_behind(shared: Front, service: Service) -> None:
    """Subscribes cut by 1-6 ms deadlines, through the front and at the worker's port: the seat shows gone (its
    bot takes over) and none of its stream slots is lost."""
    table = await full_table(service, seats=2, rules=one_process.SHORT, seed=5, takeover_seconds=1)
    await start(service, table)
    worker = worker_of(shared, table.table_id)
    direct = open_channel(f"127.0.0.1:{worker.port}")
    try:
        request = pb.SubscribeRequest(table_id=table.table_id, token=table.sessions[0].token)
        for i in range(150):
            way = service if i % 2 else stub(direct)
            await code_of(way.Subscribe(request, timeout=(0.001, 0.003, 0.006)[i % 3]).read())
    finally:
        await direct.close()

    async def taken_over() -> bool:
        seat = (await spectator_snapshot(service, table.table_id)).table.seat_info[0]
        return not seat.connected and seat.bot_playing
    await until_async(taken_over, "the gone seat is taken over")
    # opened together, they may reach the worker in any order (the front forwards each on its own): which
    # one is refused does not matter, only that every slot is free again and no more than that
    calls = [service.Subscribe(request) for _ in range(STREAMS_PER_SEAT + 1)]
    try:
        firsts = [await code_of_first(call) for call in calls]
        assert firsts.count(grpc.StatusCode.OK) == STREAMS_PER_SEAT, firsts
        assert firsts.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 1, firsts
    finally:
        for call in calls:
            call.cancel()


# --- hostile input through the front ------------------------------------------------------------------------

MALFORMED_BYTES = b"\xff\xff\xff\xff"  # no message starts so: an invalid field tag


async def test_malformed_oversized_and_unknown_requests_are_refused_clearly_and_crash_nothing(
        shared: Front, service: Service) -> None:
    table = await full_table(service, seats=2, rules=one_process.SHORT, seed=4)
    await start(service, table)
    before = await spectator_snapshot(service, table.table_id)
    worker = worker_of(shared, table.table_id)
    starts = [w.starts for w in shared.workers]
    rng = random.Random(1)
    channels = []
    try:
        for port in (shared.port, worker.port):  # the front, then the worker's own port
            channel, send = raw(port, "SendCommand")
            channels.append(channel)
            codes = set()
            for _ in range(80):
                junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
                codes.add(await code_of(send(junk)))
            assert grpc.StatusCode.INVALID_ARGUMENT in codes
            assert codes <= {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.UNAUTHENTICATED,
                             grpc.StatusCode.NOT_FOUND}, codes
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await send(MALFORMED_BYTES)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and refused.value.details() == MALFORMED
            assert await code_of(send(b"\x0a" + b"\xff" * 70_000)) == grpc.StatusCode.RESOURCE_EXHAUSTED  # too big
        # every method of the front, whoever answers it (the front, the table's worker, worker 0): a request that
        # does not parse is refused as malformed, with its words, the stream ones as well
        for method in pb.DESCRIPTOR.services_by_name["TenPenniesService"].methods:
            kind = ("stream_stream" if method.client_streaming else
                    "unary_stream" if method.server_streaming else "unary_unary")
            channel, call = raw(shared.port, method.name, kind)
            channels.append(channel)
            if method.client_streaming:
                stream = call()
                await stream.write(MALFORMED_BYTES)
                answer = stream.read()
            elif method.server_streaming:
                answer = call(MALFORMED_BYTES).read()
            else:
                answer = call(MALFORMED_BYTES)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await asyncio.wait_for(answer, 10)
            assert (refused.value.code(), refused.value.details()) == (grpc.StatusCode.INVALID_ARGUMENT, MALFORMED), \
                f"{method.name}: {refused.value.code()} {refused.value.details()!r}"
        # no such table, by each way in: NOT_FOUND, with the table named
        for call in (service.GetSnapshot(pb.GetSnapshotRequest(table_id="nope")),
                     service.SendCommand(pb.SendCommandRequest(table_id="nope", token="x")),
                     service.Subscribe(pb.SubscribeRequest(table_id="nope")).read()):
            with pytest.raises(grpc.aio.AioRpcError) as missing:
                await call
            assert missing.value.code() == grpc.StatusCode.NOT_FOUND and "nope" in missing.value.details()
        play = service.Play()
        await play.write(pb.PlayRequest(table_id="nope"))
        assert await code_of(play.read()) == grpc.StatusCode.NOT_FOUND
    finally:
        for channel in channels:
            await channel.close()
    # the Play stream's own refusals, message by message, through the front
    await test_play.test_hostile_messages_on_a_play_stream_are_refused_one_by_one_and_the_stream_goes_on(
        shared, service)  # type: ignore[arg-type]
    after = await spectator_snapshot(service, table.table_id)
    assert after.game == before.game and after.sequence == before.sequence
    assert [w.starts for w in shared.workers] == starts, "a worker was restarted"
    health = health_pb2_grpc.HealthStub(open_channel(f"127.0.0.1:{shared.port}"))
    assert (await health.Check(health_pb2.HealthCheckRequest())).status == health_pb2.HealthCheckResponse.SERVING


# --- limits: the stream caps -----------------------------------------------------------------------------------

async def test_spectators_through_the_front_fill_only_their_share_and_seats_get_their_streams_either_way(
        shared: Front, service: Service) -> None:
    table = await full_table(service, seats=2)
    worker = worker_of(shared, table.table_id)
    direct = open_channel(f"127.0.0.1:{worker.port}")
    watchers = [service.Subscribe(pb.SubscribeRequest(table_id=table.table_id)) for _ in range(MAX_SPECTATORS + 1)]
    seats: list[Any] = []
    try:
        codes = await asyncio.gather(*(code_of(call.read()) for call in watchers))
        assert codes.count(grpc.StatusCode.OK) == MAX_SPECTATORS
        assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 1
        # every spectator slot is taken: each seat still gets all its streams, through the front or at the
        # worker's own port, and one seat cannot take more
        for session in table.sessions:
            for k in range(STREAMS_PER_SEAT):
                way = service if k % 2 else stub(direct)
                seats.append(way.Subscribe(pb.SubscribeRequest(table_id=table.table_id, token=session.token)))
        for call in seats:
            assert (await call.read()).HasField("snapshot")
        again = service.Subscribe(pb.SubscribeRequest(table_id=table.table_id, token=table.sessions[0].token))
        seats.append(again)
        assert await code_of(again.read()) == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        for call in watchers + seats:
            call.cancel()
        await direct.close()


# --- finished games after a worker's restart ------------------------------------------------------------------

async def test_a_finished_game_is_resumed_after_its_workers_restart(shared: Front, service: Service) -> None:
    table = await full_table(service, seats=2, seed=3,
                             rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=6, rounds=[1, 2])))
    clients = [ThinClient(s, seed=i) for i, s in enumerate(table.sessions)]
    tasks = [asyncio.ensure_future(c.play(stop_after=3)) for c in clients]  # they leave early
    await start(service, table)
    await asyncio.gather(*tasks)
    for session in table.sessions:
        await session.leave()

    async def finished() -> bool:
        return (await spectator_snapshot(service, table.table_id)).table.status == pb.TABLE_STATUS_FINISHED
    await until_async(finished, "the bots finish the game")
    worker = worker_of(shared, table.table_id)
    await kill_and_wait(shared, worker)  # the worker holds no finished game in memory when it starts
    direct = open_channel(f"127.0.0.1:{worker.port}")
    try:
        for session, way in zip(table.sessions, (service, stub(direct)), strict=True):
            session.service = way
            session.last_sequence = 0  # from the start
            messages: list[pb.Snapshot | pb.Event] = []
            stream = session.stream()
            async for message in stream:
                messages.append(message)
                if isinstance(message, pb.Event) and message.HasField("game_ended"):
                    break
            await stream.aclose()
            assert isinstance(messages[0], pb.Snapshot) and messages[0].game.ten_pennies.phase == pb.PHASE_GAME_OVER
            events = stored_events(Path(worker.options.db), table.table_id)
            ended = next(seq for seq, _, e in events if e.HasField("game_ended"))
            mine = [seq for seq, audience, _ in events if audience in (None, session.seat) and seq <= ended]
            assert [m.sequence for m in messages[1:]] == mine, "the whole game, from its first event to its end"
    finally:
        await direct.close()


# --- the one-process checks that need only a client, through the front ---------------------------------------

async def test_the_one_process_hardening_checks_hold_through_the_front(shared: Front, service: Service) -> None:
    """Issue 6's items 1 (a seed beyond SQLite's integers wedges nothing), 7 (buy answers private), 8 (a
    decision's deadline fixed when asked), 12 (the host alone), 13 (JSON's zeros), 14 (rule citations, with
    their trailing metadata relayed): the one-process tests, with the front as the server."""
    none: Any = None
    await one_process.test_a_seed_beyond_sqlite_integers_is_stored_and_every_later_write_works(none, service)
    await one_process.test_nothing_shown_to_others_differs_with_a_buy_answer_until_the_offer_settles(none, service)
    await one_process.test_a_decisions_deadline_is_fixed_when_it_is_asked(none, service)
    await one_process.test_the_host_alone_adds_and_removes_bots_removes_waiting_players_and_starts(none, service)
    await one_process.test_json_clients_see_seat_and_card_zero_and_a_command_without_its_card_is_refused(
        none, service)
    await one_process.test_refusals_cite_the_numbered_rule(none, service)
    await one_process.test_a_seat_that_answered_leaves_no_deadline_behind_for_others_to_see(none, service)


# --- limits and expiry, and a restart of the whole server -------------------------------------------------

async def test_waiting_tables_expire_the_share_per_address_holds_and_both_survive_a_restart(tmp_path: Path) -> None:
    """With a front: seeds refused unless allowed (9), the open tables per address counted over every worker,
    idle waiting tables expired and their room given back (6), and after a restart of the whole server the
    expired tables stay gone, the count is what it was and a half-played game is as it was (10, 15)."""
    options = Options(port=0, db=str(tmp_path / "games.db"), workers=2, waiting_table_ttl=0.5,
                      tables_per_address=3)
    front = Front(options)
    await front.start()
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        assert await code_of(service.CreateTable(pb.CreateTableRequest(seats=2, seed=5))) == \
            grpc.StatusCode.PERMISSION_DENIED
        made = [await service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2)) for i in range(3)]
        assert not made[0].table.HasField("seed")
        assert {holder(tmp_path / "games.db", m.table.table_id) for m in made} == {0, 1}
        assert await code_of(service.CreateTable(pb.CreateTableRequest(name="one too many", seats=2))) == \
            grpc.StatusCode.RESOURCE_EXHAUSTED
        kept = made[0].table.table_id
        seated = [await join(service, kept, f"p{s}") for s in range(2)]  # a seated table is kept, and played
        await service.StartGame(pb.StartGameRequest(table_id=kept, host_token=made[0].host_token))
        for _ in range(5):
            seat = (await spectator_snapshot(service, kept)).game.to_act[0]
            await seated[seat].send((await seated[seat].snapshot()).game.legal_commands[-1])
        played = await spectator_snapshot(service, kept)

        async def listed() -> set[str]:
            return {t.table_id for t in (await service.ListTables(pb.ListTablesRequest())).tables}
        await until_async(lambda: one_process._eq(listed(), {kept}), "the idle tables expire")
        for gone in made[1:]:
            assert await code_of(service.GetSnapshot(pb.GetSnapshotRequest(table_id=gone.table.table_id))) == \
                grpc.StatusCode.NOT_FOUND
        again = [await service.CreateTable(pb.CreateTableRequest(name=f"again {i}", seats=2)) for i in range(2)]
        assert await code_of(service.CreateTable(pb.CreateTableRequest(name="one too many", seats=2))) == \
            grpc.StatusCode.RESOURCE_EXHAUSTED
        for table in again:  # seated, so that they outlive the restart
            await join(service, table.table.table_id, "sitting")
    finally:
        await channel.close()
        await front.stop(0)

    front = Front(dataclasses.replace(options, waiting_table_ttl=0))
    await front.start()
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        listed_now = {t.table_id for t in (await service.ListTables(pb.ListTablesRequest())).tables}
        assert listed_now == {kept} | {t.table.table_id for t in again}
        assert await code_of(service.GetSnapshot(pb.GetSnapshotRequest(table_id=made[1].table.table_id))) == \
            grpc.StatusCode.NOT_FOUND
        assert await code_of(service.CreateTable(pb.CreateTableRequest(name="one too many", seats=2))) == \
            grpc.StatusCode.RESOURCE_EXHAUSTED  # the three open tables still count
        after = await spectator_snapshot(service, kept)
        assert after.game == played.game and after.sequence >= played.sequence
    finally:
        await channel.close()
        await front.stop(0)


# --- limits: budgets and the share of open tables, whatever happens to the requests ----------------------------

async def test_budgets_and_the_share_of_open_tables_hold_at_the_front_even_for_requests_cut_short(
        tmp_path: Path) -> None:
    """A front with tight budgets: floods and junk through it are turned away and change nothing (test_server's
    check), a Play stream's commands spend the client's budget, and CreateTables cut by 1-8 ms deadlines make no
    more open tables than the address's share over both workers (a table made once its request was cut still
    counts, as in one process)."""
    front = Front(Options(port=0, db=str(tmp_path / "games.db"), workers=2, allow_seeds=True, rate=50, burst=100,
                          tables_per_address=3))
    await front.start()
    channel = open_channel(f"127.0.0.1:{front.port}")
    service = stub(channel)
    try:
        await test_server.test_random_bytes_and_floods_leave_the_server_up(front)  # type: ignore[arg-type]
        table = await full_table(service, seats=2, seed=1)
        play = service.Play()
        await play.write(pb.PlayRequest(table_id=table.table_id, token=table.sessions[0].token))
        codes: list[int] = []
        for i in range(150):
            await play.write(pb.PlayRequest(id=i + 1, command=pb.Command(draw=pb.Draw())))
        while len(codes) < 150:
            message = await asyncio.wait_for(play.read(), 10)
            codes += [result.code for result in message.results]
        play.cancel()
        assert grpc.StatusCode.RESOURCE_EXHAUSTED.value[0] in codes  # over its budget: refused, with words
        assert grpc.StatusCode.FAILED_PRECONDITION.value[0] in codes  # within it: judged

        rng = random.Random(4)
        for _ in range(6):
            await asyncio.gather(*(code_of(service.CreateTable(pb.CreateTableRequest(name=f"t{i}", seats=2),
                                                               timeout=rng.choice((0.001, 0.002, 0.004, 0.008))))
                                   for i in range(10)))
        await until_async(lambda: settled(front), "every table made is heard of")
        tables = (await service.ListTables(pb.ListTablesRequest())).tables
        assert len(tables) <= 3, f"{len(tables)} open tables of one address, whose share is 3: {front.lobby.open}"
    finally:
        await channel.close()
        await front.stop(0)


async def settled(front: Front) -> bool:
    """The front has placed every table it was asked for, and each worker's lobby agrees with its directory."""
    return not front.lobby.creating and all(
        {t for t, w in front.lobby.where.items() if w is worker} <= set(worker.tables) for worker in front.workers)


async def test_joins_cut_by_millisecond_deadlines_at_the_front_leave_no_seat_without_its_token(
        shared: Front, service: Service) -> None:
    """A JoinTable through the front, cut by a 1-8 ms deadline: the seat is taken only if its token reached the
    client (or it is given back): every seat shown taken is one a client holds the token of."""
    rng = random.Random(6)
    tokens: dict[str, list[str]] = {}
    for _ in range(12):
        created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=8))
        table_id = created.table.table_id
        tokens[table_id] = []
        for i in range(12):
            try:
                joined = await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name=f"p{i}"),
                                                 timeout=rng.uniform(0.001, 0.02))
                tokens[table_id].append(joined.token)
            except grpc.aio.AioRpcError as error:
                assert error.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.FAILED_PRECONDITION), error
    assert any(tokens.values()), "no join ever got through: the test proves nothing"

    async def taken_as_handed_over() -> bool:
        for table_id, mine in tokens.items():
            info = (await spectator_snapshot(service, table_id)).table
            if sum(1 for s in info.seat_info if s.kind == pb.SEAT_KIND_PLAYER) != len(mine):
                return False
        return True
    await until_async(taken_as_handed_over, "every seat taken is one whose token was handed over", timeout=10)


async def test_lobby_streams_are_counted_at_the_front_and_a_workers_port_serves_none(
        shared: Front, service: Service) -> None:
    worker = shared.workers[0]
    direct = open_channel(f"127.0.0.1:{worker.port}")
    calls = [service.WatchTables(pb.WatchTablesRequest()) for _ in range(Lobby.WATCHERS_PER_ADDRESS + 1)]
    try:
        codes = await asyncio.gather(*(code_of(call.read()) for call in calls))
        assert codes.count(grpc.StatusCode.OK) == Lobby.WATCHERS_PER_ADDRESS
        assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 1
        assert await code_of(stub(direct).WatchTables(pb.WatchTablesRequest()).read()) == \
            grpc.StatusCode.PERMISSION_DENIED
    finally:
        for call in calls:
            call.cancel()
        await direct.close()


async def test_a_long_history_comes_in_bounded_pages_through_the_front_and_locks_nobody_out(
        shared: Front, service: Service) -> None:
    """Resuming from the start of a table longer than it keeps in memory, through the front and at the worker's
    port: the history in bounded pages, every event kept once, in order, and the table answers at once while
    the streams are not read on."""
    table = await full_table(service, seats=2, seed=1)
    # more than the table keeps in memory (RECENT_BYTES): the oldest come from its store, in pages; fewer than
    # the store keeps of chat (TRANSIENT_KEPT), so that every one is there
    for first in range(0, 400, 25):
        await asyncio.gather(*(table.sessions[i % 2].chat(f"line {i} " + "x" * 400) for i in range(first, first + 25)))
    worker = worker_of(shared, table.table_id)
    direct = open_channel(f"127.0.0.1:{worker.port}")
    try:
        request = pb.SubscribeRequest(table_id=table.table_id, token=table.sessions[0].token, from_sequence=0)
        calls = [service.Subscribe(request), stub(direct).Subscribe(request)]
        firsts = [await call.read() for call in calls]
        assert all(first.HasField("snapshot") for first in firsts)
        # the streams are not read on: the table still answers at once, through the front and at the worker
        for way in (service, stub(direct)):
            snapshot = (await way.GetSnapshot(pb.GetSnapshotRequest(table_id=table.table_id))).snapshot
            assert snapshot.sequence >= firsts[0].snapshot.sequence
        for call, first in zip(calls, firsts, strict=True):
            sequences: list[int] = []
            pages: list[int] = []
            while not sequences or sequences[-1] < first.snapshot.sequence:
                message = await call.read()
                pages.append(len(message.events.events))
                sequences += [e.sequence for e in message.events.events]
            call.cancel()
            kept = [seq for seq, audience, _ in stored_events(Path(worker.options.db), table.table_id)
                    if audience in (None, 0) and seq <= first.snapshot.sequence]
            assert sequences == kept and len(pages) > 1
            assert max(pages) <= max(HISTORY_PAGE, RECENT_EVENTS)  # a page from the store, or those kept in memory
    finally:
        await direct.close()


async def test_private_tables_keep_their_password_through_the_front_and_a_flood_of_guesses_is_turned_away(
        shared: Front) -> None:
    """The private tables' checks of one process, with the front as the server: a client's joins come through
    the front (its password checks are counted for the client the front names), its seat's requests go to the
    worker's port."""
    connection = Connection(f"127.0.0.1:{shared.port}")
    try:
        await test_private_tables.test_a_private_table_is_listed_locked_and_joined_only_with_its_password(connection)
        await test_private_tables.test_watching_a_private_table_needs_its_password(connection)
        await test_private_tables.test_a_flood_of_guesses_is_turned_away_at_once_and_the_right_password_still_joins(
            connection)
    finally:
        await connection.close()


async def test_a_decisions_deadline_survives_its_workers_restart(shared: Front, service: Service) -> None:
    """The open decision keeps the deadline it was asked with across a SIGKILL of its worker (as for a
    restart of one process): through the front and at the worker's port alike."""
    table = await full_table(service, seats=2, rules=one_process.SHORT, seed=2, decision_seconds=600)
    await start(service, table)
    turn = (await spectator_snapshot(service, table.table_id)).game.turn_seat
    asked = (await table.sessions[turn].snapshot()).decision_deadline_ms
    worker = worker_of(shared, table.table_id)
    await kill_and_wait(shared, worker)
    direct = open_channel(f"127.0.0.1:{worker.port}")
    try:
        for way in (service, stub(direct)):
            table.sessions[turn].service = way
            again = await table.sessions[turn].snapshot()
            assert again.game.legal_commands and again.decision_deadline_ms == asked
    finally:
        await direct.close()
