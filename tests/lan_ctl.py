"""A test's hands inside a LAN host (``tests/netns.py``): the calls a test makes on a server it cannot reach
from the machine's own namespace. Each subcommand prints JSON lines (``{"at": ...}``) and exits 0, or
prints the server's words and exits 1.

  table    make a table (rules, timers, seed); prints its id and the host's token
  start    wait until every seat is filled, then start the game (the host's token)
  seats    follow one seat as the server shows it (connected, played by a bot) until the game ends
  history  a seat's whole history by its token (Subscribe from sequence 0): every sequence it may see
  join     take a seat and leave it (the decision timer plays it); prints its seat and token
  lobby    the server's lobby (ListTables): each table's id, status and last sequence; with --tables N, once it
           lists N, with --finished ID, once it shows that table finished (asked again until then)
  browse   look for a server by name on the LAN (mDNS, client.discovery) and say where it was found (once
           its record shows at least --tables tables)
  follow   (bench) time fresh connections to a first snapshot, then make a table with a server bot and
           follow a seat there as the terminal client does (its channel, SeatSession.follow), saying when
           the link goes and when the seat's stream is resumed
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from google.protobuf.json_format import MessageToDict

from tenpennies.client.connection import Connection, Link, ServerError
from tenpennies.client.trust import settle
from tenpennies.v2 import tenpennies_pb2 as pb


def say(at: str, **fields: Any) -> None:
    print(json.dumps({"at": at, "t": time.time(), **fields}), flush=True)


async def make_table(connection: Connection, args: argparse.Namespace) -> None:
    rounds = [int(r) for r in args.rounds.split(",")]
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=rounds, max_turns=args.max_turns))
    hosted = await connection.create_table(args.name, args.seats, rules, decision_seconds=args.decision,
                                           takeover_seconds=args.takeover, seed=args.seed)
    say("table", table_id=hosted.table_id, host_token=hosted.host_token)


async def start_when_full(connection: Connection, args: argparse.Namespace) -> None:
    give_up = time.monotonic() + args.timeout
    while True:
        reply = await connection.service.GetSnapshot(pb.GetSnapshotRequest(table_id=args.table))
        info = reply.snapshot.table
        if all(s.kind != pb.SEAT_KIND_EMPTY for s in info.seat_info) and len(info.seat_info) == info.seats:
            break
        if time.monotonic() > give_up:
            raise SystemExit(f"the table was not filled within {args.timeout} s: {MessageToDict(info)}")
        await asyncio.sleep(0.05)
    await connection.start(args.table, args.host_token)
    say("started", seats=[s.name for s in info.seat_info])


async def follow_seats(connection: Connection, args: argparse.Namespace) -> None:
    """Poll the table (a spectator's GetSnapshot) and say whenever a seat's state changes."""
    last: list[tuple[bool, bool]] | None = None
    give_up = time.monotonic() + args.timeout
    while time.monotonic() < give_up:
        reply = await connection.service.GetSnapshot(pb.GetSnapshotRequest(table_id=args.table))
        info = reply.snapshot.table
        now = [(s.connected, s.bot_playing) for s in info.seat_info]
        if now != last:
            say("seats", connected=[c for c, _ in now], bot_playing=[b for _, b in now],
                sequence=reply.snapshot.sequence)
            last = now
        if info.status == pb.TABLE_STATUS_FINISHED:
            say("finished", sequence=reply.snapshot.sequence)
            return
        await asyncio.sleep(args.every)
    raise SystemExit(f"the game did not end within {args.timeout} s")


async def history(connection: Connection, args: argparse.Namespace) -> None:
    """Everything the seat may see, from the start: the snapshot now, and each event's sequence and kind
    (for a finished game: its history ends with the game's end, which every seat sees)."""
    request = pb.SubscribeRequest(table_id=args.table, token=args.token, from_sequence=0)
    call = connection.service.Subscribe(request)
    snapshot: pb.Snapshot | None = None
    events: list[tuple[int, str]] = []
    try:
        async for message in call:
            if message.HasField("snapshot"):
                snapshot = message.snapshot
            else:
                events.extend((e.sequence, e.WhichOneof("kind") or "") for e in message.events.events)
            if snapshot is not None and events and (events[-1][0] >= snapshot.sequence
                                                    or events[-1][1] == "game_ended"):
                break
    finally:
        call.cancel()
    assert snapshot is not None
    game, own = snapshot.game, snapshot.game.ten_pennies
    say("history", sequence=snapshot.sequence, events=events, hand=sorted(c.id for c in game.hand),
        scores=[p.score for p in own.players], pennies=[p.pennies for p in own.players],
        phase=pb.Phase.Name(own.phase), status=pb.TableStatus.Name(snapshot.table.status))


async def join(connection: Connection, args: argparse.Namespace) -> None:
    seat = await connection.join(args.table, args.name)
    say("joined", seat=seat.seat, token=seat.token)


async def lobby(connection: Connection, args: argparse.Namespace) -> None:
    give_up = time.monotonic() + args.timeout
    while True:
        tables = await connection.tables()
        finished = not args.finished or any(t.table_id == args.finished and t.status == pb.TABLE_STATUS_FINISHED
                                            for t in tables)
        if (len(tables) >= args.tables and finished) or time.monotonic() > give_up:
            break
        await asyncio.sleep(0.1)
    say("lobby", tables={t.table_id: {"status": pb.TableStatus.Name(t.status), "sequence": t.last_sequence}
                         for t in tables})


async def browse(args: argparse.Namespace) -> None:
    """No server needed: the LAN is asked for ``--name``; prints when (and where) it was found."""
    from tenpennies.client.discovery import Browser
    began = time.time()
    async with Browser() as browser:
        say("browsing")
        server = await browser.until(lambda s: s.name == args.name and s.tables >= args.tables, args.timeout)
    say("found", name=server.name, address=server.address, tls=server.tls, tables=server.tables,
        seats_free=server.seats_free, began=began)


async def follow(connection: Connection, args: argparse.Namespace) -> None:
    from tenpennies.client.connection import Backoff
    from tenpennies.client.tui.app import ServerConnection
    from tenpennies.client.tui.common import RETRY_FIRST, RETRY_MOST

    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=100_000))
    hosted = await connection.create_table("bench", 2, rules, decision_seconds=1, takeover_seconds=0)
    seat = await connection.join(hosted.table_id, "follower")
    await connection.add_bot(hosted.table_id, hosted.host_token)
    await connection.start(hosted.table_id, hosted.host_token)
    fresh = []
    for _ in range(args.fresh):  # the baseline: a new connection's time to the seat's first snapshot
        began = time.perf_counter()
        other = ServerConnection(args.server, args.tls_ca, connection.pinned)
        async for _message in other.seat(hosted.table_id, seat.seat or 0, seat.token).stream():
            break
        fresh.append(time.perf_counter() - began)
        await other.close()
    say("fresh", seconds=fresh)
    # the terminal client's channel (keepalive, retries)
    terminal = ServerConnection(args.server, args.tls_ca, connection.pinned)
    session = terminal.seat(hosted.table_id, seat.seat or 0, seat.token)
    try:
        async for message in session.follow(Backoff(RETRY_FIRST, RETRY_MOST)):  # as the table screen does
            match message:
                case Link(up=up, reason=reason):
                    say("link", up=up, reason=reason)
                case pb.Snapshot(sequence=sequence):
                    say("snapshot", sequence=sequence)
    finally:
        await terminal.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", metavar="HOST:PORT", help="the server (all but browse)")
    parser.add_argument("--tls-ca", metavar="FILE")
    parser.add_argument("--fingerprint", metavar="SHA256:...", help="a TLS server's certificate, trusted")
    sub = parser.add_subparsers(dest="what", required=True)
    table = sub.add_parser("table")
    table.add_argument("--name", default="lan")
    table.add_argument("--seats", type=int, default=3)
    table.add_argument("--rounds", default="1")
    table.add_argument("--max-turns", type=int, default=30)
    table.add_argument("--decision", type=int, default=0)
    table.add_argument("--takeover", type=int, default=0)
    table.add_argument("--seed", type=int)
    table.set_defaults(run=make_table)
    start = sub.add_parser("start")
    start.add_argument("--table", required=True)
    start.add_argument("--host-token", required=True)
    # (the players and bots it waits for are processes started with it: in a fresh clone each compiles every
    # module it imports, and six of them on two cores once took more than 30 s to fill a table)
    start.add_argument("--timeout", type=float, default=90)
    start.set_defaults(run=start_when_full)
    seats = sub.add_parser("seats")
    seats.add_argument("--table", required=True)
    seats.add_argument("--every", type=float, default=0.1)
    seats.add_argument("--timeout", type=float, default=120)
    seats.set_defaults(run=follow_seats)
    hist = sub.add_parser("history")
    hist.add_argument("--table", required=True)
    hist.add_argument("--token", required=True)
    hist.set_defaults(run=history)
    listing = sub.add_parser("lobby")
    listing.add_argument("--tables", type=int, default=0)
    listing.add_argument("--finished", metavar="ID", default="")
    listing.add_argument("--timeout", type=float, default=20)
    joining = sub.add_parser("join")
    joining.add_argument("--table", required=True)
    joining.add_argument("--name", default="away")
    joining.set_defaults(run=join)
    listing.set_defaults(run=lobby)
    follower = sub.add_parser("follow")
    follower.add_argument("--fresh", type=int, default=10, help="fresh connections timed first")
    follower.set_defaults(run=follow)
    find = sub.add_parser("browse")
    find.add_argument("--name", required=True)
    find.add_argument("--tables", type=int, default=0, help="wait until its record shows this many tables")
    find.add_argument("--timeout", type=float, default=20)
    find.set_defaults(run=None)
    args = parser.parse_args()
    if args.what == "browse":
        asyncio.run(browse(args))
        return 0

    async def run() -> int:
        pinned = settle(args.server, args.fingerprint) if args.fingerprint else None
        connection = Connection(args.server, args.tls_ca, pinned=pinned)
        try:
            await args.run(connection, args)
        except ServerError as error:
            print(f"the server said: {error.message}", file=sys.stderr, flush=True)
            return 1
        finally:
            await connection.close()
        return 0

    return asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
