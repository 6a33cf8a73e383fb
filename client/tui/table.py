"""The table screen: the frame around one seat's (or a spectator's) game, all of it at once at 80x24 and
played from the keyboard. The frame holds the table and its stream (``TableView``, folded from the seat's
stream), the header, the seats strip, the log, the chat, the prompt and message lines, reconnecting, help
and leaving; the game's own widget (``games.table_widget``: for Ten Pennies the discard line, the builder,
the hand and the keys of its moves) sits between the log and the prompt and has the keys first.

Every key answers the decision it was shown for: the decision drawn (``decision``, the sequence of the
DecisionRequest its legal commands came from) is the one a command names as it is sent, and a decision is
answered once. A new decision is marked (the prompt highlighted for a moment, the terminal's bell unless
the player turned it off) and a new buy offer ignores keys for a moment (``TablePrefs.offer_pause``), so
that a key meant for what was on the screen just before is not taken for it.

Each region keeps what it drew: when an event comes, the screen hands each its new text (or the game's
widget its new view) and only a region whose text changed is drawn again; the log appends a line. Events
the stream brings in a burst are folded together and drawn once, when the burst is folded.
"""

from __future__ import annotations

import asyncio
import gc
import math
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.constants import MAX_FPS
from textual.containers import Container, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from tenpennies.client.connection import Backoff, Connection, HostedTable, Link, SeatSession, ServerError
from tenpennies.client.plots import load_charts
from tenpennies.client.rulebook import cited, rule_text
from tenpennies.client.settings import PACES, TablePrefs
from tenpennies.client.view import Incoming, TableView
from tenpennies.engine.games import DEFAULT_GAME, GAMES
from tenpennies.engine.interface import Command, View
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.games import wire

from .cards import CardStyle
from .common import RETRY_FIRST, RETRY_MOST, WIDE, LiveScreen, default_bot, filled, sentence
from .footer import KeysFooter
from .game import GameTable, actions_of
from .games import table_widget
from .help import ConfirmScreen, RuleScreen
from .history import HistoryScreen
from .line import Line
from .log import TableLog
from .prompt import MessageLine, Prompt
from .review import ReviewScreen
from .seats import SeatLine, SeatsStrip

PLAIN = CardStyle()
LOG_LEAST = 2  # the log's least height, table.tcss's #log min-height
LIVE_MS = 2000  # an event older than this (ms) is the table's history, told at once whatever the pace
BURST = 1 / 240  # the least time between two redraws of a stream running ahead (a quarter of a 60 Hz frame)
DIMMED = 1 / 4   # the same, behind a dialog (see redraw)
FLASH = 1.0      # seconds the prompt stays highlighted after a new decision
LOOK = 1 / 10    # after a redraw, the screen is asked this often whether it has a frame left to compose ...
LOOK_FOR = 5.0   # ... for this long after the last one (``look_again``)
OVERDUE = 1.0    # a redraw asked for this long ago and not yet drawn is asked for again (``stale``, ``look_again``)


YOUR_GAMES = ("H", "your games: each to replay or review")
"""The help's line for the key to the local games played (a table with a history of games)."""


class Middle(Container):
    """The seats and the log (side by side on a wide terminal): resized, by the terminal or by the regions
    around it, it says so, and the seats are fitted to its new height."""

    class Resized(Message):
        pass

    def on_resize(self) -> None:
        self.post_message(self.Resized())


class TableScreen(LiveScreen):
    """One table. ``host``: this client made the table (add bots, start); ``leave_to_lobby``: ``L``
    leaves to the lobby (else this is the app's only table, and the app's ``q`` quits). ``prefs``: the
    player's table settings, saved in ``home`` when changed (``home`` None: kept for this screen only;
    ``prefs`` None: the defaults, every game's first-game guide taken as seen). ``guide``: a player's first game
    opens the guide to a turn over the table (the local game, where nobody waits on the player; at a
    server's table, where others wait and a clock may run, the log says where the guide is instead).
    ``story``: the log first tells the table's story so far, from the stream's history (a seat taken up
    again, with the recap of what happened while it was away; a table watched); ``hints``: a practice
    table, where the game shows a hint whenever the seat has a meld to make. ``source``: where the table's
    games are kept, for the reviews of them (the local games' file; "": the server's address). ``name``: a
    watcher's name, which the chat says its lines under (the player's name in the lobby)."""

    AUTO_FOCUS = "#game"  # the game's widget takes the keys first; the chat input takes focus while open

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "add_bot('')", "Bot"),
        Binding("B", "add_bot('random')", "Random bot"),
        Binding("g", "start", "Start"),
        Binding("c", "chat", "Chat", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("L", "leave", "Leave"),
        Binding("H", "history", "Your games"),
        Binding("escape", "close_chat", "Close", show=False),
    ]

    def __init__(self, connection: Connection, session: SeatSession, *, style: CardStyle = PLAIN,
                 host: HostedTable | None = None, leave_to_lobby: bool = True,
                 prefs: TablePrefs | None = None, home: Path | None = None, guide: bool = False,
                 story: bool = False, hints: bool = False, source: str = "", history: Path | None = None,
                 name: str = "") -> None:
        super().__init__()
        self.name_in_chat = name  # a watcher's name in the chat (a seat's is the seat's)
        self.source = source or connection.address  # where the game's record is kept: a review is kept by it
        self.history = history  # the local games' file: your games, from the table (H) and the game's end
        self.guide = guide
        self.prefs = prefs if prefs is not None else TablePrefs(guide_seen=True, guides_seen=list(GAMES))
        self.home = home
        self.connection = connection
        self.session = session
        self.card_style = style
        self.host = host
        self.leave_to_lobby = leave_to_lobby
        self.hints = hints
        self.tv = TableView(session.seat, style.text, you="You")
        if story:  # the stream starts with its whole history: this new view has told none of it
            session.last_sequence = 0
        self.link: Link | None = None
        self._stream: AsyncIterator[pb.Snapshot | pb.Event | Link] | None = None  # the seat's, once opened
        self._taken: list[pb.Snapshot | pb.Event | Link] = []  # what ``open_stream`` read of it, not yet followed
        self._taken_in = asyncio.Event()     # ``follow`` has taken those in (or ended)
        self.retry_at = 0.0
        self.ended = ""                      # why the stream ended for good ("" while it runs)
        self.game: GameTable = table_widget()(self, id="game")
        self._stale = False                  # folded since the last redraw (one is on its way)
        self._asked = 0                      # the redraws stale asked for (only the last one asked draws)
        self._asked_at = 0.0                 # when the last was asked for (time.monotonic)
        self._drawn_at = 0.0                 # when the last redraw was (time.monotonic)
        self.drawn_view: View | None = None   # the game as last drawn (tv.view is as last folded)
        self._keys: tuple[bool | None, ...] | None = None  # which keys could be pressed at the last redraw
        self._link_said = False              # the message line says the link's trouble (cleared once it is up)
        # the regions, made here and kept: the screen hands them what they show at every redraw (a query
        # for each was a fifth of a redraw's time)
        self.log_region = TableLog(id="log")
        self.header_line = Line(id="header")
        self.seats_strip = SeatsStrip(id="seats", times="x" if style.ascii else "×")
        self.middle = Middle(id="middle")
        self.side = Vertical(id="side")
        self.panel_line = Line(id="panel")  # the game's own panel, where there is room for it (``GameTable.panel``)
        self.prompt_line = Prompt(id="prompt")
        self.message_line = MessageLine(id="message")
        self.footer = KeysFooter()
        self.chat: Input | None = None       # the chat line, while it is open
        self._regions: dict[str, Widget] = {f"#{w.id}": w for w in (
            self.header_line, self.seats_strip, self.panel_line, self.prompt_line, self.message_line)}
        self._shown: tuple[int, tuple[Command, ...]] = (0, ())  # the decision drawn, and its commands
        self.decision = 0                    # the decision drawn (its DecisionRequest's sequence; 0: none named)
        self.answered = -1                   # the decision a command was sent for (one answer a decision)
        self._paused = False                 # a new offer ignores keys (until its moment is over, ``resume_keys``)
        self._decisions = 0                  # decisions drawn so far (a moment's end is for its own decision)
        self._others_moved = True            # another seat moved since this seat's last decision was drawn
        self._ticking = True                 # the 1 s tick runs (a clock or a countdown is shown)
        self._swapping = False               # the game's widget is being swapped for the table's game's
        self._after_frame: list[Callable[[], object]] = []  # to run once the next frame is composed
        self._looks: Timer | None = None     # ``look_again``'s timer (made as the screen mounts)

    def after_frame(self, callback: Callable[[], object]) -> None:
        """Run ``callback`` once this screen's next frame is composed (what was drawn is then on the
        screen). For a dialog over the table: the moves that led to it show on the table first; pushed at
        once, they waited for the dialog's first frame (its composing, 30-60 ms with the score chart), the
        worst waits of a table. (A frame's time from now, then once the screen has refreshed: Textual's
        ``call_after_refresh`` alone runs as soon as the screen is idle, which is often before the regions'
        changes have reached it; the dialog then went first.) Meanwhile the table draws nothing new (``_due``)."""
        self._after_frame.append(callback)
        if len(self._after_frame) == 1:
            self.set_timer(1 / MAX_FPS, lambda: self.call_after_refresh(self._run_after_frame))

    def _run_after_frame(self) -> None:
        callbacks, self._after_frame = self._after_frame, []
        for callback in callbacks:
            if self.is_attached:
                callback()
        if self._stale:  # what came meanwhile (``_due``)
            self.redraw()

    def look_again(self) -> None:
        """Ask the screen whether it has a frame left to compose (``check_idle``: Textual's screen composes
        one when it is next idle, if anything it shows changed), every ``LOOK`` seconds for ``LOOK_FOR``
        seconds after the last redraw; then the timer stops (an idle table wakes nobody).

        A screen puts a frame off while the app holds a batch update (``App.batch_update``, which Textual
        takes to mount and remove widgets) or while the screen is hidden, and composes it only when a message
        next comes to the screen: what the table drew meanwhile, and then nothing more (the next seat to
        play is away), stayed off the screen for good. Asked again, it is composed once the batch is over."""
        self.check_idle()
        if self._stale and time.monotonic() - self._asked_at > OVERDUE:
            self.stale()  # a redraw asked for and never drawn: ask again (the last event may be the seat's turn)
        if time.monotonic() - self._drawn_at > LOOK_FOR and self._looks is not None:
            self._looks.pause()

    # --- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield self.header_line
        with self.middle:  # one above the other; side by side on a wide terminal (``WIDE``)
            with self.side:
                yield self.seats_strip
                yield self.panel_line
            yield self.log_region
        yield self.game
        yield self.prompt_line
        yield self.message_line
        yield self.footer

    async def on_mount(self) -> None:
        # Everything made so far (the app, its screens, the widgets) lives as long as the table: set aside
        # from the cyclic collector, whose full passes over it otherwise stall a fast table for 40-70 ms.
        gc.freeze()
        self._tick = self.set_interval(1.0, self.tick)
        self._looks = self.set_interval(LOOK, self.look_again, pause=True)
        self.call_after_refresh(self.redraw)  # once the game's widget has composed its own regions
        self.call_after_refresh(load_charts)  # for the round's end, once the table is first shown
        opened = bool(self._taken)  # read before the screen was shown (``open_stream``)
        snapshot = next((m for m in self._taken if isinstance(m, pb.Snapshot)), None)
        if snapshot is not None:  # the game's widget first, here: a swap waits on this screen's own messages,
            await self.seat_game(snapshot.table.game or DEFAULT_GAME)  # which wait below while it is taken in
        self.follow()
        if opened:  # taken in before the screen's first frame
            await self._taken_in.wait()

    def on_unmount(self) -> None:
        gc.unfreeze()  # the collector looks at all of it again

    # --- the stream ------------------------------------------------------------------------------

    def stream(self) -> AsyncIterator[pb.Snapshot | pb.Event | Link]:
        """The seat's stream for good (``SeatSession.follow``), opened at the first call."""
        if self._stream is None:
            # retries as the lobby's (at most about 3 s apart): the default grows to 12 s, which after a
            # short cut was most of the wait to be back at the table
            self._stream = self.session.follow(Backoff(RETRY_FIRST, RETRY_MOST))
        return self._stream

    async def open_stream(self) -> None:
        """Open the seat's stream before the screen is shown, and read it up to its snapshot (or its first
        trouble), for a launcher with nothing else to show meanwhile (the local game's): the screen then
        mounts with the table's first messages at hand and the next ones on their way, and its first frame
        shows the table rather than an empty one drawn again once the stream comes. Raises ``ServerError``
        as the stream does when the seat is refused. Without it the stream opens as the screen mounts."""
        async for message in self.stream():
            self._taken.append(message)
            if isinstance(message, pb.Snapshot) or isinstance(message, Link) and not message.up:
                return

    async def following(self) -> AsyncIterator[pb.Snapshot | pb.Event | Link]:
        """The seat's stream, followed from what ``open_stream`` read of it, if it was opened early."""
        taken, self._taken = self._taken, []
        for message in taken:
            yield message
        self._taken_in.set()
        async for message in self.stream():
            yield message

    @work(group="stream", exit_on_error=False)
    async def follow(self) -> None:
        try:
            async for message in self.following():
                if isinstance(message, Link):
                    self.link = message
                    self.retry_at = time.monotonic() + message.retry_in
                    if message.up and self._link_said:  # what the message line said of the link is over
                        self._link_said = False
                        self.say("")
                elif isinstance(message, pb.Snapshot):
                    again = self.tv.info is not None
                    # the table's game widget first, so that no moment holds the new view with the old widget
                    await self.seat_game(message.table.game or DEFAULT_GAME)
                    self.tv.apply_snapshot(message)
                    self.log_snapshot(again)
                else:
                    incoming = self.tv.read(message)  # decoded once: the view and the game's widget take it
                    if self.paced(incoming):
                        self.redraw()  # the turn before, on the screen for a moment
                        await asyncio.sleep(PACES[self.prefs.pace])
                    self.fold_event(incoming)
                self.stale()
            self.ended = "The server closed this seat's stream (the seat was emptied)."
        except ServerError as error:
            self.ended = f"Lost the table: {error.words}"
        except (BadRequest, LookupError) as error:  # a game this client cannot show
            self.ended = f"This client cannot show this table: {error}"
        finally:
            self._taken_in.set()
        self.redraw()

    def paced(self, incoming: Incoming) -> bool:
        """Another seat's turn begins as it is played (not one told from the table's history): the table's
        pace (``TablePrefs.pace``) waits a moment first, so that bots' turns come one by one."""
        if self.prefs.pace == "instant" or time.time() * 1000 - incoming.message.time_ms > LIVE_MS:
            return False
        return incoming.event is not None and self.game.turn_of_another(incoming.event)

    async def seat_game(self, game: str) -> None:
        """The table's own game widget (the snapshot names the game): swapped in when it is not the one
        the screen was made with (the default game's)."""
        widget = table_widget(game)
        if type(self.game) is widget:
            return
        focused = self.focused is None or self.focused is self.game
        self._swapping = True  # no redraw meanwhile: the old widget would be handed the new game's view
        try:
            await self.game.remove()
            self.game = widget(self, id="game")
            await self.mount(self.game, after=self.query_one("#middle"))
        finally:
            self._swapping = False
        if self._stale:  # a redraw came while the widgets were swapped: it waited for this
            self.call_after_refresh(self.redraw)
        if focused:  # the keys go to the game's widget first, as they did to the one it replaced
            self.game.focus()

    def stale(self) -> None:
        """Something was folded: redraw as soon as the stream has nothing more at hand, but not more often
        than each ``BURST`` seconds (``DIMMED`` behind a dialog): when the stream runs ahead, the events of a
        burst are drawn at once, and Textual composes the frame (at its next tick, ``TEXTUAL_FPS`` a second)."""
        overdue = self._stale and time.monotonic() - self._asked_at > OVERDUE
        if not self._stale or overdue:  # (overdue: the one asked for was lost, e.g. while the game's widget
            self._stale = True             # was not mounted yet; asking again costs one timer)
            self._asked += 1
            self._asked_at = time.monotonic()
            asked = self._asked
            wait = self._drawn_at + (BURST if self.on_top else DIMMED) - time.monotonic()
            if wait > 0:
                self.set_timer(wait, lambda: self._due(asked))
            else:
                self.call_later(self._due, asked)

    def _due(self, asked: int) -> None:
        """The redraw ``stale`` asked for, unless another drew since (a round's end draws at once), or a
        dialog is on its way over the table (``after_frame``): then once it is up (``_run_after_frame``), so
        that what came after the round's end (the next round's first decision) is drawn after its dialog, and
        a key meant for the dialog is not taken by the table, nor one meant for the table by the dialog."""
        if self._stale and asked == self._asked and not self._after_frame:
            self.redraw()

    def log_snapshot(self, again: bool) -> None:
        info = self.tv.info
        if info is None:
            return
        # the table's id, for ``tenpennies bot --table`` and ``play --spectate`` (shown nowhere else here)
        where = f"{'Back at' if again else 'At'} {info.name or 'the table'} (table {info.table_id})"
        self.log_region.add(where + self.game.where(), style="dim")
        if not again and not self.guide and not self.prefs.seen_guide(self.tv.game) and self.session.seat is not None \
                and self.game.guide_screen() is not None:  # (a game with no guide is not offered one)
            self.log_region.add("New to the game? ? then G: a guide to a turn", style="dim")

    def fold_event(self, incoming: Incoming) -> None:
        """Fold an event (``tv.read``'s) into the table view; the game's widget is handed the game's event."""
        kind, event = incoming.kind, incoming.event
        before = self.tv.view
        unstarted = before is None  # not started: a seat changed makes a host's refusal old news
        if self.tv.history(incoming.message):  # what the snapshot reflects: told, not folded
            line = self.tv.apply_event(incoming)
            if line is not None:
                self.log_region.add(line, "dim")
            self.recap()
            return
        line = self.tv.apply_event(incoming)
        self.recap()
        if kind is None:
            return
        # whose it is: the game's event's seat, else the table's own message's (a seat change names a whole
        # SeatInfo, never this seat's number: it counts as another's)
        whose = getattr(event if event is not None else getattr(incoming.message, kind), "seat", self.session.seat)
        if whose != self.session.seat:
            self._others_moved = True
        if kind == "seat_changed" and unstarted:
            self.say("")  # what the message line said was about the seats before
        if line is not None:
            if kind == "chat_posted":
                self.log_region.add(line, "bold cyan")
            else:
                self.log_region.add(line, self.game.line_style(event) if event is not None else "")
        if self.tv.view is not None and event is not None:
            self.game.folded(event, before)

    def recap(self) -> None:
        """A seat back at the table is told first what happened while it was away: the recap, last in the
        log, and its first line on the message line."""
        recap = self.tv.take_recap()
        if recap:
            log = self.log_region
            for line in recap:
                log.add(line, "bold yellow")
            self.say(Text(f"{recap[0]} (the log says what)", style="bold yellow"))

    # --- what the seat may do --------------------------------------------------------------------

    @property
    def view(self) -> View | None:
        """The game as the screen last drew it: keys act on what the player was shown (a burst of events
        folded since is drawn within ``BURST``)."""
        return self.drawn_view

    @property
    def legal(self) -> tuple[Command, ...]:
        """The commands the keys may send now: the decision drawn, unless it was answered already or is
        a new buy offer still ignoring keys (``paused``)."""
        v = self.drawn_view
        if v is None or self.session.seat is None or self.answered == self.decision or self.paused:
            return ()
        legal: tuple[Command, ...] = v.legal
        return legal

    @property
    def ticking(self) -> bool:
        """The screen's 1 s tick runs (only while a countdown is shown: an idle table wakes nobody)."""
        return self._ticking

    @property
    def paused(self) -> bool:
        """A new decision ignores keys for a moment (``TablePrefs.offer_pause``): until the screen shows its
        keys again, so that what is drawn and what the keys do agree."""
        return self._paused

    @property
    def waiting(self) -> bool:
        info = self.tv.info
        return self.tv.view is None and (info is None or info.status == pb.TABLE_STATUS_WAITING)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        match action:
            case "add_bot" | "start":
                return self.host is not None and self.waiting
            case "leave":
                return self.leave_to_lobby
            case "history":
                return self.history is not None
            case "close_chat":
                return self.chat is not None
        return True

    # --- drawing ---------------------------------------------------------------------------------

    def tick(self) -> None:
        self.prompt_line.show(self.prompt())
        # the tick runs only while a clock counts down on the screen: an idle table wakes nobody
        counting = bool(self.tv.deadline_ms) or (self.link is not None and not self.link.up)
        if counting != self._ticking:
            self._ticking = counting
            if counting:
                self._tick.resume()
            else:
                self._tick.pause()

    @property
    def on_top(self) -> bool:
        """No dialog over the table (``is_current`` is also true of a screen seen dimmed under one)."""
        return self.is_attached and self.app.screen is self

    def on_resize(self, event: events.Resize) -> None:
        """A wide terminal puts the log beside the seats (and the game's panel under them)."""
        self.set_class(event.size.width >= WIDE, "wide")

    def on_screen_resume(self) -> None:
        """A dialog over the table closed: what came meanwhile is drawn at once."""
        self.redraw()

    def redraw(self) -> None:
        """Hand each region what it shows now; each draws again only if that changed.

        Behind a dialog (the round's end, help) the table is drawn at most each ``DIMMED`` seconds: Textual
        composes every frame of a dialog whole, the screen under it dimmed (several times the cost of the
        table's own frame), so a table that kept drawing under it at the stream's pace would fall behind a
        fast stream. Everything that came meanwhile is drawn as soon as the dialog closes
        (``on_screen_resume``)."""
        self._stale = False
        if not self.is_mounted or not all(region.is_attached for region in (
                self.log_region, self.seats_strip, self.prompt_line, self.panel_line, self.header_line)):
            return  # the screen is being taken down (its regions go one by one; a timer may fire meanwhile)
        if self._swapping or not self.game.is_mounted:
            # its regions are not composed yet (new, or swapped in): the game's widget asks for the redraw
            # once it is mounted (``GameTable.on_mount``), rather than this asking again after every frame
            self._stale = True
            return
        self._drawn_at = time.monotonic()
        if self._looks is not None:
            self._looks.resume()  # the screen asked again for a while (``look_again``)
        if self.drawn_view is None and self.tv.view is not None and self.session.seat is not None \
                and not self.prefs.seen_guide(self.tv.game) and self.guide and self.on_top:
            self.call_later(self.show_guide)  # a player's first game: the guide to a turn, once
        self.drawn_view = self.tv.view
        shown = (self.tv.decision, self.drawn_view.legal if self.drawn_view is not None else ())
        if shown != self._shown:
            self._shown = shown
            self.new_decision()
        self.log_region.release()
        self.header_line.show(self.header())
        self.seats()
        wide = self.has_class("wide") and self.view is not None
        self.panel_line.show(self.game.panel(self.width_of(self.panel_line)) if wide else Text())
        self.game.redraw()
        self.tick()
        keys = tuple(self.check_action(action, ()) for action in actions_of(type(self))) + self.game.keys()
        if keys != self._keys:
            # the footer rebuilds itself (some ms) on every refresh_bindings: once, on a change (the first
            # redraw, as the screen mounts, finds the footer composing itself anyway)
            if self._keys is not None:
                self.refresh_bindings()
            self._keys = keys

    def new_decision(self) -> None:
        """The decision drawn changed: a command names the new one, a new buy offer ignores keys for a
        moment, and one another seat's move brought is announced (the prompt highlighted, the bell)."""
        self.decision = self.tv.decision
        self.answered = -1
        self._decisions += 1
        v = self.drawn_view
        if v is None or not v.legal or self.session.seat is None:
            self._paused = False
            return
        self._paused = self.game.pauses(v.legal) and self.prefs.offer_pause > 0
        if self._paused:
            drawn = self._decisions
            self.set_timer(self.prefs.offer_pause, lambda: self.resume_keys(drawn))
        if self.game.answer_by_itself():
            return
        if self._others_moved:
            prompt = self.prompt_line
            prompt.add_class("new")
            self.set_timer(FLASH, lambda: prompt.remove_class("new"))
            if self.prefs.bell and self.on_top:
                self.app.bell()
        self._others_moved = False

    def resume_keys(self, decision: int) -> None:
        """A new offer's moment is over: its keys are drawn and answer it (if it is still the one drawn)."""
        if decision == self._decisions and self._paused:
            self._paused = False
            self.redraw()

    def save_prefs(self) -> None:
        """Remember the table settings (when this screen has somewhere to keep them)."""
        if self.home is not None:
            try:
                self.prefs.save(self.home)
            except OSError:
                pass  # not remembered: the game goes on

    def who(self, seat: int) -> str:
        """The seat's name as the log says it (You for this seat)."""
        return self.tv.name(seat)

    def header(self) -> Text:
        if self.view is None:
            info = self.tv.info
            name = info.name if info is not None and info.name else "Table"
            return Text(f"{name} {self.card_style.dot} waiting to start", style="bold")
        return self.game.header(self.width_of(self.header_line))

    def seats(self) -> None:
        """The seats strip: who sits where (with the game's figures, once it goes on)."""
        strip = self.seats_strip
        info = self.tv.info
        if info is None:
            strip.connecting()
            return
        seat_info = {s.seat: s for s in info.seat_info}
        lines: list[SeatLine] = []
        for s in range(info.seats):
            si = seat_info.get(s)
            flags: tuple[str, ...] = ()
            if si is None or si.kind in (pb.SEAT_KIND_EMPTY, pb.SEAT_KIND_UNSPECIFIED):
                name = "(empty)"
            else:
                name = self.who(s)
                if si.kind == pb.SEAT_KIND_BOT or si.bot_playing:
                    flags = ("bot",)
                elif not si.connected:
                    flags = ("away",)
            lines.append(SeatLine(name, flags))
        width = self.width_of(strip)
        if self.view is None:
            strip.seat(tuple(lines), None, width)
        else:
            strip.seat(*self.game.seat_lines(tuple(lines), width), width, self.seats_room())

    def seats_room(self) -> int:
        """The rows the seats strip may take (0: not laid out yet): beside the log, the side's less the
        game's panel; above it, the middle's less the log's least (``#log``'s min-height)."""
        if self.has_class("wide"):
            side = self.side.content_size.height
            return max(0, side - self.panel_line.outer_size.height) if side else 0
        middle = self.middle.content_size.height
        return max(1, middle - LOG_LEAST) if middle else 0

    def on_middle_resized(self) -> None:
        if self.view is not None and self.is_attached:
            self.seats()

    def width_of(self, selector: str | Widget) -> int:
        """The cells a line of this widget (or the one ``selector`` finds) holds (78 at 80 columns, before the
        first layout)."""
        if not self.is_mounted:
            return 78
        if isinstance(selector, str):
            region = self._regions.get(selector) or self.query_one(selector)
        else:
            region = selector
        return region.content_size.width or 78

    def clock(self) -> str:
        deadline = self.tv.deadline_ms
        if not deadline:
            return ""
        left = max(0, math.ceil((deadline - time.time() * 1000) / 1000))
        return f" {self.card_style.dot} {left} s"

    def prompt(self) -> Text:
        tv, dot = self.tv, f" {self.card_style.dot} "
        if self.ended:
            return Text(sentence(self.ended) + ("" if self.leave_to_lobby is False else "  L: back to the lobby"),
                        style="bold red")
        if self.link is not None and not self.link.up:
            left = max(0, math.ceil(self.retry_at - time.monotonic()))
            return Text(f"Reconnecting… {self.link.reason}; trying again in {left} s", style="bold yellow")
        if tv.info is None:
            return Text("Connecting…", style="dim")
        if self.view is None:
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
        return self.game.prompt(self.clock())

    def say(self, text: str | Text, error: bool = False) -> None:
        self.message_line.say(text, error)

    def on_game_table_said(self, message: GameTable.Said) -> None:
        message.stop()
        self.say(message.text, message.error)

    def on_game_table_chosen(self, message: GameTable.Chosen) -> None:
        message.stop()
        self.send(message.command, by_itself=message.by_itself)

    # --- sending ---------------------------------------------------------------------------------

    def send(self, command: Command, *, by_itself: bool = False) -> None:
        """Send ``command`` as the answer to the decision drawn (``by_itself``: the client's own answer,
        an auto-pass, which the pause of a new offer does not hold back)."""
        if self.link is not None and not self.link.up:  # nothing goes out: the stream is down
            self.say_link(f"Not connected: {self.link.reason}; reconnecting, nothing was sent")
            return
        v = self.drawn_view
        if v is None or not v.legal or self.answered == self.decision:
            return
        if self.tv.decision != self.decision:  # a newer decision is folded, not drawn yet: not this one's key
            self.say("The decision changed as you pressed: look again.", error=True)
            return
        if self.paused and not by_itself:
            self.say("A new offer: keys wait a moment.")
            return
        self.say("")
        self.answered = self.decision
        self.run_worker(self._send(command, self.decision), group="send", exit_on_error=False)

    async def _send(self, command: Command, decision: int) -> None:
        try:
            await self.session.send(wire(self.tv.game or DEFAULT_GAME).command_to_pb(command), decision=decision)
        except ServerError as error:  # once, on the message line (a toast would cover the hand and prompt)
            if self.answered == decision:
                self.answered = -1  # refused: the decision is still open
            if error.link_trouble:
                self.say_link(f"Not sent: {error.words}; reconnecting")
            else:
                self.say(self.card_style.words(error.words), error=True)
            self.redraw()
            return
        self.game.sent(command)

    def say_link(self, text: str) -> None:
        """Say the link's trouble on the message line, until the stream is back (``follow`` clears it)."""
        self._link_said = True
        self.say(text, error=True)

    # --- actions: the table ----------------------------------------------------------------------

    def action_add_bot(self, strategy: str) -> None:
        """Add a bot of ``strategy`` ("": the game's own default bot)."""
        if self.host is not None:
            self.run_worker(self._host_call("add", strategy), group="host", exit_on_error=False)

    def action_start(self) -> None:
        if self.host is not None:
            self.run_worker(self._host_call("start", ""), group="host", exit_on_error=False)

    async def _host_call(self, what: str, strategy: str) -> None:
        assert self.host is not None
        try:
            if what == "add":
                await self.connection.add_bot(self.host.table_id, self.host.host_token,
                                              strategy or default_bot(self.tv.game))
            else:
                await self.connection.start(self.host.table_id, self.host.host_token)
        except ServerError as error:
            self.say(error.words, error=True)

    def open_review(self) -> None:
        """The review of this seat's play (the game-end screen's ``r``): the finished game's record from the
        server, then the review's screen."""
        self.run_worker(self._review(), group="review", exclusive=True, exit_on_error=False)

    async def _review(self) -> None:
        seat = self.session.seat
        if seat is None:
            return
        try:
            record = await self.connection.game_record(self.session.table_id, token=self.session.token)
        except ServerError as error:
            self.say(error.words, error=True)
            return
        self.app.push_screen(ReviewScreen(record, seat, self.source, style=self.card_style))

    @property
    def your_games(self) -> Callable[[], object] | None:
        """What opens your games (the local games played), where this table keeps them; None at a server's."""
        return self.action_history if self.history is not None else None

    def action_history(self) -> None:
        """Your games (``H``, and the game-end screen's): the local games played, each to replay or review."""
        if self.history is not None:
            self.app.push_screen(HistoryScreen(self.history, style=self.card_style))

    def action_chat(self) -> None:
        """Open the chat line (it exists only while open, so that it never takes the table's keys)."""
        if self.chat is None:
            self.chat = Input(id="chat", placeholder="Say something to the table (enter sends, esc closes)")
            self.mount(self.chat, before=self.footer)
            self.chat.focus()

    def action_close_chat(self) -> None:
        if self.chat is not None:
            self.chat.remove()
            self.chat = None
        self.game.focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.remove()
        if event.input is self.chat:
            self.chat = None
        self.game.focus()
        if text:
            self.run_worker(self._chat(text), group="chat", exit_on_error=False)

    async def _chat(self, text: str) -> None:
        try:
            await self.session.chat(text, name="" if self.session.token else self.name_in_chat)
        except ServerError as error:
            self.say(error.words, error=True)

    def action_help(self) -> None:
        """The rule the message line cites, from the rule book (``?`` again there: the keys), else the keys."""
        said = self.message_line.text
        number = cited(said.plain if isinstance(said, Text) else str(said or ""))
        text = rule_text(number) if number is not None else None
        if number is not None and text is not None:
            self.app.push_screen(RuleScreen(number, text), lambda keys: self.show_keys() if keys else None)
        else:
            self.show_keys()

    def show_keys(self) -> None:
        extra: list[tuple[str, str]] = []
        if self.host is not None and self.waiting:
            extra += [("b / B", f"add a {default_bot(self.tv.game)} / random bot"), ("g", "start the game")]
        extra.append(("L", "leave the table") if self.leave_to_lobby else ("q", "quit"))
        if self.history is not None:
            extra.append(YOUR_GAMES)
        def closed(guide: object) -> None:
            if guide is True:
                self.show_guide()
        self.app.push_screen(self.game.help_screen(extra, watching=self.session.seat is None), closed)

    def show_guide(self) -> None:
        """The game's guide to a turn over the table; closed (read or skipped), it is remembered as seen."""
        guide = self.game.guide_screen()
        if guide is None:
            return
        def closed(_: None) -> None:
            if not self.prefs.seen_guide(self.tv.game):
                self.prefs.saw_guide(self.tv.game)
                self.save_prefs()
        self.app.push_screen(guide, closed)

    def action_leave(self) -> None:
        if not self.leave_to_lobby:
            return
        seated = self.session.seat is not None and not self.ended
        if seated and (self.view is None or not self.game.over):
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
            self.notify(error.words, severity="error")
        self.workers.cancel_group(self, "stream")
        self.app.pop_screen()
