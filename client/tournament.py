"""Headless tournaments between bots: ``tenpennies tournament``.

Duplicate deals with rotated seats: every deal seed is played once with each rotation of each lineup of
the bots round the table, so the luck of the deal cancels. Games are played in-process (across
``jobs`` worker processes, a batch of games per task), over gRPC against a running server (started with
``--allow-seeds``; every seat is played by the SDK's ``SeatPlayer``, as ``tenpennies bot`` plays one),
or on Ray (a batch of games per task).

The tournament model (entries, lineups, duplicate deals, seeds, results, standings: how a win under ties
counts, how the standings are ordered, the defaults) is ``engine.tournament``'s, the one the server's
tournament mode uses too; its docstring says what each is. What is decided here:

* **Entries.** Each name in ``--bots`` is an entry; a repeated name plays as separate entries,
  ``greedy``, ``greedy#2``, ... A *deal block* is every rotation of every lineup on one deal seed;
  ``--games`` is rounded up to whole blocks. Results are put in game-index order before anything is
  added up or rated, so they depend on ``--seed`` alone, never on where or in what order games ran.
* **Games.** ``--game NAME`` plays any game here (in-process, over gRPC or on Ray). A game's result is
  taken from a view of the finished game (the spectator's in-process, a seat's over gRPC), through the
  game's client entry (``client.games``: ``ClientGame.counts``), so both give the same: its scores (a place,
  where the game scores by place), and what the standings add up beside them: the game's own tallies
  (``Kind.tournament_tallies``: pennies and buys, a seat's penny balance ``won - paid - pennies bought with``
  adding up to zero over a table; or lives left, tokens or points).
* **Misbehaving bots** are played by the one seat loop (``engine.seats``): a bot that raises, or answers
  something that is not a legal command of its own seat, is counted under *illegal* and
  ``bots.safe_default`` is played for it. A decision that takes longer than ``decision_seconds`` (0: no
  limit) is counted under *timeouts* and the default is played instead, as the server's timer does;
  over gRPC every seat is played by the SDK's ``SeatPlayer``, and the server's ``TimerExpired`` events
  for the seat count as timeouts too. Results are deterministic as long as no decision runs out of time
  and the bots are deterministic given their seed (a bot with a time budget per decision, ``sampler``,
  is not: its choices depend on the machine's speed).
* **Buy offers** are put to every offered seat at once (``engine.seats.play_decision``), as the server
  does, so a stateful bot (``random``) is asked the same questions in-process and over gRPC, and both
  give the same results. Over gRPC a command the server listed but refused (the offer settled first, a
  timer acted) is not the bot's fault and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenpennies.client.arguments import add_rule_option, game_name, game_rules, games_help, no_bot
from tenpennies.client.games import StandingRow, cell, client_game, mean_text, standing_columns
from tenpennies.client.plots import Chart, chart, ratings_over_games, score_distribution, svg
from tenpennies.engine import games as game_kinds
from tenpennies.engine import seats as seat_loop
from tenpennies.engine.interface import Bot, RuleError, View
from tenpennies.engine.tournament import (
    MAX_SEED,
    TOURNAMENT_DECISION_SECONDS,
    GameResult,
    GameSpec,
    Standing,
    base_name,
    entry_names,
    lineups,
    rating_model,
    score_ranks,
    standings,
    wins_text,
)
from tenpennies.engine.tournament import game_spec as spec_of

__all__ = ["GameResult", "GameSpec", "Results", "Standing", "TournamentConfig", "base_name", "entry_names",
           "play_tournament", "rating_model", "render", "score_ranks", "standings"]

BotFactory = Callable[[int], Bot]
Progress = Callable[[int, int], None]  # (games done, games in all)


# --- the configuration, and the games it stands for -------------------------------------------------

@dataclass(frozen=True)
class TournamentConfig:
    """A tournament of ``game`` (by its engine name; ``rules`` are that game's). ``bots`` are names of
    ``registry`` (default: the game's built-in bots); ``games`` is
    rounded up to whole deal blocks. ``server`` (HOST:PORT) plays over gRPC, ``ray`` on Ray
    (``ray_address`` None: a local Ray, or the one already initialised); else in-process across ``jobs``
    processes. ``batch``: games per task (None: chosen from the number of games and workers).
    ``concurrency``: tables played at once over gRPC, per job. A ``registry`` of your own must be
    picklable for ``jobs`` > 1 or Ray."""

    bots: tuple[str, ...]
    seats: int = 4
    games: int = 1000
    seed: int = 0
    rules: Any = None  # the game's rules (None: its defaults)
    jobs: int = 1
    batch: int | None = None
    server: str | None = None
    tls_ca: str | None = None
    fingerprint: str | None = None  # of a TLS --server's certificate, trusted without asking (client.trust)
    concurrency: int = 8
    ray: bool = False
    ray_address: str | None = None
    decision_seconds: float = TOURNAMENT_DECISION_SECONDS
    max_commands: int = 1_000_000
    registry: Mapping[str, BotFactory] | None = None
    game: str = game_kinds.DEFAULT_GAME

    def __post_init__(self) -> None:
        if self.rules is None and self.game in game_kinds.GAMES:
            object.__setattr__(self, "rules", game_kinds.kind(self.game).rules_from_dict({}))

    @property
    def tallies(self) -> tuple[str, ...]:
        """The game's own tallies the standings add up, by its rules (``Kind.tournament_tallies``)."""
        return game_kinds.kind(self.game).tournament_tallies(self.rules)

    @property
    def bot_registry(self) -> Mapping[str, Callable[[int], Any]]:
        """``registry``, or the game's built-in bots."""
        return self.registry if self.registry is not None else game_kinds.kind(self.game).bots

    def validate(self) -> None:
        """ValueError (or the engine's RuleError for the table) for a tournament that cannot be played."""
        try:
            game_kinds.kind(self.game)
        except game_kinds.UnknownGame as error:
            raise ValueError(str(error)) from None
        registry = self.bot_registry
        if not self.bots:
            raise ValueError("name at least one bot")
        unknown = sorted({base_name(b) for b in self.bots} - set(registry))
        if unknown and self.registry is None:  # the game's own bots: say whose the strangers are
            raise ValueError(no_bot(self.game, unknown))
        if unknown:
            raise ValueError(f"unknown bot(s) {', '.join(unknown)}: bots are {', '.join(registry)}")
        if len(self.bots) < self.seats:
            raise ValueError(f"{self.seats} seats need at least {self.seats} bots (a name may repeat: "
                             f"--bots greedy,greedy,random,random)")
        if self.games < 1:
            raise ValueError("play at least one game")
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"a seed is 0 to {MAX_SEED}")
        if self.jobs < 1 or self.concurrency < 1 or (self.batch is not None and self.batch < 1):
            raise ValueError("jobs, concurrency and batch are at least 1")
        if self.decision_seconds < 0:
            raise ValueError("decision_seconds is at least 0 (0: no limit)")
        if self.server and self.ray:
            raise ValueError("play over gRPC (server) or on Ray, not both")
        game_kinds.kind(self.game).validate(self.rules, self.seats)

    @property
    def entries(self) -> tuple[str, ...]:
        return entry_names(self.bots)

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        return lineups(self.entries, self.seats)

    @property
    def block(self) -> int:
        """Games a deal is played in: every rotation of every lineup."""
        return len(self.lineups) * self.seats

    @property
    def deals(self) -> int:
        return -(-self.games // self.block)

    @property
    def total_games(self) -> int:
        return self.deals * self.block


def game_spec(config: TournamentConfig, index: int) -> GameSpec:
    """Game ``index`` of the tournament (``engine.tournament.game_spec``)."""
    return spec_of(config.lineups, config.seed, index)


# --- results ----------------------------------------------------------------------------------------

PER_GAME = "_per_game"


def standing_fields(tallies: Sequence[str]) -> tuple[str, ...]:
    """The columns of --out, in this order: a ``Standing``'s, ``score_ci95`` its ``mean_score_margin``, and a
    game's mean of each of the game's ``tallies`` (``pennies_per_game``, ``lives_per_game``)."""
    return ("name", "games", "wins", "mean_score", "score_ci95", *(tally + PER_GAME for tally in tallies),
            "illegal", "timeouts", "rating_mu", "rating_sigma")


def columns(standing: Standing, tallies: Sequence[str]) -> dict[str, Any]:
    """A standing as the columns of --out."""
    own = {tally + PER_GAME: standing.per_game(tally) for tally in tallies}
    return {key: own[key] if key in own else getattr(standing, "mean_score_margin" if key == "score_ci95" else key)
            for key in standing_fields(tallies)}


@dataclass(frozen=True)
class Results:
    config: TournamentConfig
    standings: tuple[Standing, ...]
    games: tuple[GameResult, ...]

    @property
    def tallies(self) -> tuple[str, ...]:
        return self.config.tallies

    def to_json(self) -> str:
        data = {"standings": [{k: _round(v) for k, v in columns(s, self.tallies).items()} for s in self.standings],
                "games": [g.to_json() for g in self.games]}
        return json.dumps(data, indent=1) + "\n"

    def to_csv(self) -> str:
        import csv
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(standing_fields(self.tallies))
        for s in self.standings:
            writer.writerow(["" if v is None else _round(v) for v in columns(s, self.tallies).values()])
        return out.getvalue()

    def write(self, path: str | Path) -> None:
        """JSON (standings and every game), or CSV of the standings for a ``.csv`` path."""
        path = Path(path)
        path.write_text(self.to_csv() if path.suffix.lower() == ".csv" else self.to_json(), encoding="utf-8")


def _round(value: Any) -> Any:
    return round(value, 6) if isinstance(value, float) else value


# --- playing games in-process -------------------------------------------------------------------------

class _Seats:
    """The bots of one game, asked through the one seat loop, and what they did wrong."""

    def __init__(self, config: TournamentConfig, spec: GameSpec) -> None:
        registry = config.bot_registry
        self.kind = game_kinds.kind(config.game)
        self.bots: list[Bot] = [registry[base_name(name)](seed) for name, seed in zip(spec.seats, spec.bot_seeds,
                                                                                        strict=True)]
        self.tallies = [seat_loop.Tally() for _ in range(config.seats)]
        self.limit = config.decision_seconds

    def decide(self, game: Any, seat: int, view: Any) -> Any:
        """The seat's bot's command, or the safe default (counted) if it raises, is illegal or times out:
        the game's own (what its timer plays, ``Kind.timed_out``)."""
        def default(view: Any) -> Any:
            return self.kind.timed_out(game, view.seat)[0]

        started = time.perf_counter()
        answer = seat_loop.ask(self.bots[seat], view, default, game.is_legal)
        if self.limit and time.perf_counter() - started > self.limit:
            answer = seat_loop.late(view, default)
        self.tallies[seat].count(answer)
        return answer.command


def play_one(config: TournamentConfig, index: int) -> GameResult:
    """Play game ``index`` of the tournament in this process."""
    spec = game_spec(config, index)
    seats = _Seats(config, spec)
    game = seats.kind.new(config.seats, config.rules, spec.deal_seed)
    for _ in range(config.max_commands):
        if game.over:
            result = game.result
            assert result is not None, "a finished game has a result"
            return game_result(config, spec, game.view(None), result.scores, result.winners,
                               [t.illegal for t in seats.tallies], [t.timeouts for t in seats.tallies])
        seat_loop.play_decision(game, lambda seat, view: seats.decide(game, seat, view), trusted=True)
    raise RuntimeError(f"game {index} did not end in {config.max_commands} commands")


def game_result(config: TournamentConfig, spec: GameSpec, view: View, scores: Sequence[int], winners: Sequence[int],
                illegal: Sequence[int], timeouts: Sequence[int]) -> GameResult:
    """A finished game's result from a view of it (all it needs is public: the game's entry's ``counts``),
    its scores and winners: the tallies the standings add up (``TournamentConfig.tallies``) and the game's
    other counts."""
    counts = client_game(config.game).counts(view, config.rules)
    return GameResult(
        index=spec.index, deal=spec.deal, deal_seed=spec.deal_seed, rotation=spec.rotation, seats=spec.seats,
        scores=tuple(scores), winners=tuple(winners), illegal=tuple(illegal), timeouts=tuple(timeouts),
        tallies={name: tuple(counts[name]) for name in config.tallies},
        counts={name: tuple(values) for name, values in counts.items() if name not in config.tallies})


def play_batch(config: TournamentConfig, indices: Sequence[int]) -> list[GameResult]:
    """A task: games ``indices``, played one after another in this process (or over gRPC)."""
    if config.server:
        return asyncio.run(play_batch_grpc(config, indices))
    return [play_one(config, i) for i in indices]


def batches(config: TournamentConfig, workers: int) -> list[list[int]]:
    """The games in tasks: ``config.batch`` games each, or about four tasks a worker (1 to 100 games)."""
    total = config.total_games
    size = config.batch or max(1, min(100, total // (workers * 4) or 1))
    return [list(range(start, min(total, start + size))) for start in range(0, total, size)]


# --- over gRPC ------------------------------------------------------------------------------------

async def play_grpc(config: TournamentConfig, index: int, connections: Sequence[Any]) -> GameResult:
    """Game ``index`` on the server: a seeded table, every seat joined (``Connection.join``: at the table's
    worker when the server names one) and played by the SDK's ``SeatPlayer`` (the one seat loop over gRPC),
    started once every seat has its snapshot."""
    from tenpennies.client.bot import SeatPlayer, StreamItem
    from tenpennies.client.connection import _call
    from tenpennies.client.view import TableView
    from tenpennies.v2 import tenpennies_pb2 as pb
    from tenpennies.wire.games import wire
    spec = game_spec(config, index)
    registry = config.bot_registry
    request = pb.CreateTableRequest(name=f"tournament {config.seed} game {index}", seats=config.seats,
                                    rules=wire(config.game).rules_to_pb(config.rules), seed=spec.deal_seed,
                                    game=config.game)
    request.settings.decision_seconds = math.ceil(config.decision_seconds)
    request.settings.takeover_seconds = 0  # a seat is our bot's to the end: no server bot takes it over
    created: pb.CreateTableResponse = await _call(connections[0].service.CreateTable(request))
    table_id = created.table.table_id
    players: list[SeatPlayer] = []
    ready = [asyncio.Event() for _ in range(config.seats)]
    tasks: list[asyncio.Task[Any]] = []
    started = False
    try:
        for seat, (name, seed) in enumerate(zip(spec.seats, spec.bot_seeds, strict=True)):
            session = await connections[seat % len(connections)].join(table_id, name, seat)

            def subscribed(item: StreamItem, table: TableView, flag: asyncio.Event = ready[seat]) -> None:
                if isinstance(item, pb.Snapshot):
                    flag.set()
            players.append(SeatPlayer(registry[base_name(name)](seed), session, on_event=subscribed))
        tasks = [asyncio.create_task(p.run()) for p in players]
        await asyncio.gather(*(flag.wait() for flag in ready))
        await _call(connections[0].service.StartGame(pb.StartGameRequest(table_id=table_id,
                                                                         host_token=created.host_token)))
        started = True
        ends = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        if not started:  # given up before its start: the table goes, and our share of open tables with it
            with contextlib.suppress(Exception):
                await connections[0].close_table(table_id, created.host_token)
    view = players[0].table.view
    if view is None or ends[0] is None:
        raise RuntimeError(f"game {index} (table {table_id}) ended its stream before the game ended")
    illegal = [p.stats.illegal + p.stats.errors for p in players]
    timeouts = [p.stats.slow + p.stats.timed_out for p in players]
    end = ends[0]
    return game_result(config, spec, view, end.scores, end.winners, illegal, timeouts)


async def play_batch_grpc(config: TournamentConfig, indices: Sequence[int],
                          done: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Games ``indices`` over gRPC, ``config.concurrency`` tables at a time (one connection a seat)."""
    from tenpennies.client.connection import Connection
    from tenpennies.client.trust import settle
    assert config.server
    pinned = None if config.tls_ca else await asyncio.to_thread(settle, config.server, config.fingerprint)
    connections = [Connection(config.server, config.tls_ca, pinned=pinned) for _ in range(config.seats)]
    pending = iter(indices)
    results: list[GameResult] = []

    async def worker() -> None:
        for index in pending:
            result = await play_grpc(config, index, connections)
            results.append(result)
            if done is not None:
                done(result)

    try:
        await asyncio.gather(*(worker() for _ in range(config.concurrency)))
    finally:
        for connection in connections:
            await connection.close()
    return sorted(results, key=lambda r: r.index)


# --- the whole tournament ---------------------------------------------------------------------------

def play_tournament(config: TournamentConfig, progress: Progress | None = None) -> Results:
    """Play every game of ``config`` and rate them; ``progress(done, total)`` after each game or batch."""
    config.validate()
    total = config.total_games
    results: list[GameResult] = []

    def done(batch: Sequence[GameResult]) -> None:
        results.extend(batch)
        if progress is not None:
            progress(len(results), total)

    if config.ray:
        _play_on_ray(config, done)
    elif config.jobs > 1:
        _play_in_processes(config, done)
    elif config.server:
        asyncio.run(play_batch_grpc(config, range(total), lambda r: done([r])))
    else:
        for index in range(total):
            done([play_one(config, index)])
    games = tuple(sorted(results, key=lambda r: r.index))
    assert [g.index for g in games] == list(range(total)), "a game is missing or played twice"
    return Results(config, standings(config.entries, games), games)


def _play_in_processes(config: TournamentConfig, done: Callable[[Sequence[GameResult]], None]) -> None:
    import multiprocessing
    # spawn: a worker never inherits a parent's threads (gRPC's, Ray's) halfway through something
    with ProcessPoolExecutor(config.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures: set[Future[list[GameResult]]] = {pool.submit(play_batch, config, b)
                                                  for b in batches(config, config.jobs)}
        while futures:
            finished, futures = wait(futures, return_when=FIRST_COMPLETED)
            for future in finished:
                done(future.result())


def _play_on_ray(config: TournamentConfig, done: Callable[[Sequence[GameResult]], None]) -> None:
    import ray as ray_module
    ray: Any = ray_module  # Ray's API is only partly typed
    started = not ray.is_initialized()
    if started:
        ray.init(address=config.ray_address, include_dashboard=False, log_to_driver=False)
    try:
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_batch)
        refs = [task.remote(config, b) for b in batches(config, workers)]
        while refs:
            finished, refs = ray.wait(refs, num_returns=1)
            for ref in finished:
                done(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


# --- the command line -------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tenpennies tournament``."""
    parser.description = ("Bots against bots on duplicate deals: every deal is played with every rotation of "
                          "the bots round the table. Standings to stdout; progress to stderr.")
    parser.add_argument("--bots", required=True,
                        help="comma-separated bots (a name may repeat; built in: " + "; ".join(
                            f"{played.title}: {', '.join(played.bots)}" for played in game_kinds.GAMES.values()) + ")")
    parser.add_argument("--game", type=game_name, default=game_kinds.DEFAULT_GAME, help=games_help())
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000,
                        help="games in all, rounded up to whole deal blocks (every rotation of every lineup)")
    parser.add_argument("--seed", type=int, default=0,
                        help=f"0 to {MAX_SEED}: the same seed gives the same results")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (in-process or --server)")
    parser.add_argument("--batch", type=int, help="games per task (default: about four tasks a worker)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--server", metavar="HOST:PORT",
                       help="play over gRPC on this server (run it with --allow-seeds)")
    where.add_argument("--ray", nargs="?", const="", metavar="ADDRESS",
                       help="play on Ray: a local Ray, or join the cluster at ADDRESS")
    parser.add_argument("--tls-ca", metavar="FILE", help="PEM CA certificate of a TLS --server")
    from tenpennies.client.trust import fingerprint_argument
    parser.add_argument("--fingerprint", type=fingerprint_argument, metavar="SHA256:...",
                        help="trust a TLS --server whose certificate has this fingerprint (the server prints it)")
    parser.add_argument("--concurrency", type=int, default=8, help="tables at once over gRPC, per job")
    parser.add_argument("--decision-seconds", type=float, default=TOURNAMENT_DECISION_SECONDS,
                        help="a decision's time limit; past it the safe default is played (0: none)")
    add_rule_option(parser)
    parser.add_argument("--out", metavar="FILE|DIR",
                        help="results as JSON (standings and games), or .csv (standings); a directory (an existing "
                             "one, or a path ending in /): results.json in it, and with --plot the plots as SVG")
    parser.add_argument("--plot", action="store_true",
                        help="draw each bot's score distribution and rating over games (in the terminal, and as "
                             "SVG files beside --out's file or in its directory)")


def rules_from_args(items: Sequence[str] | None, game: str = game_kinds.DEFAULT_GAME) -> Any:
    return game_rules(game, items or ())


def config_from_args(args: argparse.Namespace) -> TournamentConfig:
    game = getattr(args, "game", game_kinds.DEFAULT_GAME)
    return TournamentConfig(
        bots=tuple(b.strip() for b in args.bots.split(",") if b.strip()), seats=args.seats, games=args.games,
        seed=args.seed, rules=rules_from_args(args.rule, game), game=game, jobs=args.jobs, batch=args.batch,
        server=args.server,
        tls_ca=args.tls_ca, fingerprint=args.fingerprint, concurrency=args.concurrency, ray=args.ray is not None,
        ray_address=args.ray or None, decision_seconds=args.decision_seconds)


def render(results: Results, width: int | None = None) -> str:
    """The standings as the text printed (the same for the same results, wherever they were played): a row
    an entry, its game's own columns (``client.games.standing_columns``) among the common ones."""
    from rich.console import Console
    from rich.table import Table
    config = results.config
    entry = client_game(config.game)
    word = entry.score_word
    console = Console(width=width or 80, record=True, file=io.StringIO(), color_system=None, highlight=False)
    console.print(f"{entry.title} tournament: {', '.join(config.entries)}")
    words = entry.rules_words(config.rules)
    console.print(f"{config.seats} seats, {len(results.games)} games ({config.deals} deals x {config.block} "
                  f"rotations), seed {config.seed}{', ' + words if words else ''}")
    own = standing_columns(entry, config.tallies)
    table = Table(box=None, padding=(0, 0, 0, 2), pad_edge=False)  # within 80 columns
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("bot", no_wrap=True)
    for header in ("games", "wins", f"mean {word}", *(c.header for c in own), "illegal", "late", "rating"):
        table.add_column(header, justify="right", no_wrap=True)
    for place, standing in enumerate(results.standings, 1):
        row = StandingRow.of_standing(standing)
        table.add_row(str(place), row.name, str(row.games), wins_text(row.wins), mean_text(entry, row),
                      *(cell(c, row) for c in own), str(row.illegal), str(row.late), f"{row.mu:.1f}±{row.sigma:.1f}")
    console.print(table)
    console.print("wins: tied winners share a win;")
    console.print(f"mean {word}: {entry.score_note + ', ' if entry.score_note else ''}with its 95% interval;")
    if own:
        console.print(f"{', '.join(c.header for c in own)}: a game's;")
    for note in entry.standing_notes:
        console.print(note)
    console.print("late: decisions past their time (the safe default played); rating: openskill")
    console.print(f"BradleyTerryFull μ±σ, ties in {word} are ties; best first by μ - 3σ")
    text = console.export_text()
    return text if text.endswith("\n") else text + "\n"


def run(args: argparse.Namespace) -> int:
    """``tenpennies tournament``: play, print the standings, write ``--out``."""
    try:
        config = config_from_args(args)
        config.validate()
    except (ValueError, RuleError) as error:
        print(f"tournament: {error}", file=sys.stderr)
        return 2
    if config.total_games != config.games:
        print(f"playing {config.total_games} games: {config.deals} deals x {config.block} "
              f"(every rotation of every lineup)", file=sys.stderr)
    started = time.perf_counter()
    with ProgressBar(config.total_games) as progress:
        try:
            results = play_tournament(config, progress)
        except Exception as error:  # a server gone, Ray not there: say so, not a traceback
            from tenpennies.client.connection import ServerError
            if not isinstance(error, (ServerError, ConnectionError, OSError)) and not _is_ray_error(error):
                raise
            from tenpennies.client.trust import explain
            plain = explain(error, config.server) if isinstance(error, ServerError) and config.server else None
            print(f"tournament: {plain or error}", file=sys.stderr)
            return 1
    elapsed = time.perf_counter() - started
    sys.stdout.write(render(results))
    if args.plot:
        width = min(shutil.get_terminal_size().columns, 120)
        for picture in plots(results):
            sys.stdout.write(chart(picture, width, 18, colour=sys.stdout.isatty()) + "\n")
    sys.stdout.flush()
    if args.out:
        directory = args.out.endswith(("/", os.sep)) or Path(args.out).is_dir()
        results_file = Path(args.out) / "results.json" if directory else Path(args.out)
        results_file.parent.mkdir(parents=True, exist_ok=True)
        results.write(results_file)
        if args.plot:
            for written in write_plots(results, results_file.parent,
                                       "" if directory else results_file.stem + "-"):
                print(f"wrote {written}", file=sys.stderr)
    print(f"{len(results.games)} games in {elapsed:.1f} s ({len(results.games) / elapsed:.1f} games/s)",
          file=sys.stderr)
    return 0


def plots(results: Results) -> tuple[Chart, Chart]:
    """A tournament's pictures: each bot's game scores (places, for a game scored by place) as a histogram,
    and its rating after each of its games."""
    entry = client_game(results.config.game)
    scores = score_distribution(results.games, f"{entry.score_word.capitalize()}s ({entry.score_note})") \
        if entry.score_note else score_distribution(results.games)
    return scores, ratings_over_games(results.config.entries, results.games)


PLOT_FILES = ("scores.svg", "ratings.svg")


def write_plots(results: Results, directory: Path, prefix: str = "") -> list[Path]:
    """``plots`` as SVG files in ``directory`` (``PLOT_FILES``, each name after ``prefix``); their paths."""
    written = []
    for name, picture in zip(PLOT_FILES, plots(results), strict=True):
        path = directory / f"{prefix}{name}"
        path.write_text(svg(picture), encoding="utf-8")
        written.append(path)
    return written


def _is_ray_error(error: Exception) -> bool:
    return type(error).__module__.startswith("ray")


class ProgressBar:
    """A rich progress bar on stderr while the games are played; nothing when stderr is not a terminal."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress
        console = Console(file=sys.stderr)
        self.bar = RichProgress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=console, disable=not sys.stderr.isatty(), transient=True)
        self.task = self.bar.add_task("games", total=total)

    def __enter__(self) -> Progress:
        self.bar.start()
        return self

    def __call__(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m``-free entry for scripts and benches: the same as ``tenpennies tournament``."""
    parser = argparse.ArgumentParser(prog="tenpennies tournament")
    add_arguments(parser)
    return run(parser.parse_args(argv))
