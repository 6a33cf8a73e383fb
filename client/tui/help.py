"""The table's modal screens: help, the discard pile and the sets, the end of a round, the end of the game,
and leave-the-table?"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tenpennies.engine.ten_pennies import Card, SeatView
from tenpennies.engine.ten_pennies.narrate import round_end_why
from tenpennies.engine.ten_pennies.rules import RoundSpec
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire import mapping

from ..plots import running_scores
from .cards import CardStyle
from .common import WIDE, OneLayout, pennies
from .footer import KeysFooter
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


def passes_on(screen: ModalScreen[Any], event: events.Key) -> bool:
    """Whether a dialog that any key closes leaves ``event`` to its bindings (the keys its footer shows, and
    the app's own: a modal screen hides the app's bindings, but for those with priority)."""
    return event.key in ("ctrl+q", "ctrl+c") or event.key in screen.active_bindings


R = TypeVar("R")

# the keys that scroll a dialog taller than the terminal (``Dialog``: its footer shows them then only)
SCROLL_KEYS: list[BindingType] = [
    Binding("down", "scroll_dialog(1)", "Scroll", key_display="↑↓"), Binding("up", "scroll_dialog(-1)", show=False),
    Binding("pagedown", "page_dialog(1)", show=False), Binding("pageup", "page_dialog(-1)", show=False)]


class Dialog(ModalScreen[R]):
    """A dialog over the table: its box (``#dialog``, a ``VerticalScroll`` its compose yields, which takes no
    focus: its keys are the screen's) is as tall as its content, the terminal's height at most; where the
    content is taller (every key of the help, eight seats' hands), the box scrolls with ↑ ↓ and page up and
    down, and the footer shows those keys then only: nothing is cut off unsaid. Its footer is its own
    (``KeysFooter``, which each dialog yields last): the table's, under it, shows keys that do nothing here."""

    BINDINGS: ClassVar[list[BindingType]] = SCROLL_KEYS

    def on_mount(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # (whether it scrolls is known once it is laid out)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_bindings)

    def on_screen_resume(self) -> None:
        self.call_after_refresh(self.refresh_bindings)  # (a dialog shown again, its content changed: ``show``)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that scroll, only where there is something to scroll to."""
        if action in ("scroll_dialog", "page_dialog"):
            boxes = self.query("#dialog").results(VerticalScroll)
            return any(box.max_scroll_y > 0 for box in boxes)
        return True

    def action_scroll_dialog(self, rows: int) -> None:
        self.query_one("#dialog", VerticalScroll).scroll_relative(y=rows, animate=False)

    def action_page_dialog(self, pages: int) -> None:
        box = self.query_one("#dialog", VerticalScroll)
        box.scroll_relative(y=pages * max(1, box.scrollable_content_region.height - 1), animate=False)


class Dismissable(Dialog[None], OneLayout[None]):
    """A dialog that any key (or a click) closes; the keys its footer shows do what the footer says: esc
    closes, ``q`` quits, over it as anywhere (a modal screen hides the app's own bindings, but for those with
    priority). It is laid out once for its first frame (``OneLayout``: second, as Textual takes a class's
    default styles along its first bases only, and a modal's see-through background is among them)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss()


class RuleScreen(Dialog[bool]):
    """A rule's text from the rule book (``rulebook``), over the table: the one the message line cites. Any key
    closes it; ``?`` closes it with True: the keys' help, which ``?`` opens otherwise."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "close(True)", "Keys", key_display="?"),
                                             Binding("escape", "close(False)", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    def __init__(self, number: str, text: str) -> None:
        super().__init__()
        self.number = number
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(Text(f"Rule {self.number}", style="bold"))
            yield Static(Text(self.text), classes="rules")
            yield Static("? shows the keys instead; any other key closes.", classes="dim rules")
        yield KeysFooter()

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss(False)

    def action_close(self, keys: bool) -> None:
        self.dismiss(keys)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(False)


class HelpScreen(Dialog[bool]):
    """The table's keys: a seat's, or (``watching``) a watcher's, who has no hand and makes no move. Any key
    closes it; ``G`` closes it with True: open the guide to a turn."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("G", "close(True)", "Guide"),
                                             Binding("escape", "close(False)", "Close"),
                                             Binding("q", "app.quit", "Quit")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close" and parameters == (True,) and self.watching:
            return False  # (a watcher has no guide)
        return super().check_action(action, parameters)

    def on_key(self, event: events.Key) -> None:
        if passes_on(self, event):
            return
        event.stop()
        self.dismiss(False)

    def action_close(self, guide: bool) -> None:
        self.dismiss(guide)

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
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(grid)
            yield Static(marks(self.style, self.watching), classes="rules")
            if self.seat_view is not None:
                yield Static(round_rules(self.seat_view.spec, self.style))
            yield Static("Any key closes this help." + ("" if self.watching else " G: the guide to a turn."),
                         classes="dim")
        yield KeysFooter()


def _names(name: Callable[[int], str], seat: int | None, seats: int) -> list[str]:
    return ["You" if s == seat else name(s) for s in range(seats)]


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


class BesideTheLog(Dismissable):
    """A dialog over the table that, on a wide terminal, keeps to the seats' side: the log beside it stays
    whole (the round's story next to its hands)."""

    def on_mount(self) -> None:
        self.set_class(self.app.size.width >= WIDE, "wide")

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE, "wide")


class GameEnd(BesideTheLog, inherit_bindings=False):
    """A game-end screen: any key closes it, but ``R`` (or ``r``), where the player may have their play
    reviewed (``review``: what opens the review), closes it and opens the review, and ``H`` (or ``h``), where
    the table keeps the player's games (``history``: what opens them, the local games played), closes it and
    opens those. Its footer shows the keys it offers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *SCROLL_KEYS,
        Binding("R", "offered('review')", "Review"), Binding("r", "offered('review')", show=False),
        Binding("H", "offered('history')", "Your games"), Binding("h", "offered('history')", show=False),
        Binding("escape", "close", "Close"), Binding("q", "app.quit", "Quit")]

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A key for what is not offered here is no key of this screen's (it closes it, as any other)."""
        if action == "offered":
            return (self.review if parameters == ("review",) else self.history) is not None
        return super().check_action(action, parameters)

    def action_offered(self, what: str) -> None:
        offered = self.review if what == "review" else self.history
        if offered is not None:
            self.dismiss()
            offered()


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


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or enter says yes, n or esc no."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question)
            yield Static("y: yes   n: no", classes="dim")
        yield KeysFooter()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
