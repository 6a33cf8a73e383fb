"""The seats strip: one line a seat (turn mark, name, the game's figures for it, its flags), then what the
seat has on the table: each piece whole where it fits (more go on lines below), one too wide for a row
drawn compact or over several rows, never cut without saying so.

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
    when that seat changed. ``times``: how a run of the same card is counted in a compact piece."""

    def __init__(self, *, id: str | None = None, times: str = "×") -> None:
        super().__init__(id=id)
        self.lines: tuple[SeatLine, ...] | None = None
        self.head: SeatsHead | None = None
        self.width = 0
        self.height = 0
        self.times = times

    def connecting(self) -> None:
        self.lines = None
        self.show_rows((Text("Connecting…", style="dim"),))

    def seat(self, lines: tuple[SeatLine, ...], head: SeatsHead | None, width: int, height: int = 0) -> None:
        """Draw these seats (``head`` None: no game yet, names and flags only) ``width`` cells wide, in
        ``height`` rows at most (0: as many as they take)."""
        if lines == self.lines and head == self.head and width == self.width and height == self.height:
            return
        self.lines, self.head, self.width, self.height = lines, head, width, height
        self.show_rows(draw(lines, head, width, height, self.times))


def row(text: str = "", style: str = "") -> Text:
    """One row of the strip: never wrapped (a piece that does not fit goes on the next row)."""
    return Text(text, style=style, no_wrap=True, overflow="ellipsis")


def words(piece: Text) -> list[Text]:
    """A piece's words (a set: its number, then its cards), where it may go on to the next row."""
    return [word for word in piece.split(" ") if word.plain]


def compact(piece: Text, times: str) -> Text:
    """``piece`` with each run of the same word drawn once, counted (``JK* JK*`` -> ``JK*×2``): whole, in
    fewer cells."""
    runs: list[tuple[Text, int]] = []
    for word in words(piece):
        if runs and runs[-1][0].plain == word.plain and runs[-1][0].spans == word.spans:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((word, 1))
    out = Text()
    for i, (word, count) in enumerate(runs):
        if i:
            out.append(" ")
        out.append_text(word)
        if count > 1:
            out.append(f"{times}{count}")
    return out


def place(pieces: tuple[Text, ...], first: int, room: int, times: str) -> list[list[tuple[Text, int]]]:
    """The rows a seat's pieces take, ``first`` cells on its own line and ``room`` on each row after it:
    each row the words on it, with the piece each is of. A piece goes whole where it fits (on the next row
    if not on this one); one wider than a row is drawn compact (``compact``), and if that is still too wide
    it takes rows of its own, a word at a time, the rows after its first indented under its first word's
    end: nothing is left out."""
    rows: list[list[tuple[Text, int]]] = [[]]
    used, width = 0, first

    def new_row() -> None:
        nonlocal used, width
        rows.append([])
        used, width = 0, room

    for index, piece in enumerate(pieces):
        gap = 2 if used else 0
        if piece.cell_len > room:
            piece = compact(piece, times)
        if used + gap + piece.cell_len <= width:
            rows[-1].append((piece, index))
            used += gap + piece.cell_len
            continue
        if used or piece.cell_len <= room:
            new_row()
        if piece.cell_len <= width:
            rows[-1].append((piece, index))
            used = piece.cell_len
            continue
        split = words(piece)
        hang = min(split[0].cell_len + 1, room // 2)
        drawn = split[0].copy()
        used = drawn.cell_len
        rows[-1].append((drawn, index))
        for word in split[1:]:
            if used + 1 + word.cell_len > width:
                new_row()
                drawn = Text(" " * hang)
                rows[-1].append((drawn, index))
                used = hang
            else:
                drawn.append(" ")
                used += 1
            drawn.append_text(word)
            used += word.cell_len
        used = width  # the next piece begins a row of its own
    return rows


def cut(rows: list[list[tuple[Text, int]]], keep: int, width: int, total: int) -> list[list[tuple[Text, int]]]:
    """A seat's rows cut to ``keep`` (at least its own line), the last row kept ending with how many of its
    ``total`` pieces are not shown whole, and the key that shows them (``width``: that row's cells). A piece
    that would go on past the rows kept is not shown in part (its first rows would read as a whole set): it
    leaves the rows kept, and is counted with the others not shown."""
    whole = {index for r in rows[:keep] for _, index in r} - {index for r in rows[keep:] for _, index in r}

    def kept() -> list[list[tuple[Text, int]]]:
        """The rows kept, with the pieces shown whole only; of the rows that leaves empty at the end, one
        stays (where the count goes)."""
        shown = [[(word, index) for word, index in r if index in whole] for r in rows[:keep]]
        while len(shown) > 1 and not shown[-1] and not shown[-2]:
            shown.pop()
        return shown

    shown = kept()
    while True:  # the last row's pieces leave it, last first, until the count fits after them
        last = shown[-1]
        more = f"… {total - len(whole)} more: v"
        used = sum(word.cell_len for word, _ in last) + 2 * len(last)
        if not last or used + len(more) <= width:
            break
        whole.discard(last[-1][1])
        shown = kept()
    shown[-1].append((Text(f"… {total - len(whole)} more: v", style="bold"), -1))
    return shown


def draw(lines: tuple[SeatLine, ...], head: SeatsHead | None, total: int, height: int = 0,
         times: str = "×") -> tuple[Text, ...]:
    """The strip's rows: a heading, then each seat's line (and the rows its pieces go on to). ``height``:
    the rows there is room for (0: as many as they take); where they take more, the seats with the most
    rows give up their last ones, each saying what it no longer shows (``cut``)."""
    names = [line.name[:NAME_CELLS] for line in lines]
    width = max(8, *(len(n) for n in names))
    if head is None:
        return tuple(row(f"  {name:<{width}}  {' '.join(line.flags)}") for name, line in zip(names, lines, strict=True))
    top = f"  {'Player':<{width}} {head.figures} {'':<{FLAG_CELLS}} "
    indent = len(top)
    room = max(12, total - indent)
    starts, placed = [], []
    for name, line in zip(names, lines, strict=True):
        start = row()
        start.append(f"{line.mark} ", style="bold")
        start.append(f"{name:<{width}}", style="bold" if line.active else "")
        start.append(f" {line.figures} {' '.join(line.flags):<{FLAG_CELLS}} ")
        starts.append(start)
        placed.append(place(line.pieces, max(0, total - start.cell_len), room, times))
    if height:
        keep = [len(rows) for rows in placed]
        over = 1 + sum(keep) - height
        while over > 0 and max(keep) > 1:  # (a seat's own line is never given up)
            keep[max(reversed(range(len(keep))), key=keep.__getitem__)] -= 1  # (of the most, the last)
            over -= 1
        for s, rows in enumerate(placed):
            if keep[s] < len(rows):
                space = total - (starts[s].cell_len if keep[s] == 1 else indent)
                placed[s] = cut(rows, keep[s], space, len(lines[s].pieces))
    out = [row(top + head.pieces, style="dim")]
    for start, rows in zip(starts, placed, strict=True):
        for n, words_on in enumerate(rows):
            now = start if n == 0 else row(" " * indent)
            for i, (word, _) in enumerate(words_on):
                if i:
                    now.append("  ")
                now.append_text(word)
            out.append(now)
    return tuple(out)
