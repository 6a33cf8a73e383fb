"""A client's connection to a Ten Pennies server: the channel, the lobby's calls, and one seat's session.

Everything a terminal client or a remote bot needs goes through here, so neither knows gRPC: a refusal
comes back as a ``ServerError`` (its status name, the rule it cites, the server's words), and
``SeatSession.follow`` keeps a seat's stream going across drops, resuming from the last event. A seat's
stream is a ``Play`` call: while it is up, the seat's commands go up it and their results come down it with
the events they caused (one round trip of a stream already open, instead of a call each); without it (not
followed, or a server older than Play), a command is a ``SendCommand`` call, refused the same way.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import (
    VISITOR_METADATA,
    VISITOR_VARIABLE,
    WORKER_ADDRESS_METADATA,
    WORKER_PORT_METADATA,
)
from tenpennies.wire.record import GameRecord, record_from_pb
from tenpennies.wire.words import STRATEGIES

from .trust import Pinned, certificate_refused, explain

T = TypeVar("T")

# Why a call failed or a seat's stream went down when the server did not answer, in words a player reads
# (gRPC's own are for logs: "Stream removed (recvmsg:Connection timed out (110))", "failed to connect to all
# addresses; last error: UNKNOWN: ipv4:127.0.0.1:50051: ...Connection refused"); ``ServerError.words``.
LINK_WORDS = {
    grpc.StatusCode.UNAVAILABLE: "the server is out of reach",
    grpc.StatusCode.DEADLINE_EXCEEDED: "the server does not answer",
    grpc.StatusCode.CANCELLED: "the connection was closed",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "this client fell behind the table",
}


def link_words(error: grpc.aio.AioRpcError, address: str = "") -> str:
    """Why a call failed or a seat's stream went down, in a player's words: a certificate this client no
    longer trusts is said as the lobby says it (``trust.explain``), whatever screen meets it; else
    ``LINK_WORDS``. (``ServerError.words`` says every error, the server's refusals too.)"""
    if address and certificate_refused(error):
        return explain(error, address) or LINK_WORDS[grpc.StatusCode.UNAVAILABLE]
    return LINK_WORDS.get(error.code()) or str(error.details() or error.code().name)


# Codes after which following a stream again cannot help: the seat or the table is not ours any more.
_FINAL = {grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.NOT_FOUND,
          grpc.StatusCode.INVALID_ARGUMENT}


class ServerError(grpc.aio.AioRpcError):  # type: ignore[misc]  # grpc is untyped
    """The server refused a request or could not be reached. ``status`` is the status name
    (``FAILED_PRECONDITION``...), ``rule`` the numbered rule a refused command breaks, ``message`` the
    server's words (they start with the rule)."""

    @classmethod
    def of(cls, error: grpc.aio.AioRpcError) -> ServerError:
        return cls(error.code(), error.initial_metadata(), error.trailing_metadata(), error.details(),
                   error.debug_error_string())

    @property
    def status(self) -> str:
        return str(self.code().name)

    @property
    def rule(self) -> str | None:
        for key, value in self.trailing_metadata() or ():
            if key == "tp-rule":
                return str(value)
        return None

    @property
    def stale(self) -> bool:
        """An answer to a decision no longer open (ABORTED with ``tp-decision``): it lost a race to the timer
        or another seat, it broke no rule; the seat's stream says what is open now."""
        return self.code() == grpc.StatusCode.ABORTED and any(key == "tp-decision"
                                                              for key, _ in self.trailing_metadata() or ())

    @property
    def message(self) -> str:
        return str(self.details() or self.status)

    @property
    def link_trouble(self) -> bool:
        """The link's trouble (the server is out of reach, the link broke, the stream fell behind), not a
        refusal the server worded (it marks those: ``tp-refusal``)."""
        code = self.code()
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            return "fell too far behind" in (self.details() or "")  # (a stream dropped, which resumes by itself)
        return code in LINK_WORDS and not any(key == "tp-refusal" for key, _ in self.trailing_metadata() or ())

    @property
    def words(self) -> str:
        """What a player reads of it, the one mapping of errors to words: the link's trouble in plain words
        when the server did not answer; else the server's words (they start with the rule a refusal
        cites)."""
        if self.link_trouble:
            return link_words(self)
        message = self.message
        rule = self.rule
        return f"{rule}: {message}" if rule and not message.startswith(rule) else message

    def __str__(self) -> str:
        return self.message


async def _call(request: Awaitable[T]) -> T:
    try:
        return await request
    except ServerError:
        raise
    except grpc.aio.AioRpcError as error:
        raise ServerError.of(error) from None


def _visitor_details(details: grpc.aio.ClientCallDetails, visitor: str) -> grpc.aio.ClientCallDetails:
    """The call's details with the visitor this client speaks for named in its metadata (``VISITOR_METADATA``)."""
    metadata = grpc.aio.Metadata(*(details.metadata or ()), (VISITOR_METADATA, visitor))
    return grpc.aio.ClientCallDetails(details.method, details.timeout, metadata, details.credentials,
                                      details.wait_for_ready)


class _VisitorUnary(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]  # grpc is untyped
    def __init__(self, visitor: str) -> None:
        self.visitor = visitor

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(_visitor_details(details, self.visitor), request)


class _VisitorStream(grpc.aio.UnaryStreamClientInterceptor):  # type: ignore[misc]  # (grpc takes one kind each)
    def __init__(self, visitor: str) -> None:
        self.visitor = visitor

    async def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(_visitor_details(details, self.visitor), request)


class _VisitorPlay(grpc.aio.StreamStreamClientInterceptor):  # type: ignore[misc]
    def __init__(self, visitor: str) -> None:
        self.visitor = visitor

    async def intercept_stream_stream(self, continuation: Any, details: Any, requests: Any) -> Any:
        return await continuation(_visitor_details(details, self.visitor), requests)


def open_channel(address: str, tls_ca: str | None = None, pinned: Pinned | None = None,
                 options: Sequence[tuple[str, str | int]] = ()) -> grpc.aio.Channel:
    """A channel to ``address`` (host:port): with ``tls_ca`` (a PEM file), over TLS trusting that CA; with
    ``pinned``, over TLS trusting that one certificate (trust on first use, ``client.trust``); else plaintext.
    Every client's channel is opened here. A client that speaks for one visitor among many at its address
    (``tenpennies web``'s) names it in every request (``VISITOR_VARIABLE``)."""
    visitor = os.environ.get(VISITOR_VARIABLE, "")
    interceptors = [_VisitorUnary(visitor), _VisitorStream(visitor), _VisitorPlay(visitor)] if visitor else None
    if pinned is not None:
        return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(pinned.pem),
                                       options=[*options, ("grpc.ssl_target_name_override", pinned.name)],
                                       interceptors=interceptors)
    if tls_ca:
        return grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(Path(tls_ca).read_bytes()),
                                       options=list(options), interceptors=interceptors)
    return grpc.aio.insecure_channel(address, options=list(options), interceptors=interceptors)


def stub(channel: grpc.aio.Channel) -> pb_grpc.TenPenniesServiceStub:
    return pb_grpc.TenPenniesServiceStub(channel)


@dataclass(frozen=True)
class Link:
    """Yielded by ``SeatSession.follow`` when the stream comes up or goes down. Down: ``reason`` says
    why, and the next try comes in ``retry_in`` seconds."""

    up: bool
    reason: str = ""
    retry_in: float = 0.0
    error: ServerError | None = None  # down: the error it went down with


@dataclass
class Backoff:
    """Waits between reconnects: doubling from ``first`` up to ``most`` seconds, each drawn at random
    from half to one and a half of that, so that clients dropped together do not come back together."""

    first: float = 0.25
    most: float = 8.0
    rng: random.Random = field(default_factory=random.Random)
    tries: int = 0

    def next(self) -> float:
        delay = min(self.most, self.first * 2.0 ** self.tries) * (0.5 + self.rng.random())
        self.tries += 1
        return delay

    def reset(self) -> None:
        self.tries = 0


_CODES = {code.value[0]: code for code in grpc.StatusCode}
PLAY_INBOX = 256  # messages of a Play stream read ahead of the client's reader


def _closed(words: str) -> ServerError:
    """A command whose stream went away before its result came (the link's trouble: the stream, resumed,
    shows whether it was applied)."""
    return ServerError(grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), words, None)


def result_error(result: pb.PlayResult) -> ServerError:
    """A command refused on a Play stream, as the ServerError its SendCommand would have raised (the same
    status, words, rule and decision open now)."""
    trailing = [("tp-refusal", "1")]
    if result.rule:
        trailing.append(("tp-rule", result.rule))
    if result.HasField("open_decision"):
        trailing.append(("tp-decision", str(result.open_decision)))
    return ServerError(_CODES.get(result.code, grpc.StatusCode.UNKNOWN), grpc.aio.Metadata(),
                       grpc.aio.Metadata(*trailing), result.message, None)


class _PlayLink:
    """The commands sent up one Play call, waiting for their results."""

    def __init__(self, call: Any) -> None:
        self.call = call
        self.up = True
        self.pending: dict[int, asyncio.Future[pb.PlayResult]] = {}
        self._ids = 0
        self._writing = asyncio.Lock()  # one write at a time on a call

    async def send(self, command: pb.Command, decision: int) -> int:
        self._ids += 1
        command_id = self._ids
        result: asyncio.Future[pb.PlayResult] = asyncio.get_running_loop().create_future()
        self.pending[command_id] = result
        try:
            async with self._writing:
                await self.call.write(pb.PlayRequest(id=command_id, command=command, decision=decision))
            answer = await result
        except grpc.aio.AioRpcError as error:
            raise ServerError.of(error) from None
        except (grpc.aio.UsageError, asyncio.InvalidStateError):  # the call ended as it was written to
            raise _closed("the connection was closed") from None
        finally:
            self.pending.pop(command_id, None)
            if result.done() and not result.cancelled():
                result.exception()  # (seen: the call may have ended, ``down``, as its write failed)
        if answer.code:
            raise result_error(answer)
        return answer.sequence

    def settle(self, results: Sequence[pb.PlayResult]) -> None:
        for result in results:
            waiting = self.pending.pop(result.id, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(result)

    def down(self, error: ServerError) -> None:
        """The call ended: the commands still waiting fail with its error (whether they were applied, the
        resumed stream shows)."""
        self.up = False
        for waiting in self.pending.values():
            if not waiting.done():
                waiting.set_exception(error)
        self.pending.clear()


@dataclass
class SeatSession:
    """One seat at one table (seat None: a spectator): the token, and the last sequence number seen
    (to resume from). ``password``: a private table's, for a spectator (a seat's token is enough).
    ``play``: follow the seat with a Play stream and send its commands up it (False: Subscribe and
    SendCommand, the calls of the simplest clients; it turns False by itself on a server without Play)."""

    service: pb_grpc.TenPenniesServiceStub
    table_id: str
    seat: int | None
    token: str = ""
    last_sequence: int | None = None
    worker_port: int | str = 0  # where the worker process that holds the table is: its port at the server's
    # host (serve --workers) or another machine's "host:port" (serve --cluster); 0: none named
    front: pb_grpc.TenPenniesServiceStub | None = None  # the server's address, while ``service`` is the worker's
    password: str = ""
    address: str = ""  # the server's, as the client names it (for the words of a connection's trouble)
    play: bool = True
    # the decision this session's stream last handed its reader (a snapshot's, or a DecisionRequest's sequence)
    decision: int = field(default=0, init=False, compare=False)
    _snapshot_at: int = field(default=0, init=False, repr=False, compare=False)
    _link: _PlayLink | None = field(default=None, init=False, repr=False, compare=False)

    async def send(self, command: pb.Command, decision: int | None = None) -> int:
        """Send the seat's command; ``decision`` names the decision it answers (the sequence of its
        DecisionRequest, ``TableView.decision``; 0: not named; None: the one this session's stream handed its
        reader last). An answer to a decision no longer open is refused (``ServerError.stale``) and changes
        nothing. Up the seat's Play stream while it is up, else with SendCommand."""
        if decision is None:
            decision = self.decision
        link = self._link
        if link is not None and link.up:
            return await link.send(command, decision)
        response: pb.SendCommandResponse = await _call(self.service.SendCommand(
            pb.SendCommandRequest(table_id=self.table_id, token=self.token, command=command, decision=decision)))
        return response.sequence

    async def snapshot(self) -> pb.Snapshot:
        response: pb.GetSnapshotResponse = await _call(self.service.GetSnapshot(
            pb.GetSnapshotRequest(table_id=self.table_id, token=self.token,
                                  password="" if self.token else self.password)))
        return response.snapshot

    async def chat(self, text: str, name: str = "") -> int:
        response: pb.SendChatResponse = await _call(self.service.SendChat(
            pb.SendChatRequest(table_id=self.table_id, token=self.token, text=text, name=name,
                               password="" if self.token else self.password)))
        return response.sequence

    async def leave(self) -> None:
        await _call(self.service.LeaveTable(pb.LeaveTableRequest(table_id=self.table_id, token=self.token)))

    async def stream(self) -> AsyncGenerator[pb.Snapshot | pb.Event, None]:
        """The seat's stream: a snapshot, then events one by one. It resumes after ``last_sequence`` when
        that is set, and keeps it up to date as events come. A Play call while ``play`` (the seat's commands
        go up it meanwhile), else a Subscribe call."""
        if self.play:
            try:
                async for item in self._play():
                    yield item
                return
            except ServerError as error:
                if error.code() != grpc.StatusCode.UNIMPLEMENTED:
                    raise
                self.play = False  # a server older than Play: the calls it knows
        request = pb.SubscribeRequest(table_id=self.table_id, token=self.token,
                                      password="" if self.token else self.password)
        if self.last_sequence is not None:
            request.from_sequence = self.last_sequence
        call = self.service.Subscribe(request)
        try:
            async for message in call:
                if message.HasField("snapshot"):
                    if self.last_sequence is None:
                        self.last_sequence = message.snapshot.sequence
                    self.decision, self._snapshot_at = message.snapshot.decision, message.snapshot.sequence
                    yield message.snapshot
                    continue
                for event in message.events.events:
                    self.last_sequence = max(self.last_sequence or 0, event.sequence)
                    if event.HasField("decision_request") and event.sequence > self._snapshot_at:  # (not history)
                        self.decision = event.sequence
                    yield event
        except grpc.aio.AioRpcError as error:
            raise ServerError.of(error) from None
        finally:
            call.cancel()  # a stream left early ends on the server at once, not when it is collected

    async def _play(self) -> AsyncGenerator[pb.Snapshot | pb.Event, None]:
        """A Play call, read in a task of its own into a bounded inbox. A command's result settles its
        ``send`` as the message that brought it is taken from the inbox: the sender resumes only after the
        reader has taken in the events that came with it (all of a message's events are yielded at once),
        so a send returns with its events seen. If the reader is not waiting for the stream when the result
        comes (a client may await a send in its loop over the stream), it settles at once."""
        opening = pb.PlayRequest(table_id=self.table_id, token=self.token,
                                 password="" if self.token else self.password)
        if self.last_sequence is not None:
            opening.from_sequence = self.last_sequence
        call = self.service.Play()
        link = _PlayLink(call)
        inbox: asyncio.Queue[pb.PlayResponse | ServerError | None] = asyncio.Queue(PLAY_INBOX)
        waiting = [False]  # the reader waits for the stream's next message

        async def read() -> None:
            try:
                while True:
                    message = await call.read()
                    if message is grpc.aio.EOF:
                        break
                    if message.results and not waiting[0]:
                        link.settle(message.results)
                    await inbox.put(message)
            except grpc.aio.AioRpcError as error:
                ended = ServerError.of(error)
                link.down(ended)
                await inbox.put(ended)
                return
            link.down(_closed("the seat's stream ended"))
            await inbox.put(None)

        reader: asyncio.Task[None] | None = None
        try:
            await call.write(opening)
            self._link = link
            reader = asyncio.ensure_future(read())
            while True:
                waiting[0] = True
                try:
                    message = await inbox.get()
                finally:
                    waiting[0] = False
                if message is None:
                    return
                if isinstance(message, ServerError):
                    raise message
                link.settle(message.results)  # its sender resumes once the reader has taken these events in
                if message.HasField("snapshot"):
                    if self.last_sequence is None:
                        self.last_sequence = message.snapshot.sequence
                    self.decision, self._snapshot_at = message.snapshot.decision, message.snapshot.sequence
                    yield message.snapshot
                for event in message.events.events:
                    self.last_sequence = max(self.last_sequence or 0, event.sequence)
                    if event.HasField("decision_request") and event.sequence > self._snapshot_at:  # (not history)
                        self.decision = event.sequence
                    yield event
        except grpc.aio.AioRpcError as error:
            raise ServerError.of(error) from None
        finally:
            if reader is not None:
                reader.cancel()
            link.down(_closed("the seat's stream was closed"))
            if self._link is link:
                self._link = None
            call.cancel()

    async def follow(self, backoff: Backoff | None = None
                     ) -> AsyncIterator[pb.Snapshot | pb.Event | Link]:
        """The seat's stream for good: whenever it drops (the server restarts, the network goes, the
        stream falls behind) it says so with a ``Link``, waits a jittered backoff and resumes from the
        last event; every resume starts with a fresh snapshot. It ends when the server ends the stream
        (the seat was emptied) and raises ``ServerError`` when the seat or table is no longer there."""
        backoff = backoff or Backoff()
        while True:
            try:
                async for message in self.stream():
                    if isinstance(message, pb.Snapshot):
                        backoff.reset()
                        yield Link(True)
                    yield message
                return
            except ServerError as error:
                if error.code() in _FINAL:
                    raise
                if error.code() == grpc.StatusCode.OUT_OF_RANGE:  # the server has not reached our last event
                    self.last_sequence = None  # (its store lost it: a power cut): start again from a snapshot
                if self.front is not None and error.link_trouble:  # the worker's port is out of reach, or its
                    self.service, self.front = self.front, None  # worker restarts: the server's address waits for it
                delay = backoff.next()
                reason = link_words(error, self.address) if error.link_trouble else error.words
                yield Link(False, reason, delay, error)
                await asyncio.sleep(delay)


@dataclass(frozen=True)
class HostedTable:
    """A table this client made: its info, and the host's token (add bots, remove seats, start); the
    password of a private one."""

    info: pb.TableInfo
    host_token: str
    password: str = ""

    @property
    def table_id(self) -> str:
        return str(self.info.table_id)


GIVEN_SEAT_WAIT = 5.0  # seconds ``Connection.given_seat`` waits to learn the table's worker (one restarting)


class Connection:
    """One server, and the lobby's calls on it."""

    def __init__(self, address: str, tls_ca: str | None = None, *, pinned: Pinned | None = None,
                 options: Sequence[tuple[str, str | int]] = ()) -> None:
        self.address = address
        self.pinned = pinned
        self.tls_ca, self.options = tls_ca, options
        self.channel = open_channel(address, tls_ca, pinned, options)
        self.service = stub(self.channel)
        self.workers: dict[str, grpc.aio.Channel] = {}  # the worker processes of a server of several, by address

    async def close(self) -> None:
        for channel in self.workers.values():
            await channel.close()
        await self.channel.close()

    def direct(self, session: SeatSession) -> SeatSession:
        """The session, its requests sent straight to the worker process that holds its table when the server
        named one (``serve --workers``, ``serve --cluster``: docs/SCALING.md), at this server's host and with its
        certificate, or at the other machine's address the server named; back to the server's address when that
        link fails (``SeatSession.follow``)."""
        if session.worker_port:
            where = session.worker_port
            if not isinstance(where, str):
                where = f"{self.address.rsplit(':', 1)[0]}:{where}"
            channel = self.workers.get(where)
            if channel is None:
                channel = self.workers[where] = open_channel(where, self.tls_ca, self.pinned, self.options)
            session.front, session.service = session.service, stub(channel)
        return session

    async def tables(self) -> list[pb.TableInfo]:
        response: pb.ListTablesResponse = await _call(self.service.ListTables(pb.ListTablesRequest()))
        return list(response.tables)

    async def watch_tables(self) -> AsyncGenerator[tuple[list[pb.TableInfo], list[str]], None]:
        """The lobby, live: every table first, then (changed tables, ids of tables gone) as they come.
        Raises ServerError when the stream breaks; call again to resume (it starts with every table)."""
        call = self.service.WatchTables(pb.WatchTablesRequest())
        try:
            async for message in call:
                yield list(message.tables), list(message.removed)
        except grpc.aio.AioRpcError as error:
            raise ServerError.of(error) from None
        finally:
            call.cancel()

    async def create_table(self, name: str, seats: int, rules: pb.HouseRules | None = None, *,
                           decision_seconds: int | None = None, takeover_seconds: int | None = None,
                           seed: int | None = None, password: str = "", game: str = "") -> HostedTable:
        """A new table; with a ``password``, a private one (joining and watching it need the password).
        ``game``: the game it plays, by its name in the engine (``engine.games``; empty: the server's default,
        Ten Pennies), and ``rules`` are that game's (its wire entry's ``rules_to_pb``)."""
        request = pb.CreateTableRequest(name=name, seats=seats, rules=rules or pb.HouseRules(), password=password,
                                        game=game)
        if decision_seconds is not None:
            request.settings.decision_seconds = decision_seconds
        if takeover_seconds is not None:
            request.settings.takeover_seconds = takeover_seconds
        if seed is not None:
            request.seed = seed
        response: pb.CreateTableResponse = await _call(self.service.CreateTable(request))
        return HostedTable(response.table, response.host_token, password)

    async def join(self, table_id: str, name: str, seat: int | None = None, password: str = "") -> SeatSession:
        session = await join(self.service, table_id, name, seat, password)
        session.address = self.address
        return self.direct(session)

    async def add_bot(self, table_id: str, host_token: str, strategy: str | None = None,
                      seat: int | None = None) -> int:
        """A built-in bot at ``seat`` (None: the first empty one) playing ``strategy`` (None: the table's game's
        own bot); the seat it took."""
        request = pb.AddBotRequest(table_id=table_id, host_token=host_token,
                                   strategy=STRATEGIES[strategy] if strategy else pb.BOT_STRATEGY_UNSPECIFIED)
        if seat is not None:
            request.seat = seat
        response: pb.AddBotResponse = await _call(self.service.AddBot(request))
        return response.seat

    async def remove_seat(self, table_id: str, host_token: str, seat: int) -> None:
        await _call(self.service.RemoveSeat(pb.RemoveSeatRequest(table_id=table_id, host_token=host_token,
                                                                 seat=seat)))

    async def close_table(self, table_id: str, host_token: str) -> None:
        """Close a waiting table this client made: gone at once, and its share of our open tables freed."""
        await _call(self.service.CloseTable(pb.CloseTableRequest(table_id=table_id, host_token=host_token)))

    async def start(self, table_id: str, host_token: str) -> pb.TableInfo:
        response: pb.StartGameResponse = await _call(self.service.StartGame(
            pb.StartGameRequest(table_id=table_id, host_token=host_token)))
        return response.table

    async def standings(self, tournament: str = "") -> pb.GetStandingsResponse | None:
        """The standings of the tournament the server runs (``serve --tournament``); None if it runs none."""
        try:
            response: pb.GetStandingsResponse = await _call(
                self.service.GetStandings(pb.GetStandingsRequest(tournament=tournament)))
        except ServerError as error:
            if error.code() == grpc.StatusCode.NOT_FOUND:
                return None
            raise
        return response

    async def game_record(self, table_id: str, *, token: str = "", password: str = "") -> GameRecord:
        """A finished game's record (seed, rules, names, every command), for a replay or a review: a
        ServerError (FAILED_PRECONDITION, in words) for a game not finished or a game of a tournament still
        running. A private table's needs a seat's ``token`` or its ``password``."""
        response: pb.GetGameRecordResponse = await _call(self.service.GetGameRecord(
            pb.GetGameRecordRequest(table_id=table_id, token=token, password=password)))
        return record_from_pb(response.record)

    def spectate(self, table_id: str, password: str = "") -> SeatSession:
        return SeatSession(self.service, table_id, None, password=password, address=self.address)

    def seat(self, table_id: str, seat: int, token: str) -> SeatSession:
        """A seat this client joined before (its token kept), to take it up again."""
        return SeatSession(self.service, table_id, seat, token, address=self.address)

    async def given_seat(self, table_id: str, seat: int, token: str) -> SeatSession:
        """A seat the server gave this client (a tournament's, by ``WaitForSeat``), at its table's worker when
        the server names one (``GetSnapshot``'s answer does, as ``JoinTable``'s does: ``direct``); at the
        server's address when it names none or cannot answer now."""
        session = self.seat(table_id, seat, token)
        call = self.service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id, token=token), timeout=GIVEN_SEAT_WAIT)
        try:
            await call
            session.worker_port = worker_port(await call.trailing_metadata())
        except grpc.aio.AioRpcError:
            return session  # its stream says what is wrong, and resumes as after any drop
        return self.direct(session)


async def join(service: pb_grpc.TenPenniesServiceStub, table_id: str, name: str,
               seat: int | None = None, password: str = "") -> SeatSession:
    request = pb.JoinTableRequest(table_id=table_id, name=name, password=password)
    if seat is not None:
        request.seat = seat
    call = service.JoinTable(request)
    response: pb.JoinTableResponse = await _call(call)
    return SeatSession(service, table_id, response.seat, response.token,
                       worker_port=worker_port(await call.trailing_metadata()))


def worker_port(metadata: Any) -> int | str:
    """Where the process that holds a table is, as a server of several processes names it in an answer's
    trailing metadata: its port at the server's host, or (a table of another machine of a cluster) its whole
    address, "host:port" (0: none named)."""
    port: int | str = 0
    for key, value in metadata or ():
        if key == WORKER_ADDRESS_METADATA and ":" in str(value):
            return str(value)
        if key == WORKER_PORT_METADATA and str(value).isdigit():
            port = int(value)
    return port

