"""A gRPC method handler with a step before each of its calls, whatever its kind (a request or a stream of them,
an answer or a stream of them): the one way a server's calls come in (``service.Door``), and the turn a call
holds among the server's work while it is served."""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import grpc


class Turn(Protocol):
    """A call's turn among the server's work (``service.Admission``)."""

    def release(self) -> None:
        """End the turn (once, however often it is called)."""

    def aside(self) -> None:
        """The call waits for something other than the server's work (a password's turn, a pause): it gives back
        its place among all clients' work, keeping its place among its own client's."""


TURN: contextvars.ContextVar[Turn | None] = contextvars.ContextVar("tenpennies_turn", default=None)
"""The call's turn, when it took one as it came in (``entered``); unset: it came in without one."""


def settled() -> None:
    """The call's part of the server's work is done before the call is: a stream is set up (it goes on as long as
    it lasts), or a front passed the call on to its worker (which takes turns of its own). Its turn ends."""
    turn = TURN.get()
    if turn is not None:
        turn.release()


def aside() -> None:
    """The call is about to wait for something other than the server's work (``Turn.aside``)."""
    turn = TURN.get()
    if turn is not None:
        turn.aside()


Entry = Callable[[Any, Any], Awaitable["tuple[Any, Any, Turn | None] | None"]]
"""Given a call's request as it came (for a stream of requests: the stream) and its context: the request to serve,
the context to serve it with and the call's turn (None: it takes none); or None: the call is refused (the entry
set its status, and holds no turn)."""


def entered(handler: Any, entry: Entry, parse: Callable[[bytes], Any] | None,
            serialize: Callable[[Any], bytes] | None) -> Any:
    """``handler`` with ``entry`` before each call, ``parse`` and ``serialize`` as grpc's (de)serializers of the
    call (None: bytes as they are). The handler finds its turn in ``TURN``. A call's turn ends when it is
    answered; a stream's once it has set up (its first answer, or ``settled``), or when it ends, whichever
    comes first."""
    if handler.unary_unary:
        inner_uu = handler.unary_unary

        async def unary_unary(request: Any, context: Any) -> Any:
            came = await entry(request, context)
            if came is None:
                return None
            request, context, turn = came
            TURN.set(turn)
            try:
                return await inner_uu(request, context)
            finally:
                if turn is not None:
                    turn.release()
        return grpc.unary_unary_rpc_method_handler(unary_unary, parse, serialize)
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(_streaming(handler.unary_stream, entry), parse, serialize)
    if handler.stream_stream:
        return grpc.stream_stream_rpc_method_handler(_streaming(handler.stream_stream, entry), parse, serialize)
    inner_su = handler.stream_unary

    async def stream_unary(requests: Any, context: Any) -> Any:
        came = await entry(requests, context)
        if came is None:
            return None
        requests, context, turn = came
        TURN.set(turn)
        try:
            return await inner_su(requests, context)
        finally:
            if turn is not None:
                turn.release()
    return grpc.stream_unary_rpc_method_handler(stream_unary, parse, serialize)


def _streaming(inner: Callable[[Any, Any], AsyncIterator[Any]], entry: Entry
               ) -> Callable[[Any, Any], AsyncIterator[Any]]:
    """A handler that answers with a stream (its request one message or a stream of them), after ``entry``."""
    async def streaming(request: Any, context: Any) -> AsyncIterator[Any]:
        came = await entry(request, context)
        if came is None:
            return
        request, context, turn = came
        TURN.set(turn)
        try:
            async for response in inner(request, context):
                if turn is not None:
                    turn.release()
                yield response
        finally:
            if turn is not None:
                turn.release()
    return streaming
