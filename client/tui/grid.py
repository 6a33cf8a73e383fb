"""Rows in columns as one text, as the replay viewer's boards draw a game's seats: each column as wide as its
widest cell, the last one's pieces (cards) wrapped under it."""

from __future__ import annotations

from rich.text import Text

from tenpennies.wire.record import GameRecord

Row = tuple[list[Text], list[Text]]  # a row's cells, then its last column as pieces (cards) to wrap


def grid(head: list[str], rows: list[Row], width: int, right: frozenset[int] = frozenset()) -> Text:
    """Rows in columns as one unwrapped text (so that its height is its lines, known without drawing it):
    each column as wide as its widest cell (``right``: aligned right), the last one's pieces wrapped within
    ``width``, a wrapped line starting under the column."""
    cells = [[Text(h, style="bold") for h in head[:-1]], *([*c] for c, _ in rows)]
    widths = [max(row[i].cell_len for row in cells) for i in range(len(head) - 1)]
    start = sum(widths) + len(widths)
    room = max(width - start, 12)
    out = Text(no_wrap=True)
    lines: list[tuple[list[Text], list[Text]]] = [(cells[0], [Text(head[-1], style="bold")])]
    lines += [(c, pieces) for (_, pieces), c in zip(rows, cells[1:], strict=True)]
    for n, (row, pieces) in enumerate(lines):
        if n:
            out.append("\n")
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - cell.cell_len)
            out.append_text(Text(pad) + cell if i in right else cell + Text(pad))
            out.append(" ")
        used = 0
        for piece in pieces:
            if used and used + 1 + piece.cell_len > room:
                out.append("\n" + " " * start)
                used = 0
            elif used:
                out.append(" ")
                used += 1
            out.append_text(piece)
            used += piece.cell_len
    return out


def names(record: GameRecord) -> list[str]:
    return [record.seat_name(s)[:14] for s in range(record.seats)]
