"""The table widget of each game the client can show: the one entry a new game adds here."""

from __future__ import annotations

from .game import GameTable
from .ten_pennies import TenPenniesTable

TABLES: dict[str, type[GameTable]] = {"ten_pennies": TenPenniesTable}
DEFAULT = "ten_pennies"  # the game of a table that does not name one (every table, until a second game)


def table_widget(game: str = DEFAULT) -> type[GameTable]:
    """The table widget of ``game`` (its name as ``engine.games`` knows it; "" is the default game);
    LookupError naming the games this client shows."""
    try:
        return TABLES[game or DEFAULT]
    except KeyError:
        raise LookupError(f"no table for the game {game!r} in this client (it shows {', '.join(TABLES)})") from None
