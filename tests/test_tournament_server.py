"""The server's tournament mode, for real: a server on a loopback port started with a tournament config,
bot clients on channels of their own that register, wait for seats, play them and leave; the standings
checked against what the stored games say, recomputed here from the stored events alone."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from openskill.models import BradleyTerryFull

from tenpennies.client.connection import SeatSession, ServerError, open_channel, stub
from tenpennies.engine.tournament import Standings
from tenpennies.server.app import Options, Server
from tenpennies.server.front import Front
from tenpennies.server.store import Store
from tenpennies.server.tournament import TournamentConfig, stored_result
from tenpennies.server.workers import known_workers, worker_db
from tenpennies.v2 import tenpennies_pb2 as pb

from serverkit import Service, ThinClient

RULES = {"rounds": [1], "max_turns": 20}  # short games


def write_config(tmp_path: Path, **settings: Any) -> Path:
    config = {"name": "cup", "seats": 3, "games": 8, "rules": RULES, "decision_seconds": 3,
              "takeover_seconds": 1, "seed": 42, **settings}
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(config))
    return path


async def start_server(db: Path, config: Path, workers: int = 1) -> Server | Front:
    """The tournament server: one process, or a front and its ``workers`` (``serve --workers``)."""
    options = Options(port=0, db=str(db), allow_seeds=True, tournament=str(config), workers=workers)
    server = Server(options) if workers == 1 else Front(options)
    await server.start()
    return server


class Vandal(ThinClient):
    """Sends an illegal command before every legal one."""

    vandalism = 0  # its illegal commands (refused, as the test checks)
    names = True

    async def _act(self, legal: list[pb.Command]) -> None:
        kinds = {c.WhichOneof("kind") for c in legal}
        wrong = next(c for c in (pb.Command(draw=pb.Draw()), pb.Command(buy=pb.Buy()),
                                 pb.Command(take_discard=pb.TakeDiscard())) if c.WhichOneof("kind") not in kinds)
        # Both its commands name the decision they answer: one that comes once the game has moved on (a
        # nearer seat bought, a timer acted) is refused as too late, and counts as nothing illegal on either
        # side. (Unnamed, a late legal answer was judged against the next question and counted illegal by the
        # server alone: CI once saw 122 against 121.)
        try:
            await self.session.send(wrong, self.asked)
        except ServerError as error:
            self.refused += 1
            if error.code() != grpc.StatusCode.ABORTED:
                assert error.code() == grpc.StatusCode.FAILED_PRECONDITION and error.rule
                self.vandalism += 1
        await super()._act(legal)


class Bot:
    """A bot program: registers (unless it has its token), holds WaitForSeat open and plays every seat
    it is given. ``manner``: fair; vandal (illegal commands); mute (never plays a seat: the takeover
    does); crasher (goes away for good in the middle of its first game)."""

    def __init__(self, name: str, manner: str = "fair", seed: int = 0, gate: asyncio.Event | None = None) -> None:
        self.name, self.manner, self.seed, self.gate = name, manner, seed, gate
        self.token = ""
        self.seatings: list[pb.WaitForSeatResponse] = []
        self.clients: list[ThinClient] = []

    async def run(self, address: str) -> None:
        channel = open_channel(address)
        service = stub(channel)
        playing: list[asyncio.Task[None]] = []
        try:
            if not self.token:
                reply = await service.RegisterBot(pb.RegisterBotRequest(tournament="cup", name=self.name))
                self.token = reply.bot_token
            call = service.WaitForSeat(pb.WaitForSeatRequest(bot_token=self.token))
            async for seating in call:
                self.seatings.append(seating)
                if self.manner == "mute":
                    continue
                session = SeatSession(service, seating.table_id, seating.seat, seating.token)
                kind = Vandal if self.manner == "vandal" else ThinClient
                client = kind(session, seed=self.seed * 1000 + len(self.seatings), gate=self.gate)
                self.clients.append(client)
                if self.manner == "crasher":
                    await client.play(stop_after=15)
                    call.cancel()
                    return
                playing.append(asyncio.ensure_future(client.play()))
            await asyncio.gather(*playing)
        finally:
            for task in playing:
                task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
            await channel.close()


async def standings(service: Service) -> pb.GetStandingsResponse:
    reply: pb.GetStandingsResponse = await service.GetStandings(pb.GetStandingsRequest(tournament="cup"))
    return reply


async def until(condition: Any, what: str, seconds: float = 120) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not await condition():
        assert loop.time() < give_up, f"never happened: {what}"
        await asyncio.sleep(0.05)


def stored_standings(db: Path, tournament: str) -> tuple[dict[str, dict[str, Any]], list[list[str]]]:
    """The standings as the stored games say, from their stored events alone (not the server's results):
    final scores and winners from GameEnded; pennies from the pot shares, less a penny a card left in hand
    at each round's end and a penny a buy; ratings replayed in the order the games finished. Also the
    seating of every game."""
    model = BradleyTerryFull()
    table: dict[str, dict[str, Any]] = {}
    workers = [sqlite3.connect(worker_db(str(db), k)) for k in range(known_workers(str(db)))]

    def holder(table_id: str) -> sqlite3.Connection:
        """The store of the worker that played the table (the server's own, in one process)."""
        return next(w for w in workers if w.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone())
    with sqlite3.connect(db) as conn:
        for (name,) in conn.execute("SELECT name FROM tournament_bots WHERE tournament = ?", (tournament,)):
            table[name] = {"games": 0, "wins": 0, "scores": [], "pennies": 0, "buys": 0, "commands": 0,
                           "rating": model.rating()}
        games = conn.execute("SELECT table_id, names, finished FROM tournament_games WHERE tournament = ? "
                             "ORDER BY finished", (tournament,)).fetchall()
        seatings = [json.loads(names) for _, names, _ in games]
        for table_id, names_text, finished in games:
            if finished is None:
                continue
            names = json.loads(names_text)
            events = [pb.Event.FromString(data) for (data,) in holder(table_id).execute(
                "SELECT data FROM events WHERE table_id = ? AND audience IS NULL ORDER BY seq", (table_id,))]
            ended = next(e.game_ended for e in events if e.HasField("game_ended"))
            pennies = list(ended.ten_pennies.shares)
            for event in events:
                if event.HasField("round_ended"):
                    for seat, hand in enumerate(event.round_ended.hands):
                        pennies[seat] -= len(hand.cards)
                elif event.HasField("card_bought"):
                    pennies[event.card_bought.seat] -= 1
                    table[names[event.card_bought.seat]]["buys"] += 1
            for (command,) in holder(table_id).execute("SELECT command FROM commands WHERE table_id = ?",
                                                       (table_id,)):
                table[names[int(command.split()[0])]]["commands"] += 1
            assert sum(pennies) == 0, "the pot goes back in full"
            rated = model.rate([[table[n]["rating"]] for n in names], ranks=[float(s) for s in ended.scores])
            for seat, name in enumerate(names):
                record = table[name]
                record["games"] += 1
                record["wins"] += 1 / len(ended.winners) if seat in ended.winners else 0  # tied winners share
                record["scores"].append(ended.scores[seat])
                record["pennies"] += pennies[seat]
                record["rating"] = rated[seat][0]
    for worker in workers:
        worker.close()
    return table, seatings


def assert_standings_match(reply: pb.GetStandingsResponse, db: Path, seats: int) -> None:
    expected, _ = stored_standings(db, "cup")
    assert {s.name for s in reply.standings} == set(expected)
    assert reply.games_played == sum(r["games"] for r in expected.values()) // seats
    for standing in reply.standings:
        record = expected[standing.name]
        assert (standing.games, standing.tallies["pennies"], standing.tallies["buys"]) == \
            (record["games"], record["pennies"], record["buys"]), standing.name
        assert standing.shared_wins == pytest.approx(record["wins"]) and standing.wins == round(standing.shared_wins)
        scores = record["scores"]
        if scores:
            mean = sum(scores) / len(scores)
            assert standing.mean_score == pytest.approx(mean)
            spread = (sum((x - mean) ** 2 for x in scores) / (len(scores) - 1)) ** 0.5 if len(scores) > 1 else 0
            assert standing.mean_score_margin == pytest.approx(1.96 * spread / len(scores) ** 0.5)
        else:
            assert not standing.HasField("mean_score")
        assert standing.rating_mu == pytest.approx(record["rating"].mu)
        assert standing.rating_sigma == pytest.approx(record["rating"].sigma)
    ordinals = [s.rating_mu - 3 * s.rating_sigma for s in reply.standings]
    assert ordinals == sorted(ordinals, reverse=True)


@pytest.fixture
async def tournament_server(tmp_path: Path) -> AsyncIterator[Server]:
    server = Server(Options(port=0, db=str(tmp_path / "cup.db"), allow_seeds=True,
                            tournament=str(write_config(tmp_path))))
    await server.start()
    yield server
    await server.stop(0)


@pytest.fixture(params=[1, 2], ids=["one process", "two workers"])
async def any_tournament_server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server | Front]:
    """The tournament server in one process, and as a front with two workers (its games on both)."""
    server = await start_server(tmp_path / "cup.db", write_config(tmp_path), workers=request.param)
    yield server
    await server.stop(0)


# --- a whole tournament ---------------------------------------------------------------------------------

async def test_bots_register_play_and_leave_and_the_standings_are_the_stored_games(
        any_tournament_server: Server | Front, tmp_path: Path) -> None:
    address = f"127.0.0.1:{any_tournament_server.port}"
    channel = open_channel(address)
    service = stub(channel)
    bots = [Bot("ada", seed=1), Bot("bea", seed=2), Bot("cy", seed=3), Bot("vandal", "vandal", seed=4),
            Bot("mute", "mute"), Bot("crasher", "crasher", seed=6)]
    running = [asyncio.ensure_future(bot.run(address)) for bot in bots]
    lobby = service.WatchTables(pb.WatchTablesRequest())
    await asyncio.wait_for(asyncio.gather(*running), 180)  # every WaitForSeat stream ends: it is over

    reply = await standings(service)
    assert (reply.tournament, reply.games_played, reply.games_total, reply.games_playing) == ("cup", 8, 8, 0)
    assert_standings_match(reply, tmp_path / "cup.db", seats=3)
    _, seatings = stored_standings(tmp_path / "cup.db", "cup")
    stayed = [b.name for b in bots if b.manner != "crasher"]
    met = {frozenset((a, b)) for names in seatings for a in names for b in names if a != b}
    assert all(frozenset((a, b)) in met for a in stayed for b in stayed if a != b), "every bot meets every other"
    crasher = next(b for b in bots if b.manner == "crasher")
    assert len(crasher.seatings) == 1 and sum(1 for names in seatings if "crasher" in names) == 1
    vandal = next(b for b in bots if b.manner == "vandal")
    assert sum(c.refused for c in vandal.clients) > 0
    # illegal: the vandal's commands that answered nothing it was asked (a fair bot's refusals are late
    # answers that lost a race: a nearer seat bought, or the timer acted first); every command of the mute
    # bot's seats was made for it by the timer or the takeover bot
    counted = {s.name: s for s in reply.standings}
    assert counted["vandal"].illegal == sum(c.vandalism for c in vandal.clients if isinstance(c, Vandal))
    assert all(counted[b.name].illegal == 0 for b in bots if b.manner != "vandal")
    expected, _ = stored_standings(tmp_path / "cup.db", "cup")
    assert counted["mute"].timed_out == expected["mute"]["commands"] > 0
    assert counted["crasher"].timed_out > 0
    assert all(c.game_ended is not None for b in bots if b.manner in ("fair", "vandal") for c in b.clients)
    if isinstance(any_tournament_server, Front):  # its games were played on both workers
        for k in (0, 1):
            with sqlite3.connect(worker_db(str(tmp_path / "cup.db"), k)) as conn:
                assert conn.execute("SELECT COUNT(*) FROM tables WHERE creator = 'tournament:cup'").fetchone()[0]

    # the lobby shows the tournament's tables like any other; nobody joins them from outside
    first = await lobby.read()
    names = {t.name for t in first.tables}
    lobby.cancel()
    listed = await service.ListTables(pb.ListTablesRequest())
    ours = [t for t in listed.tables if t.name.startswith("cup #")]
    assert ours and all(t.status == pb.TABLE_STATUS_FINISHED and not t.HasField("seed") for t in ours)
    assert all(t.tournament == "cup" for t in ours)
    assert not [t for t in listed.tables if t.tournament and not t.name.startswith("cup #")]
    assert names <= {t.name for t in listed.tables}
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await service.JoinTable(pb.JoinTableRequest(table_id=ours[0].table_id, name="gatecrasher"))
    assert refused.value.code() in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.FAILED_PRECONDITION)

    # over: no new names, and a stream opened now ends at once
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await service.RegisterBot(pb.RegisterBotRequest(name="late"))
    assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert [s async for s in service.WaitForSeat(pb.WaitForSeatRequest(bot_token=bots[0].token))] == []
    await channel.close()


async def test_a_restart_mid_tournament_keeps_the_standings_and_the_tournament_goes_on(tmp_path: Path) -> None:
    # a game cut off mid-way: the bots are held while one under way is looked for and the server stopped (at
    # full speed, one found under way could end in the ms before the stop, and then nothing was cut)
    db = tmp_path / "cup.db"
    config = write_config(tmp_path, seats=2, games=8, rules={**RULES, "max_turns": 120})
    server = await start_server(db, config)
    gate = asyncio.Event()  # open: the bots play; clear: they hold their answers (the games stand still)
    gate.set()
    bots = [Bot(name, seed=i, gate=gate) for i, name in enumerate(("ada", "bea", "cy", "dee"))]
    address = f"127.0.0.1:{server.port}"
    channel = open_channel(address)
    service = stub(channel)
    running = [asyncio.ensure_future(bot.run(address)) for bot in bots]

    async def cut_off() -> str | None:
        """A table given to a bot whose game is being played."""
        for table_id in {s.table_id for bot in bots for s in bot.seatings}:
            reply = await service.GetSnapshot(pb.GetSnapshotRequest(table_id=table_id))
            if reply.snapshot.table.status == pb.TABLE_STATUS_PLAYING and 1 < reply.snapshot.game.turn < 60:
                return table_id
        return None

    async def held_with_one_under_way() -> bool:
        """The bots held (no answer on its way: nothing moves a game, its decision timer is seconds away),
        then three games played and one under way; else they play on. Held, a game found under way is
        still under way when the server stops (one found at full speed could end in the ms before)."""
        gate.clear()
        while any(client.sending for bot in bots for client in bot.clients):
            await asyncio.sleep(0.001)
        if (await standings(service)).games_played >= 3 and await cut_off() is not None:
            return True
        gate.set()
        return False
    await until(held_with_one_under_way, "three games played and one under way")
    await server.stop(0)
    gate.set()  # the bots' streams break with the server; held, their answers would wait for good
    await asyncio.gather(*running, return_exceptions=True)  # the streams break with the server
    await channel.close()
    with sqlite3.connect(db) as conn:  # the games cut off, whose bots had been told their seats
        cut = {table_id for (table_id,) in conn.execute(
            "SELECT t.id FROM tournament_games g JOIN tables t ON t.id = g.table_id WHERE t.status = 'playing'")}
    cut &= {s.table_id for bot in bots for s in bot.seatings}
    assert cut
    before, _ = stored_standings(db, "cup")
    assert 3 <= sum(r["games"] for r in before.values()) // 2 < 8

    server = await start_server(db, config)
    address = f"127.0.0.1:{server.port}"
    channel = open_channel(address)
    service = stub(channel)
    try:
        reply = await standings(service)  # what was played before is still there (and what ended meanwhile)
        assert reply.games_played >= sum(r["games"] for r in before.values()) // 2
        for standing in reply.standings:
            assert standing.games >= before[standing.name]["games"]
        # a name is taken up again only with its token
        again = await service.RegisterBot(pb.RegisterBotRequest(name="ada", bot_token=bots[0].token))
        assert again.bot_token == bots[0].token
        with pytest.raises(grpc.aio.AioRpcError) as taken:
            await service.RegisterBot(pb.RegisterBotRequest(name="ada"))
        assert taken.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "taken" in (taken.value.details() or "")
        # the same bots come back with their tokens; a game cut off by the restart goes on where it was
        await asyncio.wait_for(asyncio.gather(*(bot.run(address) for bot in bots)), 180)
        reply = await standings(service)
        assert (reply.games_played, reply.games_total) == (8, 8)
        for table_id in cut:
            resumed = [s for bot in bots for s in bot.seatings if s.table_id == table_id]
            assert len(resumed) == 4, "a game cut off is given again to both its bots"
            with sqlite3.connect(db) as conn:
                assert conn.execute("SELECT status FROM tables WHERE id = ?", (table_id,)).fetchone() == \
                    ("finished",)
        expected = {s.name: s.games for s in reply.standings}
        assert all(expected[name] >= record["games"] for name, record in before.items())
        assert_standings_match(reply, db, seats=2)
    finally:
        await channel.close()
        await server.stop(0)


# --- the parts on their own ---------------------------------------------------------------------------

def test_tied_scores_are_ties_to_the_rating_and_tied_winners_share_the_win() -> None:
    table = Standings()
    table.add(stored_result(0, ["a", "b", "c"], {"scores": [40, 40, 90], "winners": [0, 1],
                                                 "tallies": {"pennies": [3, 3, -6], "buys": [0, 1, 2]}},
                            ("pennies", "buys")))
    a, b, c = (table.table[n] for n in "abc")
    assert (a.rating_mu, a.rating_sigma) == (b.rating_mu, b.rating_sigma) and a.rating_mu > c.rating_mu
    assert (a.wins, b.wins, c.wins) == (0.5, 0.5, 0) and c.tallies == {"pennies": -6, "buys": 2}


def test_a_result_stored_with_its_tallies_beside_the_scores_still_counts() -> None:
    """A store written before the tallies had a key of their own: pennies and buys beside the scores (and a
    result older still, from before buys were counted)."""
    table = Standings()
    table.add(stored_result(0, ["a", "b", "c"], {"scores": [40, 40, 90], "winners": [0, 1], "pennies": [3, 3, -6],
                                                 "buys": [1, 0, 2], "illegal": [0, 1, 0], "timed_out": [0, 0, 3]},
                            ("pennies", "buys")))
    table.add(stored_result(1, ["a", "b", "c"], {"scores": [10, 50, 60], "winners": [0], "pennies": [7, -3, -4]},
                            ("pennies", "buys")))
    a, b, c = (table.table[n] for n in "abc")
    assert (a.tallies, b.tallies, c.tallies) == ({"pennies": 10, "buys": 1}, {"pennies": 0, "buys": 0},
                                                 {"pennies": -10, "buys": 2})
    assert (b.illegal, c.timeouts, a.games) == (1, 3, 2)


@pytest.mark.parametrize(("settings", "says"), [
    ({"seats": 9}, "seats"), ({"games": 0}, "games"), ({"colour": "red"}, "colour"),
    ({"rules": {"rounds": [3, 1]}}, "rounds"), ({"rules": {"no_such": 1}}, "no_such"), ({"name": ""}, "name"),
])
def test_a_config_with_a_mistake_says_what(tmp_path: Path, settings: dict[str, Any], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        TournamentConfig.load(write_config(tmp_path, **settings))


def test_a_config_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        TournamentConfig.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{name: ")
    with pytest.raises(ValueError, match="not valid JSON"):
        TournamentConfig.load(tmp_path / "bad.json")


def test_a_toml_config_reads_like_a_json_one(tmp_path: Path) -> None:
    path = tmp_path / "cup.toml"
    path.write_text('name = "cup"\ngames = 4\nseats = 2\nseed = 7\n[rules]\nrounds = [1]\nmax_turns = 20\n')
    config = TournamentConfig.load(path)
    assert (config.name, config.games, config.seats, config.rules.rounds, config.decision_seconds) == \
        ("cup", 4, 2, (1,), 5)
    # duplicate deals: games 0 and 1 (two seats) are one deal with the seats rotated, game 2 the next deal
    assert config.game_seed(0) == config.game_seed(1) != config.game_seed(2)
    assert TournamentConfig.load(path).game_seed(3) == config.game_seed(3)  # the same config, the same deals


async def test_the_group_seated_is_the_one_that_met_least(tournament_server: Server) -> None:
    tournament = tournament_server.tournament
    assert tournament is not None
    tournament.meetings = {("a", "b"): 2, ("a", "c"): 1, ("b", "c"): 1}
    assert tournament.best_group(["a", "b", "c", "d"], 3) in (["a", "c", "d"], ["b", "c", "d"])
    tournament.seated_games = {"a": 1, "b": 3, "c": 2, "d": 0}
    assert tournament.best_group(["a", "b", "c", "d"], 3) == ["a", "c", "d"]


async def test_refusals_are_clear(tournament_server: Server, tmp_path: Path) -> None:
    channel = open_channel(f"127.0.0.1:{tournament_server.port}")
    service = stub(channel)
    cases = [
        (service.RegisterBot(pb.RegisterBotRequest(tournament="other", name="x")), grpc.StatusCode.NOT_FOUND),
        (service.RegisterBot(pb.RegisterBotRequest(name="")), grpc.StatusCode.INVALID_ARGUMENT),
        (service.RegisterBot(pb.RegisterBotRequest(name="x", bot_token="forged")),
         grpc.StatusCode.PERMISSION_DENIED),
        (service.GetStandings(pb.GetStandingsRequest(tournament="other")), grpc.StatusCode.NOT_FOUND),
    ]
    for call, code in cases:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == code
    for token, code in (("", grpc.StatusCode.UNAUTHENTICATED), ("forged", grpc.StatusCode.PERMISSION_DENIED)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            async for _ in service.WaitForSeat(pb.WaitForSeatRequest(bot_token=token)):
                pass
        assert refused.value.code() == code
    # a second stream with the same token takes over from the first
    token = (await service.RegisterBot(pb.RegisterBotRequest(name="twice"))).bot_token
    first = service.WaitForSeat(pb.WaitForSeatRequest(bot_token=token))
    await until(lambda: _linked(tournament_server, "twice"), "the first stream is open", 10)
    second = service.WaitForSeat(pb.WaitForSeatRequest(bot_token=token))
    with pytest.raises(grpc.aio.AioRpcError) as replaced:
        await first.read()
    assert replaced.value.code() == grpc.StatusCode.ABORTED
    second.cancel()
    await until(lambda: _unlinked(tournament_server, "twice"), "the bot is no longer waiting", 10)
    reply = await standings(service)
    assert [s.name for s in reply.standings] == ["twice"] and reply.games_played == 0
    assert not reply.standings[0].HasField("mean_score")
    await channel.close()

    plain = Server(Options(port=0, db=str(tmp_path / "plain.db")))
    await plain.start()
    try:
        channel = open_channel(f"127.0.0.1:{plain.port}")
        with pytest.raises(grpc.aio.AioRpcError) as none:
            await stub(channel).GetStandings(pb.GetStandingsRequest())
        assert none.value.code() == grpc.StatusCode.NOT_FOUND
        await channel.close()
    finally:
        await plain.stop(0)


async def _linked(server: Server, name: str) -> bool:
    assert server.tournament is not None
    return server.tournament.bots[name].link is not None


async def _unlinked(server: Server, name: str) -> bool:
    return not await _linked(server, name)


async def test_a_database_from_before_tournaments_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = Store(str(path))
    store.close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE tournament_bots")
        conn.execute("DROP TABLE tournament_games")
    store = Store(str(path))
    try:
        assert await store.load_tournament("cup") == ({}, [])
    finally:
        store.close()
