"""Ten Pennies' dialogs over the table: its keys (``HelpScreen``), the discard pile and the sets (``PileScreen``),
a round's end (``RoundEndScreen``) and the game's end (``GameEndScreen``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from tenpennies.engine.ten_pennies import Card, SeatView
from tenpennies.engine.ten_pennies.events import GameEnded, RoundEnded
from tenpennies.engine.ten_pennies.narrate import round_end_why
from tenpennies.engine.ten_pennies.rules import RoundSpec

from ...plots import running_scores
from ..cards import CardStyle
from ..footer import KeysFooter
from ..help import SCROLL_KEYS, BesideTheLog, Dismissable, GameEnd, KeysDialog
from ..help import names as seat_names
from ..plot import ScorePlot


def pennies(n: int) -> str:
    """``1 penny``, ``2 pennies``."""
    return f"{n} penn{'y' if n == 1 else 'ies'}"


KEYS = (
    ("← → home end", "move along your hand"),
    ("shift+← →", "move the card under the cursor (your own order)"),
    ("space / esc", "select or unselect the card / clear the selection"),
    ("t / d", "take / decline the live discard"),
    ("b / p", "buy / pass a card another seat declined"),
    ("r or enter", "draw from the stock"),
    ("m", "the selection becomes a contract set; m again lays all"),
    ("", "once down: m lays the selection as a set"),
    ("0-9 (or o 0-9)", "lay the selected card (or the cursor's) off on that set"),
    ("x", "discard the selected card (or the one under the cursor)"),
    ("s", "sort by rank, by suit, or your own order"),
    ("h", "hint: meld, lay off, take or buy? (again: the next)"),
    ("a", "auto-pass this round's offers you can't use, on or off"),
    ("v", "the discard pile and the sets on the table"),
    (",", "settings: the bell, a new offer's pause, the auto-pass"),
    ("c / ?", "chat / this help"),
    ("G", "the guide to a turn (from this help)"),
)
# A watcher has no hand and makes no move: only these keys do anything for one.
WATCHER_KEYS = (
    ("v", "the discard pile and the sets on the table"),
    ("c / ?", "chat / this help"),
    ("enter", "the standings, once the game is over"),
)


def round_rules(spec: RoundSpec, style: CardStyle) -> str:
    cap = f"at most {spec.wild_cap} wild card{'s' if spec.wild_cap != 1 else ''} a set"
    return (f"Round {spec.number}: the contract is {spec.contract}; wild: {style.ranks(spec.wild_ranks)} "
            f"({cap}); a set is 3 or more cards of one rank.")


def marks(style: CardStyle, watching: bool = False) -> str:
    """What the marks in the seats' first column and under the hand mean (a watcher has no hand)."""
    seats = f"{style.turn_mark} whose turn; $ the seats a declined card is offered to (until bought or dead)."
    if watching:
        return f"Watching: you see the table, not any hand. {seats}"
    return (f"{seats} "
            f"Under your hand: {'^' if style.ascii else '▲'} the cursor, {'=' if style.ascii else '═'} "
            "selected, + just received.")


class HelpScreen(KeysDialog):
    """The table's keys: a seat's, or (``watching``) a watcher's, who has no hand and makes no move. Any key
    closes it; ``G`` closes it with True: open the guide to a turn."""

    @property
    def has_guide(self) -> bool:
        return not self.watching  # (a watcher has no guide)

    def __init__(self, view: SeatView | None, style: CardStyle, extra: Sequence[tuple[str, str]] = (), *,
                 watching: bool = False) -> None:
        super().__init__()
        self.seat_view = view
        self.style = style
        self.extra = extra
        self.watching = watching

    def compose(self) -> ComposeResult:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for key, what in (*(WATCHER_KEYS if self.watching else KEYS), *self.extra):
            grid.add_row(key, what)
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(grid)
            yield Static(marks(self.style, self.watching), classes="rules")
            if self.seat_view is not None:
                yield Static(round_rules(self.seat_view.spec, self.style))
            yield Static("Any key closes this help." + ("" if self.watching else " G: the guide to a turn."),
                         classes="dim")
        yield KeysFooter()


class PileScreen(Dismissable):
    """The discard pile as this seat knows it, top first (every discard is face up), and the sets on the
    table by owner: the cards played this round, every one of them (where they take more rows than the
    terminal has, the dialog scrolls: ``Dialog``)."""

    def __init__(self, view: SeatView, pile: Sequence[Card], name: Callable[[int], str], style: CardStyle) -> None:
        super().__init__()
        self.seat_view = view
        self.pile = pile
        self.seat_name = name
        self.style = style

    def compose(self) -> ComposeResult:
        v, st = self.seat_view, self.style
        wild = v.spec.wild_ranks
        pile = list(reversed(self.pile))
        head = Text(f"Discard pile: {v.pile_size} card{'s' if v.pile_size != 1 else ''}", style="bold")
        if pile:
            head.append(f", top first{' (live)' if v.discard_live else ''}", style="")
        times = v.reshuffles_left
        head.append(f" · it may become the stock {times} more time{'s' if times != 1 else ''} this round"
                    if times else " · it may not become the stock again this round", style="dim")
        body = st.cards(pile, wild) if pile else Text("empty", style="dim")
        unseen = v.pile_size - len(pile)
        if unseen > 0:
            body.append(f"  and {unseen} below, discarded before you came", style="dim")
        table = Table(box=None, padding=(0, 1), show_edge=False, expand=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Sets on the table", ratio=1)
        for s in range(v.seats):
            melds = [m for m in v.table if m.owner == s]
            line = Text()
            for i, meld in enumerate(melds):
                if i:
                    line.append("  ")
                line.append(f"[{meld.id}] ", style="dim")
                line.append_text(st.cards(meld.cards, wild))
            table.add_row(self.seat_name(s), line if melds else Text("-", style="dim"))
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(head)
            yield Static(body)
            yield Static(table, classes="rules")
            yield Static("Any key closes.", classes="dim")
        yield KeysFooter()


class RoundEndScreen(BesideTheLog, inherit_bindings=False):
    """Every hand shown, the points, the pennies paid for them, the scores so far. Made at a table's first
    round's end and shown again, its lines changed in place, for each one after (``show``): made anew, its
    widgets' mounting and styling was a third of its first frame's time."""

    BINDINGS: ClassVar[list[BindingType]] = [*SCROLL_KEYS, Binding("enter", "close", "Continue"),
                                             Binding("q", "app.quit", "Quit")]

    def __init__(self, name: Callable[[int], str], seat: int | None, style: CardStyle, seats: int) -> None:
        super().__init__()
        self.seat_name = name
        self.seat = seat
        self.style = style
        self.headline = Static()
        self.hands = Static()
        self.paid = Static(classes="dim")
        # what else the dialog takes: its title, notes, hint and border, a line a seat and a few for hands
        self.plot = ScorePlot(None, colour=style.colour, reserve=max(16, 12 + seats))
        self.hint = Static(classes="dim")

    def show(self, ended: RoundEnded, spec: RoundSpec, total_rounds: str = "", *, last: bool = False,
             rounds: Sequence[RoundEnded] = ()) -> RoundEndScreen:
        """This round's end, in place of the one shown before (if any): ``rounds``, every round's end so far,
        this one last (the running scores' picture); ``last``: the game's last round (the standings come
        next). Returns the screen."""
        m = ended
        names = seat_names(self.seat_name, self.seat, len(m.scores))
        why = round_end_why(m.out, m.reason, names.__getitem__)
        table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
        table.add_column("Player", no_wrap=True)
        table.add_column("Points", justify="right", no_wrap=True)
        table.add_column("Score", justify="right", no_wrap=True)
        table.add_column("To pot", justify="right", no_wrap=True)
        table.add_column("Hand", ratio=1)
        for s in range(len(m.scores)):
            cards = list(m.hands[s]) if s < len(m.hands) else []
            cards.sort(key=lambda c: (c.rank, c.suit or "", c.copy))
            hand = self.style.cards(cards, spec.wild_ranks) if cards else Text("out", style="bold")
            table.add_row(names[s], str(m.points[s]), str(m.scores[s]), str(len(cards)), hand)
        self.headline.update(Text(f"Round {m.round}{total_rounds} over: {why}", style="bold"))
        self.hands.update(table)
        self.paid.update(f"To pot: a penny a card left in hand, from each player's purse into the pot (TP-5.2), "
                         f"now {pennies(m.pot)}; the buy pennies (Pennies at the table) are not touched. "
                         "Lowest score wins.")
        self.plot.show(running_scores(rounds, names) if rounds else None)
        self.hint.update("Any key shows the final standings." if last else "Any key continues.")
        if self.is_mounted:  # (shown again: whether it scrolls is known once laid out anew)
            self.call_after_refresh(self.refresh_bindings)
        return self

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False):
            yield self.headline
            yield self.hands
            yield self.paid
            yield self.plot
            yield self.hint
        yield KeysFooter()


class GameEndScreen(GameEnd):
    """The final standings: scores, the winners, the pot and its shares."""

    def __init__(self, view: SeatView, ended: GameEnded | None, name: Callable[[int], str],
                 seat: int | None, *, rounds: Sequence[RoundEnded] = (),
                 review: Callable[[], object] | None = None, history: Callable[[], object] | None = None) -> None:
        super().__init__(review, history)
        self.rounds = rounds  # the rounds' ends known, in the order played: the points by round
        self.seat_view = view
        self.ended = ended
        self.seat_name = name
        self.seat = seat

    def compose(self) -> ComposeResult:
        v = self.seat_view
        names = seat_names(self.seat_name, self.seat, v.seats)
        if self.ended is not None:
            scores = list(self.ended.scores)
            shares = list(self.ended.shares)
            winners = set(self.ended.winners)
        else:
            scores = [p.score for p in v.players]
            shares = [p.won for p in v.players]
            low = min(scores) if scores else 0
            winners = {s for s, x in enumerate(scores) if x == low}
        pot = sum(shares) or v.pot
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Score", justify="right")
        table.add_column("Won", justify="right")
        table.add_column("Pennies left", justify="right")
        order = sorted(range(v.seats), key=lambda s: (scores[s], s))
        for place, s in enumerate(order, 1):
            style = "bold" if s in winners else ""
            mark = "winner" if s in winners else f"{place}."
            table.add_row(mark, names[s], str(scores[s]), str(shares[s]), str(v.players[s].pennies), style=style)
        won = " and ".join(names[s] for s in sorted(winners))
        verb = "win" if won == "You" or len(winners) > 1 else "wins"
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(Text("Game over", style="bold"))
            yield Static(Text(f"{won} {verb} the pot of {pennies(pot)}."))
            yield Static(table)
            if self.rounds:
                yield Static(self.by_round(names, order))
                yield ScorePlot(running_scores(self.rounds, names), reserve=max(18, 10 + 2 * v.seats))
            yield self.closing_hint()
        yield KeysFooter()

    def by_round(self, names: list[str], order: list[int]) -> Table:
        """The points each seat took in each round, and the total, in the standings' order."""
        table = Table(box=None, padding=(0, 1), show_edge=False, title="Points by round", title_justify="left",
                      title_style="bold")
        table.add_column("Player", no_wrap=True)
        for ended in self.rounds:
            table.add_column(f"R{ended.round}", justify="right", no_wrap=True)
        table.add_column("Total", justify="right", no_wrap=True)
        for s in order:
            points = [str(e.points[s]) if s < len(e.points) else "-" for e in self.rounds]
            total = self.rounds[-1].scores[s] if s < len(self.rounds[-1].scores) else 0
            table.add_row(names[s], *points, str(total))
        return table
