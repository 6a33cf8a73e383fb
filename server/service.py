"""The gRPC servicer: translate requests to table calls and table errors to status codes. Nothing else."""

from __future__ import annotations

import functools
import time

import grpc

from tenpennies.engine import RuleError
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.v1 import tenpennies_pb2_grpc as pb_grpc

from . import mapping
from .table import (Conflict, Full, Lobby, NotFound, PermissionDenied, Settings, TableError,
                    StreamEnd, Unauthenticated)

_CODES = {NotFound: grpc.StatusCode.NOT_FOUND, Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
          PermissionDenied: grpc.StatusCode.PERMISSION_DENIED, Conflict: grpc.StatusCode.FAILED_PRECONDITION,
          Full: grpc.StatusCode.RESOURCE_EXHAUSTED}
_STRATEGIES = {pb.BOT_STRATEGY_UNSPECIFIED: "greedy", pb.BOT_STRATEGY_GREEDY: "greedy",
               pb.BOT_STRATEGY_RANDOM: "random"}


_MALFORMED = object()
HISTORY_BATCH = 256  # events a message when a resuming subscriber catches up


class RejectMalformed(grpc.aio.ServerInterceptor):
    """A request that does not even parse gets INVALID_ARGUMENT (grpc's default would be UNKNOWN)."""

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if handler is None or handler.request_deserializer is None or handler.request_streaming:
            return handler
        parse = handler.request_deserializer

        def safe_parse(data: bytes):
            try:
                return parse(data)
            except Exception:
                return _MALFORMED

        async def refuse(context) -> None:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the request is not a well-formed message")

        if handler.unary_unary:
            inner = handler.unary_unary

            async def unary(request, context):
                if request is _MALFORMED:
                    await refuse(context)
                return await inner(request, context)
            return grpc.unary_unary_rpc_method_handler(unary, safe_parse, handler.response_serializer)
        if handler.unary_stream:
            inner_stream = handler.unary_stream

            async def stream(request, context):
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
            self.buckets = {p: (t, l) for p, (t, l) in self.buckets.items()
                            if l + self.burst / self.rate > now}
        if tokens < 1:
            self.buckets[peer] = (tokens, now)
            return False
        self.buckets[peer] = (tokens - 1, now)
        return True


async def _abort(context: grpc.aio.ServicerContext, error: Exception, rule_code: grpc.StatusCode) -> None:
    if isinstance(error, RuleError):
        await context.abort(rule_code, str(error), trailing_metadata=(("tp-rule", error.rule),))
    if isinstance(error, mapping.BadRequest):
        await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
    await context.abort(_CODES[type(error)], str(error))


def _rpc(rule_code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION):
    """Rate-limit a unary RPC and map the errors it may raise to status codes."""
    def wrap(method):
        @functools.wraps(method)
        async def handler(self: "TenPenniesServicer", request, context):
            if not self.limiter.allow(context.peer()):
                await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                    "too many requests on this connection: slow down")
            try:
                return await method(self, request, context)
            except (RuleError, mapping.BadRequest, TableError) as error:
                await _abort(context, error, rule_code)
        return handler
    return wrap


class TenPenniesServicer(pb_grpc.TenPenniesServiceServicer):
    def __init__(self, lobby: Lobby, limiter: RateLimiter) -> None:
        self.lobby = lobby
        self.limiter = limiter

    @_rpc(rule_code=grpc.StatusCode.INVALID_ARGUMENT)
    async def CreateTable(self, request: pb.CreateTableRequest, context) -> pb.CreateTableResponse:
        settings = Settings()
        if request.settings.HasField("decision_seconds"):
            settings.decision_seconds = request.settings.decision_seconds
        if request.settings.HasField("takeover_seconds"):
            settings.takeover_seconds = request.settings.takeover_seconds
        table = await self.lobby.create(request.name, request.seats, mapping.rules_from_pb(request.rules),
                                        settings, request.seed if request.HasField("seed") else None)
        return pb.CreateTableResponse(table=table.info())

    @_rpc()
    async def ListTables(self, request, context) -> pb.ListTablesResponse:
        return pb.ListTablesResponse(tables=[t.info() for t in self.lobby.tables.values()])

    @_rpc()
    async def JoinTable(self, request: pb.JoinTableRequest, context) -> pb.JoinTableResponse:
        table = self.lobby.get(request.table_id)
        seat, token = await table.join(request.name, request.seat if request.HasField("seat") else None)
        return pb.JoinTableResponse(seat=seat, token=token)

    @_rpc()
    async def LeaveTable(self, request: pb.LeaveTableRequest, context) -> pb.LeaveTableResponse:
        await self.lobby.get(request.table_id).leave(request.token)
        return pb.LeaveTableResponse()

    @_rpc()
    async def AddBot(self, request: pb.AddBotRequest, context) -> pb.AddBotResponse:
        strategy = _STRATEGIES.get(request.strategy)
        if strategy is None:
            raise mapping.BadRequest(f"unknown bot strategy {request.strategy}")
        table = self.lobby.get(request.table_id)
        return pb.AddBotResponse(seat=await table.add_bot(request.seat if request.HasField("seat") else None,
                                                          strategy))

    @_rpc()
    async def StartGame(self, request: pb.StartGameRequest, context) -> pb.StartGameResponse:
        table = self.lobby.get(request.table_id)
        await table.start(request.token)
        return pb.StartGameResponse(table=table.info())

    @_rpc()
    async def SendCommand(self, request: pb.SendCommandRequest, context) -> pb.SendCommandResponse:
        table = self.lobby.get(request.table_id)
        return pb.SendCommandResponse(sequence=await table.command(request.token, request.command))

    @_rpc()
    async def GetSnapshot(self, request: pb.GetSnapshotRequest, context) -> pb.GetSnapshotResponse:
        return pb.GetSnapshotResponse(snapshot=await self.lobby.get(request.table_id).snapshot(request.token))

    @_rpc()
    async def SendChat(self, request: pb.SendChatRequest, context) -> pb.SendChatResponse:
        table = self.lobby.get(request.table_id)
        return pb.SendChatResponse(sequence=await table.chat(request.token, request.name, request.text))

    async def Subscribe(self, request: pb.SubscribeRequest, context):
        if not self.limiter.allow(context.peer()):
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "too many requests on this connection")
        try:
            table = self.lobby.get(request.table_id)
            snapshot, history, subscriber = await table.subscribe(
                request.token, request.from_sequence if request.HasField("from_sequence") else None)
        except (RuleError, mapping.BadRequest, TableError) as error:
            await _abort(context, error, grpc.StatusCode.FAILED_PRECONDITION)
        try:
            yield pb.SubscribeResponse(snapshot=snapshot)
            for start in range(0, len(history), HISTORY_BATCH):
                yield pb.SubscribeResponse(events=pb.EventBatch(events=history[start:start + HISTORY_BATCH]))
            while True:
                item = await subscriber.queue.get()
                if item is StreamEnd.SEAT_LEFT:
                    return
                if item is StreamEnd.FELL_BEHIND:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                        "this stream fell too far behind: subscribe again from the last "
                                        "sequence number you received")
                yield pb.SubscribeResponse(events=pb.EventBatch(events=item))
        finally:
            table.unsubscribe(subscriber)
