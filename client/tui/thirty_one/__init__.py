"""Thirty-One on the screen: its table widget, dialogs and guide (``table``), its board in the replay viewer
(``board``), and its entry in the screen's registry (``SCREEN``: its standings by place, its lobby label, its
key)."""

from __future__ import annotations

from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.wire.thirty_one import KNOB_ENUMS

from ..game import ScreenGame, Standings, tally_note
from .board import board
from .table import (
    DealEndScreen,
    ThirtyOneGameEndScreen,
    ThirtyOneHelp,
    ThirtyOneTable,
    guide_pages,
    rules_text,
    standing,
    worth,
)

__all__ = ["SCREEN", "THIRTY_ONE_SHORT", "DealEndScreen", "ThirtyOneGameEndScreen", "ThirtyOneHelp", "ThirtyOneTable",
           "guide_pages", "rules_text", "standing", "worth"]

THIRTY_ONE_SHORT = {"classic": "31 classic", "cut_throat": "31 cutthr.", "no_elimination": "31 no-elim",
                    "banking": "31 banking", "switch": "31 switch", "stop_the_bus": "31 bus"}
"""Thirty-One's presets in the lobby list's Game column (no wider than Ten Pennies' ``standard`` and two more
cells); the line under the list says the game and preset in full."""


def label(rules: Rules) -> str:
    return THIRTY_ONE_SHORT.get(rules.preset, "31")


SCREEN = ScreenGame(
    table=ThirtyOneTable, board=board, label=label,
    standings=Standings(note=lambda standings: tally_note(
        standings, "Place: mean finishing place ± its margin (1 the best)")),
    key="t", form="t31-", choices=KNOB_ENUMS)
