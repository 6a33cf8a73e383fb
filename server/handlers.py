"""A gRPC method handler with a step before each of its calls, whatever its kind (a request or a stream of them,
an answer or a stream of them): the one way the server's interceptors (``service.RejectMalformed``,
``forwarded.ForwardedPeer``) and the front's own handlers wrap a handler."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

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
