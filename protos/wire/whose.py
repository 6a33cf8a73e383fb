"""Which game a field of the wire is: a table refuses another game's rules or command, saying whose it is."""

from __future__ import annotations

from tenpennies.engine.games import DEFAULT_GAME, GAMES
from tenpennies.v2 import tenpennies_pb2 as pb

from .errors import BadRequest


def owner(field: str) -> str:
    """The game (its name in ``engine.games``) a field of ``Command`` or ``Event`` is of: the proto names a game's
    fields after the game (its name and ``_`` first), but for the first game's, the default's, which carry plain
    names."""
    for name in GAMES:
        if field.startswith(f"{name}_"):
            return name
    return DEFAULT_GAME


def _title(game: str) -> str:
    return GAMES[game].title if game in GAMES else game


def refuse_other_games_rules(message: pb.HouseRules, game: str) -> None:
    """BadRequest for another game's rules than ``game``'s (the table's) in ``message``
    (``rules.<game> is <the game's title>'s: this table plays ...``); never dropped in silence."""
    whose = message.WhichOneof("game")
    if whose is not None and whose != game:
        title = _title(whose)
        possessive = f"{title}'" if title.endswith("s") else f"{title}'s"
        raise BadRequest(f"rules.{whose} is {possessive}: this table plays {game}")


def other_games_command(kind: str, game: str) -> BadRequest:
    """The refusal of a command that is not one of ``game``'s (the table's): whose it is (``<field> is a <title>
    command: this table plays <game>``)."""
    whose = owner(kind)
    if whose != game:
        return BadRequest(f"{kind} is a {_title(whose)} command: this table plays {game}")
    return BadRequest(f"unknown command {kind!r}")  # a game's own command its mapping does not read
