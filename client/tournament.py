"""Headless tournaments between bots: ``tenpennies tournament``.

Duplicate deals with rotated seats: every deal seed is played once with each rotation of each lineup of
the bots round the table, so the luck of the deal cancels. Games are played in-process (across
``jobs`` worker processes, a batch of games per task), over gRPC against a running server (started with
``--allow-seeds``; every seat is a thin client here whose stream is folded into a ``TableView`` and
whose bot answers each decision with ``SendCommand``), or on Ray (a batch of games per task).

Decisions (also in ``tenpennies tournament --help``):

* **Entries.** Each name in ``--bots`` is an entry; a repeated name plays as separate entries,
  ``greedy``, ``greedy#2``, ... With as many entries as seats there is one lineup; with more, every
  combination of ``seats`` entries (in the order given) is a lineup. A *deal block* is every rotation of
  every lineup on one deal seed; ``--games`` is rounded up to whole blocks.
* **Seeds.** Deal ``d`` is played with seed ``derive(seed, d)`` and each entry's bot is made with
  ``BOTS[name](derive(seed, d, entry))``, so results depend on ``--seed`` alone, never on where or in
  what order games ran (results are put in game-index order before anything is added up or rated).
* **Wins are shared**: a game's tied winners get ``1/k`` of a win each, so the wins column adds up to
  the games played.
* **Pennies** per game are a seat's result as README's TP-5.2 decision puts it:
  ``won - paid - pennies bought with``; they add up to zero over a table.
* **Mean score** with a 95% interval: ``mean ± 1.96·s/√n`` over the entry's games (normal
  approximation; ``null`` for fewer than two games).
* **Rating**: openskill's ``BradleyTerryFull`` model, from its default prior (μ 25, σ 25/3), games
  rated one by one in index order, ranks by final score (lowest first, equal scores equal ranks). It
  treats equal ranks as ties; openskill's default ``PlackettLuce`` does not (ranks [1, 1, 2, 3] give the
  third seat the tied winners' rating), see tests/test_tournament.py. Standings are by rating μ.
* **Misbehaving bots**: a bot that raises, or answers something that is not a legal command of its own
  seat, is counted under *illegal* and ``bots.safe_default`` is played for it. A decision that takes
  longer than ``decision_seconds`` (0: no limit) is counted under *timeouts* and the default is played
  instead, as the server's timer does; over gRPC the server's timers do this and their
  ``TimerExpired`` events are counted. Results are deterministic as long as no decision runs out of time
  and the bots are deterministic given their seed (a bot with a time budget per decision, ``sampler``,
  is not: its choices depend on the machine's speed).
* **Buy offers** are put to every offered seat at once, as the server does: in-process each offered
  seat's bot answers from the view at the offer's start, and the answers are applied nearest seat first
  until the offer settles. So a stateful bot (``random``) is asked the same questions in-process and
  over gRPC, and both give the same results. Over gRPC a command the server listed but refused (the offer
  settled first, a timer acted) is not the bot's fault and is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import json
import math
import random
import sys
import time
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from tenpennies.engine.ten_pennies import Game, HouseRules, Phase, RuleError, SeatView
from tenpennies.engine.ten_pennies.bots import BOTS, Bot, safe_default
from tenpennies.engine.ten_pennies.commands import COMMAND_TYPES, Command

if TYPE_CHECKING:
    from tenpennies.client.connection import SeatSession

BotFactory = Callable[[int], Bot]
Progress = Callable[[int, int], None]  # (games done, games in all)

MAX_SEED = 2**63 - 1
DEFAULT_DECISION_SECONDS = 30.0


# --- the configuration, and the games it stands for -------------------------------------------------

@dataclass(frozen=True)
class TournamentConfig:
    """A tournament. ``bots`` are names of ``registry`` (default ``engine.bots.BOTS``); ``games`` is
    rounded up to whole deal blocks. ``server`` (HOST:PORT) plays over gRPC, ``ray`` on Ray
    (``ray_address`` None: a local Ray, or the one already initialised); else in-process across ``jobs``
    processes. ``batch``: games per task (None: chosen from the number of games and workers).
    ``concurrency``: tables played at once over gRPC, per job. A ``registry`` of your own must be
    picklable for ``jobs`` > 1 or Ray."""

    bots: tuple[str, ...]
    seats: int = 4
    games: int = 1000
    seed: int = 0
    rules: HouseRules = field(default_factory=HouseRules)
    jobs: int = 1
    batch: int | None = None
    server: str | None = None
    tls_ca: str | None = None
    fingerprint: str | None = None  # of a TLS --server's certificate, trusted without asking (client.trust)
    concurrency: int = 8
    ray: bool = False
    ray_address: str | None = None
    decision_seconds: float = DEFAULT_DECISION_SECONDS
    max_commands: int = 1_000_000
    registry: Mapping[str, BotFactory] | None = None

    def validate(self) -> None:
        """ValueError (or the engine's RuleError for the table) for a tournament that cannot be played."""
        registry = self.registry if self.registry is not None else BOTS
        if not self.bots:
            raise ValueError("name at least one bot")
        unknown = sorted({base_name(b) for b in self.bots} - set(registry))
        if unknown:
            raise ValueError(f"unknown bot(s) {', '.join(unknown)}: bots are {', '.join(registry)}")
        if len(self.bots) < self.seats:
            raise ValueError(f"{self.seats} seats need at least {self.seats} bots (a name may repeat: "
                             f"--bots greedy,greedy,random,random)")
        if self.games < 1:
            raise ValueError("play at least one game")
        if self.jobs < 1 or self.concurrency < 1 or (self.batch is not None and self.batch < 1):
            raise ValueError("jobs, concurrency and batch are at least 1")
        if self.decision_seconds < 0:
            raise ValueError("decision_seconds is at least 0 (0: no limit)")
        if self.server and self.ray:
            raise ValueError("play over gRPC (server) or on Ray, not both")
        self.rules.validate(self.seats)

    @property
    def entries(self) -> tuple[str, ...]:
        return entry_names(self.bots)

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        return list(itertools.combinations(self.entries, self.seats))

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


def base_name(entry: str) -> str:
    """The registry name of an entry: ``greedy#2`` is ``greedy``."""
    return entry.partition("#")[0]


def entry_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Repeated names numbered: greedy, random, greedy -> greedy, random, greedy#2."""
    seen: dict[str, int] = {}
    names = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        names.append(bot if seen[bot] == 1 else f"{bot}#{seen[bot]}")
    return tuple(names)


def derive(*parts: object) -> int:
    """A seed from the parts (stable across processes and machines: str seeds are hashed by SHA-512)."""
    return random.Random("tenpennies-tournament:" + ":".join(str(p) for p in parts)).getrandbits(63)


@dataclass(frozen=True)
class GameSpec:
    index: int
    deal: int
    deal_seed: int
    lineup: int
    rotation: int
    seats: tuple[str, ...]      # the entry at each seat
    bot_seeds: tuple[int, ...]  # each seat's bot's seed


def game_spec(config: TournamentConfig, index: int) -> GameSpec:
    """Game ``index``: deal ``index // block``, then lineup by lineup, rotation by rotation; at rotation
    ``r`` seat ``s`` holds the lineup's entry ``(s + r) % seats``."""
    n = config.seats
    deal, within = divmod(index, config.block)
    lineup_index, rotation = divmod(within, n)
    lineup = config.lineups[lineup_index]
    seats = tuple(lineup[(s + rotation) % n] for s in range(n))
    return GameSpec(index, deal, derive(config.seed, deal), lineup_index, rotation, seats,
                    tuple(derive(config.seed, deal, entry) for entry in seats))


# --- results ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameResult:
    """One game, seat by seat. ``winners`` are seat numbers; ``pennies`` is ``won - paid - buys``."""

    index: int
    deal: int
    deal_seed: int
    rotation: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    won: tuple[int, ...]
    paid: tuple[int, ...]
    buys: tuple[int, ...]
    pennies: tuple[int, ...]
    illegal: tuple[int, ...]
    timeouts: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}


@dataclass(frozen=True)
class Standing:
    name: str
    games: int
    wins: float
    mean_score: float
    score_ci95: float | None
    pennies_per_game: float
    buys_per_game: float
    illegal: int
    timeouts: int
    rating_mu: float
    rating_sigma: float


STANDING_FIELDS = tuple(f.name for f in fields(Standing))  # the columns of --out, in this order


@dataclass(frozen=True)
class Results:
    config: TournamentConfig
    standings: tuple[Standing, ...]
    games: tuple[GameResult, ...]

    def to_json(self) -> str:
        data = {"standings": [{k: _round(getattr(s, k)) for k in STANDING_FIELDS} for s in self.standings],
                "games": [g.to_json() for g in self.games]}
        return json.dumps(data, indent=1) + "\n"

    def to_csv(self) -> str:
        import csv
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(STANDING_FIELDS)
        for s in self.standings:
            writer.writerow(["" if v is None else v for v in (_round(getattr(s, k)) for k in STANDING_FIELDS)])
        return out.getvalue()

    def write(self, path: str | Path) -> None:
        """JSON (standings and every game), or CSV of the standings for a ``.csv`` path."""
        path = Path(path)
        path.write_text(self.to_csv() if path.suffix.lower() == ".csv" else self.to_json(), encoding="utf-8")


def _round(value: Any) -> Any:
    return round(value, 6) if isinstance(value, float) else value


def rating_model() -> Any:
    """The rating model: openskill's BradleyTerryFull, which treats equal ranks as ties (see the module)."""
    from openskill.models import BradleyTerryFull
    return BradleyTerryFull()


def score_ranks(scores: Sequence[int]) -> list[float]:
    """Ranks for the rating: the lowest score first, equal scores equal ranks (1, 1, 2, 3)."""
    distinct = sorted(set(scores))
    return [float(distinct.index(score) + 1) for score in scores]


def standings(entries: Sequence[str], games: Sequence[GameResult]) -> tuple[Standing, ...]:
    """The standings ``games`` (in index order) give, best rating first (then by name)."""
    model = rating_model()
    ratings = {name: model.rating(name=name) for name in entries}
    scores: dict[str, list[int]] = {name: [] for name in entries}
    wins = dict.fromkeys(entries, 0.0)
    pennies = dict.fromkeys(entries, 0)
    buys = dict.fromkeys(entries, 0)
    illegal = dict.fromkeys(entries, 0)
    timeouts = dict.fromkeys(entries, 0)
    for game in sorted(games, key=lambda g: g.index):
        for seat, name in enumerate(game.seats):
            scores[name].append(game.scores[seat])
            if seat in game.winners:
                wins[name] += 1 / len(game.winners)
            pennies[name] += game.pennies[seat]
            buys[name] += game.buys[seat]
            illegal[name] += game.illegal[seat]
            timeouts[name] += game.timeouts[seat]
        rated = model.rate([[ratings[name]] for name in game.seats], ranks=score_ranks(game.scores))
        for name, (rating,) in zip(game.seats, rated, strict=True):
            ratings[name] = rating
    table = []
    for name in entries:
        n = len(scores[name])
        mean = sum(scores[name]) / n if n else 0.0
        ci: float | None = None
        if n >= 2:
            var = sum((x - mean) ** 2 for x in scores[name]) / (n - 1)
            ci = 1.96 * math.sqrt(var / n)
        table.append(Standing(name, n, wins[name], mean, ci, pennies[name] / n if n else 0.0,
                              buys[name] / n if n else 0.0, illegal[name], timeouts[name],
                              float(ratings[name].mu), float(ratings[name].sigma)))
    table.sort(key=lambda s: (-round(s.rating_mu, 9), s.name))
    return tuple(table)


# --- playing games in-process -------------------------------------------------------------------------

class _Seats:
    """The bots of one game, and what they did wrong."""

    def __init__(self, config: TournamentConfig, spec: GameSpec) -> None:
        registry = config.registry if config.registry is not None else BOTS
        self.bots: list[Bot] = [registry[base_name(name)](seed) for name, seed in zip(spec.seats, spec.bot_seeds,
                                                                                        strict=True)]
        self.illegal = [0] * config.seats
        self.timeouts = [0] * config.seats
        self.limit = config.decision_seconds

    def decide(self, game: Game, seat: int) -> Command:
        """The seat's bot's command, or the safe default (counted) if it raises, times out or is illegal."""
        view = game.view(seat)
        started = time.perf_counter()
        try:
            command = self.bots[seat].choose(view)
            ok = isinstance(command, COMMAND_TYPES) and command.seat == seat and game.is_legal(command)
        except Exception:
            ok = False
        if self.limit and time.perf_counter() - started > self.limit:
            self.timeouts[seat] += 1
            return safe_default(view)
        if not ok:
            self.illegal[seat] += 1
            return safe_default(view)
        return command


def play_one(config: TournamentConfig, index: int) -> GameResult:
    """Play game ``index`` of the tournament in this process."""
    spec = game_spec(config, index)
    game = Game(config.seats, config.rules, spec.deal_seed)
    seats = _Seats(config, spec)
    for _ in range(config.max_commands):
        if game.over:
            return result_of(config, spec, game.view(None), seats.illegal, seats.timeouts)
        acting = game.to_act()
        if game.phase is Phase.BUY:
            # Every offered seat is asked at once (as the server asks them); nearest seat's answer first.
            answers = [seats.decide(game, seat) for seat in acting]
            for command in answers:
                if game.phase is not Phase.BUY or command.seat not in game.to_act():
                    break  # settled: the rest are answers to an offer that is gone
                game.apply(command, trusted=True)
        else:
            game.apply(seats.decide(game, acting[0]), trusted=True)
    raise RuntimeError(f"game {index} did not end in {config.max_commands} commands")


def result_of(config: TournamentConfig, spec: GameSpec, view: SeatView, illegal: Sequence[int],
              timeouts: Sequence[int]) -> GameResult:
    """A finished game's result from any view of it (all it needs is public)."""
    players = view.players
    buys = tuple(config.rules.buy_pennies - p.pennies for p in players)
    return GameResult(
        index=spec.index, deal=spec.deal, deal_seed=spec.deal_seed, rotation=spec.rotation, seats=spec.seats,
        scores=tuple(p.score for p in players), winners=tuple(s for s in range(config.seats)
                                                               if players[s].score == min(p.score for p in players)),
        won=tuple(p.won for p in players), paid=tuple(p.paid for p in players), buys=buys,
        pennies=tuple(p.won - p.paid - b for p, b in zip(players, buys, strict=True)),
        illegal=tuple(illegal), timeouts=tuple(timeouts))


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

class _WireSeat:
    """One seat played over the wire: its stream folded into a TableView, its bot asked at each of the
    seat's decisions, the command sent with SendCommand."""

    def __init__(self, session: SeatSession, bot: Bot, seat: int) -> None:
        from tenpennies.client.view import TableView
        self.session = session
        self.bot = bot
        self.seat = seat
        self.table = TableView(seat)
        self.ready = asyncio.Event()
        self.illegal = 0
        self.timeouts = 0

    async def play(self) -> None:
        from tenpennies.client.connection import Link
        from tenpennies.v1 import tenpennies_pb2 as pb
        stream = cast("AsyncGenerator[pb.Snapshot | pb.Event | Link, None]", self.session.follow())
        try:
            async for message in stream:
                if isinstance(message, Link):
                    continue
                if isinstance(message, pb.Snapshot):
                    self.table.apply_snapshot(message)
                    self.ready.set()
                    act = self.table.view is not None and bool(self.table.view.legal)
                else:
                    before = self.table.sequence
                    self.table.apply_event(message)
                    fresh = message.sequence > before
                    kind = message.WhichOneof("kind")
                    if fresh and kind == "timer_expired" and message.timer_expired.seat == self.seat:
                        self.timeouts += 1
                    act = fresh and kind == "decision_request" and message.decision_request.seat == self.seat
                if self.table.game_end is not None:
                    return
                if act and self.table.view is not None and self.table.view.legal:
                    await self._act(self.table.view)
        finally:
            await stream.aclose()

    async def _act(self, view: SeatView) -> None:
        from tenpennies.client.connection import ServerError
        from tenpennies.wire.mapping import command_to_pb
        try:
            command: Command | None = self.bot.choose(view)
            if not isinstance(command, COMMAND_TYPES) or command.seat != self.seat:
                command = None
        except Exception:
            command = None
        if command is not None:
            try:
                await self.session.send(command_to_pb(command))
                return
            except ServerError as error:
                if error.status != "FAILED_PRECONDITION":
                    raise
                if command in view.legal:
                    return  # listed but refused: the decision passed (the offer settled, a timer acted)
        self.illegal += 1
        try:
            await self.session.send(command_to_pb(safe_default(view)))
        except ServerError as error:
            if error.status != "FAILED_PRECONDITION":
                raise


async def play_grpc(config: TournamentConfig, index: int, services: Sequence[Any]) -> GameResult:
    """Game ``index`` on the server: a seeded table, every seat joined and subscribed, then started."""
    from tenpennies.client.connection import _call, join
    from tenpennies.v1 import tenpennies_pb2 as pb
    from tenpennies.wire.mapping import rules_to_pb
    spec = game_spec(config, index)
    registry = config.registry if config.registry is not None else BOTS
    request = pb.CreateTableRequest(name=f"tournament {config.seed} game {index}", seats=config.seats,
                                    rules=rules_to_pb(config.rules), seed=spec.deal_seed)
    request.settings.decision_seconds = math.ceil(config.decision_seconds)
    request.settings.takeover_seconds = 0  # a seat is our bot's to the end: no server bot takes it over
    created: pb.CreateTableResponse = await _call(services[0].CreateTable(request))
    table_id = created.table.table_id
    seats: list[_WireSeat] = []
    for seat, (name, seed) in enumerate(zip(spec.seats, spec.bot_seeds, strict=True)):
        session = await join(services[seat % len(services)], table_id, name, seat)
        seats.append(_WireSeat(session, registry[base_name(name)](seed), seat))
    tasks = [asyncio.create_task(s.play()) for s in seats]
    try:
        await asyncio.gather(*(s.ready.wait() for s in seats))
        await _call(services[0].StartGame(pb.StartGameRequest(table_id=table_id, host_token=created.host_token)))
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
    view = seats[0].table.view
    if view is None or view.phase is not Phase.GAME_OVER:
        raise RuntimeError(f"game {index} (table {table_id}) ended its stream before the game ended")
    return result_of(config, spec, view, [s.illegal for s in seats], [s.timeouts for s in seats])


async def play_batch_grpc(config: TournamentConfig, indices: Sequence[int],
                          done: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Games ``indices`` over gRPC, ``config.concurrency`` tables at a time (one channel a seat)."""
    from tenpennies.client.connection import open_channel, stub
    from tenpennies.client.trust import settle
    assert config.server
    pinned = None if config.tls_ca else await asyncio.to_thread(settle, config.server, config.fingerprint)
    channels = [open_channel(config.server, config.tls_ca, pinned) for _ in range(config.seats)]
    services = [stub(c) for c in channels]
    pending = iter(indices)
    results: list[GameResult] = []

    async def worker() -> None:
        for index in pending:
            result = await play_grpc(config, index, services)
            results.append(result)
            if done is not None:
                done(result)

    try:
        await asyncio.gather(*(worker() for _ in range(config.concurrency)))
    finally:
        for channel in channels:
            await channel.close()
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
                        help=f"comma-separated bots (a name may repeat; built in: {', '.join(BOTS)})")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000,
                        help="games in all, rounded up to whole deal blocks (every rotation of every lineup)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
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
    parser.add_argument("--decision-seconds", type=float, default=DEFAULT_DECISION_SECONDS,
                        help="a decision's time limit; past it the safe default is played (0: none)")
    parser.add_argument("--rule", action="append", metavar="KNOB=VALUE",
                        help="a house rule of RULES.md TP-6, e.g. --rule preset=deuces --rule rounds=1,2")
    parser.add_argument("--out", metavar="FILE", help="results as JSON (standings and games), or .csv (standings)")


def rules_from_args(items: Sequence[str] | None) -> HouseRules:
    return HouseRules.from_settings(items or [])


def config_from_args(args: argparse.Namespace) -> TournamentConfig:
    return TournamentConfig(
        bots=tuple(b.strip() for b in args.bots.split(",") if b.strip()), seats=args.seats, games=args.games,
        seed=args.seed, rules=rules_from_args(args.rule), jobs=args.jobs, batch=args.batch, server=args.server,
        tls_ca=args.tls_ca, fingerprint=args.fingerprint, concurrency=args.concurrency, ray=args.ray is not None,
        ray_address=args.ray or None, decision_seconds=args.decision_seconds)


def render(results: Results, width: int | None = None) -> str:
    """The standings as the text printed (the same for the same results, wherever they were played)."""
    from rich.console import Console
    from rich.table import Table
    config = results.config
    rules = config.rules
    console = Console(width=width or 120, record=True, file=io.StringIO(), color_system=None, highlight=False)
    console.print(f"Ten Pennies tournament: {', '.join(config.entries)}")
    console.print(f"{config.seats} seats, {len(results.games)} games ({config.deals} deals x {config.block} "
                  f"rotations), seed {config.seed}, preset {rules.preset}, rounds {','.join(map(str, rules.rounds))}")
    table = Table()
    table.add_column("#", justify="right")
    table.add_column("bot")
    for header in ("games", "wins", "mean score (95% CI)", "pennies/game", "buys/game", "illegal", "timeouts",
                   "rating μ ± σ"):
        table.add_column(header, justify="right")
    for place, s in enumerate(results.standings, 1):
        ci = f" ± {s.score_ci95:.1f}" if s.score_ci95 is not None else ""
        table.add_row(str(place), s.name, str(s.games), f"{s.wins:.2f}",
                      f"{s.mean_score:.1f}{ci}", f"{s.pennies_per_game:+.2f}", f"{s.buys_per_game:.2f}",
                      str(s.illegal), str(s.timeouts), f"{s.rating_mu:.2f} ± {s.rating_sigma:.2f}")
    console.print(table)
    console.print("wins: tied winners share a win; pennies: won - paid - pennies bought with (TP-5.2);")
    console.print("rating: openskill BradleyTerryFull, ties in score are ties")
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
    sys.stdout.flush()
    if args.out:
        results.write(args.out)
    print(f"{len(results.games)} games in {elapsed:.1f} s ({len(results.games) / elapsed:.1f} games/s)",
          file=sys.stderr)
    return 0


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
