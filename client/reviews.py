"""Reviews of finished games, made once and kept: a review takes the searcher a while (tens of seconds for a
whole Ten Pennies game), so a finished one is stored in ``reviews.sqlite`` in the client's data directory
(``wire.common.data_dir``) and opens at once the next time.

A review is kept under its *source* (where the game was read from: the local games' file, by its resolved
path, or a server's address), the game's id, the seat, the searcher and its budget. ``load_review`` finds the
one made with the largest budget (the newest among equals) unless told which; a review that was stopped
part of the way is never kept.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from tenpennies.engine.cards import Card
from tenpennies.engine.games import kind
from tenpennies.engine.interface import Rules
from tenpennies.engine.review import Review, review_game
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
    """Review ``seat``'s play in a recorded game (``engine.review.review_game``; its ``Stopped`` when
    ``stop`` says so). ``budget``: None for the game's searcher's default."""
    return review_game(kind(record.game), record.seats, record.rules, record.seed, record.commands, seat,
                       budget=budget, seed=seed, progress=progress, stop=stop, game_id=record.table_id)


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
