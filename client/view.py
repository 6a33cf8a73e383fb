"""One seat's (or a spectator's) picture of a table, folded from its stream: a snapshot, then events.

The table's game is the one its ``TableInfo`` names (``engine.games``; empty: the default, Ten Pennies).
The terminal client and remote bots read the game through ``TableView.view``, the game's own view of the
seat (the same value the engine's own bots play from), kept up to date event by event by the game's fold
(``Kind.knowing``/``opening`` and ``Kind.fold``: each wire event mapped back to the game's with its wire
entry's ``event_from_pb``, ``wire.games``), and its log is the game's narrator's words (``Kind.narrator``).
What a fold cannot know, and so where the view may differ from a fresh snapshot, is the game's to say (Ten
Pennies': its fold's module): the legal commands, at least.

This module adds only what is the table's, not the game's: who sits where (seat changes), chat, the
decision timer (``deadline_ms``; ``TimerExpired`` marks the next line of the seat it acted for), and the
legal commands, which are the server's (the snapshot's, then each private ``DecisionRequest``): nothing
here asks the engine what is legal. A seat the server plays for (a bot's, a taken-over player's, the
draw after a timed-out decline) is asked nothing, so its view lists no legal commands where a snapshot
would list the engine's. Other seats' deadlines are private; see ``deadline_ms``.

A game's view is a dataclass whose ``legal`` holds the seat's legal commands (the server's, put there
by ``dataclasses.replace``); its ``Known`` has the view as ``.view``.

Each wire event is decoded once (``TableView.read``: an ``Incoming``, the wire's message with the game's event
it carries); whoever reads it after the fold (the terminal client's table and its game's widget) takes the
game's event from there, never from the wire message again.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tenpennies.engine.cards import Card
from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.engine.interface import Kind, Known, Narrator, Rules, View
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.games import WireGame, wire
from tenpennies.wire.words import seat_label


def bot_plays(name: str, playing: bool = True) -> str:
    """A player's seat taken over in words: a bot plays for it (``playing``), or its player is back."""
    return f"a bot plays for {name}" if playing else f"{name} is back"


def timed_out(line: str) -> str:
    """The line of a move the timer made for a seat (the move in the narrator's words)."""
    return f"Time ran out: {line}"


@dataclass(frozen=True, slots=True)
class Incoming:
    """One event of a table's stream, read once (``TableView.read``). ``message``: the wire's; ``kind``: which of
    the wire's events it is (its ``kind`` field's name; None: none, a newer peer's); ``event``: the game's own
    event it carries, decoded with the table's rules (the engine's value, which the game's fold, narrator and
    widgets take), None for the table's own events (seats, chat, timers, decisions), which the table reads
    from ``message``."""

    message: pb.Event
    kind: str | None
    event: Any | None


TABLE_EVENTS = frozenset({"seat_changed", "chat_posted", "decision_request", "timer_expired"})
"""The wire's events that are the table's own, not a game's: no game decodes them."""
LOG_LINES = 200
CHAT_LINES = 100
RECAP_MOVES = 4  # lines of the moves made for a seat while it was away, in a recap (then "and N more")


class TableView:
    """What one seat (or a spectator, seat None) knows of a table, folded from its stream.

    ``apply_snapshot`` starts (or restarts, after a reconnect) from a snapshot; ``apply_event`` folds
    each event after it (read first with ``read`` where the caller wants the game's event too). Attributes,
    all read-only for callers:

    * ``info``: the table (name, seats, settings, status), kept current from seat changes and the
      game's start and end.
    * ``game``: the name of the table's game (``engine.games``); "" before a snapshot.
    * ``view``: the game as this seat knows it; None before the game starts. Each event that changes
      the game makes a new one: a view once handed out never changes, so a screen may keep the one it
      drew and compare.
    * ``decision``: the sequence of the DecisionRequest this seat's legal commands came from (0: none
      open, or a snapshot that could not name it); a command sent names it, so that the server refuses an answer
      to a decision no longer open.
    * ``deadline_ms``: unix ms when this seat's open decision times out (0: none, or no timer). A
      spectator, or a seat not awaited, has the snapshot's value (the awaited seat due first) until the
      game moves; then 0, since others' deadlines are private.
    * ``sequence``: the last sequence applied; events at or below it are history already reflected.
    * ``round_end``: the last round's end (the game's event of the wire's ``round_ended``: the hands shown,
      points, scores) until the next one, for a game that plays rounds; ``round_ends``: every round's end
      this view has seen or been told of (history included), by round number, in the order played.
    * ``game_end`` and ``winners``: the end of the game (the wire's GameEnded: every game's scores and
      winners); ``game_ended``: the same end as the game's own event (what its widget's end shows).
    * ``pile``: the discard pile as far as it is known, bottom first, for a game whose seats remember one
      (Ten Pennies' ``Known.pile``: every discard is face up; the whole pile for a fold that saw the
      round's deal, else its top ``len(pile)`` cards); empty for any other game.
    * ``log``: the game in words (the narrator's), newest last; ``chat``: (who, text).
    * ``recap``: after a seat's return, what happened while it was away (``take_recap``).

    A stream that resumes (``SubscribeRequest.from_sequence``, 0 for the whole game) brings, after its
    snapshot, the events it missed: the snapshot reflects them, so they are not folded, but each is told
    by the narrator into the log (as it would have been, had the stream been there), and for a seat the
    moves made for it while it was away (by the takeover bot, or the timer) and the rounds that ended
    meanwhile become the ``recap``, once the stream is live again.

    ``card_text`` writes a card in the log (None: the game's own notation); ``you`` is what to call this
    seat there ("You"; None: by its name). A table of a game this client does not have is refused
    (``mapping.BadRequest`` from ``apply_snapshot``, naming the games it has).
    """

    def __init__(self, seat: int | None, card_text: Callable[[Card], str] | None = None,
                 you: str | None = None) -> None:
        self.seat = seat
        self.card_text = card_text
        self.you = you
        self.info: pb.TableInfo | None = None
        self.game = ""
        self.view: View | None = None
        self.deadline_ms = 0
        self.decision = 0
        self.sequence = 0
        self.round_end: Any | None = None  # (the game's events)
        self.round_ends: dict[int, Any] = {}
        self.game_end: pb.GameEnded | None = None
        self.game_ended: Any | None = None
        self.winners: tuple[int, ...] = ()
        self.pile: list[Card] = []
        self.log: collections.deque[str] = collections.deque(maxlen=LOG_LINES)
        self.chat: collections.deque[tuple[str, str]] = collections.deque(maxlen=CHAT_LINES)
        self.rules: Rules | None = None
        self._kind: Kind[Any] | None = None  # the table's game, and its wire form
        self._wire: WireGame | None = None
        self._known: Known | None = None  # the game's fold (``view`` is its view, with the server's legal commands)
        self._narrator: Narrator | None = None
        self._timed_out: int | None = None  # the seat a timer just acted for, until its line is logged
        self._arriving: set[int] = set()  # seats joined but not yet here: their first coming is the joining
        self._told = 0  # the last sequence the log has told (history after it, up to ``sequence``, is told)
        self._history: _History | None = None  # the history being told since the last snapshot
        self.recap: list[str] = []

    # --- the stream ------------------------------------------------------------------------------

    def apply_snapshot(self, snapshot: pb.Snapshot) -> None:
        """Start again from ``snapshot``: everything but the log and the chat is reset from it."""
        self.game = snapshot.table.game or DEFAULT_GAME  # a server that names no game plays the default
        self._wire = wire(self.game)
        self._kind = kind(self.game)
        self.info = pb.TableInfo()
        self.info.CopyFrom(snapshot.table)
        self.rules = self._wire.rules_from_pb(snapshot.table.rules)
        self._narrator = self._kind.narrator(self.rules, self.name, seat=self.seat, card=self.card_text)
        self._told = max(self._told, self.sequence)
        self.sequence = snapshot.sequence
        self._history = _History(self.seat) if snapshot.sequence > self._told else None
        self.deadline_ms = snapshot.decision_deadline_ms
        self.round_end = None
        self.game_end = self.game_ended = None
        self._timed_out = None
        self._known = self.view = None
        self.pile = []
        if snapshot.HasField("game"):
            self._follow(self._kind.knowing(self._wire.view_from_pb(snapshot.game, self.rules)))
            self.winners = tuple(snapshot.game.winners)
        else:
            self.winners = ()
        self.decision = snapshot.decision  # (after the fold: a new view names none)

    def read(self, event: pb.Event) -> Incoming:
        """``event`` read once: which it is, and the game's event it carries (decoded with the table's rules;
        None for the table's own, and before a snapshot)."""
        what = event.WhichOneof("kind")
        game_event = None
        if what is not None and what not in TABLE_EVENTS and self._wire is not None and self.rules is not None:
            game_event = self._wire.event_from_pb(event, self.rules)
        return Incoming(event, what, game_event)

    def apply_event(self, event: pb.Event | Incoming) -> str | None:
        """Fold one event (the wire's, or as ``read`` read it); return the line it added to the log (None:
        none). Events at or below ``sequence`` are history the snapshot already reflects: not folded, but
        told (``history``)."""
        incoming = event if isinstance(event, Incoming) else self.read(event)
        event = incoming.message
        if event.sequence and event.sequence <= self.sequence:
            return self._told_again(incoming)
        self._caught_up()
        self.sequence = self._told = max(self.sequence, event.sequence)
        what = incoming.kind
        if what is None:
            return None
        if self.info is not None:
            self.info.last_sequence = max(self.info.last_sequence, event.sequence)
        line: str | None = None
        if what == "seat_changed":
            line = self._seat_changed(event.seat_changed.seat)
        elif what == "chat_posted":
            chat = event.chat_posted
            who = chat.name or (self.name(chat.seat) if chat.HasField("seat") else "someone")
            self.chat.append((who, chat.text))
            line = f"{who}: {chat.text}"
        elif what == "decision_request":
            self._decision(event.decision_request, event.sequence)
        elif what == "timer_expired":  # what was done for the seat follows as events of its own: its line
            self._timed_out = event.timer_expired.seat  # (the first the seat's own events make) tells it, once
            self._decided()
        elif incoming.event is not None:  # the game's own (a stream begins with a snapshot)
            line = self._game_event(incoming)
        if line is not None:
            self.log.append(line)
        return line

    def history(self, event: pb.Event) -> bool:
        """Whether ``event`` is history the last snapshot reflects (told, not folded), as ``apply_event``
        will take it (ask before applying it)."""
        return bool(event.sequence) and event.sequence <= self.sequence

    def take_recap(self) -> list[str]:
        """The recap of what happened while this seat was away, once (empty: none, or not yet: it is made
        when the stream is live again)."""
        recap, self.recap = self.recap, []
        return recap

    def _told_again(self, incoming: Incoming) -> str | None:
        """An event of the history the snapshot reflects, told in the narrator's words (and kept for the
        recap), not folded; None for one told already, or that tells nothing."""
        history = self._history
        event = incoming.message
        if history is None or event.sequence <= self._told:
            return None
        self._told = event.sequence
        what = incoming.kind
        game_event = incoming.event
        line: str | None = None
        if what == "round_ended" and game_event is not None:
            self.round_ends[event.round_ended.round] = game_event
        if what == "seat_changed":
            changed = event.seat_changed.seat
            history.seat_changed(changed)
            if changed.bot_playing and changed.kind == pb.SEAT_KIND_PLAYER:
                line = bot_plays(self.name(changed.seat))
        elif what == "chat_posted":
            chat = event.chat_posted
            who = chat.name or (self.name(chat.seat) if chat.HasField("seat") else "someone")
            self.chat.append((who, chat.text))
            line = f"{who}: {chat.text}"
        elif what == "timer_expired":
            history.timed_out = event.timer_expired.seat
        elif game_event is not None and what is not None and self._narrator is not None:
            line = self._narrator.line(game_event)
            seat: int | None = getattr(game_event, "seat", None)
            if line is not None and history.timed_out is not None and seat == history.timed_out:
                history.timed_out = None
                line = timed_out(line)
            if line is not None:  # (cards dealt tell no move: ``told`` leaves them out)
                history.told(line, seat, what, self.name(self.seat) if self.seat is not None else "")
        if line is not None:
            self.log.append(line)
        if event.sequence >= self.sequence:
            self._caught_up()
        return line

    def _caught_up(self) -> None:
        """The history since the snapshot is told: what happened while this seat was away is the recap."""
        if self._history is not None:
            self.recap = self._history.recap()
            self._history = None

    def name(self, seat: int) -> str:
        """The seat's name as the table shows it: ``you`` for this seat when given, "seat N" for a seat
        with no name, and the name with its seat number where two seats share it (bots do)."""
        if seat == self.seat and self.you:
            return self.you
        return seat_label([s.name for s in self.info.seat_info] if self.info is not None else [], seat)

    # --- the game --------------------------------------------------------------------------------

    def _follow(self, known: Known) -> None:
        """The fold moved on to ``known``: the view and the pile follow it. The same ``known`` (an event
        that changed nothing) leaves the view as it was, with its legal commands."""
        if known is self._known:
            return
        pile = getattr(known, "pile", None)  # a game whose seats remember a discard pile (Ten Pennies)
        if pile is not None and (self._known is None or pile is not getattr(self._known, "pile", None)):
            self.pile = list(pile)
        self._known = known
        self.view = known.view
        self.decision = 0  # (a new view lists no legal commands until the next DecisionRequest)

    def _decision(self, request: pb.DecisionRequest, sequence: int) -> None:
        if self.seat is None or request.seat != self.seat or self.view is None or self._wire is None:
            return
        legal = tuple(self._wire.command_from_pb(self.seat, c) for c in request.legal_commands)
        self.view = dataclasses.replace(self.view, legal=legal)
        self.deadline_ms = request.deadline_ms
        self.decision = sequence

    def _decided(self) -> None:
        """A timer acted: this seat's open decision, if any, is over (as after every game event, which the
        fold leaves with no legal commands); a new one, if any, follows in the same batch."""
        self.deadline_ms = 0
        self.decision = 0
        if self.view is not None and self.view.legal:
            self.view = dataclasses.replace(self.view, legal=())

    def _game_event(self, incoming: Incoming) -> str | None:
        event, message = incoming.event, incoming.message
        assert self._kind is not None and self._narrator is not None  # (set with the rules, by the snapshot)
        assert self.info is not None and self.rules is not None
        if self._known is None:  # the game's first event: this view follows the game from its beginning
            self._start(self._kind.opening(self.seat, self.info.seats, self.rules))
        assert self._known is not None
        self._follow(self._kind.fold(self._known, event))
        self.deadline_ms = 0
        if self.view is None or not self.view.legal:
            self.decision = 0
        what = incoming.kind
        if what == "round_ended":  # (by the wire's round number: a game's own event may name none)
            self.round_end = self.round_ends[message.round_ended.round] = event
        elif what == "game_ended":
            self.game_end, self.game_ended = message.game_ended, event
            self.winners = tuple(message.game_ended.winners)
            self.info.status = pb.TABLE_STATUS_FINISHED
        line = self._narrator.line(event)
        if line is not None and self._timed_out is not None and getattr(event, "seat", None) == self._timed_out:
            self._timed_out = None
            line = timed_out(line)
        return line

    def _start(self, opening: Known) -> None:
        assert self.info is not None
        self.info.status = pb.TABLE_STATUS_PLAYING
        self.info.expires_at = 0
        self.round_end = self.game_end = self.game_ended = None
        self.round_ends = {}
        self.winners = ()
        self._follow(opening)

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
            return bot_plays(name)
        if index == self.seat:
            return None  # this seat's own comings and goings go without saying
        if before.bot_playing and not seat.bot_playing:
            return bot_plays(name, playing=False)
        if before.connected and not seat.connected:
            return f"{name} is away"
        if seat.connected and not before.connected and not arrived:
            return f"{name} is here"  # (one just joined: "joined" said it)
        return None


class _History:
    """What a seat's history (the events a resumed stream brings before it is live) says happened while the
    seat was away: from the last time the seat was seen going (its stream gone, or a bot playing for it),
    the moves made for it (one line for the moves it made in a row: a turn), the others' moves counted, and
    the rounds that ended."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.away = False        # the seat was seen going, and not coming back since
        self.timed_out: int | None = None  # the seat a timer just acted for, until its line is told
        self.moves: list[str] = []   # the seat's moves while away, a line a turn
        self.others = 0              # the other seats' moves meanwhile
        self.rounds: list[str] = []  # the rounds that ended meanwhile
        self._in_a_row = False       # the seat's last move is the last told: the next joins its line

    def seat_changed(self, seat: pb.SeatInfo) -> None:
        if seat.seat != self.seat:
            return
        if seat.bot_playing or not seat.connected:
            if not self.away:  # gone: what came before, the seat saw itself
                self.moves, self.others, self.rounds, self._in_a_row = [], 0, [], False
            self.away = True
        else:
            self.away = False

    def told(self, line: str, seat: int | None, kind: str, you: str) -> None:
        """A line of the history: the event's ``kind`` (the wire's), the ``seat`` whose it is (None: the
        table's), and ``you``, the name the line gives this seat."""
        if not self.away or kind.endswith("cards_received") or kind == "dealer_draw":
            return  # (cards dealt or drawn to the seat, a draw for the deal: no move of its own)
        if kind == "round_ended":
            self.rounds.append(line)
            self._in_a_row = False
        elif seat is None:
            return
        elif seat != self.seat:
            self.others += 1
            self._in_a_row = False
        elif self._in_a_row and self.moves:
            self.moves[-1] += "; " + _without(line, you)
        else:
            self.moves.append(line)
            self._in_a_row = True

    def recap(self) -> list[str]:
        if self.seat is None or not (self.moves or self.rounds):
            return []
        lines = [f"While you were away: {_count(len(self.moves), 'move')} made for you, {self.others} by the others"]
        shown = self.moves[-RECAP_MOVES:]
        if len(self.moves) > len(shown):
            lines.append(f"  ({len(self.moves) - len(shown)} earlier: the log above tells them)")
        lines += [f"  {line}" for line in shown]
        lines += [f"  {line}" for line in self.rounds[-2:]]
        return lines


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _without(line: str, you: str) -> str:
    """A move's line without its subject ("You drew the 7♥": "drew the 7♥"), to follow another of the seat's."""
    if line.startswith(f"{you} "):
        return line[len(you) + 1:]
    late = timed_out(f"{you} ")
    return "time ran out, " + line[len(late):] if line.startswith(late) else line
