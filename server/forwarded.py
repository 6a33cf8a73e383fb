"""Who asks, as the front saw them: a worker behind the front (``server/front.py``) takes the client's address
from the request's ``tp-peer`` metadata, which only the front can set.

A worker takes the front's requests on a unix socket in a directory only the server's own user may enter, and
believes ``tp-peer`` only there; the front drops any ``tp-peer`` a client sends and sets its own. So the limits
keyed by the client's address (request budgets, open tables, lobby streams, password checks) and everything
that names the connection (``context.peer()``) see the real client, not the front.

A worker's own port (for clients that come straight to their table, ``front.WORKER_PORT``) takes only the
requests of a table: the lobby's (``FRONT_ONLY``) are the front's, which counts every worker; and a game's
record, which the front withholds while the game's tournament runs (it alone knows the tournament).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

PEER_METADATA = "tp-peer"
FRONT_ONLY = frozenset({"CreateTable", "ListTables", "WatchTables", "GetGameRecord"})
NOT_HERE = ("this is a worker's port, for the requests of its tables: make and list tables, and ask for games' "
            "records, at the server's address")


def _from_front(context: Any) -> bool:
    return str(context.peer()).startswith("unix:")


class _AsPeer:
    """A servicer context whose ``peer()`` is the client the front forwarded; all else is the real context's."""

    __slots__ = ("_context", "_peer")

    def __init__(self, context: Any, peer: str) -> None:
        self._context = context
        self._peer = peer

    def peer(self) -> str:
        return self._peer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def _forwarded(context: Any) -> Any:
    if not _from_front(context):
        return context
    for key, value in context.invocation_metadata() or ():
        if key == PEER_METADATA:
            return _AsPeer(context, str(value))
    return context


class ForwardedPeer(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Every handler sees the client the front names (``PEER_METADATA``) as the context's peer."""

    async def intercept_service(self, continuation: Any, details: Any) -> Any:
        handler = await continuation(details)
        if handler is None:
            return None
        if details.method.rsplit("/", 1)[-1] in FRONT_ONLY:
            return _front_only(handler)
        if handler.unary_unary:
            inner_uu = handler.unary_unary

            async def unary_unary(request: Any, context: Any) -> Any:
                return await inner_uu(request, _forwarded(context))
            return grpc.unary_unary_rpc_method_handler(unary_unary, handler.request_deserializer,
                                                       handler.response_serializer)
        if handler.unary_stream:
            inner_us = handler.unary_stream

            async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
                async for response in inner_us(request, _forwarded(context)):
                    yield response
            return grpc.unary_stream_rpc_method_handler(unary_stream, handler.request_deserializer,
                                                        handler.response_serializer)
        if handler.stream_stream:
            inner_ss = handler.stream_stream

            async def stream_stream(requests: Any, context: Any) -> AsyncIterator[Any]:
                async for response in inner_ss(requests, _forwarded(context)):
                    yield response
            return grpc.stream_stream_rpc_method_handler(stream_stream, handler.request_deserializer,
                                                         handler.response_serializer)
        if handler.stream_unary:
            inner_su = handler.stream_unary

            async def stream_unary(requests: Any, context: Any) -> Any:
                return await inner_su(requests, _forwarded(context))
            return grpc.stream_unary_rpc_method_handler(stream_unary, handler.request_deserializer,
                                                        handler.response_serializer)
        return handler


def _refuse(context: Any) -> None:
    context.set_code(grpc.StatusCode.PERMISSION_DENIED)
    context.set_details(NOT_HERE)


def _front_only(handler: Any) -> Any:
    """The handler, for the front alone (a client at the worker's own port is refused)."""
    if handler.unary_unary:
        inner_uu = handler.unary_unary

        async def unary_unary(request: Any, context: Any) -> Any:
            if not _from_front(context):
                _refuse(context)
                return None
            return await inner_uu(request, _forwarded(context))
        return grpc.unary_unary_rpc_method_handler(unary_unary, handler.request_deserializer,
                                                   handler.response_serializer)
    inner_us = handler.unary_stream

    async def unary_stream(request: Any, context: Any) -> AsyncIterator[Any]:
        if not _from_front(context):
            _refuse(context)
            return
        async for response in inner_us(request, _forwarded(context)):
            yield response
    return grpc.unary_stream_rpc_method_handler(unary_stream, handler.request_deserializer,
                                                handler.response_serializer)
