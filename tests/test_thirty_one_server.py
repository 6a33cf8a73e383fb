"""Thirty-One at a real server (grpc.aio on a loopback port, real channels, a real SQLite file): tables of
both games side by side, made, joined, filled with the game's own bots, played to the end by thin clients
that know only the wire; every seat's stream is exactly the game's events that seat may see (so no seat is
ever shown another's hidden cards; in switch, a face-down card taken reaches nobody but its taker before the
table sees it); a stream resumed from a sequence misses and doubles nothing; a restart mid-game goes on.
Nothing in the server's table, store or lobby names the game (tests/test_game_boundary.py)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import SeatSession, join, open_channel, stub
from tenpennies.engine.games import kind
from tenpennies.engine.thirty_one.rules import PRESET_NAMES, Rules
from tenpennies.server.app import Options, Server
from tenpennies.server.store import read_game
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import thirty_one as wire
from tenpennies.wire.games import THIRTY_ONE

from serverkit import Service, subscribed

GAME_KINDS = ("game_started", "game_ended")  # the game's events whose messages both games share


def is_game_event(event: pb.Event) -> bool:
    what = event.WhichOneof("kind") or ""
    return what.startswith("thirty_one_") or what in GAME_KINDS


class ThinThirtyOne:
    """Plays one seat (or watches, with no seat) from its stream alone: answers every DecisionRequest with a
    seeded random pick of its legal commands, and keeps every message it received."""

    def __init__(self, session: SeatSession, seed: int) -> None:
        self.session = session
        self.rng = random.Random(seed)
        self.received: list[pb.Snapshot | pb.Event] = []
        self.game_ended: pb.GameEnded | None = None
        self.snapshot_seq = 0

    async def play(self, stop_after: int | None = None) -> None:
        count = 0
        async for message in self.session.stream():
            self.received.append(message)
            count += 1
            if isinstance(message, pb.Snapshot):
                self.snapshot_seq = message.sequence
                if message.game.thirty_one.phase == pb.THIRTY_ONE_PHASE_GAME_OVER:
                    return
                if message.game.legal_commands:
                    await self.act(list(message.game.legal_commands))
            elif message.HasField("game_ended"):
                self.game_ended = message.game_ended
                return
            elif message.HasField("decision_request") and message.sequence > self.snapshot_seq:
                await self.act(list(message.decision_request.legal_commands))
            if stop_after is not None and count >= stop_after:
                return

    async def act(self, legal: list[pb.Command]) -> None:
        try:
            await self.session.send(self.rng.choice(legal))
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise

    def game_events(self) -> list[pb.Event]:
        seen: dict[int, pb.Event] = {}
        for m in self.received:
            if isinstance(m, pb.Event) and is_game_event(m):
                seen.setdefault(m.sequence, m)
        return [seen[s] for s in sorted(seen)]


async def thirty_one_table(service: Service, preset: str, seats: int, players: int, seed: int,
                           **knobs: Any) -> tuple[str, str, list[SeatSession]]:
    """A Thirty-One table of ``preset``: ``players`` seats joined by name, the rest the game's own bots (an
    unset strategy: the game's default, heuristic; and a random one)."""
    request = pb.CreateTableRequest(name=f"31 {preset}", seats=seats, game=THIRTY_ONE, seed=seed,
                                    rules=wire.rules_to_pb(Rules.of(preset, **knobs)),
                                    settings=pb.TableSettings(decision_seconds=0, takeover_seconds=0))
    created: pb.CreateTableResponse = await service.CreateTable(request)
    assert created.table.game == THIRTY_ONE and created.table.rules.thirty_one.preset == \
        getattr(pb, f"THIRTY_ONE_PRESET_{preset.upper()}")
    table_id = created.table.table_id
    sessions = [await join(service, table_id, f"player {s}") for s in range(players)]
    for n in range(seats - players):
        strategy = pb.BOT_STRATEGY_UNSPECIFIED if n % 2 == 0 else pb.BOT_STRATEGY_RANDOM
        await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=created.host_token, strategy=strategy))
    return table_id, created.host_token, sessions


def replayed(db: Path, table_id: str) -> tuple[Any, list[Any]]:
    """The stored game replayed by the engine from its seed and log, and every event it made, in order."""
    stored = read_game(db, table_id)
    assert stored.game == THIRTY_ONE
    game = kind(THIRTY_ONE).new(stored.seats, stored.rules, stored.seed)
    events = list(game.opening_events)
    for command in stored.commands:
        events += game.apply(command)
    return game, events


def seen_by(events: Iterable[Any], seat: int | None) -> list[Any]:
    return [e for e in events if e.visible_to(seat)]


def card_ids(message: Any) -> set[int]:
    """Every card a message names (a Card message anywhere in it)."""
    found: set[int] = set()

    def walk(m: Any) -> None:
        if isinstance(m, pb.Card):
            found.add(m.id)
            return
        for field, value in m.ListFields():
            if field.message_type is None:
                continue
            for item in ([value] if hasattr(value, "ListFields") else value):  # one message, or repeated
                walk(item)
    walk(message)
    return found


# --- a whole game of every preset -------------------------------------------------------------------------

@pytest.mark.parametrize("preset", PRESET_NAMES)
async def test_a_thirty_one_table_is_made_joined_filled_with_bots_and_played_to_the_end(
        server: Server, service: Service, tmp_path: Path, preset: str) -> None:
    seats = 4
    table_id, host, sessions = await thirty_one_table(service, preset, seats, players=2, seed=11, deals=3)
    clients = [ThinThirtyOne(s, seed=i) for i, s in enumerate(sessions)]
    watcher = ThinThirtyOne(SeatSession(service, table_id, None, ""), seed=99)
    tasks = [asyncio.ensure_future(c.play()) for c in (*clients, watcher)]
    await subscribed(service, table_id, seats=range(2), watchers=[watcher])
    info = (await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))).snapshot.table
    assert [s.kind for s in info.seat_info] == [pb.SEAT_KIND_PLAYER] * 2 + [pb.SEAT_KIND_BOT] * 2
    assert [s.name for s in info.seat_info[2:]] == ["heuristic bot", "random bot"]  # the game's own bots
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)

    game, events = replayed(tmp_path / "games.db", table_id)
    assert game.over and game.result is not None
    rules = game.view(None).rules
    for seat, client in enumerate((*clients, watcher)):
        who = seat if seat < 2 else None
        assert client.game_ended is not None and tuple(client.game_ended.winners) == game.result.winners
        # the stream's game events are exactly the engine's events this seat may see: nothing more, in order
        got = [wire.event_from_pb(e, rules) for e in client.game_events()]
        assert got == seen_by(events, who), f"seat {who}: the stream is not the game's story as it may see it"
        for message in client.received:
            if isinstance(message, pb.Event) and message.HasField("thirty_one_cards_received"):
                assert message.thirty_one_cards_received.seat == who  # private cards: to their seat alone
    # a fresh snapshot of each seat is the engine's own view of it
    for seat, session in enumerate(sessions):
        snapshot = await session.snapshot()
        assert wire.view_from_pb(snapshot.game, rules) == game.view(seat)
        assert snapshot.table.status == pb.TABLE_STATUS_FINISHED and snapshot.table.game == THIRTY_ONE


async def test_tables_of_both_games_are_played_side_by_side(server: Server, service: Service, tmp_path: Path) -> None:
    from serverkit import ThinClient, full_table
    tp = await full_table(service, seats=2, seed=3,
                          rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=20, rounds=[1])))
    table_id, host, sessions = await thirty_one_table(service, "classic", 3, players=1, seed=4, lives=1)
    tp_clients = [ThinClient(s, seed=i) for i, s in enumerate(tp.sessions)]
    mine = ThinThirtyOne(sessions[0], seed=5)
    tasks = [asyncio.ensure_future(c.play()) for c in tp_clients] + [asyncio.ensure_future(mine.play())]
    await subscribed(service, tp.table_id, seats=range(2))
    await subscribed(service, table_id, seats=[0])
    await service.StartGame(pb.StartGameRequest(table_id=tp.table_id, host_token=tp.host))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    listed = {t.table_id: t.game for t in (await service.ListTables(pb.ListTablesRequest())).tables}
    assert listed == {tp.table_id: "ten_pennies", table_id: THIRTY_ONE}
    assert all(c.game_ended is not None for c in tp_clients) and mine.game_ended is not None
    assert not any(isinstance(m, pb.Event) and is_game_event(m) and (m.WhichOneof("kind") or "").startswith(
        "thirty_one_") for c in tp_clients for m in c.received)


# --- hidden cards ---------------------------------------------------------------------------------------

async def test_in_switch_a_face_down_card_taken_reaches_nobody_but_its_taker_before_the_table_sees_it(
        server: Server, service: Service, tmp_path: Path) -> None:
    table_id, host, sessions = await thirty_one_table(service, "switch", 4, players=4, seed=21, lives=1,
                                                      free_ride=False)
    clients = [ThinThirtyOne(s, seed=40 + i) for i, s in enumerate(sessions)]
    watcher = ThinThirtyOne(SeatSession(service, table_id, None, ""), seed=1)
    tasks = [asyncio.ensure_future(c.play()) for c in (*clients, watcher)]
    await subscribed(service, table_id, seats=range(4), watchers=[watcher])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)

    def first_shown(client: ThinThirtyOne, card: int, after: int) -> int | None:
        return next((e.sequence for e in client.game_events() if e.sequence > after and card in card_ids(e)), None)

    checked = middle = 0
    for taker, client in enumerate(clients):
        for event in client.game_events():
            received = event.thirty_one_cards_received
            if not event.HasField("thirty_one_cards_received") or received.reason not in (
                    pb.THIRTY_ONE_RECEIVED_REASON_MIDDLE, pb.THIRTY_ONE_RECEIVED_REASON_DRAW):
                continue
            for card in received.cards:
                public = first_shown(watcher, card.id, event.sequence)
                for other, seen in enumerate(clients):
                    if other != taker:
                        shown = first_shown(seen, card.id, event.sequence)
                        assert shown is None or (public is not None and shown >= public), \
                            f"seat {other} saw {card.text} (taken face down by seat {taker}) before the table did"
                checked += 1
                middle += received.reason == pb.THIRTY_ONE_RECEIVED_REASON_MIDDLE
    assert middle  # the game took cards face down from the middle hands (T31-4.5 a, b)
    # and a fresh snapshot holds no other seat's cards
    game, _ = replayed(tmp_path / "games.db", table_id)
    assert game.over


async def test_no_snapshot_or_event_of_a_seat_names_a_card_its_view_never_held(
        server: Server, service: Service, tmp_path: Path) -> None:
    """Mid-game snapshots of every seat hold its own cards and the table's face-up ones, no more."""
    table_id, host, sessions = await thirty_one_table(service, "banking", 3, players=3, seed=8, deals=2)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    rng = random.Random(3)
    table = server.lobby.tables[table_id]
    for _ in range(40):
        if table.game is None or table.game.over:
            break
        for seat, session in enumerate(sessions):
            snapshot = await session.snapshot()
            view = table.game.view(seat)
            allowed = {c.id for c in (*view.hand, *view.pile, *view.table_cards, *view.spare)}
            allowed |= {c.id for c in view.widow if c is not None}
            allowed |= {c.id for m in view.middle for c in m.cards if c is not None}
            if view.last_deal is not None:
                allowed |= {c.id for h in view.last_deal.hands for c in h}
            if view.taken is not None:  # taken from the pile in public (T31-9.1)
                allowed.add(view.taken.id)
            assert card_ids(snapshot.game) <= allowed
            for hand_seat in range(3):
                if hand_seat != seat:
                    assert not card_ids(snapshot.game) & {c.id for c in table.game.view(hand_seat).hand} - allowed
        seat = table.game.to_act()[0]
        legal = (await sessions[seat].snapshot()).game.legal_commands
        await sessions[seat].send(rng.choice(list(legal)))


# --- resuming, restarting ---------------------------------------------------------------------------------

async def test_a_thirty_one_stream_resumed_from_a_sequence_misses_nothing_and_doubles_nothing(
        server: Server, service: Service, tmp_path: Path) -> None:
    table_id, host, sessions = await thirty_one_table(service, "classic", 3, players=3, seed=5, lives=2)
    clients = [ThinThirtyOne(s, seed=20 + i) for i, s in enumerate(sessions)]
    others = [asyncio.ensure_future(c.play()) for c in clients[1:]]
    await subscribed(service, table_id, seats=range(1, 3))
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    await clients[0].play(stop_after=12)  # leaves the stream mid-game
    assert clients[0].game_ended is None
    await sessions[1].chat("while you were away")
    resumed_from = sessions[0].last_sequence
    await asyncio.wait_for(asyncio.gather(clients[0].play(), *others), 120)
    assert resumed_from and sum(isinstance(m, pb.Snapshot) for m in clients[0].received) == 2
    with sqlite3.connect(tmp_path / "games.db") as conn:
        stored = conn.execute("SELECT seq, audience, data FROM events WHERE table_id=? ORDER BY seq",
                              (table_id,)).fetchall()
    first = clients[0].received[0]
    assert isinstance(first, pb.Snapshot)
    ended = next(seq for seq, _, data in stored if pb.Event.FromString(data).HasField("game_ended"))
    expected = [seq for seq, audience, _ in stored if audience in (None, 0) and first.sequence < seq <= ended]
    got = [m.sequence for m in clients[0].received if isinstance(m, pb.Event)]
    assert got == expected, "events missed or repeated across the reconnect"
    assert any(m.HasField("chat_posted") for m in clients[0].received if isinstance(m, pb.Event))


async def test_a_thirty_one_game_goes_on_after_the_server_restarts_mid_game(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = Server(Options(port=0, db=str(db), allow_seeds=True))
    await server.start()
    channel = open_channel(f"127.0.0.1:{server.port}")
    service = stub(channel)
    try:
        table_id, host, sessions = await thirty_one_table(service, "stop_the_bus", 3, players=2, seed=13, lives=2)
        clients = [ThinThirtyOne(s, seed=60 + i) for i, s in enumerate(sessions)]
        tasks = [asyncio.ensure_future(c.play(stop_after=15)) for c in clients]
        await subscribed(service, table_id, seats=range(2))
        await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        before = (await sessions[0].snapshot()).game
        assert before.thirty_one.phase != pb.THIRTY_ONE_PHASE_GAME_OVER
    finally:
        await channel.close()
        await server.stop(0)

    server = Server(Options(port=0, db=str(db)))
    await server.start()
    channel = open_channel(f"127.0.0.1:{server.port}")
    try:
        service = stub(channel)
        for session in sessions:
            session.service = service
        again = (await sessions[0].snapshot()).game
        assert again == before  # read back from the store: the same game, the same view
        await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients)), 120)
        game, _ = replayed(db, table_id)
        assert game.over and all(c.game_ended is not None and tuple(c.game_ended.winners) == game.result.winners
                                 for c in clients)
    finally:
        await channel.close()
        await server.stop(0)


async def test_a_thirty_one_refusal_names_its_rule_and_changes_nothing(server: Server, service: Service) -> None:
    table_id, host, sessions = await thirty_one_table(service, "classic", 2, players=2, seed=2,
                                                      first_turn_knock=False)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    snapshot = await sessions[0].snapshot()
    seat = snapshot.game.to_act[0]
    before = await sessions[seat].snapshot()
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await sessions[seat].send(pb.Command(thirty_one_knock=pb.ThirtyOneKnock()))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert (refused.value.details() or "").startswith("T31-4.3")
    with pytest.raises(grpc.aio.AioRpcError) as wrong_game:
        await sessions[seat].send(pb.Command(draw=pb.Draw()))  # Ten Pennies' draw at a Thirty-One table
    assert wrong_game.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert (await sessions[seat].snapshot()).game == before.game


# --- what is not the table's game's, or its preset's, is refused, never dropped ----------------------------

TEN_PENNIES = kind("ten_pennies").name


@pytest.mark.parametrize(("game", "rules", "words"), [
    (TEN_PENNIES, pb.HouseRules(thirty_one=pb.ThirtyOneRules(lives=2)),
     "rules.thirty_one is Thirty-One's: this table plays ten_pennies"),
    (THIRTY_ONE, pb.HouseRules(ten_pennies=pb.TenPenniesRules(hand_size=5)),
     "rules.ten_pennies is Ten Pennies': this table plays thirty_one"),
    (THIRTY_ONE, pb.HouseRules(ten_pennies=pb.TenPenniesRules(preset=pb.PRESET_DEUCES)),
     "rules.ten_pennies is Ten Pennies': this table plays thirty_one"),
    (THIRTY_ONE, pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_CLASSIC, tokens=5)),
     "rules.thirty_one.tokens applies to the banking preset only (T31-7.4)"),
    (THIRTY_ONE, pb.HouseRules(thirty_one=pb.ThirtyOneRules(tokens=5)),  # no preset: classic
     "rules.thirty_one.tokens applies to the banking preset only (T31-7.4)"),
    (THIRTY_ONE, pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_BANKING, lives=2)),
     "rules.thirty_one.lives applies to the classic, cut_throat, switch and stop_the_bus presets only (T31-7.1)"),
], ids=["lives at ten_pennies", "hand_size at thirty_one", "ten_pennies preset at thirty_one", "classic tokens",
        "unset preset tokens", "banking lives"])
async def test_a_table_asking_for_rules_its_game_or_preset_does_not_play_is_refused_and_not_made(
        server: Server, service: Service, game: str, rules: pb.HouseRules, words: str) -> None:
    before = await service.ListTables(pb.ListTablesRequest())
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await service.CreateTable(pb.CreateTableRequest(name="odd", seats=3, game=game, rules=rules))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert refused.value.details() == words
    assert await service.ListTables(pb.ListTablesRequest()) == before  # no table made


async def test_a_banking_table_takes_its_tokens_and_shows_only_the_knobs_its_preset_plays(
        server: Server, service: Service) -> None:
    rules = pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_BANKING, tokens=5))
    created = await service.CreateTable(pb.CreateTableRequest(name="bank", seats=3, game=THIRTY_ONE, rules=rules))
    shown = created.table.rules
    assert wire.rules_from_pb(shown) == Rules.of("banking", tokens=5)
    assert shown.thirty_one.tokens == 5 and shown.thirty_one.deals == 20
    assert not shown.thirty_one.HasField("lives") and not shown.thirty_one.HasField("free_ride")  # banking's are tokens
    assert [f.name for f, _ in shown.ListFields()] == ["thirty_one"]  # nothing of Ten Pennies'
    classic = await service.CreateTable(pb.CreateTableRequest(name="31", seats=3, game=THIRTY_ONE,
                                                              rules=wire.rules_to_pb(Rules.of("classic"))))
    shown = classic.table.rules
    assert not shown.thirty_one.HasField("tokens") and not shown.thirty_one.HasField("deals")


async def test_a_command_of_the_other_game_is_refused_naming_whose_it_is(server: Server, service: Service) -> None:
    table_id, host, sessions = await thirty_one_table(service, "classic", 2, players=2, seed=3)
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=host))
    seat = (await sessions[0].snapshot()).game.to_act[0]
    before = await sessions[seat].snapshot()
    with pytest.raises(grpc.aio.AioRpcError) as wrong_game:
        await sessions[seat].send(pb.Command(draw=pb.Draw()))
    assert wrong_game.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert wrong_game.value.details() == "draw is a Ten Pennies command: this table plays thirty_one"
    assert (await sessions[seat].snapshot()).game == before.game

    created = await service.CreateTable(pb.CreateTableRequest(name="tp", seats=2, seed=3,
                                                              settings=pb.TableSettings(decision_seconds=0)))
    ten = [await join(service, created.table.table_id, f"player {s}") for s in range(2)]
    await service.StartGame(pb.StartGameRequest(table_id=created.table.table_id, host_token=created.host_token))
    seat = (await ten[0].snapshot()).game.to_act[0]
    before = await ten[seat].snapshot()
    with pytest.raises(grpc.aio.AioRpcError) as wrong_game:
        await ten[seat].send(pb.Command(thirty_one_knock=pb.ThirtyOneKnock()))
    assert wrong_game.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert wrong_game.value.details() == "thirty_one_knock is a Thirty-One command: this table plays ten_pennies"
    assert (await ten[seat].snapshot()).game == before.game


# --- the timer and the takeover come from the game ------------------------------------------------------

async def test_a_silent_thirty_one_seat_gets_the_games_safe_default_from_the_timer(
        server: Server, service: Service, tmp_path: Path) -> None:
    request = pb.CreateTableRequest(name="31 timed", seats=2, game=THIRTY_ONE, seed=17,
                                    rules=wire.rules_to_pb(Rules.of("classic", lives=1, free_ride=False)),
                                    settings=pb.TableSettings(decision_seconds=1, takeover_seconds=0))
    created: pb.CreateTableResponse = await service.CreateTable(request)
    table_id = created.table.table_id
    silent = await join(service, table_id, "Silent")
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=created.host_token))
    watcher = ThinThirtyOne(SeatSession(service, table_id, None, ""), seed=0)
    mine: list[pb.Snapshot | pb.Event] = []

    async def listen() -> None:  # follows its stream, never answers
        async for message in silent.stream():
            mine.append(message)
            if isinstance(message, pb.Event) and message.HasField("game_ended"):
                return

    tasks = [asyncio.ensure_future(listen()), asyncio.ensure_future(watcher.play())]
    await subscribed(service, table_id, seats=[0], watchers=[watcher])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=created.host_token))
    await asyncio.wait_for(asyncio.gather(*tasks), 120)

    stored = read_game(tmp_path / "games.db", table_id)
    played = kind(THIRTY_ONE)
    game = played.new(stored.seats, stored.rules, stored.seed)
    defaulted = 0
    for command in stored.commands:
        if command.seat == 0:  # every command of the silent seat is the game's own safe default (its Kind's)
            assert command in played.timed_out(game, 0), command
            defaulted += 1
        game.apply(command)
    assert game.over and defaulted
    timers = [e for e in mine if isinstance(e, pb.Event) and e.HasField("timer_expired")]
    assert timers and all(e.timer_expired.seat == 0 for e in timers)
    assert all(e.timer_expired.command.WhichOneof("kind").startswith("thirty_one_") for e in timers)


async def test_a_gone_thirty_one_player_is_played_by_the_games_takeover_bot(
        server: Server, service: Service, tmp_path: Path) -> None:
    request = pb.CreateTableRequest(name="31 taken over", seats=2, game=THIRTY_ONE, seed=23,
                                    rules=wire.rules_to_pb(Rules.of("stop_the_bus", lives=1, free_ride=False)),
                                    settings=pb.TableSettings(decision_seconds=0, takeover_seconds=1))
    created: pb.CreateTableResponse = await service.CreateTable(request)
    table_id = created.table.table_id
    await join(service, table_id, "Gone")  # and never comes to the table
    await service.AddBot(pb.AddBotRequest(table_id=table_id, host_token=created.host_token,
                                          strategy=pb.BOT_STRATEGY_RANDOM))
    watcher = ThinThirtyOne(SeatSession(service, table_id, None, ""), seed=0)
    task = asyncio.ensure_future(watcher.play())
    await subscribed(service, table_id, watchers=[watcher])
    await service.StartGame(pb.StartGameRequest(table_id=table_id, host_token=created.host_token))
    await asyncio.wait_for(task, 120)
    table = server.lobby.tables[table_id]
    assert table.seats[0].taken_over and kind(THIRTY_ONE).takeover == "heuristic"
    stored = read_game(tmp_path / "games.db", table_id)
    game = kind(THIRTY_ONE).new(stored.seats, stored.rules, stored.seed)
    bot = kind(THIRTY_ONE).bots["heuristic"](0)
    for command in stored.commands:
        if command.seat == 0:  # the game's takeover bot, the heuristic, made every move of the gone seat
            assert command == bot.choose(game.view(0))
        game.apply(command)
    assert game.over
