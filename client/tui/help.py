"""The table's modal screens: help, the discard pile and the sets, the end of a round, the end of the game,
and leave-the-table?"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tenpennies.engine.ten_pennies import Card, SeatView
from tenpennies.engine.ten_pennies.narrate import round_end_why
from tenpennies.engine.ten_pennies.rules import RoundSpec
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire import mapping

from ..plots import running_scores
from .cards import CardStyle
from .common import WIDE, QuickFrames, pennies
from .plot import ScorePlot

KEYS = (
    ("← → home end", "move along your hand"),
    ("shift+← →", "move the card under the cursor (your own order)"),
    ("space / esc", "select or unselect the card / clear the selection"),
    ("t / d", "take / decline the live discard"),
    ("b / p", "buy / pass a card another seat declined"),
    ("r or enter", "draw from the stock"),
    ("m", "the selection becomes a contract set; m again lays it all"),
    ("", "once down: m lays the selection as a set"),
    ("0-9 (or o 0-9)", "lay the selected card (or the cursor's) off on that set"),
    ("x", "discard the selected card (or the one under the cursor)"),
    ("s", "sort by rank, by suit, or your own order"),
    ("h", "hint: a meld or lay-off you can make (again: the next one); take or buy?"),
    ("a", "auto-pass on for this round (offers of cards that fit nothing in your hand), or off"),
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


class Dismissable(ModalScreen[None], QuickFrames[None]):
    """A modal that any key (or a click) closes; but ``q`` quits, over it as anywhere (a modal screen hides
    the app's own bindings, but for those with priority). Its frames are quick (``QuickFrames``: second, as
    Textual takes a class's default styles along its first bases only, and a modal's see-through background
    is among them)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit", show=False)]

    def on_key(self, event: events.Key) -> None:
        if event.key in ("q", "ctrl+q", "ctrl+c"):  # leave the app's own keys to the app
            return
        event.stop()
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss()


class RuleScreen(ModalScreen[bool]):
    """A rule's text from the rule book (``rulebook``), over the table: the one the message line cites. Any key
    closes it; ``?`` closes it with True: the keys' help, which ``?`` opens otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit", show=False)]

    def __init__(self, number: str, text: str) -> None:
        super().__init__()
        self.number = number
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(f"Rule {self.number}", style="bold"))
            yield Static(Text(self.text), classes="rules")
            yield Static("? shows the keys instead; any other key closes.", classes="dim rules")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("q", "ctrl+q", "ctrl+c"):  # leave the app's own keys to the app
            return
        event.stop()
        self.dismiss(event.key == "question_mark")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(False)


class HelpScreen(ModalScreen[bool]):
    """The table's keys: a seat's, or (``watching``) a watcher's, who has no hand and makes no move. Any key
    closes it; ``G`` closes it with True: open the guide to a turn."""

    def on_key(self, event: events.Key) -> None:
        if event.key in ("q", "ctrl+q", "ctrl+c"):  # leave the app's own keys to the app
            return
        event.stop()
        self.dismiss(event.key == "G" and not self.watching)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(False)

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
        with Vertical(id="dialog"):
            yield Static(grid)
            yield Static(marks(self.style, self.watching), classes="rules")
            if self.seat_view is not None:
                yield Static(round_rules(self.seat_view.spec, self.style))
            yield Static("Any key closes this help." + ("" if self.watching else " G: the guide to a turn."),
                         classes="dim")


def _names(name: Callable[[int], str], seat: int | None, seats: int) -> list[str]:
    return ["You" if s == seat else name(s) for s in range(seats)]


class PileScreen(Dismissable):
    """The discard pile as this seat knows it, top first (every discard is face up), and the sets on the
    table by owner: the cards played this round."""

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
        with Vertical(id="dialog"):
            yield Static(head)
            yield Static(body)
            yield Static(table, classes="rules")
            yield Static("Any key closes.", classes="dim")


class BesideTheLog(Dismissable):
    """A dialog over the table that, on a wide terminal, keeps to the seats' side: the log beside it stays
    whole (the round's story next to its hands)."""

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= WIDE, "wide")

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "wide")


class GameEnd(BesideTheLog):
    """A game-end screen: any key closes it, but ``r``, where the player may have their play reviewed
    (``review``: what opens the review), closes it and opens the review, and ``h``, where the table keeps the
    player's games (``history``: what opens them, the local games played), closes it and opens those."""

    def __init__(self, review: Callable[[], object] | None = None,
                 history: Callable[[], object] | None = None) -> None:
        super().__init__()
        self.review = review
        self.history = history

    def closing_hint(self) -> Static:
        offers = (["R reviews your play in this game"] if self.review is not None else []) + \
            (["H shows your games, to replay or review"] if self.history is not None else [])
        hint = f"{', '.join(offers)}; any other key closes." if offers else "Any key closes."
        return Static(hint, classes="dim")

    def on_key(self, event: events.Key) -> None:
        """(Textual calls ``Dismissable.on_key`` after this one, unless the default is prevented.)"""
        offered = self.review if event.key in ("r", "R") else self.history if event.key in ("h", "H") else None
        if offered is not None:
            event.stop()
            event.prevent_default()
            self.dismiss()
            offered()


class RoundEndScreen(BesideTheLog):
    """Every hand shown, the points, the pennies paid for them, the scores so far. Made at a table's first
    round's end and shown again, its lines changed in place, for each one after (``show``): made anew, its
    widgets' mounting and styling was a third of its first frame's time."""

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

    def show(self, ended: pb.RoundEnded, spec: RoundSpec, total_rounds: str = "", *, last: bool = False,
             rounds: Sequence[pb.RoundEnded] = ()) -> RoundEndScreen:
        """This round's end, in place of the one shown before (if any): ``rounds``, every round's end so far,
        this one last (the running scores' picture); ``last``: the game's last round (the standings come
        next). Returns the screen."""
        m = ended
        names = _names(self.seat_name, self.seat, len(m.scores))
        why = round_end_why(m.out if m.HasField("out") else None, mapping.round_end_reason_from_pb(m.reason),
                            names.__getitem__)
        table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
        table.add_column("Player", no_wrap=True)
        table.add_column("Points", justify="right", no_wrap=True)
        table.add_column("Score", justify="right", no_wrap=True)
        table.add_column("To pot", justify="right", no_wrap=True)
        table.add_column("Hand", ratio=1)
        for s in range(len(m.scores)):
            cards = [mapping.card_from_pb(c) for c in m.hands[s].cards] if s < len(m.hands) else []
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
        return self

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield self.headline
            yield self.hands
            yield self.paid
            yield self.plot
            yield self.hint


class GameEndScreen(GameEnd):
    """The final standings: scores, the winners, the pot and its shares."""

    def __init__(self, view: SeatView, ended: pb.GameEnded | None, name: Callable[[int], str],
                 seat: int | None, *, rounds: Sequence[pb.RoundEnded] = (),
                 review: Callable[[], object] | None = None, history: Callable[[], object] | None = None) -> None:
        super().__init__(review, history)
        self.rounds = rounds  # the rounds' ends known, in the order played: the points by round
        self.seat_view = view
        self.ended = ended
        self.seat_name = name
        self.seat = seat

    def compose(self) -> ComposeResult:
        v = self.seat_view
        names = _names(self.seat_name, self.seat, v.seats)
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
        with Vertical(id="dialog"):
            yield Static(Text("Game over", style="bold"))
            yield Static(Text(f"{won} {verb} the pot of {pennies(pot)}."))
            yield Static(table)
            if self.rounds:
                yield Static(self.by_round(names, order))
                yield ScorePlot(running_scores(self.rounds, names), reserve=max(18, 10 + 2 * v.seats))
            yield self.closing_hint()

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


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or enter says yes, n or esc no."""

    BINDINGS = [("y,enter", "answer(True)", "Yes"), ("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question)
            yield Static("y: yes   n: no", classes="dim")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
