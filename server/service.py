"""The gRPC servicer: translate requests to table calls and table errors to status codes; and the fair share of
the server each client gets.

Fair by construction (``FairShare``, ``Admission``): every request of the game's service takes its turn before it
is parsed. The server works on at most ``IN_FLIGHT_PER_CLIENT`` requests of one client address at once (8); the
client's others wait in its own queue, at most ``WAITING_PER_CLIENT`` of them (1024), so that a client that sends
many at once waits behind its own requests while another client's is taken at once. When the server works on
``IN_FLIGHT`` requests of all clients (64), the next are taken from the clients' queues in turn, one of each
(round robin). A request's turn lasts until it is answered; a stream's until it is set up (a Play stream's
commands each take a turn of their own, as SendCommand does); waiting for a password's hash or the pause after a
wrong one holds the client's place but not the server's. With no limit per address (``--address-rate 0``: one
address may stand for many people) only the turns among all clients remain.

A request refused for its client is refused before it is parsed, and spends nothing of the client's budget:

- its client has ``WAITING_PER_CLIENT`` requests waiting already: RESOURCE_EXHAUSTED, ``BUSY`` ("too many requests
  from this client at once: wait for answers before sending more");
- its client's budget is spent (``RateLimiter``): RESOURCE_EXHAUSTED, ``TOO_MANY`` ("too many requests from this
  client: slow down").

Both carry the trailing ``tp-refusal: 1`` (``REFUSAL``), as every refusal the server words itself does. A Play
stream's command refused so gets a PlayResult with the same code and words."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import re
import time
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

import grpc

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import RuleError
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc
from tenpennies.wire.common import VISITOR_METADATA
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.frames import messages
from tenpennies.wire.games import wire
from tenpennies.wire.record import record_to_pb
from tenpennies.wire.words import STRATEGY_WORDS

from .budget import Buckets, SharedBuckets
from .forwarded import Asks, by_front
from .handlers import TURN, Entry, entered, settled
from .lobby import Lobby, TableWatcher
from .store import StoreError
from .table import (
    Conflict,
    DecisionRequired,
    Full,
    NotFound,
    NotThisSeats,
    PastTheEnd,
    PermissionDenied,
    Settings,
    Stale,
    StreamEnd,
    Subscriber,
    Table,
    TableError,
    Unauthenticated,
)
from .tournament import LinkEnd, Seating, Tournament

_MALFORMED = object()
log = logging.getLogger(__name__)
JOIN_MARGIN = 0.01
"""Seconds of its deadline a join must have left once its seat is made, for the token to reach the client in
time; with less, the seat is given back (a client whose deadline ran out would hold a seat it has no token of)."""


MALFORMED = "the request is not a well-formed message"


class RateLimiter:
    """What a client may spend: a token bucket per connection (the peer address and port name it) and one
    per client address (all its connections together), both charged a request's cost (1 for most; more
    for those that cost the server more, ``cost``), so that one client at its limit leaves the server to
    the others. A request refused spends nothing. ``shared``: the file of the address buckets every process
    of the server charges (``budget.SharedBuckets``; None: this process's own)."""

    def __init__(self, rate: float, burst: float, address_rate: float = 0, address_burst: float = 0,
                 shared: str | None = None) -> None:
        self.connections = Buckets(rate, burst)
        address_burst = address_burst or 2 * address_rate
        self.addresses: Buckets | SharedBuckets | None = None
        if address_rate:
            self.addresses = SharedBuckets(shared, address_rate, address_burst) if shared \
                else Buckets(address_rate, address_burst)

    def allow(self, peer: str, cost: float = 1.0) -> bool:
        now = time.monotonic()
        mine = self.connections.level(peer, now)
        if mine < cost or (self.addresses is not None
                           and not self.addresses.charge(client_address(peer), cost, now)):
            self.connections.take(peer, mine, now)
            return False
        self.connections.take(peer, mine - cost, now)
        return True

    def forget_idle(self) -> None:
        """Forget the clients (connections, addresses) idle long enough to have full buckets again."""
        now = time.monotonic()
        for buckets in (self.connections, self.addresses):
            if buckets is not None:
                buckets.forget_idle(now)

    def close(self) -> None:
        """Let the shared budgets' file go, if this process uses one."""
        if isinstance(self.addresses, SharedBuckets):
            self.addresses.close()


LIST_COST_TABLES = 20
"""A lobby's list costs one request per this many tables in it (beyond the first): measured, a list of 1000
tables took the server about as long as 50 refused lookups."""


def list_cost(tables: int) -> float:
    return 1.0 + tables / LIST_COST_TABLES


RECORD_COST = 20.0
"""What a ``GetGameRecord`` costs a client's budget (as a lobby list of 400 tables does): it reads a whole game
from the store (a few thousand commands), so that asking for records again and again cannot keep the store's
reader thread from the others."""


TOO_MANY = "too many requests from this client: slow down"
BUSY = "too many requests from this client at once: wait for answers before sending more"

IN_FLIGHT_PER_CLIENT = 8
"""Requests of one client address the server works on at once (``Admission``); its others wait in its own queue."""
WAITING_PER_CLIENT = 1024
"""Requests of one client address that may wait for their turn; one more is refused at once (``BUSY``). Room for
the people behind one address coming back all at once after a restart (160 seats' streams, each setting up in
turn); a flooder fills it only as fast as its budget lets it (it is charged as a request comes in)."""
IN_FLIGHT = 64
"""Requests of all clients the server works on at once; beyond, the clients' next requests are taken in turn."""


class Ticket:
    """One request's turn (``Admission``; a ``handlers.Turn``)."""

    __slots__ = ("_admission", "client", "_counted")

    def __init__(self, admission: Admission, client: str) -> None:
        self._admission: Admission | None = admission
        self.client = client
        self._counted = True  # among all clients' work (``Admission.running``)

    def release(self) -> None:
        admission, self._admission = self._admission, None
        if admission is not None:
            admission.release(self.client, self._counted)

    def aside(self) -> None:
        if self._admission is not None and self._counted:
            self._counted = False
            self._admission.aside()


class Admission:
    """Fair scheduling of requests among clients (keyed by address): the server works on at most ``per_client``
    requests of one client at once and ``slots`` of all clients together; a request beyond either waits in its
    client's own queue of at most ``waiting``, and one more is refused (``full``); 0: no such bound. The
    queues are served in turn (round robin), one request of each client that has one waiting, so that a
    client that sends many requests at once waits behind its own while another's single request is taken
    as soon as a slot is free. A request's turn is held until it is answered (a stream's: until it is set up).

    ``running`` and ``waiting`` tell what is under way, for the curious (tests count with them)."""

    def __init__(self, per_client: int = IN_FLIGHT_PER_CLIENT, waiting: int = WAITING_PER_CLIENT,
                 slots: int = IN_FLIGHT) -> None:
        self.per_client = per_client or math.inf
        self.waiting_max = waiting or math.inf
        self.slots = slots or math.inf
        self.running = 0
        self.in_flight: dict[str, int] = {}
        # each waiting client's turns to come, in order; one whose request gave up stays there (done) until it
        # comes up, so that giving up costs the same however long the queue: ``_waiting`` counts the live ones
        self._queues: dict[str, deque[asyncio.Future[Ticket]]] = {}
        self._waiting: dict[str, int] = {}
        self._turns: deque[str] = deque()  # clients with a request waiting only for a free slot, in turn
        self._in_turns: set[str] = set()

    def waiting(self, client: str) -> int:
        return self._waiting.get(client, 0)

    def full(self, client: str) -> bool:
        """Whether ``client`` has as many requests waiting as it may: one more is refused."""
        return self._waiting.get(client, 0) >= self.waiting_max

    def now(self, client: str) -> Ticket | None:
        """A turn at once if there is room and the client has none waiting before it; else None."""
        if self.running >= self.slots or client in self._waiting or self.in_flight.get(client, 0) >= self.per_client:
            return None
        return self._take(client)

    async def enter(self, client: str) -> Ticket | None:
        """The client's next turn (at once, or waited for), or None if its queue is ``full``."""
        if self.full(client):
            return None
        return self.now(client) or await self.wait(client)

    async def wait(self, client: str) -> Ticket:
        """The client's next turn, waited for in its queue (the caller saw that it is not ``full``)."""
        turn: asyncio.Future[Ticket] = asyncio.get_running_loop().create_future()
        queue = self._queues.get(client)
        if queue is None:
            queue = self._queues[client] = deque()
        queue.append(turn)
        self._waiting[client] = self._waiting.get(client, 0) + 1
        if self.in_flight.get(client, 0) < self.per_client:
            self._ready(client)
        self._next()
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given its turn as it was cancelled: pass it on
                turn.result().release()
            else:
                self._gave_up(client)
            raise

    def aside(self) -> None:
        """A request gives back its place among all clients' work, keeping its client's (``Ticket.aside``)."""
        self.running -= 1
        self._next()

    def release(self, client: str, counted: bool = True) -> None:
        self.running -= counted
        left = self.in_flight[client] - 1
        if left:
            self.in_flight[client] = left
        else:
            del self.in_flight[client]
        if client in self._waiting:
            self._ready(client)
        self._next()

    def _take(self, client: str) -> Ticket:
        self.running += 1
        self.in_flight[client] = self.in_flight.get(client, 0) + 1
        return Ticket(self, client)

    def _ready(self, client: str) -> None:
        if client not in self._in_turns:
            self._in_turns.add(client)
            self._turns.append(client)

    def _gave_up(self, client: str) -> None:
        """One of the client's waiting requests gave up (its turn, cancelled, is passed over when it comes up)."""
        left = self._waiting[client] - 1
        if left:
            self._waiting[client] = left
        else:  # (none alive: the queue goes, with the turns of those that gave up)
            del self._waiting[client]
            del self._queues[client]

    def _next(self) -> None:
        """Give the free slots to the clients waiting, one request of each in turn."""
        while self.running < self.slots and self._turns:
            client = self._turns.popleft()
            self._in_turns.discard(client)
            if client not in self._waiting or self.in_flight.get(client, 0) >= self.per_client:
                continue  # (nothing waits; or it is at its own bound: its release puts it in turn again)
            queue = self._queues[client]
            while queue and queue[0].done():  # (its request gave up)
                queue.popleft()
            if not queue:  # (all gave up; their tasks, not yet told, will count them out)
                continue
            turn = queue.popleft()
            left = self._waiting[client] - 1
            if left:
                self._waiting[client] = left
                self._ready(client)
            else:
                del self._waiting[client]
                del self._queues[client]
            turn.set_result(self._take(client))


def charged() -> bool:
    """Whether this call's cost was charged to its client's budget as it came in (``FairShare``)."""
    return TURN.get() is not None


class FairShare:
    """Every request of the game's service (``service``: its methods' paths begin so) takes its turn
    (``Admission``) before it is parsed or served: refused at once, before any parsing, when its client has
    ``WAITING_PER_CLIENT`` requests waiting already (RESOURCE_EXHAUSTED, ``BUSY``) or when its budget is spent
    (RESOURCE_EXHAUSTED, ``TOO_MANY``), the request's cost charged here (``cost``: by the method's name) and not
    again by the handler (``charged``); at a worker, a call the front passed on is not charged again. Both
    refusals spend nothing of the budget and carry ``REFUSAL``."""

    def __init__(self, admission: Admission, limiter: RateLimiter, cost: Callable[[str], float],
                 service: str = f"/{pb.DESCRIPTOR.services_by_name['TenPenniesService'].full_name}/") -> None:
        self.admission = admission
        self.limiter = limiter
        self.cost = cost
        self.service = service

    async def turn(self, method: str, context: Any) -> Ticket | None:
        """The turn of a call of ``method`` (its name), or None: refused (its status set)."""
        peer = context.peer()
        client = client_address(peer)
        admission = self.admission
        if admission.full(client):
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, BUSY)
            return None
        # (a call the front passed on was charged there, to the budget the front and its workers share)
        if not by_front(context) and not self.limiter.allow(peer, self.cost(method)):
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
            return None
        return admission.now(client) or await admission.wait(client)


class Door(grpc.aio.ServerInterceptor):  # type: ignore[misc]  # grpc is untyped
    """The way every call comes in, three checks before its handler, in this order:

    1. who asks, read once as the call starts (``asks``, by the method's path: ``forwarded.who_asks``), so that a
       worker behind a front serves, limits and takes turns by the front's clients;
    2. its turn (``fair``, for the game's service's calls), before its request is parsed: a call refused costs
       no parse;
    3. its request parses: one that does not gets INVALID_ARGUMENT (grpc's default would be UNKNOWN); on a
       stream of requests, a message that does not parse is refused by itself (``_MALFORMED`` reaches the
       handler). A stream may yield bytes already serialised (``wire.frames``): they are written as they are.

    A handler that reads its requests as bytes itself (no deserializer: the front's) gets the first two. Each
    method's handler is made once."""

    def __init__(self, asks: Callable[[str], Asks], fair: FairShare | None = None) -> None:
        self.asks = asks
        self.fair = fair
        self._handlers: dict[str, Any] = {}

    async def intercept_service(self, continuation: Any, details: Any) -> Any:
        made = self._handlers.get(details.method)
        if made is not None:
            return made
        handler = await continuation(details)
        if handler is None:
            return None
        made = self._handlers[details.method] = self._made(details.method, handler)
        return made

    def _made(self, method: str, handler: Any) -> Any:
        asks = self.asks(method)
        fair = self.fair
        gate = None if fair is None or not method.startswith(fair.service) else \
            functools.partial(fair.turn, method[len(fair.service):])
        parse = handler.request_deserializer
        serialize = handler.response_serializer
        if parse is None:  # (bytes in, as the handler takes them; and out as it gives them)
            return entered(handler, _entry(asks, gate, None), None, serialize)

        def safe_parse(data: bytes) -> Any:
            try:
                return parse(data)
            except Exception:
                return _MALFORMED

        def as_is(message: Any) -> bytes:
            return message if isinstance(message, bytes) else serialize(message)

        if handler.request_streaming:  # (parsed by grpc message by message: one that does not parse is the handler's)
            return entered(handler, _entry(asks, gate, None), safe_parse, as_is)
        return entered(handler, _entry(asks, gate, safe_parse), None,
                       as_is if handler.response_streaming else serialize)


def _entry(asks: Asks, gate: Callable[[Any], Awaitable[Ticket | None]] | None,
           parse: Callable[[bytes], Any] | None) -> Entry:
    """``Door``'s checks of one method's calls: who asks, the call's turn (``gate``, if any), and its request
    parsed after it (``parse``: a single request's, read as bytes)."""
    async def entry(request: Any, context: Any) -> tuple[Any, Any, Ticket | None] | None:
        asked = asks(context)
        if asked is None:
            return None
        turn = None
        if gate is not None:
            turn = await gate(asked)
            if turn is None:
                return None
        if parse is not None:
            request = parse(request)
            if request is _MALFORMED:
                asked.set_code(grpc.StatusCode.INVALID_ARGUMENT)
                asked.set_details(MALFORMED)
                if turn is not None:
                    turn.release()
                return None
        return request, asked, turn
    return entry


@functools.lru_cache(maxsize=4096)  # (asked on every request: a client's peer comes back again and again)
def client_address(peer: str) -> str:
    """The client's address without its port ("ipv4:10.0.0.7:51234" -> "ipv4:10.0.0.7")."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer


VISITOR = re.compile(r"[A-Za-z0-9_-]{1,64}")


def client_of(context: Any) -> str:
    """Who asks, for the shares one client may hold: its address, and the visitor it speaks for if it names
    one (``tenpennies web``'s clients, all at the web machine's address: ``ipv4:10.0.0.7#visitor``)."""
    address = client_address(context.peer())
    visitor = next((str(value) for key, value in context.invocation_metadata() or () if key == VISITOR_METADATA), "")
    return f"{address}#{visitor}" if VISITOR.fullmatch(visitor) else address


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
        case PastTheEnd():
            return grpc.StatusCode.OUT_OF_RANGE
        case BadRequest():
            return grpc.StatusCode.INVALID_ARGUMENT
        case _:  # Unavailable, StoreError
            return grpc.StatusCode.UNAVAILABLE


# Trailing metadata on every refusal the server words itself, so that a client tells it from a link's trouble
# of the same status code (UNAVAILABLE: "the server could not store that change", or no server at all).
REFUSAL = ("tp-refusal", "1")


def _refuse(context: grpc.aio.ServicerContext, code: grpc.StatusCode, message: str,
            trailing: tuple[tuple[str, str], ...] = ()) -> None:
    """End the call with ``code`` once the handler returns (None). Not ``context.abort``: its exception,
    held by grpc's call state, leaves a cycle of frames for the garbage collector on every refusal, and a
    client refused hundreds of times a second made the collector stall the server. Marked as
    the server's own words (``REFUSAL``)."""
    context.set_code(code)
    context.set_details(message)
    context.set_trailing_metadata((*trailing, REFUSAL))


def _refusal(context: grpc.aio.ServicerContext, error: Exception, rule_code: grpc.StatusCode) -> None:
    _refuse(context, *_refused(error, rule_code))


def _refused(error: Exception, rule_code: grpc.StatusCode
             ) -> tuple[grpc.StatusCode, str, tuple[tuple[str, str], ...]]:
    """A refusal's status code, words and trailing metadata (the rule a command breaks, the decision open now)."""
    if isinstance(error, RuleError):
        return rule_code, str(error), (("tp-rule", error.rule),)
    if isinstance(error, Stale):
        return grpc.StatusCode.ABORTED, str(error), (("tp-decision", str(error.open)),)
    if isinstance(error, NotThisSeats | DecisionRequired):
        return _status(error), str(error), (("tp-decision", str(error.open)),)
    return _status(error), str(error), ()


def _result(command_id: int, code: grpc.StatusCode, message: str,
            trailing: tuple[tuple[str, str], ...] = ()) -> pb.PlayResult:
    """A Play stream's refusal of one command: what SendCommand would end with, as a PlayResult."""
    result = pb.PlayResult(id=command_id, code=code.value[0], message=message)
    for key, value in trailing:
        if key == "tp-rule":
            result.rule = value
        elif key == "tp-decision":
            result.open_decision = int(value)
    return result


_REFUSED = (RuleError, BadRequest, TableError, StoreError)


def _rpc(rule_code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION) -> Callable[[Any], Any]:
    """Rate-limit a unary RPC and map the errors it may raise to status codes."""
    def wrap(method: Any) -> Any:
        @functools.wraps(method)
        async def handler(self: TournamentServicer, request: Any, context: grpc.aio.ServicerContext) -> Any:
            if not charged() and not self.limiter.allow(context.peer(), self._cost(method.__name__)):
                _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
                return None
            try:
                return await method(self, request, context)
            except _REFUSED as error:
                _refusal(context, error, rule_code)
            return None
        return handler
    return wrap


def _seat(message: Any) -> int | None:
    return message.seat if message.HasField("seat") else None


def _past_the_end(after: int, last: int) -> PastTheEnd:
    return PastTheEnd(f"from_sequence {after} is past this table's last event ({last}): resume from the sequence "
                      "of the last event you received, or leave from_sequence unset for a snapshot alone")


CLOSED = "the host closed this table before its game started"
FELL_BEHIND = "this stream fell too far behind: subscribe again from the last sequence number you received"


async def _stream(subscriber: Subscriber, context: Any) -> AsyncIterator[bytes]:
    """A subscriber's live messages, as bytes: whatever waits in its queue goes out as one message (one
    change's events and the result of the command that made it, or several changes' events joined into one
    batch when the stream is behind: ``frames.joined``), so a seat gets one write per change. Ends when its
    queue says so."""
    queue = subscriber.queue
    while True:
        batches: list[bytes] = []
        results: list[pb.PlayResult] = []
        end: StreamEnd | None = None
        for item in await queue.take_all():
            if isinstance(item, StreamEnd):
                end = item
                break
            if isinstance(item, bytes):
                batches.append(item)
            else:
                results.append(item)
        if batches or results:
            for message in messages(batches, results):
                yield message
        if end is StreamEnd.SEAT_LEFT:
            return
        if end is StreamEnd.FELL_BEHIND:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, FELL_BEHIND)
            return
        if end is StreamEnd.CLOSED:
            await context.abort(grpc.StatusCode.NOT_FOUND, CLOSED)
            return


class TournamentServicer:
    """The tournament's RPCs (``RegisterBot``, ``GetStandings``, ``WaitForSeat``): a one-process server's
    servicer has them, and the front of ``serve --workers`` serves them with its own tournament."""

    def __init__(self, limiter: RateLimiter, tournament: Tournament | None = None) -> None:
        self.limiter = limiter
        self.tournament = tournament

    def _cost(self, method: str) -> float:
        return 1.0

    def _tournament(self, name: str) -> Tournament:
        """The tournament this server runs, by its name (empty: whichever it is)."""
        if self.tournament is None:
            raise NotFound("this server runs no tournament (it is started with --tournament CONFIG for one)")
        if name and name != self.tournament.name:
            raise NotFound(f"no tournament {name!r} here (this server runs {self.tournament.name!r})")
        return self.tournament

    @_rpc()
    async def RegisterBot(self, request: pb.RegisterBotRequest, context: Any) -> pb.RegisterBotResponse:
        token = await self._tournament(request.tournament).register(request.name, request.bot_token,
                                                                    client_address(context.peer()))
        return pb.RegisterBotResponse(bot_token=token)

    @_rpc()
    async def GetStandings(self, request: pb.GetStandingsRequest, context: Any) -> pb.GetStandingsResponse:
        report = self._tournament(request.tournament).report()
        response = pb.GetStandingsResponse(tournament=report.name, games_played=report.games_played,
                                           games_total=report.games_total, games_playing=report.games_playing,
                                           game=report.game, tallies=report.tallies)
        for record in report.records:
            standing = response.standings.add(name=record.name, games=record.games, wins=round(record.wins),
                                              shared_wins=record.wins, rating_mu=record.rating_mu,
                                              rating_sigma=record.rating_sigma,
                                              mean_score_margin=record.mean_score_margin or 0.0,
                                              illegal=record.illegal, timed_out=record.timeouts,
                                              tallies=record.tallies)
            if record.mean_score is not None:
                standing.mean_score = record.mean_score
        return response

    async def WaitForSeat(self, request: pb.WaitForSeatRequest, context: Any
                          ) -> AsyncIterator[pb.WaitForSeatResponse]:
        """The seats of the bot's games being played, then each new seat as it is given."""
        if not charged() and not self.limiter.allow(context.peer()):
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
            return
        try:
            tournament = self._tournament("")
            seatings, link = tournament.connect(request.bot_token)
        except _REFUSED as error:
            _refusal(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return
        settled()  # (its first seat may be long in coming)

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


class Watched(Protocol):
    """A lobby that tells its changes: one process's (``lobby.Lobby``), or a front's over its workers."""

    def watch(self, client: str) -> tuple[list[pb.TableInfo], TableWatcher]: ...

    def unwatch(self, watcher: TableWatcher) -> None: ...


async def watch_tables(lobby: Watched, limiter: RateLimiter, cost: Callable[[str], float], context: Any
                       ) -> AsyncGenerator[pb.WatchTablesResponse, None]:
    """WatchTables over ``lobby``: every table, then the changes as they come."""
    if not charged() and not limiter.allow(context.peer(), cost("WatchTables")):
        _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
        return
    try:
        tables, watcher = lobby.watch(client_of(context))
    except Full as error:
        _refusal(context, error, grpc.StatusCode.FAILED_PRECONDITION)
        return
    try:
        yield pb.WatchTablesResponse(tables=tables)
        while True:
            changed, removed = await watcher.next()
            yield pb.WatchTablesResponse(tables=changed, removed=removed)
    finally:
        lobby.unwatch(watcher)


def request_cost(method: str, tables: int) -> float:
    """What a request costs a client's budget, by its method's name: most 1, a list of the lobby by the
    ``tables`` in it, a game's record ``RECORD_COST``."""
    if method == "GetGameRecord":
        return RECORD_COST
    return list_cost(tables) if method in ("ListTables", "WatchTables") else 1.0


class _NoTurn:
    """The turn of a server that takes no turns (no ``Admission``)."""

    def release(self) -> None:
        pass


class TenPenniesServicer(TournamentServicer, pb_grpc.TenPenniesServiceServicer):
    """The game's RPCs. With an ``admission``, a Play stream's commands each take their turn among the
    requests of all clients, as a SendCommand does (``FairShare``)."""

    def __init__(self, lobby: Lobby, limiter: RateLimiter, tournament: Tournament | None = None,
                 admission: Admission | None = None) -> None:
        super().__init__(limiter, tournament)
        self.lobby = lobby
        self.admission = admission

    def _cost(self, method: str) -> float:
        return request_cost(method, len(self.lobby.tables))

    async def _enter(self, peer: str) -> Ticket | _NoTurn | None:
        """A turn for work a stream asks of the server (``Admission``); None: its client has too many waiting."""
        if self.admission is None:
            return _NoTurn()
        return await self.admission.enter(client_address(peer))

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
            request.seed if request.HasField("seed") else None, client_of(context),
            password=request.password, game=game, client=context.peer())  # a private table: only its hash is kept
        return pb.CreateTableResponse(table=table.info(), host_token=host_token)

    @_rpc()
    async def ListTables(self, request: pb.ListTablesRequest, context: Any) -> pb.ListTablesResponse:
        return pb.ListTablesResponse(tables=[t.info() for t in self.lobby.listed()])

    async def WatchTables(self, request: pb.WatchTablesRequest, context: Any
                          ) -> AsyncIterator[pb.WatchTablesResponse]:
        async with contextlib.aclosing(watch_tables(self.lobby, self.limiter, self._cost, context)) as responses:
            async for response in responses:  # (closed with the handler: the lobby stream's share is given back)
                yield response

    @_rpc()
    async def JoinTable(self, request: pb.JoinTableRequest, context: Any) -> pb.JoinTableResponse | None:
        table = await self.lobby.get(request.table_id)
        seat, token = await table.join(request.name, _seat(request), password=request.password,
                                       client=context.peer())
        left = context.time_remaining()
        if left is not None and left < JOIN_MARGIN:  # the token would come too late to be read: no seat
            await table.unjoin(token)
            _refuse(context, grpc.StatusCode.DEADLINE_EXCEEDED,
                    "too little of this request's deadline was left to hand over the seat: none was taken")
            return None
        return pb.JoinTableResponse(seat=seat, token=token)

    @_rpc()
    async def LeaveTable(self, request: pb.LeaveTableRequest, context: Any) -> pb.LeaveTableResponse:
        await (await self.lobby.get(request.table_id)).leave(request.token)
        return pb.LeaveTableResponse()

    @_rpc()
    async def AddBot(self, request: pb.AddBotRequest, context: Any) -> pb.AddBotResponse:
        table = await self.lobby.get(request.table_id)
        # unset: the game's own default bot (the one that takes over a gone player, ``Kind.takeover``)
        strategy = table.kind.takeover if not request.strategy else STRATEGY_WORDS.get(request.strategy)
        if strategy is None:
            raise BadRequest(f"unknown bot strategy {request.strategy}")
        return pb.AddBotResponse(seat=await table.add_bot(request.host_token, _seat(request), strategy))

    @_rpc()
    async def RemoveSeat(self, request: pb.RemoveSeatRequest, context: Any) -> pb.RemoveSeatResponse:
        seat = _seat(request)
        if seat is None:
            raise BadRequest("say which seat to empty (seat)")
        await (await self.lobby.get(request.table_id)).remove_seat(request.host_token, seat)
        return pb.RemoveSeatResponse()

    @_rpc()
    async def CloseTable(self, request: pb.CloseTableRequest, context: Any) -> pb.CloseTableResponse:
        await self.lobby.close_waiting(request.table_id, request.host_token)
        return pb.CloseTableResponse()

    @_rpc()
    async def StartGame(self, request: pb.StartGameRequest, context: Any) -> pb.StartGameResponse:
        table = await self.lobby.get(request.table_id)
        await table.start(request.host_token)
        return pb.StartGameResponse(table=table.info())

    @_rpc()
    async def SendCommand(self, request: pb.SendCommandRequest, context: Any) -> pb.SendCommandResponse:
        table = await self.lobby.get(request.table_id)
        return pb.SendCommandResponse(sequence=await table.command(request.token, request.command,
                                                                   request.decision))

    @_rpc()
    async def GetSnapshot(self, request: pb.GetSnapshotRequest, context: Any) -> pb.GetSnapshotResponse:
        table = await self.lobby.get(request.table_id)
        return pb.GetSnapshotResponse(snapshot=await table.snapshot(request.token, request.password,
                                                                    context.peer()))

    @_rpc()
    async def SendChat(self, request: pb.SendChatRequest, context: Any) -> pb.SendChatResponse:
        table = await self.lobby.get(request.table_id)
        return pb.SendChatResponse(sequence=await table.chat(request.token, request.name, request.text,
                                                             request.password, context.peer()))

    @_rpc()
    async def GetGameRecord(self, request: pb.GetGameRecordRequest, context: Any) -> pb.GetGameRecordResponse:
        table = await self.lobby.get(request.table_id)
        running = self.tournament is not None and table.tournament == self.tournament.name and not self.tournament.over
        record = await table.record(request.token, request.password, context.peer(), tournament_running=running)
        return pb.GetGameRecordResponse(record=record_to_pb(record))

    async def Subscribe(self, request: pb.SubscribeRequest, context: Any  # type: ignore[override]
                        ) -> AsyncIterator[pb.SubscribeResponse | bytes]:  # (bytes go out as they are)
        """The snapshot; then, when resuming, the events after ``from_sequence`` that it reflects, a page
        at a time; then the live events."""
        if not charged() and not self.limiter.allow(context.peer()):
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
            return
        try:
            table = await self.lobby.get(request.table_id)
            if request.HasField("from_sequence") and request.from_sequence > table.seq:
                raise _past_the_end(request.from_sequence, table.seq)  # before subscribing: nothing changes
            snapshot, subscriber = await table.subscribe(request.token, request.password, context.peer())
        except _REFUSED as error:
            _refusal(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return
        try:
            yield pb.SubscribeResponse(snapshot=snapshot)
            if request.HasField("from_sequence"):
                async for page in table.history(subscriber.seat, request.from_sequence, snapshot.sequence):
                    yield page  # (a SubscribeResponse's bytes)
            async for message in _stream(subscriber, context):
                yield message
        finally:
            table.unsubscribe(subscriber)

    async def Play(self, requests: AsyncIterator[Any], context: Any  # type: ignore[override]
                   ) -> AsyncIterator[pb.PlayResponse | bytes]:  # (bytes go out as they are)
        """A seat's stream with its commands on it: opened by the first request as Subscribe is by its one
        (the snapshot, the events after ``from_sequence``, then live), while each command that comes up is
        applied as SendCommand applies it, in the order sent, its result queued with the events it caused. No turn
        (``Admission``) is held while the stream waits for the client: its setting up takes one once its first
        message is in, and each command one of its own."""
        peer = context.peer()
        if not charged() and not self.limiter.allow(peer):
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY)
            return
        settled()  # the client's first message may be long in coming: no turn is held meanwhile
        first = await anext(aiter(requests), None)
        if first is None:
            return
        if first is _MALFORMED:
            _refuse(context, grpc.StatusCode.INVALID_ARGUMENT, MALFORMED)
            return
        turn = await self._enter(peer)  # the stream's setting up, in its turn
        if turn is None:
            _refuse(context, grpc.StatusCode.RESOURCE_EXHAUSTED, BUSY)
            return
        try:
            table = await self.lobby.get(first.table_id)
            if first.HasField("from_sequence") and first.from_sequence > table.seq:
                raise _past_the_end(first.from_sequence, table.seq)  # before subscribing: nothing changes
            snapshot, subscriber = await table.subscribe(first.token, first.password, peer)
        except _REFUSED as error:
            _refusal(context, error, grpc.StatusCode.FAILED_PRECONDITION)
            return
        finally:
            turn.release()
        commands = asyncio.ensure_future(self._play_commands(table, subscriber, first, requests, peer))
        try:
            yield pb.PlayResponse(snapshot=snapshot)
            if first.HasField("from_sequence"):
                async for page in table.history(subscriber.seat, first.from_sequence, snapshot.sequence):
                    yield page  # (a PlayResponse's bytes: the events field is SubscribeResponse's)
            async for message in _stream(subscriber, context):
                yield message
        finally:
            commands.cancel()
            table.unsubscribe(subscriber)

    async def _play_commands(self, table: Table, subscriber: Subscriber, first: pb.PlayRequest,
                             requests: AsyncIterator[Any], peer: str) -> None:
        """Apply the commands that come up a Play stream, one at a time, each charged to the client's
        budget and taking its turn like a SendCommand (refused as ``BUSY`` when the client has too many requests
        waiting); each one's result goes on the stream."""
        request: Any = first
        iterator = aiter(requests)
        while True:
            if request is _MALFORMED:
                if self.limiter.allow(peer):
                    table.tell(subscriber, _result(0, grpc.StatusCode.INVALID_ARGUMENT, MALFORMED))
            elif request.HasField("command") or request is not first:
                command_id = request.id
                if self.admission is not None and self.admission.full(client_address(peer)):
                    table.tell(subscriber, _result(command_id, grpc.StatusCode.RESOURCE_EXHAUSTED, BUSY))
                elif not self.limiter.allow(peer):
                    table.tell(subscriber, _result(command_id, grpc.StatusCode.RESOURCE_EXHAUSTED, TOO_MANY))
                elif request.table_id and request.table_id != first.table_id:
                    table.tell(subscriber, _result(command_id, grpc.StatusCode.INVALID_ARGUMENT,
                                                   "a Play stream is one table's: open another for that table"))
                elif not request.HasField("command"):
                    table.tell(subscriber, _result(command_id, grpc.StatusCode.INVALID_ARGUMENT,
                                                   "say a command (command)"))
                else:
                    turn = await self._enter(peer)  # (not full: nothing came in between)
                    try:
                        await self._play_one(table, subscriber, first.token, request)
                    finally:
                        if turn is not None:
                            turn.release()
            try:
                request = await anext(iterator, None)
            except (grpc.RpcError, grpc.aio.AbortError, grpc.aio.UsageError):  # the call is going away
                return
            if request is None:
                return  # the client sends no more commands; its stream goes on

    async def _play_one(self, table: Table, subscriber: Subscriber, token: str, request: pb.PlayRequest) -> None:
        command_id = request.id

        def accepted(sequence: int) -> None:
            table.tell(subscriber, pb.PlayResult(id=command_id, sequence=sequence))
        try:
            await table.command(token, request.command, request.decision, accepted, named=True)
        except _REFUSED as error:
            table.tell(subscriber, _result(command_id, *_refused(error, grpc.StatusCode.FAILED_PRECONDITION)))
        except Exception:  # a fault of the server's: said to this command, and the stream goes on
            log.exception("a command on a Play stream failed")
            table.tell(subscriber, _result(command_id, grpc.StatusCode.INTERNAL, "the server failed on this command"))
