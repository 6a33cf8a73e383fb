"""Ten Pennies' board in the replay viewer."""

from __future__ import annotations

from rich.text import Text

from tenpennies.engine.cards import sort_key
from tenpennies.engine.interface import Game
from tenpennies.wire.record import GameRecord

from ..cards import CardStyle
from ..grid import Row, grid, names


def board(game: Game, record: GameRecord, style: CardStyle, width: int) -> Text:
    """Ten Pennies: each seat's score, pennies and hand (wild cards marked), whose turn, the sets on the table,
    the discard and the stock."""
    public = game.view(None)
    wild = public.spec.wild_ranks
    rows: list[Row] = []
    for s, name in enumerate(names(record)):
        p = public.players[s]
        hand = sorted(game.view(s).hand, key=sort_key)
        turn = style.turn_mark if not game.over and s in game.to_act() else " "
        pieces = [style.rich(c, wild=c.rank in wild) for c in hand] or [Text("-", style="dim")]
        if p.down:
            pieces.append(Text("(down)", style="dim"))
        rows.append(([Text(turn), Text(name), Text(str(p.score)), Text(str(p.pennies))], pieces))
    sets = [Text("Sets:", style="bold")]
    for meld in public.table:
        sets.append(Text(f"{meld.id}:", style="dim") + style.cards(meld.cards, wild, sep=""))
    if not public.table:
        sets.append(Text("none yet", style="dim"))
    top = style.rich(public.discard_top) if public.discard_top is not None else Text("-")
    pile = [Text("Discard"), top, Text(f"· stock {public.stock_size} · pot {public.pot}", style="dim")]
    blank = [Text(), Text(), Text(), Text()]
    rows += [(blank, sets), (blank, pile)]
    return grid(["", "Player", "Score", "Pen.", "Hand"], rows, width, frozenset({2, 3}))
