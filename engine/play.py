"""Games played by bots alone, for any game of ``engine.games``: headless games, tournaments, benches."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .interface import Bot, Command, Game, Kind, Rules, View
from .seats import play_decision
from .tournament import seated


class RandomBot:
    """Picks uniformly among the legal commands listed for its seat (every game's view lists them)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Command:
        return self.rng.choice(view.legal)


G = TypeVar("G", bound=Game)  # the game played, of whichever ``Kind``


def play_game(game: G, bots: Sequence[Bot], max_commands: int = 1_000_000,
              on_events: Callable[[list[Any]], object] | None = None) -> G:
    """Let ``bots[seat]`` play every seat until the game ends; ``on_events`` sees each command's events.
    Decisions are played by the one seat loop (``engine.seats.play_decision``: a decision several seats face
    at once asks them all), strictly: a bot that raises or answers something illegal stops the game with its
    error (tests and benches want to know). A bot with ``observe`` is shown its seat's view after every
    command (and once before the first)."""
    watchers: list[tuple[int, Callable[[View], object]]] = []
    for seat, bot in enumerate(bots):
        observe = getattr(bot, "observe", None)
        if callable(observe):
            watchers.append((seat, observe))
    for seat, observe in watchers:
        observe(game.view(seat))

    def watched(events: list[Any]) -> None:
        for watcher, observe in watchers:
            observe(game.view(watcher))
        if on_events is not None:
            on_events(events)

    def decide(seat: int, view: View) -> Command:
        return bots[seat].choose(view)

    seen = watched if watchers or on_events is not None else None
    table: Any = game  # the seat loop's Table: a game's ``apply`` gives its events as a list
    for _ in range(max_commands):
        if game.over:
            return game
        play_decision(table, decide, applied=seen)
    raise RuntimeError("the game did not end")


def play_duplicate_deal(kind: Kind[Any], make_x: Callable[[int], Bot], make_y: Callable[[int], Bot], rules: Rules,
                        seed: int, deal: int, seats: int = 4) -> tuple[float, float]:
    """Game ``deal`` (dealt from ``seed + deal``) played twice, seatings X Y X Y ... and Y X Y X ..., the bot at
    seat ``s`` made with seed ``10 * deal + s``: (X's mean score, Y's mean score) over their seat-games, as
    ``Result.scores`` has them (lower is better: Ten Pennies' points, Thirty-One's places). ``bench/strength.py``
    and the strength tests measure bots with it."""
    x_total = y_total = 0.0
    lineup = tuple("xy"[s % 2] for s in range(seats))
    for rotation in (0, 1):
        is_x = [entry == "x" for entry in seated(lineup, rotation)]
        bots = [make_x(deal * 10 + s) if is_x[s] else make_y(deal * 10 + s) for s in range(seats)]
        result = play_game(kind.new(seats, rules, seed + deal), bots).result
        assert result is not None
        for s, score in enumerate(result.scores):
            if is_x[s]:
                x_total += score
            else:
                y_total += score
    xs = sum(1 for s in range(seats) if s % 2 == 0) * 2
    return x_total / xs, y_total / (2 * seats - xs)
