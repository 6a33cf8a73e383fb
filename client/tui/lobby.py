"""The lobby: a server's tables, live, and what a player does there (make a table, fill it, join, watch).

The table list follows ``Connection.watch_tables`` in a worker; when the stream breaks (or never
comes up) the screen says so, shows no tables, and starts the worker again after a jittered backoff of
at most about 3 s (a timer, not a loop). Everything this client may do to a table depends on what it
holds there: the host's token for the tables it made (``HostedTable``), a seat's token for the seats it
joined (``SeatSession``). Both are remembered per server in the client's config file
(``ServerMemory``), so that after a restart ``enter`` takes a seat up again and the host keys work;
tables gone or finished are forgotten.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import grpc
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, OptionList, Select, Static, Switch
from textual.widgets.option_list import Option

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.engine.interface import Kind, RuleError, Rules
from tenpennies.engine.knobs import Knob, KnobValue
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.games import names, wire
from tenpennies.wire.record import GameRecord
from tenpennies.wire.words import DECISION_SECONDS, STATUS_WORDS

from ..arguments import game_title
from ..connection import Backoff, Connection, HostedTable, SeatSession, ServerError
from ..settings import ServerMemory, TablePrefs
from ..trust import explain, wrong_password
from .cards import CardStyle, clip
from .common import RETRY_FIRST, RETRY_MOST, LiveScreen, default_bot, filled, sentence
from .footer import KeysFooter
from .games import screen_game
from .review import ReviewScreen
from .standings import StandingsScreen, progress
from .table import TableScreen
from .trust import PasswordScreen
from .viewer import open_replay, review_for, seat_of_person

COLUMNS = (("name", "Table"), ("seats", "Seats"), ("status", "Status"), ("preset", "Game"),
           ("timer", "Timer"), ("seed", "Seed"), ("players", "Players"))
# Widths that keep a row within 80 columns (each column also takes a space either side).
NAME_WIDTH = 14
PLAYERS_WIDTH = 19
# Codes that mean the server did not answer at all (rather than answered no).
UNANSWERED = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})


def unanswered(error: ServerError) -> bool:
    return error.code() in UNANSWERED


def refusal(error: ServerError) -> str:
    """A server's refusal as the player reads it: its words (which start with the rule they cite)."""
    return error.words


def failure(error: ServerError, address: str) -> str:
    """What went wrong with a call: the server's refusal (``Refused: ...``), or, when it did not answer at
    all, that it does not (gRPC's own words about sockets say nothing to a player)."""
    if unanswered(error):
        return explain(error, address) or f"The server at {address} does not answer"
    return f"Refused: {refusal(error)}"


def seat_name(seat: pb.SeatInfo) -> str:
    if seat.kind == pb.SEAT_KIND_EMPTY or not seat.name:
        return "-"
    return seat.name


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def players_text(info: pb.TableInfo, mine: int | None) -> str:
    """Who sits at a table, compactly: the players by name in seat order (``>`` marks this client's own
    seat), then how many bots and free seats: ``>Ana, bob, 2 bots, 1 free``."""
    names = [(">" if seat.seat == mine else "") + seat_name(seat)
             for seat in info.seat_info if seat.kind == pb.SEAT_KIND_PLAYER]
    bots = sum(1 for seat in info.seat_info if seat.kind == pb.SEAT_KIND_BOT)
    free = info.seats - filled(info)
    parts = names + ([_count(bots, "bot", "bots")] if bots else []) + ([f"{free} free"] if free else [])
    return ", ".join(parts) or "-"


def table_row(info: pb.TableInfo, hosted: bool, mine: int | None, *, ascii: bool = False,
              players_width: int = PLAYERS_WIDTH) -> tuple[Text | str, ...]:
    """The lobby's row for a table: its name (``*`` marks a table this client hosts, a lock a private
    one: ``#`` under ``ascii``), seats filled of all, status, game and preset, decision timer, the seed of a seeded
    table, and who sits there (``>`` marks this client's own seat), each cut with ``…`` so that a row fits
    80 columns (``players_width``: the room the lobby found for the Players column)."""
    lock = ("#" if ascii else "🔒") if info.locked else ""
    name = Text(lock) + Text(clip(info.name or info.table_id, NAME_WIDTH - len(lock) * (1 if ascii else 2)))
    if hosted:
        name = Text("*", style="bold") + name
    timer = info.settings.decision_seconds if info.settings.HasField("decision_seconds") else DECISION_SECONDS
    return (name, f"{filled(info)}/{info.seats}", STATUS_WORDS.get(info.status, "?"),
            game_text(info), f"{timer}s" if timer else "off",
            str(info.seed) if info.HasField("seed") else "", clip(players_text(info, mine), players_width))


def rules_of(info: pb.TableInfo) -> Rules | None:
    """A listed table's rules, read by its game's wire entry (None for a game this client lacks)."""
    game = info.game or DEFAULT_GAME
    try:
        return wire(game).rules_from_pb(info.rules)
    except (BadRequest, RuleError, ValueError):
        return None


def preset_of(info: pb.TableInfo) -> str:
    """The table's preset, in the words of its game's rule book ("" for a game without presets, or one this
    client lacks)."""
    rules = rules_of(info)
    if rules is None:
        return ""
    return str(kind(info.game or DEFAULT_GAME).rules_to_dict(rules).get("preset", ""))


def game_text(info: pb.TableInfo) -> str:
    """A table's game in the list, as its game's screen entry says it (a Ten Pennies table by its preset,
    ``standard``, ``deuces``; a Thirty-One one as ``31 switch``); a game this client lacks by its name."""
    game = info.game or DEFAULT_GAME
    rules = rules_of(info)
    return screen_game(game).label(rules) if rules is not None else game


def players_room(rows: list[tuple[Text | str, ...]], width: int) -> int:
    """The cells left for the Players column when the other columns are as wide as ``rows`` make them
    (each column also takes a space either side); never less than ``PLAYERS_WIDTH``."""
    def cells(value: Text | str) -> int:
        return (value if isinstance(value, Text) else Text(value)).cell_len

    others = sum(max([len(label), *(cells(row[i]) for row in rows)]) + 2 for i, (_, label) in enumerate(COLUMNS[:-1]))
    return max(PLAYERS_WIDTH, width - others - 2)


# --- the create-table form ----------------------------------------------------------------------------

@dataclass(frozen=True)
class TableForm:
    """What the create-table form asks the server for."""

    name: str
    seats: int
    rules: pb.HouseRules
    decision_seconds: int
    password: str = ""  # a private table's (empty: anyone may join)
    game: str = DEFAULT_GAME  # by its name in ``engine.games``


def knob_class(game: str, knob: Knob | None = None) -> str:
    """The class of the form's widgets of ``game``'s rules (of one ``knob`` of them)."""
    return f"knobs-{game}" if knob is None else f"knob-{game}-{knob.name}"


def setters(played: Kind[Any]) -> frozenset[str]:
    """The knobs of a game whose value sets others' (a preset: Thirty-One's): those for which some value set
    alone makes another knob's differ from its default (``Kind.rules_from_dict``)."""
    base = played.rules_to_dict(played.rules_from_dict({}))
    found = set()
    for knob in played.knobs:
        values: tuple[KnobValue, ...] = knob.words if knob.choices else (True, False) if knob.kind is bool else ()
        for value in values:
            try:
                made = played.rules_to_dict(played.rules_from_dict({knob.name: value}))
            except (RuleError, ValueError, TypeError):
                continue
            if any(made.get(name) != base.get(name) for name in base if name != knob.name):
                found.add(knob.name)
                break
    return frozenset(found)


class CreateTableScreen(ModalScreen[HostedTable | None]):
    """A form for a new table: its name, its game (every game played over the wire here), its seats (as many as
    the game allows), every knob of the game's rules (``Kind.knobs``: Ten Pennies' house rules of TP-6,
    Thirty-One's of its rule book; those the rules chosen play, ``Knob.applies_to``; a preset sets the knobs it
    sets as it is chosen) and the decision timer. The server judges the rules; a refusal is shown with the rule
    it cites and the form stays open."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "create", "Create")]
    AUTO_FOCUS = "#name"

    def __init__(self, connection: Connection, name: str) -> None:
        super().__init__()
        self.connection = connection
        self.default_name = name
        self.games = [DEFAULT_GAME, *(game for game in names() if game != DEFAULT_GAME)]
        self.fields: dict[str, tuple[str, Knob]] = {}  # a knob's field's id: its game, and the knob
        self.seats_offered = kind(DEFAULT_GAME).seats  # the seats the form offers: the chosen game's

    def compose(self) -> ComposeResult:
        seats = self.seats_offered
        with Vertical(id="create-box"):
            yield Label("New table", id="create-title")
            with VerticalScroll(id="create-fields"), Grid(id="create-grid"):
                yield Label("Name")
                yield Input(self.default_name, id="name", max_length=40, compact=True)
                yield Label("Game")
                yield Select([(game_title(game), game) for game in self.games], value=DEFAULT_GAME,
                             allow_blank=False, id="game", compact=True)
                yield Label(self.seats_label(seats), id="seats-label")
                yield Select(self.seat_choices(seats), value=self.seats_for(seats, 4), allow_blank=False, id="seats",
                             compact=True)
                for game in self.games:  # each knob also of a class of its own: shown when the rules play it
                    for knob in kind(game).knobs:
                        classes = f"{knob_class(game)} {knob_class(game, knob)}"
                        yield Label(knob.label, classes=classes)
                        yield from self.knob_field(game, knob, classes=classes)
                yield Label("Decision timer (s)")
                yield Input(str(DECISION_SECONDS), id="decision_seconds", restrict=r"[0-9]*", max_length=5,
                            compact=True, tooltip="0: no timer")
                yield Label("Password")
                yield Input("", id="password", password=True, max_length=128, compact=True,
                            placeholder="none: anyone may join", tooltip="a private table: joining and watching "
                                                                         "it need this password")
            yield Static("", id="create-error")
            with Horizontal(id="create-buttons"):
                yield Button("Create", id="create", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
        yield KeysFooter(compact=True)  # its own keys (a modal hides those of the screen under it)

    def on_mount(self) -> None:
        self.show_game(DEFAULT_GAME)

    @staticmethod
    def seats_label(seats: range) -> str:
        return f"Seats ({seats[0]}-{seats[-1]})"

    @staticmethod
    def seat_choices(seats: range) -> list[tuple[str, int]]:
        return [(str(n), n) for n in seats]

    @staticmethod
    def seats_for(seats: range, wanted: object) -> int:
        """``wanted`` if the game allows that many seats, else the nearest it does."""
        if isinstance(wanted, int) and wanted in seats:
            return wanted
        return seats[-1] if isinstance(wanted, int) and wanted > seats[-1] else seats[0]

    def field_id(self, game: str, knob: Knob) -> str:
        """A knob's field's id: its name after its game's prefix (``ScreenGame.form``)."""
        return screen_game(game).form + knob.name

    def knob_field(self, game: str, knob: Knob, *, classes: str = "") -> ComposeResult:
        """The field of one knob of ``game`` (its id ``field_id``), showing its default: a switch that also says
        on or off, a choice of its words (each with what it means), or a text of what ``--rule`` takes."""
        tooltip = f"{knob.rule}: {knob.help}"
        name = self.field_id(game, knob)
        self.fields[name] = (game, knob)
        if knob.kind is bool:
            with Horizontal(classes=f"switch-row {classes}"):
                yield Switch(bool(knob.default), id=name, animate=False, tooltip=tooltip)
                yield Label(knob.word(knob.default), id=f"{name}-word", classes="switch-word")
        elif knob.choices:
            yield Select([(f"{word} ({meaning})", self.choice(game, knob, word)) for word, meaning in knob.choices],
                         value=self.choice(game, knob, str(knob.default)), allow_blank=False, id=name, compact=True,
                         tooltip=tooltip, classes=classes)
        else:
            rounds = knob.kind is tuple
            yield Input(knob.word(knob.default), id=name, restrict=r"[0-9, ]*" if rounds else r"[0-9]*",
                        max_length=20 if rounds else 6, compact=True, tooltip=tooltip, classes=classes)

    @staticmethod
    def choice(game: str, knob: Knob, word: str) -> int | str:
        """What the form's choice of ``word`` carries: the wire's number for it (``ScreenGame.choices``), else
        the word."""
        return screen_game(game).choices.get(knob.name, {}).get(word, word)

    @property
    def game(self) -> str:
        chosen = self.query_one("#game", Select).value
        return chosen if isinstance(chosen, str) else DEFAULT_GAME

    def chosen_rules(self, game: str) -> Rules:
        """The rules the form's switches and choices of ``game`` say (its texts may be half typed): what decides
        which of its knobs the rules play (``Knob.applies_to``)."""
        played = kind(game)
        values = {knob.name: self.knob_value(game, knob) for knob in played.knobs
                  if knob.kind is bool or knob.choices}
        for given in (values, {name: value for name, value in values.items() if name in setters(played)}, {}):
            try:
                return played.rules_from_dict(given)
            except (RuleError, ValueError, TypeError):
                continue
        return played.rules_from_dict({})

    def show_game(self, game: str) -> None:
        """The chosen game's rules in the form, the others' hidden; of its knobs, those its rules play (no
        tokens but in Thirty-One's banking, ...), as the game would refuse the others; its seats."""
        for other in self.games:
            rules = self.chosen_rules(other) if other == game else None
            for knob in kind(other).knobs:
                shown = other == game and knob.applies_to(rules)
                for widget in self.query(f".{knob_class(other, knob)}"):
                    widget.display = shown
        seats = kind(game).seats
        if seats != self.seats_offered:
            self.seats_offered = seats
            select = self.query_one("#seats", Select)
            wanted = select.value
            select.set_options(self.seat_choices(seats))
            select.value = self.seats_for(seats, wanted)
            self.query_one("#seats-label", Label).update(self.seats_label(seats))

    @on(Select.Changed)
    def chosen(self, event: Select.Changed) -> None:
        """The game chosen, or a knob's value: a knob that sets others (a preset) sets them in the form
        (THIRTY-ONE.md's presets), and the form shows what the rules play."""
        if event.select.id == "game":
            self.show_game(self.game)
        elif event.select.id in self.fields:
            self.knob_changed(*self.fields[event.select.id])

    @on(Switch.Changed)
    def switched(self, event: Switch.Changed) -> None:
        """A switch says on or off in words too, not by the slider's side or colour alone (NO_COLOR)."""
        self.query_one(f"#{event.switch.id}-word", Label).update("on" if event.value else "off")
        if event.switch.id in self.fields:
            self.knob_changed(*self.fields[event.switch.id])

    def knob_changed(self, game: str, knob: Knob) -> None:
        played = kind(game)
        if knob.name in setters(played):
            try:
                data = played.rules_to_dict(played.rules_from_dict({knob.name: self.knob_value(game, knob)}))
            except (RuleError, ValueError, TypeError):
                data = {}
            for other in played.knobs:
                if other is not knob and other.name in data:
                    self.set_field(game, other, data[other.name])
        self.show_game(self.game)

    def set_field(self, game: str, knob: Knob, value: Any) -> None:
        name = self.field_id(game, knob)
        if knob.kind is bool:
            self.query_one(f"#{name}", Switch).value = bool(value)
        elif knob.choices:
            self.query_one(f"#{name}", Select).value = self.choice(game, knob, str(value))
        else:
            self.query_one(f"#{name}", Input).value = knob.word(tuple(value) if isinstance(value, list) else value)

    def knob_value(self, game: str, knob: Knob) -> KnobValue:
        """What the form says of one knob of ``game``; ValueError, naming its label, for a text that is not of
        the knob's type at all (its limits are the server's to judge)."""
        name = self.field_id(game, knob)
        if knob.kind is bool:
            return self.query_one(f"#{name}", Switch).value
        if knob.choices:
            chosen = self.query_one(f"#{name}", Select).value
            words = {number: word for word, number in screen_game(game).choices.get(knob.name, {}).items()}
            return words.get(chosen, str(chosen)) if isinstance(chosen, int) else str(chosen)
        try:
            return knob.parse(self.query_one(f"#{name}", Input).value)
        except RuleError:
            raise ValueError(f"{knob.label}: {knob.takes}, please") from None

    def form(self) -> TableForm:
        """The form's values as a request; ValueError names a field that is not a number at all (the rules'
        own limits are the server's to judge)."""
        name = self.query_one("#name", Input).value.strip()
        if not name:
            raise ValueError("Name: the table needs one")
        game = self.game
        played = kind(game)
        shown = self.chosen_rules(game)
        knobs = {knob.name: self.knob_value(game, knob) for knob in played.knobs if knob.applies_to(shown)}
        try:
            rules = wire(game).rules_to_pb(played.rules_from_dict(knobs))
        except (RuleError, BadRequest) as error:
            raise ValueError(str(error)) from None
        seats = self.query_one("#seats", Select).value
        assert isinstance(seats, int)
        timer = self.query_one("#decision_seconds", Input).value.strip()
        if not timer.isdigit():
            raise ValueError("Decision timer: a whole number, please")
        return TableForm(name, seats, rules, int(timer), self.query_one("#password", Input).value, game)

    def show_error(self, text: str) -> None:
        error = self.query_one("#create-error", Static)
        error.update(text)
        error.set_class(bool(text), "shown")

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        try:
            form = self.form()
        except ValueError as error:
            self.show_error(str(error))
            return
        self.show_error("")
        self.submit(form)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_create()

    @work(exclusive=True, group="create")
    async def submit(self, form: TableForm) -> None:
        try:
            hosted = await self.connection.create_table(form.name, form.seats, form.rules,
                                                        decision_seconds=form.decision_seconds,
                                                        password=form.password, game=form.game)
        except ServerError as error:
            self.show_error(failure(error, self.connection.address))
            return
        self.dismiss(hosted)


# --- small modals ---------------------------------------------------------------------------------------

class RemoveSeatScreen(ModalScreen[int | None]):
    """Which filled seat of a waiting table to empty."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, info: pb.TableInfo) -> None:
        super().__init__()
        self.info = info

    def compose(self) -> ComposeResult:
        with Vertical(id="remove-box", classes="lobby-modal"):
            yield Label(f"Empty which seat of {self.info.name}?")
            yield OptionList(*[Option(f"seat {seat.seat}: {seat_name(seat)}", id=str(seat.seat))
                               for seat in self.info.seat_info
                               if seat.kind in (pb.SEAT_KIND_PLAYER, pb.SEAT_KIND_BOT)], id="remove-seats")
        yield KeysFooter(compact=True)

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)


LOBBY_HELP = """\
[b]The lobby[/b]: the server's tables, kept up to date as they change.

  [b]enter[/b]  a waiting table: join it (the first empty seat) and sit down;
         where you sit: back to your seat; a started one: watch it
  [b]c[/b]      make a table: its game, seats, house rules and timer
  [b]w[/b]      watch a table
  [b]b[/b] [b]B[/b]    add the game's / a random bot  [dim](tables you made: *)[/dim]
  [b]x[/b]      empty a seat                   [dim](before the start)[/dim]
  [b]g[/b]      start the game                 [dim](every seat filled)[/dim]
  [b]L[/b]      leave the seat you took        [dim](marked > in Players)[/dim]
  [b]t[/b]      tournament standings           [dim](a server running one)[/dim]
  [b]r[/b]      replay a finished game, step by step
  [b]R[/b]      review your play in a finished game, costliest first
  [b]q[/b]      quit

A table you make is yours to fill: add bots, join it, start it (b, B
and g work at the table too). Quitting keeps your seats and tables:
start again, and enter takes your seat back."""


class LobbyHelp(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-help", classes="lobby-modal"):
            yield Static(LOBBY_HELP)
        yield KeysFooter(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


# --- the lobby ------------------------------------------------------------------------------------------

class TableList(DataTable[Text | str]):
    """The lobby's tables: enter (select a row) joins, and the footer says so."""

    BINDINGS = [Binding("enter", "select_cursor", "Join")]


HOST_ACTIONS = frozenset({"add_bot", "remove_seat", "start"})


class LobbyScreen(LiveScreen):
    """The tables of one server, live; join, watch, make and fill tables. ``memory``: the seats and host
    tokens this client holds on the server, remembered across runs (None: for this run only)."""

    BINDINGS = [
        Binding("c", "create", "New"),
        Binding("w", "watch", "Watch"),
        Binding("b", "add_bot('')", "Bot"),
        Binding("B", "add_bot('random')", "Rnd bot"),
        Binding("x", "remove_seat", "Empty"),
        Binding("g", "start", "Start"),
        Binding("L", "leave", "Leave"),
        Binding("t", "standings", "Standings"),
        Binding("r", "replay", "Replay"),
        Binding("R", "review", "Review"),
        Binding("question_mark", "help", "Help", key_display="?"),
    ]

    class TablesChanged(Message):
        """The watch stream's news: tables new or changed, ids of tables gone; ``fresh``: the first
        message of a (re)connected stream, which lists every table."""

        def __init__(self, tables: list[pb.TableInfo], removed: list[str], fresh: bool) -> None:
            super().__init__()
            self.tables, self.removed, self.fresh = tables, removed, fresh

    class Lost(Message):
        """The watch stream broke, or never came up (``error``), or the server ended it (None)."""

        def __init__(self, error: ServerError | None) -> None:
            super().__init__()
            self.error = error

    def __init__(self, connection: Connection, name: str, *, style: CardStyle | None = None,
                 memory: ServerMemory | None = None, server_name: str = "") -> None:
        super().__init__()
        self.connection = connection
        self.player_name = name
        self.server_name = server_name  # as found on the LAN ("": reached by its address)
        self.players_width = PLAYERS_WIDTH  # the Players column's room, as the other columns leave it
        self.style = style or CardStyle()
        self.tables: dict[str, pb.TableInfo] = {}
        self.hosted: dict[str, HostedTable] = {}
        self.sessions: dict[str, SeatSession] = {}
        self.passwords: dict[str, str] = {}  # of private tables, as given here in this run
        self.backoff = Backoff(RETRY_FIRST, RETRY_MOST)
        self.select_when_listed: str | None = None
        self.connected_once = False
        self.lost_text = ""
        self.retry_at: float | None = None  # when the lobby tries the server again (monotonic)
        self.memory = memory
        self.memory_failed = False
        self.tournament: pb.GetStandingsResponse | None = None  # the server's tournament, if it runs one
        if memory is not None:  # what an earlier run held here: its seats and the tables it made
            for table_id, (seat, token) in memory.seats.items():
                self.sessions[table_id] = connection.seat(table_id, seat, token)
            for table_id, host_token in memory.hosted.items():
                self.hosted[table_id] = HostedTable(pb.TableInfo(table_id=table_id), host_token)

    def compose(self) -> ComposeResult:
        server = f"{clip(self.server_name, 26)} · " if self.server_name else ""
        yield Static(f"Ten Pennies · {server}{self.connection.address} · playing as {self.player_name}",
                     id="lobby-title", markup=False)
        yield Static(f"Connecting to {self.connection.address}…", id="lobby-status")
        table = TableList(id="tables", cursor_type="row", zebra_stripes=True)
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        yield table
        yield Static("", id="lobby-selected", markup=False)  # the selected table's id, for bots and --spectate
        yield Static("No tables yet: press c to make one.", id="lobby-empty")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#lobby-empty").display = False  # until the server has said there are none
        self.query_one("#lobby-selected").display = False  # until a table is listed
        self._retry_tick = self.set_interval(0.5, self.show_retry)
        self.watch_lobby()

    # --- the live list ---

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_lobby(self) -> None:
        fresh = True
        try:
            async for tables, removed in self.connection.watch_tables():
                self.post_message(self.TablesChanged(tables, removed, fresh))
                fresh = False
        except ServerError as error:
            self.post_message(self.Lost(error))
            return
        self.post_message(self.Lost(None))

    def on_lobby_screen_tables_changed(self, message: TablesChanged) -> None:
        table = self.query_one("#tables", DataTable)
        if message.fresh:
            self.backoff.reset()
            self.connected_once, self.retry_at = True, None
            self.tables.clear()
            table.clear()
            listed = {info.table_id for info in message.tables}
            for table_id in self._held() - listed:
                self.forget(table_id, gone=True)
        for table_id in message.removed:
            if self.tables.pop(table_id, None) is not None:
                table.remove_row(table_id)
            self.forget(table_id, gone=True)
        for info in message.tables:
            if info.status == pb.TABLE_STATUS_FINISHED:
                self.forget(info.table_id, gone=False)
            if info.table_id in self.hosted:  # its info as listed now
                self.hosted[info.table_id] = HostedTable(info, self.hosted[info.table_id].host_token)
            known = info.table_id in self.tables
            self.tables[info.table_id] = info
            if known:
                self.redraw(info.table_id)
            else:
                table.add_row(*self.row_of(info), key=info.table_id)
        self.show_live()
        if message.fresh or any(info.tournament for info in message.tables):
            self.refresh_standings()  # a tournament's game started or ended: its standings may have moved
        if self.select_when_listed in self.tables:
            table.move_cursor(row=table.get_row_index(self.select_when_listed))
            self.select_when_listed = None
        empty = self.query_one("#lobby-empty", Static)
        empty.update("No tables yet: press c to make one.")
        empty.display = not self.tables
        self.refit()
        self.show_selected()
        self.refresh_bindings()

    def on_lobby_screen_lost(self, message: Lost) -> None:
        """Say so (it never answered, or it was lost), show no tables (none can be joined or watched
        now), and try again after a jittered backoff of at most about 3 s."""
        delay = self.backoff.next()
        address = self.connection.address
        head = "Lost the server" if self.connected_once else "Cannot reach the server"
        error = message.error
        if error is None:
            why = " (it closed the list)"
        elif unanswered(error):
            why = ""  # the usual case: nothing listens there (yet); gRPC's own words say no more
        else:
            why = f" ({clip(error.words, 24)})"
        self.lost_text = f"{head} at {address}{why}"
        self.tables.clear()
        self.query_one("#tables", DataTable).clear()
        empty = self.query_one("#lobby-empty", Static)
        plain = explain(error, address) if error is not None else None
        empty.update(f"{sentence(plain)} The tables show here once it answers. q quits." if plain
                     else "The tables show here once the server answers. q quits.")
        empty.display = True
        self.retry_at = time.monotonic() + delay
        self.show_selected()
        self.show_retry()
        self.set_timer(delay, self.watch_lobby)
        self.refresh_bindings()

    def show_live(self) -> None:
        live = f"{len(self.tables)} table(s) · live"
        if self.tournament is None:
            self.set_status(live, lost=False)
            return
        text = f"{live} · {progress(self.tournament)} (t: standings)"
        width = (self.query_one("#lobby-status", Static).content_size.width or self.app.size.width - 2)
        if len(text) > width:  # one line: the numbers stay, the words go
            t = self.tournament
            over = " (over)" if t.games_played >= t.games_total else ""
            text = f"{live} · tournament: {t.games_played}/{t.games_total} games{over} · t: standings"
        self.set_status(text, lost=False)

    @work(exclusive=True, group="standings", exit_on_error=False)
    async def refresh_standings(self) -> None:
        """Whether the server runs a tournament, and how far it is (for the status line and ``t``)."""
        try:
            self.tournament = await self.connection.standings()
        except ServerError:
            return  # the watch stream says when the server is lost
        if self.retry_at is None:
            self.show_live()
        self.refresh_bindings()

    def show_retry(self) -> None:
        """While the server is away: when the lobby tries again, counting down."""
        if self.retry_at is None:
            return
        left = self.retry_at - time.monotonic()
        when = f"in {math.ceil(left)} s" if left > 0 else "now…"
        self.set_status(f"{self.lost_text}; trying again {when}", lost=True)

    def set_status(self, text: str, *, lost: bool) -> None:
        status = self.query_one("#lobby-status", Static)
        status.update(text)
        status.set_class(lost, "lost")

    def row_of(self, info: pb.TableInfo) -> tuple[Text | str, ...]:
        """A listed table's row as this client sees it (its ``*``, its ``>``, the Players column's room)."""
        return table_row(info, info.table_id in self.hosted, self._my_seat(info), ascii=self.style.ascii,
                         players_width=self.players_width)

    def redraw(self, table_id: str) -> None:
        info = self.tables.get(table_id)
        if info is None:
            return
        table = self.query_one("#tables", DataTable)
        for (key, _), value in zip(COLUMNS, self.row_of(info), strict=True):
            table.update_cell(table_id, key, value, update_width=True)

    def refit(self) -> None:
        """Give the Players column the room the other columns leave it (names are cut only when they must)."""
        width = self.query_one("#tables", DataTable).size.width or self.app.size.width
        rows = [table_row(info, info.table_id in self.hosted, None, ascii=self.style.ascii)
                for info in self.tables.values()]
        room = players_room(rows, width)
        if room != self.players_width:
            self.players_width = room
            for table_id in self.tables:
                self.redraw(table_id)

    def on_resize(self) -> None:
        self.refit()
        self.show_selected()
        if self.retry_at is None and self.connected_once:
            self.show_live()

    def show_selected(self) -> None:
        """The selected table's name and id under the list: the id is what ``tenpennies bot --table`` and
        ``tenpennies play --spectate`` take."""
        line = self.query_one("#lobby-selected", Static)
        info = self.selected
        line.display = info is not None
        if info is None:
            return
        width = (self.query_one("#tables", DataTable).size.width or self.app.size.width) - 2
        tail = f" · {game_title(info.game)}, {preset_of(info).replace('_', ' ')} · table id {info.table_id}"
        hint = " (for bot --table, play --spectate)"
        name = clip(info.name or "Table", max(8, width - len(tail)))  # the hint goes before the name is cut
        line.update(clip(name + tail + (hint if len(name + tail + hint) <= width else ""), width))

    # --- what this client holds, remembered across runs ---

    def _held(self) -> set[str]:
        return set(self.sessions) | set(self.hosted)

    def _save_memory(self) -> None:
        if self.memory is None:
            return
        try:
            self.memory.save()
        except OSError as error:
            if not self.memory_failed:  # once is enough: the seats still work for this run
                self.notify(f"Your seats will not be remembered after you quit: {error}",
                            severity="warning", timeout=8)
            self.memory_failed = True

    def remember_seat(self, session: SeatSession) -> None:
        self.sessions[session.table_id] = session
        if self.memory is not None and session.seat is not None:
            self.memory.seats[session.table_id] = (session.seat, session.token)
            self._save_memory()

    def remember_host(self, hosted: HostedTable) -> None:
        self.hosted[hosted.table_id] = hosted
        if self.memory is not None:
            self.memory.hosted[hosted.table_id] = hosted.host_token
            self._save_memory()

    def forget_seat(self, table_id: str) -> None:
        self.sessions.pop(table_id, None)
        if self.memory is not None and self.memory.seats.pop(table_id, None) is not None:
            self._save_memory()

    def forget(self, table_id: str, *, gone: bool) -> None:
        """A table gone (everything held there goes) or finished (nothing to keep for the next run; for
        this one the seat and the ``*`` stay, to look at the result)."""
        if gone:
            self.sessions.pop(table_id, None)
            self.hosted.pop(table_id, None)
        if self.memory is not None and self.memory.forget(table_id):
            self._save_memory()

    # --- what is selected, and what this client holds there ---

    @property
    def selected(self) -> pb.TableInfo | None:
        table = self.query_one("#tables", DataTable)
        if not self.tables or table.cursor_row < 0 or table.cursor_row >= table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return self.tables.get(key or "")

    def _holds(self, info: pb.TableInfo, session: SeatSession | None) -> bool:
        seats = [s for s in info.seat_info if session is not None and s.seat == session.seat]
        return bool(seats) and seats[0].kind == pb.SEAT_KIND_PLAYER and seats[0].name == self.player_name

    def _my_seat(self, info: pb.TableInfo) -> int | None:
        """The seat to mark ``>``: one this client joined that the list shows it in. (A list sent before
        a join can arrive after it: only ``enter`` concludes that a seat is lost.)"""
        session = self.sessions.get(info.table_id)
        return session.seat if session is not None and self._holds(info, session) else None

    def _still_mine(self, info: pb.TableInfo) -> SeatSession | None:
        """The seat this client joined at the table (in this run or an earlier one), if it still holds it
        (the host may have emptied it, or another player taken it since); one it lost is forgotten."""
        session = self.sessions.get(info.table_id)
        if session is None or session.seat is None:
            return None
        if not self._holds(info, session):
            self.forget_seat(info.table_id)
            return None
        return session

    def kept(self, where: dict[str, str]) -> list[str]:
        """A line for each seat this client holds at a game not finished (as last listed): where the game
        is (``where``: a table's place in its game, by table id, as the table screen says it) and how to
        come back to it. Said in the terminal as the app quits."""
        lines = []
        address = self.connection.address
        for table_id, session in self.sessions.items():
            info = self.tables.get(table_id)
            if info is None or info.status != pb.TABLE_STATUS_PLAYING or not self._holds(info, session):
                continue
            seconds = info.settings.takeover_seconds
            meanwhile = (f"a bot plays it after {seconds} s away" if seconds else "the game waits for you")
            lines.append(f"Your seat at {info.name or 'the table'} (table {table_id}{where.get(table_id, '')}) is "
                         f"kept, and {meanwhile}: tenpennies play --server {address} --name {self.player_name}, "
                         "then enter on the table marked > takes it back.")
        return lines

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "standings":
            return self.tournament is not None
        if action in ("replay", "review"):  # a finished table's game, replayed or reviewed; shown for those alone
            info = self.selected
            return info is not None and info.status == pb.TABLE_STATUS_FINISHED
        if action not in HOST_ACTIONS | {"watch", "leave"}:
            return True
        info = self.selected
        if info is None:
            return False
        if action in HOST_ACTIONS:
            return info.table_id in self.hosted and info.status == pb.TABLE_STATUS_WAITING
        if action == "leave":
            return info.table_id in self.sessions
        return True

    @on(DataTable.RowHighlighted)
    def highlighted(self) -> None:
        self.show_selected()
        self.refresh_bindings()

    @on(DataTable.RowSelected)
    def row_selected(self) -> None:
        self.action_join()

    def on_screen_resume(self) -> None:
        self._retry_tick.resume()
        self.refresh_bindings()
        self.query_one("#tables").focus()

    def on_screen_suspend(self) -> None:
        """A table (or a dialog) over the lobby: its countdown waits (a table idle wakes nobody)."""
        self._retry_tick.pause()

    # --- actions ---

    def fail(self, error: ServerError, doing: str) -> None:
        if unanswered(error):
            address = self.connection.address
            text = explain(error, address) or f"The server at {address} does not answer."
        else:
            text = refusal(error)
        self.notify(text, title=f"Could not {doing}", severity="error", timeout=8)

    def open_table(self, session: SeatSession, *, again: bool = False) -> None:
        """The table of a seat this client holds; ``again``: one it held already (its log tells the story
        so far, and what happened while the seat was away)."""
        home = self.memory.directory if self.memory is not None else None  # (client.json's, beside the seats)
        prefs = TablePrefs.load(home) if home is not None else None
        self.app.push_screen(TableScreen(self.connection, session, style=self.style,
                                         host=self.hosted.get(session.table_id), leave_to_lobby=True,
                                         prefs=prefs, home=home, story=again))

    def action_join(self) -> None:
        info = self.selected
        if info is None:
            return
        session = self._still_mine(info)
        if session is not None:
            self.open_table(session, again=True)
        elif info.status == pb.TABLE_STATUS_WAITING:
            self.join(info.table_id)
        elif info.status == pb.TABLE_STATUS_FINISHED:
            self.action_watch()  # the table's first line says the game is over, and who won
        else:
            self.notify("The game has started: watching it.")
            self.action_watch()

    async def password_for(self, table_id: str, doing: str, *, refused: str | None = None) -> str | None:
        """A private table's password: the one given before in this run, else asked; "" for a table not
        listed as private. ``refused``: the password the server just refused ("": none given), so ask
        (saying it was wrong, if one was given). None when the player gives up."""
        info = self.tables.get(table_id)
        if refused is None:
            if info is None or not info.locked:
                return ""
            if table_id in self.passwords:
                return self.passwords[table_id]
        name = (info.name if info is not None else "") or table_id
        password = await self.app.push_screen_wait(PasswordScreen(name, doing, wrong=bool(refused)))
        if password is not None:
            self.passwords[table_id] = password
        return password

    @work(group="lobby-actions")
    async def join(self, table_id: str) -> None:
        refused: str | None = None
        while True:
            password = await self.password_for(table_id, "join", refused=refused)
            if password is None:
                return
            try:
                session = await self.connection.join(table_id, self.player_name, password=password)
                break
            except ServerError as error:
                if not wrong_password(error):
                    self.fail(error, "join")
                    return
                refused = password  # asked again, saying so
        self.remember_seat(session)
        self.redraw(table_id)
        self.refresh_bindings()
        self.open_table(session)

    def action_watch(self) -> None:
        info = self.selected
        if info is not None:
            self.watch_table(info.table_id)

    @work(group="lobby-actions")
    async def watch_table(self, table_id: str) -> None:
        """Watch a table; a private one once its password is given and found right (a table not listed
        yet, as with ``play --spectate``, is asked about first)."""
        refused: str | None = None
        while True:
            password = await self.password_for(table_id, "watch", refused=refused)
            if password is None:
                return
            session = self.connection.spectate(table_id, password)
            if not password and table_id in self.tables:
                break  # a public table: the table screen takes it from here
            try:
                await session.snapshot()
                break
            except ServerError as error:
                if wrong_password(error):
                    refused = password
                elif unanswered(error):
                    break  # the table screen waits for the server to come back
                else:
                    self.fail(error, "watch")
                    return
        home = self.memory.directory if self.memory is not None else None
        prefs = TablePrefs.load(home) if home is not None else None
        self.app.push_screen(TableScreen(self.connection, session, style=self.style, leave_to_lobby=True,
                                         prefs=prefs, home=home, story=True, name=self.player_name))

    def action_create(self) -> None:
        def made(hosted: HostedTable | None) -> None:
            if hosted is None:
                return
            self.remember_host(hosted)
            if hosted.password:
                self.passwords[hosted.table_id] = hosted.password
            self.select_when_listed = hosted.table_id
            self.notify(f"Table {hosted.info.name} made: add bots (b, B), join it (enter), then start (g).")
            if hosted.table_id in self.tables:
                self.on_lobby_screen_tables_changed(self.TablesChanged([self.tables[hosted.table_id]], [], False))

        self.app.push_screen(CreateTableScreen(self.connection, f"{self.player_name}'s table"), made)

    def host_table(self, hosted: HostedTable) -> None:
        """Hold the host's token of a table made elsewhere by this client (the app's own set-up)."""
        self.remember_host(hosted)
        self.redraw(hosted.table_id)
        self.refresh_bindings()

    @work(group="lobby-actions")
    async def action_add_bot(self, strategy: str) -> None:
        info = self.selected
        if info is None or info.table_id not in self.hosted:
            return
        strategy = strategy or default_bot(info.game)
        try:
            await self.connection.add_bot(info.table_id, self.hosted[info.table_id].host_token, strategy)
        except ServerError as error:
            self.fail(error, f"add a {strategy} bot")

    def action_remove_seat(self) -> None:
        info = self.selected
        if info is None or info.table_id not in self.hosted:
            return
        if not filled(info):
            self.notify("Every seat is empty already.")
            return

        def chosen(seat: int | None) -> None:
            if seat is not None:
                self.remove_seat(info.table_id, seat)

        self.app.push_screen(RemoveSeatScreen(info), chosen)

    @work(group="lobby-actions")
    async def remove_seat(self, table_id: str, seat: int) -> None:
        try:
            await self.connection.remove_seat(table_id, self.hosted[table_id].host_token, seat)
        except ServerError as error:
            self.fail(error, f"empty seat {seat}")

    @work(group="lobby-actions")
    async def action_start(self) -> None:
        info = self.selected
        if info is None or info.table_id not in self.hosted:
            return
        try:
            await self.connection.start(info.table_id, self.hosted[info.table_id].host_token)
        except ServerError as error:
            self.fail(error, "start")
            return
        session = self.sessions.get(info.table_id)
        if session is not None:
            self.open_table(session)

    @work(group="lobby-actions")
    async def action_leave(self) -> None:
        info = self.selected
        if info is None or info.table_id not in self.sessions:
            return
        session = self.sessions[info.table_id]
        self.forget_seat(info.table_id)
        try:
            await session.leave()
        except ServerError as error:
            self.fail(error, "leave")
        self.redraw(info.table_id)
        self.refresh_bindings()

    async def finished_game(self, what: str) -> tuple[GameRecord, int] | None:
        """The selected finished table's record from the server and the seat to look at (this client's, or
        the person's), or None (no finished table selected, or said why not)."""
        info = self.selected
        if info is None or info.status != pb.TABLE_STATUS_FINISHED:
            return None
        session = self.sessions.get(info.table_id)
        try:
            record = await self.connection.game_record(info.table_id, token=session.token if session else "",
                                                       password=self.passwords.get(info.table_id, ""))
        except ServerError as error:
            self.notify(str(error), title=f"No {what}", severity="warning", timeout=6, markup=False)
            return None
        seat = session.seat if session is not None and session.seat is not None else seat_of_person(record)
        return record, seat

    @work(group="lobby-actions")
    async def action_replay(self) -> None:
        """The selected finished table's game in the replay viewer (its record from the server)."""
        if (found := await self.finished_game("replay")) is not None:
            record, seat = found
            open_replay(self.app, record, review=review_for(self.connection.address, record.table_id, seat),
                        style=self.style)

    @work(group="lobby-actions")
    async def action_review(self) -> None:
        """The selected finished table's game reviewed for this client's seat (or the person's)."""
        if (found := await self.finished_game("review")) is not None:
            record, seat = found
            self.app.push_screen(ReviewScreen(record, seat, self.connection.address, style=self.style))

    def action_help(self) -> None:
        self.app.push_screen(LobbyHelp())

    def action_standings(self) -> None:
        if self.tournament is not None:
            self.app.push_screen(StandingsScreen(self.connection, self.tournament))
