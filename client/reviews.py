"""Reviews of finished games, made on every core and kept: a review takes the searcher a while (seconds for a
whole Ten Pennies game), so its decisions are scored in a pool of processes (``review_pooled``: the engine's
review is a pure function of the game, its seed and its budget, and the pool only runs its jobs), and a
finished one is stored in ``reviews.sqlite`` in the client's data directory (``wire.common.data_dir``) and
opens at once the next time.

A review is kept under its *source* (where the game was read from: the local games' file, by its resolved
path, or a server's address), the game's id, the seat, the searcher and its budget. ``load_review`` finds the
one made with the largest budget (the newest among equals) unless told which; a review that was stopped
part of the way is never kept.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import resource_tracker
from multiprocessing.pool import AsyncResult, Pool
from pathlib import Path
from typing import Any

from tenpennies.engine.cards import Card
from tenpennies.engine.games import GAMES, kind
from tenpennies.engine.interface import Command, Kind, Rules
from tenpennies.engine.review import REFINE, Job, Review, Scored, Scorer, Walk, review_game
from tenpennies.wire.common import data_dir
from tenpennies.wire.record import GameRecord

REVIEWS_FILE = "reviews.sqlite"

SCHEMA = """CREATE TABLE IF NOT EXISTS reviews (
    source TEXT NOT NULL, game_id TEXT NOT NULL, seat INTEGER NOT NULL, searcher TEXT NOT NULL,
    budget INTEGER NOT NULL, made REAL NOT NULL, review TEXT NOT NULL,
    PRIMARY KEY (source, game_id, seat, searcher, budget))"""


def move_words(game: str, rules: Rules, notation: str, card: Callable[[Card], str] | None = None) -> str:
    """A reviewed move (its notation, as a ``Mark`` keeps it: ``3 discard 6C.1``) in its game's narrator's
    words (``Narrator.move``: ``discard the 6C``), each card written by ``card`` (None: the narrator's own);
    a notation that is no command of the game (a review written by hand) as it is, without its seat."""
    game_kind = kind(game)
    try:
        command = game_kind.parse_command(notation)
    except (ValueError, KeyError, IndexError):
        seat, _, rest = notation.partition(" ")
        return rest if seat.isdigit() and rest else notation
    return game_kind.narrator(rules, str, card=card).move(command)


def moments(record: GameRecord, seat: int, indices: Iterable[int],
            card: Callable[[Card], str] | None = None) -> dict[int, str]:
    """What ``seat`` had before it at each of its decisions ``indices`` (positions in the record's log), in its
    game's narrator's words (``Narrator.moment``: the hand, the card on offer), each card written by ``card``;
    none for a game whose narrator has no such words."""
    game_kind = kind(record.game)
    narrator = game_kind.narrator(record.rules, record.seat_name, seat=seat, card=card)
    moment = getattr(narrator, "moment", None)
    wanted = sorted(set(indices))
    if moment is None or not wanted:
        return {}
    game = game_kind.new(record.seats, record.rules, record.seed)
    out = {}
    for index, command in enumerate(record.commands[:wanted[-1] + 1]):
        if index in wanted:
            out[index] = str(moment(game.view(seat)))
        game.apply(command, trusted=True)
    return out


def plus_minus(margin: float) -> str:
    """A cost's 95% margin as it follows the cost: ``± 4.2`` (``± ?``: too few worlds to tell)."""
    return "± ?" if math.isinf(margin) else f"± {margin:.1f}"


def source_key(source: str | Path) -> str:
    """How a source is kept: a file by its resolved path (so ``./local.db`` and its full path are one
    source), a server by its address as given."""
    path = Path(source)
    return str(path.resolve()) if isinstance(source, Path) or path.is_file() else str(source)


def _open(home: Path | None) -> sqlite3.Connection:
    folder = data_dir() if home is None else home
    folder.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(folder / REVIEWS_FILE, timeout=5)
    db.execute(SCHEMA)
    return db


def load_review(source: str | Path, game_id: str, seat: int, *, searcher: str | None = None,
                budget: int | None = None, home: Path | None = None) -> Review | None:
    """The kept review of ``seat``'s play in game ``game_id`` from ``source`` (None: none yet); of several,
    the one of ``searcher`` at ``budget`` when given, else the largest budget's. ``home``: the folder of the
    file (default: the data directory)."""
    query = "SELECT review FROM reviews WHERE source = ? AND game_id = ? AND seat = ?"
    args: list[object] = [source_key(source), game_id, seat]
    if searcher is not None:
        query += " AND searcher = ?"
        args.append(searcher)
    if budget is not None:
        query += " AND budget = ?"
        args.append(budget)
    db = _open(home)
    try:
        row = db.execute(query + " ORDER BY budget DESC, made DESC LIMIT 1", args).fetchone()
    finally:
        db.close()
    return None if row is None else Review.from_dict(json.loads(row[0]))


def save_review(source: str | Path, review: Review, *, home: Path | None = None) -> None:
    """Keep ``review`` (one of the same game, seat, searcher and budget is replaced). A review stopped part
    of the way is not kept (ValueError): the next look must not take it for the whole."""
    if not review.complete:
        raise ValueError("a review stopped part of the way is not kept")
    db = _open(home)
    try:
        with db:
            db.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (source_key(source), review.game_id, review.seat, review.searcher, review.budget,
                        time.time(), json.dumps(review.to_dict())))
    finally:
        db.close()


def review_record(record: GameRecord, seat: int, *, budget: int | None = None, seed: int = 0,
                  progress: Callable[[int, int], object] | None = None,
                  stop: Callable[[], bool] | None = None) -> Review:
    """Review ``seat``'s play in a recorded game on every core (``review_pooled``; its ``Stopped`` when
    ``stop`` says so). ``budget``: None for the game's searcher's default."""
    return review_pooled(kind(record.game), record.seats, record.rules, record.seed, record.commands, seat,
                         budget=budget, seed=seed, progress=progress, stop=stop, game_id=record.table_id)


# --- the pool of processes -----------------------------------------------------------------------------

POOL_FROM = 8
"""A look at fewer decisions than this, before the pool is started, is scored in this process: starting
workers would cost more than it saves."""


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def review_pooled(game_kind: Kind[Any], seats: int, rules: Rules, game_seed: int, commands: Sequence[Command],
                  seat: int, *, budget: int | None = None, seed: int = 0,
                  progress: Callable[[int, int], object] | None = None, stop: Callable[[], bool] | None = None,
                  game_id: str = "", refine: int = REFINE, workers: int | None = None) -> Review:
    """``engine.review.review_game`` with its decisions scored in a pool of ``workers`` processes (None: every
    core this process may use; 1, or a kind not in ``engine.games.GAMES``: this process alone): the same
    review as in one process. A stopped review ends its workers at once."""
    count = default_workers() if workers is None else workers
    if count <= 1 or GAMES.get(game_kind.name) is not game_kind:
        return review_game(game_kind, seats, rules, game_seed, commands, seat, budget=budget, seed=seed,
                           progress=progress, stop=stop, game_id=game_id, refine=refine)
    pool = _Pool(count, stop)
    try:
        return review_game(game_kind, seats, rules, game_seed, commands, seat, budget=budget, seed=seed,
                           progress=progress, stop=stop, game_id=game_id, refine=refine, scorer=pool.scorer)
    finally:
        pool.close()


class _Pool:
    """A review's pool of worker processes, started at its first look of ``POOL_FROM`` decisions or more, each
    worker walking the game from its seed and log (``engine.review.Walk``). multiprocessing's Pool, not
    concurrent.futures': a review stopped (a player's escape) ends its workers at once (terminate), where an
    executor's shutdown lets the rollouts under way run on to their end. Spawned, not forked: the client has
    threads (a screen's), which a fork would copy mid-step."""

    def __init__(self, workers: int, stop: Callable[[], bool] | None) -> None:
        self.workers, self.stop = workers, stop
        self.pool: Pool | None = None

    def scorer(self, walk: Walk) -> Scorer:
        def score(jobs: Sequence[Job]) -> Iterator[tuple[Job, Scored]]:
            if self.pool is None and len(jobs) < POOL_FROM:
                for job in jobs:
                    if self.stop is not None and self.stop():
                        return
                    yield job, walk.score(job)
                return
            pool = self.pool or self._start(walk)
            pending: dict[AsyncResult[Scored], Job] = {pool.apply_async(_score, (job,)): job for job in jobs}
            while pending:
                finished = [r for r in pending if r.ready()]
                if not finished:
                    next(iter(pending)).wait(0.2)
                for result in finished:
                    yield pending.pop(result), result.get()
                if pending and self.stop is not None and self.stop():
                    return
        return score

    def _start(self, walk: Walk) -> Pool:
        _start_tracker()
        self.pool = multiprocessing.get_context("spawn").Pool(
            self.workers, initializer=_set_up,
            initargs=(walk.kind.name, walk.seats, walk.rules, walk.game_seed, list(walk.commands), walk.seat))
        return self.pool

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None


_walk: Walk | None = None  # a pool worker's game, set up once by ``_set_up``


def _set_up(name: str, seats: int, rules: Rules, game_seed: int, commands: Sequence[Command], seat: int) -> None:
    global _walk
    _walk = Walk(GAMES[name], seats, rules, game_seed, commands, seat)


def _score(job: Job) -> Scored:
    assert _walk is not None, "a worker is set up before it scores"
    return _walk.score(job)


def _start_tracker() -> None:
    """Start multiprocessing's resource tracker, handing it a real stderr: a screen may stand in for stderr
    with a stream of no file of its own (Textual does), and the tracker, started with the pool's first
    process, would be handed that stream's bad file number and fail the pool."""
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, ValueError, OSError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    standing, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = standing


def reviewed(source: str | Path, record: GameRecord, seat: int, *, budget: int | None = None,
             seed: int | None = None, progress: Callable[[int, int], object] | None = None,
             stop: Callable[[], bool] | None = None, home: Path | None = None) -> tuple[Review, bool]:
    """The review of ``seat`` in ``record``: the kept one if there is one (of this budget, or the searcher's
    default; of ``seed`` when given), else made now (from ``seed``, None: 0) and kept. A kept review made
    before reviews had intervals (no seed) is made again. Returns it and whether it was kept already."""
    searcher, default = kind(record.game).searcher
    spend = default if budget is None else budget
    kept = load_review(source, record.table_id, seat, searcher=searcher, budget=spend, home=home)
    if kept is not None and current(kept, seed):
        return kept, True
    review = review_record(record, seat, budget=spend, seed=0 if seed is None else seed, progress=progress,
                           stop=stop)
    save_review(source, review, home=home)
    return review, False


def current(review: Review, seed: int | None = None) -> bool:
    """Whether a kept review will do: made with intervals (it has its seed), and from ``seed`` if one is asked."""
    return review.seed is not None and (seed is None or review.seed == seed)
