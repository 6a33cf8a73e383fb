"""Each game's wire form, by the game's name (``engine.games``): how its rules, commands, events and
views map to the protobuf messages and back. A server's table and a client's connection and view ask
here, never a game's mapping by name. A game is played over the wire when it has an entry both here and
in ``engine.games`` (``wire`` refuses any other by name)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tenpennies.engine import games
from tenpennies.engine.interface import Command, Rules, View
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.thirty_one.kind import THIRTY_ONE as THIRTY_ONE_KIND
from tenpennies.v2 import tenpennies_pb2 as pb

from . import ten_pennies, thirty_one
from .errors import BadRequest


@dataclass(frozen=True)
class WireGame:
    """One game's ten_pennies. ``game_view``: what a seat (None: a spectator) may see of a game, on the wire;
    ``view_from_pb`` reads it back with the table's rules. ``event_from_pb`` is ``event_to_pb``'s inverse:
    the game's event a wire event carries, None for the table's own (seats, chat, timers, decisions)."""

    rules_to_pb: Callable[[Rules], pb.HouseRules]
    rules_from_pb: Callable[[pb.HouseRules], Rules]
    command_to_pb: Callable[[Command], pb.Command]
    command_from_pb: Callable[[int, pb.Command], Command]
    event_to_pb: Callable[[Any, Rules], pb.Event]         # the game's event (interface.Event)
    event_from_pb: Callable[[pb.Event, Rules], Any | None]
    game_view: Callable[[Any, int | None], pb.GameView]   # the game (interface.Game)
    view_from_pb: Callable[[pb.GameView, Rules], View]


def _ten_pennies_view(game: Any, seat: int | None) -> pb.GameView:
    return ten_pennies.view_to_pb(game.view(seat), game.winners)


THIRTY_ONE = THIRTY_ONE_KIND.name  # Thirty-One's name in ``engine.games``

WIRE: dict[str, WireGame] = {
    TEN_PENNIES.name: WireGame(
        rules_to_pb=ten_pennies.rules_to_pb, rules_from_pb=ten_pennies.rules_from_pb,
        command_to_pb=ten_pennies.command_to_pb, command_from_pb=ten_pennies.command_from_pb,
        event_to_pb=ten_pennies.event_to_pb, event_from_pb=ten_pennies.event_from_pb, game_view=_ten_pennies_view,
        view_from_pb=ten_pennies.view_from_pb),
    THIRTY_ONE: WireGame(
        rules_to_pb=thirty_one.rules_to_pb, rules_from_pb=thirty_one.rules_from_pb,
        command_to_pb=thirty_one.command_to_pb, command_from_pb=thirty_one.command_from_pb,
        event_to_pb=thirty_one.event_to_pb, event_from_pb=thirty_one.event_from_pb, game_view=thirty_one.game_view,
        view_from_pb=thirty_one.view_from_pb),
}


def names() -> list[str]:
    """The games played over the wire here, by name: those with an entry both here and in the engine."""
    return sorted(set(WIRE) & set(games.GAMES))


def wire(name: str) -> WireGame:
    """The wire form of the game called ``name``: BadRequest, naming the games there are, if it is not
    played over the wire here."""
    if name not in WIRE or name not in games.GAMES:
        raise BadRequest(f"no game {name!r} here (there are {', '.join(names())})")
    return WIRE[name]
