"""The seats strip: one line a seat (turn mark, name, the game's figures for it, its flags), then what the
seat has on the table, each piece whole (a piece never breaks across lines; more go on lines below).

The frame fills in who sits where (``SeatLine`` from the table's seats); the game's table widget adds its
figures, marks and pieces (``SeatsHead`` and the fields it fills). The strip keeps the lines it drew and
redraws only when handed different ones."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from .line import Rows

NAME_CELLS = 16   # a longer name is cut ("heuristic bot 3" whole)
FLAG_CELLS = 9    # the flags column (down, bot, away)


@dataclass(frozen=True)
class SeatLine:
    """One seat as the strip draws it."""

    name: str                       # as the table shows it ("(empty)" for an empty seat)
    flags: tuple[str, ...] = ()     # "bot", "away"; a game may add its own first ("down")
    mark: str = " "                 # left of the name: whose turn, or the game's own mark
    active: bool = False            # whose turn it is: the name in bold
    figures: str = ""               # the game's figures for the seat, under ``SeatsHead.figures``
    pieces: tuple[Text, ...] = ()   # the seat's pieces on the table, each drawn whole


@dataclass(frozen=True)
class SeatsHead:
    """The heading of a game going on: its figures' titles and the title of the pieces."""

    figures: str
    pieces: str


class SeatsStrip(Rows):
    """The seats, one line each (more when a seat's pieces take more): a seat's line is drawn again only
    when that seat changed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: tuple[SeatLine, ...] | None = None
        self.head: SeatsHead | None = None
        self.width = 0

    def connecting(self) -> None:
        self.lines = None
        self.show_rows((Text("Connecting…", style="dim"),))

    def seat(self, lines: tuple[SeatLine, ...], head: SeatsHead | None, width: int) -> None:
        """Draw these seats (``head`` None: no game yet, names and flags only) ``width`` cells wide."""
        if lines == self.lines and head == self.head and width == self.width:
            return
        self.lines, self.head, self.width = lines, head, width
        self.show_rows(draw(lines, head, width))


def row(text: str = "", style: str = "") -> Text:
    """One row of the strip: never wrapped (a piece that does not fit goes on the next row)."""
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


def draw(lines: tuple[SeatLine, ...], head: SeatsHead | None, total: int) -> tuple[Text, ...]:
    """The strip's rows: a heading, then each seat's line (and the lines its pieces go on to)."""
    names = [line.name[:NAME_CELLS] for line in lines]
    width = max(8, *(len(n) for n in names))
    if head is None:
        return tuple(row(f"  {name:<{width}}  {' '.join(line.flags)}") for name, line in zip(names, lines, strict=True))
    top = f"  {'Player':<{width}} {head.figures} {'':<{FLAG_CELLS}} "
    out = [row(top + head.pieces, style="dim")]
    indent = len(top)
    room = max(12, total - indent)
    for name, line in zip(names, lines, strict=True):
        now = row()
        out.append(now)
        now.append(f"{line.mark} ", style="bold")
        now.append(f"{name:<{width}}", style="bold" if line.active else "")
        now.append(f" {line.figures} {' '.join(line.flags):<{FLAG_CELLS}} ")
        used = 0
        for piece in line.pieces:
            if used and used + 2 + piece.cell_len > room:
                now = row(" " * indent)
                out.append(now)
                used = 0
            elif used:
                now.append("  ")
                used += 2
            now.append_text(piece)
            used += piece.cell_len
    return tuple(out)
