"""Thirty-One's board in the replay viewer."""

from __future__ import annotations

from rich.text import Text

from tenpennies.engine.interface import Game
from tenpennies.wire.record import GameRecord

from ..cards import CardStyle
from ..grid import Row, grid, names
from .table import standing, worth


def board(game: Game, record: GameRecord, style: CardStyle, width: int) -> Text:
    """Thirty-One: each seat's lives (tokens, points), hand and its worth, whose turn, the discard pile's top,
    the stock and the cards in the middle."""
    public = game.view(None)
    rules = public.rules
    rows: list[Row] = []
    for s, name in enumerate(names(record)):
        hand = game.view(s).hand
        turn = style.turn_mark if not game.over and s in game.to_act() else " "
        knocked = " (knocked)" if public.knocker == s else ""
        cards = style.cards(hand) if hand else Text("-", style="dim")
        rows.append(([Text(turn), Text(name), Text(standing(public.players[s], rules)), cards],
                     [Text(worth(hand, rules) + knocked)]))
    top = style.rich(public.discard_top) if public.discard_top is not None else Text("-")
    middle = [Text("Discard"), top, Text(f"· stock {public.stock_size}", style="dim")]
    shown = [c for c in public.widow if c is not None] + list(public.table_cards)
    if shown:
        middle += [Text("· middle"), style.cards(shown)]
    rows.append(([Text(), Text(), Text(), Text()], middle))
    head = {"lives": "Lives", "tokens": "Tokens", "points": "Points"}[rules.scoring]
    return grid(["", "Player", head, "Hand", "Worth"], rows, width, frozenset({2}))
