"""The client's games, by the engine's name: one entry each (``ClientGame``, ``client/game_entry.py``), made by
the game's own package (``client/<game>/``). What a game's ``Kind`` says (``engine.games``: its title, seats,
knobs, rules from settings, bots, takeover bot, narrator, tournament tallies, new and load) is asked of the
Kind (``entry.kind``), never copied here. Game-neutral code asks here by a table's game name; no other module
of the client names a game.

The API (stable: the screen's registry, ``client/tui/games.py``, imports it):

* ``CLIENT_GAMES``: name -> ``ClientGame``; ``client_game(name)``: the entry (``""``: ``DEFAULT_GAME``),
  LookupError (``UnknownGame``) naming the games there are for a game the client has not.
* ``ClientGame``, ``Rounds``, ``Column``: an entry and its parts (see ``client/game_entry.py``).
* ``reader(entry, rules, name)``: the narrator of a reader who sees every hand; ``telling(narrator, event,
  mark)``: all it tells of an event.
* ``table_words(entry, rules, seats, seed)``: a game's table in words, for a heading.
* ``place(scores, winners, seat)``: a seat's place at the end (1 the best, tied seats share).
* ``standings_lines(entry, view, scores, winners, rules, name, me)``: the final standings, a line a seat,
  best first (what ``bots``, ``replay`` and ``bot`` print).
* ``StandingRow`` (``of_standing``, ``of_pb``), ``standing_columns(entry, tallies)``, ``mean_text``,
  ``cell``: a tournament's standings, one row an entry, written once for the headless tournament's table
  and the bot's line of a server's tournament.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import Narrator, Rules, View
from tenpennies.engine.tournament import Standing
from tenpennies.v2 import tenpennies_pb2 as pb

from . import ten_pennies, thirty_one
from .game_entry import ClientGame, Column, Rounds

__all__ = ["CLIENT_GAMES", "ClientGame", "Column", "Rounds", "StandingRow", "UnknownGame", "cell", "client_game",
           "mean_text", "place", "reader", "standing_columns", "standings_lines", "table_words", "telling"]

CLIENT_GAMES: dict[str, ClientGame] = {entry.name: entry for entry in (ten_pennies.ENTRY, thirty_one.ENTRY)}


class UnknownGame(LookupError):
    pass


def client_game(name: str) -> ClientGame:
    """The entry of the game called ``name`` (``""``: the default game, a table that names none)."""
    try:
        return CLIENT_GAMES[name or DEFAULT_GAME]
    except KeyError:
        raise UnknownGame(f"no game {name!r} in this client (there are {', '.join(sorted(CLIENT_GAMES))})") from None


# --- telling a game ---------------------------------------------------------------------------------------

def reader(entry: ClientGame, rules: Rules, name: Callable[[int], str]) -> Narrator:
    """The narrator of a reader who sees every hand (a replay, ``bots -v``), seats called by ``name``."""
    if entry.reader is not None:
        return entry.reader(rules, name)
    return entry.kind.narrator(rules, name, every_hand=True)


def telling(narrator: Narrator, event: Any, mark: str = "") -> list[str]:
    """All ``narrator`` tells a reader of ``event``: its own ``telling`` where it has one (a move's line after
    ``mark``, a round's end with the hands it shows), else its line, after ``mark``."""
    tell = getattr(narrator, "telling", None)
    if callable(tell):
        told: list[str] = tell(event, mark)
        return told
    line = narrator.line(event)
    return [] if line is None else [mark + line]


def table_words(entry: ClientGame, rules: Rules, seats: int, seed: int) -> str:
    """A game's table in words: ``3 seats, preset classic, seed 8`` (its rules as the entry's ``rules_words``)."""
    words = entry.rules_words(rules)
    return f"{seats} seats, {words + ', ' if words else ''}seed {seed}"


# --- the end of a game --------------------------------------------------------------------------------------

def place(scores: Sequence[int], winners: Sequence[int], seat: int) -> int:
    """``seat``'s place at the end: 1 for the winners, then by score, lowest first (as the tournaments rank
    scores, ``engine.tournament.score_ranks``); tied seats share a place (a game whose scores are places
    gives them back)."""
    def key(s: int) -> tuple[bool, int]:
        return s not in winners, scores[s]
    return 1 + sum(1 for other in range(len(scores)) if key(other) < key(seat))


def standings_lines(entry: ClientGame, view: View | None, scores: Sequence[int], winners: Sequence[int],
                    rules: Rules, name: Callable[[int], str], me: int | None = None) -> list[str]:
    """The final standings, a line a seat, best first: its place, its name, its figures (the entry's
    ``columns`` from ``view``, a view of the finished game; its score without one), ``winner`` and, for
    ``me``, ``(this bot)``."""
    seats = range(len(scores))
    order = sorted(seats, key=lambda s: (place(scores, winners, s), s))
    lines = []
    for seat in order:
        figures = entry.columns(view, scores, seat, rules) if entry.columns is not None and view is not None \
            else f"score {scores[seat]:>4}"
        marks = ("  winner" if seat in winners else "") + ("  (this bot)" if seat == me else "")
        lines.append(f"  {place(scores, winners, seat)}. {name(seat):<24} {figures}{marks}")
    return lines


# --- a tournament's standings -------------------------------------------------------------------------------

@dataclass(frozen=True)
class StandingRow:
    """One entry's standing as any standings show it: a headless tournament's (``engine.tournament.Standing``)
    or a server's (``pb.Standing``). ``totals``: the game's own tallies over its games."""

    name: str
    games: int
    wins: float
    mean: float | None
    margin: float | None
    totals: Mapping[str, int]
    illegal: int
    late: int
    mu: float
    sigma: float

    def per_game(self, total: str) -> float:
        return self.totals.get(total, 0) / self.games if self.games else 0.0

    @classmethod
    def of_standing(cls, s: Standing) -> StandingRow:
        return cls(s.name, s.games, s.wins, s.mean_score, s.mean_score_margin, dict(s.tallies), s.illegal,
                   s.timeouts, s.rating_mu, s.rating_sigma)

    @classmethod
    def of_pb(cls, s: pb.Standing) -> StandingRow:
        return cls(s.name, s.games, s.shared_wins, s.mean_score if s.HasField("mean_score") else None,
                   s.mean_score_margin if s.HasField("mean_score") else None,
                   dict(s.tallies), s.illegal, s.timed_out, s.rating_mu, s.rating_sigma)


def standing_columns(entry: ClientGame, tallies: Iterable[str]) -> tuple[Column, ...]:
    """A game's own columns of its standings: a game's mean of each of ``tallies``, signed where the entry says
    (``+1.5``)."""
    return tuple(Column(entry.tally_words.get(t, t), t, f"{'+' if t in entry.signed else ''}.{entry.digits}f")
                 for t in tallies)


def mean_text(entry: ClientGame, row: StandingRow, between: str = "") -> str:
    """The mean score (place) with the half-width of its 95% interval: ``31.2±4.1``; ``-`` before a game."""
    if row.mean is None:
        return "-"
    margin = f"{between}±{between}{row.margin:.{entry.digits}f}" if row.margin is not None else ""
    return f"{row.mean:.{entry.digits}f}{margin}"


def cell(column: Column, row: StandingRow) -> str:
    return format(row.per_game(column.total), column.form)
