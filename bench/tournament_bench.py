"""Tournament speed: in-process games/s with --jobs 1 and --jobs 2, the same tournament over gRPC loopback
(a ``tenpennies serve --allow-seeds`` process of its own) and on a local Ray, each as a ratio to
in-process --jobs 1 measured in the same run. Aim: --jobs 2 >= 1.7x, gRPC >= 0.5x. The gRPC games are also
played on ``serve --workers 2`` (a front and two worker processes), as a ratio to the one process's.

    python bench/tournament_bench.py            # as `make bench` would run it
    python bench/tournament_bench.py --quick    # fewer games

Complete 7-round games between the built-in bots the issue names (greedy, averaging, early, holdout;
greedy and random fill in for any not built in). Every mode's results are checked equal to in-process
--jobs 1's for the games they share, so the figures compare the same work.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tenpennies.client.tournament import GameResult, Results, TournamentConfig, play_tournament
from tenpennies.engine.ten_pennies.bots import BOTS

from benchkit import start_server  # the bench folder is the script's own: on sys.path
from server_bench import loadgen
from server_bench import start as start_echo

WANTED = ("greedy", "averaging", "early", "holdout")


def lineup() -> tuple[str, ...]:
    if all(name in BOTS for name in WANTED):
        return WANTED
    return ("greedy", "random", "greedy", "random")


def timed(config: TournamentConfig) -> tuple[Results, float]:
    started = time.perf_counter()
    results = play_tournament(config)
    return results, time.perf_counter() - started




def cpu_seconds(pid: int) -> float:
    """User and system CPU a process has used (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """What ``cpu_seconds`` says of a process and its children now (a front and its workers)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return cpu_seconds(pid) + sum(cpu_seconds(int(child)) for child in children)


GRPC_TABLES = 16  # the gRPC runs' tables at once


def over_grpc(base: TournamentConfig, games: int, *options: str) -> tuple[Results, float, float, float, float]:
    """``games`` of the tournament over gRPC loopback on a ``tenpennies serve`` of its own (``options`` its
    own): the results, the seconds they took, the server's CPU seconds (with its workers', if any), the
    clients', and the commands a game."""
    with tempfile.TemporaryDirectory() as tmp:
        process, port = start_server(Path(tmp) / "bench.db", "--allow-seeds", "--tables-per-address", "1000",
                                     "--address-rate", "0", *options)
        try:
            wire = replace(base, games=games, server=f"127.0.0.1:{port}", concurrency=GRPC_TABLES)
            server_cpu, client_cpu = tree_cpu_seconds(process.pid), cpu_used(resource.RUSAGE_SELF)
            results, seconds = timed(wire)
            server_cpu = tree_cpu_seconds(process.pid) - server_cpu
            client_cpu = cpu_used(resource.RUSAGE_SELF) - client_cpu
        finally:
            process.terminate()
            process.wait(10)
        files = [Path(tmp) / "bench.db", *Path(tmp).glob("bench.db.worker*")]
        stored = 0
        for file in files:
            with sqlite3.connect(file) as db:
                stored += db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
    return results, seconds, server_cpu, client_cpu, stored / len(results.games)


def cpu_used(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def same(a: tuple[GameResult, ...], b: tuple[GameResult, ...]) -> str:
    """Whether the games both runs played (the first of each: the schedule is the same) had the same results."""
    both = min(len(a), len(b))
    return "same results" if a[:both] == b[:both] else "RESULTS DIFFER"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, help="in-process and Ray games (default 80, --quick 24)")
    parser.add_argument("--grpc-games", type=int, help="gRPC games (default 16, --quick 8)")
    args = parser.parse_args()
    games = args.games or (24 if args.quick else 80)
    grpc_games = args.grpc_games or (8 if args.quick else 16)
    base = TournamentConfig(bots=lineup(), seats=4, games=games, seed=7)
    print(f"tournament bench: {', '.join(base.bots)}; 4 seats; complete 7-round games; "
          f"{base.total_games} games in-process and on Ray, {grpc_games} over gRPC; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} (compare ratios from a quiet machine)")

    cpu = cpu_used(resource.RUSAGE_SELF)
    one, t_one = timed(base)
    cpu_one = (cpu_used(resource.RUSAGE_SELF) - cpu) / len(one.games)
    rate_one = len(one.games) / t_one
    print(f"in-process --jobs 1: {rate_one:6.2f} games/s  ({len(one.games)} games in {t_one:.1f} s, "
          f"{cpu_one:.3f} CPU s a game)")

    cpu = cpu_used(resource.RUSAGE_SELF) + cpu_used(resource.RUSAGE_CHILDREN)
    two, t_two = timed(replace(base, jobs=2))
    cpu_two = (cpu_used(resource.RUSAGE_SELF) + cpu_used(resource.RUSAGE_CHILDREN) - cpu) / len(two.games)
    rate_two = len(two.games) / t_two
    print(f"in-process --jobs 2: {rate_two:6.2f} games/s  {rate_two / rate_one:.2f}x  ({same(two.games, one.games)}; "
          f"{cpu_two:.3f} CPU s a game with the workers' start: {2 * cpu_one / cpu_two:.2f}x on 2 idle cores)")

    over, t_over, server_cpu, client_cpu_used, commands = over_grpc(base, grpc_games)
    rate_grpc = len(over.games) / t_over
    print(f"gRPC loopback:       {rate_grpc:6.2f} games/s  {rate_grpc / rate_one:.2f}x  "
          f"({same(over.games, one.games[:len(over.games)])}; server in its own process, "
          f"{GRPC_TABLES} tables at once)")
    per_server = server_cpu / len(over.games)
    print(f"                     CPU a game: server {per_server:.2f} s, clients "
          f"{client_cpu_used / len(over.games):.2f} s, in-process {cpu_one:.3f} s: one server process "
          f"bounds gRPC at {cpu_one / per_server:.2f}x")
    # The same games on `serve --workers 2` (a front and two worker processes): the runner's seats go through
    # the front's address, every command passed on by the front (docs/SCALING.md: the front's hop)
    spread, t_spread, spread_cpu, _, _ = over_grpc(base, grpc_games, "--workers", "2")
    rate_spread = len(spread.games) / t_spread
    print(f"gRPC, --workers 2:   {rate_spread:6.2f} games/s  {rate_spread / rate_grpc:.2f}x --workers 1  "
          f"({same(spread.games, one.games[:len(spread.games)])}; CPU a game: front and workers "
          f"{spread_cpu / len(spread.games):.2f} s, one process {per_server:.2f} s)")
    # The floor under any server: a game is this many SendCommand round trips (each also streams its events
    # to four seats), and a bare grpc.aio server that does nothing but echo manages so many a second.
    echo, echo_port = start_echo([str(Path(__file__).with_name("server_bench.py")), "echo"])
    try:
        ceiling = loadgen("ping", echo_port, 200, 4.0)["round_trips_per_s"]
    finally:
        echo.terminate()
        echo.wait()
    bound = ceiling / commands
    print(f"                     a game is {commands:,.0f} commands; a bare grpc.aio echo server answers "
          f"{ceiling:,.0f} round trips/s, so even a server that did nothing else would play {bound:.2f} games/s "
          f"= {bound / rate_one:.2f}x in-process (gRPC here: {rate_grpc / bound:.2f}x that floor)")

    try:
        import ray
        started = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        up = time.perf_counter() - started
    except Exception as error:  # Ray is an optional extra
        print(f"local Ray:           not measured ({error})")
        return
    try:
        on_ray, t_ray = timed(replace(base, ray=True))
        rate_ray = len(on_ray.games) / t_ray
        print(f"local Ray (2 CPUs):  {rate_ray:6.2f} games/s  {rate_ray / rate_one:.2f}x  "
              f"({same(on_ray.games, one.games)}; Ray's start, {up:.1f} s, not counted)")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
