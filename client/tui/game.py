"""What the screens ask of a game: its entry in the screen's registry (``ScreenGame``, one a game in
``games.py``): its table widget, its board in the replay viewer, its tournament standings, its label in the
lobby's list, its key for a local game; and what the table screen (the frame: seats strip, log, chat,
reconnect, help) asks of the game's table widget (``GameTable``), and what it offers it (``Frame``). The frame
knows the table, the stream and the seat; the widget knows the game: its part of the screen (for Ten Pennies
the discard line, the contract builder and the hand), its keys, the words of its prompt and header, its
figures in the seats strip and its end-of-round screens.

A game adds its package (its widget and the rest of its entry) and one entry in ``games.py``; no screen is
edited. A game with none has the screens' own (``any_game``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

from tenpennies.client.connection import SeatSession
from tenpennies.client.settings import TablePrefs
from tenpennies.client.view import TableView
from tenpennies.engine.interface import Command, Game, Rules, View
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.record import GameRecord

from .cards import CardStyle
from .seats import SeatLine, SeatsHead


class Frame(Protocol):
    """The table screen as a game's widget sees it."""

    tv: TableView
    session: SeatSession
    card_style: CardStyle
    hints: bool  # a practice table: hints as the player goes
    prefs: TablePrefs
    decision: int

    @property
    def paused(self) -> bool: ...

    @property
    def view(self) -> View | None: ...

    @property
    def legal(self) -> tuple[Command, ...]: ...

    def save_prefs(self) -> None: ...

    def who(self, seat: int) -> str: ...

    def width_of(self, selector: str | Widget) -> int: ...

    def redraw(self) -> None: ...

    def after_frame(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once the table's next frame is composed (a dialog over the table, pushed then,
        comes after the moves that led to it are shown)."""
        ...

    def open_review(self) -> None:
        """Open the review of the seat's play in the finished game (the game-end screen's ``r``)."""
        ...

    @property
    def your_games(self) -> Callable[[], object] | None:
        """What opens the player's games (the local games played: the game-end screen's ``h``); None where the
        table keeps none (a server's)."""
        ...


@functools.cache
def actions_of(kind: type[DOMNode]) -> tuple[str, ...]:
    """The actions of a screen's or widget's class bindings, each once, in order (fixed per class: worked
    out once)."""
    return tuple(dict.fromkeys(b.action for b in kind.BINDINGS if isinstance(b, Binding)))


C = TypeVar("C")  # a command type a widget looks for among the legal ones
S = TypeVar("S", bound=Screen[Any])  # a kind of end shown over the table


class GameTable(Widget):
    """A game's part of the table screen. It takes the keys while it has the focus (the frame's keys come
    after its own), and redraws its widgets from ``redraw``, each only if what it shows changed. What the
    player chose and what to tell them go up to the frame as messages (``Chosen``, ``Said``)."""

    class Said(Message):
        """Words for the table's message line (empty: clear it)."""

        def __init__(self, text: str | Text, error: bool) -> None:
            super().__init__()
            self.text = text
            self.error = error

    class Chosen(Message):
        """The player's answer to the decision on the screen (``by_itself``: the client's own answer, an
        auto-pass, which the pause of a new offer does not hold back)."""

        def __init__(self, command: Command, by_itself: bool) -> None:
            super().__init__()
            self.command = command
            self.by_itself = by_itself

    # The keys of moves: pressed when the move is not listed, they say why on the message line.
    MOVE_KEYS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, frame: Frame, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.frame = frame
        self.can_focus = True
        self.over_table: Screen[Any] | None = None  # a round's (deal's) or the game's end, shown or on its way
        self.kept: Screen[Any] | None = None  # the last end pushed, kept installed once closed (``keep``)
        self._showing: object | None = None  # the latest show_over_table's (its push is the one that goes)

    def show_over_table(self, screen: Screen[Any], then: Callable[[], None] | None = None) -> None:
        """Show a round's (a deal's) or the game's end over the table in place of the one before (closed if it
        is still open); ``then`` once it is closed. It is pushed once the table's next frame is composed
        (``Frame.after_frame``), so that the moves that led to it show first, unless another end replaced it
        meanwhile (Thirty-One's last deal's end, by the game's end that comes with it)."""
        self.close_over_table()
        self.over_table = screen
        # this call's own: a later call replaces it, even one for the same screen (an end shown again: two
        # deals' ends in one message would otherwise push it twice)
        self._showing = showing = object()

        def push() -> None:
            if self.over_table is screen and self._showing is showing:
                self.app.push_screen(screen, (lambda _: then()) if then is not None else None)
                self.keep(screen)
        self.frame.after_frame(push)

    def keep(self, screen: Screen[Any]) -> None:
        """Keep ``screen`` installed once it is closed, and let the one kept before go now. A screen Textual
        removes as it closes asks the app for a whole layout of the table, twice, in the moment after: the
        table's next frames (3-3.5 ms each, the events folded meanwhile waiting 17-20 ms at full speed) come
        just as the game goes on. Let go while the next end is shown (its own first frame lays it out) or as
        the table goes, that layout is one nobody waits for."""
        old, self.kept = self.kept, screen
        if old is screen:  # shown again (``reused``)
            return
        self.app.install_screen(screen, f"over-table-{id(screen)}")
        if old is not None:
            self.let_go(old)

    def reused(self, kind: type[S], make: Callable[[], S]) -> S:
        """The end kept, if it is a ``kind`` and closed, to be shown again with the next end's lines; else a
        new one (``make``). Made anew, an end's widgets' mounting and styling was a third of its first frame."""
        kept = self.kept
        if isinstance(kept, kind) and kept.is_attached and kept not in self.app.screen_stack:
            return kept
        return make()

    def let_go(self, screen: Screen[Any]) -> None:
        self.app.uninstall_screen(screen)
        if screen.is_attached and screen not in self.app.screen_stack:
            screen.remove()

    def close_over_table(self) -> None:
        screen, self.over_table = self.over_table, None
        if screen is not None and screen.is_current:
            screen.dismiss()

    def on_unmount(self) -> None:
        if self.kept is not None and self.app.is_running:
            self.let_go(self.kept)
            self.kept = None

    def on_mount(self) -> None:
        # the frame draws once the regions this widget composed are mounted too (the first frame, or after
        # the table's game swapped this widget in)
        self.call_after_refresh(self.frame.redraw)

    # --- the table as the frame holds it (each game's widget reads its own view from ``frame.view``) ---

    @property
    def tv(self) -> TableView:
        return self.frame.tv

    @property
    def seat(self) -> int | None:
        return self.frame.session.seat

    @property
    def legal(self) -> tuple[Command, ...]:
        return self.frame.legal

    def can(self, *kinds: type) -> bool:
        """A command of one of these types is legal now."""
        return any(isinstance(c, kinds) for c in self.legal)

    def first(self, kind: type[C]) -> C | None:
        """The first legal command of type ``kind``, if any."""
        return next((c for c in self.legal if isinstance(c, kind)), None)

    def play(self, kind: type) -> None:
        """Send the first legal command of type ``kind`` (a key's move), if there is one."""
        command = self.first(kind)
        if command is not None:
            self.send(command)

    def say(self, text: str | Text, error: bool = False) -> None:
        """Tell the player ``text`` on the message line (empty: clear it)."""
        self.post_message(self.Said(text, error))

    def send(self, command: Command, *, by_itself: bool = False) -> None:
        """Answer the decision on the screen with ``command``."""
        self.post_message(self.Chosen(command, by_itself))

    @property
    def over(self) -> bool:
        """The game is over."""
        raise NotImplementedError

    def folded(self, event: Any, before: View | None) -> None:
        """After the frame folded the game's ``event`` (its engine's value, as the table view decoded it) into
        the table view (``before``: the view before it, for the game's own marks)."""

    def turn_of_another(self, event: Any) -> bool:
        """The game's ``event`` begins another seat's turn (the table's pace waits a moment before it)."""
        return False

    def pauses(self, legal: tuple[Command, ...]) -> bool:
        """Whether a new decision with these commands ignores keys for a moment (a buy offer, which
        comes of other seats' moves, when the player's eyes may be elsewhere)."""
        return False

    def answer_by_itself(self) -> bool:
        """A new decision is drawn: answer it now without the player (an auto-pass), True when it did."""
        return False

    def line_style(self, event: Any) -> str:
        """The style of the log line of the game's ``event``."""
        return ""

    def redraw(self) -> None:
        """Bring the game's widgets up to date with the table view (each only if it changed)."""

    def keys(self) -> tuple[bool | None, ...]:
        """Which of the game's keys may be pressed now (the footer is redrawn when this changes)."""
        return tuple(self.check_action(action, ()) for action in actions_of(type(self)))

    def header(self, width: int) -> Text:
        """The header line while the game goes on, ``width`` cells at most."""
        raise NotImplementedError

    def seat_lines(self, lines: tuple[SeatLine, ...], width: int) -> tuple[tuple[SeatLine, ...], SeatsHead]:
        """The seats as the frame found them, with the game's figures, marks and pieces added."""
        raise NotImplementedError

    def panel(self, width: int) -> RenderableType:
        """What the game shows under the seats when the terminal is wide (``width`` cells), if anything."""
        return Text()

    def where(self) -> str:
        """Where the game is, after the table's name in the log's first line (``: round 2, turn 5, ...``)."""
        return ""

    def prompt(self, clock: str) -> Text:
        """What the game waits for now (``clock``: this seat's time left, to end the line with)."""
        raise NotImplementedError

    def sent(self, command: Command) -> None:
        """The server accepted ``command`` from this seat."""

    def help_screen(self, extra: list[tuple[str, str]], watching: bool) -> Screen[Any]:
        """The help of the game's keys, with the frame's ``extra`` (key, what it does) after them; closing
        with True opens the game's guide (``guide_screen``)."""
        raise NotImplementedError

    def guide_screen(self) -> Screen[None] | None:
        """The game's guide to a turn, for a player's first game (None: the game has none)."""
        return None


# --- the screen's registry entry of a game ---------------------------------------------------------------

Board = Callable[[Game, GameRecord, CardStyle, int], Text]
"""A finished game at one step of its replay, as the replay viewer's board draws it ``width`` cells wide: every
seat's hand and what is on the table (the record names the seats)."""


def per_game(standing: pb.Standing, tally: str) -> str:
    """One of a game's own tallies a game, as a bot's standings row shows it."""
    return f"{standing.tallies.get(tally, 0) / standing.games:.1f}" if standing.games else "-"


def tally_heads(standings: pb.GetStandingsResponse) -> tuple[str, ...]:
    """The heads of the columns of the game's own tallies (``Kind.tournament_tallies``)."""
    return tuple(t.capitalize() for t in standings.tallies)


def tally_cells(standing: pb.Standing, standings: pb.GetStandingsResponse) -> tuple[str, ...]:
    return tuple(per_game(standing, t) for t in standings.tallies)


def tally_note(standings: pb.GetStandingsResponse, mean: str) -> str:
    """The standings' note: what the columns mean (``mean``: the mean column's words)."""
    tallies = f"{', '.join(tally_heads(standings))}: a game's, as the game ended; " if standings.tallies else ""
    return (f"Wins: tied winners share one; {mean}; {tallies}Ill.: commands the rules refused; T/o: decisions the "
            "timer or the takeover bot made. Escape closes.")


@dataclass(frozen=True)
class Standings:
    """A game's own columns in its tournament's standings on the screen, beside what every game's show (games,
    wins, the mean score, the commands the rules refused, the timer's moves, the rating): their short heads
    (``heads``: the window fits 80 columns), a bot's cells of them (``cells``), and the note under the table
    that says what the columns mean (``note``; None: the mean's words, then the tallies'). By default a column
    for each of the game's tallies. (Whether its scores are scores or places, and their decimals, are the
    client's entry's to say: ``client.games``.)"""

    heads: Callable[[pb.GetStandingsResponse], tuple[str, ...]] = tally_heads
    cells: Callable[[pb.Standing, pb.GetStandingsResponse], tuple[str, ...]] = tally_cells
    note: Callable[[pb.GetStandingsResponse], str] | None = None


@dataclass(frozen=True)
class ShortGame:
    """A short game of a game, as the local start screen offers it: ``what`` it is (``3 rounds``) and its
    rules' ``settings`` (``NAME=VALUE``, as ``--rule`` writes them)."""

    what: str
    settings: tuple[str, ...]


@dataclass(frozen=True)
class ScreenGame:
    """A game on the screen: its entry in ``games.SCREENS``, by the game's name in ``engine.games``.

    ``table``: its part of the table screen; ``board``: the replay viewer's; ``standings``: its tournament's
    columns; ``label``: a table's rules as the lobby's Game column says them, 12 cells at most (``standard``,
    ``31 cutthr.``); ``key``: the key of a new local game of it (the servers screen's and the local start
    screen's; "": none); ``form``: what the ids of its rules' fields in the create-table form begin with
    (its knobs' names may be another game's too); ``choices``: the wire's number for each word of its knobs of
    words, which the form's choices carry (a knob missing here: its words); ``short``: a short game, and
    ``practice``: a practice table (its widget's hints), as the local start screen offers them."""

    table: type[GameTable]
    board: Board
    label: Callable[[Rules], str]
    standings: Standings = Standings()
    key: str = ""
    form: str = ""
    choices: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    short: ShortGame | None = None
    practice: bool = False
