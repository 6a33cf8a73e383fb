"""Ten Pennies across a LAN of separate hosts: network namespaces on this machine joined by a bridge
(``tests/netns.py``). The server runs in host a, terminal clients (``tests/lan_player.py``: the real app
under Pilot) and a ``tenpennies bot`` in hosts b and c; the test's own calls go through ``tests/lan_ctl.py``
in a host, since the test process cannot reach the hosts. Marked ``lan`` (``pytest -m lan`` runs them
alone); they skip, saying why, where no network namespace can be made (neither root nor user namespaces).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from netns import BIN, Job, Lan, unavailable

pytestmark = [pytest.mark.lan, pytest.mark.skipif(bool(unavailable()), reason=f"LAN tests: {unavailable()}")]

PORT = 50051
CUT_SECONDS = 10.0
TAKEOVER = 1  # takeover_seconds of the cut test: the server tells a silent link within ~5 s, the cut lasts 10


@pytest.fixture
def lan() -> Iterator[Lan]:
    with Lan(3) as made:
        yield made


@dataclass
class Served:
    """A server in host a, and the address clients use."""
    job: Job
    address: str


def serve(lan: Lan, tmp_path: Path, *extra: str) -> Served:
    host = lan.address("a")
    job = lan.spawn("a", [str(BIN / "tenpennies"), "serve", "--host", host, "--port", str(PORT),
                          "--db", str(tmp_path / "lan.db"), "--allow-seeds", *extra], name="server")
    job.expect(lambda line: "listening on" in line, "the server listening", 20)
    return Served(job, f"{host}:{PORT}")


def ctl_job(lan: Lan, host: str, served: Served, *args: str) -> Job:
    """A ``lan_ctl.py`` call in ``host``, started."""
    what = next(arg for arg in args if arg in ("table", "start", "seats", "history"))
    return lan.python(host, "lan_ctl.py", "--server", served.address, *args, name=f"{host}:ctl {what}")


def result(job: Job, at: str, timeout: float = 30) -> dict[str, Any]:
    """The ``at`` record of a ``lan_ctl.py`` call, once it has ended well."""
    record = job.record(at, timeout)
    assert job.finish(timeout) == 0, job.tail()
    return record


def ctl(lan: Lan, host: str, served: Served, *args: str, at: str, timeout: float = 30) -> dict[str, Any]:
    """One ``lan_ctl.py`` call in ``host``; its ``at`` record."""
    return result(ctl_job(lan, host, served, *args), at, timeout)


def make_table(lan: Lan, served: Served, *, max_turns: int, decision: int = 0, takeover: int = 0,
               seed: int = 11) -> tuple[str, str]:
    made = ctl(lan, "b", served, "table", "--seats", "3", "--rounds", "1", "--max-turns", str(max_turns),
               "--decision", str(decision), "--takeover", str(takeover), "--seed", str(seed), at="table")
    return made["table_id"], made["host_token"]


def player(lan: Lan, host: str, served: Served, table_id: str, name: str, tmp_path: Path, *extra: str) -> Job:
    home = tmp_path / f"home-{name}"
    home.mkdir()
    return lan.python(host, "lan_player.py", "--server", served.address, "--name", name, "--home", str(home),
                      "--table", table_id, *extra, name=f"{host}:{name}", env={"TENPENNIES_HOME": str(home)})


def bot(lan: Lan, host: str, served: Served, table_id: str, *extra: str) -> Job:
    return lan.spawn(host, [str(BIN / "tenpennies"), "bot", "--server", served.address, "--table", table_id,
                            "--strategy", "greedy", *extra], name=f"{host}:bot")


def seat_of(job: Job) -> dict[str, Any]:
    return job.record("seated", 30)


def check_against_server(truth: dict[str, Any], over: dict[str, Any]) -> None:
    """The client's end of the game is the server's: its stream delivered each event of its seat's history
    once, every one from its first snapshot to the game's end (none lost across a reconnect), and it shows
    the same hand, scores and pennies as the seat's whole history (``lan_ctl.py history``, ``truth``)."""
    assert truth["status"] == "TABLE_STATUS_FINISHED"
    delivered = [seq for seq, _ in over["events"]]
    assert len(delivered) == len(set(delivered)), "an event was delivered twice"
    first, end = over["snapshots"][0], max(seq for seq, kind in truth["events"] if kind == "game_ended")
    expected = [seq for seq, _ in truth["events"] if first < seq <= end]
    assert [seq for seq in delivered if seq <= end] == expected, "the client's stream lost or added events"
    assert over["sequence"] >= end
    assert over["hand"] == truth["hand"] and over["scores"] == truth["scores"] and over["pennies"] == truth["pennies"]


# --- (a) discovery across the bridge -------------------------------------------------------------------

def test_discovery_finds_the_server_across_the_bridge(lan: Lan, tmp_path: Path) -> None:
    """The server in host a advertises itself; in host b the terminal client lists it among the servers on
    the LAN and opens its lobby (the table made there shows), and in host c a browser finds it too, its
    record updated with the table and its 3 free seats."""
    served = serve(lan, tmp_path, "--name", "Kitchen table")
    table_id, _ = make_table(lan, served, max_turns=9)
    browser = lan.python("c", "lan_ctl.py", "browse", "--name", "Kitchen table", "--tables", "1",
                         name="c:ctl browse")
    home = tmp_path / "home-Ann"
    home.mkdir()
    ann = lan.python("b", "lan_player.py", "--browse", "Kitchen table", "--name", "Ann", "--home", str(home),
                     "--table", table_id, "--stop-at", "lobby", name="b:Ann", env={"TENPENNIES_HOME": str(home)})
    found = ann.record("found", 30)
    assert found["address"] == served.address and not found["tls"]
    lobby = ann.record("lobby", 30)
    assert lobby["address"] == served.address and lobby["tables"] == 1
    assert ann.finish(15) == 0, ann.tail()
    elsewhere = result(browser, "found", 30)
    assert elsewhere["address"] == served.address and elsewhere["seats_free"] == 3


# --- (b) a game across hosts ---------------------------------------------------------------------------

def test_two_terminal_clients_and_a_bot_on_separate_hosts_play_to_the_end(lan: Lan, tmp_path: Path) -> None:
    served = serve(lan, tmp_path)
    table_id, host_token = make_table(lan, served, max_turns=9)
    starter = ctl_job(lan, "b", served, "start", "--table", table_id, f"--host-token={host_token}")
    ann = player(lan, "b", served, table_id, "Ann", tmp_path)
    bob = player(lan, "c", served, table_id, "Bob", tmp_path)
    seated = {"Ann": seat_of(ann), "Bob": seat_of(bob)}
    robot = bot(lan, "c", served, table_id)
    result(starter, "started", 90)
    ends = {name: job.record("over", 60) for name, job in (("Ann", ann), ("Bob", bob))}
    robot.expect(lambda line: "final standings" in line, "the bot's standings", 15)
    for job in (ann, bob, robot):
        assert job.finish(15) == 0, job.tail()
    assert {seated["Ann"]["seat"], seated["Bob"]["seat"], robot_seat(robot)} == {0, 1, 2}
    assert ends["Ann"]["scores"] == ends["Bob"]["scores"]
    histories = {name: ctl_job(lan, "c", served, "history", "--table", table_id, f"--token={seated[name]['token']}")
                 for name in ("Ann", "Bob")}
    for name, job in (("Ann", ann), ("Bob", bob)):
        assert records(job, "move"), f"{name} made no move by keys"
        check_against_server(result(histories[name], "history"), ends[name])


# --- (c) a link cut for 10 s ------------------------------------------------------------------------------

def test_a_client_cut_off_for_ten_seconds_reconnects_and_resumes_with_nothing_lost(lan: Lan, tmp_path: Path
                                                                                    ) -> None:
    """Ann's host loses its link for 10 s mid-game, just as the game waits for her. Her table says
    Reconnecting… while it is down and resumes once it is back, missing nothing. Meanwhile, as documented:
    the decision timer (3 s) answers the decision she left, and once the server has seen her seat without a
    live subscription for takeover_seconds (1 s) a bot plays it; her return takes the seat back."""
    served = serve(lan, tmp_path)
    table_id, host_token = make_table(lan, served, max_turns=24, decision=3, takeover=TAKEOVER)
    starter = ctl_job(lan, "b", served, "start", "--table", table_id, f"--host-token={host_token}")
    ann = player(lan, "b", served, table_id, "Ann", tmp_path, "--hold-at", "3")
    bob = player(lan, "c", served, table_id, "Bob", tmp_path, "--think", "0.5")  # so the game outlasts the cut
    seated = {"Ann": seat_of(ann), "Bob": seat_of(bob)}
    robot = bot(lan, "c", served, table_id)
    result(starter, "started", 90)
    watcher = ctl_job(lan, "c", served, "seats", "--table", table_id, "--every", "0.05")
    holding = ann.record("holding", 30)
    lan.cut("b")
    cut_at = time.time()
    down = ann.find("link", lambda r: not r["up"] and r["t"] > cut_at, CUT_SECONDS)  # shown within the cut
    ann.read_until(cut_at + CUT_SECONDS)  # the cut lasts 10 s by the clock (the one wait for a duration)
    lan.restore("b")
    restored_at = time.time()
    up = ann.find("link", lambda r: r["up"] and r["t"] > restored_at, 30)
    resumed = ann.find("snapshot", lambda r: r["t"] > restored_at, 30)
    end = ann.record("over", 60)
    for job in (ann, bob, robot):
        assert job.finish(15) == 0, job.tail()
    history = ctl_job(lan, "c", served, "history", "--table", table_id, f"--token={seated['Ann']['token']}")
    result(watcher, "finished")
    me = seated["Ann"]["seat"]
    seats = [(r["t"], r["connected"][me], r["bot_playing"][me]) for r in records(watcher, "seats")]

    assert not down["up"] and cut_at < down["t"] < restored_at and "Reconnecting" in down["prompt"]
    assert up["t"] < restored_at + 10, "back within 10 s of the link's return"
    # she plays on after the cut, unless the game ended while she was away (then she resumed to its end)
    assert resumed["over"] or any(r["t"] > up["t"] for r in records(ann, "move")), "Ann played on after the cut"
    check_against_server(result(history, "history"), end)
    # the timer answered the decision Ann left: an event she received only on resuming
    assert any(holding["sequence"] < seq <= resumed["sequence"] for seq in end["timed_out"]), end["timed_out"]
    # the server saw her seat unsubscribed during the cut, a bot took it over after takeover_seconds,
    # and her return reclaimed it
    gone = next(t for t, connected, _ in seats if not connected and cut_at < t)
    taken = next(t for t, _, by_bot in seats if by_bot and t > gone)
    back = next(t for t, connected, by_bot in seats if connected and not by_bot and t > taken)
    assert gone < taken < restored_at < back, seats
    assert taken - gone >= TAKEOVER - 0.2, "taken over before takeover_seconds"


# --- (d) TLS: trusted or refused --------------------------------------------------------------------------

def test_over_tls_a_client_that_does_not_trust_the_server_is_refused_and_one_that_does_plays(
        lan: Lan, tmp_path: Path) -> None:
    """``serve --tls`` (its own certificate). In host c, a terminal client asked to trust it says no, and a bot
    given no fingerprint cannot ask: both are refused in plain words, saying the fingerprint, and take no
    seat. In host b, Ann's terminal client is asked, sees the fingerprint the server printed, says yes and
    plays the game out over TLS with two bots given that fingerprint."""
    served = serve(lan, tmp_path, "--tls")
    line = served.job.expect(lambda text: "certificate fingerprint" in text, "the fingerprint", 10)
    fingerprint = line.split("certificate fingerprint ")[1].split()[0].rstrip(":,")
    trusted = (f"--fingerprint={fingerprint}",)
    made = ctl(lan, "b", served, *trusted, "table", "--seats", "3", "--rounds", "1", "--max-turns", "9",
               "--seed", "5", at="table")
    table_id, host_token = made["table_id"], made["host_token"]
    starter = ctl_job(lan, "b", served, *trusted, "start", "--table", table_id, f"--host-token={host_token}")
    bob = player(lan, "c", served, table_id, "Bob", tmp_path, "--trust", "n")
    stranger = bot(lan, "c", served, table_id, "--name", "stranger")
    ann = player(lan, "b", served, table_id, "Ann", tmp_path, "--trust", "y")
    robots = [bot(lan, "c", served, table_id, *trusted) for _ in range(2)]

    assert bob.record("asked", 30)["fingerprint"] == fingerprint
    refused = bob.record("refused", 30)
    assert refused["code"] == 1 and fingerprint in refused["message"] and "did not trust" in refused["message"]
    assert bob.finish(15) == 0, bob.tail()
    assert stranger.finish(30) != 0
    words = "\n".join(stranger.lines)
    assert fingerprint in words and "--fingerprint" in words and "not trusted" in words, words
    assert "Traceback" not in words and "SSL" not in words and "handshake" not in words, words

    assert ann.record("asked", 30)["fingerprint"] == fingerprint
    seated = seat_of(ann)
    assert sorted(result(starter, "started", 90)["seats"]) == ["Ann", "greedy bot", "greedy bot"]
    end = ann.record("over", 60)
    for job in (ann, *robots):
        assert job.finish(15) == 0, job.tail()
    history = ctl_job(lan, "c", served, *trusted, "history", "--table", table_id, f"--token={seated['token']}")
    check_against_server(result(history, "history"), end)


def records(job: Job, at: str) -> list[dict[str, Any]]:
    """Every ``at`` record the job has printed so far."""
    return [r for r in map(_json, job.drain()) if r.get("at") == at]


def robot_seat(job: Job) -> int:
    line = next(line for line in job.lines if line.startswith("joined table"))
    return int(line.split(" as seat ")[1].split()[0])


def _json(line: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except ValueError:
        return {}
    return record if isinstance(record, dict) else {}
