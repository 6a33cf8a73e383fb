"""Who asks, as the front saw them: a worker behind the front (``server/front.py``) takes the client's address
from the request's ``tp-peer`` metadata, which only the front can set.

A worker takes the front's requests on a unix socket in a directory only the server's own user may enter, and
believes ``tp-peer`` only there; the front drops any ``tp-peer`` a client sends and sets its own. So the limits
keyed by the client's address (request budgets, open tables, lobby streams, password checks) and everything
that names the connection (``context.peer()``) see the real client, not the front.

A worker's own port (for clients that come straight to their table, ``front.WORKER_PORT``) takes only the
requests of a table: the lobby's (``FRONT_ONLY``) are the front's, which counts every worker.
"""

from __future__ import annotations

from typing import Any

import grpc

from .handlers import wrapped

PEER_METADATA = "tp-peer"
FRONT_ONLY = frozenset({"CreateTable", "ListTables", "WatchTables"})
NOT_HERE = "this is a worker's port, for the requests of its tables: make and list tables at the server's address"


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


def _forwarded(request: Any, context: Any) -> Any:
    if not _from_front(context):
        return context
    for key, value in context.invocation_metadata() or ():
        if key == PEER_METADATA:
            return _AsPeer(context, str(value))
    return context


def _front_only(request: Any, context: Any) -> Any:
    """The lobby's requests are the front's alone: a client at the worker's own port is refused."""
    if not _from_front(context):
        context.set_code(grpc.StatusCode.PERMISSION_DENIED)
        context.set_details(NOT_HERE)
        return None
    return _forwarded(request, context)


class ForwardedPeer(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """Every handler sees the client the front names (``PEER_METADATA``) as the context's peer; the lobby's
    (``FRONT_ONLY``) answer the front alone. Each method's handler is made once."""

    def __init__(self) -> None:
        self._handlers: dict[str, Any] = {}

    async def intercept_service(self, continuation: Any, details: Any) -> Any:
        made = self._handlers.get(details.method)
        if made is not None:
            return made
        handler = await continuation(details)
        if handler is None:
            return None
        front_only = details.method.rsplit("/", 1)[-1] in FRONT_ONLY
        made = self._handlers[details.method] = wrapped(handler, _front_only if front_only else _forwarded)
        return made
