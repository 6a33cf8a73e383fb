"""One seat's (or a spectator's) picture of a table, folded from its stream: a snapshot, then events.

The terminal client and remote bots read the game through ``TableView.view``, an engine ``SeatView``
(the same value the engine's own bots play from), kept up to date event by event by the engine's fold
(``tenpennies.engine.ten_pennies.fold``: each wire event mapped back to the engine's with
``mapping.event_from_pb``), and its log is the engine's narrator's words (``narrate.Narrator``). What the
fold cannot know, and so where the view may differ from a fresh snapshot, is listed in the fold's module:
the legal commands, other seats' buy answers while an offer is open (TP-4.7), and, for a fold begun
mid-round, the pile below the cards seen since.

This module adds only what is the table's, not the game's: who sits where (seat changes), chat, the
decision timer (``deadline_ms``; ``TimerExpired`` marks the next line of the seat it acted for), and the
legal commands, which are the server's (the snapshot's, then each private ``DecisionRequest``): nothing
here asks the engine what is legal. A seat the server plays for (a bot's, a taken-over player's, the
draw after a timed-out decline) is asked nothing, so its view lists no legal commands where a snapshot
would list the engine's. Other seats' deadlines are private; see ``deadline_ms``.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable

from tenpennies.engine.ten_pennies import Card, HouseRules, Known, Narrator, SeatView
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.fold import fold, opening
from tenpennies.engine.ten_pennies.narrate import round_end_why as why_in_words
from tenpennies.v1 import tenpennies_pb2 as pb
from tenpennies.wire import mapping

LOG_LINES = 200
CHAT_LINES = 100


class TableView:
    """What one seat (or a spectator, seat None) knows of a table, folded from its stream.

    ``apply_snapshot`` starts (or restarts, after a reconnect) from a snapshot; ``apply_event`` folds
    each event after it. Attributes, all read-only for callers:

    * ``info``: the table (name, seats, settings, status), kept current from seat changes and the
      game's start and end.
    * ``view``: the game as this seat knows it; None before the game starts. Each event that changes
      the game makes a new one: a view once handed out never changes, so a screen may keep the one it
      drew and compare.
    * ``deadline_ms``: unix ms when this seat's open decision times out (0: none, or no timer). A
      spectator, or a seat not awaited, has the snapshot's value (the awaited seat due first) until the
      game moves; then 0, since others' deadlines are private.
    * ``sequence``: the last sequence applied; events at or below it are history already reflected.
    * ``round_end``: the last round's end (the hands shown, points, scores) until the next one.
    * ``game_end`` and ``winners``: the end of the game.
    * ``pile``: the discard pile as far as it is known, bottom first (every discard is face up: the
      whole pile for a fold that saw the round's deal, else its top ``len(pile)`` cards).
    * ``log``: the game in words (the narrator's), newest last; ``chat``: (who, text).
    """

    def __init__(self, seat: int | None, card_text: Callable[[Card], str] = lambda c: c.text,
                 you: str | None = None) -> None:
        self.seat = seat
        self.card_text = card_text
        self.you = you  # what to call this seat in the log ("You"); None: by its name
        self.info: pb.TableInfo | None = None
        self.view: SeatView | None = None
        self.deadline_ms = 0
        self.sequence = 0
        self.round_end: pb.RoundEnded | None = None
        self.game_end: pb.GameEnded | None = None
        self.winners: tuple[int, ...] = ()
        self.pile: list[Card] = []
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
        self.chat: collections.deque[tuple[str, str]] = collections.deque(maxlen=CHAT_LINES)
        self.rules: HouseRules | None = None
        self._known: Known | None = None  # the engine's fold: ``view`` is its view, with the server's legal commands
        self._narrator: Narrator | None = None
        self._timed_out: int | None = None  # the seat a timer just acted for, until its line is logged
        self._arriving: set[int] = set()  # seats joined but not yet here: their first coming is the joining

    # --- the stream ------------------------------------------------------------------------------

    def apply_snapshot(self, snapshot: pb.Snapshot) -> None:
        """Start again from ``snapshot``: everything but the log and the chat is reset from it."""
        self.info = pb.TableInfo()
        self.info.CopyFrom(snapshot.table)
        self._rules(mapping.rules_from_pb(snapshot.table.rules))
        self.sequence = snapshot.sequence
        self.deadline_ms = snapshot.decision_deadline_ms
        self.round_end = None
        self.game_end = None
        self._timed_out = None
        if snapshot.HasField("game"):
            assert self.rules is not None
            self._follow(Known.of(mapping.view_from_pb(snapshot.game, self.rules)))
            self.winners = tuple(snapshot.game.winners)
        else:
            self._known = self.view = None
            self.winners = ()
            self.pile = []

    def apply_event(self, event: pb.Event) -> str | None:
        """Fold one event; return the line it added to the log (None: none). Events at or below
        ``sequence`` are history the snapshot already reflects, and are ignored."""
        if event.sequence and event.sequence <= self.sequence:
            return None
        self.sequence = max(self.sequence, event.sequence)
        kind = event.WhichOneof("kind")
        if kind is None:
            return None
        if self.info is not None:
            self.info.last_sequence = max(self.info.last_sequence, event.sequence)
        line: str | None = None
        if kind == "seat_changed":
            line = self._seat_changed(event.seat_changed.seat)
        elif kind == "chat_posted":
            chat = event.chat_posted
            who = chat.name or (self.name(chat.seat) if chat.HasField("seat") else "someone")
            self.chat.append((who, chat.text))
            line = f"{who}: {chat.text}"
        elif kind == "decision_request":
            self._decision(event.decision_request)
        elif kind == "timer_expired":  # what was done for the seat follows as events of its own: its line
            self._timed_out = event.timer_expired.seat  # (the first the seat's own events make) tells it, once
            self._decided()
        elif self.rules is not None:  # the game's own events (the stream begins with a snapshot, which says the rules)
            game_event = mapping.event_from_pb(event, self.rules)
            if game_event is not None:
                line = self._game_event(game_event, event)
        if line is not None:
            self.log.append(line)
        return line

    def name(self, seat: int) -> str:
        """The seat's name as the table shows it: ``you`` for this seat when given, "seat N" for a seat
        with no name, and the name with its seat number where two seats share it (bots do)."""
        if seat == self.seat and self.you:
            return self.you
        seats = self.info.seat_info if self.info is not None else []
        name = seats[seat].name if 0 <= seat < len(seats) else ""
        if not name:
            return f"seat {seat}"
        return f"{name} {seat}" if sum(1 for s in seats if s.name == name) > 1 else name

    # --- the game --------------------------------------------------------------------------------

    def _rules(self, rules: HouseRules) -> None:
        self.rules = rules
        self._narrator = Narrator(rules, self.name, self.card_text, seat=self.seat)

    def _follow(self, known: Known) -> None:
        """The fold moved on to ``known``: the view and the pile follow it."""
        if known is self._known:
            return
        if self._known is None or known.pile is not self._known.pile:
            self.pile = list(known.pile)
        self._known = known
        self.view = known.view

    def _decision(self, request: pb.DecisionRequest) -> None:
        if self.seat is None or request.seat != self.seat or self._known is None:
            return
        legal = tuple(mapping.command_from_pb(self.seat, c) for c in request.legal_commands)
        self._follow(dataclasses.replace(self._known, view=dataclasses.replace(self._known.view, legal=legal)))
        self.deadline_ms = request.deadline_ms

    def _decided(self) -> None:
        """A timer acted: this seat's open decision, if any, is over (as after every game event, which the
        fold leaves with no legal commands); a new one, if any, follows in the same batch."""
        self.deadline_ms = 0
        if self._known is not None and self._known.view.legal:
            self._follow(dataclasses.replace(self._known, view=dataclasses.replace(self._known.view, legal=())))

    def _game_event(self, event: ev.Event, message: pb.Event) -> str | None:
        if isinstance(event, ev.GameStarted):
            self._start(event)
        elif self._known is None:  # a game event before any game: nothing to fold it into
            return None
        else:
            self._follow(fold(self._known, event))
        self.deadline_ms = 0
        match event:
            case ev.RoundEnded():
                self.round_end = message.round_ended
            case ev.GameEnded(winners=winners):
                self.game_end = message.game_ended
                self.winners = winners
                if self.info is not None:
                    self.info.status = pb.TABLE_STATUS_FINISHED
        assert self._narrator is not None
        line = self._narrator.line(event)
        if line is not None and self._timed_out is not None and getattr(event, "seat", None) == self._timed_out:
            self._timed_out = None
            line = f"Time ran out: {line}"
        return line

    def _start(self, started: ev.GameStarted) -> None:
        self._rules(started.rules)
        if self.info is not None:
            self.info.status = pb.TABLE_STATUS_PLAYING
            self.info.expires_at = 0
        self.round_end = self.game_end = None
        self.winners = ()
        self._follow(opening(self.seat, started))

    # --- the table ---------------------------------------------------------------------------------

    def _seat_changed(self, seat: pb.SeatInfo) -> str | None:
        if self.info is None:
            return None
        index = seat.seat
        while len(self.info.seat_info) <= index:
            self.info.seat_info.add(seat=len(self.info.seat_info), kind=pb.SEAT_KIND_EMPTY)
        before = pb.SeatInfo()
        before.CopyFrom(self.info.seat_info[index])
        self.info.seat_info[index].CopyFrom(seat)
        name = self.name(index)
        if seat.kind == pb.SEAT_KIND_EMPTY:
            self._arriving.discard(index)
            return f"{before.name or f'seat {index}'} left" if before.kind != pb.SEAT_KIND_EMPTY else None
        if before.kind != seat.kind or before.name != seat.name:
            if seat.kind == pb.SEAT_KIND_PLAYER and not seat.connected:
                self._arriving.add(index)
            return f"{name} joined"
        arrived = seat.connected and index in self._arriving
        if seat.connected:
            self._arriving.discard(index)
        if seat.bot_playing and not before.bot_playing:
            return f"a bot plays for {name}"
        if index == self.seat:
            return None  # this seat's own comings and goings go without saying
        if before.bot_playing and not seat.bot_playing:
            return f"{name} is back"
        if before.connected and not seat.connected:
            return f"{name} is away"
        if seat.connected and not before.connected and not arrived:
            return f"{name} is here"  # (one just joined: "joined" said it)
        return None


def round_end_why(end: pb.RoundEnded, name: Callable[[int], str]) -> str:
    """Why a round ended, in the narrator's words: who went out, else what ran out."""
    return why_in_words(end.out if end.HasField("out") else None, mapping.round_end_reason_from_pb(end.reason), name)
