"""The gRPC servicer: translate requests to table calls and table errors to status codes. Nothing else."""

from __future__ import annotations

import functools
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import RuleError
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.v1 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire import mapping
from tenpennies.wire.games import wire
from tenpennies.wire.words import STRATEGY_WORDS

from .lobby import Lobby
from .store import StoreError
from .table import Conflict, Full, NotFound, PermissionDenied, Settings, StreamEnd, TableError, Unauthenticated
from .tournament import LinkEnd, Seating, Tournament

_MALFORMED = object()


class RejectMalformed(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """A request that does not even parse gets INVALID_ARGUMENT (grpc's default would be UNKNOWN)."""

    async def intercept_service(self, continuation: Any, details: Any) -> Any:
        handler = await continuation(details)
        if handler is None or handler.request_deserializer is None or handler.request_streaming:
            return handler
        parse = handler.request_deserializer

        def safe_parse(data: bytes) -> Any:
            try:
                return parse(data)
            except Exception:
                return _MALFORMED

        async def refuse(context: Any) -> None:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a well-formed message")

        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(request: Any, context: Any) -> Any:
                if request is _MALFORMED:
                    await refuse(context)
                return await inner(request, context)
            return grpc.unary_unary_rpc_method_handler(unary, safe_parse, handler.response_serializer)
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(request: Any, context: Any) -> AsyncIterator[Any]:
                if request is _MALFORMED:
                    await refuse(context)
                async for response in inner_stream(request, context):
                    yield response
            return grpc.unary_stream_rpc_method_handler(stream, safe_parse, handler.response_serializer)
        return handler


class RateLimiter:
    """A token bucket per connection (the peer address names the connection)."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, peer: str) -> bool:
        now = time.monotonic()
        tokens, last = self.buckets.get(peer, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self.buckets) > 20_000:  # forget connections idle long enough to have a full bucket
            self.buckets = {p: (t, last_seen) for p, (t, last_seen) in self.buckets.items()
                            if last_seen + self.burst / self.rate > now}
        if tokens < 1:
            self.buckets[peer] = (tokens, now)
            return False
        self.buckets[peer] = (tokens - 1, now)
        return True


def client_address(peer: str) -> str:
    """The client's address without its port ("ipv4:10.0.0.7:51234" -> "ipv4:10.0.0.7")."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer


def _status(error: Exception) -> grpc.StatusCode:
    match error:
        case NotFound():
            return grpc.StatusCode.NOT_FOUND
        case Unauthenticated():
            return grpc.StatusCode.UNAUTHENTICATED
        case PermissionDenied():
            return grpc.StatusCode.PERMISSION_DENIED
        case Conflict():
            return grpc.StatusCode.FAILED_PRECONDITION
        case Full():
            return grpc.StatusCode.RESOURCE_EXHAUSTED
        case mapping.BadRequest():
            return grpc.StatusCode.INVALID_ARGUMENT
        case _:  # Unavailable, StoreError
            return grpc.StatusCode.UNAVAILABLE


async def _abort(context: grpc.aio.ServicerContext, error: Exception, rule_code: grpc.StatusCode) -> None:
    if isinstance(error, RuleError):
        await context.abort(rule_code, str(error), trailing_metadata=(("tp-rule", error.rule),))
    await context.abort(_status(error), str(error))


_REFUSED = (RuleError, mapping.BadRequest, TableError, StoreError)


def _rpc(rule_code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION) -> Callable[[Any], Any]:
    """Rate-limit a unary RPC and map the errors it may raise to status codes."""
    def wrap(method: Any) -> Any:
        @functools.wraps(method)
        async def handler(self: TenPenniesServicer, request: Any, context: grpc.aio.ServicerContext) -> Any:
            if not self.limiter.allow(context.peer()):
                await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                    "too many requests on this connection: slow down")
            try:
                return await method(self, request, context)
            except _REFUSED as error:
                await _abort(context, error, rule_code)
        return handler
    return wrap


def _seat(message: Any) -> int | None:
    return message.seat if message.HasField("seat") else None


class TenPenniesServicer(pb_grpc.TenPenniesServiceServicer):
    def __init__(self, lobby: Lobby, limiter: RateLimiter, tournament: Tournament | None = None) -> None:
        self.lobby = lobby
        self.limiter = limiter
        self.tournament = tournament

    def _tournament(self, name: str) -> Tournament:
        """The tournament this server runs, by its name (empty: whichever it is)."""
        if self.tournament is None:
            raise NotFound("this server runs no tournament (it is started with --tournament CONFIG for one)")
        if name and name != self.tournament.name:
            raise NotFound(f"no tournament {name!r} here (this server runs {self.tournament.name!r})")
        return self.tournament

    @_rpc(rule_code=grpc.StatusCode.INVALID_ARGUMENT)
    async def CreateTable(self, request: pb.CreateTableRequest, context: Any) -> pb.CreateTableResponse:
        settings = Settings()
        if request.settings.HasField("decision_seconds"):
            settings.decision_seconds = request.settings.decision_seconds
        if request.settings.HasField("takeover_seconds"):
            settings.takeover_seconds = request.settings.takeover_seconds
        game = request.game or DEFAULT_GAME  # a client that names no game (one older than the choice)
        table, host_token = await self.lobby.create(
            request.name, request.seats, wire(game).rules_from_pb(request.rules), settings,
            request.seed if request.HasField("seed") else None, client_address(context.peer()),
            password=request.password, game=game)  # a private table: only the password's hash is kept
        return pb.CreateTableResponse(table=table.info(), host_token=host_token)

    @_rpc()
    async def ListTables(self, request: pb.ListTablesRequest, context: Any) -> pb.ListTablesResponse:
        return pb.ListTablesResponse(tables=[t.info() for t in self.lobby.listed()])

    async def WatchTables(self, request: pb.WatchTablesRequest, context: Any
                          ) -> AsyncIterator[pb.WatchTablesResponse]:
        """Every table, then the changes as they come."""
        if not self.limiter.allow(context.peer()):
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many requests on this connection")
        try:
            tables, watcher = self.lobby.watch(client_address(context.peer()))
        except Full as error:
            await _abort(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return
        try:
            yield pb.WatchTablesResponse(tables=tables)
            while True:
                changed, removed = await watcher.next()
                yield pb.WatchTablesResponse(tables=changed, removed=removed)
        finally:
            self.lobby.unwatch(watcher)

    @_rpc()
    async def JoinTable(self, request: pb.JoinTableRequest, context: Any) -> pb.JoinTableResponse:
        table = await self.lobby.get(request.table_id)
        seat, token = await table.join(request.name, _seat(request), password=request.password)
        return pb.JoinTableResponse(seat=seat, token=token)

    @_rpc()
    async def LeaveTable(self, request: pb.LeaveTableRequest, context: Any) -> pb.LeaveTableResponse:
        await (await self.lobby.get(request.table_id)).leave(request.token)
        return pb.LeaveTableResponse()

    @_rpc()
    async def AddBot(self, request: pb.AddBotRequest, context: Any) -> pb.AddBotResponse:
        table = await self.lobby.get(request.table_id)
        # unset: the game's own default bot (the one that takes over a gone player; Ten Pennies' greedy)
        strategy = table.kind.takeover if not request.strategy else STRATEGY_WORDS.get(request.strategy)
        if strategy is None:
            raise mapping.BadRequest(f"unknown bot strategy {request.strategy}")
        return pb.AddBotResponse(seat=await table.add_bot(request.host_token, _seat(request), strategy))

    @_rpc()
    async def RemoveSeat(self, request: pb.RemoveSeatRequest, context: Any) -> pb.RemoveSeatResponse:
        seat = _seat(request)
        if seat is None:
            raise mapping.BadRequest("say which seat to empty (seat)")
        await (await self.lobby.get(request.table_id)).remove_seat(request.host_token, seat)
        return pb.RemoveSeatResponse()

    @_rpc()
    async def StartGame(self, request: pb.StartGameRequest, context: Any) -> pb.StartGameResponse:
        table = await self.lobby.get(request.table_id)
        await table.start(request.host_token)
        return pb.StartGameResponse(table=table.info())

    @_rpc()
    async def SendCommand(self, request: pb.SendCommandRequest, context: Any) -> pb.SendCommandResponse:
        table = await self.lobby.get(request.table_id)
        return pb.SendCommandResponse(sequence=await table.command(request.token, request.command))

    @_rpc()
    async def GetSnapshot(self, request: pb.GetSnapshotRequest, context: Any) -> pb.GetSnapshotResponse:
        table = await self.lobby.get(request.table_id)
        return pb.GetSnapshotResponse(snapshot=await table.snapshot(request.token, request.password))

    @_rpc()
    async def SendChat(self, request: pb.SendChatRequest, context: Any) -> pb.SendChatResponse:
        table = await self.lobby.get(request.table_id)
        return pb.SendChatResponse(sequence=await table.chat(request.token, request.name, request.text,
                                                             request.password))

    async def Subscribe(self, request: pb.SubscribeRequest, context: Any) -> AsyncIterator[pb.SubscribeResponse]:
        """The snapshot; then, when resuming, the events after ``from_sequence`` that it reflects, a page
        at a time; then the live events."""
        if not self.limiter.allow(context.peer()):
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many requests on this connection")
        try:
            table = await self.lobby.get(request.table_id)
            snapshot, subscriber = await table.subscribe(request.token, request.password)
        except _REFUSED as error:
            await _abort(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return
        try:
            yield pb.SubscribeResponse(snapshot=snapshot)
            if request.HasField("from_sequence"):
                async for page in table.history(subscriber.seat, request.from_sequence, snapshot.sequence):
                    yield pb.SubscribeResponse(events=pb.EventBatch(events=page))
            while True:
                item = await subscriber.queue.get()
                if item is StreamEnd.SEAT_LEFT:
                    return
                if item is StreamEnd.FELL_BEHIND:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                        "this stream fell too far behind: subscribe again from the last "
                                        "sequence number you received")
                    return
                yield pb.SubscribeResponse(events=pb.EventBatch(events=item))
        finally:
            table.unsubscribe(subscriber)

    # --- tournaments ---

    @_rpc()
    async def RegisterBot(self, request: pb.RegisterBotRequest, context: Any) -> pb.RegisterBotResponse:
        token = await self._tournament(request.tournament).register(request.name, request.bot_token)
        return pb.RegisterBotResponse(bot_token=token)

    @_rpc()
    async def GetStandings(self, request: pb.GetStandingsRequest, context: Any) -> pb.GetStandingsResponse:
        report = self._tournament(request.tournament).report()
        response = pb.GetStandingsResponse(tournament=report.name, games_played=report.games_played,
                                           games_total=report.games_total, games_playing=report.games_playing)
        for record in report.records:
            standing = response.standings.add(name=record.name, games=record.games, wins=round(record.wins),
                                              shared_wins=record.wins, pennies=record.pennies,
                                              rating_mu=record.rating_mu, rating_sigma=record.rating_sigma,
                                              mean_score_margin=record.mean_score_margin or 0.0, buys=record.buys,
                                              illegal=record.illegal, timed_out=record.timeouts)
            if record.mean_score is not None:
                standing.mean_score = record.mean_score
        return response

    async def WaitForSeat(self, request: pb.WaitForSeatRequest, context: Any
                          ) -> AsyncIterator[pb.WaitForSeatResponse]:
        """The seats of the bot's games being played, then each new seat as it is given."""
        if not self.limiter.allow(context.peer()):
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many requests on this connection")
        try:
            tournament = self._tournament("")
            seatings, link = tournament.connect(request.bot_token)
        except _REFUSED as error:
            await _abort(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return

        def seating(s: Seating) -> pb.WaitForSeatResponse:
            return pb.WaitForSeatResponse(table_id=s.table_id, seat=s.seat, token=request.bot_token,
                                          game=s.game + 1)
        try:
            for s in seatings:
                yield seating(s)
            while True:
                item = await link.queue.get()
                if item is LinkEnd.OVER:
                    return
                if item is LinkEnd.REPLACED:
                    await context.abort(grpc.StatusCode.ABORTED, item.value)
                if item is LinkEnd.FELL_BEHIND:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{item.value}: wait for a seat again")
                assert isinstance(item, Seating)
                yield seating(item)
        finally:
            tournament.disconnect(link)
