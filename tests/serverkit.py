"""Helpers for server tests: a real server on a loopback port, and thin clients that play through it."""

from __future__ import annotations

import asyncio
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

import grpc

from tenpennies.client.connection import SeatSession, join
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.v2 import tenpennies_pb2_grpc as pb_grpc

Service = pb_grpc.TenPenniesServiceStub
PREFERENCE = ("lay_contract", "lay_set", "lay_off")
# Deadlines that cut requests at every stage: a command now often finishes within a millisecond (made in its
# caller's call up to the store), so the shortest cut some on their way in, the longer ones some mid-change
DEADLINES = (0.00005, 0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.004, 0.008)


def pick(legal: list[pb.Command], rng: random.Random, hand_points: dict[int, int]) -> pb.Command:
    """A thin client's choice from the legal commands alone: meld when it can, rarely buy,
    discard the highest-point card."""
    kinds = {c.WhichOneof("kind"): c for c in legal}
    for kind in PREFERENCE:
        options = [c for c in legal if c.WhichOneof("kind") == kind]
        if options:
            return rng.choice(options)
    if "buy" in kinds:
        return kinds["buy"] if rng.random() < 0.15 else kinds["pass_buy"]
    if "decline_discard" in kinds:
        return kinds["take_discard"] if rng.random() < 0.3 else kinds["decline_discard"]
    if "draw" in kinds:
        return kinds["draw"]
    discards = [c for c in legal if c.WhichOneof("kind") == "discard"]
    return max(discards, key=lambda c: (hand_points.get(c.discard.card_id, 0), c.discard.card_id))


class ThinClient:
    """Plays one seat from its stream alone: answers every DecisionRequest from its legal commands and
    keeps every message it received (for leak checks). ``gate``: while it is clear, no answer is sent (a test
    holds the game still); ``sending`` tells an answer on its way."""

    names = True  # its answers name the decision they answer (``asked``): one that comes late is refused as such

    def __init__(self, session: SeatSession, seed: int, gate: asyncio.Event | None = None) -> None:
        self.session = session
        self.gate = gate
        self.sending = False
        self.rng = random.Random(seed)
        self.received: list[pb.Snapshot | pb.Event] = []
        self.game_ended: pb.GameEnded | None = None
        self.points: dict[int, int] = {}
        self.refused = 0
        self.asked = 0  # the sequence of the decision last asked
        self.snapshot_seq = 0

    async def play(self, stop_after: int | None = None) -> None:
        """Play until the game ends (or until ``stop_after`` messages, to test resuming)."""
        count = 0
        async for message in self.session.stream():
            self.received.append(message)
            count += 1
            if isinstance(message, pb.Snapshot):
                self.snapshot_seq = message.sequence
                self.asked = message.decision  # the decision open now, as the snapshot names it
                for card in message.game.hand:
                    self.points[card.id] = _points(card.rank)
                if message.game.ten_pennies.phase == pb.PHASE_GAME_OVER:
                    return
                legal = list(message.game.legal_commands)
                if legal:
                    await self._answer(legal)
                continue
            event = message
            kind = event.WhichOneof("kind")
            if kind == "cards_received":
                for card in event.cards_received.cards:
                    self.points[card.id] = _points(card.rank)
            elif kind == "game_ended":
                self.game_ended = event.game_ended
                return
            elif kind == "decision_request" and event.sequence > self.snapshot_seq:  # not history
                self.asked = event.sequence  # the decision being answered (a client may name it)
                await self._answer(list(event.decision_request.legal_commands))
            if stop_after is not None and count >= stop_after:
                return

    async def _answer(self, legal: list[pb.Command]) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.sending = True
        try:
            await self._act(legal)
        finally:
            self.sending = False

    async def _act(self, legal: list[pb.Command]) -> None:
        try:
            await self.session.send(pick(legal, self.rng, self.points), self.asked if self.names else 0)
        except grpc.aio.AioRpcError as error:
            # a stale decision: the game moved on (a timer, say); named, it is refused as too late
            if error.code() not in (grpc.StatusCode.FAILED_PRECONDITION,
                                    *((grpc.StatusCode.ABORTED,) if self.names else ())):
                raise
            self.refused += 1


def _points(rank: int) -> int:
    return 50 if rank == 15 else 20 if rank in (2, 14) else 10 if rank >= 10 else 5


class TestTable(NamedTuple):
    """A table made for a test: its id, its host's token, and a session for every seat."""
    table_id: str
    host: str
    sessions: list[SeatSession]


async def full_table(service: Service, seats: int = 4, rules: pb.HouseRules | None = None,
                     seed: int | None = 7, decision_seconds: int = 0, takeover_seconds: int = 0) -> TestTable:
    request = pb.CreateTableRequest(
        name="test", seats=seats, rules=rules or pb.HouseRules(),
        settings=pb.TableSettings(decision_seconds=decision_seconds, takeover_seconds=takeover_seconds))
    if seed is not None:
        request.seed = seed
    created: pb.CreateTableResponse = await service.CreateTable(request)
    table_id = created.table.table_id
    sessions = [await join(service, table_id, f"player {s}") for s in range(seats)]
    return TestTable(table_id, created.host_token, sessions)


async def start(service: Service, table: TestTable) -> None:
    await service.StartGame(pb.StartGameRequest(table_id=table.table_id, host_token=table.host))


class Watching(Protocol):
    """A client that keeps what its stream brought (``ThinClient``, or a thin client of another game)."""

    @property
    def received(self) -> Sequence[object]: ...


async def subscribed(service: Service, table_id: str, seats: Iterable[int] = (),
                     watchers: Iterable[Watching] = (), timeout: float = 10) -> None:
    """Wait until the server shows each of ``seats`` with a live subscription (GetSnapshot's seat_info)
    and each of ``watchers`` (spectators, whom no seat shows) has its first snapshot."""
    seats, watchers = list(seats), list(watchers)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        reply: pb.GetSnapshotResponse = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
        info = reply.snapshot.table.seat_info
        if all(info[s].connected for s in seats) and all(w.received for w in watchers):
            return
        assert loop.time() < give_up, f"not subscribed after {timeout} s: seats {seats}, {len(watchers)} watchers"
        await asyncio.sleep(0.01)


def start_server_process(db: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    """``tenpennies serve`` in a process of its own on a free loopback port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", str(db), "--allow-seeds",
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None  # stdout=PIPE
    line = process.stdout.readline()
    match = re.search(r"listening on [\d.]+:(\d+)", line)
    assert match, f"the server did not start: {line}"
    return process, int(match.group(1))


