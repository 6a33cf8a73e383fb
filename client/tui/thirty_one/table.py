"""Thirty-One's part of the table screen (docs/THIRTY-ONE.md): the discard and the stock, the widow, the middle
hands or the table cards where the preset has them, your three cards with their value, the keys of its moves
(r t x k s e, 1 2), what its prompt and header say, each seat's lives (or tokens, or points), the free ride,
who knocked and who still has a turn in the seats strip, and its deal-end (showdown) and game-end screens.

What is drawn comes from the frame's ``TableView``; what may be done comes from the server's legal commands
(``view.legal``) alone: a key whose command is not listed is hidden from the footer and says why not. The
moves of the presets with more than draw-or-knock (banking's widow, switch's middle hands, stop_the_bus'
table cards) are listed, each in words, in one chooser (``e``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from tenpennies.engine.cards import Card
from tenpennies.engine.thirty_one.commands import (
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
)
from tenpennies.engine.thirty_one.events import (
    CardsReceived,
    DealEnded,
    DealStarted,
    Discarded,
    DiscardTaken,
    Event,
    GameEnded,
    Knocked,
    PlayerInfo,
    Stood,
    TurnStarted,
)
from tenpennies.engine.thirty_one.hands import brag_name, hand_value
from tenpennies.engine.thirty_one.narrate import PRESET_TITLES, value_text
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.engine.thirty_one.view import Phase, SeatView

from ...plots import Chart, running_deals
from ..cards import CardStyle
from ..choose import ChooseScreen
from ..common import count
from ..footer import KeysFooter
from ..game import Frame, GameTable
from ..guide import GuideScreen
from ..hand import Hand
from ..help import SCROLL_KEYS, BesideTheLog, GameEnd, KeysDialog
from ..line import Line
from ..plot import ScorePlot
from ..seats import SeatLine, SeatsHead

CHOICES = (ExchangeWidow, ExchangeMiddle, SwapHand, Renew, TableSwap, TableSwapAll)
"""The moves the chooser (``e``) lists: each preset's own, beside drawing and knocking."""
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, None: 4}
FACE_DOWN = "##"

KEYS = (
    ("r or enter", "draw the top of the stock (then discard)"),
    ("t", "take the top of the discard pile (then discard)"),
    ("← →", "choose a card of your hand"),
    ("x or enter", "discard the card under the cursor"),
    ("k", "knock: the others have one more turn, then hands are shown"),
    ("s", "stand: after a knock, keep your hand and pass"),
    ("e", "exchange: the widow, the middle hands or the table cards"),
    ("1 / 2", "switch, the dealer: keep your first hand or your second"),
    ("c / ?", "chat / this help"),
)
WATCHER_KEYS = (("c / ?", "chat / this help"), ("enter", "the result, once the game is over"))


def scoring_head(rules: Rules) -> str:
    return {"lives": "Lives", "tokens": "Tokens", "points": "Points"}[rules.scoring]


def standing(p: PlayerInfo, rules: Rules) -> str:
    """A seat's figure as its preset counts it: lives (``free ride`` on its last, free, life (T31-7), ``out``),
    tokens, points."""
    if p.out:
        return "out"
    match rules.scoring:
        case "tokens":
            return str(p.tokens)
        case "points":
            return str(p.points)
    return "free ride" if p.riding else str(p.lives)


def worth(cards: Sequence[Card], rules: Rules) -> str:
    """What a hand is worth as the showdown compares it: its value (T31-3), or its brag class (T31-3.4)."""
    if len(cards) != 3 and rules.brag:
        return ""
    return brag_name(cards) if rules.brag else value_text(hand_value(cards, rules))


def what_happened(end: DealEnded, seat: int, rules: Rules) -> str:
    """What the deal did to ``seat``, in a few words."""
    parts = []
    if end.lost[seat]:
        parts.append(f"lost {end.lost[seat]} li{'fe' if end.lost[seat] == 1 else 'ves'}")
    if end.scored[seat] or (rules.scoring == "points" and end.how != "dead" and end.hands[seat]):
        parts.append(f"+{end.scored[seat]} point{'' if end.scored[seat] == 1 else 's'}")
    if end.paid[seat]:
        parts.append(f"paid {end.paid[seat]}")
    if end.won[seat]:
        parts.append(f"won {end.won[seat]} token{'' if end.won[seat] == 1 else 's'}")
    if seat in end.went_out:
        parts.append("out of the game")
    return ", ".join(parts) or "-"


class ThirtyOneTable(GameTable):
    """Thirty-One at the table: the middle of the table, your hand and its value, the keys to play."""

    DEFAULT_CSS = """
    ThirtyOneTable { height: auto; }
    ThirtyOneTable #t31-table { height: 1; padding: 0 1; }
    ThirtyOneTable #t31-extra { height: auto; padding: 0 1; }
    ThirtyOneTable Hand { height: auto; padding: 0 1; }
    """

    MOVE_KEYS: ClassVar[frozenset[str]] = frozenset({"r", "t", "x", "k", "s", "e", "1", "2"})

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "draw", "Draw"),
        Binding("t", "take", "Take"),
        Binding("x", "discard", "Discard"),
        Binding("k", "knock", "Knock"),
        Binding("s", "stand", "Stand"),
        Binding("e", "exchange", "Exchange"),
        Binding("1", "keep(0)", "Keep 1st"),
        Binding("2", "keep(1)", "Keep 2nd"),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("enter", "confirm", "Confirm", show=False),
    ]

    def __init__(self, frame: Frame, *, id: str | None = None) -> None:
        super().__init__(frame, id=id)
        self.card_style: CardStyle = frame.card_style
        self.cursor_id: int | None = None
        self.shown: list[Card] = []       # the hand as drawn, by suit
        self.fresh: set[int] = set()      # cards just received, marked until this seat's next move
        self.deal_ends: dict[int, DealEnded] = {}  # every deal's end seen, by deal: the running figures' picture

    def compose(self) -> ComposeResult:
        yield Line(id="t31-table")
        extra = Line(id="t31-extra")
        extra.display = False
        yield extra
        yield Hand(self.card_style, id="hand")

    # --- the table as the frame holds it ---------------------------------------------------------

    @property
    def view(self) -> SeatView | None:
        """The game as the screen last drew it (the frame's ``view``); ``tv.view`` is as last folded."""
        return self.frame.view

    @property
    def over(self) -> bool:
        v = self.view
        return v is not None and v.phase is Phase.GAME_OVER

    def who(self, seat: int) -> str:
        return self.frame.who(seat)

    def text(self, card: Card | None) -> str:
        return self.card_style.text(card) if card is not None else FACE_DOWN

    # --- events ----------------------------------------------------------------------------------

    def turn_of_another(self, event: Event) -> bool:
        return isinstance(event, TurnStarted) and event.seat != self.seat

    def folded(self, event: Event, before: SeatView | None) -> None:
        """After the frame folded ``event``: the cards just received, the message line, a deal's or the
        game's end."""
        self.mark_received(event, {c.id for c in before.hand} if before is not None else set())
        if isinstance(event, (TurnStarted, DealStarted, GameEnded)):
            self.say("")  # what the message line said was about the turn before
        if isinstance(event, DealEnded):
            self.deal_ends[event.deal] = event
            self.frame.redraw()  # the table behind the dialog as the deal ended
            self.show_deal_end()
        elif isinstance(event, GameEnded):
            self.frame.redraw()
            self.show_game_end()

    def line_style(self, event: Event) -> str:
        return "bold" if isinstance(event, (DealEnded, GameEnded, Knocked)) else ""

    def mark_received(self, event: Event, before: set[int]) -> None:
        """Mark the cards this seat just took (drawn, taken, exchanged) until its next move; the cursor goes
        to the first of them."""
        seat, v = self.seat, self.tv.view
        if seat is None or v is None:
            return
        if isinstance(event, DealStarted):
            self.fresh.clear()
            return
        if getattr(event, "seat", None) != seat:  # (an event of no seat's, or another's)
            return
        if isinstance(event, CardsReceived) and event.reason in ("deal", "spare"):
            return
        if isinstance(event, (Discarded, Knocked, Stood)):
            self.fresh.clear()
            return
        new = [c.id for c in v.hand if c.id not in before]
        if new:
            self.fresh = set(new)
            self.cursor_id = new[0]
            if isinstance(event, DiscardTaken) and len(v.hand) > 1:
                # the card taken may not go straight back (T31-4.2): the cursor goes to the card whose discard
                # leaves the best hand of the others instead
                others = [c for c in v.hand if c.id not in self.fresh]
                self.cursor_id = max(others, key=lambda c: hand_value([o for o in v.hand if o.id != c.id],
                                                                      v.rules)).id if others else new[0]

    # --- what the seat may do --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        match action:
            case "draw":
                return self.can(DrawStock)
            case "take":
                return self.can(TakeDiscard)
            case "discard":
                return self.can(Discard)
            case "knock":
                return self.can(Knock)
            case "stand":
                return self.can(Stand)
            case "exchange":
                return self.can(*CHOICES)
            case "keep":
                return self.can(KeepHand)
            case "cursor":
                return self.seat is not None and bool(self.shown)
        return True

    def on_key(self, event: events.Key) -> None:
        """A move's key that no binding takes now (its command is not listed) says why, on the message line."""
        if event.key not in self.MOVE_KEYS or isinstance(self.screen.focused, Input):
            return
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        self.say(self.why_not(event.key))

    def why_not(self, key: str) -> str:
        v, seat = self.view, self.seat
        if seat is None:
            return "watching: only the seated play"
        if v is None:
            return "the game has not started yet"
        if v.phase is Phase.GAME_OVER:
            return "the game is over: enter shows the result"
        if v.players[seat].out:
            return "you are out of the game: watch it to its end"
        if not self.legal:
            if v.phase is Phase.KEEP:
                return f"not your turn: {self.who(v.turn_seat)} is choosing which hand to keep"
            return f"not your turn: {self.who(v.turn_seat)} is playing"
        if key == "k" and v.knocker is not None:
            return f"T31-4.1: {self.who(v.knocker)} knocked already: one knock a deal"
        if key == "k" and self.can(Discard):
            return "T31-4.1: you drew: discard now [x]; a knock is instead of drawing"
        if key == "k":
            return "T31-4.3: no knocking on the deal's first round of turns"
        if key == "s":
            return "T31-6.1: you stand only on your last turn, after a knock"
        return f"not now: {self.what_now(v)}"

    def what_now(self, v: SeatView) -> str:
        """The moves open to this seat, in a few words with their keys."""
        doable = []
        if self.can(KeepHand):
            return "keep your first hand [1] or your second [2]"
        if self.can(Discard):
            return "discard a card [x]" + (f" (not the {self.text(v.taken)} you took)" if v.taken and not
                                            v.rules.discard_taken else "")
        if self.can(DrawStock):
            doable.append("draw [r]")
        if self.can(TakeDiscard):
            doable.append(f"take the {self.text(v.discard_top)} [t]")
        if self.can(*CHOICES):
            doable.append("exchange [e]")
        if self.can(Knock):
            doable.append("knock [k]")
        if self.can(Stand):
            doable.append("stand [s]")
        return ", ".join(doable)

    # --- drawing ---------------------------------------------------------------------------------

    def redraw(self) -> None:
        self.sync_hand()
        v = self.view
        self.query_one("#t31-table", Line).show(self.table_line())
        extra = self.query_one("#t31-extra", Line)
        text = self.extra_text()
        extra.display = bool(text.plain)
        extra.show(text)
        hand = self.query_one(Hand)
        hand.display = self.seat is not None and v is not None
        hand.show(self.shown, self.cursor_index(), set(), frozenset(), "(no cards in hand)", self.fresh)

    def sync_hand(self) -> None:
        """The hand by suit (a hand's value is its suit's), the cursor on the card it was on."""
        v = self.view
        hand = list(v.hand) if v is not None and self.seat is not None else []
        hand.sort(key=lambda c: (SUIT_ORDER[c.suit], -c.rank))
        ids = [c.id for c in hand]
        if self.cursor_id not in ids:
            place = next((i for i, c in enumerate(self.shown) if c.id == self.cursor_id), 0)
            self.cursor_id = ids[min(place, len(ids) - 1)] if ids else None
        self.fresh &= set(ids)
        self.shown = hand

    def cursor_index(self) -> int:
        return next((i for i, c in enumerate(self.shown) if c.id == self.cursor_id), 0)

    def cursor_card(self) -> Card | None:
        return next((c for c in self.shown if c.id == self.cursor_id), None)

    def table_line(self) -> Table:
        """The discard pile's top and the stock on the left; your hand's worth (or Watching) on the right."""
        v, st = self.view, self.card_style
        left, right = Text(), Text(style="dim")
        if v is not None:
            if v.rules.draws:
                left.append("Discard ")
                if v.discard_top is not None:
                    left.append_text(st.rich(v.discard_top))
                else:
                    left.append("none", style="dim")
                left.append(f" (pile {len(v.pile)})", style="dim")
                left.append(f"  {st.dot}  ")
            left.append(f"Stock {v.stock_size}")
            if v.rules.scoring == "tokens":
                left.append(f"  {st.dot}  Centre {v.centre}")
            if self.seat is not None and v.hand:
                right = Text()
                if v.rules.brag:
                    right.append(f"Your hand: {brag_name(v.hand) if len(v.hand) == 3 else '?'}", style="bold")
                else:
                    right.append(f"Your hand is worth {value_text(v.value)}", style="bold")
            elif self.seat is None:
                right.append("Watching")
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_row(left, right)
        return grid

    def extra_text(self) -> Text:
        """What the preset puts on the table besides the pile: the widow, the middle hands, the table cards,
        and the switch dealer's second hand while it chooses."""
        v, st = self.view, self.card_style
        out = Text(no_wrap=True, overflow="ellipsis")
        if v is None:
            return out

        def cards(row: Sequence[Card | None]) -> None:
            for i, c in enumerate(row):
                out.append(" " if i else "")
                if c is None:
                    out.append(FACE_DOWN, style="dim")
                else:
                    out.append_text(st.rich(c))

        if v.widow:
            out.append("Widow ", style="bold")
            cards(v.widow)
            if all(c is None for c in v.widow):
                out.append("  (face down until the first exchange)", style="dim")
        for m in v.middle:
            out.append("   " if m.place else "")
            out.append(f"Middle {m.place}: ", style="bold")  # numbered as the log numbers them, from 0
            cards(m.cards)
            out.append(" up" if m.face_up else " down", style="dim")
        if v.table_cards:
            out.append("Table cards ", style="bold")
            cards(v.table_cards)
        if v.spare:
            out.append("\n" if out.plain else "")
            out.append("Your second hand ", style="bold")
            cards(v.spare)
            if not v.rules.brag:
                out.append(f"  worth {value_text(hand_value(v.spare, v.rules))}", style="dim")
        return out

    def title(self, v: SeatView) -> str:
        return f"Thirty-One, {PRESET_TITLES.get(v.rules.preset, v.rules.preset)}"

    def header(self, width: int) -> Text:
        v, dot = self.view, f" {self.card_style.dot} "
        assert v is not None
        deal = f"deal {v.deal}"
        if v.rules.scoring in ("tokens", "points"):
            deal += f" of {v.rules.deals_for(v.seats)}"
        parts = [self.title(v), deal, f"dealer {self.who(v.dealer)}"]
        if v.knocker is not None:
            parts.append(f"{self.who(v.knocker)} knocked")
        if len(dot.join(parts)) > width:
            parts[0] = "Thirty-One"
        return Text(dot.join(parts), style="bold", no_wrap=True, overflow="ellipsis")

    def seat_lines(self, lines: tuple[SeatLine, ...], width: int) -> tuple[tuple[SeatLine, ...], SeatsHead]:
        """Each seat's cards and lives (tokens, points), the turn mark, and what it did this deal: dealer,
        knocked, still to have its last turn."""
        v = self.view
        assert v is not None
        out = []
        for s, line in enumerate(lines):
            p = v.players[s]
            active = v.phase is not Phase.GAME_OVER and s in v.to_act
            mark = self.card_style.turn_mark if active else " "
            flags = ("out", *line.flags) if p.out else ("free ride", *line.flags) if p.riding else line.flags
            pieces = []
            if s == v.dealer:
                pieces.append(Text("dealer", style="dim"))
            if s == v.knocker:
                pieces.append(Text("knocked", style="bold"))
            elif v.knocker is not None and active:
                pieces.append(Text("last turn", style="bold"))
            elif s in v.final_turns:
                pieces.append(Text("still to play"))
            elif v.knocker is not None and not p.out:
                pieces.append(Text("played", style="dim"))
            figure = "0" if p.riding else standing(p, v.rules)  # (the flags say the free ride)
            out.append(SeatLine(line.name, flags, mark, active, f"{p.hand_size:>5} {figure:>6}", tuple(pieces)))
        return tuple(out), SeatsHead(f"Cards {scoring_head(v.rules):>6}", "This deal")

    def where(self) -> str:
        v = self.tv.view
        if v is None:
            return ""
        if v.phase is Phase.GAME_OVER:
            return f": {self.title(v)}, the game is over"
        whose = "your turn" if v.turn_seat == v.seat else f"{self.who(v.turn_seat)}'s turn"
        return f": {self.title(v)}, deal {v.deal}, {whose}"

    def prompt(self, clock: str) -> Text:
        tv, v, dot = self.tv, self.view, f" {self.card_style.dot} "
        assert v is not None
        if v.phase is Phase.GAME_OVER:
            won = " and ".join(self.who(s) for s in tv.winners) or "?"
            return Text(f"Game over: {won} won{dot}enter shows the result", style="bold")
        if self.seat is not None and self.legal:
            if v.phase is Phase.AGAIN:
                head = "You renewed face down: one more move"
            elif v.knocker is not None:
                head = f"Your last turn ({self.who(v.knocker)} knocked)"
            elif v.phase is Phase.KEEP:
                head = "You dealt yourself two hands"
            else:
                head = "Your turn"
            return Text(f"{head}: {self.what_now(v)}{clock}", style="bold", no_wrap=True, overflow="ellipsis")
        return Text(self.whose(v) + clock, no_wrap=True, overflow="ellipsis")

    def whose(self, v: SeatView) -> str:
        name = self.who(v.turn_seat)
        if v.phase is Phase.KEEP:
            return f"{name} is choosing which hand to keep"
        if v.phase is Phase.DISCARD:
            return f"{name} is discarding"
        if v.knocker is not None:
            return f"{name}: last turn ({self.who(v.knocker)} knocked)"
        return f"{name} is playing"

    # --- screens over the table ------------------------------------------------------------------

    def help_screen(self, extra: list[tuple[str, str]], watching: bool) -> Screen[bool]:
        return ThirtyOneHelp(self.view, extra, watching=watching)

    def guide_screen(self) -> Screen[None] | None:
        v = self.view
        return GuideScreen(guide_pages(v.rules if v is not None else Rules()), GUIDE_TITLE)

    def show_deal_end(self) -> None:
        v = self.tv.view
        if v is None or v.last_deal is None:
            return
        end = self.reused(DealEndScreen, lambda: DealEndScreen(v.rules, self.card_style.text, v.seats))
        self.show_over_table(end.show(v.last_deal, self.names(v), self.running(v)))

    def show_game_end(self) -> None:
        v = self.tv.view
        if v is None:
            return
        self.show_over_table(ThirtyOneGameEndScreen(v, self.tv.winners, self.names(v), self.card_style.text,
                                                    self.running(v),
                                                    review=self.frame.open_review if self.seat is not None else None,
                                                    history=self.frame.your_games))

    def running(self, v: SeatView) -> Chart | None:
        """Each seat's lives (tokens, points) by deal, over the deals' ends seen (None before the first)."""
        if not self.deal_ends:
            return None
        rules = v.rules
        start = {"lives": rules.lives, "tokens": rules.tokens, "points": 0}[rules.scoring]
        ends = [self.deal_ends[d] for d in sorted(self.deal_ends)]
        return running_deals(ends, self.names(v), rules.scoring, [start] * v.seats)

    def names(self, v: SeatView) -> list[str]:
        return [self.who(s) for s in range(v.seats)]


    # --- actions ---------------------------------------------------------------------------------

    def action_draw(self) -> None:
        self.play(DrawStock)

    def action_take(self) -> None:
        self.play(TakeDiscard)

    def action_knock(self) -> None:
        self.play(Knock)

    def action_stand(self) -> None:
        self.play(Stand)

    def action_keep(self, hand: int) -> None:
        command = next((c for c in self.legal if isinstance(c, KeepHand) and c.hand == hand), None)
        if command is not None:
            self.send(command)

    def action_discard(self) -> None:
        card = self.cursor_card()
        if card is None or self.seat is None:
            return
        command = Discard(self.seat, card)
        if command not in self.legal:  # the card just taken (T31-4.2): the server would say the same
            self.say(f"T31-4.2: the {self.text(card)} was just taken from the pile: discard another card",
                           error=True)
            return
        self.send(command)

    def action_cursor(self, step: int) -> None:
        if self.shown:
            self.cursor_id = self.shown[(self.cursor_index() + step) % len(self.shown)].id
            self.frame.redraw()

    def action_confirm(self) -> None:
        v = self.view
        if self.can(Discard):
            self.action_discard()
        elif self.can(DrawStock):
            self.play(DrawStock)
        elif v is not None and v.phase is Phase.GAME_OVER:
            self.show_game_end()

    def action_exchange(self) -> None:
        v = self.view
        choices = [c for c in self.legal if isinstance(c, CHOICES)]
        if v is None or not choices:
            return
        cursor = self.cursor_card()
        choices.sort(key=lambda c: cursor not in given(c))  # stable: the moves giving the cursor's card first

        def chosen(command: Command | None) -> None:
            if command is not None:
                self.send(command)
        self.app.push_screen(ChooseScreen([(self.describe(c, v), c) for c in choices]), chosen)

    def describe(self, command: Command, v: SeatView) -> Text:
        """A move of the chooser in words, with the hand's worth after it where that is known."""
        st = self.card_style
        out = Text()
        after: Sequence[Card | None] | None = None
        match command:
            case ExchangeWidow(give=give, take=take):
                taken = [v.widow[p] if p < len(v.widow) else None for p in take]
                out.append(f"give {' '.join(self.text(c) for c in give)} for the widow's "
                           f"{' '.join(self.text(c) for c in taken)}")
                if any(c is None for c in taken):
                    places = ", ".join(str(p + 1) for p in take)
                    out.append(f" (card{'s' if len(take) > 1 else ''} {places}, face down)")
                after = (*(c for c in v.hand if c not in give), *taken)
            case ExchangeMiddle(card=given, place=place, slot=at):
                here = v.middle[place].cards[at] if place < len(v.middle) else None
                which = ("first", "second", "third")[at] if at < 3 else str(at)
                out.append(f"give {self.text(given)} for the {which} card of middle hand {place}: "
                           f"{self.text(here) if here is not None else 'face down'}")
                after = (*(c for c in v.hand if c != given), here)
            case SwapHand(place=place):
                hand = v.middle[place].cards if place < len(v.middle) else ()
                out.append(f"swap your hand for middle hand {place}: {' '.join(self.text(c) for c in hand)}")
                after = hand
            case Renew(place=place, face_up=face_up):
                out.append(f"renew middle hand {place} from the stock, face " +
                           ("up (your turn ends)" if face_up else "down (then one more move)"))
            case TableSwap(give=give, take=take):
                out.append(f"give {self.text(give)} for the table's {self.text(take)}")
                after = (*(c for c in v.hand if c != give), take)
            case TableSwapAll():
                out.append(f"give all three for the table's {st.dot} {' '.join(self.text(c) for c in v.table_cards)}")
                after = v.table_cards
        if after is not None and all(c is not None for c in after):
            known = [c for c in after if c is not None]
            out.append(f"  -> {worth(known, v.rules)}", style="dim")
        return out

    def sent(self, command: Command) -> None:
        self.fresh.clear()


def given(command: Command) -> tuple[Card, ...]:
    """The cards of the hand a move gives away."""
    match command:
        case ExchangeMiddle(card=card):
            return (card,)
        case TableSwap(give=card):
            return (card,)
        case ExchangeWidow(give=cards):
            return cards
    return ()


class ThirtyOneHelp(KeysDialog):
    """The keys of Thirty-One's table and the preset's rules in a few lines. Any key closes it; ``G`` closes
    it with True: open the guide to the game."""

    def __init__(self, view: SeatView | None, extra: Sequence[tuple[str, str]] = (), *, watching: bool = False) -> None:
        super().__init__()
        self.seat_view = view
        self.extra = extra
        self.watching = watching

    @property
    def has_guide(self) -> bool:
        return not self.watching  # (a watcher has no guide)

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for key, what in (*(WATCHER_KEYS if self.watching else KEYS), *self.extra):
            grid.add_row(key, what)
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(grid)
            if self.seat_view is not None:
                yield Static(rules_text(self.seat_view.rules), classes="rules")
            yield Static("Any key closes this help." + ("" if self.watching else " G: the guide to the game."),
                         classes="dim")
        yield KeysFooter()


GUIDE_TITLE = "Thirty-One"


def guide_pages(rules: Rules) -> tuple[tuple[str, str], ...]:
    """The first-game guide's pages for the table's preset: what a hand is worth, a turn, the knock and the
    showdown, the blitz; each of the game's own words (worth, lives, the free ride, tokens, points, the
    showdown, the stock, the widow, the middle hands, the table cards, knocking, standing, the last turn, a
    blitz) said what it means where the guide first uses it."""
    if rules.brag:
        worth_ = ("Everyone holds 3 cards, which rank as in three-card brag, best first: a prial (three of a "
                  "kind), a running flush (a run of one suit), a run (three in a row), a flush (three of one "
                  "suit), a pair, then the highest card. The line over your hand says what yours is.")
    else:
        worth_ = ("Everyone holds 3 cards. A hand is worth the total of its cards of one suit, 31 at most: ace 11, "
                  "K Q J and 10 each 10, the others their number (a K♠ alone, 10, beats 5♥ 3♥, 8)"
                  + ("; three of a kind is worth 30½" if rules.three_of_a_kind == "30.5" else "")
                  + ". The line over your hand says what yours is worth.")
    deals = f"{rules.deals} deals" if rules.deals else "every player has dealt twice"
    match rules.scoring:
        case "tokens":
            cost = (f"Each player has {rules.tokens} tokens (the seats' Tokens) and puts one into the centre before "
                    "each deal. At a deal's end every hand is shown, the showdown, and the highest hand takes the "
                    f"centre. {'After ' + deals if rules.deals else 'Once ' + deals}, the most tokens win; a player "
                    "who cannot put one in is out.")
        case "points":
            cost = ("Nobody is out. At a deal's end every hand is shown, the showdown: the highest hand scores 3 "
                    "points, the middle ones 2, the lowest 1 (the seats' Points). "
                    f"{'After ' + deals if rules.deals else 'Once ' + deals}, the most points win.")
        case _:
            free = (" With none left you play on a free ride: your next loss puts you out." if rules.free_ride
                    else " With none left you are out.")
            cost = (f"Each player has {count(rules.lives, 'life') if rules.lives == 1 else f'{rules.lives} lives'} "
                    "(the seats' Lives). At a deal's end every hand is shown, the showdown, and the lowest hand "
                    f"loses a life.{free} The last player in wins.")
    if rules.draws:
        turn = ("On your turn draw the top card of the stock (the face-down pile) with r, or take the top of the "
                "discard pile with t; then discard a card: ← → to it, and x.")
        if rules.preset == "banking":
            turn += ("\n\nOr exchange one, two or three of your cards for the widow's with e: the widow is three "
                     "cards dealt face down in the middle, face up for all from the first exchange on.")
    elif rules.preset == "switch":
        turn = ("There is no drawing. The dealer first keeps one of two hands (1 or 2); the other lies face up in "
                "the middle, by a third hand face down: the middle hands. On your turn, e lists what you may do: "
                "swap a card or your whole hand with a middle hand, or renew one from the stock (the face-down pile).")
    else:
        turn = ("There is no drawing: three cards lie face up in the middle, the table cards. On your turn, e "
                "lists what you may do: swap one of your cards, or all three, with the table cards.")
    if rules.scoring == "lives":
        two = "and two lives" if rules.knocker_tie == "two" else "two lives if strictly the lowest"
        loss = f"The lowest hand loses a life; but a knocker among the lowest loses alone, {two}."
    elif rules.scoring == "points":
        loss = "A knocker scores 4 for the highest hand, but 1 for a middle one and nothing for the lowest."
    else:
        loss = "The highest hand takes the centre, whoever knocked."
    knock = ("Instead of your move you may knock, with k, when you think your hand beats the others'. Every other "
             "player then has one last turn (the seats' list says last turn): they may play as usual, or stand, "
             "with s: keep their hand and pass. Then comes the showdown: every hand is shown. " + loss)
    keys = "? lists every key, and G there reopens this guide."
    pages = [("The game", f"{worth_}\n\n{cost}"), ("A turn", turn)]
    if rules.blitz:
        what = {"lives": "every other player loses a life",
                "tokens": "every other player puts one more token in the centre, and the player with 31 takes "
                          "it all",
                "points": "the player with 31 scores 6 points"}[rules.scoring]
        pages += [("Knocking", knock),
                  ("A blitz", f"A hand worth exactly 31 is a blitz: it is shown at once and the deal ends: {what}."
                              f"\n\n{keys}")]
    else:
        pages.append(("Knocking", f"{knock}\n\n{keys}"))
    return tuple(pages)


def rules_text(rules: Rules) -> str:
    """The preset in a few sentences: what a hand is worth and what a deal costs."""
    worth_ = ("Hands rank as in three-card brag: prial, running flush, run, flush, pair, high card."
              if rules.brag else
              "A hand is worth its best suit's total (ace 11, pictures 10)" +
              (", three of a kind 30½" if rules.three_of_a_kind == "30.5" else "") + "; 31 is a blitz.")
    match rules.scoring:
        case "tokens":
            cost = ("Everyone antes a token a deal; the best hand takes the centre. "
                    f"{count(rules.tokens, 'token')} each, {rules.deals or 'twice the seats in'} deals.")
        case "points":
            cost = "Nobody is out: the best hand scores 3 (the knocker 4), the middle 2, the lowest 1 (the knocker 0)."
        case _:
            lives = "1 life" if rules.lives == 1 else f"{rules.lives} lives"
            cost = (f"The lowest hand loses a life (a knocker who is lowest loses two). {lives} each"
                    + (", then a free ride" if rules.free_ride else "") + "; the last seat in wins.")
    return f"{worth_} {cost}"


class DealEndScreen(BesideTheLog, inherit_bindings=False):
    """The showdown (or a blitz, or a dead deal): every hand shown, its worth, what each seat lost or won.
    Made at a table's first deal's end and shown again, its lines changed in place, for each one after
    (``show``), as Ten Pennies' round's end is."""

    BINDINGS: ClassVar[list[BindingType]] = [*SCROLL_KEYS, Binding("enter", "close", "Continue"),
                                             Binding("q", "app.quit", "Quit")]

    def __init__(self, rules: Rules, card: Callable[[Card], str], seats: int) -> None:
        super().__init__()
        self.rules = rules
        self.card = card
        self.headline = Static()
        self.hands = Static()
        self.plot = ScorePlot(None, reserve=max(14, 9 + seats))

    def show(self, end: DealEnded, names: list[str], running: Chart | None = None) -> DealEndScreen:
        """This deal's end, in place of the one shown before (if any); ``running``: each seat's figure by deal
        so far. Returns the screen."""
        self.headline.update(Text(deal_title(end, names), style="bold"))
        if end.how != "dead":
            self.hands.update(showdown_table(end, self.rules, names, self.card))
        else:
            self.hands.update("Nobody loses or scores; no hand is shown (T31-4.7, T31-9.4).")
        self.plot.show(running)
        if self.is_mounted:  # (shown again: whether it scrolls is known once laid out anew)
            self.call_after_refresh(self.refresh_bindings)
        return self

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False):
            yield self.headline
            yield self.hands
            yield self.plot
            yield Static("Any key continues.", classes="dim")
        yield KeysFooter()


def deal_title(end: DealEnded, names: Callable[[int], str] | list[str]) -> str:
    name = names.__getitem__ if isinstance(names, list) else names
    match end.how:
        case "blitz":
            assert end.blitzer is not None
            return f"Deal {end.deal}: {name(end.blitzer)} has 31, a blitz!"
        case "dead":
            return f"Deal {end.deal}: a dead deal, the stock ran out"
    knocker = f"{name(end.knocker)} knocked" if end.knocker is not None else "the knock"
    return f"Deal {end.deal} over: {knocker}; every hand shown"


def showdown_table(end: DealEnded, rules: Rules, names: list[str], card: Callable[[Card], str]) -> Table:
    table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    table.add_column("Player", no_wrap=True)
    table.add_column("Hand", no_wrap=True)
    table.add_column("Worth", no_wrap=True)
    table.add_column("This deal", ratio=1)
    table.add_column(scoring_head(rules), justify="right", no_wrap=True)
    for s, hand in enumerate(end.hands):
        if not hand and end.players[s].out and s not in end.went_out:
            continue  # out before this deal
        value = (brag_name(hand) if rules.brag else value_text(end.values[s])) if hand else ""
        if s == end.knocker:
            value += " (knocked)"
        style = "bold" if end.places[s] == 1 else ""
        table.add_row(names[s], " ".join(card(c) for c in hand) or "-", value, what_happened(end, s, rules),
                      standing(end.players[s], rules), style=style)
    return table


class ThirtyOneGameEndScreen(GameEnd):
    """The game's end: the last deal's hands, then every seat's lives (tokens, points) and the winners."""

    def __init__(self, view: SeatView, winners: tuple[int, ...], names: list[str], card: Callable[[Card], str],
                 running: Chart | None = None, review: Callable[[], object] | None = None,
                 history: Callable[[], object] | None = None) -> None:
        super().__init__(review, history)
        self.running = running  # each seat's figure by deal
        self.seat_view = view
        self.winners = winners or view.winners
        self.names = names
        self.card = card

    def compose(self) -> ComposeResult:
        v, names = self.seat_view, self.names
        won = " and ".join(names[s] for s in self.winners) or "nobody"
        verb = "win" if won == "You" or len(self.winners) > 1 else "wins"
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column(scoring_head(v.rules), justify="right")
        for s in range(v.seats):
            mark = "winner" if s in self.winners else ""
            table.add_row(mark, names[s], standing(v.players[s], v.rules), style="bold" if mark else "")
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(Text(f"Game over: {won} {verb}.", style="bold"))
            if v.last_deal is not None:
                yield Static(Text(deal_title(v.last_deal, names), style="dim"))
                if v.last_deal.how != "dead":
                    yield Static(showdown_table(v.last_deal, v.rules, names, self.card))
            yield Static(table, classes="rules")
            if self.running is not None:
                yield ScorePlot(self.running, reserve=9 + 2 * v.seats)  # the last deal's hands, the standings
            yield self.closing_hint()
        yield KeysFooter()
