"""Who asks, as the front saw them: a worker behind the front (``server/front.py``) takes the client's address
from the request's ``tp-peer`` metadata, which only the front can set.

A worker takes the front's requests on a unix socket in a directory only the server's own user may enter, and
believes ``tp-peer`` only there; the front drops any ``tp-peer`` a client sends and sets its own. So the limits
keyed by the client's address (request budgets, open tables, lobby streams, password checks) and everything
that names the connection (``context.peer()``) see the real client, not the front.

A worker's own port (for clients that come straight to their table, ``front.WORKER_PORT``) takes only the
requests of a table: the lobby's (``FRONT_ONLY``) are the front's, which counts every worker; and a game's
record, which the front withholds while the game's tournament runs (it alone knows the tournament).

Every server (one process, a front, a worker) reads who asks once, as a call starts (``who_asks``, the first
check of ``service.Door``): grpc stops naming a call's client once the call is over, so each read could otherwise
see another client ('').
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

import grpc

PEER_METADATA = "tp-peer"
CLUSTER_METADATA = "tp-cluster"  # another machine's front, proving itself with the cluster's secret (cluster.py)
FRONT_ONLY = frozenset({"CreateTable", "ListTables", "WatchTables", "GetGameRecord"})
GONE = "the call was over before it was served"
NOT_HERE = ("this is a worker's port, for the requests of its tables: make and list tables, and ask for games' "
            "records, at the server's address")


def _from_front(context: Any) -> bool:
    return str(context.peer()).startswith("unix:")


class _AsPeer:
    """A servicer context whose ``peer()`` is the client the front forwarded; all else is the real context's.
    ``by_front``: the front passed the call on (and charged its client's budget for it as it came in)."""

    __slots__ = ("_context", "_peer", "by_front")

    def __init__(self, context: Any, peer: str, by_front: bool = False) -> None:
        self._context = context
        self._peer = peer
        self.by_front = by_front

    def peer(self) -> str:
        return self._peer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


def _as_asked(context: Any, peer: str, by_front: bool = False) -> Any:
    """The context with its client fixed for the whole call. grpc names no client once a call is over (its
    deadline passed, or it was cancelled: ``peer()`` is then ''), at any moment, from its own threads: read
    once, at the start, the client is the same for every check and share of the call, and a call already over
    as it starts is not served (as a client named '' it would have had a share of its own)."""
    if not peer:
        context.set_code(grpc.StatusCode.CANCELLED)
        context.set_details(GONE)
        return None
    return _AsPeer(context, peer, by_front)


Asks = Callable[[Any], Any]
"""Given a call's context, the context with who asks fixed for the whole call, or None: the call is not served
(its status is set)."""


def _own(context: Any) -> Any:
    return _as_asked(context, context.peer())


def _forwarded(context: Any) -> Any:
    peer = context.peer()
    by_front = _from_front(context)
    if by_front:
        peer = next((str(value) for key, value in context.invocation_metadata() or () if key == PEER_METADATA), peer)
    return _as_asked(context, peer, by_front)


def by_front(context: Any) -> bool:
    """Whether the front passed this call on (a context ``who_asks`` gave): its client was charged there."""
    return getattr(context, "by_front", False)


def _from_machine(secret: Callable[[], str]) -> Asks:
    """The check of a front that other machines' fronts pass their clients' requests to (``serve --cluster``):
    the client they name is believed when the request carries the cluster's secret."""
    def check(context: Any) -> Any:
        peer = context.peer()
        known = secret()
        if known:
            metadata = dict(context.invocation_metadata() or ())
            proof = metadata.get(CLUSTER_METADATA)
            if isinstance(proof, str) and hmac.compare_digest(proof.encode(), known.encode()):
                peer = str(metadata.get(PEER_METADATA) or peer)
        return _as_asked(context, peer)
    return check


def _front_only(context: Any) -> Any:
    """The lobby's requests are the front's alone: a client at the worker's own port is refused."""
    if not _from_front(context):
        context.set_code(grpc.StatusCode.PERMISSION_DENIED)
        context.set_details(NOT_HERE)
        return None
    return _forwarded(context)


def who_asks(behind_front: bool = True, cluster_secret: Callable[[], str] | None = None) -> Callable[[str], Asks]:
    """How a server reads who asks, by a method's path: for a worker (``behind_front``) the client the front
    names (``PEER_METADATA``), the lobby's requests (``FRONT_ONLY``) answering the front alone; for a front of a
    cluster (``cluster_secret``: the secret other machines' fronts show) the client another machine's front names;
    else the connection's own."""
    if not behind_front:
        own = _own if cluster_secret is None else _from_machine(cluster_secret)
        return lambda method: own
    return lambda method: _front_only if method.rsplit("/", 1)[-1] in FRONT_ONLY else _forwarded
