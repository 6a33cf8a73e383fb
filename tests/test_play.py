"""Play: a seat's commands up its own stream. The same seeded game played with Subscribe + SendCommand and
with Play is the same game; a command refused on the stream is refused as SendCommand refuses it; the
stream's limits hold (hostile bytes, another table, the rate budget); a command's result comes with the
events it caused."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import SeatSession, ServerError, open_channel, stub
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb

from serverkit import DEADLINES, Service, ThinClient, full_table, subscribed

SHORT = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40))
PLAY = "/tenpennies.v2.TenPenniesService/Play"


def command_log(db: Path, table_id: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [c for (c,) in conn.execute("SELECT command FROM commands WHERE table_id=? ORDER BY idx", (table_id,))]


def game_events(client: ThinClient) -> list[pb.Event]:
    """What a seat's stream brought from the game's start on, as sent (the clock's stamp aside), numbered
    from the start (the seats' connections before it may come in any order)."""
    events = [m for m in client.received if isinstance(m, pb.Event)]
    start = next(i for i, e in enumerate(events) if e.HasField("game_started"))
    first = events[start].sequence
    kept = []
    for event in events[start:]:
        copy = pb.Event()
        copy.CopyFrom(event)
        copy.time_ms = 0
        copy.sequence -= first
        kept.append(copy)
    return kept


async def play_table(service: Service, *, play: bool) -> tuple[str, list[ThinClient]]:
    """A seeded two-seat game (one seat acts at a time: no race between answers) played to its end by thin
    clients whose sessions use Play or Subscribe + SendCommand."""
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT, seed=11)
    for session in sessions:
        session.play = play
    clients = [ThinClient(session, seed=i) for i, session in enumerate(sessions)]
    tasks = [asyncio.ensure_future(c.play()) for c in clients]
    await subscribed(service, table_id, seats=range(2))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    return table_id, clients


async def test_the_same_seeded_game_is_the_same_game_played_with_play_or_with_send_command(tmp_path: Path) -> None:
    # A server of its own with large request budgets: two whole games from one address, played as fast as the
    # machine goes, once overran the default 500 a second per address (CI: "too many requests from this
    # client"), which is not what this test is about.
    server = Server(Options(port=0, db=str(tmp_path / "games.db"), allow_seeds=True, rate=100_000,
                            burst=100_000, address_rate=0))
    await server.start()
    channel = open_channel(f"127.0.0.1:{server.port}")
    try:
        service = stub(channel)
        old_id, old = await play_table(service, play=False)
        new_id, new = await play_table(service, play=True)
    finally:
        await channel.close()
        await server.stop(0)
    db = tmp_path / "games.db"
    assert command_log(db, new_id) == command_log(db, old_id) and len(command_log(db, new_id)) > 20
    for seat in range(2):
        assert old[seat].game_ended is not None and old[seat].game_ended == new[seat].game_ended
        seen_old, seen_new = game_events(old[seat]), game_events(new[seat])
        assert seen_new == seen_old
        assert any(e.HasField("decision_request") for e in seen_new)  # its own questions, the same


async def raw_play(server: Server) -> tuple[grpc.aio.Channel, grpc.aio.StreamStreamMultiCallable]:
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{server.port}")
    return channel, channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                          response_deserializer=pb.PlayResponse.FromString)


_read_ahead: dict[int, list[tuple[pb.PlayResult, list[pb.Event]]]] = {}  # results read with an earlier one


async def next_result(call: grpc.aio.StreamStreamCall) -> tuple[pb.PlayResult, list[pb.Event]]:
    """The next result down a Play stream, and the events that came with it (in the same message). Results
    that waited together come in one message (the stream takes all that waits at once): each is given in
    turn, the message's events with the first."""
    ahead = _read_ahead.setdefault(id(call), [])
    if ahead:
        return ahead.pop(0)
    while True:
        message: pb.PlayResponse = await asyncio.wait_for(call.read(), 10)
        if message.results:
            first, *rest = message.results
            ahead.extend((result, []) for result in rest)
            return first, list(message.events.events)


async def opened(call: grpc.aio.StreamStreamCall, request: pb.PlayRequest) -> pb.Snapshot:
    await call.write(request.SerializeToString())
    message: pb.PlayResponse = await asyncio.wait_for(call.read(), 10)
    assert message.HasField("snapshot")
    return message.snapshot


async def test_a_command_on_the_stream_is_answered_with_its_events_and_refused_as_send_command_refuses(
        server: Server, service: Service) -> None:
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT, seed=3)
    seat = sessions[0]
    other = sessions[1]
    channel, play = await raw_play(server)
    call = play()
    snapshot = await opened(call, pb.PlayRequest(table_id=table_id, token=seat.token))
    await subscribed(service, table_id, seats=[0])
    other_stream = other.stream()  # seat 1 holds a stream too, so no takeover; it keeps its own cards
    assert isinstance(await anext(other_stream), pb.Snapshot)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))

    # the seat waits for its first decision, answers it: accepted, in one message with what it caused
    legal: list[pb.Command] = []
    decision = 0
    while not legal:
        message = await asyncio.wait_for(call.read(), 10)
        for event in message.events.events:
            if event.HasField("decision_request") and event.decision_request.seat == 0:
                legal, decision = list(event.decision_request.legal_commands), event.sequence
    before = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id, token=seat.token))).snapshot

    # refused by a rule: the result names it, as SendCommand's trailing metadata does, and nothing changed
    kinds = {c.WhichOneof("kind") for c in legal}
    wrong = next(c for c in (pb.Command(draw=pb.Draw()), pb.Command(buy=pb.Buy()),
                             pb.Command(take_discard=pb.TakeDiscard())) if c.WhichOneof("kind") not in kinds)
    await call.write(pb.PlayRequest(id=7, command=wrong, decision=decision).SerializeToString())
    result, events = await next_result(call)
    assert result.id == 7 and result.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert result.rule.startswith("TP-") and result.message.startswith(result.rule) and not events
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await service.SendCommand(pb.SendCommandRequest(table_id=table_id, token=seat.token, command=wrong,
                                                        decision=decision))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert refused.value.details() == result.message
    assert dict(refused.value.trailing_metadata())["tp-rule"] == result.rule
    after = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id, token=seat.token))).snapshot
    assert after == before

    # accepted: the result carries the sequence SendCommand would, after the events it caused, in one message
    await call.write(pb.PlayRequest(id=8, command=legal[0], decision=decision).SerializeToString())
    result, events = await next_result(call)
    assert result.id == 8 and result.code == 0 and events and result.sequence == events[-1].sequence
    assert not any(e.HasField("cards_received") and e.cards_received.seat == 1 for e in events)

    # an answer to that decision again: stale (ABORTED), naming the decision open now, as SendCommand does
    await call.write(pb.PlayRequest(id=9, command=legal[0], decision=decision).SerializeToString())
    result, _ = await next_result(call)
    assert result.code == grpc.StatusCode.ABORTED.value[0] and result.HasField("open_decision")
    assert "too late" in result.message

    # the client's session maps a result to the ServerError SendCommand's refusal gives
    session_error: ServerError | None = None
    watching = SeatSession(stub(channel), table_id, 0, seat.token)
    follow = watching.stream()
    assert isinstance(await anext(follow), pb.Snapshot)
    try:
        await watching.send(wrong, decision)
    except ServerError as error:
        session_error = error
    assert session_error is not None and (session_error.stale or session_error.rule)
    await follow.aclose()
    await other_stream.aclose()
    call.cancel()
    await channel.close()
    assert snapshot.table.table_id == table_id


async def test_hostile_messages_on_a_play_stream_are_refused_one_by_one_and_the_stream_goes_on(
        server: Server, service: Service) -> None:
    table_id, host, sessions = await full_table(service, seats=2, rules=SHORT, seed=5)
    channel, play = await raw_play(server)
    rng = random.Random(2)

    # a first message that does not parse: INVALID_ARGUMENT, as for any request
    call = play()
    await call.write(b"\xff\xff\xff\xff")
    with pytest.raises(grpc.aio.AioRpcError) as malformed:
        await asyncio.wait_for(call.read(), 10)
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    # a first message with no such table or a wrong token: the codes Subscribe gives
    for request, code in ((pb.PlayRequest(table_id="nope", token="x"), grpc.StatusCode.NOT_FOUND),
                          (pb.PlayRequest(table_id=table_id, token="forged"), grpc.StatusCode.PERMISSION_DENIED)):
        call = play()
        await call.write(request.SerializeToString())
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await asyncio.wait_for(call.read(), 10)
        assert refused.value.code() == code

    call = play()
    await opened(call, pb.PlayRequest(table_id=table_id, token=sessions[0].token))
    for _ in range(5):  # junk: each refused by itself (id 0: it could not be read), the stream stays up
        await call.write(bytes([0xFF]) + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
        result, _ = await next_result(call)
        assert result.id == 0 and result.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    await call.write(pb.PlayRequest(id=3, table_id="another").SerializeToString())
    result, _ = await next_result(call)
    assert result.id == 3 and result.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and "one table" in result.message
    await call.write(pb.PlayRequest(id=4).SerializeToString())  # no command
    result, _ = await next_result(call)
    assert result.id == 4 and result.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    await call.write(pb.PlayRequest(id=5, command=pb.Command(draw=pb.Draw())).SerializeToString())
    result, _ = await next_result(call)  # the game has not started: refused, as SendCommand refuses it
    assert result.id == 5 and result.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]

    # a spectator's Play stream (no token) watches; its commands are refused as a tokenless SendCommand is
    watch = play()
    await opened(watch, pb.PlayRequest(table_id=table_id))
    await watch.write(pb.PlayRequest(id=6, command=pb.Command(draw=pb.Draw())).SerializeToString())
    result, _ = await next_result(watch)
    assert result.id == 6 and result.code == grpc.StatusCode.UNAUTHENTICATED.value[0]
    call.cancel()
    watch.cancel()
    await channel.close()


@pytest.fixture
async def strict_server(tmp_path: Path) -> AsyncIterator[Server]:
    running = Server(Options(port=0, db=str(tmp_path / "strict.db"), rate=20, burst=40, allow_seeds=True))
    await running.start()
    yield running
    await running.stop(0)


async def test_commands_on_a_play_stream_spend_the_clients_budget(strict_server: Server) -> None:
    channel = open_channel(f"127.0.0.1:{strict_server.port}")
    service = stub(channel)
    table_id, _, sessions = await full_table(service, seats=2, rules=SHORT, seed=5)
    raw, play = await raw_play(strict_server)
    call = play()
    await opened(call, pb.PlayRequest(table_id=table_id, token=sessions[0].token))
    codes = []
    for i in range(60):
        await call.write(pb.PlayRequest(id=i + 1, command=pb.Command(draw=pb.Draw())).SerializeToString())
    for _ in range(60):
        result, _ = await next_result(call)
        codes.append(result.code)
    assert grpc.StatusCode.RESOURCE_EXHAUSTED.value[0] in codes  # over its budget: refused, with words
    assert grpc.StatusCode.FAILED_PRECONDITION.value[0] in codes  # within it: judged (the game is not started)
    call.cancel()
    await raw.close()
    await channel.close()


async def test_play_streams_cut_by_millisecond_deadlines_leave_every_command_whole_or_not_at_all(
        server: Server, service: Service, tmp_path: Path) -> None:
    """A command in a Play stream's first message, the stream cut by its deadline at any moment: the change
    is made whole or not at all, the game goes on to its end, every stored public event reaches a watcher,
    and no cut stream is left registered."""
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=4, rules=SHORT, seed=8))
    table_id, host = created.table.table_id, created.host_token
    me = (await full_seats(service, table_id, host))
    watcher = service.Subscribe(pb.SubscribeRequest(table_id=table_id))
    watched_from = (await watcher.read()).snapshot.sequence
    seen: list[int] = []

    async def watch() -> None:
        while (message := await watcher.read()) is not grpc.aio.EOF:
            seen.extend(e.sequence for e in message.events.events)
    watching = asyncio.ensure_future(watch())
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    rng = random.Random(3)
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
        call = service.Play(timeout=rng.choice(DEADLINES))
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
    assert cut, "no deadline ever cut a stream: the test proves nothing"
    live = server.lobby.tables[table_id]
    await until(lambda: live.seats[0].streams == 0 and len(live.subscribers) <= 1, "every cut stream is let go")
    db = tmp_path / "games.db"
    with sqlite3.connect(db) as conn:
        stored = [(seq, audience, pb.Event.FromString(data)) for seq, audience, data in conn.execute(
            "SELECT seq, audience, data FROM events WHERE table_id=? ORDER BY seq", (table_id,))]
    assert snapshot.game.ten_pennies.phase == pb.PHASE_GAME_OVER, "the table stalled"
    assert any(e.HasField("game_ended") for _, _, e in stored), "the table stalled"
    await until(lambda: stored[-1][0] in seen or watching.done(), "the watcher has caught up")
    watcher.cancel()
    public = [seq for seq, audience, _ in stored if audience is None and seq > watched_from]
    assert [s for s in seen if s in set(public)] == public, "a stored public event never reached the watcher"
    replayed = live.kind.new(live.n, live.rules, live.seed)  # the stored log is the game played, whole
    for text in command_log(db, table_id):
        replayed.apply(live.kind.parse_command(text))
    assert replayed.to_dict() == live.game.to_dict()


async def full_seats(service: Service, table_id: str, host: str) -> str:
    """Seat 0 for the test (its token), three bots beside it."""
    joined: pb.JoinTableResponse = await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="hasty", seat=0))
    for _ in range(3):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host))
    return joined.token


async def until(condition: Any, what: str, seconds: float = 20) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not condition():
        assert loop.time() < give_up, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)
