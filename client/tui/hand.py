"""The hand: a row of cards, each styled, with a row of marks under it (``^`` the cursor, ``=`` selected,
``+`` just received) so that nothing is told by colour alone. It keeps what it drew and redraws only when
handed something else; it asks for a new layout only when its number of rows changes."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from tenpennies.engine.cards import Card

from .cards import CardStyle

SLOT = 4  # cells a card takes in the hand: up to 3 for the card, 1 between (more for a longer card: a copy mark)
FRESH_MARK = "+"  # under a card just received (drawn, taken, bought, a penalty) until the seat's next move


class Hand(Widget):
    """The cards of this seat's hand, as the player ordered them."""

    class Picked(Message):
        """A card was clicked (its index in the hand as drawn)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, style: CardStyle, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.card_style = style
        self.cards: tuple[Card, ...] = ()
        self.cursor = 0
        self.selected: frozenset[int] = frozenset()
        self.wild: frozenset[int] = frozenset()
        self.fresh: frozenset[int] = frozenset()
        self.empty = ""
        self.slots: tuple[int, ...] = ()  # the cells each card takes (SLOT, more for a longer card)
        self._drawn: Text | None = None

    def show(self, cards: list[Card] | tuple[Card, ...], cursor: int, selected: set[int] | frozenset[int],
             wild: frozenset[int], empty: str, fresh: set[int] | frozenset[int] | None = None) -> None:
        state = (tuple(cards), cursor, frozenset(selected), wild, empty, frozenset(fresh or ()))
        if state == (self.cards, self.cursor, self.selected, self.wild, self.empty, self.fresh):
            return
        rows = self.rows(self.content_size.width)
        self.cards, self.cursor, self.selected, self.wild, self.empty, self.fresh = state
        self.slots = tuple(max(SLOT, self.card_style.rich(c, wild=c.rank in wild).cell_len + 1) for c in self.cards)
        self._drawn = None
        self.refresh(layout=rows != self.rows(self.content_size.width) or not self.content_size.width)

    def lines_of(self, width: int) -> list[range]:
        """The cards of each row, as many as fit ``width`` cells (the last card's space may stick out)."""
        out: list[range] = []
        start, used = 0, 0
        for i, slot in enumerate(self.slots):
            if i > start and used + slot > width + 1:
                out.append(range(start, i))
                start, used = i, 0
            used += slot
        if start < len(self.slots):
            out.append(range(start, len(self.slots)))
        return out

    def rows(self, width: int) -> int:
        return 2 * len(self.lines_of(width)) if self.cards else 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.rows(width)

    def on_resize(self) -> None:
        self._drawn = None

    def render(self) -> Text:
        if self._drawn is None:
            self._drawn = self.draw(self.content_size.width or 80)
        return self._drawn

    def draw(self, width: int) -> Text:
        if not self.cards:
            return Text(self.empty, style="dim")
        style = self.card_style
        out = Text(no_wrap=True, overflow="crop")
        cursor_mark, select_mark = ("^", "=") if style.ascii else ("▲", "═")
        for row, line in enumerate(self.lines_of(width)):
            if row:
                out.append("\n")
            marks = Text()
            for i in line:
                card, slot = self.cards[i], self.slots[i]
                chosen, here = card.id in self.selected, i == self.cursor
                piece = style.rich(card, wild=card.rank in self.wild, selected=chosen, cursor=here)
                out.append_text(piece)
                out.append(" " * (slot - piece.cell_len))
                mark = (select_mark * (slot - 1)) if chosen else " " * (slot - 1)
                if card.id in self.fresh:
                    mark = mark[0] + FRESH_MARK + mark[2:]
                if here:
                    mark = cursor_mark + mark[1:]
                marks.append(mark + " ", style="bold" if here else "")
            out.append("\n")
            out.append_text(marks)
        return out

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        lines = self.lines_of(self.content_size.width)
        if offset.y // 2 >= len(lines):
            return
        x = 0
        for i in lines[offset.y // 2]:
            x += self.slots[i]
            if offset.x < x:
                self.post_message(self.Picked(i))
                return
