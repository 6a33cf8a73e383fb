"""What the client tells of one game beyond what its engine's ``Kind`` says: ``ClientGame``, the entry each
game's client package (``client/<game>/``) makes and the client's registry (``client/games.py``) lists, with
the small types it is made of (``Rounds``, ``Column``). Kept apart from the registry so that a game's package
may import it while the registry imports the packages. No Textual, no screen.

Every field has a default a game that says nothing more plays by (one round, its ``Result.scores`` as the
score, the Kind's narrator): a new game's entry names what it has of its own and no more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tenpennies.engine.games import kind
from tenpennies.engine.interface import Game, Kind, Narrator, Rules, View
from tenpennies.v2 import tenpennies_pb2 as pb


def _starts_none(event: Any) -> int | None:
    return None


def _figures_none(event: Any, rules: Any) -> tuple[int, ...] | None:
    return None


def _score(rules: Any) -> str:
    return "score"


@dataclass(frozen=True)
class Rounds:
    """How a game's rounds show in its events: a round's number from the event that starts it, the
    running figure of each seat from the event that ends it (and from the one that starts the first), and
    the words for them (a round or a deal; its score, lives, tokens or points). The default: a game of one
    round that tells no figures as it goes."""

    starts: Callable[[Any], int | None] = _starts_none
    figures: Callable[[Any, Any], tuple[int, ...] | None] = _figures_none  # (event, rules)
    word: str = "round"  # "round" or "deal"
    figure: Callable[[Any], str] = _score  # rules -> "score", "lives", ...


@dataclass(frozen=True)
class Column:
    """One of a game's own columns in a tournament's standings: its ``header`` and a game's mean of one of a
    standing's ``totals`` (``StandingRow.totals``), written with ``form`` (a format spec: ``+.1f``)."""

    header: str
    total: str
    form: str = ".1f"


def _hand(view: View) -> str:
    return " ".join(str(getattr(card, "text", card)) for card in getattr(view, "hand", ()))


def _nothing(*args: Any) -> None:
    return None


def _no_counts(view: View, rules: Rules) -> Mapping[str, tuple[int, ...]]:
    return {}


def _no_words(rules: Rules) -> str:
    return ""


def _no_mark(game: Game) -> str:
    return ""


def _every_command(event: Any) -> bool:
    return True


@dataclass(frozen=True)
class ClientGame:
    """One game as the client's non-screen parts tell it, by the engine's ``name`` (its ``Kind``: ``kind``).

    * ``rounds``: how its rounds show in its events (the replay viewer's steps and chart, the history's
      round a player left in, a replay's blank line before each round).
    * ``reader``: the narrator of a reader who sees every hand (a replay, ``bots -v``), from the rules and
      seat names; None: the Kind's own (``every_hand``). A narrator with ``telling(event, mark)`` is asked
      for all it tells of an event (a move marked, a round's end with its hands), any other for its line.
    * ``rules_words``: the rules as a heading says them (``preset deuces, rounds 1-7``; "": nothing).
    * ``move_mark``: where a game stands as a replay marks a move (``[r2 t5] ``; the game before the move).
    * ``stands``: where an unfinished game stands, for a replay's last lines (``round 2 (2 of 7), turn 5``);
      None: its ``round_number`` in ``rounds.word``.
    * ``turn_started``: whether an event starts a turn (a replay's ``--hands`` shows every hand after it).
    * ``hand``: a seat's hand in a line, from its view (default: the view's ``hand``, card by card).
    * ``round_end``: a round's end in one line of ``bots`` (None for any other event), told by ``reader``.
    * ``columns``: a seat's figures in the final standings (``standings_lines``), from a view of the finished
      game, the scores, the seat and the rules; None: its score.
    * ``counts``: what a view of the finished game shows by seat that a tournament's ``GameResult`` keeps
      beyond scores and winners (the tallies ``Kind.tournament_tallies`` names, and whatever else it counts, as
      ``GameResult.counts``): the same in-process (the spectator's view) and over gRPC (a seat's).
    * ``pennies_left``: a seat's pennies left at the end, for the history (None: a game without them).
    * ``places``: ``Result.scores`` are places (1 the best), not points; ``score_word`` names them so.
    * ``score_note``: what ``Result.scores`` are to a reader beyond their word (``1 the best``).
    * ``tally_words``, ``signed``, ``standing_notes``, ``digits``: a tournament's standings, a column for each
      of the game's tallies: a tally's header (default: its name), the tallies written with their sign (a
      balance, won or lost: ``+1.5``), the notes under the table, the decimals of a mean.
    * ``unfinished``: where a snapshot of a game being played stands, for the offer to continue it: (round,
      rounds the table plays, which of them it is, the words of a game without numbered rounds); None: its
      title.
    """

    name: str
    rounds: Rounds = Rounds()
    reader: Callable[[Rules, Callable[[int], str]], Narrator] | None = None
    rules_words: Callable[[Rules], str] = _no_words
    move_mark: Callable[[Any], str] = _no_mark
    stands: Callable[[Any], str] | None = None
    turn_started: Callable[[Any], bool] = _every_command
    hand: Callable[[Any], str] = _hand
    round_end: Callable[[Any, Any], str | None] = _nothing
    columns: Callable[[Any, Sequence[int], int, Rules], str] | None = None
    counts: Callable[[Any, Rules], Mapping[str, tuple[int, ...]]] = _no_counts
    pennies_left: Callable[[Any, int], int | None] = _nothing
    places: bool = False
    score_note: str = ""
    tally_words: Mapping[str, str] = field(default_factory=dict)
    signed: frozenset[str] = frozenset()
    standing_notes: tuple[str, ...] = ()
    digits: int = 1
    unfinished: Callable[[pb.Snapshot], tuple[int, int, int, str]] | None = None

    @property
    def score_word(self) -> str:
        """What one of ``Result.scores`` is called: ``place`` or ``score``."""
        return "place" if self.places else "score"

    @property
    def kind(self) -> Kind[Any]:
        """The game's engine entry (``engine.games``): its title, seats, knobs, bots, narrator, ..."""
        return kind(self.name)

    @property
    def title(self) -> str:
        return self.kind.title
