"""The games this engine plays, by name: one entry each (see ``interface`` for what an entry gives)."""

from __future__ import annotations

from typing import Any

from .interface import Kind, View
from .ten_pennies.kind import TEN_PENNIES
from .thirty_one.kind import THIRTY_ONE

GAMES: dict[str, Kind[Any]] = {TEN_PENNIES.name: TEN_PENNIES, THIRTY_ONE.name: THIRTY_ONE}

DEFAULT_GAME = TEN_PENNIES.name
"""The game of a table that names none (every table made before there was a choice, and every client
that does not say)."""


class UnknownGame(LookupError):
    pass


def kind(name: str) -> Kind[Any]:
    """The game called ``name``; UnknownGame if this engine has none by that name."""
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"no game {name!r} here (there are {', '.join(sorted(GAMES))})") from None


def kind_of(view: View) -> Kind[Any]:
    """The game whose seat's view ``view`` is (each kind's ``view_type``); UnknownGame for a view of none here."""
    for game in GAMES.values():
        if isinstance(view, game.view_type):
            return game
    raise UnknownGame(f"no game here has a view like {type(view).__name__} (there are {', '.join(sorted(GAMES))})")

