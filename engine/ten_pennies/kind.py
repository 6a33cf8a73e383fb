"""Ten Pennies behind the game interface (``interface.Kind``): what a server's table asks of the game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..interface import Bot, Kind, Rules
from .bots import BOTS, safe_default
from .commands import Command, DeclineDiscard, Draw, PassBuy, format_command, parse_command
from .events import Event as TenPenniesEvent
from .events import GameStarted
from .fold import Known, fold, opening
from .game import Game, Phase, SeatView
from .narrate import Narrator, card_text
from .rules import HouseRules


class TenPennies:
    """The kind of game docs/RULES.md describes."""

    name = "ten_pennies"
    takeover = "greedy"

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return BOTS

    def new(self, seats: int, rules: HouseRules, seed: int) -> Game:
        return Game(seats, rules, seed)

    def load(self, data: dict[str, Any]) -> Game:
        return Game.from_dict(data)

    def rules_from_dict(self, data: Mapping[str, Any]) -> HouseRules:
        return HouseRules.from_dict(dict(data))

    def rules_to_dict(self, rules: HouseRules) -> dict[str, Any]:
        return rules.to_dict()

    def validate(self, rules: HouseRules, seats: int) -> None:
        rules.validate(seats)

    def parse_command(self, text: str) -> Command:
        return parse_command(text)

    def format_command(self, command: Command) -> str:
        return format_command(command)

    def tournament_tallies(self, rules: HouseRules) -> tuple[str, ...]:
        return ()

    def timed_out(self, game: Game, seat: int) -> Sequence[Command]:
        """The safe default (``bots.safe_default``); declining the pick-up for the seat, the timer draws
        for it too, once the buy offer is settled."""
        command = safe_default(game.view(seat))
        return (command, Draw(seat)) if isinstance(command, DeclineDiscard) else (command,)

    def timer_audience(self, game: Game, command: Command) -> int | None:
        """Public, but for a pass on a buy offer still open: that stays the seat's own (TP-4.7)."""
        return command.seat if isinstance(command, PassBuy) and game.phase is Phase.BUY else None

    def knowing(self, view: SeatView) -> Known:
        return Known.of(view)

    def opening(self, seat: int | None, seats: int, rules: HouseRules) -> Known:
        return opening(seat, GameStarted(seats, rules))

    def fold(self, known: Known, event: TenPenniesEvent) -> Known:
        return fold(known, event)

    def narrator(self, rules: Rules, name: Callable[[int], str], *, seat: int | None = None,
                 every_hand: bool = False, card: Callable[[Card], str] | None = None) -> Narrator:
        return Narrator(rules, name, card or card_text, seat=seat, every_hand=every_hand)


TEN_PENNIES: Kind[Game] = TenPennies()  # typed: the checker holds Ten Pennies to the interface
