"""Thirty-One behind the game interface (``interface.Kind``): what a server's table asks of the game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..interface import Bot, Kind
from .bots import BOTS, REVIEW_BUDGET, option_rollouts, option_values, review_options, safe_default
from .commands import Command, format_command, parse_command
from .events import Event, GameEnded
from .fold import Known, fold, opening
from .game import Game
from .narrate import Narrator, card_text
from .rules import KNOBS, SEATS, Rules
from .view import Phase, SeatView


class ThirtyOneRules:
    """The game docs/THIRTY-ONE.md describes, its presets, knobs and commands, and its timer
    (``interface.KindRules``)."""

    name = "thirty_one"
    title = "Thirty-One"
    seats = SEATS
    knobs = KNOBS
    view_type = SeatView

    def new(self, seats: int, rules: Rules, seed: int) -> Game:
        return Game(seats, rules, seed)

    def load(self, data: dict[str, Any]) -> Game:
        return Game.from_dict(data)

    def rules_from_dict(self, data: Mapping[str, Any]) -> Rules:
        return Rules.from_dict(data)

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]:
        return rules.to_dict()

    def rules_from_settings(self, settings: Iterable[str]) -> Rules:
        return Rules.from_settings(settings)

    def validate(self, rules: Rules, seats: int) -> None:
        rules.validate(seats)

    def parse_command(self, text: str) -> Command:
        return parse_command(text)

    def format_command(self, command: Command) -> str:
        return format_command(command)

    def timed_out(self, game: Game, seat: int) -> Sequence[Command]:
        """The safe default (``bots.safe_default``), one command: a draw's discard is a decision of its own."""
        return (safe_default(game.view(seat)),)

    def safe_default(self, view: SeatView) -> Command:
        """``bots.safe_default``: stand after a knock, else draw from the stock, else the heuristic's move."""
        return safe_default(view)

    def unlisted(self, view: SeatView, command: Command) -> bool:
        """Never: a seat's every legal command is listed."""
        return False

    def game_end(self, view: SeatView, winners: Sequence[int]) -> GameEnded | None:
        """The winners and every seat's lives, tokens and points, from the view of the finished game."""
        if view.phase is not Phase.GAME_OVER:
            return None
        return GameEnded(tuple(winners), view.players)

    def timer_audience(self, game: Game, command: Command) -> int | None:
        """Every move of Thirty-One is seen by all (the cards a draw brings come to the seat alone anyway)."""
        return None

    def knowing(self, view: SeatView) -> Known:
        return Known.of(view)

    def opening(self, seat: int | None, seats: int, rules: Rules) -> Known:
        return opening(seat, seats, rules)

    def fold(self, known: Known, event: Event) -> Known:
        return fold(known, event)


class ThirtyOneBots:
    """Thirty-One's bots, and the searcher a review weighs options with (``interface.KindBots``)."""

    takeover = "heuristic"

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return BOTS

    def review_options(self, game: Game, seat: int, chosen: Command) -> list[Command]:
        return review_options(game, seat, chosen)

    def option_values(self, game: Game, seat: int, options: Sequence[Command], *, budget: int,
                      seed: int) -> list[float]:
        """The searcher's rollouts (``bots.option_values``): the deal's expected loss after each option."""
        return option_values(game, seat, options, budget=budget, seed=seed)

    def option_rollouts(self, game: Game, seat: int,
                        seed: int) -> Callable[[Sequence[Command], range], list[list[float]]]:
        """The searcher's world by world (``bots.option_rollouts``): what a review's intervals are made of."""
        return option_rollouts(game, seat, seed)

    @property
    def searcher(self) -> tuple[str, int]:
        return "searcher", REVIEW_BUDGET


class ThirtyOneWords:
    """Thirty-One told to people (``interface.KindWords``)."""

    rule_book = ("T31", "THIRTY-ONE.md")

    def narrator(self, rules: Rules, name: Callable[[int], str], *, seat: int | None = None,
                 every_hand: bool = False, card: Callable[[Card], str] | None = None) -> Narrator:
        return Narrator(rules, name, card or card_text, seat=seat, every_hand=every_hand)

    def tournament_tallies(self, rules: Rules) -> tuple[str, ...]:
        """The tally the preset keeps (T31-7, T31-8): ``lives``, ``tokens`` or ``points``."""
        return (rules.scoring,)


class ThirtyOne(ThirtyOneRules, ThirtyOneBots, ThirtyOneWords):
    """The kind of game docs/THIRTY-ONE.md describes: its rules, bots and words in one object."""


THIRTY_ONE: Kind[Game] = ThirtyOne()  # typed: the checker holds Thirty-One to the interface
