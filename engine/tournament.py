"""The tournament model both tournaments use: the server's tournament mode (``server/tournament.py``) and
the headless ``tenpennies tournament`` (``client/tournament.py``). Pure: it plays nothing, it takes results.

* **Entries and lineups.** A repeated bot name is a separate entry (``greedy``, ``greedy#2``); with more
  entries than seats every combination of ``seats`` entries is a lineup.
* **Duplicate deals.** A deal is played once with each rotation of each lineup round the table: at
  rotation ``r`` seat ``s`` holds the lineup's entry ``(s + r) % seats``. Game ``index`` is deal
  ``index // block`` (``block``: lineups x seats games), then lineup by lineup, rotation by rotation.
  The server, which chooses its own group for each game, has one lineup a game: its game ``number`` is
  deal ``number // seats`` at rotation ``number % seats``.
* **Seeds.** A tournament's seed is 0 .. ``MAX_SEED`` (2^64 - 1). Deal ``d`` is dealt from
  ``derive(seed, d)`` and an entry's bot made with ``derive(seed, d, entry)`` (64-bit seeds, stable across
  processes and machines), so results depend on the tournament's seed alone.
* **A win under ties.** Tied winners share the win: each of ``k`` tied winners gets ``1/k`` of it, as they
  share the pot (TP-5.4), so the wins column adds up to the games played and a shared first place is
  worth less than a first place alone.
* **Rating.** openskill's ``BradleyTerryFull`` from its default prior (mu 25, sigma 25/3), games rated
  one by one in the order given, ranked by final score (lowest first, equal scores equal ranks): equal
  ranks are ties to it (openskill's default Plackett-Luce does not treat them so: ranks 1, 1, 2, 3 give
  the third seat the tied winners' rating).
* **Order.** Best first by the conservative rating ``mu - 3 sigma`` (openskill's ordinal, what it
  recommends for a leaderboard: a bot with few games is not put first on luck), then by name.
* **Mean score** with the half-width of its 95% interval, ``1.96 s / sqrt(n)`` (normal approximation;
  None before a second game).
* **Defaults**: ``TOURNAMENT_DECISION_SECONDS`` (5 s) a decision; past it the safe default is played and counted
  as a timeout. A raise or an illegal answer is counted as illegal (``engine.seats``).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openskill.models import BradleyTerryFull

MAX_SEED = 2**64 - 1
TOURNAMENT_DECISION_SECONDS = 5
"""A decision's time limit in both tournaments unless told otherwise."""


# --- entries, lineups, seats, seeds -----------------------------------------------------------------

def base_name(entry: str) -> str:
    """The bot name of an entry: ``greedy#2`` is ``greedy``."""
    return entry.partition("#")[0]


def entry_names(bots: Sequence[str]) -> tuple[str, ...]:
    """Repeated names numbered: greedy, random, greedy -> greedy, random, greedy#2."""
    seen: dict[str, int] = {}
    names = []
    for bot in bots:
        seen[bot] = seen.get(bot, 0) + 1
        names.append(bot if seen[bot] == 1 else f"{bot}#{seen[bot]}")
    return tuple(names)


def lineups(entries: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Every combination of ``seats`` entries, in the order given."""
    return list(itertools.combinations(entries, seats))


def seated(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The entry at each seat at ``rotation``: seat ``s`` holds ``lineup[(s + rotation) % seats]``."""
    n = len(lineup)
    return tuple(lineup[(s + rotation) % n] for s in range(n))


def derive(*parts: object) -> int:
    """A 64-bit seed from the parts (stable across processes and machines: str seeds are hashed by SHA-512)."""
    return random.Random("tenpennies-tournament:" + ":".join(str(p) for p in parts)).getrandbits(64)


def deal_seed(seed: int, deal: int) -> int:
    """The seed deal ``deal`` of the tournament with seed ``seed`` is dealt from."""
    return derive(seed, deal)


def bot_seed(seed: int, deal: int, entry: str) -> int:
    """The seed an entry's bot is made with for deal ``deal``."""
    return derive(seed, deal, entry)


@dataclass(frozen=True)
class GameSpec:
    """Who plays game ``index`` of a tournament, where, on which deal."""

    index: int
    deal: int
    deal_seed: int
    lineup: int
    rotation: int
    seats: tuple[str, ...]      # the entry at each seat
    bot_seeds: tuple[int, ...]  # each seat's bot's seed


def game_spec(lineups: Sequence[Sequence[str]], seed: int, index: int) -> GameSpec:
    """Game ``index``: deal ``index // block``, then lineup by lineup, rotation by rotation."""
    n = len(lineups[0])
    deal, within = divmod(index, len(lineups) * n)
    lineup, rotation = divmod(within, n)
    seats = seated(lineups[lineup], rotation)
    return GameSpec(index, deal, deal_seed(seed, deal), lineup, rotation, seats,
                    tuple(bot_seed(seed, deal, entry) for entry in seats))


# --- results ----------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class GameResult:
    """One finished game, seat by seat. ``seats``: the entry (bot name) at each seat; ``winners``: seat
    numbers; ``illegal`` and ``timeouts`` as ``engine.seats.Tally`` counts them. Where it was played from:
    ``index`` (the game's number), ``deal``, ``deal_seed``, ``rotation``. ``tallies``: the game's own counts by
    seat that the standings add up (``Kind.tournament_tallies``: Ten Pennies' ``pennies`` and ``buys``,
    Thirty-One's ``lives``, ``tokens`` or ``points``); ``counts``: its other counts by seat as the game ended,
    kept with the game (Ten Pennies' pot shares ``won`` and pennies ``paid``; empty where not known)."""

    index: int = 0
    deal: int = 0
    deal_seed: int = 0
    rotation: int = 0
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    illegal: tuple[int, ...]
    timeouts: tuple[int, ...]
    tallies: dict[str, tuple[int, ...]] = field(default_factory=dict)
    counts: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain data; ``tallies`` and ``counts`` only where the game keeps some."""
        data = {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}
        for by_name in ("tallies", "counts"):
            del data[by_name]
            if kept := getattr(self, by_name):
                data[by_name] = {name: list(values) for name, values in kept.items()}
        return data


# --- the standings ----------------------------------------------------------------------------------

def rating_model() -> BradleyTerryFull:
    """openskill's BradleyTerryFull, which treats equal ranks as ties (see the module). Imported here, not
    with the module: it takes some 20 ms, and what only seats or deals (``play.play_duplicate_deal``)
    should not pay for it."""
    from openskill.models import BradleyTerryFull
    return BradleyTerryFull()


FRACTIONS = {(1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾"}


def wins_text(wins: float) -> str:
    """Wins as a person reads them, tied winners sharing one: ``2``, ``1½``, ``⅓``; a share that is no
    simple fraction to one decimal (``1.2``)."""
    whole = math.floor(wins + 1e-9)
    part = Fraction(wins - whole).limit_denominator(840)
    if part == 0:
        return str(whole)
    glyph = FRACTIONS.get((part.numerator, part.denominator))
    if glyph is None:
        return f"{wins:.1f}"
    return f"{whole or ''}{glyph}"


def score_ranks(scores: Sequence[int]) -> list[float]:
    """Ranks for the rating: the lowest score first, equal scores equal ranks (1, 1, 2, 3)."""
    distinct = sorted(set(scores))
    return [float(distinct.index(score) + 1) for score in scores]


@dataclass
class Standing:
    """One entry's standing, as its games so far make it."""

    name: str
    rating_mu: float
    rating_sigma: float
    games: int = 0
    wins: float = 0.0  # tied winners share a win: 1/k each
    score_total: int = 0
    score_squares: int = 0
    illegal: int = 0
    timeouts: int = 0
    tallies: dict[str, int] = field(default_factory=dict)  # each of the games' own tallies, summed

    @property
    def mean_score(self) -> float | None:
        return self.score_total / self.games if self.games else None

    @property
    def mean_score_margin(self) -> float | None:
        """Half-width of the mean score's 95% interval; None before a second game."""
        n = self.games
        if n < 2:
            return None
        variance = max(0.0, (self.score_squares - self.score_total ** 2 / n) / (n - 1))
        return 1.96 * math.sqrt(variance / n)

    @property
    def ordinal(self) -> float:
        """The conservative rating the standings are ordered by: mu - 3 sigma."""
        return self.rating_mu - 3 * self.rating_sigma

    def per_game(self, tally: str) -> float:
        """One of the games' own tallies, a game."""
        return self.tallies.get(tally, 0) / self.games if self.games else 0.0


class Standings:
    """Every entry's standing, game by game in the order the games are added."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.model = rating_model()
        self.table: dict[str, Standing] = {}
        for name in names:
            self.enter(name)

    def enter(self, name: str) -> Standing:
        """The entry's standing; a new one starts from the rating's prior."""
        if name not in self.table:
            self.table[name] = Standing(name, self.model.mu, self.model.sigma)
        return self.table[name]

    def add(self, game: GameResult) -> None:
        standings = [self.enter(name) for name in game.seats]
        teams = [[self.model.rating(mu=s.rating_mu, sigma=s.rating_sigma, name=s.name)] for s in standings]
        rated = self.model.rate(teams, ranks=score_ranks(game.scores))
        share = 1 / len(game.winners) if game.winners else 0.0
        for seat, standing in enumerate(standings):
            score = game.scores[seat]
            standing.rating_mu, standing.rating_sigma = float(rated[seat][0].mu), float(rated[seat][0].sigma)
            standing.games += 1
            standing.wins += share if seat in game.winners else 0.0
            standing.score_total += score
            standing.score_squares += score * score
            standing.illegal += game.illegal[seat]
            standing.timeouts += game.timeouts[seat]
            for name, tally in game.tallies.items():
                standing.tallies[name] = standing.tallies.get(name, 0) + tally[seat]

    def ranked(self) -> list[Standing]:
        """Best first: by ``mu - 3 sigma``, then by name."""
        return sorted(self.table.values(), key=lambda s: (-round(s.ordinal, 9), s.name))


def standings(entries: Sequence[str], games: Iterable[GameResult]) -> tuple[Standing, ...]:
    """The standings ``games`` give, rated in index order, best first."""
    table = Standings(entries)
    for game in sorted(games, key=lambda g: g.index):
        table.add(game)
    return tuple(table.ranked())
