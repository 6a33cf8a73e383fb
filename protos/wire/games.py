"""Each game's wire form, by the game's name (``engine.games``): how its rules, commands, events and
views map to the protobuf messages and back. A server's table and a client's connection ask here, never
a game's mapping by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tenpennies.engine.interface import Command, Rules, View
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.v1 import tenpennies_pb2 as pb

from . import mapping


@dataclass(frozen=True)
class WireGame:
    """One game's mapping. ``game_view``: what a seat (None: a spectator) may see of a game, on the wire;
    ``view_from_pb`` reads it back with the table's rules."""

    rules_to_pb: Callable[[Rules], pb.HouseRules]
    rules_from_pb: Callable[[pb.HouseRules], Rules]
    command_to_pb: Callable[[Command], pb.Command]
    command_from_pb: Callable[[int, pb.Command], Command]
    event_to_pb: Callable[[Any, Rules], pb.Event]         # the game's event (interface.Event)
    game_view: Callable[[Any, int | None], pb.GameView]   # the game (interface.Game)
    view_from_pb: Callable[[pb.GameView, Rules], View]


def _ten_pennies_view(game: Any, seat: int | None) -> pb.GameView:
    return mapping.view_to_pb(game.view(seat), game.winners)


WIRE: dict[str, WireGame] = {
    TEN_PENNIES.name: WireGame(mapping.rules_to_pb, mapping.rules_from_pb, mapping.command_to_pb,
                           mapping.command_from_pb, mapping.event_to_pb, _ten_pennies_view, mapping.view_from_pb),
}


def wire(name: str) -> WireGame:
    """The wire form of the game called ``name`` (BadRequest if it has none)."""
    try:
        return WIRE[name]
    except KeyError:
        raise mapping.BadRequest(f"no game {name!r} on this wire") from None
