"""The client's picture of a seat's stream (client/view.py: each wire event mapped back to the engine's and
folded by the engine's fold) against independent oracles: the engine's own views (engine only), and the
server's snapshots taken while nothing moves (a real server)."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import random
import re
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import SeatSession
from tenpennies.client.view import TableView
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot
from tenpennies.engine.ten_pennies import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    HouseRules,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    Phase,
    SeatView,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.events import GameEnded, RoundEnded
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping

from serverkit import Service, full_table, start, subscribed


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """The conftest's server, with large request budgets: whole games from one address, each seat asking for
    snapshots whenever nothing moves, once overran the default 500 requests a second per address on a fast
    machine (CI: "too many requests from this client: slow down"). The budgets are tested elsewhere
    (test_server_hardening, test_fairness)."""
    running = Server(Options(port=0, db=str(tmp_path / "games.db"), allow_seeds=True, rate=100_000, burst=100_000,
                             address_rate=0))
    await running.start()
    yield running
    await running.stop(0)

SHORT = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=40, rounds=[1, 3, 5, 7]))  # whole games, kept short


# --- engine only ------------------------------------------------------------------------------------

def games(seats: int, seed: int, rules: HouseRules) -> Iterator[Game]:
    """A whole game between random and greedy bots, yielded before each step."""
    game = Game(seats, rules, seed)
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 == 0 else GreedyBot() for s in range(seats)]
    rng = random.Random(seed)
    while not game.over:
        seat = rng.choice(game.to_act())  # any awaited seat, as over the network
        command = bots[seat].choose(game.view(seat))
        yield game
        game.apply(command)


@pytest.mark.parametrize("seats,seed,preset", [(2, 1, "standard"), (3, 2, "deuces"), (4, 3, "standard")])
def test_view_from_pb_inverts_view_to_pb_at_every_step(seats: int, seed: int, preset: str) -> None:
    rules = HouseRules(preset=preset, max_turns=30)
    steps = 0
    for game in games(seats, seed, rules):
        for seat in [*range(seats), None]:
            view = game.view(seat)
            assert mapping.view_from_pb(mapping.view_to_pb(view), rules) == view
        steps += 1
    final = game.view(None)
    assert mapping.view_from_pb(mapping.view_to_pb(final, game.winners), rules) == final
    assert steps > 100


def comparable(folded: SeatView, truth: SeatView) -> SeatView:
    """The fold with what it cannot know taken from the truth: other seats' buy answers (TP-4.7) keep
    them in to_act until the offer settles."""
    if folded.phase is Phase.BUY and truth.phase is Phase.BUY:
        return dataclasses.replace(folded, to_act=truth.to_act)
    return folded


class EngineTable:
    """What the server sends each audience, built from the engine alone (as server/table.py does)."""

    def __init__(self, seats: int, seed: int, rules: HouseRules, you: str | None = None) -> None:
        self.game = Game(seats, rules, seed)
        self.rules = rules
        self.folds = [TableView(s, you=you) for s in range(seats)] + [TableView(None)]
        info = pb.TableInfo(seats=seats, rules=mapping.rules_to_pb(rules), status=pb.TABLE_STATUS_WAITING,
                            seat_info=[pb.SeatInfo(seat=s, kind=pb.SEAT_KIND_PLAYER, name=f"p{s}")
                                       for s in range(seats)])
        for fold in self.folds:
            fold.apply_snapshot(pb.Snapshot(table=info, sequence=0))
        self.sequence = 0
        self.asked: dict[int, tuple[Command, ...]] = {}
        self.kinds: list[str] = []
        self.publish(list(self.game.opening_events), None)

    def publish(self, engine_events: list[object], actor: int | None, timed_out: Command | None = None) -> None:
        """Send what the server would; ``timed_out``: the command was the server's, for a late seat (its
        TimerExpired goes first, private while it is a buy answer and the offer is open, as the server's)."""
        from tenpennies.engine.ten_pennies import events as ev
        items: list[tuple[int | None, pb.Event]] = []
        if timed_out is not None:
            unsettled = isinstance(timed_out, PassBuy) and self.game.phase is Phase.BUY
            items.append((timed_out.seat if unsettled else None, pb.Event(timer_expired=pb.TimerExpired(
                seat=timed_out.seat, command=mapping.command_to_pb(timed_out)))))
        for e in engine_events:
            assert isinstance(e, ev.Event)
            items.append((e.to, mapping.event_to_pb(e, self.rules)))
        game = self.game
        if actor is not None:  # the server's rule: the actor always gets a new decision, others a changed one
            self.asked.pop(actor, None)
        for seat in [s for s in self.asked if s not in game.to_act()]:
            del self.asked[seat]
        for seat in game.to_act():
            legal = tuple(game.legal_commands(seat))
            if self.asked.get(seat) != legal:
                self.asked[seat] = legal
                items.append((seat, pb.Event(decision_request=pb.DecisionRequest(
                    seat=seat, legal_commands=[mapping.command_to_pb(c) for c in legal]))))
        self.kinds.append(" ".join(str(e.WhichOneof("kind")) for _, e in items))
        for audience, event in items:
            self.sequence += 1
            event.sequence = self.sequence
            for fold in self.folds:
                if audience is None or audience == fold.seat:
                    fold.apply_event(event)

    def check(self, after: Command | None) -> None:
        for fold in self.folds:
            truth = self.game.view(fold.seat)
            assert fold.view is not None
            assert comparable(fold.view, truth) == truth, f"seat {fold.seat} after {after}"
            assert len(fold.pile) == truth.pile_size and fold.pile == self.game.pile
        hands = [{c.id for c in f.view.hand} for f in self.folds if f.view is not None]
        assert all(not (a & b) for a, b in itertools.combinations(hands, 2)), "a fold holds another seat's card"
        assert not hands[-1], "a spectator holds cards"


@pytest.mark.parametrize("seats,seed,rules", [
    (2, 1, HouseRules(max_turns=60)),
    (3, 2, HouseRules(preset="deuces", max_turns=40)),
    (4, 3, HouseRules(max_turns=30, later_set_wilds="one_per_three")),
    (2, 4, HouseRules(hand_size=20, reshuffles=3, buy_penalty_cards=3, max_turns=200, rounds=(1, 2))),
    (3, 5, HouseRules(hand_size=14, reshuffles=2, buy_penalty_cards=4, max_turns=200, rounds=(1, 3, 7))),
])
def test_the_fold_of_what_the_server_would_send_equals_the_engines_view(seats: int, seed: int,
                                                                        rules: HouseRules) -> None:
    table = EngineTable(seats, seed, rules)
    game = table.game
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 == 0 else GreedyBot() for s in range(seats)]
    rng = random.Random(seed)
    table.check(None)
    ends: list[object] = []  # the engine's own events of the rounds' ends and the game's
    while not game.over:
        seat = rng.choice(game.to_act())  # any awaited seat, as over the network
        command = bots[seat].choose(game.view(seat))
        events: list[object] = list(game.apply(command))
        ends += [e for e in events if isinstance(e, RoundEnded | GameEnded)]
        table.publish(events, command.seat)
        table.check(command)
    for fold in table.folds:
        assert fold.winners == game.winners and fold.game_end is not None and fold.round_end is not None
        # the ends as the game's own events, decoded once from the wire: the engine's, value for value
        assert [*fold.round_ends.values(), fold.game_ended] == ends and fold.round_end == ends[-2]
        assert fold.info is not None and fold.info.status == pb.TABLE_STATUS_FINISHED
        assert fold.log and fold.sequence == table.sequence
    steps = " | ".join(table.kinds)
    assert "card_bought" in steps and "card_dead" in steps and "contract_laid" in steps
    if rules.hand_size > 11:  # these tables run the stock out: rebuilds, some of them by a buy's penalty
        assert "stock_rebuilt" in steps


# What a verb does after "You" that it does not after a name (or the other way round).
NOT_FOR_YOU = re.compile(r"\bYou (was|is|has|does|deals|draws|takes|buys|passes|discards|goes|lays)\b")


def test_every_line_of_the_log_reads_right_for_you_as_for_a_name() -> None:
    """Seat 0 calls itself You: over whole games (deals, draws, buys, penalties, melds, timed-out moves)
    no line pairs You with a verb form for a name; a timed-out move is one line."""
    seen: set[str] = set()
    for seed in range(3):
        table = EngineTable(3, seed, HouseRules(hand_size=14, max_turns=60, rounds=(1, 2)), you="You")
        table.folds[0].log = collections.deque(table.folds[0].log)  # all of it, not the last 200 lines
        game, rng = table.game, random.Random(seed)
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
        while not game.over:
            seat = rng.choice(game.to_act())
            command = bots[seat].choose(game.view(seat))
            late = command if seat == 0 and rng.random() < 0.2 else None  # as if the timer chose it
            before = len(table.folds[0].log)
            table.publish(list(game.apply(command)), command.seat, timed_out=late)
            if late is not None:
                lines = list(table.folds[0].log)[before:]
                assert sum(line.startswith("Time ran out: You ") for line in lines) == 1, lines
                assert not any("Time ran out" in line for line in lines[1:]), lines
        for line in table.folds[0].log:
            assert not NOT_FOR_YOU.search(line), line
            seen.add(line.split(" ")[0])
        for line in table.folds[-1].log:  # the spectator's: the same lines, by name
            assert "You" not in line and "seat 0 " not in line
    assert {"Dealt", "You", "Round", "Time"} <= seen


def test_a_rebuild_by_a_buys_penalty_cards_is_folded_right() -> None:
    """The stock rebuilt while a bought card's penalty cards are drawn (the StockRebuilt comes before the
    CardBought, after the bought card left the pile): players who never meld, often buy, never take."""
    plain = (DeclineDiscard, Buy, PassBuy, Draw, Discard)
    for seed in range(30):
        table = EngineTable(3, seed, HouseRules(hand_size=16, reshuffles=5, buy_penalty_cards=5, rounds=(1,),
                                                max_turns=400))
        game = table.game
        rng = random.Random(seed)
        while not game.over:
            seat = rng.choice(game.to_act())
            command = rng.choice([c for c in game.legal_commands(seat) if isinstance(c, plain)])
            table.publish(list(game.apply(command)), command.seat)
            table.check(command)
            if "stock_rebuilt card_bought" in table.kinds[-1]:
                return
    pytest.fail("no seed rebuilt the stock during a buy")


# --- a real server --------------------------------------------------------------------------------


def choose(view: SeatView, rng: random.Random, buy_rate: float) -> Command:
    """A player from the fold's own view: its legal commands are the server's, never the engine's."""
    legal = view.legal
    for kind in (LayContract, LaySet, LayOff):
        options = [c for c in legal if isinstance(c, kind)]
        if options:
            return rng.choice(options)
    if any(isinstance(c, Buy) for c in legal):
        return Buy(legal[0].seat) if rng.random() < buy_rate else PassBuy(legal[0].seat)
    if any(isinstance(c, DeclineDiscard) for c in legal):
        return TakeDiscard(legal[0].seat) if rng.random() < 0.3 else DeclineDiscard(legal[0].seat)
    if any(isinstance(c, Draw) for c in legal):
        return Draw(legal[0].seat)
    discards = [c for c in legal if isinstance(c, Discard)]
    return max(discards, key=lambda c: (c.card.points, c.card.id))


class Folding:
    """One stream (a seat's or a spectator's) folded into a TableView; a seat plays from the fold alone,
    and at the end of every batch the fold is compared with the server's snapshot when nothing moved."""

    def __init__(self, service: Service, table_id: str, session: SeatSession | None, rules: HouseRules,
                 seed: int, buy_rate: float = 0.3) -> None:
        self.service, self.table_id, self.session, self.rules = service, table_id, session, rules
        self.token = session.token if session else ""
        self.fold = TableView(session.seat if session else None)
        self.rng = random.Random(seed)
        self.buy_rate = buy_rate
        self.compared = 0
        self.skipped = 0
        self.stale = 0
        self.compare_always = False  # a fold that does not play: compare at the end of every batch
        self.messages = 0
        self.batches: list[list[pb.Event]] = []
        self.over = asyncio.Event()      # set when the fold sees the game end; the stream stays open...
        self.release = asyncio.Event()   # ...until this is set, so that nothing moves while the test looks
        self.watcher: Folding | None = None  # a spectator's fold, compared while this seat holds the game
        self.last_public = 0

    async def snapshot(self) -> pb.Snapshot:
        reply: pb.GetSnapshotResponse = await self.service.GetSnapshot(
            pb.GetSnapshotRequest(table_id=self.table_id, token=self.token))
        return reply.snapshot

    async def compare(self, *, strict: bool = False) -> bool:
        snapshot = await self.snapshot()
        if snapshot.sequence != self.fold.sequence:  # something moved meanwhile: no like-for-like compare
            assert not strict, f"seat {self.fold.seat}: the table moved to {snapshot.sequence}"
            self.skipped += 1
            return False
        check_against(self.fold, snapshot, self.rules)
        self.compared += 1
        return True

    async def compare_held(self, last_public: int) -> None:
        """Compare while a seat holds the game (the one seat it waits for, not acting yet): the table
        moves no further than the private events after ``last_public``, which a spectator never sees."""
        while self.fold.sequence < last_public:
            await asyncio.sleep(0.001)
        snapshot = await self.snapshot()
        assert snapshot.sequence >= self.fold.sequence
        snapshot.table.last_sequence = self.fold.info.last_sequence if self.fold.info else 0
        check_against(self.fold, snapshot, self.rules)
        self.compared += 1

    async def run(self, from_sequence: int | None = None, stop_after: int | None = None) -> None:
        request = pb.SubscribeRequest(table_id=self.table_id, token=self.token)
        if from_sequence is not None:
            request.from_sequence = from_sequence
        call = self.service.Subscribe(request)
        acted_at = -1
        decided_at = -1
        try:
            async for response in call:
                self.messages += 1
                if response.HasField("snapshot"):
                    self.fold.apply_snapshot(response.snapshot)
                    if response.snapshot.game.legal_commands:
                        decided_at = response.snapshot.sequence
                else:
                    events = list(response.events.events)
                    self.batches.append(events)
                    for event in events:
                        self.fold.apply_event(event)
                        if event.WhichOneof("kind") not in ("cards_received", "buy_answered", "decision_request"):
                            self.last_public = event.sequence
                        if event.HasField("decision_request") and event.sequence > acted_at:
                            decided_at = event.sequence
                view = self.fold.view
                if view is not None and view.phase is Phase.GAME_OVER:
                    self.over.set()
                    await self.release.wait()
                    return
                if stop_after is not None and self.messages >= stop_after:
                    return
                if self.session is None or view is None or not view.legal or decided_at <= acted_at:
                    if self.compare_always:
                        await self.compare()
                    continue
                quiet = await self.compare()  # awaited: the table waits for this seat (and, buying, others)
                if quiet and self.watcher is not None and view.phase is not Phase.BUY:
                    await self.watcher.compare_held(self.last_public)
                acted_at = self.fold.sequence
                command = choose(view, self.rng, self.buy_rate)
                try:
                    await self.service.SendCommand(pb.SendCommandRequest(
                        table_id=self.table_id, token=self.token, command=mapping.command_to_pb(command)))
                except grpc.aio.AioRpcError as error:
                    # Only a buy answer may be stale: another offered seat's answer settled the offer
                    # meanwhile (TP-4.7). Anything else refused means the fold's legal commands lied.
                    if not isinstance(command, (Buy, PassBuy)) or not view.buy_offer[1:]:
                        raise
                    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION, error.details()
                    self.stale += 1
        finally:
            call.cancel()


def check_against(fold: TableView, snapshot: pb.Snapshot, rules: HouseRules) -> None:
    """The fold equals the server's snapshot at the same sequence, but for what it cannot know."""
    assert fold.info == snapshot.table, f"seat {fold.seat}: the table's info differs"
    assert fold.deadline_ms == snapshot.decision_deadline_ms == 0  # no decision timers at these tables
    if not snapshot.HasField("game"):
        assert fold.view is None
        return
    truth = mapping.view_from_pb(snapshot.game, rules)
    assert fold.view is not None
    folded = comparable(fold.view, truth)
    if not fold.pile and folded.pile_size:  # a fold begun mid-round may not know the card below
        folded = dataclasses.replace(folded, discard_top=truth.discard_top)
    assert folded == truth, f"seat {fold.seat} at {snapshot.sequence}:\n{fold.view}\n{truth}"
    assert fold.winners == tuple(snapshot.game.winners)
    if truth.discard_top is not None and fold.pile:
        assert fold.pile[-1] == truth.discard_top


@pytest.mark.parametrize("seats,seed", [(2, 3), (4, 5)])
async def test_every_seats_fold_equals_the_servers_snapshot_whenever_nothing_moved(
        server: Server, service: Service, seats: int, seed: int) -> None:
    table = await full_table(service, seats=seats, rules=SHORT, seed=seed)
    rules = mapping.rules_from_pb(SHORT)
    players = [Folding(service, table.table_id, s, rules, seed=seed * 10 + i) for i, s in enumerate(table.sessions)]
    watcher = Folding(service, table.table_id, None, rules, seed=0)
    for player in players:
        player.watcher = watcher
    tasks = [asyncio.ensure_future(f.run()) for f in players + [watcher]]
    await subscribed(service, table.table_id, seats=range(seats))
    while not watcher.messages:
        await asyncio.sleep(0.01)
    await table.sessions[0].chat("good luck")
    await start(service, table)
    await asyncio.wait_for(all_over(players + [watcher], tasks), 60)  # every stream is still open: nothing moves now

    for folding in players + [watcher]:
        await folding.compare(strict=True)
        fold = folding.fold
        assert fold.game_end is not None and fold.round_end is not None and fold.round_end.round == 7
        assert ("player 0", "good luck") in fold.chat
        assert any("discarded the" in line for line in fold.log)
    hands = [{c.id for c in f.fold.view.hand} for f in players if f.fold.view is not None]
    assert all(not (a & b) for a, b in itertools.combinations(hands, 2))
    assert watcher.fold.view is not None and not watcher.fold.view.hand
    # the oracle ran at many points, not only at the end; and the table saw buys
    assert sum(f.compared for f in players) > 100, [(f.compared, f.skipped) for f in players]
    assert watcher.compared > 50
    bought = [e for f in players for b in f.batches for e in b if e.HasField("card_bought")]
    assert bought, "no seat bought a card: the buy path went untested"
    assert any(line for line in watcher.fold.log if " bought the " in line)
    await release(players + [watcher], tasks)


async def all_over(foldings: list[Folding], tasks: Sequence[asyncio.Future[None]]) -> None:
    """Until every fold has seen the game end; a stream that fails fails the test at once."""
    over: asyncio.Future[Any] = asyncio.ensure_future(asyncio.gather(*(f.over.wait() for f in foldings)))
    waiting: list[asyncio.Future[Any]] = [over, *tasks]
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            over.cancel()
            task.result()  # raises what the stream raised
    await over


async def release(foldings: list[Folding], tasks: Sequence[asyncio.Future[None]]) -> None:
    for folding in foldings:
        folding.release.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 10)


async def test_a_resumed_stream_folded_afresh_equals_the_fold_that_saw_everything(server: Server,
                                                                                   service: Service) -> None:
    table = await full_table(service, seats=3, rules=SHORT, seed=12)
    rules = mapping.rules_from_pb(SHORT)
    players = [Folding(service, table.table_id, s, rules, seed=70 + i) for i, s in enumerate(table.sessions)]
    tasks = [asyncio.ensure_future(f.run()) for f in players]
    await subscribed(service, table.table_id, seats=range(3))
    await start(service, table)
    # a second stream of seat 1 that only watches: it leaves mid-round, then resumes onto a fresh fold
    first = Folding(service, table.table_id, table.sessions[1], rules, seed=0)
    first.session = None  # watch only: seat 1's main stream plays
    first.fold = TableView(1)
    await first.run(stop_after=40)
    assert first.fold.view is not None and first.fold.view.phase is not Phase.GAME_OVER
    await asyncio.sleep(0.2)  # the game goes on without it
    resumed = Folding(service, table.table_id, None, rules, seed=0)
    resumed.token = table.sessions[1].token
    resumed.fold = TableView(1)
    resumed.compare_always = True
    tasks.append(asyncio.ensure_future(resumed.run(from_sequence=first.fold.sequence)))
    await asyncio.wait_for(all_over(players + [resumed], tasks), 60)
    steady = players[1].fold
    assert resumed.fold.sequence == steady.sequence
    assert resumed.fold.view == steady.view
    assert resumed.fold.info == steady.info
    assert resumed.fold.pile == steady.pile
    assert (resumed.fold.round_end, resumed.fold.game_end, resumed.fold.winners) == \
        (steady.round_end, steady.game_end, steady.winners)
    assert resumed.fold.view is not None and resumed.fold.view.phase is Phase.GAME_OVER
    await resumed.compare(strict=True)
    await players[1].compare(strict=True)
    assert resumed.compared > 5  # compared with the server's snapshots on the way too, not only at the end
    await release(players + [resumed], tasks)


async def test_a_refused_command_never_comes_from_the_folds_legal_commands(server: Server, service: Service) -> None:
    """The fold's legal commands are exactly the server's: a player choosing only among them is never
    refused (SendCommand raises on a refusal, which would fail the game above; here, one short game)."""
    short = pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=10, rounds=[1, 2]))
    table = await full_table(service, seats=2, rules=short, seed=1)
    rules = mapping.rules_from_pb(short)
    players = [Folding(service, table.table_id, s, rules, seed=i, buy_rate=0.9) for i, s in enumerate(table.sessions)]
    tasks = [asyncio.ensure_future(f.run()) for f in players]
    await subscribed(service, table.table_id, seats=range(2))
    await start(service, table)
    try:
        await asyncio.wait_for(all_over(players, tasks), 30)
    except grpc.aio.AioRpcError as error:  # pragma: no cover - the failure this test is for
        pytest.fail(f"a command from the fold's legal list was refused: {error.details()}")
    assert all(f.fold.game_end is not None for f in players)
    await release(players, tasks)
