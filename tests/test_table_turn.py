"""A command's turn at a table (server/table.py): made at once in its caller's call up to the store, and finished
by the store's commit whatever becomes of the caller (no task per command, and no change half made)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tenpennies.engine.interface import RuleError
from tenpennies.engine.ten_pennies import HouseRules
from tenpennies.server.lobby import Lobby
from tenpennies.server.store import Store
from tenpennies.server.table import Settings, Subscriber, Table
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.frames import batch_events


@pytest.fixture
async def lobby(tmp_path: Path) -> AsyncIterator[Lobby]:
    store = Store(str(tmp_path / "games.db"))
    made = Lobby(store, allow_seeds=True)
    yield made
    await made.close()
    store.close()


async def playing(lobby: Lobby) -> tuple[Table, list[str], Subscriber]:
    """A table of four players, started, and a spectator's subscription to it."""
    table, host = await lobby.create("turns", 4, HouseRules(), Settings(0, 0), 5, "test")
    tokens = [(await table.join(f"p{seat}", seat))[1] for seat in range(4)]
    await table.start(host)
    _, spectator = await table.subscribe("")
    return table, tokens, spectator


def next_command(table: Table) -> tuple[int, pb.Command]:
    """The first seat the game waits for, and the first of its legal commands, as the wire names it."""
    seat = min(table.asked)
    return seat, table.wire.command_to_pb(table.asked[seat][0])


async def test_a_command_whose_caller_is_cancelled_once_begun_is_finished_and_passes_the_turn_on(
        lobby: Lobby, tmp_path: Path) -> None:
    table, tokens, spectator = await playing(lobby)
    seat, command = next_command(table)
    before, applied = table.seq, len(table.game.log)
    call = asyncio.ensure_future(table.command(tokens[seat], command))
    await asyncio.sleep(0)  # the call runs up to waiting for the store's commit
    assert not call.done() and len(table.game.log) == applied + 1 and table.seq == before, \
        "the command should be applied and handed to the store, its commit not yet heard of"
    call.cancel()  # a client's deadline, a dropped stream
    batch = await asyncio.wait_for(spectator.queue.get(), 10)
    assert isinstance(batch, bytes), batch
    published = batch_events(batch)
    assert published[0].sequence == before + 1, "the change never went out"
    row = await lobby.store.load_table(table.id)
    assert row is not None and row.last_sequence == table.seq and len(row.commands) == applied + 1, \
        "the change should be stored whole"
    public = await lobby.store.events_page(table.id, before, table.seq, None, 100)
    assert [stored[0] for stored in public] == [event.sequence for event in published]
    later_seat, later = next_command(table)
    assert await asyncio.wait_for(table.command(tokens[later_seat], later), 10) > table.seq - 10, \
        "the table's turn was not passed on"
    assert len(table.game.log) == applied + 2


async def test_commands_sent_together_are_applied_one_at_a_time_in_the_order_sent(lobby: Lobby) -> None:
    """The second command waits for the first one's commit (its turn), then is judged on the game the first
    made: the same answer the seat would get sending it after the first one's result."""
    table, tokens, spectator = await playing(lobby)
    seat, command = next_command(table)
    first = asyncio.ensure_future(table.command(tokens[seat], command))
    again = asyncio.ensure_future(table.command(tokens[seat], command))  # the same, at once: stale by then
    sequence = await asyncio.wait_for(first, 10)
    with pytest.raises(RuleError) as refused:
        await asyncio.wait_for(again, 10)
    assert refused.value.rule.startswith("TP-4"), refused.value  # judged on the game after the first
    assert table.seq == sequence and len(table.game.log) == 1
