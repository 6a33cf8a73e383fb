"""Ten Pennies: the rules (docs/RULES.md, numbered TP-x.y), its commands, events, bots and strategies."""

from ..cards import ACE, JOKER, Card, format_cards, parse_cards
from .commands import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    TakeDiscard,
    format_command,
    parse_command,
)
from .events import Event, Meld
from .game import Game, Phase, PlayerInfo, SeatView
from .rules import Contract, HouseRules, RoundSpec, RuleError

__all__ = [
    "ACE", "JOKER", "Card", "format_cards", "parse_cards",
    "Buy", "Command", "DeclineDiscard", "Discard", "Draw", "LayContract", "LayOff", "LaySet",
    "PassBuy", "TakeDiscard", "format_command", "parse_command",
    "Event", "Meld", "Game", "Phase", "PlayerInfo", "SeatView",
    "Contract", "HouseRules", "RoundSpec", "RuleError",
]
