"""The server, for real: a grpc.aio server on a loopback port, real channels, a real SQLite file."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable
from pathlib import Path

import grpc
import pytest
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tenpennies.client.connection import join, open_channel, stub
from tenpennies.engine.ten_pennies import Game, HouseRules, parse_command
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.server import table as table_module
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb

from serverkit import Service, ThinClient, full_table, start_server_process, subscribed

SHORT = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40))  # whole 7-round games that stay short


def stored(db: Path, table_id: str) -> tuple[Game, list[tuple[int, int | None, pb.Event]]]:
    """The engine replaying the stored log, and the stored events."""
    with sqlite3.connect(db) as conn:
        seats, rules, seed = conn.execute("SELECT seats, rules, seed FROM tables WHERE id=?", (table_id,)).fetchone()
        log = [parse_command(c) for (c,) in conn.execute(
            "SELECT command FROM commands WHERE table_id=? ORDER BY idx", (table_id,))]
        events = [(seq, audience, pb.Event.FromString(data)) for seq, audience, data in conn.execute(
            "SELECT seq, audience, data FROM events WHERE table_id=? ORDER BY seq", (table_id,))]
    import json
    return Game.replay(seats, HouseRules.from_dict(json.loads(rules)), seed, log), events


async def play_all(clients: list[ThinClient], timeout: float = 120) -> None:
    await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients)), timeout)


# --- whole games --------------------------------------------------------------------------------

async def test_four_clients_play_a_whole_game_and_the_scores_match_the_stored_log(server: Server, service: Service,
                                                                                  tmp_path: Path) -> None:
    table_id, host, sessions = await full_table(service, rules=SHORT)
    clients = [ThinClient(s, seed=i) for i, s in enumerate(sessions)]
    tasks = [asyncio.ensure_future(c.play()) for c in clients]
    await subscribed(service, table_id, seats=range(4))  # everyone subscribed
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    game, events = stored(tmp_path / "games.db", table_id)
    assert game.over
    for client in clients:
        assert client.game_ended is not None
        assert list(client.game_ended.scores) == [p.score for p in game.players]
        assert list(client.game_ended.winners) == list(game.winners)
    rounds = [e.round_ended.round for _, _, e in events if e.WhichOneof("kind") == "round_ended"]
    assert rounds == [1, 2, 3, 4, 5, 6, 7]
    listed = await service.ListTables(pb.ListTablesRequest())
    assert [t.status for t in listed.tables if t.table_id == table_id] == [pb.TABLE_STATUS_FINISHED]


def _cards(message: Message) -> set[int]:
    """Every card id anywhere in a message."""
    found: set[int] = set()
    if isinstance(message, pb.Card):
        return {message.id}
    for field, value in message.ListFields():
        if field.message_type is None:
            if field.name == "card_id":
                found.add(value)
            elif field.name == "card_ids":
                found |= set(value)
            continue
        items = value if field.is_repeated else [value]
        for item in items:
            found |= _cards(item)
    return found


async def test_no_seat_or_spectator_ever_receives_a_card_it_may_not_know(server: Server, service: Service,
                                                                         tmp_path: Path) -> None:
    table_id, host, sessions = await full_table(service, rules=SHORT, seed=11)
    clients = [ThinClient(s, seed=10 + i) for i, s in enumerate(sessions)]
    spectator = ThinClient(type(sessions[0])(service, table_id, None), seed=0)
    tasks = [asyncio.ensure_future(c.play()) for c in clients + [spectator]]
    await subscribed(service, table_id, seats=range(4), watchers=[spectator])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)

    # What each seat may know, command by command, from the engine replaying the stored log.
    game, events = stored(tmp_path / "games.db", table_id)
    replay = Game(game.n, game.rules, game.seed)
    engine_kinds = {"cards_received", "turn_started", "discarded", "stock_drawn", "discard_taken",
                    "discard_declined", "buy_answered", "card_bought", "card_dead", "stock_rebuilt",
                    "contract_laid", "set_laid", "laid_off", "went_out", "upcard_turned", "round_started",
                    "round_ended", "game_ended", "dealer_draw", "game_started"}
    known: dict[int | None, set[int]] = {s: set() for s in [*range(game.n), None]}
    allowed_at: dict[int, dict[int | None, set[int]]] = {}
    pending = [(e.to, e) for e in replay.opening_events]
    log = list(game.log)

    def learn(state: Game, revealed: bool) -> None:
        face_up = {c.id for c in state.pile} | {c.id for t in state.table for c in t.cards}
        for s in known:
            known[s] |= face_up
            if s is not None:
                known[s] |= {c.id for c in state.players[s].hand}
            if revealed:
                known[s] |= {c.id for p in state.players for c in p.hand}

    learn(replay, False)
    for s in known:  # the draw for dealer is face up (TP-2.3)
        known[s] |= {e.card.id for e in replay.opening_events if isinstance(e, ev.DealerDraw)}
    for seq, audience, stored_event in events:
        kind = stored_event.WhichOneof("kind")
        if kind in engine_kinds:
            if not pending:
                command = log.pop(0)
                before = Game.from_dict(replay.to_dict())
                produced = replay.apply(command)
                ends_round = any(isinstance(e, ev.RoundEnded) for e in produced)
                learn(before, ends_round)
                learn(replay, False)
                pending = [(e.to, e) for e in produced]
            engine_audience, engine_event = pending.pop(0)
            assert audience == engine_audience, f"{kind} stored for {audience}, engine says {engine_audience}"
        allowed_at[seq] = {s: set(k) for s, k in known.items()}

    for seat, client in [(s, c) for s, c in enumerate(clients)] + [(None, spectator)]:
        for message in client.received:
            if isinstance(message, pb.Snapshot):
                if not message.HasField("game"):
                    continue  # subscribed before the start
                assert (message.game.HasField("seat")) == (seat is not None)
                if seat is None:
                    assert not message.game.hand and not message.game.legal_commands
                continue
            event = message
            allowed = allowed_at[event.sequence][seat]
            leaked = _cards(event) - allowed
            assert not leaked, f"seat {seat} received cards {leaked} it may not know in {event}"
            private = event.WhichOneof("kind") in ("cards_received", "buy_answered", "decision_request")
            if private:
                assert getattr(event, event.WhichOneof("kind")).seat == seat


async def test_reconnecting_from_a_sequence_number_misses_nothing_and_doubles_nothing(server: Server, service: Service,
                                                                                      tmp_path: Path) -> None:
    table_id, host, sessions = await full_table(service, rules=SHORT, seed=5)
    clients = [ThinClient(s, seed=20 + i) for i, s in enumerate(sessions)]
    others = [asyncio.ensure_future(c.play()) for c in clients[1:]]
    await subscribed(service, table_id, seats=range(1, 4))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await clients[0].play(stop_after=25)  # leaves the stream mid-game
    first = list(clients[0].received)
    await asyncio.sleep(0.3)
    await sessions[1].chat("while you were away")  # the game moves on without seat 0
    resumed_from = sessions[0].last_sequence
    await asyncio.wait_for(asyncio.gather(clients[0].play(), *others), 120)
    _, events = stored(tmp_path / "games.db", table_id)
    ended = next(seq for seq, _, e in events if e.HasField("game_ended"))  # where the client stops reading
    expected = [seq for seq, audience, _ in events
                if audience in (None, 0) and first[0].sequence < seq <= ended]
    got = [m.sequence for m in clients[0].received if isinstance(m, pb.Event)]
    assert got == expected, "events missed or repeated across the reconnect"
    assert sum(1 for m in clients[0].received if isinstance(m, pb.Snapshot)) == 2
    assert resumed_from and any(m.HasField("chat_posted") for m in clients[0].received if isinstance(m, pb.Event))


async def test_the_server_survives_sigkill_and_the_game_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    process, port = start_server_process(db)
    try:
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        table_id, host, sessions = await full_table(service, rules=SHORT, seed=9)
        clients = [ThinClient(s, seed=30 + i) for i, s in enumerate(sessions)]
        tasks = [asyncio.ensure_future(c.play()) for c in clients]
        await subscribed(service, table_id, seats=range(4))
        await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
        while sum(len(c.received) for c in clients) < 300:
            await asyncio.sleep(0.01)
        process.send_signal(signal.SIGKILL)
        process.wait()
        for task in tasks:  # the streams break with the server
            with pytest.raises(grpc.aio.AioRpcError):
                await task
        await channel.close()
        before = [s.last_sequence for s in sessions]

        process, port = start_server_process(db)
        channel = open_channel(f"127.0.0.1:{port}")
        service = stub(channel)
        for session in sessions:  # same tokens, same sequence numbers
            session.service = service
        await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients)), 120)
        game, _ = stored(db, table_id)
        assert game.over and all(c.game_ended is not None
                                 and list(c.game_ended.scores) == [p.score for p in game.players] for c in clients)
        assert all(s.last_sequence is not None and b is not None and s.last_sequence > b
                   for s, b in zip(sessions, before, strict=True))
        await channel.close()
    finally:
        process.kill()
        process.wait()


# --- nobody gets in where they don't belong ---------------------------------------------------------

async def _status(call: Awaitable[object]) -> grpc.StatusCode:
    try:
        await call
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


async def test_hostile_requests_get_the_right_code_and_change_nothing(server: Server, service: Service) -> None:
    table_id, host, sessions = await full_table(service, rules=SHORT, seed=3)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    spectator = pb.GetSnapshotRequest(table_id=table_id)
    before = (await service.GetSnapshot(spectator)).snapshot
    hands = {s.seat: (await s.snapshot()).game.hand for s in sessions}
    turn = before.game.turn_seat
    other = (turn + 1) % 4

    def send(token: str, command: pb.Command, table: str = table_id) -> grpc.aio.UnaryUnaryCall:
        return service.SendCommand(pb.SendCommandRequest(table_id=table, token=token, command=command))
    cases = [
        (send("", pb.Command(draw=pb.Draw())), grpc.StatusCode.UNAUTHENTICATED),
        (send("forged-token", pb.Command(draw=pb.Draw())), grpc.StatusCode.PERMISSION_DENIED),
        (send(sessions[turn].token, pb.Command(), "nope"), grpc.StatusCode.NOT_FOUND),
        (send(sessions[turn].token, pb.Command()), grpc.StatusCode.INVALID_ARGUMENT),
        (send(sessions[turn].token, pb.Command(discard=pb.Discard(card_id=99999))), grpc.StatusCode.INVALID_ARGUMENT),
        (send(sessions[other].token, pb.Command(take_discard=pb.TakeDiscard())), grpc.StatusCode.FAILED_PRECONDITION),
        (send(sessions[turn].token, pb.Command(discard=pb.Discard(card_id=hands[other][0].id))),
         grpc.StatusCode.FAILED_PRECONDITION),
        (send(sessions[turn].token, pb.Command(lay_contract=pb.LayContract(sets=[pb.CardSet(card_ids=[1, 2])]))),
         grpc.StatusCode.FAILED_PRECONDITION),
        (service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="late")), grpc.StatusCode.FAILED_PRECONDITION),
        (service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="")), grpc.StatusCode.INVALID_ARGUMENT),
        (service.CreateTable(pb.CreateTableRequest(seats=9)), grpc.StatusCode.INVALID_ARGUMENT),
        (service.CreateTable(pb.CreateTableRequest(
            seats=4, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[3, 1])))),
         grpc.StatusCode.INVALID_ARGUMENT),
        (service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id, token="x")), grpc.StatusCode.PERMISSION_DENIED),
        (service.SendChat(pb.SendChatRequest(table_id=table_id, token=sessions[0].token, text="x" * 501)),
         grpc.StatusCode.INVALID_ARGUMENT),
        (service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host)),
         grpc.StatusCode.FAILED_PRECONDITION),
    ]
    for call, code in cases:
        assert await _status(call) == code
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await send(sessions[other].token, pb.Command(draw=pb.Draw()))
    error = refused.value
    assert error.details().startswith("TP-4") and dict(error.trailing_metadata())["tp-rule"].startswith("TP-4")
    after = (await service.GetSnapshot(spectator)).snapshot
    assert after.game == before.game and after.sequence == before.sequence
    assert {s.seat: (await s.snapshot()).game.hand for s in sessions} == hands


@pytest.fixture
async def strict_server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(Options(port=0, db=str(tmp_path / "strict.db"), rate=50, burst=100, allow_seeds=True))
    await running.start()
    yield running
    await running.stop(0)


async def test_random_bytes_and_floods_leave_the_server_up(strict_server: Server) -> None:
    import random
    server = strict_server
    rng = random.Random(1)
    service = stub(open_channel(f"127.0.0.1:{server.port}"))
    table_id, host, sessions = await full_table(service, rules=SHORT, seed=4)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    before = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}", options=[("grpc.use_local_subchannel_pool", 1)])
    raw = channel.unary_unary("/tenpennies.v2.TenPenniesService/SendCommand")
    codes = set()
    for _ in range(80):
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
        codes.add(await _status(raw(junk)))
    assert grpc.StatusCode.INVALID_ARGUMENT in codes
    assert codes <= {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.NOT_FOUND}
    assert await _status(raw(b"\x0a" + b"\xff" * 70_000)) == grpc.StatusCode.RESOURCE_EXHAUSTED  # too big
    # a connection of its own: channels to one address otherwise share one
    flood = stub(grpc.aio.insecure_channel(f"127.0.0.1:{server.port}",
                                           options=[("grpc.use_local_subchannel_pool", 1)]))
    results = await asyncio.gather(*(_status(flood.SendCommand(pb.SendCommandRequest(
        table_id=table_id, token=sessions[1].token, command=pb.Command(draw=pb.Draw())))) for _ in range(300)))
    assert grpc.StatusCode.RESOURCE_EXHAUSTED in results  # the per-connection rate limit
    assert set(results) <= {grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.FAILED_PRECONDITION}
    await channel.close()
    after = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
    assert after.game == before.game
    health = health_pb2_grpc.HealthStub(open_channel(f"127.0.0.1:{server.port}"))
    assert (await health.Check(health_pb2.HealthCheckRequest())).status == health_pb2.HealthCheckResponse.SERVING


# --- timers and takeover ------------------------------------------------------------------------

async def test_the_decision_timer_acts_for_a_silent_seat_and_says_so(server: Server, service: Service) -> None:
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT, seed=2, decision_seconds=1)
    watcher = ThinClient(type(sessions[0])(service, table_id, None), seed=0)
    watch = asyncio.ensure_future(watcher.play())
    await subscribed(service, table_id, watchers=[watcher])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    snapshot = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
    assert snapshot.decision_deadline_ms > 0
    turn = snapshot.game.turn_seat
    # the player declines at 1 s, the other seat passes on the buy at 2 s, the server draws for the
    # player at once, and discards for it at 3 s
    expired: list[pb.TimerExpired] = []
    for _ in range(200):
        await asyncio.sleep(0.05)
        expired = [m.timer_expired for m in watcher.received
                   if isinstance(m, pb.Event) and m.HasField("timer_expired")]
        if len(expired) >= 4:
            break
    watch.cancel()
    assert [(e.seat, e.command.WhichOneof("kind")) for e in expired][:4] == \
        [(turn, "decline_discard"), (1 - turn, "pass_buy"), (turn, "draw"), (turn, "discard")]
    after = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
    assert after.game.turn_seat != turn


async def test_a_gone_seat_is_played_by_a_bot_until_its_player_reclaims_it(server: Server, service: Service) -> None:
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT, seed=6, takeover_seconds=1)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    for _ in range(100):  # nobody subscribed: after a second both seats are gone, and bots play them
        await asyncio.sleep(0.05)
        info = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
        if info.game.turn > 2:
            break
    assert all(s.bot_playing for s in info.table.seat_info)
    assert info.game.turn > 1 or info.game.ten_pennies.round > 1 or info.game.ten_pennies.phase == pb.PHASE_GAME_OVER
    stream = sessions[0].stream()
    first = await stream.__anext__()
    assert isinstance(first, pb.Snapshot)
    await asyncio.sleep(0.1)
    info = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot
    assert not info.table.seat_info[0].bot_playing and info.table.seat_info[1].bot_playing
    await stream.aclose()


async def test_a_built_in_bot_table_plays_to_the_end(server: Server, service: Service) -> None:
    created = await service.CreateTable(pb.CreateTableRequest(name="bots", seats=3, rules=SHORT, seed=1))
    table_id, host = created.table.table_id, created.host_token
    me = await join(service, table_id, "host")
    await service.AddBot(pb.AddBotRequest(table_id=table_id, strategy=pb.BOT_STRATEGY_RANDOM, host_token=host))
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host))
    client = ThinClient(me, seed=3)
    task = asyncio.ensure_future(client.play())
    assert me.seat is not None
    await subscribed(service, table_id, seats=[me.seat])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(task, 120)
    assert client.game_ended is not None


async def test_a_slow_subscriber_is_dropped_and_can_resume(server: Server, service: Service,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "SUBSCRIBER_QUEUE", 8)
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT)
    # a client on a connection of its own that grants the server little room and reads nothing
    slow = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}", options=[
        ("grpc.http2.bdp_probe", 0), ("grpc.http2.lookahead_bytes", 8192)])
    session = sessions[0]
    session.service = stub(slow)
    stream = session.stream()
    await stream.__anext__()  # subscribed, then reads nothing while the table goes on
    for i in range(450):  # more than the connection's flow-control window holds, fewer than the chat kept
        await sessions[1].chat(f"{i:04} " + "x" * 400)

    async def drain() -> None:
        async for _ in stream:
            pass
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await asyncio.wait_for(drain(), 20)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    resumed = [m async for m in _take(session.stream(), 2)]
    assert isinstance(resumed[0], pb.Snapshot) and isinstance(resumed[1], pb.Event)
    assert resumed[1].sequence == session.last_sequence
    assert resumed[1].chat_posted.text.startswith("0")


async def _take(stream: AsyncGenerator[pb.Snapshot | pb.Event, None],
                count: int) -> AsyncGenerator[pb.Snapshot | pb.Event, None]:
    async for message in stream:
        yield message
        count -= 1
        if count == 0:
            await stream.aclose()
            return


# --- the contract's generic tooling -------------------------------------------------------------

async def test_health_and_reflection_work_for_generic_clients(server: Server) -> None:
    channel = open_channel(f"127.0.0.1:{server.port}")
    health = health_pb2_grpc.HealthStub(channel)
    reply = await health.Check(health_pb2.HealthCheckRequest(service="tenpennies.v2.TenPenniesService"))
    assert reply.status == health_pb2.HealthCheckResponse.SERVING
    reflect = reflection_pb2_grpc.ServerReflectionStub(channel)

    async def ask() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
        yield reflection_pb2.ServerReflectionRequest(list_services="")
    services = []
    async for response in reflect.ServerReflectionInfo(ask()):
        services = [s.name for s in response.list_services_response.service]
    assert "tenpennies.v2.TenPenniesService" in services and "grpc.health.v1.Health" in services
    await channel.close()


async def test_tls_serves_clients_that_trust_the_ca_only(tmp_path: Path) -> None:
    trustme = pytest.importorskip("trustme")
    ca = trustme.CA()
    cert = ca.issue_cert("localhost", "127.0.0.1")
    (tmp_path / "cert.pem").write_bytes(b"".join(blob.bytes() for blob in cert.cert_chain_pems))
    cert.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    running = Server(Options(host="127.0.0.1", port=0, db=str(tmp_path / "tls.db"),
                             tls_cert=str(tmp_path / "cert.pem"), tls_key=str(tmp_path / "key.pem")))
    await running.start()
    try:
        secure = open_channel(f"localhost:{running.port}", tls_ca=str(tmp_path / "ca.pem"))
        listed = await stub(secure).ListTables(pb.ListTablesRequest())
        assert list(listed.tables) == []
        plain = open_channel(f"localhost:{running.port}")
        assert await _status(stub(plain).ListTables(pb.ListTablesRequest(), timeout=2)) == \
            grpc.StatusCode.UNAVAILABLE
        await secure.close()
        await plain.close()
    finally:
        await running.stop(0)


async def test_a_restart_brings_back_open_tables_and_leaves_finished_games_in_the_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tenpennies.server.lobby import Lobby
    from tenpennies.server.store import Store
    from tenpennies.server.table import Settings

    db = str(tmp_path / "lobby.db")
    store = Store(db)
    lobby = Lobby(store, allow_seeds=True)
    monkeypatch.setattr(Lobby, "MAX_FINISHED", 1)
    made = [await lobby.create(f"t{i}", 2, HouseRules(max_turns=5, rounds=(1,)), Settings(0, 0), i, "test")
            for i in range(3)]
    tables = [table for table, _ in made]
    for table, host in made[:2]:  # two games played to the end by bots
        await table.add_bot(host, None, "greedy")
        _, token = await table.join("host", None)
        await table.start(host)
        await table.leave(token)  # a bot plays the host's seat too
        for _ in range(400):
            if table.status == "finished":
                break
            await asyncio.sleep(0.01)
        assert table.status == "finished"
    await lobby.create("t3", 2, HouseRules(), Settings(), 3, "test")  # pushes the oldest finished table out
    assert tables[0].id not in lobby.tables and tables[1].id in lobby.tables
    await lobby.close()
    store.close()

    store = Store(db)
    restarted = Lobby(store)
    await restarted.load()
    assert set(restarted.tables) == {tables[2].id} | {t for t in lobby.tables if lobby.tables[t].status != "finished"}
    with sqlite3.connect(db) as conn:  # the finished games are all still stored
        finished = {row[0] for row in conn.execute("SELECT id FROM tables WHERE status='finished'")}
    assert finished == {tables[0].id, tables[1].id}
    assert (await restarted.get(tables[0].id)).status == "finished"  # read from the store on demand
    await restarted.close()
    store.close()


async def test_spectators_share_a_bounded_number_of_streams_and_seats_always_get_theirs(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "MAX_SPECTATORS", 2)
    monkeypatch.setattr(table_module, "STREAMS_PER_SEAT", 1)
    table_id, _, sessions = await full_table(service, seats=2)
    watchers = [service.Subscribe(pb.SubscribeRequest(table_id=table_id)) for _ in range(3)]
    for call in watchers[:2]:
        assert (await call.read()).HasField("snapshot")
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await watchers[2].read()
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    # every spectator slot is taken, and each seat still gets its stream, but one seat cannot take more
    seats = [service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=s.token)) for s in sessions]
    for call in seats:
        assert (await call.read()).HasField("snapshot")
    again = service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=sessions[0].token))
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await again.read()
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    for call in watchers[:2] + seats:
        call.cancel()


async def test_leaving_a_seat_ends_its_streams_before_someone_else_sits_there(server: Server,
                                                                              service: Service) -> None:
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=2))
    table_id = created.table.table_id
    first = await join(service, table_id, "first", seat=0)
    stream = first.stream()
    assert isinstance(await stream.__anext__(), pb.Snapshot)
    await service.LeaveTable(pb.LeaveTableRequest(table_id=table_id, token=first.token))
    rest = [m async for m in stream]  # ends, with nothing more
    assert all(not m.HasField("cards_received") for m in rest)
    second = await join(service, table_id, "second", seat=0)
    assert second.seat == 0
    assert await _status(first.snapshot()) == grpc.StatusCode.PERMISSION_DENIED


async def test_watch_tables_shows_the_lobby_live(server: Server, service: Service) -> None:
    first = await service.CreateTable(pb.CreateTableRequest(name="early", seats=2))
    watch = service.WatchTables(pb.WatchTablesRequest())
    opening = await watch.read()
    assert [t.table_id for t in opening.tables] == [first.table.table_id]
    second = await service.CreateTable(pb.CreateTableRequest(name="late", seats=2))
    made = await watch.read()
    assert [t.name for t in made.tables] == ["late"]
    await join(service, second.table.table_id, "ana")
    seated = await watch.read()
    assert [s.name for s in seated.tables[0].seat_info] == ["ana", ""]
    # a burst of changes to one table reaches a watcher as that table, as it is now; chat changes nothing
    for _ in range(2):
        await service.AddBot(pb.AddBotRequest(table_id=first.table.table_id, host_token=first.host_token))
    await service.SendChat(pb.SendChatRequest(table_id=first.table.table_id, name="x", text="hi"))
    update = await watch.read()
    assert [t.table_id for t in update.tables] == [first.table.table_id]
    assert update.tables[0].seat_info[0].kind == pb.SEAT_KIND_BOT
    watch.cancel()
    await until_no_watchers(server)


async def until_no_watchers(server: Server) -> None:
    for _ in range(200):
        if not server.lobby.watchers:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a cancelled WatchTables stream was never let go")


async def test_a_host_seats_every_built_in_strategy_and_a_remembering_bot_sees_every_view(
        server: Server, service: Service) -> None:
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=4, max_turns=6))
    created = await service.CreateTable(pb.CreateTableRequest(name="bots", seats=6, rules=rules, seed=3))
    table_id, host = created.table.table_id, created.host_token
    for strategy in (pb.BOT_STRATEGY_SAMPLER, pb.BOT_STRATEGY_AVERAGING, pb.BOT_STRATEGY_EARLY,
                     pb.BOT_STRATEGY_HOLDOUT, pb.BOT_STRATEGY_GREEDY, pb.BOT_STRATEGY_RANDOM):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, strategy=strategy))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    live = server.lobby.tables[table_id]
    for _ in range(2400):
        if live.status == "finished":
            break
        await asyncio.sleep(0.05)
    assert live.status == "finished" and live.game is not None
    sampler = live.seats[0].player
    assert sampler is not None and type(sampler).__name__ == "SamplerBot"
    memory = sampler.memories[0]  # type: ignore[attr-defined]
    # it was shown the table after every command, not only when it had to decide: it saw the last turn
    assert memory.last is not None and memory.last.turn == live.game.turn
    assert [s.name for s in live.seats] == ["sampler bot", "averaging bot", "early bot", "holdout bot",
                                            "greedy bot", "random bot"]
