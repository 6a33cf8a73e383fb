"""What a finished game of Ten Pennies counts for, seat by seat: the facts both tournaments, ``replay`` and
anyone else who sums up a game use, written once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .rules import HouseRules


class Purse(Protocol):
    """A seat's pennies (the engine's seat state and the ``PlayerInfo`` of a view both have them)."""

    @property
    def pennies(self) -> int: ...  # buy pennies left (TP-5.3)

    @property
    def paid(self) -> int: ...     # paid into the pot for cards left in hand (TP-5.2)

    @property
    def won(self) -> int: ...      # taken from the pot at the end (TP-5.4)


def pennies_bought_with(player: Purse, rules: HouseRules) -> int:
    """The buy pennies a seat spent (TP-5.3): one a buy."""
    return rules.buy_pennies - player.pennies


def penny_balance(player: Purse, rules: HouseRules) -> int:
    """A seat's pennies won or lost over the game: its share of the pot, less what it paid for cards left in
    hand and the pennies it bought with. Over a table they add up to zero (the pot goes back in full)."""
    return player.won - player.paid - pennies_bought_with(player, rules)


def balances(players: Sequence[Purse], rules: HouseRules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(pennies bought with, penny balance) of every seat."""
    return (tuple(pennies_bought_with(p, rules) for p in players), tuple(penny_balance(p, rules) for p in players))
