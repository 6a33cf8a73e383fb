"""Thirty-One: the rules (docs/THIRTY-ONE.md, numbered T31-x.y), its commands, events, views and bots."""

from ..cards import Card, format_cards, parse_cards
from .commands import (
    Command,
    Discard,
    DrawStock,
    ExchangeMiddle,
    ExchangeWidow,
    KeepHand,
    Knock,
    Renew,
    Stand,
    SwapHand,
    TableSwap,
    TableSwapAll,
    TakeDiscard,
    format_command,
    parse_command,
)
from .events import Event, PlayerInfo
from .fold import Known
from .game import Game
from .narrate import Narrator
from .rules import PRESET_NAMES, RuleError, Rules
from .view import MiddleHand, Phase, SeatView

__all__ = [
    "Card", "format_cards", "parse_cards",
    "Command", "Discard", "DrawStock", "ExchangeMiddle", "ExchangeWidow", "KeepHand", "Knock", "Renew", "Stand",
    "SwapHand", "TableSwap", "TableSwapAll", "TakeDiscard", "format_command", "parse_command",
    "Event", "PlayerInfo", "Known", "Game", "Narrator", "PRESET_NAMES", "RuleError", "Rules",
    "MiddleHand", "Phase", "SeatView",
]
