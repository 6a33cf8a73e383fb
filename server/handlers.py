"""A gRPC method handler with a step before each of its calls, whatever its kind (a request or a stream of them,
an answer or a stream of them): the one way the server's interceptors (``service.RejectMalformed``,
``forwarded.ForwardedPeer``, ``service.FairShare``) and the front's own handlers wrap a handler. ``wrapped``: a
check that answers at once; ``gated``: a turn that may be waited for, before the request is parsed."""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import grpc

Check = Callable[[Any, Any], Any]
"""Given a call's request (for a stream of requests: the stream) and its context, the context the handler is to
be given, or None: the call is refused (the check set its status)."""


def wrapped(handler: Any, check: Check | None, request_deserializer: Callable[[bytes], Any] | None = None,
            response_serializer: Callable[[Any], bytes] | None = None) -> Any:
    """``handler`` with ``check`` before each call (None: none, the handler's own function is kept), and the
    (de)serializers given in place of its own."""
    parse = request_deserializer or handler.request_deserializer
    serialize = response_serializer or handler.response_serializer
    if handler.unary_unary:
        inner_uu = handler.unary_unary
        if check is None:
            return grpc.unary_unary_rpc_method_handler(inner_uu, parse, serialize)

        async def unary_unary(request: Any, context: Any) -> Any:
            checked = check(request, context)
            return None if checked is None else await inner_uu(request, checked)
        return grpc.unary_unary_rpc_method_handler(unary_unary, parse, serialize)
    if handler.unary_stream:
        inner_us = handler.unary_stream
        if check is None:
            return grpc.unary_stream_rpc_method_handler(inner_us, parse, serialize)

        async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
            checked = check(request, context)
            if checked is not None:
                async for response in inner_us(request, checked):
                    yield response
        return grpc.unary_stream_rpc_method_handler(unary_stream, parse, serialize)
    if handler.stream_stream:
        inner_ss = handler.stream_stream
        if check is None:
            return grpc.stream_stream_rpc_method_handler(inner_ss, parse, serialize)

        async def stream_stream(requests: Any, context: Any) -> AsyncIterator[Any]:
            checked = check(requests, context)
            if checked is not None:
                async for response in inner_ss(requests, checked):
                    yield response
        return grpc.stream_stream_rpc_method_handler(stream_stream, parse, serialize)
    inner_su = handler.stream_unary
    if check is None:
        return grpc.stream_unary_rpc_method_handler(inner_su, parse, serialize)

    async def stream_unary(requests: Any, context: Any) -> Any:
        checked = check(requests, context)
        return None if checked is None else await inner_su(requests, checked)
    return grpc.stream_unary_rpc_method_handler(stream_unary, parse, serialize)



class Turn(Protocol):
    """A call's turn among the server's work (``service.Admission``)."""

    def release(self) -> None:
        """End the turn (once, however often it is called)."""

    def aside(self) -> None:
        """The call waits for something other than the server's work (a password's turn, a pause): it gives back
        its place among all clients' work, keeping its place among its own client's."""


TURN: contextvars.ContextVar[Turn | None] = contextvars.ContextVar("tenpennies_turn", default=None)
"""The call's turn, when it came in through a gate (``gated``); unset: it came in without one."""


def settled() -> None:
    """A stream is set up: its turn ends (it goes on as long as it lasts, holding none)."""
    turn = TURN.get()
    if turn is not None:
        turn.release()


def aside() -> None:
    """The call is about to wait for something other than the server's work (``Turn.aside``)."""
    turn = TURN.get()
    if turn is not None:
        turn.aside()


Gate = Callable[[Any], Awaitable[Turn | None]]
"""Given a call's context, wait for the call's turn, or None: the call is refused (the gate set its status)."""


def gated(handler: Any, gate: Gate) -> Any:
    """``handler`` with ``gate`` before each call, and a request read (parsed) only once the gate lets it through:
    a call the gate refuses costs no parse. The handler finds its turn in ``TURN``. A call's turn ends when it is
    answered; a stream's once it has set up (its first answer, or ``settled``), or when it ends, whichever comes
    first. A stream of requests is parsed message by message as before (its messages are read by the handler,
    after the gate)."""
    parse = handler.request_deserializer
    serialize = handler.response_serializer

    def parsed(raw: Any) -> Any:
        return raw if parse is None else parse(raw)

    if handler.unary_unary:
        inner_uu = handler.unary_unary

        async def unary_unary(raw: Any, context: Any) -> Any:
            turn = await gate(context)
            if turn is None:
                return None
            TURN.set(turn)
            try:
                return await inner_uu(parsed(raw), context)
            finally:
                turn.release()
        return grpc.unary_unary_rpc_method_handler(unary_unary, None, serialize)
    if handler.unary_stream:
        inner_us = handler.unary_stream

        async def unary_stream(raw: Any, context: Any) -> AsyncIterator[Any]:
            turn = await gate(context)
            if turn is None:
                return
            TURN.set(turn)
            try:
                async for response in inner_us(parsed(raw), context):
                    turn.release()
                    yield response
            finally:
                turn.release()
        return grpc.unary_stream_rpc_method_handler(unary_stream, None, serialize)
    if handler.stream_stream:
        inner_ss = handler.stream_stream

        async def stream_stream(requests: Any, context: Any) -> AsyncIterator[Any]:
            turn = await gate(context)
            if turn is None:
                return
            TURN.set(turn)
            try:
                async for response in inner_ss(requests, context):
                    turn.release()
                    yield response
            finally:
                turn.release()
        return grpc.stream_stream_rpc_method_handler(stream_stream, parse, serialize)
    inner_su = handler.stream_unary

    async def stream_unary(requests: Any, context: Any) -> Any:
        turn = await gate(context)
        if turn is None:
            return None
        TURN.set(turn)
        try:
            return await inner_su(requests, context)
        finally:
            turn.release()
    return grpc.stream_unary_rpc_method_handler(stream_unary, parse, serialize)
