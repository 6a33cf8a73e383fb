"""The edges of the wire contract (tenpennies.proto, "decisions", "sequence numbers and streams", "statuses"),
each through a real server on a loopback port: one protobuf message per stream message, decision identity,
resumes from the future, names and chat lines, and a host closing its waiting table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import open_channel, stub
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.frames import MESSAGE_BYTES, event_batch, joined, messages

from serverkit import Service

SERVICE = "/tenpennies.v2.TenPenniesService"
SHORT = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40, rounds=[1, 2]))


def top_level_fields(data: bytes) -> list[int]:
    """The field numbers of a message's top-level fields, in the order they are encoded (each occurrence)."""
    fields, at = [], 0

    def varint() -> int:
        nonlocal at
        value = shift = 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7
    while at < len(data):
        key = varint()
        fields.append(key >> 3)
        wire_type = key & 7
        if wire_type == 0:
            varint()
        elif wire_type == 2:
            length = varint()  # (read before ``at`` is: varint moves it)
            at += length
        elif wire_type == 1:
            at += 8
        elif wire_type == 5:
            at += 4
        else:
            raise AssertionError(f"wire type {wire_type} in a stream message")
    return fields


def code_words(error: grpc.aio.AioRpcError) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    return error.code(), error.details() or "", dict(error.trailing_metadata() or ())


async def refused(call: Any) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    return code_words(caught.value)


# --- one protobuf message per gRPC message -----------------------------------------------------------

def test_batches_waiting_together_are_joined_into_one_batch() -> None:
    events = [pb.Event(sequence=n, turn_started=pb.TurnStarted(seat=0, turn=n)).SerializeToString()
              for n in range(1, 6)]
    result = pb.PlayResult(id=7, sequence=5)
    data = joined([event_batch(events[:2]), event_batch(events[2:3]), event_batch(events[3:])], [result])
    assert top_level_fields(data) == [2, 3]  # one batch, then the result: no field twice
    message = pb.PlayResponse.FromString(data)
    assert [e.sequence for e in message.events.events] == [1, 2, 3, 4, 5] and list(message.results) == [result]
    assert joined([event_batch(events)]) == event_batch(events)  # one batch goes out as it was framed


async def test_a_slow_reader_gets_one_batch_a_message_holding_every_event(server: Server, service: Service) -> None:
    """A spectator that reads nothing while chat lines come and four bots play: the changes waiting for it
    come joined, each stream message one SubscribeResponse with at most one batch, no event lost or doubled."""
    created = await service.CreateTable(pb.CreateTableRequest(name="bots", seats=4, rules=SHORT, seed=3))
    table_id, host = created.table.table_id, created.host_token
    for _ in range(4):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host))
    # a small flow-control window, so that the server's writes wait on this reader as on a slow link's
    channel = open_channel(f"127.0.0.1:{server.port}",
                           options=(("grpc.http2.lookahead_bytes", 1024), ("grpc.http2.bdp_probe", 0)))
    raw = channel.unary_stream(f"{SERVICE}/Subscribe", request_serializer=pb.SubscribeRequest.SerializeToString,
                               response_deserializer=None)  # the bytes as they came
    call = raw(pb.SubscribeRequest(table_id=table_id))
    first = await call.read()
    assert top_level_fields(first) == [1]
    for n in range(20):  # changes while the stream is not read
        await service.SendChat(pb.SendChatRequest(table_id=table_id, name="Wendy", text=f"line {n} " + "x" * 400))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.sleep(0.5)  # the bots play on while the stream is not read
    sequences: list[int] = []
    several_changes = 0
    while True:
        data = await asyncio.wait_for(call.read(), 30)
        assert data is not grpc.aio.EOF
        assert top_level_fields(data) == [2], "a stream message holds exactly one batch"
        events = pb.SubscribeResponse.FromString(data).events.events
        sequences += [e.sequence for e in events]
        several_changes += sum(e.HasField("chat_posted") for e in events) > 1
        if any(e.HasField("game_ended") for e in events):
            break
    call.cancel()
    await channel.close()
    assert several_changes, "no message joined several changes: the test proves nothing"
    assert sequences == sorted(set(sequences)), "events doubled or out of order"
    stored = server.lobby.tables[table_id]
    public = await stored.store.events_page(table_id, 0, stored.seq, None, 100000)
    ended = next(seq for seq, _, data in public if pb.Event.FromString(data).HasField("game_ended"))
    assert sequences == [seq for seq, _, _ in public if first_sequence(first) < seq <= ended], "events lost"


def first_sequence(snapshot: bytes) -> int:
    return int(pb.SubscribeResponse.FromString(snapshot).snapshot.sequence)


# --- decisions ---------------------------------------------------------------------------------------

class Seat:
    """One seat of a two-seat table against a bot, read on its own Subscribe stream."""

    def __init__(self, service: Service, table_id: str, token: str) -> None:
        self.service, self.table_id, self.token = service, table_id, token
        self.decisions: list[pb.Event] = []
        self.changed = asyncio.Event()
        self.call = service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=token))
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.call:
            if message.HasField("snapshot") and message.snapshot.decision:  # a decision open as it subscribed
                self.decisions.append(pb.Event(sequence=message.snapshot.decision, decision_request=pb.DecisionRequest(
                    legal_commands=message.snapshot.game.legal_commands)))
                self.changed.set()
            for event in message.events.events:
                if event.HasField("decision_request"):
                    self.decisions.append(event)
                    self.changed.set()

    async def decision_after(self, sequence: int) -> pb.Event:
        async with asyncio.timeout(20):
            while not (self.decisions and self.decisions[-1].sequence > sequence):
                self.changed.clear()
                await self.changed.wait()
        return self.decisions[-1]

    def command(self, command: pb.Command, decision: int) -> Any:
        return self.service.SendCommand(pb.SendCommandRequest(table_id=self.table_id, token=self.token,
                                                              command=command, decision=decision))

    async def snapshot(self) -> pb.Snapshot:
        reply: pb.GetSnapshotResponse = await self.service.GetSnapshot(
            pb.GetSnapshotRequest(table_id=self.table_id, token=self.token))
        return reply.snapshot

    def close(self) -> None:
        self.call.cancel()
        self.reader.cancel()


async def seat_against_a_bot(service: Service, seed: int = 11) -> tuple[str, str, Seat]:
    created = await service.CreateTable(pb.CreateTableRequest(
        name="t", seats=2, rules=SHORT, seed=seed, settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    joined_seat = await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="me", seat=0))
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host))
    seat = Seat(service, table_id, joined_seat.token)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    return table_id, host, seat


def answer(decision: pb.Event) -> pb.Command:
    """A plain answer: decline, draw, pass, or the last listed (a discard)."""
    legal = list(decision.decision_request.legal_commands)
    return next((c for c in legal if c.WhichOneof("kind") in ("decline_discard", "draw", "pass_buy")), legal[-1])


async def test_a_decision_never_this_seats_is_refused_as_out_of_turn_and_counted(server: Server,
                                                                               service: Service) -> None:
    table_id, _, seat = await seat_against_a_bot(service)
    first = await seat.decision_after(0)
    command = answer(first)
    table = server.lobby.tables[table_id]
    before = await seat.snapshot()
    for never in (999999, first.sequence - 1, before.sequence + 1):
        code, words, trailing = await refused(seat.command(command, never))
        assert code == grpc.StatusCode.FAILED_PRECONDITION, (never, code, words)
        assert f"decision {never} was never this seat's" in words and trailing["tp-decision"] == str(first.sequence)
    assert table.refused[0] == 3, "each counts as an illegal command, as one out of turn does"
    after = await seat.snapshot()
    assert after.sequence == before.sequence and list(after.game.hand) == list(before.game.hand)
    await seat.command(command, first.sequence)  # the open one is still answered
    second = await seat.decision_after(first.sequence)
    code, words, trailing = await refused(seat.command(answer(second), first.sequence))
    assert code == grpc.StatusCode.ABORTED and "came too late" in words
    assert trailing["tp-decision"] == str(second.sequence) and table.refused[0] == 3  # a late answer is no foul
    seat.close()


async def test_a_decision_from_before_a_restart_is_told_from_one_never_asked(tmp_path: Path) -> None:
    """After a restart the table knows its decisions from the store: a decision of the seat's asked before it
    is too late (ABORTED); another event's sequence was never the seat's decision (FAILED_PRECONDITION)."""
    options = Options(port=0, db=str(tmp_path / "games.db"), allow_seeds=True)
    first_server = Server(options)
    await first_server.start()
    channel = open_channel(f"127.0.0.1:{first_server.port}")
    table_id, _, seat = await seat_against_a_bot(stub(channel))
    first = await seat.decision_after(0)
    await seat.command(answer(first), first.sequence)
    second = await seat.decision_after(first.sequence)
    seat.close()
    await channel.close()
    await first_server.stop(0)

    again = Server(Options(port=0, db=options.db, allow_seeds=True))
    await again.start()
    channel = open_channel(f"127.0.0.1:{again.port}")
    try:
        service = stub(channel)
        seat = Seat(service, table_id, seat.token)
        assert (await seat.snapshot()).decision == second.sequence
        code, words, _ = await refused(seat.command(answer(second), first.sequence))
        assert code == grpc.StatusCode.ABORTED and "came too late" in words, words
        code, words, _ = await refused(seat.command(answer(second), first.sequence - 1))
        assert code == grpc.StatusCode.FAILED_PRECONDITION and "was never this seat's" in words, words
        await seat.command(answer(second), second.sequence)
        seat.close()
    finally:
        await channel.close()
        await again.stop(0)


async def play_call(service: Service, table_id: str, token: str, **opening: Any) -> Any:
    call = service.Play()
    await call.write(pb.PlayRequest(table_id=table_id, token=token, **opening))
    return call


async def result_of(call: Any) -> pb.PlayResult:
    async with asyncio.timeout(10):
        while True:
            message: pb.PlayResponse = await call.read()
            assert message is not grpc.aio.EOF
            if message.results:
                return message.results[0]


async def test_a_command_on_play_must_name_its_decision(server: Server, service: Service) -> None:
    table_id, _, seat = await seat_against_a_bot(service)
    first = await seat.decision_after(0)
    before = await seat.snapshot()
    call = await play_call(service, table_id, seat.token)
    await call.write(pb.PlayRequest(id=1, command=answer(first)))
    result = await result_of(call)
    assert result.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and result.message.startswith("decision:")
    assert result.open_decision == first.sequence
    assert (await seat.snapshot()).sequence == before.sequence
    await call.write(pb.PlayRequest(id=2, command=answer(first), decision=first.sequence))
    result = await result_of(call)
    assert result.code == 0 and result.id == 2
    call.cancel()
    # SendCommand at an ordinary table: an unnamed answer is judged against what the seat faces now
    second = await seat.decision_after(first.sequence)
    await seat.command(answer(second), 0)
    seat.close()


async def test_a_tournaments_table_requires_the_decision_on_send_command_too(server: Server,
                                                                            service: Service) -> None:
    table_id, _, seat = await seat_against_a_bot(service)
    first = await seat.decision_after(0)
    table = server.lobby.tables[table_id]
    table.creator = "tournament:cup"  # as a tournament's table is made (``TOURNAMENT_CREATOR``)
    code, words, trailing = await refused(seat.command(answer(first), 0))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "decision" in words and trailing["tp-decision"]
    seat.close()


# --- streams -----------------------------------------------------------------------------------------

async def test_a_resume_from_past_the_end_is_out_of_range(service: Service) -> None:
    table_id, _, seat = await seat_against_a_bot(service)
    last = (await seat.snapshot()).sequence
    call = service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=seat.token, from_sequence=last + 50))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call.read()
    code, words, _ = code_words(caught.value)
    assert code == grpc.StatusCode.OUT_OF_RANGE and f"from_sequence {last + 50}" in words
    play = await play_call(service, table_id, seat.token, from_sequence=last + 50)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await play.read()
    assert caught.value.code() == grpc.StatusCode.OUT_OF_RANGE
    await asyncio.sleep(0.2)
    assert (await seat.snapshot()).sequence == last, "a refused resume changed nothing (no seat connected)"
    resumed = service.Subscribe(pb.SubscribeRequest(table_id=table_id, token=seat.token, from_sequence=last))
    assert (await resumed.read()).HasField("snapshot")  # at the end is fine
    resumed.cancel()
    seat.close()


# --- names and chat ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Ann\nBob", "Ann\tBob", "\x1b[31mAnn", "A" * 41, "   "])
async def test_a_name_off_one_printable_line_or_too_long_is_refused(service: Service, name: str) -> None:
    code, words, _ = await refused(service.CreateTable(pb.CreateTableRequest(name=name, seats=2)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and words.startswith("name:"), words
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=2))
    code, words, _ = await refused(service.JoinTable(pb.JoinTableRequest(table_id=created.table.table_id,
                                                                         name=name)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and words.startswith("name:"), words
    snapshot = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=created.table.table_id))).snapshot
    assert all(s.kind == pb.SEAT_KIND_EMPTY for s in snapshot.table.seat_info), "nobody was seated"


@pytest.mark.parametrize("text", ["two\nlines", "\nleading", "x" * 501, " "])
async def test_a_chat_line_off_one_printable_line_or_too_long_is_refused(service: Service, text: str) -> None:
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=2))
    table_id = created.table.table_id
    me = await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name="me"))
    before = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot.sequence
    code, words, _ = await refused(service.SendChat(pb.SendChatRequest(table_id=table_id, token=me.token, text=text)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and words.startswith("text:"), words
    assert (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot.sequence == before


# --- a host closes its waiting table -----------------------------------------------------------------

@pytest.fixture
async def two_tables_an_address(tmp_path: Path) -> AsyncIterator[Service]:
    running = Server(Options(port=0, db=str(tmp_path / "games.db"), tables_per_address=2))
    await running.start()
    channel = open_channel(f"127.0.0.1:{running.port}")
    yield stub(channel)
    await channel.close()
    await running.stop(0)


async def test_a_host_closes_its_waiting_table_and_its_share_is_free_at_once(two_tables_an_address: Service) -> None:
    service = two_tables_an_address
    tables = [await service.CreateTable(pb.CreateTableRequest(name=f"t{n}", seats=2)) for n in range(2)]
    code, _, _ = await refused(service.CreateTable(pb.CreateTableRequest(name="t2", seats=2)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    closing = tables[0].table.table_id
    me = await service.JoinTable(pb.JoinTableRequest(table_id=closing, name="me"))
    stream = service.Subscribe(pb.SubscribeRequest(table_id=closing, token=me.token))
    assert (await stream.read()).HasField("snapshot")
    code, words, _ = await refused(service.CloseTable(pb.CloseTableRequest(table_id=closing, host_token=me.token)))
    assert code == grpc.StatusCode.PERMISSION_DENIED, words
    await service.CloseTable(pb.CloseTableRequest(table_id=closing, host_token=tables[0].host_token))
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        while True:
            await stream.read()
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND and "closed" in (caught.value.details() or "")
    listed = await service.ListTables(pb.ListTablesRequest())
    assert closing not in [t.table_id for t in listed.tables]
    code, _, _ = await refused(service.GetSnapshot(pb.GetSnapshotRequest(table_id=closing)))
    assert code == grpc.StatusCode.NOT_FOUND
    await service.CreateTable(pb.CreateTableRequest(name="t2", seats=2))  # the share is free


async def test_a_started_table_is_not_closed(service: Service) -> None:
    table_id, host, seat = await seat_against_a_bot(service)
    before = await seat.snapshot()
    code, words, _ = await refused(service.CloseTable(pb.CloseTableRequest(table_id=table_id, host_token=host)))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "waiting" in words
    assert (await seat.snapshot()).sequence == before.sequence
    seat.close()


async def test_history_comes_in_slices_of_at_most_256_events_from_memory_as_from_the_store(
        server: Server, service: Service) -> None:
    created = await service.CreateTable(pb.CreateTableRequest(name="talk", seats=2))
    table_id = created.table.table_id
    for n in range(300):
        await service.SendChat(pb.SendChatRequest(table_id=table_id, name="Wendy", text=f"line {n}"))
    table = server.lobby.tables[table_id]
    public = [seq for seq, audience, _ in table.recent if audience is None]
    assert table.recent[0][0] == 1 and len(public) > 256, "the whole history is in memory, and long: else no test"
    slices = [pb.SubscribeResponse.FromString(page).events.events async for page in table.history(None, 0, table.seq)]
    assert all(len(events) <= 256 for events in slices)
    assert [e.sequence for events in slices for e in events] == public


def test_the_proto_lists_the_presets_each_thirty_one_knob_applies_to_as_the_engine_does() -> None:
    """The .proto says under which presets each knob of ThirtyOneRules may be set; the engine's declarations
    (``applies``) are the fact, and the .proto's words must say the same."""
    import re

    from tenpennies.engine.thirty_one.rules import PLAYED_BY, PRESET_NAMES
    text = (Path(__file__).parent.parent / "protos/tenpennies/v2/tenpennies.proto").read_text()
    body = text[text.index("message ThirtyOneRules {"):]
    body = body[:body.index("\n}")]
    said: dict[str, tuple[str, ...]] = {}
    comment = ""
    for line in body.splitlines()[1:]:
        line = line.strip()
        if line.startswith("//"):
            comment += " " + line[2:].strip()
            continue
        field = re.match(r"(?:optional )?\w+ (\w+) = \d+;(?: //(.*))?", line)
        assert field, line
        words = comment + " " + (field.group(2) or "")
        listed = re.search(r"presets: ([\w, ]+)", words)
        said[field.group(1)] = tuple(p.strip() for p in listed.group(1).split(",")) if listed else PRESET_NAMES
        comment = ""
    assert said == PLAYED_BY


def test_a_slow_readers_backlog_is_split_into_messages_of_at_most_a_mebibyte_each_one_batch() -> None:
    events = [pb.Event(sequence=n, chat_posted=pb.ChatPosted(name="w", text="x" * 400)).SerializeToString()
              for n in range(1, 6001)]
    batches = [event_batch(events[n:n + 3]) for n in range(0, len(events), 3)]
    result = pb.PlayResult(id=1, sequence=6000)
    sent = messages(batches, [result])
    assert len(sent) > 1 and all(len(m) <= MESSAGE_BYTES + len(batches[0]) for m in sent)
    assert all(top_level_fields(m).count(2) == 1 for m in sent)
    read = [pb.PlayResponse.FromString(m) for m in sent]
    assert [e.sequence for m in read for e in m.events.events] == list(range(1, 6001))
    assert [list(m.results) for m in read] == [[]] * (len(read) - 1) + [[result]]


async def test_another_seats_decision_and_a_public_event_are_answered_alike_after_the_same_lookup(
        server: Server, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people at one table: naming the other's DecisionRequest or a public event's number gets the same
    status, words and metadata, each after one look among the asking seat's own events in the store."""
    created = await service.CreateTable(pb.CreateTableRequest(
        name="t", seats=2, rules=SHORT, seed=11, settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    tokens = [(await service.JoinTable(pb.JoinTableRequest(table_id=table_id, name=f"p{n}", seat=n))).token
              for n in range(2)]
    seats = [Seat(service, table_id, token) for token in tokens]
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    table = server.lobby.tables[table_id]
    async with asyncio.timeout(20):
        while not table.decision_at:
            await asyncio.sleep(0.01)
    asker, other = (0, 1) if 1 in table.decision_at else (1, 0)
    theirs = table.decision_at[other]
    public = next(seq for seq, audience, _ in table.recent if audience is None)
    looked: list[tuple[int, int]] = []
    lookup = table.store.private_event_at

    async def counted(table_id: str, sequence: int, seat: int) -> bytes | None:
        looked.append((sequence, seat))
        return await lookup(table_id, sequence, seat)
    monkeypatch.setattr(table.store, "private_event_at", counted)
    answers = []
    for number in (theirs, public):
        answers.append(await refused(seats[asker].command(pb.Command(draw=pb.Draw()), number)))
    assert answers[0][0] == answers[1][0] == grpc.StatusCode.FAILED_PRECONDITION
    assert answers[0][1].replace(str(theirs), "N") == answers[1][1].replace(str(public), "N")
    assert answers[0][2]["tp-decision"] == answers[1][2]["tp-decision"]
    assert looked == [(theirs, asker), (public, asker)], "each looked up among the asking seat's own events"
    for seat in seats:
        seat.close()


async def test_a_close_cut_short_still_closes_the_table_and_frees_the_share(server: Server, service: Service) -> None:
    created = await service.CreateTable(pb.CreateTableRequest(name="t", seats=2))
    table_id = created.table.table_id
    lobby = server.lobby
    closing = asyncio.ensure_future(lobby.close_waiting(table_id, created.host_token))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    closing.cancel()  # the request's deadline, as it waits on the store
    with pytest.raises(asyncio.CancelledError):
        await closing
    async with asyncio.timeout(5):
        while table_id in lobby.tables:
            await asyncio.sleep(0.01)
    assert table_id not in lobby._open, "the host's share is free"


async def test_the_lobby_follows_a_tables_sequence_within_half_a_second(server: Server, service: Service) -> None:
    """WatchTables while a game is played: the table's entry moves on with its sequence, never more than
    LOBBY_BEHIND behind it (a lobby that heard only of seats and status said 20 while the table was at 2,500)."""
    watch = service.WatchTables(pb.WatchTablesRequest())
    await watch.read()
    table_id, _, seat = await seat_against_a_bot(service)
    table = server.lobby.tables[table_id]
    listed: list[int] = []

    async def follow() -> None:
        while (message := await watch.read()) is not grpc.aio.EOF:
            listed.extend(t.last_sequence for t in message.tables if t.table_id == table_id)
    following = asyncio.ensure_future(follow())
    answered = 0
    for _ in range(6):
        decision = await seat.decision_after(answered)
        await seat.command(answer(decision), decision.sequence)
        answered = decision.sequence
        await asyncio.sleep(0.3)
    await asyncio.sleep(0.6)  # LOBBY_BEHIND, and a little
    assert listed[-1] == table.seq, "the lobby's entry caught up with the table"
    assert len(set(listed)) >= 6, f"the lobby moved with the table: {listed}"
    following.cancel()
    watch.cancel()
    seat.close()
