"""The screen's registry: each game's entry (``game.ScreenGame``: its table widget, its replay board, its
standings, its lobby label, its key), by the game's name in ``engine.games``: the one line a new game adds
here. The screens ask ``screen_game``; a game with no entry here (one the engine and the wire have) is shown by
the screens' own entry (``any_game``)."""

from __future__ import annotations

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.thirty_one.kind import THIRTY_ONE

from . import ten_pennies, thirty_one
from .any_game import any_game
from .game import GameTable, ScreenGame

SCREENS: dict[str, ScreenGame] = {TEN_PENNIES.name: ten_pennies.SCREEN, THIRTY_ONE.name: thirty_one.SCREEN}


def screen_game(game: str = DEFAULT_GAME) -> ScreenGame:
    """The entry of ``game`` (its name as ``engine.games`` knows it; "": the default game); the screens' own
    for a game with none here."""
    name = game or DEFAULT_GAME
    return SCREENS.get(name) or any_game(name)


def table_widget(game: str = DEFAULT_GAME) -> type[GameTable]:
    """The table widget of ``game`` ("": the default game)."""
    return screen_game(game).table
