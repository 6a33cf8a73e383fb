"""Which game a field of the wire is: a table refuses another game's rules or command, saying whose it is."""

from __future__ import annotations

from tenpennies.engine.games import DEFAULT_GAME, GAMES
from tenpennies.v1 import tenpennies_pb2 as pb

from .errors import BadRequest


def owner(field: str) -> str:
    """The game (its name in ``engine.games``) a field of ``HouseRules`` or ``Command`` is of: the proto names
    a game's fields after the game (its name, or its name and ``_`` first: the whole of its rules, a command), but
    for the first game's, the default's, which came before there was a choice."""
    for name in GAMES:
        if field == name or field.startswith(f"{name}_"):
            return name
    return DEFAULT_GAME


def _title(game: str) -> str:
    return GAMES[game].title if game in GAMES else game


def refuse_other_games_rules(message: pb.HouseRules, game: str) -> None:
    """BadRequest for a field of ``message`` that is another game's than ``game`` (the table's), set: a knob of
    it (``rules.hand_size is a Ten Pennies knob: this table plays ...``), or its whole rules (``rules.<game> is
    <the game's title>'s``); never dropped in silence."""
    for field, _ in message.ListFields():
        whose = owner(field.name)
        if whose != game:
            what = f"{_title(whose)}'s" if field.name == whose else f"a {_title(whose)} knob"
            raise BadRequest(f"rules.{field.name} is {what}: this table plays {game}")


def other_games_command(kind: str, game: str) -> BadRequest:
    """The refusal of a command that is not one of ``game``'s (the table's): whose it is (``<field> is a <title>
    command: this table plays <game>``)."""
    whose = owner(kind)
    if whose != game:
        return BadRequest(f"{kind} is a {_title(whose)} command: this table plays {game}")
    return BadRequest(f"unknown command {kind!r}")  # a game's own command its mapping does not read
