"""Who asks, as the front saw them: a worker behind the front (``server/front.py``) takes the client's address
from the request's ``tp-peer`` metadata, which only the front can set.

A worker listens on a unix socket in a directory only the server's own user may enter, so whatever reaches it
came through the front; the front drops any ``tp-peer`` a client sends and sets its own. So the limits keyed by
the client's address (request budgets, open tables, lobby streams, password checks) and everything that names
the connection (``context.peer()``) see the real client, not the front.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

PEER_METADATA = "tp-peer"


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
