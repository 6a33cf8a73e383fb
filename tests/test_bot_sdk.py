"""The bot SDK against a real server on loopback: the same bot plays alike in-process and over gRPC, answers
within the decision timer, survives its own failures and the server's restart; the example bot, the CLI,
and the grpcurl walk-through (the same JSON requests, through json_format)."""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tenpennies.client import bot as sdk
from tenpennies.client.bot import BotLoadError, SeatStats, load_bot, load_script, play_seat
from tenpennies.client.connection import Backoff, Connection, SeatSession
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import play_game
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    Discard,
    Draw,
    Game,
    HouseRules,
    LaySet,
    PassBuy,
    Phase,
    SeatView,
    parse_command,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.bots import GreedyBot, safe_default
from tenpennies.server.app import Options, Server
from tenpennies.server.store import seed_from_db
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping

from serverkit import subscribed

ROOT = Path(__file__).resolve().parent.parent
MIN_BOT = ROOT / "client" / "examples" / "min_bot.py"
SHORT = HouseRules(max_turns=40)  # whole 7-round games that stay short
TINY = HouseRules(max_turns=16, rounds=(1, 2))


def fast() -> Backoff:
    return Backoff(first=0.05, most=0.3)


async def until(condition: Callable[[], bool], timeout: float = 30, what: str = "the condition") -> None:
    """Poll ``condition`` until it holds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not condition():
        assert loop.time() < give_up, f"{what} did not come within {timeout} s"
        await asyncio.sleep(0.01)


def stored_commands(db: Path, table_id: str) -> list[Command]:
    with sqlite3.connect(db) as conn:
        return [parse_command(c) for (c,) in conn.execute(
            "SELECT command FROM commands WHERE table_id = ? ORDER BY idx", (table_id,))]


def stored_events(db: Path, table_id: str) -> list[pb.Event]:
    with sqlite3.connect(db) as conn:
        return [pb.Event.FromString(data) for (data,) in conn.execute(
            "SELECT data FROM events WHERE table_id = ? ORDER BY seq", (table_id,))]


def stored_game(db: Path, table_id: str) -> Game:
    with sqlite3.connect(db) as conn:
        seats, rules, seed = conn.execute("SELECT seats, rules, seed FROM tables WHERE id = ?", (table_id,)).fetchone()
    return Game.replay(seats, HouseRules.from_dict(json.loads(rules)), seed_from_db(seed),
                       stored_commands(db, table_id))


def without_buy_answers(log: list[Command]) -> list[Command]:
    """A buy offer's answers come in whatever order the seats send them, and one that settles early (a
    nearer seat buys) leaves the others' answers unasked in-process but perhaps sent over the wire: the
    game is the same, so compare everything else."""
    return [c for c in log if not isinstance(c, Buy | PassBuy)]


def replayed_events(game: Game) -> list[ev.Event]:
    """Every event of the game (buy answers' private acknowledgements aside), from its seed and log."""
    again = Game(game.n, game.rules, game.seed)
    events = list(again.opening_events)
    for command in game.log:
        events += again.apply(command)
    return [e for e in events if not isinstance(e, ev.BuyAnswered)]


async def seated_table(connection: Connection, rules: HouseRules, seed: int, players: int, bots: int = 0,
                       decision_seconds: int = 0) -> tuple[str, str, list[SeatSession]]:
    table = await connection.create_table("sdk", players + bots, mapping.rules_to_pb(rules),
                                          decision_seconds=decision_seconds, takeover_seconds=0, seed=seed)
    sessions = [await connection.join(table.table_id, f"sdk {s}") for s in range(players)]
    for _ in range(bots):
        await connection.add_bot(table.table_id, table.host_token, "greedy")
    return table.table_id, table.host_token, sessions


# --- one bot, everywhere ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["greedy", "script"])
async def test_the_same_bot_plays_a_seeded_table_alike_in_process_and_over_grpc(
        server: Server, connection: Connection, tmp_path: Path, kind: str) -> None:
    def make() -> Bot:
        return load_bot("greedy") if kind == "greedy" else load_script(MIN_BOT)

    seed = 5
    in_process = play_game(Game(4, SHORT, seed), [make() for _ in range(4)])
    assert in_process.over

    table_id, host, sessions = await seated_table(connection, SHORT, seed, players=4)
    stats = [SeatStats() for _ in sessions]
    games = [asyncio.ensure_future(play_seat(make(), s, stats=st)) for s, st in zip(sessions, stats, strict=True)]
    await subscribed(connection.service, table_id, seats=range(4))
    await connection.start(table_id, host)
    ends = await asyncio.wait_for(asyncio.gather(*games), 120)

    over_grpc = stored_game(Path(server.options.db), table_id)
    assert over_grpc.over
    assert without_buy_answers(over_grpc.log) == without_buy_answers(in_process.log)
    assert replayed_events(over_grpc) == replayed_events(in_process)
    for end in ends:
        assert end is not None
        assert list(end.scores) == [p.score for p in in_process.players]
        assert list(end.winners) == list(in_process.winners)
    for st in stats:  # every decision answered by the bot itself (a buy answer may come after the offer settled)
        assert st.defaults == st.errors == st.illegal == st.slow == 0
        assert st.played + st.refused + st.stale == st.decisions
        assert st.outcomes == st.decisions and added_up(st)


# --- the decision timer ---------------------------------------------------------------------------------

class SlowBot:
    """Thinks until released."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def choose(self, view: SeatView) -> Command:
        self.calls += 1
        self.release.wait(30)
        return GreedyBot().choose(view)


async def test_a_bot_too_slow_for_the_timer_has_the_safe_default_sent_before_the_deadline(
        server: Server, connection: Connection) -> None:
    table_id, host, (session,) = await seated_table(connection, SHORT, 3, players=1, bots=3, decision_seconds=2)
    slow = SlowBot()
    stats = SeatStats()
    game = asyncio.ensure_future(play_seat(slow, session, stats=stats))
    try:
        await subscribed(connection.service, table_id, seats=[0])
        await connection.start(table_id, host)
        await until(lambda: stats.defaults >= 4, what="four safe defaults")
        db = Path(server.options.db)
        await until(lambda: sum(c.seat == 0 for c in stored_commands(db, table_id)) >= 4, what="them stored")
    finally:
        asked = slow.calls  # before it is released: once free, it may be asked again before the cancel lands
        slow.release.set()
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
    assert asked == 1  # asked once; busy with it since, so every later decision went to the default at once
    assert stats.slow == stats.defaults and stats.played == 0
    assert stats.outcomes == stats.decisions and added_up(stats)  # (the last one still open as it stopped)
    assert stats.refused == 0  # every default arrived while its decision was open
    timed_out = [e for e in stored_events(db, table_id) if e.WhichOneof("kind") == "timer_expired"
                 and e.timer_expired.seat == 0]
    assert timed_out == []  # the server's timer never had to act for the seat
    log = stored_commands(db, table_id)  # and what was sent for it is exactly the safe default, each time
    replay = Game(4, SHORT, 3)
    for command in log:
        if command.seat == 0:
            assert command == safe_default(replay.view(0))
        replay.apply(command)


class Misbehaving:
    """Raises, answers nonsense, names another seat, lays a set of cards it does not hold, buys when nothing
    is offered, in turn; plays greedy in between."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: SeatView) -> Command:
        self.calls += 1
        seat = view.seat
        assert seat is not None
        match self.calls % 6:
            case 1:
                raise RuntimeError("the bot fell over")
            case 2:
                return "discard the ace"  # type: ignore[return-value]  # what a careless script returns
            case 3:
                return Draw((seat + 1) % view.seats)
            case 4 if view.phase is Phase.MELD and view.players[seat].down is False:
                held = {c.id for c in view.hand}
                return LaySet(seat, tuple(Card.from_id(i) for i in range(54) if i not in held)[:3])  # refused
            case 5 if view.phase is not Phase.BUY:
                return Buy(seat)
        return GreedyBot().choose(view)


async def test_a_bot_that_raises_or_answers_illegal_commands_keeps_playing_its_seat(
        server: Server, connection: Connection) -> None:
    table_id, host, (session,) = await seated_table(connection, TINY, 8, players=1, bots=3)
    stats = SeatStats()
    bad = Misbehaving()
    game = asyncio.ensure_future(play_seat(bad, session, stats=stats))
    await subscribed(connection.service, table_id, seats=[0])
    await connection.start(table_id, host)
    end = await asyncio.wait_for(game, 60)
    assert end is not None  # the game went to its end
    assert stored_game(Path(server.options.db), table_id).over
    assert stats.errors > 0 and stats.illegal > 0 and stats.refused > 0 and stats.played > 0
    assert stats.defaults == stats.errors + stats.illegal + stats.slow
    assert stats.played + stats.defaults >= stats.decisions - stats.refused
    # each decision ended one way, and the summary's numbers add up to the decisions
    assert stats.outcomes == stats.decisions and added_up(stats)
    assert stats.refused >= stats.lost and stats.defaults == stats.slow + stats.errors + stats.illegal


def added_up(stats: SeatStats) -> bool:
    """The ``tenpennies bot`` summary line: its decisions, then the ways they ended (their reasons in
    brackets), which add up to them."""
    line = stats.summary()
    head, ways = line.split(";")[0].split(":", 1)
    counts = [int(part.split()[-1]) for part in re.sub(r"\(.*?\)", "", ways).split(",")]
    return int(head.split()[-1]) == stats.decisions == sum(counts) and len(counts) == 6


# --- the stream drops ---------------------------------------------------------------------------------------

async def test_a_bot_resumes_after_the_server_restarts_on_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = Server(Options(port=0, db=str(db), allow_seeds=True))
    await first.start()
    port = first.port
    connection = Connection(f"127.0.0.1:{port}")
    second: Server | None = None
    games: list[asyncio.Future[pb.GameEnded | None]] = []
    try:
        table_id, host, sessions = await seated_table(connection, SHORT, 21, players=4)
        stats = [SeatStats() for _ in sessions]
        games = [asyncio.ensure_future(play_seat(GreedyBot(), s, stats=st, backoff=fast()))
                 for s, st in zip(sessions, stats, strict=True)]
        await subscribed(connection.service, table_id, seats=range(4))
        await connection.start(table_id, host)
        await until(lambda: sum(st.played for st in stats) >= 60, what="60 commands")
        await first.stop(0)
        await until(lambda: all(st.reconnects >= 1 for st in stats), what="every stream to drop")
        played = sum(st.played for st in stats)
        second = Server(Options(port=port, db=str(db), allow_seeds=True))
        await second.start()
        ends = await asyncio.wait_for(asyncio.gather(*games), 120)
        assert sum(st.played for st in stats) > played  # the game went on after the restart
        game = stored_game(db, table_id)
        assert game.over
        for end in ends:
            assert end is not None and list(end.scores) == [p.score for p in game.players]
    finally:
        for task in games:
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        await connection.close()
        await (second or first).stop(0)


# --- loading bots --------------------------------------------------------------------------------------------

def test_scripts_give_bots_by_class_or_function_and_say_what_is_wrong(tmp_path: Path) -> None:
    by_class = tmp_path / "by_class.py"
    by_class.write_text("import random\nclass Bot:\n    def __init__(self, seed):\n"
                        "        self.rng = random.Random(seed)\n"
                        "    def choose(self, view):\n        return self.rng.choice(view.legal)\n")
    by_function = tmp_path / "by_function.py"
    by_function.write_text("def choose(view):\n    return view.legal[-1]\n")
    neither = tmp_path / "neither.py"
    neither.write_text("x = 1\n")
    broken = tmp_path / "broken.py"
    broken.write_text("this is not python\n")
    for path in (by_class, by_function, MIN_BOT):  # each plays a whole game in-process
        assert play_game(Game(3, TINY, 2), [load_script(path, seed=s) for s in range(3)]).over
    for path, words in ((neither, "neither"), (broken, "failed to load"), (tmp_path / "gone.py", "no such file")):
        with pytest.raises(BotLoadError, match=words):
            load_script(path)
    with pytest.raises(BotLoadError, match="strategies are"):
        load_bot("nonesuch")


# --- the example bot and the CLI -----------------------------------------------------------------------------

async def test_the_example_bot_plays_a_whole_game_against_a_real_server(server: Server) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(MIN_BOT), f"127.0.0.1:{server.port}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), 120)
    text = out.decode()
    assert process.returncode == 0, text
    table_id = text.split("of table ")[1].split()[0]
    assert "scores [" in text
    assert stored_game(Path(server.options.db), table_id).over


def bot_cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tenpennies bot")
    sdk.add_arguments(parser)
    return parser.parse_args(argv)


async def test_tenpennies_bot_joins_a_table_plays_it_and_prints_rounds_and_standings(
        server: Server, connection: Connection, capsys: pytest.CaptureFixture[str]) -> None:
    table = await connection.create_table("cli", 3, mapping.rules_to_pb(TINY), decision_seconds=5,
                                          takeover_seconds=0)
    for _ in range(2):
        await connection.add_bot(table.table_id, table.host_token, "random")
    args = bot_cli("--server", f"127.0.0.1:{server.port}", "--table", table.table_id, "--script", str(MIN_BOT),
                   "--name", "Min")
    running = asyncio.ensure_future(asyncio.to_thread(sdk.run, args))
    await until(lambda: "joined table" in capsys.readouterr().out or running.done(), what="the bot to join")
    await connection.start(table.table_id, table.host_token)
    assert await asyncio.wait_for(running, 60) == 0
    out = capsys.readouterr().out
    assert out.count("\nRound ") + out.startswith("Round ") == 2, out  # the narrator's "Round 1 over, ..."
    assert "final standings:" in out and "Min" in out and "(this bot)" in out
    assert "safe defaults 0" in out


async def test_tenpennies_bot_refuses_flags_that_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert sdk.run(bot_cli("--server", "h:1", "--table", "t", "--token", "x", "--strategy", "greedy")) == 2
    assert sdk.run(bot_cli("--server", "h:1", "--tournament", "--seat", "1", "--strategy", "greedy")) == 2
    assert sdk.run(bot_cli("--server", "h:1", "--table", "t", "--strategy", "nonesuch")) == 2
    assert "strategies are" in capsys.readouterr().err


async def test_tournament_against_a_server_without_the_rpc_says_it_has_no_tournament_mode(
        capsys: pytest.CaptureFixture[str]) -> None:
    bare = grpc.aio.server()  # knows no service at all: every call is UNIMPLEMENTED
    port = bare.add_insecure_port("127.0.0.1:0")
    await bare.start()
    try:
        connection = Connection(f"127.0.0.1:{port}")
        with pytest.raises(sdk.NoTournamentMode):
            await sdk.enter_tournament(connection, "me", GreedyBot())
        await connection.close()
        args = bot_cli("--server", f"127.0.0.1:{port}", "--tournament", "--strategy", "greedy")
        assert await asyncio.to_thread(sdk.run, args) == 1
        assert "this server has no tournament mode" in capsys.readouterr().err
    finally:
        await bare.stop(0)


# --- the grpcurl walk-through, as JSON ------------------------------------------------------------------------

async def test_the_grpcurl_walk_through_works_as_json(server: Server, connection: Connection) -> None:
    """The grpcurl example of docs/BOTS.md, request by request: the same JSON, parsed as grpcurl parses it."""
    reflect = reflection_pb2_grpc.ServerReflectionStub(connection.channel)

    async def ask() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
        yield reflection_pb2.ServerReflectionRequest(list_services="")
    services = [s.name async for r in reflect.ServerReflectionInfo(ask()) for s in r.list_services_response.service]
    assert "tenpennies.v2.TenPenniesService" in services

    service = connection.service
    created = await service.CreateTable(json_format.Parse(
        '{"name": "curl", "seats": 2, "settings": {"decisionSeconds": 0, "takeoverSeconds": 0}}',
        pb.CreateTableRequest()))
    answer = json.loads(json_format.MessageToJson(created))
    table_id, host_token = answer["table"]["tableId"], answer["hostToken"]
    joined = json.loads(json_format.MessageToJson(await service.JoinTable(json_format.Parse(
        json.dumps({"tableId": table_id, "name": "curl"}), pb.JoinTableRequest()))))
    token = joined["token"]
    assert joined["seat"] == 0  # present in JSON although zero: the field carries presence
    await service.AddBot(json_format.Parse(json.dumps(
        {"tableId": table_id, "hostToken": host_token, "strategy": "BOT_STRATEGY_GREEDY"}), pb.AddBotRequest()))
    await service.StartGame(json_format.Parse(json.dumps({"tableId": table_id, "hostToken": host_token}),
                                              pb.StartGameRequest()))

    stream = service.Subscribe(json_format.Parse(json.dumps({"tableId": table_id, "token": token}),
                                                 pb.SubscribeRequest()))
    discarded = False
    async for message in stream:  # answer each decision with a legal command, as JSON, until one discard
        data = json.loads(json_format.MessageToJson(message))
        if "snapshot" in data:
            legal = data["snapshot"].get("game", {}).get("legalCommands", [])
        else:
            requests = [e["decisionRequest"] for e in data["events"]["events"] if "decisionRequest" in e]
            legal = requests[-1]["legalCommands"] if requests else []
        if not legal:
            continue
        discards = [c for c in legal if "discard" in c]
        if discards:
            card_id = discards[0]["discard"]["cardId"]
            command = f'{{"discard": {{"cardId": {card_id}}}}}'
        else:
            kinds = [next(iter(c)) for c in legal]
            pick = next(k for k in ("declineDiscard", "passBuy", "draw") if k in kinds)
            command = json.dumps({pick: {}})
        request = json_format.Parse(
            f'{{"tableId": "{table_id}", "token": "{token}", "command": {command}}}', pb.SendCommandRequest())
        reply = json.loads(json_format.MessageToJson(await service.SendCommand(request)))
        assert int(reply["sequence"]) > 0  # a uint64: a string in JSON
        if discards:
            discarded = True
            break
    stream.cancel()
    assert discarded
    log = stored_game(Path(server.options.db), table_id).log
    assert any(isinstance(c, Discard) and c.seat == 0 for c in log)
