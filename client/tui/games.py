"""The table widget of each game the client can show: the one entry a new game adds here."""

from __future__ import annotations

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.wire.games import THIRTY_ONE

from .game import GameTable
from .ten_pennies import TenPenniesTable
from .thirty_one import ThirtyOneTable

TABLES: dict[str, type[GameTable]] = {TEN_PENNIES.name: TenPenniesTable, THIRTY_ONE: ThirtyOneTable}


def table_widget(game: str = DEFAULT_GAME) -> type[GameTable]:
    """The table widget of ``game`` (its name as ``engine.games`` knows it; "" is the default game);
    LookupError naming the games this client shows."""
    try:
        return TABLES[game or DEFAULT_GAME]
    except KeyError:
        raise LookupError(f"no table for the game {game!r} in this client (it shows {', '.join(TABLES)})") from None
