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
from .fold import Known
from .game import Game, Phase, PlayerInfo, SeatView
from .narrate import Narrator
from .rules import Contract, HouseRules, RoundSpec, RuleError

__all__ = [
    "ACE", "JOKER", "Card", "format_cards", "parse_cards",
    "Buy", "Command", "DeclineDiscard", "Discard", "Draw", "LayContract", "LayOff", "LaySet",
    "PassBuy", "TakeDiscard", "format_command", "parse_command",
    "Event", "Meld", "Known", "Game", "Phase", "PlayerInfo", "SeatView", "Narrator",
    "Contract", "HouseRules", "RoundSpec", "RuleError",
]
