"""A game as it was played, read back whole: its table, seats, rules, seed and every accepted command (and
the events the table stored), for a replay, the replay viewer and a review. The server's store reads one
from its SQLite file (``store.read_game``); a client gets one for a finished game from the file of its local
games or from a server (``GetGameRecord``: ``record_to_pb`` and ``record_from_pb`` map it, without the stored
events). Both sides may import it: it holds engine values and stored event bytes only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.engine.interface import Command, Rules
from tenpennies.v2 import tenpennies_pb2 as pb

from .games import wire
from .words import STATUS_WORDS, TABLE_STATUSES, seat_label

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


def record_to_pb(record: GameRecord) -> pb.GameRecord:
    """The record on the wire: its commands in the game's notation, its stored events left out."""
    played = kind(record.game)
    return pb.GameRecord(table_id=record.table_id, name=record.name, seats=record.seats, game=record.game,
                         rules=wire(record.game).rules_to_pb(record.rules), seed=record.seed,
                         status=TABLE_STATUSES.get(record.status, pb.TABLE_STATUS_UNSPECIFIED),
                         names=record.names, commands=[played.format_command(c) for c in record.commands])


def record_from_pb(message: pb.GameRecord) -> GameRecord:
    """``record_to_pb``'s inverse (BadRequest for a game this program does not play over the wire, ValueError
    or RuleError for a command it cannot read)."""
    game = message.game or DEFAULT_GAME
    played = kind(game)
    return GameRecord(message.table_id, message.name, message.seats, wire(game).rules_from_pb(message.rules),
                      message.seed, STATUS_WORDS.get(message.status, "unknown"), list(message.names),
                      [played.parse_command(text) for text in message.commands], game)
