"""A game as it was played, read back whole: its table, seats, rules, seed and every accepted command (and
the events the table stored), for a replay, the replay viewer and a review. The server's store reads one
from its SQLite file (``store.read_game``); a client gets one for a finished game from the file of its local
games or from a server. Both sides may import it: it holds engine values and stored event bytes only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.interface import Command, Rules

from .words import seat_label

EventRow = tuple[int, int | None, bytes]  # (sequence, audience seat or None for all, Event bytes)


@dataclass
class GameRecord:
    """One table's game: enough to rebuild it command by command (``kind(game).new(seats, rules, seed)``,
    then each of ``commands``)."""

    table_id: str
    name: str
    seats: int
    rules: Rules
    seed: int
    status: str  # waiting, playing, finished, expired
    names: list[str]
    commands: list[Command]
    game: str = DEFAULT_GAME  # the game it plays (engine.games)
    events: list[EventRow] = field(default_factory=list)  # every stored event, in order (a table keeps the newest
    #                                                       transient ones only: chat, connections)

    def seat_name(self, seat: int) -> str:
        return seat_label(self.names, seat)
