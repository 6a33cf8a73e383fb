"""Fair under load (issue 18): no client can slow, lock out or crowd out the others. Each test runs a real
server on a loopback port with a real SQLite file and many clients, and fails on the server as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import grpc

from tenpennies.client.connection import ServerError, join
from tenpennies.server.app import Options, Server
from tenpennies.v1 import tenpennies_pb2 as pb

from serverkit import Service

LATE = 1.4  # seconds a late client takes to answer a 1 s timer


async def running_server(path: Path, **options: Any) -> Server:
    server = Server(Options(port=0, db=str(path), allow_seeds=True, **options))
    await server.start()
    return server


def _late_choice(legal: list[pb.Command]) -> pb.Command:
    """What a greedy client answers: buy when offered, take the discard, else the first command listed."""
    kinds = {c.WhichOneof("kind"): c for c in legal}
    return kinds.get("buy") or kinds.get("take_discard") or legal[0]


# --- late answers ------------------------------------------------------------------------------------------

async def test_an_answer_the_timer_beat_is_refused_as_stale_never_counted_illegal_nor_applied_to_a_newer_question(
        server: Server, service: Service) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="late", seats=3, seed=11, settings=pb.TableSettings(decision_seconds=1, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    session = await join(service, table_id, "late client", 0)
    for seat in (1, 2):
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=seat,
                                              strategy=pb.BOT_STRATEGY_GREEDY))
    outcomes: list[str] = []
    bought: list[pb.Event] = []
    answers: set[asyncio.Task[None]] = set()

    async def answer_late(sequence: int, legal: list[pb.Command]) -> None:
        await asyncio.sleep(LATE)  # the client is slow: this is the scenario, not a wait for a state
        try:
            await session.send(_late_choice(legal), decision=sequence)
            outcomes.append("accepted")
        except ServerError as error:
            outcomes.append("stale" if error.stale else error.status)

    async def play() -> None:
        seen = 0
        async for message in session.stream():
            if isinstance(message, pb.Snapshot):
                seen = message.sequence
                if message.game.legal_commands:
                    answers.add(asyncio.create_task(answer_late(message.decision,
                                                                list(message.game.legal_commands))))
                continue
            kind = message.WhichOneof("kind")
            if kind == "card_bought" and message.card_bought.seat == 0:
                bought.append(message)
            if kind == "decision_request" and message.sequence > seen:
                answers.add(asyncio.create_task(answer_late(message.sequence,
                                                            list(message.decision_request.legal_commands))))
            if len(answers) >= 8 or kind == "game_ended":
                return

    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(play(), 60)
    await asyncio.gather(*answers)
    table = server.lobby.tables[table_id]
    assert outcomes and set(outcomes) == {"stale"}, outcomes
    assert table.refused[0] == 0       # none counted as illegal
    assert table.defaulted[0] >= len(outcomes)  # the timer acted each time
    assert not bought                  # no late "buy" landed on another card's offer


async def test_an_answer_naming_its_open_decision_is_applied_and_one_naming_none_keeps_todays_behaviour(
        server: Server, service: Service) -> None:
    created: pb.CreateTableResponse = await service.CreateTable(pb.CreateTableRequest(
        name="named", seats=2, seed=5, settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0)))
    table_id, host = created.table.table_id, created.host_token
    first = await join(service, table_id, "first", 0)
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=host, seat=1,
                                          strategy=pb.BOT_STRATEGY_GREEDY))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    snapshot = await first.snapshot()
    while not snapshot.game.legal_commands:  # the bot may be first: its move comes at once
        snapshot = await first.snapshot()
    assert snapshot.decision > 0
    with_old = snapshot.decision
    await first.send(snapshot.game.legal_commands[0], decision=snapshot.decision)
    try:  # the same decision named again: it is no longer open
        await first.send(snapshot.game.legal_commands[0], decision=with_old)
        raise AssertionError("an answer to a decision no longer open was taken")
    except ServerError as error:
        assert error.code() == grpc.StatusCode.ABORTED and error.stale
        assert "too late" in error.message
        now = (await first.snapshot()).decision
        assert dict(error.trailing_metadata() or ())["tp-decision"] == str(now)
    fresh = await first.snapshot()
    if fresh.game.legal_commands:  # naming no decision: judged against what the seat faces now, as before
        await first.send(fresh.game.legal_commands[0])
