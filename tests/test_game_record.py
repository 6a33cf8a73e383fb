"""A finished game's record from a server (``GetGameRecord``, ``Connection.game_record``), on a real server on
loopback: the same game the store keeps, replayable to its end; refused, in words, for a game not finished, a
private table without its password, and a tournament's game while the tournament runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import Connection, SeatSession, ServerError, open_channel, stub
from tenpennies.engine.games import kind
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules
from tenpennies.server.app import Server
from tenpennies.server.store import read_game
from tenpennies.server.tournament import Tournament
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping
from tenpennies.wire import thirty_one
from tenpennies.wire.record import record_from_pb, record_to_pb

from serverkit import ThinClient
from test_tournament_server import Bot, start_server, until, write_config

RULES = HouseRules(max_turns=20, rounds=(1, 2))


async def refused(call: object) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await call  # type: ignore[misc]
    return caught.value


async def bots_game(connection: Connection, game: str = "", rules: pb.HouseRules | None = None,
                    password: str = "") -> str:
    """A seeded table of three built-in bots, played to its end (watched until its last event)."""
    table = await connection.create_table("recorded", 3, rules or mapping.rules_to_pb(RULES), seed=7,
                                          decision_seconds=0, takeover_seconds=0, game=game, password=password)
    for _ in range(3):
        await connection.add_bot(table.table_id, table.host_token, kind(game or "ten_pennies").takeover)
    watcher = connection.spectate(table.table_id, password)
    await connection.start(table.table_id, table.host_token)
    async for message in watcher.stream():
        if isinstance(message, pb.Event) and message.WhichOneof("kind") in ("game_ended", "thirty_one_game_ended"):
            break
        if isinstance(message, pb.Snapshot) and message.table.status == pb.TABLE_STATUS_FINISHED:
            break
    return table.table_id


async def test_a_finished_games_record_is_the_stored_game(server: Server, connection: Connection) -> None:
    table_id = await bots_game(connection)
    record = await connection.game_record(table_id)
    stored = read_game(server.options.db, table_id)
    assert (record.table_id, record.name, record.seats, record.seed, record.status, record.game) == \
        (table_id, "recorded", 3, 7, "finished", "ten_pennies")
    assert record.rules == stored.rules == RULES and record.names == stored.names and record.names[0]
    assert record.commands == stored.commands and len(record.commands) > 20
    assert record.events == []  # the table's stored events stay on the server
    game = kind(record.game).new(record.seats, record.rules, record.seed)
    for command in record.commands:
        game.apply(command)
    assert game.over
    assert record_from_pb(record_to_pb(stored)).commands == stored.commands


async def test_a_thirty_one_record(connection: Connection) -> None:
    rules = ThirtyOneRules()
    table_id = await bots_game(connection, "thirty_one", thirty_one.rules_to_pb(rules))
    record = await connection.game_record(table_id)
    assert record.game == "thirty_one" and record.rules == rules
    game = kind("thirty_one").new(3, record.rules, record.seed)
    for command in record.commands:
        game.apply(command)
    assert game.over


async def test_a_game_not_finished_has_no_record_yet(connection: Connection) -> None:
    table = await connection.create_table("unfinished", 3, mapping.rules_to_pb(RULES), decision_seconds=0,
                                          takeover_seconds=0)
    waiting = await refused(connection.game_record(table.table_id))
    assert waiting.code() == grpc.StatusCode.FAILED_PRECONDITION and "has not started" in waiting.message
    session = await connection.join(table.table_id, "ann")
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    await connection.start(table.table_id, table.host_token)
    playing = await refused(connection.game_record(table.table_id))
    assert playing.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "still being played" in playing.message and "once the game is finished" in playing.message
    playing = await refused(connection.game_record(table.table_id, token=session.token))
    assert "still being played" in playing.message  # not even for a seat of its own
    missing = await refused(connection.game_record("nosuchtable"))
    assert missing.code() == grpc.StatusCode.NOT_FOUND


async def test_a_private_tables_record_needs_its_password(connection: Connection) -> None:
    table_id = await bots_game(connection, password="sesame street")
    denied = await refused(connection.game_record(table_id))
    assert denied.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in denied.message
    record = await connection.game_record(table_id, password="sesame street")
    assert record.status == "finished" and record.commands


@contextlib.asynccontextmanager
async def tournament_played(tmp_path: Path, db: str, bot: type[Bot], **settings: Any
                            ) -> AsyncIterator[tuple[Tournament, Connection]]:
    """A tournament server (``write_config``'s cup with ``settings``), three bots of ``bot`` playing it, and a
    client's connection to it; all stopped on the way out."""
    server = await start_server(tmp_path / db, write_config(tmp_path, **settings))
    runs = [asyncio.ensure_future(bot(f"bot{i}", seed=i).run(f"127.0.0.1:{server.port}")) for i in range(3)]
    connection = Connection(f"127.0.0.1:{server.port}")
    try:
        assert server.tournament is not None
        yield server.tournament, connection
    finally:
        for run in runs:
            run.cancel()
        await asyncio.gather(*runs, return_exceptions=True)
        await connection.close()
        await server.stop(0)


async def test_a_tournaments_game_has_no_record_while_the_tournament_runs(tmp_path: Path) -> None:
    """Three bots play the first of two games; nobody plays the second (its timers are long), so the
    tournament runs on: the first game's record is refused. A tournament of one game, once over, gives it."""
    async with tournament_played(tmp_path, "cup.db", FirstGameOnly, games=2, decision_seconds=600,
                                 takeover_seconds=600) as (tournament, connection):
        async def first_finished() -> bool:
            return tournament.finished >= 1

        await until(first_finished, "the first game to finish")
        first = next(row.table_id for row in tournament.games.values() if row.result is not None)
        running = await refused(connection.game_record(first))
        assert running.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "tournament 'cup', still running" in running.message and "other games" in running.message

    async with tournament_played(tmp_path, "cup1.db", Bot, games=1) as (tournament, connection):
        async def over() -> bool:
            return tournament.over

        await until(over, "the tournament to end")
        only = next(iter(tournament.games.values())).table_id
        record = await connection.game_record(only)
        assert record.status == "finished" and record.commands


class FirstGameOnly(Bot):
    """Plays the first seat it is given, and leaves the seats of later games alone."""

    async def run(self, address: str) -> None:
        channel = open_channel(address)
        service = stub(channel)
        try:
            reply = await service.RegisterBot(pb.RegisterBotRequest(tournament="cup", name=self.name))
            call = service.WaitForSeat(pb.WaitForSeatRequest(bot_token=reply.bot_token))
            async for seating in call:
                self.seatings.append(seating)
                if len(self.seatings) == 1:
                    session = SeatSession(service, seating.table_id, seating.seat, seating.token)
                    await ThinClient(session, seed=self.seed).play()
        finally:
            await channel.close()
