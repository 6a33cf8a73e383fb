"""Ten Pennies on the screen: its table widget (``table``), its dialogs (``dialogs``), its first-game guide
(``guide``), its board in the replay viewer (``board``), and its entry in the screen's registry (``SCREEN``:
its standings' pennies and buys, its lobby label, its keys and local games)."""

from __future__ import annotations

from tenpennies.client.ten_pennies import ENTRY
from tenpennies.engine.ten_pennies.rules import HouseRules
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.ten_pennies import KNOB_ENUMS

from ..game import ScreenGame, ShortGame, Standings
from .board import board
from .dialogs import GameEndScreen, HelpScreen, PileScreen, RoundEndScreen
from .table import StatusLine, TenPenniesTable

__all__ = ["SCREEN", "GameEndScreen", "HelpScreen", "PileScreen", "RoundEndScreen", "StatusLine", "TenPenniesTable"]

NOTE = ("Wins: tied winners share one; Mean: mean score a game ± its margin (lower is better); Pen.: pennies "
        "won or lost; Ill.: commands the rules refused; T/o: decisions the timer or the takeover bot made. "
        "Escape closes.")


def label(rules: HouseRules) -> str:
    """A Ten Pennies table in the lobby's list: by its preset (``standard``, ``deuces``)."""
    return rules.preset


def own_cells(standing: pb.Standing, standings: pb.GetStandingsResponse) -> tuple[str, ...]:
    """A bot's own tallies over all its games, in the standings' order (pennies won or lost, signed as the game's
    entry says, and buys; a bot with no game has none)."""
    return tuple(f"{standing.tallies.get(tally, 0):{'+' if tally in ENTRY.signed else ''}d}"
                 for tally in standings.tallies)


SCREEN = ScreenGame(
    table=TenPenniesTable, board=board, label=label,
    standings=Standings(heads=lambda standings: ("Pen.", "Buys"), cells=own_cells, note=lambda standings: NOTE),
    key="l", choices=KNOB_ENUMS, short=ShortGame("3 rounds", ("rounds=1,2,3",)), practice=True)
