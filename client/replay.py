"""``tenpennies replay GAME_ID``: a stored game of any game here, move by move, every hand revealed.

The server's SQLite file keeps each table's row (seats, rules, seed), its seats and every accepted
command; the engine rebuilds the game from the seed and that log (``Kind.new``, then a command at a time),
so the replay shows what no seat saw: every deal, every card drawn or bought, every hand left at a round's
end, in the game's narrator's words (its ``ClientGame``'s reader, ``client.games``). The file is opened
read-only, so a running server's file may be read.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import Game, RuleError
from tenpennies.engine.review import DEEPER, Review
from tenpennies.v2 import tenpennies_pb2 as pb

from .games import ClientGame, client_game, reader, standings_lines, table_words, telling
from .reviews import moments, move_words, plus_minus, reviewed
from .view import bot_plays, timed_out

if TYPE_CHECKING:
    from .local import StoredGame


def narrate(stored: StoredGame, *, hands: bool = False) -> Iterator[str]:
    """The game in lines, in its narrator's words for every event, as a reader who sees every hand: the deal
    of each round (every hand), each move marked with where the game stood (its entry's ``move_mark``) with
    what it revealed (every card drawn or bought), each round's end with what it shows, the final standings.
    With ``hands``, every hand after each turn's start. Raises RuleError if the stored log does not replay (a
    damaged file), LookupError for a game this client does not tell."""
    entry = client_game(stored.game)
    name = stored.seat_name
    if stored.status in ("waiting", "expired") and not stored.commands:
        yield f"Table {stored.table_id} ({stored.name!r}): the game never started (the table is {stored.status})."
        return
    named = "" if entry.name == DEFAULT_GAME else f"{entry.title}, "  # the game a table that names none plays
    table = table_words(entry, stored.rules, stored.seats, stored.seed)
    yield f"Table {stored.table_id} ({stored.name!r}): {named}{table}, {len(stored.commands)} commands"
    yield "Seats: " + ", ".join(f"{s} {name(s)}" for s in range(stored.seats))
    game = entry.kind.new(stored.seats, stored.rules, stored.seed)
    replay = _Replay(stored, game, entry)
    yield from replay.events(game.opening_events, "")
    for command in stored.commands:
        where = entry.move_mark(game)
        events = game.apply(command)
        yield from replay.table_lines(where)
        yield from replay.events(events, where)
        if hands and not game.over and any(entry.turn_started(e) for e in events):
            yield from ("      " + line for line in replay.hands())
    if game.over:
        return
    stands = entry.stands(game) if entry.stands is not None else f"{entry.rounds.word} {game.round_number}"
    yield ""
    yield (f"This game is not finished (the table is {stored.status}): {len(stored.commands)} commands so far, "
           f"{stands}.")
    yield "Hands now:"
    yield from ("  " + line for line in replay.hands())


class _Replay:
    """The narrator's lines for a reader who sees every hand, and what only a replay can show besides:
    the hands as they are, the final standings with every seat's figures."""

    def __init__(self, stored: StoredGame, game: Game, entry: ClientGame) -> None:
        self.stored = stored
        self.game = game
        self.entry = entry
        self.name = stored.seat_name
        self.narrator = reader(entry, stored.rules, stored.seat_name)
        self.told = 0  # the game's events told so far (the stored ones are the same, in the same order)
        self.marks = _table_marks(stored.events)
        self.late: set[int] = set()  # seats the timer acted for, until their move's line says so
        self.ended = False

    def table_lines(self, where: str) -> Iterator[str]:
        """The table's own events (a bot taking a seat over, or giving it back) stored before the game's
        next event; a timer's is told on the line of the move it made."""
        for seat, what in self.marks.pop(self.told, []):
            if what == "timer":
                self.late.add(seat)
            else:
                yield where + bot_plays(self.name(seat), playing=what == "bot")

    def hands(self) -> list[str]:
        return [f"{self.name(s):<20} {self.entry.hand(self.game.view(s)) or '-'}" for s in range(self.stored.seats)]

    def events(self, events: Sequence[Any], where: str) -> Iterator[str]:
        """Each event's lines, a move's marked with ``where`` it was made; the final standings after the
        last."""
        for event in events:
            if self.entry.rounds.starts(event) is not None:
                yield ""
            told = telling(self.narrator, event, where)
            self.told += 1
            seat = getattr(event, "seat", None)
            if told and seat in self.late:  # the move the timer made for the seat
                self.late.discard(seat)
                told[0] = where + timed_out(told[0].removeprefix(where))
            yield from told
        result = self.game.result
        if result is not None and not self.ended:
            self.ended = True
            yield ""
            yield "Final standings:"
            yield from standings_lines(self.entry, self.game.view(None), result.scores, result.winners,
                                       self.stored.rules, self.name)


# The stored events that are the table's, not the game's: they are left out when the game's are counted.
TABLE_EVENTS = ("seat_changed", "chat_posted", "timer_expired", "decision_request")


def _table_marks(rows: Sequence[tuple[int, int | None, bytes]]) -> dict[int, list[tuple[int, str]]]:
    """The timer's moves and the takeovers among a table's stored events, each keyed by how many of the
    game's events came before it (so told just before the next one): (seat, "timer" | "bot" | "back")."""
    marks: dict[int, list[tuple[int, str]]] = {}
    game_events = 0
    bot_playing: dict[int, bool] = {}
    for _, _, data in rows:
        event = pb.Event.FromString(data)
        kind = event.WhichOneof("kind")
        if kind is None:
            continue
        if kind not in TABLE_EVENTS:
            game_events += 1
        elif kind == "timer_expired":
            marks.setdefault(game_events, []).append((event.timer_expired.seat, "timer"))
        elif kind == "seat_changed":
            seat = event.seat_changed.seat
            was, now = bot_playing.get(seat.seat, False), seat.bot_playing and seat.kind == pb.SEAT_KIND_PLAYER
            bot_playing[seat.seat] = now
            if now != was and seat.kind == pb.SEAT_KIND_PLAYER:
                marks.setdefault(game_events, []).append((seat.seat, "bot" if now else "back"))
    return marks


# --- tenpennies replay -----------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="the game's table id (or its first characters)")
    parser.add_argument("--db", default="tenpennies.db", help="the server's SQLite file (default: tenpennies.db)")
    parser.add_argument("--hands", action="store_true", help="also every hand at the start of each turn")
    parser.add_argument("--review", metavar="SEAT", default=None,
                        help="instead, review this seat's decisions (its number or name): the costliest first, "
                             "with what each cost against the better option (kept, so the next look is instant)")
    parser.add_argument("--budget", type=int, default=None, metavar="N",
                        help="with --review: what the review may spend, as worlds an option of a decision is "
                             "played in (default: the game's own); it goes to the decisions whose place among the "
                             "costliest is in question")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="with --review: how many of the costliest decisions to print (default 10)")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="with --review: the review's own seed (default: the kept review's, else 0); another "
                             "seed plays other worlds, to see how steady the advice is")


def run(args: argparse.Namespace) -> int:
    """0: printed (finished or not); 1: no such game, or a file that is not a store."""
    # The stored game is read through the local launcher, the client's one door to the server's code; it
    # is imported here so that no other tenpennies command pays for loading the server.
    from .local import NoSuchGame, read_game

    try:
        stored = read_game(args.db, args.game_id)
    except NoSuchGame as error:
        print(error, file=sys.stderr)
        return 1
    except sqlite3.Error as error:
        print(f"cannot read {args.db}: {error}", file=sys.stderr)
        return 1
    if args.review is not None:
        return review(stored, args.db, args.review, budget=args.budget, top=args.top, seed=args.seed)
    try:
        client_game(stored.game)
    except LookupError as error:
        print(f"{stored.table_id} is a game of {stored.game}: {error}", file=sys.stderr)
        return 1
    try:
        for line in narrate(stored, hands=args.hands):
            print(line)
    except RuleError as error:
        print(f"the stored log does not replay: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # | head
        return 0
    return 0


# --- tenpennies replay --review --------------------------------------------------------------------------

def seat_of(stored: StoredGame, text: str) -> int | None:
    """A seat named on the command line: its number, or its name as the table shows it (any case)."""
    if text.isdigit():
        return int(text) if int(text) < stored.seats else None
    labels = [stored.seat_name(s).casefold() for s in range(stored.seats)]
    found = [s for s, label in enumerate(labels) if label == text.casefold()] \
        or [s for s in range(stored.seats) if stored.names[s].casefold() == text.casefold()]
    return found[0] if len(found) == 1 else None


def review_lines(stored: StoredGame, review: Review, top: int) -> Iterator[str]:
    """A review in words: the costliest of the decisions it is sure are mistakes first, each with what it
    cost (and the 95% margin of that) and the better option (each move in the narrator's words, as the replay
    tells the game: ``discard the 6C``), then the total."""
    who = stored.seat_name(review.seat)
    costly = review.costliest(top)
    seed = "" if review.seed is None else f", seed {review.seed}"
    yield (f"Review of {who} (seat {review.seat}) in table {stored.table_id} ({stored.name!r}): "
           f"{len(review.marks)} decisions with a choice, scored by the searching bot ({review.searcher}) at "
           f"{review.budget} worlds a decision (up to {DEEPER * review.budget} for those at the edge of the five "
           f"costliest){seed}.")
    yield ("Points are the seat's expected points for the rest of the round after each option, from what it "
           "knew then (lower is better); a cost is shown with its 95% margin, and a decision is called a "
           "mistake only when its cost is larger than the margin and stands out from the luck of the game's "
           "other decisions (of those called, about one in ten at most may be luck). Mistakes are listed by the least "
           "each surely cost (the low end of its margin); ~ marks one too close to call against the first left "
           "out.")
    if not costly:
        yield "No decision was surely a mistake: every choice was the searcher's best, or too close to call."
    else:
        yield ""
        yield f"The costliest mistakes{'' if len(costly) < top else f' (first {top})'}:"
        had = moments(stored, review.seat, (m.index for m in costly))
        close = {m.index for m in review.too_close(top)}
        for place, mark in enumerate(costly, 1):
            chosen = next(o.points for o in mark.options if o.command == mark.chosen)
            played, better = (move_words(stored.game, stored.rules, m) for m in (mark.chosen, mark.best.command))
            yield (f"{place:>3}. round {mark.round}, move {mark.index + 1}: {played} cost {mark.loss:.1f} "
                   f"{plus_minus(mark.margin)} points{' ~' if mark.index in close else ''} ({chosen:.1f}); "
                   f"better: {better} ({mark.best.points:.1f})")
            if mark.index in had:
                yield f"       {had[mark.index]}"
    yield ""
    yield (f"Total expected loss: {review.total_loss:.1f} points over {len(review.marks)} decisions "
           f"({review.mistakes} of them sure mistakes).")


def review(stored: StoredGame, db: str, seat_text: str, *, budget: int | None, top: int,
           seed: int | None = None) -> int:
    """``--review``: 0 printed; 1 no such seat, a game not finished or a log that does not replay; 2 a bad
    budget."""
    seat = seat_of(stored, seat_text)
    if seat is None:
        print(f"no seat {seat_text!r} at table {stored.table_id}: seats are "
              + ", ".join(f"{s} {stored.seat_name(s)}" for s in range(stored.seats)), file=sys.stderr)
        return 1
    if budget is not None and budget < 1:
        print("--budget takes a number of rollouts, 1 or more", file=sys.stderr)
        return 2
    if stored.status != "finished":
        print(f"table {stored.table_id} is {stored.status}: a review is of a finished game", file=sys.stderr)
        return 1
    shown = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if shown:
            print(f"\rreviewing: {done}/{total} decisions", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    try:
        found, _ = reviewed(db, stored, seat, budget=budget, seed=seed, progress=progress)
    except RuleError as error:
        print(f"the stored log does not replay: {error}", file=sys.stderr)
        return 1
    try:
        for line in review_lines(stored, found, top):
            print(line)
    except BrokenPipeError:
        return 0
    return 0
