"""A finished game, step by step, for the replay viewer: each accepted command is a step, told in its game's
narrator's words (the one narrator, reached through the engine's kind), with every hand as it stood after it.

The game is rebuilt from its seed and command log once, as the record is opened: the words of every step,
where each round (or deal) starts, how each ended, and a copy of the game every ``every`` commands. A step
back or a jump is then a copy of the nearest earlier game and at most ``every - 1`` commands applied again
(trusted: the log was accepted once), well inside a frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tenpennies.engine.cards import Card
from tenpennies.engine.interface import Game, Kind
from tenpennies.engine.review import Mark, Review
from tenpennies.wire.record import GameRecord

from .game_entry import Rounds
from .games import client_game
from .plots import Chart, running_figures

__all__ = ["EVERY", "Rounds", "Step", "Stepper"]

EVERY = 16  # commands between two kept copies of the game


@dataclass(frozen=True)
class Step:
    """What one step shows: the game after ``position`` commands (0: as dealt), in its ``round`` (the round
    its game counts, ``Rounds.starts``), the ``seat`` whose command it was and the command's notation
    (None and "" for the deal), and the narrator's ``lines`` for its events."""

    position: int
    round: int
    seat: int | None
    command: str
    lines: tuple[str, ...]


class Stepper:
    """A finished (or stopped) game of ``record``, rebuilt once; ``game_at(position)`` is the game after that
    many commands; ``card`` writes a card in the narrator's words (None: the game's notation). Raises RuleError
    if the log does not replay, LookupError for a game with no steps here."""

    def __init__(self, record: GameRecord, *, review: Review | None = None, every: int = EVERY,
                 card: Callable[[Card], str] | None = None) -> None:
        entry = client_game(record.game)
        self.record = record
        self.review = review
        self.every = every
        self.kind: Kind[Game] = entry.kind
        self.how: Rounds = entry.rounds
        narrator = self.kind.narrator(record.rules, record.seat_name, every_hand=True, card=card)
        game = self.kind.new(record.seats, record.rules, record.seed)
        self.kept: list[Game] = [game.copy()]
        self.rounds: list[int] = []  # the position of each round's first step, in order
        self.ends: list[tuple[int, int, tuple[int, ...]]] = []  # (position, round, figures) of each round's end
        self.start: tuple[int, ...] | None = None  # each seat's figure before the first round ends
        self.marks: dict[int, Mark] = {m.index + 1: m for m in review.marks} if review is not None else {}
        self.steps: list[Step] = []
        number = 0
        playing = 0  # the round in play

        def told(position: int, events: Sequence[Any]) -> tuple[str, ...]:
            nonlocal number, playing
            lines = []
            for event in events:
                started = self.how.starts(event)
                if started is not None:
                    if not self.rounds or self.rounds[-1] != position:
                        self.rounds.append(position)
                    number, playing = number + 1, started
                figures = self.how.figures(event, record.rules)
                if figures is not None:
                    if started is None:
                        self.ends.append((position, playing, figures))
                    elif self.start is None:
                        self.start = figures
                line = narrator.line(event)
                if line is not None:
                    lines.append(line)
            return tuple(lines)

        self.steps.append(Step(0, 0, None, "", ()))
        words = told(0, game.opening_events)
        self.steps[0] = Step(0, playing, None, "", words)
        for position, command in enumerate(record.commands, 1):
            words = told(position, game.apply(command, trusted=True))
            self.steps.append(Step(position, playing, getattr(command, "seat", None),
                                   self.kind.format_command(command), words))
            if position % every == 0:
                self.kept.append(game.copy())
        self.final = game

    @property
    def last(self) -> int:
        """The last position (every command applied)."""
        return len(self.steps) - 1

    def game_at(self, position: int) -> Game:
        """The game after ``position`` commands: a copy of its own, to read (or play on)."""
        position = max(0, min(position, self.last))
        game = self.kept[position // self.every].copy()
        for command in self.record.commands[position - position % self.every:position]:
            game.apply(command, trusted=True)
        return game

    def round_from(self, position: int, step: int) -> int:
        """The position of the round ``step`` rounds on from the one ``position`` is in (back: -1 is this
        round's start, or the one before when already there); the first or last position past either end."""
        if step > 0:
            later = [p for p in self.rounds if p > position]
            return later[step - 1] if len(later) >= step else self.last
        earlier = [p for p in self.rounds if p < position]
        return earlier[step] if len(earlier) >= -step else 0

    def round_of(self, position: int) -> int:
        """Which round, counted from 1, ``position`` is in (0 before the first is dealt)."""
        return sum(1 for p in self.rounds if p <= position)

    def mistakes(self) -> list[int]:
        """The positions of the decisions the review calls mistakes (``Review.called``), in order."""
        called = self.review.called if self.review is not None else frozenset()
        return sorted(p for p, m in self.marks.items() if m.index in called)

    def mistake_from(self, position: int, step: int) -> int | None:
        """The next (``step`` 1) or previous (-1) costly decision's position from ``position``; None if none."""
        marked = self.mistakes()
        if step > 0:
            return next((p for p in marked if p > position), None)
        return next((p for p in reversed(marked) if p < position), None)

    def chart(self, upto: int | None = None) -> Chart:
        """Each seat's running figure by round (its game's ``Rounds.figure``: a score; lives, tokens or points),
        from the figures the first round starts with where its game tells them, with the rounds ended by
        ``upto`` (None: all)."""
        ends = [e for e in self.ends if upto is None or e[0] <= upto]
        word = self.how.word
        figure = self.how.figure(self.record.rules)
        names = [self.record.seat_name(s) for s in range(self.record.seats)]
        return running_figures([r for _, r, _ in ends], [f for _, _, f in ends], names,
                               title=f"{figure.capitalize()} by {word}", label=word[0].upper(), y_label=figure,
                               start=self.start)
