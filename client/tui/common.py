"""What the lobby and the table screen both use: the reconnect backoff, a table's filled seats, a sentence,
a count of pennies."""

from __future__ import annotations

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.v1 import tenpennies_pb2 as pb

RETRY_FIRST, RETRY_MOST = 0.5, 2.0  # the reconnect backoff: jittered, so at most 3 s apart
WIDE = 110  # columns from which the table's log sits beside the seats (and its dialogs keep to their side)


def pennies(n: int) -> str:
    """``1 penny``, ``2 pennies``."""
    return f"{n} penn{'y' if n == 1 else 'ies'}"


def sentence(text: str) -> str:
    """``text`` ending as a sentence does, so that another may follow it."""
    return text if text.endswith((".", "?", "!")) else text + "."


def filled(info: pb.TableInfo) -> int:
    return sum(1 for s in info.seat_info if s.kind in (pb.SEAT_KIND_PLAYER, pb.SEAT_KIND_BOT))


def default_bot(game: str) -> str:
    """The bot a host adds with ``b``: the game's own default (the one that takes over a gone player)."""
    return kind(game or DEFAULT_GAME).takeover
