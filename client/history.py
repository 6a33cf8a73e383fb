"""Your history: the local games played, newest first, each as a row a person reads (date, game, opponents,
result or place, your score, pennies left for a game that has them), from the file of the local games
(read-only, through ``client.local``: ``played_games``).

"You" is the seat a person held at the table (the local game seats its player last, the bots first).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.games import wire
from tenpennies.wire.record import GameRecord

from .arguments import game_title
from .games import client_game, place
from .local import PlayedGame, played_games

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


@dataclass(frozen=True)
class HistoryRow:
    """One game as the history lists it. ``place``: 1 the best (tied seats share); ``score``: its score, or
    for a game whose scores are places the tally its rules keep (``Kind.tournament_tallies``: lives, tokens or
    points); ``pennies``: the pennies left at the end (None for a game without them)."""

    table_id: str
    date: str
    game: str
    seat: int
    opponents: tuple[str, ...]
    place: int
    seats: int
    won: bool
    score: int
    pennies: int | None

    @property
    def against(self) -> str:
        """The opponents in a few words: the same name once, counted (``Ann, greedy bot ×2``)."""
        counts: dict[str, int] = {}
        for name in self.opponents:
            counts[name] = counts.get(name, 0) + 1
        return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())

    @property
    def result(self) -> str:
        if self.won:
            return "won"
        return f"{ORDINALS.get(self.place, f'{self.place}th')} of {self.seats}"


def history_row(played: PlayedGame) -> HistoryRow:
    """The row of one finished game (its end worked out from its stored state: ``PlayedGame.final``)."""
    game = played.final()
    result = game.result
    assert result is not None, f"{played.table_id} is not over"
    seat = played.people[0] if played.people else played.seats - 1
    entry = client_game(played.game)
    # a place says nothing the place column does not: such a game's own tally says more
    kept = entry.kind.tournament_tallies(played.rules) if entry.places else ()
    score: int = result.tallies[kept[0]][seat] if kept else result.scores[seat]
    pennies = entry.pennies_left(game.view(None), seat)
    opponents = tuple(played.names[s] or f"seat {s}" for s in range(played.seats) if s != seat)
    date = time.strftime("%Y-%m-%d %H:%M", time.localtime(played.created))
    return HistoryRow(played.table_id, date, game_title(played.game), seat, opponents,
                      place(result.scores, result.winners, seat), played.seats,
                      seat in result.winners, score, pennies)


def left_in(record: GameRecord, seat: int) -> int | None:
    """The round (its game's, ``Rounds.starts``: a deal, say) in which the player left ``seat`` to a bot, which
    played the game out from there, from the table's stored events (None: the player played it to its end)."""
    starts = client_game(record.game).rounds.starts
    read = wire(record.game).event_from_pb
    playing = 0
    for _, _, data in record.events:
        event = pb.Event.FromString(data)
        if event.WhichOneof("kind") == "seat_changed":
            if event.seat_changed.seat.seat == seat and event.seat_changed.seat.bot_playing:
                return playing or 1
            continue
        told = read(event, record.rules)
        started = starts(told) if told is not None else None
        if started is not None:
            playing = started
    return None


def history(db: str | Path, *, limit: int = 500) -> list[HistoryRow]:
    """The local games played, newest first ([] when there is no file yet)."""
    if not Path(db).is_file():
        return []
    return [history_row(played) for played in played_games(db, limit=limit)]
