"""Ten Pennies' part of the table screen: the discard line, the contract builder and the hand (with its
marks), the keys of its moves (t d b p r, space, m o x h, the digits of a set), what its prompt and header
say, its figures and sets in the seats strip, and its round-end and game-end screens.

What is drawn comes from the frame's ``TableView``; what may be done comes from the server's legal commands
(``view.legal``) alone: a key whose command is not listed is hidden from the footer and does nothing. A
command goes to the server through the frame; a refusal shows the server's words (they start with the rule)
and changes nothing here, since the view changes only from the stream.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Input

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
    Meld,
    PassBuy,
    SeatView,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies.events import (
    BuyAnswered,
    CardBought,
    CardsReceived,
    ContractLaid,
    DiscardDeclined,
    Discarded,
    DiscardTaken,
    Event,
    GameEnded,
    LaidOff,
    RoundEnded,
    RoundStarted,
    SetLaid,
    TurnStarted,
)
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.melds import set_error
from tenpennies.engine.ten_pennies.strategies import contract_distance, fits, would_buy, would_take

from ..cards import CardStyle
from ..common import count
from ..game import Frame, GameTable
from ..hand import Hand
from ..line import Line, Rows
from ..prefs import PrefsScreen
from ..seats import SeatLine, SeatsHead
from .dialogs import GameEndScreen, HelpScreen, PileScreen, RoundEndScreen, pennies
from .guide import TurnGuide

SORTS = ("rank", "suit", "own")
SUIT_ORDER = {"C": 0, "D": 1, "S": 2, "H": 3, None: 4}
NOTHING_TO_LAY = "nothing to lay now: no contract, set or lay-off is listed for you"
# auto-pass of buy offers: the modes in the order ``a`` steps through them, and their words
AUTO_PASS_WORDS = {"never": "off", "round": "this round", "unfit": "every round"}
# what an auto-pass on passes (a card that fits the hand never is)
AUTO_PASSES = "offers of cards that fit nothing in your hand"
SEATS_HEAD = SeatsHead("Cards Pennies Score", "Sets on the table")


def waits_for_more(digits: str, legal: Iterable[Command], card: Card | None) -> bool:
    """Whether the set number typed so far (``digits``) may go on: some listed lay-off of ``card`` (of any
    card, None) names a longer number that begins with it. ``1`` with 11 sets waits only when the card may
    go on set 10 or above (it lays off at once otherwise); a ``0`` begins no longer number."""
    number = int(digits)
    return number > 0 and any(isinstance(c, LayOff) and (card is None or c.card == card) and c.set_id != number
                              and str(c.set_id).startswith(digits) for c in legal)


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


class StatusLine(Rows):
    """The discard pile's top (live or dead) on the left; the hand's count and order, or Watching, on the
    right (the left cut short where both do not fit). Redrawn only when one of the two changes (``sides``, a
    reactive: its watcher draws)."""

    sides: reactive[tuple[Text, Text] | None] = reactive(None, repaint=False, init=False)

    def sides_of(self, left: Text, right: Text) -> None:
        self.sides = (left, right)

    def watch_sides(self) -> None:
        self.draw_sides()

    def draw_sides(self) -> None:
        if self.sides is None:
            return
        left, right = self.sides
        width = self.size.width
        row = left.copy()
        row.no_wrap, row.overflow = True, "crop"
        if row.cell_len + right.cell_len > width:
            row.truncate(max(0, width - right.cell_len - 1), overflow="ellipsis", pad=True)
            row.append(" ")
        row.append(" " * max(0, width - row.cell_len - right.cell_len))
        row.append_text(right)
        self.show_rows((row,))

    def on_resize(self) -> None:
        self.draw_sides()


class TenPenniesTable(GameTable):
    """Ten Pennies at the table: the discard line, the builder and the hand, and the keys to play."""

    MOVE_KEYS: ClassVar[frozenset[str]] = frozenset(
        {"t", "d", "b", "p", "r", "x", "m", "o", "h", *(str(n) for n in range(10))})

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
        Binding("a", "auto_pass", "Auto-pass", show=False),
        Binding("v", "pile", "Pile", show=False),
        Binding("comma", "prefs", "Settings", show=False),
        Binding("s", "sort", "Sort", show=False),
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

    def __init__(self, frame: Frame, *, id: str | None = None) -> None:
        super().__init__(frame, id=id)
        self.card_style: CardStyle = frame.card_style
        self.sort = "rank"
        self.order: list[int] = []           # card ids in the player's own order
        self.cursor_id: int | None = None
        self.selected: set[int] = set()
        self.builder: list[tuple[Card, ...]] = []  # sets of the contract being built
        self.pending_set = ""                # digits typed for a lay-off (after o, or past set 9)
        self.hint_index = 0
        self.shown: list[Card] = []          # the hand as drawn (builder cards left out)
        self.fresh: set[int] = set()         # cards just received, marked until this seat's next move
        self._pieces: dict[tuple[Meld, frozenset[int]], Text] = {}  # each set as drawn, by set and wild ranks
        self.pass_round: int | None = None   # auto-pass every offer of this round (``a``; not remembered)
        self.hinted: Command | None = None   # the meld or lay-off the last hint put in the builder/selection
        self._panel: tuple[list[Card], object, Text] | None = None  # the pile panel as drawn, from what
        self._hinted: tuple[Command, ...] = ()  # the decision a practice table last hinted at
        self.status_line = StatusLine(id="status")  # the regions, kept (no query at each redraw)
        self.builder_line = Line(id="builder")
        self.builder_line.display = False
        self.hand_region = Hand(self.card_style, id="hand")

    def compose(self) -> ComposeResult:
        yield self.status_line
        yield self.builder_line
        yield self.hand_region

    # --- the table as the frame holds it ---------------------------------------------------------

    @property
    def view(self) -> SeatView | None:
        """The game as the screen last drew it (the frame's ``view``); ``tv.view`` is as last folded."""
        return self.frame.view

    @property
    def over(self) -> bool:
        v = self.view
        return v is not None and v.phase is Phase.GAME_OVER

    @property
    def asked(self) -> tuple[Command, ...]:
        """The decision on the screen: what the keys may send, or what they will once a new offer's
        moment is over (``frame.paused``)."""
        v = self.view
        if self.frame.paused and v is not None and self.seat is not None:
            return v.legal
        return self.legal

    def who(self, seat: int) -> str:
        return self.frame.who(seat)

    def top(self, v: SeatView) -> str:
        return self.card_style.text(v.discard_top) if v.discard_top is not None else "card"

    # --- events ----------------------------------------------------------------------------------

    def folded(self, event: Event, before: SeatView | None) -> None:
        """After the frame folded ``event``: the cards just received, the message line, the round's end."""
        self.mark_received(event, {c.id for c in before.hand} if before is not None else set())
        if isinstance(event, (TurnStarted, RoundStarted, GameEnded)):
            self.say("")  # what the message line said was about the turn before
        tv = self.tv
        if isinstance(event, RoundEnded) and tv.view is not None:
            if event.round != tv.view.rules.rounds[-1]:  # the last round's end comes with the game's
                self.frame.redraw()  # the table behind the dialog as it ended
                self.show_round_end()
        elif isinstance(event, GameEnded):
            self.frame.redraw()
            if tv.round_end is not None:  # the whole story: the last round's hands and points, then the standings
                self.show_round_end(then=self.show_game_end)
            else:
                self.show_game_end()
        if isinstance(event, RoundStarted):
            self._pieces.clear()

    def line_style(self, event: Event) -> str:
        return "bold" if isinstance(event, (RoundEnded, GameEnded)) else ""

    def turn_of_another(self, event: Event) -> bool:
        return isinstance(event, TurnStarted) and event.seat != self.seat

    def pauses(self, legal: tuple[Command, ...]) -> bool:
        return any(isinstance(c, Buy) for c in legal)

    def auto_pass(self) -> str:
        """The auto-pass in force: ``round`` (set for the round being played), else the remembered one."""
        v = self.view
        if self.pass_round is not None and v is not None and v.round == self.pass_round:
            return "round"
        return self.frame.prefs.auto_pass

    def answer_by_itself(self) -> bool:
        """Pass a buy offer by itself while the auto-pass is on (``a``), unless the card fits the hand (alike
        to a natural in it, wild, or once down a lay-off): that offer is the player's."""
        v, seat, mode = self.view, self.seat, self.auto_pass()
        if v is None or seat is None or mode == "never" or v.discard_top is None:
            return False
        command = next((c for c in v.legal if isinstance(c, PassBuy)), None)
        if command is None:
            return False
        if fits(v, v.discard_top):
            self.say(f"Not passed by itself: the {self.top(v)} fits your hand (auto-pass passes only cards that "
                     "fit nothing)")
            return False
        self.send(command, by_itself=True)
        self.say(f"Passed the {self.top(v)} by itself: it fits nothing in your hand (auto-pass on; a turns it off)")
        return True

    def mark_received(self, event: Event, before: set[int]) -> None:
        """Mark the cards this seat just received (a draw, a take, a buy and its penalty cards) until its
        next move; the cursor goes to the card drawn, taken or bought."""
        seat, v = self.seat, self.tv.view
        if seat is None or v is None:
            return
        if isinstance(event, RoundStarted) or (isinstance(event, (Discarded, ContractLaid, SetLaid, LaidOff,
                                                                  DiscardDeclined, BuyAnswered))
                                               and event.seat == seat):
            self.fresh.clear()
            return
        if not isinstance(event, (DiscardTaken, CardBought, CardsReceived)) or event.seat != seat:
            return
        reason = event.reason if isinstance(event, CardsReceived) else None  # deal, draw or penalty
        if reason == "deal":
            return
        new = [c.id for c in v.hand if c.id not in before]
        if isinstance(event, DiscardTaken) or reason == "draw":
            self.fresh = set(new)  # a new turn's card: what was marked before is old news
        else:
            self.fresh |= set(new)  # a buy: the card and its penalty cards
        if new and reason in (None, "draw"):
            self.cursor_id = new[0]

    def sent(self, command: Command) -> None:
        self.hinted = None
        if isinstance(command, (LayContract, LaySet, LayOff, Discard)):
            self.selected.clear()
            self.builder = []
            self.frame.redraw()

    # --- what the seat may do --------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        seated = self.seat is not None and self.view is not None
        match action:
            case "take":
                return self.can(TakeDiscard)
            case "decline":
                return self.can(DeclineDiscard)
            case "buy":
                return self.can(Buy)
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
                return self.can(LayContract, LaySet, LayOff, TakeDiscard, Buy)
            case "pile":
                return self.view is not None
            case "prefs":
                return self.seat is not None
            case "auto_pass":
                return self.seat is not None and self.view is not None and not self.over
            case "select" | "sort" | "cursor" | "move" | "cursor_to":
                return seated and bool(self.shown)
        return True

    def on_key(self, event: events.Key) -> None:
        """A move's key that no binding takes now (its command is not listed) says why, on the message
        line; the bindings run after this, so a key some binding takes is left to it."""
        if event.key not in self.MOVE_KEYS or isinstance(self.screen.focused, Input):
            return
        active = self.screen.active_bindings.get(event.key)
        if active is not None and active.enabled:
            return
        self.say(self.why_not(event.key))

    def why_not(self, key: str) -> str:
        """Why the move ``key`` names is not one this seat may make now, in a few words."""
        v, seat = self.view, self.seat
        if seat is None:
            return "watching: only the seated play"
        if v is None:
            return "the game has not started yet"
        if v.phase is Phase.GAME_OVER:
            return "the game is over: enter shows the standings"
        legal = self.legal
        top = self.top(v)
        if not legal and self.frame.paused:
            return f"a new offer, the {top}: keys wait a moment (a key meant for the last one is not taken)"
        if not legal and v.legal:
            return "sent: waiting for the server"
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

    def redraw(self) -> None:
        if self.frame.hints and self.legal != self._hinted:  # a practice table: each new decision's first hint
            self._hinted = self.legal
            if _kinds(self.legal, LayContract, LaySet, LayOff):
                self.hint_index = 0
                self.action_hint()  # (it draws again, with the hint in the builder or selected)
                return
        self.sync_hand()
        self.status_line.sides_of(*self.status_sides())
        builder = self.builder_line
        builder.display = bool(self.builder)
        if self.builder:
            builder.show(self.builder_text())
        v = self.view
        wild = v.spec.wild_ranks if v is not None else frozenset()
        hand = self.hand_region
        hand.display = self.seat is not None and v is not None
        hand.show(self.shown, self.cursor_index(), self.selected, wild, "(no cards in hand)", self.fresh)

    def sync_hand(self) -> None:
        """Keep the player's order, selection, builder and cursor in step with the hand."""
        v = self.view
        hand = v.hand if v is not None and self.seat is not None else ()
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

    def round_of(self, v: SeatView) -> str:
        rounds = v.rules.rounds
        if rounds == (1, 2, 3, 4, 5, 6, 7):
            return f"Round {v.round}/7"
        place = rounds.index(v.round) + 1 if v.round in rounds else 0
        return f"Round {v.round} ({place} of {len(rounds)})"

    def header(self, width: int) -> Text:
        v, dot = self.view, f" {self.card_style.dot} "
        assert v is not None
        spec = v.spec
        wild = self.card_style.ranks(spec.wild_ranks)
        parts = [self.round_of(v), str(spec.contract), f"wild {wild}, {spec.wild_cap} a set",
                 f"stock {v.stock_size}", f"pot {v.pot}", f"reshuffles {v.reshuffles_left}"]
        # one line: the words go before the numbers do, the reshuffles (``v`` says them too) whole or not at
        # all, and the wild cap (a rule of every set) last of all
        rounds = v.rules.rounds
        shorter: list[tuple[int, str]] = []
        if rounds != (1, 2, 3, 4, 5, 6, 7) and v.round in rounds:
            shorter.append((0, f"Round {v.round} ({rounds.index(v.round) + 1}/{len(rounds)})"))
        shorter += [(2, f"wild {wild} max {spec.wild_cap}"), (5, ""), (2, f"wild {wild}")]
        for index, part in shorter:
            if len(dot.join(p for p in parts if p)) <= width:
                break
            parts[index] = part
        return Text(dot.join(p for p in parts if p), style="bold", no_wrap=True, overflow="ellipsis")

    def seat_lines(self, lines: tuple[SeatLine, ...], width: int) -> tuple[tuple[SeatLine, ...], SeatsHead]:
        """Each seat's cards, pennies and score, down among its flags, the turn mark (or $: the seats the
        declined card is offered to, the same for every view until it settles; who has answered is
        private, TP-4.7), and its sets on the table."""
        v = self.view
        assert v is not None
        wild = v.spec.wild_ranks
        pieces: dict[int, list[Text]] = {}
        for meld in v.table:
            pieces.setdefault(meld.owner, []).append(self.piece(meld, wild))
        out = []
        for s, line in enumerate(lines):
            p = v.players[s]
            active = v.phase is not Phase.GAME_OVER and s == v.turn_seat
            mark = self.card_style.turn_mark if active else ("$" if v.phase is Phase.BUY and s in v.buy_offer else " ")
            out.append(SeatLine(line.name, ("down", *line.flags) if p.down else line.flags, mark, active,
                                f"{p.hand_size:>5} {p.pennies:>7} {p.score:>5}", tuple(pieces.get(s, ()))))
        return tuple(out), SEATS_HEAD

    def piece(self, meld: Meld, wild: frozenset[int]) -> Text:
        """A set on the table as the strip draws it: ``[id] cards`` (kept, a set drawn once)."""
        key = (meld, wild)
        piece = self._pieces.get(key)
        if piece is None:
            piece = Text(f"[{meld.id}] ", style="dim")
            piece.append_text(self.card_style.cards(meld.cards, wild))
            self._pieces[key] = piece
        return piece

    def panel(self, width: int) -> Text:
        """Under the seats on a wide terminal: the discard pile as far as this seat knows it, top first (``v``
        shows it on any terminal)."""
        v = self.view
        if v is None:
            return Text()
        key = (v.pile_size, v.spec.wild_ranks)
        if self._panel is not None and self._panel[0] is self.tv.pile and self._panel[1] == key:
            return self._panel[2]  # (the pile as drawn: a new pile is a new list)
        pile = list(reversed(self.tv.pile))
        out = Text(f"Discard pile, top first ({v.pile_size}): ", style="dim")
        if pile:
            out.append_text(self.card_style.cards(pile, v.spec.wild_ranks))
        else:
            out.append("empty", style="dim")
        unseen = v.pile_size - len(pile)
        if unseen > 0:
            out.append(f" and {unseen} from before you came", style="dim")
        self._panel = (self.tv.pile, key, out)
        return out

    def status_sides(self) -> tuple[Text, Text]:
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
            if self.seat is not None:
                if self.auto_pass() != "never":  # on, and seen as long as it is
                    right.append("Auto-pass", style="bold")
                    right.append(f" [a] {st.dot} ")
                building = sum(len(s) for s in self.builder)
                extra = f", {building} in the builder" if building else ""
                order = {"rank": "by rank", "suit": "by suit", "own": "your order"}[self.sort]
                right.append(f"Your hand: {count(len(v.hand), 'card')}{extra} {st.dot} {order} [s]")
            else:
                right.append("Watching")  # (the prompt says whose turn it is, not this again)
        return left, right

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
        room = self.frame.width_of(self.builder_line) - out.cell_len
        for tail in (f"  {len(self.builder)} of {v.spec.contract}{dot}m adds, enter lays, esc clears",
                     f"{dot}m adds, enter lays, esc clears", f"{dot}enter lays, esc clears"):
            if len(tail) <= room:
                out.append(tail, style="dim")
                break
        return out

    def where(self) -> str:
        v = self.tv.view  # (as the snapshot just folded has it)
        if v is None:
            return ""
        if v.phase is Phase.GAME_OVER:
            return f": {self.whose(v, self.top(v))}; this is how it ended"
        return f": round {v.round}, turn {v.turn}, {self.whose(v, self.top(v))}"

    def prompt(self, clock: str) -> Text:
        tv, v, dot = self.tv, self.view, f" {self.card_style.dot} "
        assert v is not None
        if v.phase is Phase.GAME_OVER:
            won = " and ".join(self.who(s) for s in tv.winners) or "?"
            return Text(f"Game over: {won} won{dot}enter shows the standings", style="bold")
        seat = self.seat
        top = self.top(v)
        if seat is None:  # (the status line says Watching)
            return Text(f"{self.whose(v, top, len(clock))}{clock}", no_wrap=True, overflow="ellipsis")
        legal = self.asked
        if _kinds(legal, TakeDiscard):
            return Text(f"Your turn: take the {top} [t] or decline it [d]{clock}", style="bold")
        if _kinds(legal, Buy):
            penalty = v.rules.buy_penalty_cards
            left = pennies(v.players[seat].pennies)
            wait = f"{dot}keys in a moment" if self.frame.paused else ""
            return Text(f"Buy the {top} [b] or pass [p]? {left} left; a buy adds {count(penalty, 'card')}{wait}"
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
            if len(text) + reserve > self.frame.width_of("#prompt"):
                text = f"{name} declined the {top}: offered to the seats marked $"
            return text
        if v.phase is Phase.DRAW:
            return f"{name}: drawing"
        if v.phase is Phase.GAME_OVER:
            won = " and ".join(self.who(s) for s in self.tv.winners) or "?"
            return f"the game is over: {won} won"
        return f"{name}: playing"

    # --- screens over the table ------------------------------------------------------------------

    def help_screen(self, extra: list[tuple[str, str]], watching: bool) -> Screen[bool]:
        return HelpScreen(self.view, self.card_style, extra, watching=watching)

    def guide_screen(self) -> Screen[None] | None:
        return TurnGuide()

    def action_prefs(self) -> None:
        """The table's settings: the bell, a new offer's pause, the auto-pass (``PrefsScreen``)."""
        self.app.push_screen(PrefsScreen(self.frame.prefs, lambda: AUTO_PASS_WORDS[self.auto_pass()],
                                         self.step_auto_pass, self.frame.save_prefs))

    def action_pile(self) -> None:
        """The discard pile and the sets on the table, over the table (any key closes it)."""
        v = self.view
        if v is not None:
            self.app.push_screen(PileScreen(v, self.tv.pile, self.who, self.card_style))

    def show_round_end(self, then: Callable[[], None] | None = None) -> None:
        """The round's end over the table; ``then``: what comes once it is closed (the game's end)."""
        tv, v = self.tv, self.tv.view
        if tv.round_end is None or v is None:
            return
        rounds = v.rules.rounds
        total = f" of {len(rounds)}" if rounds == (1, 2, 3, 4, 5, 6, 7) else ""
        last = then is not None
        end = self.reused(RoundEndScreen, lambda: RoundEndScreen(self.who, self.seat, self.card_style, v.seats))
        self.show_over_table(end.show(tv.round_end, v.rules.round(tv.round_end.round), total, last=last,
                                      rounds=list(tv.round_ends.values())), then)

    def show_game_end(self) -> None:
        v = self.tv.view
        if v is None:
            return
        self.show_over_table(GameEndScreen(v, self.tv.game_ended, self.who, self.seat,
                                           rounds=list(self.tv.round_ends.values()),
                                           review=self.frame.open_review if self.seat is not None else None,
                                           history=self.frame.your_games))

    # --- actions: picking up ---------------------------------------------------------------------

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

    def action_auto_pass(self) -> None:
        """The auto-pass of buy offers on for this round, or off (whether on for the round or every round)."""
        self.set_auto_pass("round" if self.auto_pass() == "never" else "never")

    def step_auto_pass(self) -> None:
        """The settings' ``a``: the auto-pass off, on for this round, on for every round (remembered,
        ``TablePrefs.auto_pass``), off."""
        self.set_auto_pass({"never": "round", "round": "unfit", "unfit": "never"}[self.auto_pass()])

    def set_auto_pass(self, mode: str) -> None:
        """Set the auto-pass (``round`` for the round being played; ``unfit``, every round, and ``never`` are
        remembered); an offer open now is answered at once as a new one would be."""
        v, prefs = self.view, self.frame.prefs
        if v is None:
            return
        self.pass_round = v.round if mode == "round" else None
        if mode != "round" or prefs.auto_pass == "unfit":
            prefs.auto_pass = "never" if mode == "round" else mode
            self.frame.save_prefs()
        if mode == "never":
            self.say("Auto-pass off: every buy offer is yours to answer [a turns it on]")
        else:
            self.say(f"Auto-pass on, {AUTO_PASS_WORDS[mode]}: {AUTO_PASSES} are passed [a turns it off]")
            self.answer_by_itself()  # an offer open now, as a new one would be
        self.frame.redraw()

    # --- actions: the hand -----------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        if self.shown:
            i = (self.cursor_index() + step) % len(self.shown)
            self.cursor_id = self.shown[i].id
            self.frame.redraw()

    def action_cursor_to(self, index: int) -> None:
        if self.shown:
            self.cursor_id = self.shown[index].id
            self.frame.redraw()

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
        self.frame.redraw()

    def action_select(self) -> None:
        if self.cursor_id is None:
            return
        self.selected ^= {self.cursor_id}
        self.frame.redraw()

    def on_hand_picked(self, message: Hand.Picked) -> None:
        if 0 <= message.index < len(self.shown):
            self.cursor_id = self.shown[message.index].id
            self.action_select()

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self.frame.redraw()

    def action_clear(self) -> None:
        self.selected.clear()
        self.builder = []
        self.pending_set = ""
        self.say("")
        self.frame.redraw()

    def chosen(self) -> list[Card]:
        """The selected cards in hand order, else none."""
        return [c for c in self.shown if c.id in self.selected]

    def one_card(self, quiet: bool = False) -> Card | None:
        """The card a discard or lay-off is about: the only selected one, else the one under the cursor."""
        chosen = self.chosen()
        if len(chosen) == 1:
            return chosen[0]
        if len(chosen) > 1:
            if not quiet:
                self.say("Select one card (or none: the one under the cursor).", error=True)
            return None
        for c in self.shown:
            if c.id == self.cursor_id:
                return c
        return None

    # --- actions: melding ------------------------------------------------------------------------

    def action_meld(self) -> None:
        v, seat = self.view, self.seat
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
            self.frame.redraw()
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
        self.pending_set = ""
        self.say("lay off on which set? press its number (esc cancels)")

    def action_digit(self, n: int) -> None:
        v = self.view
        if v is None:
            return
        self.pending_set += str(n)
        number = int(self.pending_set)
        # Past set 9 a digit may begin a longer number: wait while a set the card may go on is named by
        # more digits (a 0 begins none: it names set 0 at once)
        if waits_for_more(self.pending_set, self.legal, self.one_card(quiet=True)):
            self.say(f"lay off on set {self.pending_set}_? another digit, or enter (esc cancels)")
            return
        self.lay_off(number)

    def lay_off(self, number: int) -> None:
        self.pending_set = ""
        self.say("")
        seat, card = self.seat, self.one_card()
        if seat is None or card is None:
            return
        self.send(LayOff(seat, card, number))

    def action_confirm(self) -> None:
        v = self.view
        hinted = self.hinted
        if self.pending_set:
            self.lay_off(int(self.pending_set))
        elif self.can(Draw):
            self.play(Draw)
        elif self.builder:
            self.action_meld()
        elif hinted is not None and hinted in self.legal and self.selected == self.hint_cards(hinted):
            self.send(hinted)  # what the hint said enter does
        elif self.selected and self.can(LaySet) and v is not None and self.seat is not None \
                and v.players[self.seat].down:
            self.action_meld()
        elif v is not None and v.phase is Phase.GAME_OVER:
            self.show_game_end()

    def action_discard(self) -> None:
        seat, card = self.seat, self.one_card()
        if seat is not None and card is not None:
            self.send(Discard(seat, card))

    @staticmethod
    def hint_cards(command: Command) -> set[int]:
        """The cards a meld or lay-off hint selects."""
        if isinstance(command, LaySet):
            return {c.id for c in command.cards}
        if isinstance(command, LayOff):
            return {command.card.id}
        return set()

    def pickup_hint(self, v: SeatView) -> Text:
        """What the bots' shared policy (``strategies``) would do with the live discard or the offer, and why."""
        seat = self.seat
        assert seat is not None and v.discard_top is not None
        card, top = v.discard_top, self.top(v)
        wild = card.rank in v.spec.wild_ranks
        alike = [c for c in v.hand if c.rank == card.rank and c.rank not in v.spec.wild_ranks]
        if self.can(TakeDiscard):
            if would_take(v):
                why = ("it is wild" if wild else
                       f"it goes with your {self.card_style.cards(alike).plain}" if alike else
                       "it lays off on the table")
                return Text(f"Hint: take the {top} [t]: {why}")
            return Text(f"Hint: decline the {top} [d]: {self.no_fit(v, card)}")
        before = contract_distance(v.hand, v.spec, v.rules)
        after = contract_distance([*v.hand, card], v.spec, v.rules)
        cost = f"a penny and {count(v.rules.buy_penalty_cards, 'card')} more"
        if would_buy(v):
            why = "it is wild" if wild else f"your contract goes from {count(before, 'card')} short to {after}"
            return Text(f"Hint: buy the {top} [b]: {why}, for {cost}")
        if v.players[seat].down:
            return Text(f"Hint: pass [p]: you are down, and a buy costs {cost}")
        return Text(f"Hint: pass the {top} [p]: it does not complete a set of your contract, and a buy costs {cost}")

    def no_fit(self, v: SeatView, card: Card) -> str:
        """Why the bots' policy would not take ``card`` (``strategies.wants_card``), in the hand's own cards:
        not down, nothing of its rank (of another suit, where a set may not hold two of one suit); down, it
        lays off on no set and makes no new one."""
        seat = v.seat
        assert seat is not None
        distinct = v.rules.distinct_suits and card.suit is not None
        alike = [c for c in v.hand if c.rank == card.rank and not (distinct and c.suit == card.suit)]
        same = [c for c in v.hand if c.rank == card.rank and c not in alike]
        if not v.players[seat].down:
            if same:
                return (f"your {self.card_style.cards(same).plain} is the same card, and a set may not hold two "
                        "of one suit")
            return "you have no other card of its rank"
        if not alike:
            return "you are down, it lays off on no set on the table, and you have no other card of its rank"
        return (f"you are down and it lays off on no set on the table: with your "
                f"{self.card_style.cards(alike).plain} it is a pair, not a set")

    def action_hint(self) -> None:
        """Take or decline, buy or pass: what the bots would do and why. Melding: show (and select) one meld
        or lay-off the server lists; pressed again, the next one."""
        v = self.view
        if v is not None and v.discard_top is not None and self.can(TakeDiscard, Buy):
            self.say(self.pickup_hint(v))
            return
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
        self.hinted = hint
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
            text.append(" selected: m or enter lays it as a set")
        elif isinstance(hint, LayOff):
            self.selected = {hint.card.id}
            self.cursor_id = hint.card.id
            text.append_text(st.rich(hint.card, wild=hint.card.rank in wild))
            text.append(f" selected: {hint.set_id} or enter lays it off on set [{hint.set_id}]")
        self.frame.redraw()
        self.say(text)
