"""The wire's enums in words: each enum <-> word table written once (word -> enum) with its inverse derived,
and what a ``TableSettings`` field left unset means. Server and client both read these."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tenpennies.engine.games import GAMES
from tenpennies.v2 import tenpennies_pb2 as pb


def inverse(table: Mapping[str, int], unset: str | None = None) -> dict[int, str]:
    """The enum -> word table of a word -> enum one; ``unset``: the word an unset enum (0, ``*_UNSPECIFIED``)
    stands for, if it stands for one."""
    words = {number: word for word, number in table.items()}
    if unset is not None:
        words[0] = unset
    return words


# --- knobs that are one of some words: each game's wire module tables its own with these -------------

def enum_of(prefix: str, word: str) -> int:
    """The proto's value for ``word`` of the enum whose values are named ``PREFIX_WORD`` (buf's style; a
    word's dots are underscores there: ``30.5`` is ``..._30_5``)."""
    value: int = getattr(pb, f"{prefix}_{word.upper().replace('.', '_')}")
    return value


# --- bots, tables, seats ---------------------------------------------------------------------------

# Every game's bots, by the proto's names for them. An unset BotStrategy has no word here: it asks for the
# table's game's own bot (``Kind.takeover``), which only the table knows.
STRATEGIES: dict[str, pb.BotStrategy] = {
    name: getattr(pb, f"BOT_STRATEGY_{name.upper()}") for game in GAMES.values() for name in game.bots}
STRATEGY_WORDS = inverse(STRATEGIES)
TABLE_STATUSES = {"waiting": pb.TABLE_STATUS_WAITING, "playing": pb.TABLE_STATUS_PLAYING,
                  "finished": pb.TABLE_STATUS_FINISHED}
STATUS_WORDS = inverse(TABLE_STATUSES)
SEAT_KINDS = {"empty": pb.SEAT_KIND_EMPTY, "player": pb.SEAT_KIND_PLAYER, "bot": pb.SEAT_KIND_BOT}
SEAT_KIND_WORDS = inverse(SEAT_KINDS)

# --- a table's settings left unset (TableSettings) -------------------------------------------------

DECISION_SECONDS = 30  # a human seat's time for each decision; 0: no timer
TAKEOVER_SECONDS = 60  # how long a seat's client may be gone before a built-in bot plays for it; 0: never


def seat_label(names: Sequence[str], seat: int) -> str:
    """A seat as a table shows it, from every seat's name: the name, with the seat's number where two seats
    share it (bots do), or "seat N" for a seat with no name."""
    name = names[seat] if 0 <= seat < len(names) else ""
    if not name:
        return f"seat {seat}"
    return f"{name} {seat}" if names.count(name) > 1 else name
