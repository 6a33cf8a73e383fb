"""The table screen: one seat's (or a spectator's) game, all of it at once at 80x24, played from the keyboard.

What is drawn comes from a ``TableView`` folded from the seat's stream; what may be done comes from the
server's legal commands (``view.legal``) alone: a key whose command is not listed is hidden from the
footer and does nothing. A command goes to the server in a worker; a refusal shows the server's words
(they start with the rule) and changes nothing here, since the view changes only from the stream.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input, RichLog, Static

from tenpennies.client.connection import Backoff, Connection, HostedTable, Link, SeatSession, ServerError
from tenpennies.client.view import TableView
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    SeatView,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.melds import set_error
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire.mapping import command_to_pb

from .cards import CardStyle
from .common import RETRY_FIRST, RETRY_MOST, filled, sentence
from .help import ConfirmScreen, GameEndScreen, HelpScreen, RoundEndScreen

SORTS = ("rank", "suit", "own")
SLOT = 4  # cells a card takes in the hand: up to 3 for the card, 1 between
SUIT_ORDER = {"C": 0, "D": 1, "S": 2, "H": 3, None: 4}
PLAIN = CardStyle()
FRESH_MARK = "+"  # under a card just received (drawn, taken, bought, a penalty) until the seat's next move
NOTHING_TO_LAY = "nothing to lay now: no contract, set or lay-off is listed for you"
# The keys of moves: pressed when the move is not listed, they say why on the message line.
MOVE_KEYS = frozenset({"t", "d", "b", "p", "r", "x", "m", "o", "h", *(str(n) for n in range(10))})


class Hand(Widget):
    """The hand as one widget: a row of cards, each styled, with a row of marks under it (``^`` the
    cursor, ``=`` selected, ``+`` just received) so that nothing is told by colour alone."""

    class Picked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, style: CardStyle, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.card_style = style
        self.cards: list[Card] = []
        self.cursor = 0
        self.selected: set[int] = set()
        self.wild: frozenset[int] = frozenset()
        self.fresh: set[int] = set()
        self.empty = ""

    def show(self, cards: list[Card], cursor: int, selected: set[int], wild: frozenset[int], empty: str,
             fresh: set[int] | None = None) -> None:
        self.cards, self.cursor, self.selected, self.wild, self.empty = cards, cursor, set(selected), wild, empty
        self.fresh = set(fresh or ())
        self.refresh(layout=True)

    def per_row(self, width: int) -> int:
        return max(1, (width + 1) // SLOT)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if not self.cards:
            return 1
        return 2 * math.ceil(len(self.cards) / self.per_row(width))

    def render(self) -> Text:
        if not self.cards:
            return Text(self.empty, style="dim")
        style = self.card_style
        per_row = self.per_row(self.content_size.width or 80)
        out = Text(no_wrap=True, overflow="crop")
        cursor_mark, select_mark = ("^", "=") if style.ascii else ("▲", "═")
        for start in range(0, len(self.cards), per_row):
            if start:
                out.append("\n")
            marks = Text()
            for i in range(start, min(start + per_row, len(self.cards))):
                card = self.cards[i]
                chosen, here = card.id in self.selected, i == self.cursor
                piece = style.rich(card, wild=card.rank in self.wild, selected=chosen, cursor=here)
                out.append_text(piece)
                out.append(" " * (SLOT - piece.cell_len))
                mark = (select_mark * 3) if chosen else "   "
                if card.id in self.fresh:
                    mark = mark[0] + FRESH_MARK + mark[2]
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
        per_row = self.per_row(self.content_size.width)
        index = (offset.y // 2) * per_row + offset.x // SLOT
        if 0 <= index < len(self.cards):
            self.post_message(self.Picked(index))


def _kinds(legal: Iterable[Command], *kinds: type) -> list[Command]:
    return [c for c in legal if isinstance(c, kinds)]


def _shed(command: Command) -> tuple[int, int]:
    """The points and cards a meld takes out of the hand: the hints come most first, so the first leaves
    the fewest points in hand (the server lists melds in its own order, rank by rank)."""
    match command:
        case LayContract(sets=sets):
            cards = [c for s in sets for c in s]
        case LaySet(cards=laid):
            cards = list(laid)
        case LayOff(card=card):
            cards = [card]
        case _:
            cards = []
    return sum(c.points for c in cards), len(cards)


def _actions(bindings: Iterable[BindingType]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(b.action for b in bindings if isinstance(b, Binding)))


class TableScreen(Screen[None]):
    """One table. ``host``: this client made the table (add bots, start); ``leave_to_lobby``: ``L``
    leaves to the lobby (else this is the app's only table, and the app's ``q`` quits)."""

    AUTO_FOCUS = None  # keys go to the screen's bindings; the chat input takes focus only when opened

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "take", "Take"),
        Binding("d", "decline", "Decline"),
        Binding("b", "buy", "Buy"),
        Binding("p", "pass_buy", "Pass"),
        Binding("r", "draw", "Draw"),
        Binding("space", "select", "Select"),
        Binding("m", "meld", "Meld"),
        Binding("o", "layoff_key", "Lay off"),
        Binding("x", "discard", "Discard"),
        Binding("h", "hint", "Hint"),
        Binding("s", "sort", "Sort", show=False),
        Binding("b", "add_bot('greedy')", "Greedy bot"),
        Binding("B", "add_bot('random')", "Random bot"),
        Binding("g", "start", "Start"),
        Binding("c", "chat", "Chat", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("L", "leave", "Leave"),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("shift+left", "move(-1)", "Move left", show=False),
        Binding("shift+right", "move(1)", "Move right", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        Binding("escape", "clear", "Clear", show=False),
        Binding("enter", "confirm", "Confirm", show=False),
        *(Binding(str(n), f"digit({n})", show=False) for n in range(10)),
    ]

    def __init__(self, connection: Connection, session: SeatSession, *, style: CardStyle = PLAIN,
                 host: HostedTable | None = None, leave_to_lobby: bool = True) -> None:
        super().__init__()
        self.connection = connection
        self.session = session
        self.card_style = style
        self.host = host
        self.leave_to_lobby = leave_to_lobby
        self.tv = TableView(session.seat, style.text, you="You")
        self.link: Link | None = None
        self.retry_at = 0.0
        self.ended = ""                      # why the stream ended for good ("" while it runs)
        self.sort = "rank"
        self.order: list[int] = []           # card ids in the player's own order
        self.cursor_id: int | None = None
        self.selected: set[int] = set()
        self.builder: list[tuple[Card, ...]] = []  # sets of the contract being built
        self.pending_set = ""                # digits typed for a lay-off (after o, or past set 9)
        self.layoff_armed = False            # o pressed: digits name the set
        self.hint_index = 0
        self.shown: list[Card] = []          # the hand as drawn (builder cards left out)
        self.fresh: set[int] = set()         # cards just received, marked until this seat's next move
        self._enabled: tuple[bool | None, ...] = ()  # which bindings were enabled at the last redraw
        self.round_screen: RoundEndScreen | None = None
        self.game_screen: GameEndScreen | None = None

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="seats")
        log = RichLog(id="log", wrap=True, max_lines=300, markup=False)
        log.can_focus = False
        yield log
        yield Static(id="status")
        yield Static(id="builder")
        yield Hand(self.card_style, id="hand")
        yield Static(id="prompt")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#builder", Static).display = False
        self.set_interval(1.0, self.tick)
        self.refresh_table()
        self.follow()

    # --- the stream ------------------------------------------------------------------------------

    @work(group="stream", exit_on_error=False)
    async def follow(self) -> None:
        try:
            # retries as the lobby's (at most about 3 s apart): the default grows to 12 s, which after a
            # short cut was most of the wait to be back at the table
            async for message in self.session.follow(Backoff(RETRY_FIRST, RETRY_MOST)):
                if isinstance(message, Link):
                    self.link = message
                    self.retry_at = time.monotonic() + message.retry_in
                elif isinstance(message, pb.Snapshot):
                    again = self.tv.info is not None
                    self.tv.apply_snapshot(message)
                    self.log_snapshot(again)
                else:
                    self.fold_event(message)
                self.refresh_table()
            self.ended = "The server closed this seat's stream (the seat was emptied)."
        except ServerError as error:
            self.ended = f"Lost the table: {error.message}"
        self.refresh_table()

    def log_snapshot(self, again: bool) -> None:
        info, v = self.tv.info, self.tv.view
        if info is None:
            return
        # the table's id, for ``tenpennies bot --table`` and ``play --spectate`` (shown nowhere else here)
        where = f"{'Back at' if again else 'At'} {info.name or 'the table'} (table {info.table_id})"
        if v is not None and v.phase is Phase.GAME_OVER:
            where += f": {self.whose(v, self.top(v))}; this is how it ended"
        elif v is not None:
            where += f": round {v.round}, turn {v.turn}, {self.whose(v, self.top(v))}"
        self.query_one("#log", RichLog).write(Text(where, style="dim"))

    def top(self, v: SeatView) -> str:
        return self.card_style.text(v.discard_top) if v.discard_top is not None else "card"

    def fold_event(self, event: pb.Event) -> None:
        kind = event.WhichOneof("kind")
        before = {c.id for c in self.tv.view.hand} if self.tv.view is not None else set()
        unstarted = self.tv.view is None  # not started: a seat changed makes a host's refusal old news
        line = self.tv.apply_event(event)
        self.mark_received(event, kind, before)
        if kind in ("turn_started", "round_started", "game_ended") or (kind == "seat_changed" and unstarted):
            self.say("")  # what the message line said was about the turn before (or the seats before)
        if line is not None:
            style = "bold cyan" if kind == "chat_posted" else ("bold" if kind in ("round_ended", "game_ended") else "")
            self.query_one("#log", RichLog).write(Text(line, style=style))
        if kind == "round_ended" and self.tv.round_end is not None and self.tv.view is not None:
            last = self.tv.view.rules.rounds[-1]
            if self.tv.round_end.round != last:  # the last round's end comes with the game's
                self.show_round_end()
        elif kind == "game_ended":
            self.show_game_end()

    def mark_received(self, event: pb.Event, kind: str | None, before: set[int]) -> None:
        """Mark the cards this seat just received (a draw, a take, a buy and its penalty cards) until its
        next move; the cursor goes to the card drawn, taken or bought."""
        seat, v = self.session.seat, self.tv.view
        if seat is None or v is None or kind is None:
            return
        message = getattr(event, kind)
        if kind == "round_started" or (kind in ("discarded", "contract_laid", "set_laid", "laid_off",
                                                "discard_declined", "buy_answered") and message.seat == seat):
            self.fresh.clear()
            return
        if kind not in ("discard_taken", "card_bought", "cards_received") or message.seat != seat:
            return
        new = [c.id for c in v.hand if c.id not in before]
        if kind == "cards_received" and message.reason == pb.RECEIVED_REASON_DEAL:
            return
        if kind == "discard_taken" or (kind == "cards_received" and message.reason == pb.RECEIVED_REASON_DRAW):
            self.fresh = set(new)  # a new turn's card: what was marked before is old news
        else:
            self.fresh |= set(new)  # a buy: the card and its penalty cards
        if new and (kind != "cards_received" or message.reason == pb.RECEIVED_REASON_DRAW):
            self.cursor_id = new[0]

    # --- what the seat may do --------------------------------------------------------------------

    @property
    def view(self) -> SeatView | None:
        return self.tv.view

    @property
    def legal(self) -> tuple[Command, ...]:
        v = self.tv.view
        return v.legal if v is not None and self.session.seat is not None else ()

    def can(self, *kinds: type) -> bool:
        return any(isinstance(c, kinds) for c in self.legal)

    @property
    def waiting(self) -> bool:
        info = self.tv.info
        return self.tv.view is None and (info is None or info.status == pb.TABLE_STATUS_WAITING)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        seated = self.session.seat is not None and self.tv.view is not None
        match action:
            case "take":
                return self.can(TakeDiscard)
            case "decline":
                return self.can(DeclineDiscard)
            case "buy":
                return self.can(Buy)
            case "add_bot" | "start":
                return self.host is not None and self.waiting
            case "pass_buy":
                return self.can(PassBuy)
            case "draw":
                return self.can(Draw)
            case "meld":
                return self.can(LayContract, LaySet)
            case "layoff_key" | "digit":
                return self.can(LayOff)
            case "discard":
                return self.can(Discard)
            case "hint":
                return self.can(LayContract, LaySet, LayOff)
            case "select" | "sort" | "cursor" | "move" | "cursor_to":
                return seated and bool(self.shown)
            case "leave":
                return self.leave_to_lobby
        return True

    def on_key(self, event: events.Key) -> None:
        """A move's key that no binding takes now (its command is not listed) says why, on the message
        line; the bindings run after this, so a key some binding takes is left to it."""
        if event.key not in MOVE_KEYS or isinstance(self.focused, Input):
            return
        active = self.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        self.say(self.why_not(event.key))

    def why_not(self, key: str) -> str:
        """Why the move ``key`` names is not one this seat may make now, in a few words."""
        v, seat = self.view, self.session.seat
        if seat is None:
            return "watching: only the seated play"
        if v is None:
            return "the game has not started yet"
        if v.phase is Phase.GAME_OVER:
            return "the game is over: enter shows the standings"
        legal = self.legal
        top = self.top(v)
        if not legal:
            if v.phase is Phase.BUY:
                if seat in v.buy_offer:
                    return f"you answered the offer of the {top}: waiting for the others"
                offered = ", ".join(self.who(s) for s in v.buy_offer)
                return f"not your turn: the {top} is offered to {offered}"
            if v.turn_seat == seat:
                return "wait: the server is moving the game on"
            return f"not your turn: {self.who(v.turn_seat)} is playing"
        if key == "h":
            return NOTHING_TO_LAY
        down = v.players[seat].down
        melding = self.can(Discard)
        if melding and key == "m":
            return ("no set to lay: none is listed for you" if down else
                    f"no contract ({v.spec.contract}) can be made from your hand yet")
        if melding and (key == "o" or key.isdigit()):
            return ("nothing to lay off: no lay-off is listed for you" if down else
                    "no lay-off yet: you lay off once your contract is down")
        if self.can(TakeDiscard):
            now = f"take [t] or decline [d] the {top}"
        elif self.can(Buy):
            now = f"buy [b] or pass [p] the {top}"
        elif self.can(Draw):
            now = "draw [r]"
        else:
            now = "meld or discard [x]" if self.can(LayContract, LaySet, LayOff) else "discard [x]"
        return f"not now: {now}"

    # --- drawing ---------------------------------------------------------------------------------

    def tick(self) -> None:
        self.query_one("#prompt", Static).update(self.prompt())

    def refresh_table(self) -> None:
        self.sync_hand()
        self.query_one("#header", Static).update(self.header())
        self.query_one("#seats", Static).update(self.seats())
        self.query_one("#status", Static).update(self.status())
        builder = self.query_one("#builder", Static)
        builder.display = bool(self.builder)
        builder.update(self.builder_text())
        v = self.view
        wild = v.spec.wild_ranks if v is not None else frozenset()
        hand = self.query_one(Hand)
        hand.display = self.session.seat is not None and v is not None
        cursor = self.cursor_index()
        hand.show(self.shown, cursor, self.selected, wild, "(no cards in hand)", self.fresh)
        self.tick()
        enabled = tuple(self.check_action(action, ()) for action in _actions(self.BINDINGS))
        if enabled != self._enabled:  # the footer rebuilds itself on every refresh_bindings: only on change
            self._enabled = enabled
            self.refresh_bindings()

    def sync_hand(self) -> None:
        """Keep the player's order, selection, builder and cursor in step with the hand."""
        v = self.view
        hand = v.hand if v is not None and self.session.seat is not None else ()
        ids = {c.id for c in hand}
        known = set(self.order)
        self.order = [i for i in self.order if i in ids] + [c.id for c in hand if c.id not in known]
        self.selected &= ids
        if any(c.id not in ids for s in self.builder for c in s):
            self.builder = []
        if v is None or v.phase is not Phase.MELD or not self.can(LayContract):
            self.builder = []
        building = {c.id for s in self.builder for c in s}
        self.selected -= building
        by_id = {c.id: c for c in hand}
        cards = [by_id[i] for i in self.order if i not in building]
        if self.sort == "rank":
            cards.sort(key=lambda c: (c.rank, SUIT_ORDER[c.suit], c.copy))
        elif self.sort == "suit":
            cards.sort(key=lambda c: (SUIT_ORDER[c.suit], c.rank, c.copy))
        if self.cursor_id not in {c.id for c in cards}:  # its card left: the cursor stays where it was
            place = next((i for i, c in enumerate(self.shown) if c.id == self.cursor_id), 0)
            self.cursor_id = cards[min(place, len(cards) - 1)].id if cards else None
        self.shown = cards

    def cursor_index(self) -> int:
        for i, c in enumerate(self.shown):
            if c.id == self.cursor_id:
                return i
        return 0

    def who(self, seat: int) -> str:
        """The seat's name as the log says it (You for this seat)."""
        return self.tv.name(seat)

    def round_of(self, v: SeatView) -> str:
        rounds = v.rules.rounds
        if rounds == (1, 2, 3, 4, 5, 6, 7):
            return f"Round {v.round}/7"
        place = rounds.index(v.round) + 1 if v.round in rounds else 0
        return f"Round {v.round} ({place} of {len(rounds)})"

    def header(self) -> Text:
        v, dot = self.view, f" {self.card_style.dot} "
        info = self.tv.info
        if v is None:
            name = info.name if info is not None and info.name else "Table"
            return Text(f"{name}{dot}waiting to start", style="bold")
        spec = v.spec
        wild = self.card_style.ranks(spec.wild_ranks)
        parts = [self.round_of(v), str(spec.contract), f"wild {wild}, {spec.wild_cap} a set",
                 f"stock {v.stock_size}", f"pot {v.pot}", f"reshuffles {v.reshuffles_left}"]
        room = self.width_of("#header")
        if len(dot.join(parts)) > room:  # one line: the words go before the numbers do
            parts[2], parts[5] = f"wild {wild}", f"reshuffles {v.reshuffles_left}"
        if len(dot.join(parts)) > room:
            parts[5] = f"reshuf. {v.reshuffles_left}"
        return Text(dot.join(parts), style="bold", no_wrap=True, overflow="ellipsis")

    def seats(self) -> Text:
        """One line a seat: turn mark, name, cards, pennies, score, down/bot/away, then its sets on the
        table, each whole (a set never breaks across lines; more sets go on lines below)."""
        info, v = self.tv.info, self.view
        if info is None:
            return Text("Connecting…", style="dim")
        seat_info = {s.seat: s for s in info.seat_info}
        rows: list[tuple[str, list[str]]] = []
        for s in range(info.seats):
            si = seat_info.get(s)
            flags: list[str] = []
            if si is None or si.kind in (pb.SEAT_KIND_EMPTY, pb.SEAT_KIND_UNSPECIFIED):
                name = "(empty)"
            else:
                name = self.who(s)
                if si.kind == pb.SEAT_KIND_BOT or si.bot_playing:
                    flags.append("bot")
                elif not si.connected:
                    flags.append("away")
            if v is not None and v.players[s].down:
                flags.insert(0, "down")
            rows.append((name[:14], flags))
        width = max(8, *(len(n) for n, _ in rows))
        out = Text(no_wrap=True, overflow="ellipsis")
        total = self.width_of("#seats")
        if v is None:
            for s, (name, flags) in enumerate(rows):
                if s:
                    out.append("\n")
                out.append(f"  {name:<{width}}  {' '.join(flags)}")
            return out
        head = f"  {'Player':<{width}} Cards Pennies Score {'':<9} "
        out.append(head + "Sets on the table", style="dim")
        indent = len(head)
        room = max(12, total - indent)
        for s, (name, flags) in enumerate(rows):
            p = v.players[s]
            active = v.phase is not Phase.GAME_OVER and s == v.turn_seat
            # $: the seats the declined card is offered to, the same for every view until it settles (who has
            # answered is private, TP-4.7)
            mark = self.card_style.turn_mark if active else ("$" if v.phase is Phase.BUY and s in v.buy_offer else " ")
            out.append("\n")
            out.append(f"{mark} ", style="bold")
            out.append(f"{name:<{width}}", style="bold" if active else "")
            out.append(f" {p.hand_size:>5} {p.pennies:>7} {p.score:>5} {' '.join(flags):<9} ")
            used = 0
            for meld in (m for m in v.table if m.owner == s):
                piece = Text(f"[{meld.id}] ", style="dim")
                piece.append_text(self.card_style.cards(meld.cards, v.spec.wild_ranks))
                if used and used + 2 + piece.cell_len > room:
                    out.append("\n" + " " * indent)
                    used = 0
                elif used:
                    out.append("  ")
                    used += 2
                out.append_text(piece)
                used += piece.cell_len
        return out

    def status(self) -> Table:
        v, st = self.view, self.card_style
        left = Text()
        right = Text(style="dim")
        if v is not None:
            left.append("Discard ")
            if v.discard_top is not None:
                left.append_text(st.rich(v.discard_top, wild=v.discard_top.rank in v.spec.wild_ranks))
                left.append(" live" if v.discard_live else " dead", style="bold" if v.discard_live else "dim")
            else:
                left.append("none" if v.pile_size == 0 else "?", style="dim")
            left.append(f"  (pile {v.pile_size})", style="dim")
            if self.session.seat is not None:
                building = sum(len(s) for s in self.builder)
                extra = f", {building} in the builder" if building else ""
                order = {"rank": "by rank", "suit": "by suit", "own": "your order"}[self.sort]
                right.append(f"Your hand: {len(v.hand)} cards{extra} {st.dot} {order} [s]")
            else:
                right.append("Watching")  # (the prompt says whose turn it is, not this again)
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(left, right)
        return grid

    def builder_text(self) -> Text:
        """The contract being built, on one line: its sets, then as much of the keys' help as fits."""
        out = Text(no_wrap=True, overflow="ellipsis")
        v = self.view
        if v is None:
            return out
        out.append("Contract: ", style="bold")
        for i, s in enumerate(self.builder):
            if i:
                out.append(" / ")
            out.append("[")
            out.append_text(self.card_style.cards(s, v.spec.wild_ranks))
            out.append("]")
        dot = f" {self.card_style.dot} "
        room = self.width_of("#builder") - out.cell_len
        for tail in (f"  {len(self.builder)} of {v.spec.contract}{dot}m adds, enter lays, esc clears",
                     f"{dot}m adds, enter lays, esc clears", f"{dot}enter lays, esc clears"):
            if len(tail) <= room:
                out.append(tail, style="dim")
                break
        return out

    def width_of(self, selector: str) -> int:
        """The cells a line of this widget holds (78 at 80 columns, before the first layout)."""
        width = self.query_one(selector).content_size.width if self.is_mounted else 0
        return width or 78

    def clock(self) -> str:
        deadline = self.tv.deadline_ms
        if not deadline:
            return ""
        left = max(0, math.ceil((deadline - time.time() * 1000) / 1000))
        return f" {self.card_style.dot} {left} s"

    def prompt(self) -> Text:
        tv, v, dot = self.tv, self.view, f" {self.card_style.dot} "
        if self.ended:
            return Text(sentence(self.ended) + ("" if self.leave_to_lobby is False else "  L: back to the lobby"),
                        style="bold red")
        if self.link is not None and not self.link.up:
            left = max(0, math.ceil(self.retry_at - time.monotonic()))
            return Text(f"Reconnecting… {self.link.reason}; trying again in {left} s", style="bold yellow")
        if tv.info is None:
            return Text("Connecting…", style="dim")
        if v is None:
            seated = filled(tv.info)
            waiting = tv.info.status == pb.TABLE_STATUS_WAITING
            if waiting and seated >= tv.info.seats:
                start = "start [g]" if self.host is not None else "waiting for the host to start"
                return Text(f"All {tv.info.seats} seats filled: {start}", style="bold")
            text = f"Waiting for players: {seated}/{tv.info.seats} seated"
            if waiting:
                text += (f"{dot}add a bot [b/B]{dot}start [g]" if self.host is not None
                         else f"{dot}the host starts the game")
            return Text(text, style="bold")
        if v.phase is Phase.GAME_OVER:
            won = " and ".join(self.who(s) for s in tv.winners) or "?"
            return Text(f"Game over: {won} won{dot}enter shows the standings", style="bold")
        seat = self.session.seat
        top = self.top(v)
        clock = self.clock()
        if seat is None:  # (the status line says Watching)
            return Text(f"{self.whose(v, top, len(clock))}{clock}", no_wrap=True, overflow="ellipsis")
        legal = self.legal
        if _kinds(legal, TakeDiscard):
            return Text(f"Your turn: take the {top} [t] or decline it [d]{clock}", style="bold")
        if _kinds(legal, Buy):
            penalty = v.rules.buy_penalty_cards
            pennies = v.players[seat].pennies
            return Text(f"Buy the {top} [b] or pass [p]? {pennies} pennies left; a buy adds {penalty} cards"
                        f"{clock}", style="bold")
        if legal and all(isinstance(c, Draw) for c in legal):
            return Text(f"Your turn: draw from the stock [r or enter]{clock}", style="bold")
        if _kinds(legal, Discard):
            me = v.players[seat]
            if not me.down:
                if _kinds(legal, LayContract):
                    what = f"contract ({v.spec.contract}) [m]{dot}hint [h]{dot}discard [x]"
                else:
                    what = "no contract in your hand yet: discard [x]"
            else:
                doable = []
                if _kinds(legal, LaySet):
                    doable.append("lay a set [m]")
                if _kinds(legal, LayOff):
                    doable.append("lay off [0-9]")
                doable.append("discard [x]")
                what = ", ".join(doable)
            return Text(f"Your turn: {what}{clock}", style="bold")
        if v.phase is Phase.BUY and seat in v.buy_offer and seat not in v.to_act:
            return Text(f"You answered the offer of the {top}; waiting for the others")
        return Text(self.whose(v, top, len(clock)) + clock, no_wrap=True, overflow="ellipsis")

    def whose(self, v: SeatView, top: str, reserve: int = 0) -> str:
        """Whose turn it is and what they are deciding, in one line (``reserve``: cells kept for more)."""
        name = self.who(v.turn_seat)
        if v.phase is Phase.PICK_UP:
            return f"{name}: take or decline the {top}"
        if v.phase is Phase.BUY:
            offered = ", ".join(self.who(s) for s in v.buy_offer) or "nobody"
            text = f"{name} declined the {top}: offered to {offered}"
            if len(text) + reserve > self.width_of("#prompt"):
                text = f"{name} declined the {top}: offered to the seats marked $"
            return text
        if v.phase is Phase.DRAW:
            return f"{name}: drawing"
        if v.phase is Phase.GAME_OVER:
            won = " and ".join(self.who(s) for s in self.tv.winners) or "?"
            return f"the game is over: {won} won"
        return f"{name}: playing"

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "error")
        message.update(Text(text))  # plain: "[t]" is a key, not markup

    # --- modal screens ---------------------------------------------------------------------------

    def show_round_end(self) -> None:
        tv, v = self.tv, self.tv.view
        if tv.round_end is None or v is None:
            return
        self.close_modals()
        rounds = v.rules.rounds
        total = f" of {len(rounds)}" if rounds == (1, 2, 3, 4, 5, 6, 7) else ""
        self.round_screen = RoundEndScreen(tv.round_end, v.rules.round(tv.round_end.round), self.who,
                                           self.session.seat, self.card_style, total)
        self.app.push_screen(self.round_screen)

    def show_game_end(self) -> None:
        if self.tv.view is None:
            return
        self.close_modals()
        self.game_screen = GameEndScreen(self.tv.view, self.tv.game_end, self.who, self.session.seat)
        self.app.push_screen(self.game_screen)

    def close_modals(self) -> None:
        for screen in (self.round_screen, self.game_screen):
            if screen is not None and screen.is_current:
                screen.dismiss()
        self.round_screen = self.game_screen = None

    # --- sending ---------------------------------------------------------------------------------

    def send(self, command: Command) -> None:
        self.say("")
        self.run_worker(self._send(command), group="send", exit_on_error=False)

    async def _send(self, command: Command) -> None:
        try:
            await self.session.send(command_to_pb(command))
        except ServerError as error:  # once, on the message line (a toast would cover the hand and prompt)
            self.say(self.card_style.words(error.message), error=True)
            return
        if isinstance(command, (LayContract, LaySet, LayOff, Discard)):
            self.selected.clear()
            self.builder = []
            self.refresh_table()

    def first(self, kind: type) -> Command | None:
        for c in self.legal:
            if isinstance(c, kind):
                return c
        return None

    def play(self, kind: type) -> None:
        command = self.first(kind)
        if command is not None:
            self.send(command)

    # --- actions: picking up -----------------------------------------------------------------------

    def action_take(self) -> None:
        self.play(TakeDiscard)

    def action_decline(self) -> None:
        self.play(DeclineDiscard)

    def action_buy(self) -> None:
        self.play(Buy)

    def action_pass_buy(self) -> None:
        self.play(PassBuy)

    def action_draw(self) -> None:
        self.play(Draw)

    # --- actions: the hand -----------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.shown:
            i = (self.cursor_index() + step) % len(self.shown)
            self.cursor_id = self.shown[i].id
            self.refresh_table()

    def action_cursor_to(self, index: int) -> None:
        if self.shown:
            self.cursor_id = self.shown[index].id
            self.refresh_table()

    def action_move(self, step: int) -> None:
        """Move the card under the cursor along the hand; the hand is then in the player's own order."""
        if not self.shown or self.cursor_id is None:
            return
        i = self.cursor_index()
        j = i + step
        if not 0 <= j < len(self.shown):
            return
        if self.sort != "own":
            shown = [c.id for c in self.shown]
            self.order = shown + [x for x in self.order if x not in set(shown)]
            self.sort = "own"
        a, b = self.shown[i].id, self.shown[j].id
        ia, ib = self.order.index(a), self.order.index(b)
        self.order[ia], self.order[ib] = b, a
        self.refresh_table()

    def action_select(self) -> None:
        if self.cursor_id is None:
            return
        self.selected ^= {self.cursor_id}
        self.refresh_table()

    def on_hand_picked(self, message: Hand.Picked) -> None:
        if 0 <= message.index < len(self.shown):
            self.cursor_id = self.shown[message.index].id
            self.action_select()

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.refresh_table()

    def action_clear(self) -> None:
        for chat in self.query("#chat"):
            chat.remove()
            return
        self.selected.clear()
        self.builder = []
        self.pending_set = ""
        self.layoff_armed = False
        self.say("")
        self.refresh_table()

    def chosen(self) -> list[Card]:
        """The selected cards in hand order, else none."""
        return [c for c in self.shown if c.id in self.selected]

    def one_card(self) -> Card | None:
        """The card a discard or lay-off is about: the only selected one, else the one under the cursor."""
        chosen = self.chosen()
        if len(chosen) == 1:
            return chosen[0]
        if len(chosen) > 1:
            self.say("Select one card (or none: the one under the cursor).", error=True)
            return None
        for c in self.shown:
            if c.id == self.cursor_id:
                return c
        return None

    # --- actions: melding ------------------------------------------------------------------------

    def action_meld(self) -> None:
        v, seat = self.view, self.session.seat
        if v is None or seat is None:
            return
        chosen = self.chosen()
        if v.players[seat].down:
            if not chosen:
                self.say("Select the cards of a set with space, then m lays it.")
                return
            self.send(LaySet(seat, tuple(chosen)))
            return
        need = v.spec.contract.sets
        if chosen:
            if len(self.builder) >= need:
                self.say(f"TP-4.11: the contract ({v.spec.contract}) is built: enter lays it, esc starts again",
                         error=True)
                return
            # judged at once by the engine's own check, as the server will judge it when it is laid
            error = set_error(chosen, v.spec, v.rules, contract=True)
            if error is not None:  # the rule and the cards as drawn; nothing added, the selection kept
                self.say(self.card_style.words(str(error)), error=True)
                return
            self.builder.append(tuple(chosen))
            self.selected.clear()
            self.refresh_table()
            if len(self.builder) < need:
                self.say(f"Set {len(self.builder)} of {need} added; select the next one.")
            else:
                self.say("The contract is built: m or enter lays it; esc starts again.")
            return
        if not self.builder:
            self.say(f"Select the cards of a set with space, then m adds it (the contract: {v.spec.contract}).")
            return
        self.send(LayContract(seat, tuple(self.builder)))

    def action_layoff_key(self) -> None:
        self.layoff_armed = True
        self.pending_set = ""
        self.say("lay off on which set? press its number (esc cancels)")

    def action_digit(self, n: int) -> None:
        v = self.view
        if v is None:
            return
        self.pending_set += str(n)
        number = int(self.pending_set)
        # Past set 9 a digit may begin a longer number: wait until no set could be named by more digits
        # (a 0 begins none: it names set 0 at once)
        if 0 < number and number * 10 < len(v.table):
            self.say(f"lay off on set {self.pending_set}_? another digit, or enter (esc cancels)")
            return
        self.lay_off(number)

    def lay_off(self, number: int) -> None:
        self.pending_set = ""
        self.layoff_armed = False
        self.say("")
        seat, card = self.session.seat, self.one_card()
        if seat is None or card is None:
            return
        self.send(LayOff(seat, card, number))

    def action_confirm(self) -> None:
        v = self.view
        if self.pending_set:
            self.lay_off(int(self.pending_set))
        elif self.can(Draw):
            self.play(Draw)
        elif self.builder:
            self.action_meld()
        elif v is not None and v.phase is Phase.GAME_OVER:
            self.show_game_end()

    def action_discard(self) -> None:
        seat, card = self.session.seat, self.one_card()
        if seat is not None and card is not None:
            self.send(Discard(seat, card))

    def action_hint(self) -> None:
        """Show (and select) one meld or lay-off the server lists; pressed again, the next one."""
        v = self.view
        hints = _kinds(self.legal, LayContract) or _kinds(self.legal, LaySet, LayOff)
        hints.sort(key=_shed, reverse=True)  # stable: ties keep the server's order
        if v is None or not hints:
            self.say(NOTHING_TO_LAY)
            return
        hint = hints[self.hint_index % len(hints)]
        self.hint_index += 1
        st, wild = self.card_style, v.spec.wild_ranks
        self.selected.clear()
        self.builder = []
        text = Text(f"Hint {(self.hint_index - 1) % len(hints) + 1}/{len(hints)}: ")
        if isinstance(hint, LayContract):
            self.builder = list(hint.sets)
            for i, s in enumerate(hint.sets):
                text.append(" / " if i else "")
                text.append_text(st.cards(s, wild))
            text.append(" is in the builder: m or enter lays it")
        elif isinstance(hint, LaySet):
            self.selected = {c.id for c in hint.cards}
            text.append_text(st.cards(hint.cards, wild))
            text.append(" selected: m lays it as a set")
        elif isinstance(hint, LayOff):
            self.selected = {hint.card.id}
            self.cursor_id = hint.card.id
            text.append_text(st.rich(hint.card, wild=hint.card.rank in wild))
            text.append(f" selected: {hint.set_id} lays it off on set [{hint.set_id}]")
        self.refresh_table()
        message = self.query_one("#message", Static)
        message.set_class(False, "error")
        message.update(text)

    # --- actions: the table ----------------------------------------------------------------------

    def action_add_bot(self, strategy: str) -> None:
        if self.host is not None:
            self.run_worker(self._host_call("add", strategy), group="host", exit_on_error=False)

    def action_start(self) -> None:
        if self.host is not None:
            self.run_worker(self._host_call("start", ""), group="host", exit_on_error=False)

    async def _host_call(self, what: str, strategy: str) -> None:
        assert self.host is not None
        try:
            if what == "add":
                await self.connection.add_bot(self.host.table_id, self.host.host_token, strategy)
            else:
                await self.connection.start(self.host.table_id, self.host.host_token)
        except ServerError as error:
            self.say(error.message, error=True)

    def action_chat(self) -> None:
        """Open the chat line (it exists only while open, so that it never takes the table's keys)."""
        if not self.query("#chat"):
            chat = Input(id="chat", placeholder="Say something to the table (enter sends, esc closes)")
            self.mount(chat, before=self.query_one(Footer))
            chat.focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.remove()
        if text:
            self.run_worker(self._chat(text), group="chat", exit_on_error=False)

    async def _chat(self, text: str) -> None:
        try:
            await self.session.chat(text)
        except ServerError as error:
            self.say(error.message, error=True)

    def action_help(self) -> None:
        extra: list[tuple[str, str]] = []
        if self.host is not None and self.waiting:
            extra += [("b / B", "add a greedy / random bot"), ("g", "start the game")]
        extra.append(("L", "leave the table") if self.leave_to_lobby else ("q", "quit"))
        self.app.push_screen(HelpScreen(self.view, self.card_style, extra, watching=self.session.seat is None))

    def action_leave(self) -> None:
        if not self.leave_to_lobby:
            return
        v = self.view
        seated = self.session.seat is not None and not self.ended
        if seated and (v is None or v.phase is not Phase.GAME_OVER):
            def answered(yes: bool | None) -> None:
                if yes:
                    self.run_worker(self._leave(), group="leave", exit_on_error=False)
            self.app.push_screen(ConfirmScreen("Leave the table? Your seat is given up."), answered)
        else:
            self.app.pop_screen()

    async def _leave(self) -> None:
        try:
            await self.session.leave()
        except ServerError as error:
            self.notify(error.message, severity="error")
        self.workers.cancel_group(self, "stream")
        self.app.pop_screen()
