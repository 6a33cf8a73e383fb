"""Pictures of the terminal client (pytest-textual-snapshot): the lobby, the table mid-round, the buy
prompt, the meld builder and the round's end, each at 80x24, 120x40 and 200x60 (from 110 columns the
table's log sits beside the seats, the discard pile under them, and the round's end keeps to their side).

Each picture is of the real app (``TenPenniesApp`` in server mode) against a real server on a loopback
port. The plugin runs the app in an event loop of its own (``App.run``), so the server is started inside
that loop, by the app itself as it mounts (``ServedApp``), before the app's own start-up connects to it.
The pictures are stable because nothing on them depends on time or chance: the tables are seeded, have no
decision timer (``decision_seconds=0``: no countdown) and no takeover, the bots are the deterministic greedy
ones, every wait polls a condition (bounded) for a state in which the game waits for this client, and the
one random thing shown, the server's port in the lobby's title, is masked. Table ids are drawn (the lobby's
line under the list, the table's first line): the server makes them counted here (``FixedIds``), not at
random. Tokens are never drawn. ``pytest --snapshot-update`` writes the pictures again (tests/__snapshots__/).
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events, on
from textual.app import App
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable, Static

from tenpennies.client.connection import Connection
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui import app as app_module
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.footer import KeysFooter
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import PileScreen, RoundEndScreen
from tenpennies.engine.ten_pennies import (
    Buy,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    LayContract,
    PassBuy,
    Phase,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies.kind import TenPennies
from tenpennies.server import lobby as server_lobby
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.games import THIRTY_ONE

import tuikit
from positions import position
from tuikit import game_of, lobby_of

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40"),
         pytest.param((200, 60), id="200x60")]
SnapCompare = Callable[..., bool]
MASKED_PORT = "PORT"
TIMEOUT = 20.0
TUI = Path(app_module.__file__).parent


class FixedIds:
    """``secrets`` as the server's lobby uses it, but with table ids counted (00000001, 00000002...)."""

    def __init__(self) -> None:
        self.made = 0

    def token_hex(self, nbytes: int) -> str:
        self.made += 1
        return f"{self.made:0{2 * nbytes}x}"

    def __getattr__(self, name: str) -> object:
        return getattr(secrets, name)


@pytest.fixture(autouse=True)
def fixed_table_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_lobby, "secrets", FixedIds())


class ServedApp(TenPenniesApp):
    """The real app in server mode; the server it talks to (and a second client, ``helper``, which makes
    the tables, fills them with bots and starts them as another player would) run in the app's own loop.

    The server is started by a handler of the mount event in this class: Textual calls it before the
    base class's ``on_mount``, which then connects to the address set here. Textual reads a relative
    ``CSS_PATH`` beside the module of the app's class, so the app's style sheets are named in full."""

    CSS_PATH = [str(TUI / name) for name in TenPenniesApp.CSS_PATH]

    def __init__(self, home: Path) -> None:
        super().__init__(Launch("server", address="127.0.0.1:0", name="Ann", home=home))
        self.db = home / "snapshots.db"
        # (the log's pointer to either game's guide: not in these pictures)
        TablePrefs(guide_seen=True, guides_seen=[THIRTY_ONE]).save(home)
        self.server: Server | None = None
        self.helper: Connection | None = None

    @on(events.Mount)
    async def start_server(self) -> None:
        server = Server(Options(port=0, db=str(self.db), allow_seeds=True))
        await server.start()
        self.server = server
        self.launch = dataclasses.replace(self.launch, address=f"127.0.0.1:{server.port}")
        self.helper = Connection(self.launch.address)

    @on(events.Unmount)
    async def stop_server(self) -> None:
        if self.helper is not None:
            await self.helper.close()
        if self.server is not None:
            await self.server.stop(0)

    def served(self) -> tuple[Server, Connection]:
        assert self.server is not None and self.helper is not None, "the server starts as the app mounts"
        return self.server, self.helper


async def until(pilot: Pilot[None], condition: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    """tuikit's bounded wait, with this file's longer default."""
    await tuikit.until(pilot, condition, what, timeout)


def rows(app: ServedApp) -> list[list[str]]:
    table = app.screen.query_one("#tables", DataTable)
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


def mask_port(app: ServedApp) -> None:
    """The lobby's title names the server's address; its port is the one random thing on the screen."""
    server, _ = app.served()
    title = app.screen.query_one("#lobby-title", Static)
    title.update(str(title.render()).replace(f":{server.port}", f":{MASKED_PORT}"))


def has(screen: TableScreen, kind: type) -> bool:
    return any(isinstance(c, kind) for c in screen.legal)


# --- driving the table screen -------------------------------------------------------------------------

KEYS: tuple[tuple[type, tuple[str, ...]], ...] = (
    (DeclineDiscard, ("d",)), (PassBuy, ("p",)), (Draw, ("r",)),
    (Discard, ("home", "x")))  # the lowest card (the hand is sorted by rank)


async def sit_at(app: ServedApp, pilot: Pilot[None], rules: pb.HouseRules, seed: int, seats: int = 3) -> TableScreen:
    """A seeded table of ``seats`` with greedy bots in all seats but the last, made by the helper; the app
    joins it from the lobby (enter), then the helper starts it once the app's table screen follows it."""
    _, helper = app.served()
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    hosted = await helper.create_table("Snap table", seats, rules, seed=seed, decision_seconds=0,
                                       takeover_seconds=0)
    for _ in range(seats - 1):
        await helper.add_bot(hosted.table_id, hosted.host_token, "greedy")
    await until(pilot, lambda: rows(app) and rows(app)[0][1] == f"{seats - 1}/{seats}", "the table listed")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table screen")
    screen = app.screen
    assert isinstance(screen, TableScreen)
    await until(pilot, lambda: screen.tv.info is not None and screen.tv.info.seat_info[seats - 1].connected,
                "the seat followed")
    await helper.start(hosted.table_id, hosted.host_token)
    await until(pilot, lambda: screen.view is not None, "the game")
    return screen


async def moved(pilot: Pilot[None], screen: TableScreen, keys: tuple[str, ...]) -> None:
    """Press ``keys`` (the last sends a command), then wait for the game to move (a new event), so that
    no command is ever sent twice."""
    before = screen.tv.sequence
    await pilot.press(*keys)
    await until(pilot, lambda: screen.tv.sequence > before, f"the game to move after {keys}")


async def play_until(app: ServedApp, pilot: Pilot[None], screen: TableScreen,
                     done: Callable[[], bool], what: str, turns: int = 200) -> None:
    """Play this seat plainly (decline, pass, draw, discard the lowest card) by keys, each time the game
    waits for it, until ``done()`` holds at such a moment. After each key, wait for the game to move (a new
    event), so that no command is ever sent twice."""
    for _ in range(turns):
        await until(pilot, lambda: app.screen is screen and bool(screen.legal), f"{what}: this seat's turn")
        if done():
            return
        keys = next((k for kind, k in KEYS if has(screen, kind)), None)
        assert keys is not None, f"no plain key for {screen.legal}"
        await moved(pilot, screen, keys)
    pytest.fail(f"never reached {what}")


async def settle(pilot: Pilot[None]) -> None:
    """Let the last messages be handled (the footer's bindings are refreshed after a refresh)."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


def snapshot(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int],
             drive: Callable[[ServedApp, Pilot[None]], Awaitable[None]]) -> bool:
    app = ServedApp(tmp_path)

    async def run_before(pilot: Pilot[None]) -> None:
        await drive(app, pilot)
        for screen in app.screen_stack:  # a new decision's highlight is a moment's: the pictures are after it
            if isinstance(screen, TableScreen):
                prompt = screen.query_one("#prompt")
                await until(pilot, lambda: not prompt.has_class("new"), "the prompt's highlight to pass")  # noqa: B023
        await settle(pilot)

    result: bool = snap_compare(app, terminal_size=size, run_before=run_before)
    return result


# --- the pictures ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_lobby_with_two_tables(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """The lobby listing two seeded tables made by another client: one filling up, one of bots playing."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        _, helper = app.served()
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in str(
            app.screen.query_one("#lobby-status", Static).render()), "the lobby to be live")
        first = await helper.create_table("Sunday pennies", 4, pb.HouseRules(), seed=7, decision_seconds=0,
                                          takeover_seconds=0)
        await helper.add_bot(first.table_id, first.host_token, "greedy")
        await helper.join(first.table_id, "bob")
        second = await helper.create_table("Deuces wild", 2,
                                           pb.HouseRules(ten_pennies=pb.TenPenniesRules(preset=pb.PRESET_DEUCES)),
                                           seed=42, decision_seconds=0, takeover_seconds=0)
        await helper.add_bot(second.table_id, second.host_token, "random")
        await helper.join(second.table_id, "cleo")
        await helper.start(second.table_id, second.host_token)
        await until(pilot, lambda: [r[:3] for r in rows(app)] == [["Sunday pennies", "2/4", "waiting"],
                                                                  ["Deuces wild", "2/2", "playing"]],
                    "both tables listed")
        lobby_of(app)
        mask_port(app)

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_table_mid_round(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Round 1, this seat's fourth pick-up: sets on the table, the discard live, take or decline."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2])), seed=11)
        pickups = 0

        def fourth_pickup() -> bool:
            nonlocal pickups
            if not has(screen, TakeDiscard):
                return False
            pickups += 1
            return pickups == 4

        await play_until(app, pilot, screen, fourth_pickup, "the fourth pick-up")
        assert screen.view is not None and screen.view.table, "sets on the table by then"

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_buy_prompt(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """A bot declined the discard and it is offered to this seat: buy or pass."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2])), seed=2)
        await play_until(app, pilot, screen, lambda: has(screen, Buy), "the offer")
        prompt = str(screen.query_one("#prompt", Static).render())
        assert prompt.startswith("Buy the"), prompt

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_meld_builder(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """The first set of a contract the server lists, selected card by card (space) and put in the
    builder with m; the builder line shows it and what the contract still needs."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2], hand_size=20)),
                              seed=1)
        game = game_of(screen)
        await play_until(app, pilot, screen, lambda: has(screen, LayContract), "a contract to lay")
        contract = next(c for c in screen.legal if isinstance(c, LayContract))
        for card in contract.sets[0]:  # walk the cursor to each card of the set and select it
            step = [c.id for c in game.shown].index(card.id) - game.cursor_index()
            await pilot.press(*["right" if step > 0 else "left"] * abs(step), "space")
        assert game.selected == {c.id for c in contract.sets[0]}
        await pilot.press("m")
        assert [{c.id for c in s} for s in game.builder] == [{c.id for c in contract.sets[0]}]
        assert screen.query_one("#builder", Static).display
        assert "Set 1 of 2 added" in str(screen.query_one("#message", Static).render())

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_round_end(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """The turns ran out in round 1 of 2: every hand shown, the points and scores, over the table (which
    waits, in round 2, for this seat)."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2], max_turns=3)),
                              seed=11)

        for _ in range(50):  # play round 1 by keys until its end is shown
            await until(pilot, lambda: isinstance(app.screen, RoundEndScreen) or bool(screen.legal),
                        "this seat's turn or the round's end")
            if isinstance(app.screen, RoundEndScreen):
                break
            keys = next(k for kind, k in KEYS if has(screen, kind))
            await moved(pilot, screen, keys)
        # The table behind shows through: wait until round 2 waits for this seat, so it holds still.
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen) and screen.view is not None
                    and screen.view.round == 2 and bool(screen.legal), "round 2 waiting for this seat")
        assert screen.tv.round_end is not None and screen.tv.round_end.round == 1

    assert snapshot(snap_compare, tmp_path, size, drive)



# --- the longest table: 8 seats in round 7, every seat down with long sets ----------------------------

# Four decks (8 seats); round 7's wild cards (2s, aces, jokers) laid off on the sets beyond the contract's
# cap, as the rules allow: the longest sets a table can show. This seat (0) has a contract of 7 and a set
# of 10 on the table.
LONG_SETS = (
    (0, "TC TD TH TS 2C JK JK.1"), (0, "KC KD KH KS AC AD 2D JK.2 JK.3 AH.1"),
    (1, "QC QD QH QS 2H 2S AH JK.4 JK.5 2C.1 2D.1 2H.1"),
    (2, "JC JD JH JS AS 2S.1 JK.6 AC.1"),
    (3, "9C 9D 9H 9S AD.1 AS.1 2C.2 2D.2 2H.2"),
    (4, "8C 8D 8H 8S 2S.2 AC.2 JK.7"),
    (5, "7C 7D 7H 7S AD.2 AH.2 AS.2 2C.3 2D.3"),
    (6, "6C 6D 6H 6S AC.3 AD.3 AH.3"),
    (7, "5C 5D 5H 5S AS.3 2H.3 2S.3"),
)


def longest_position(seats: int, rules: object, seed: int) -> Game:
    """The longest table: this seat (0) to meld, every seat down."""
    return position(8, round=7, hands={0: "3D 4D 6C.1"}, sets=LONG_SETS, down=tuple(range(8)), turn_seat=0,
                    phase=Phase.MELD, pile="9H.3")


# The fullest table: the longest's sets, and every seat down with further sets of naturals from the other decks
# (a set of the cards of a rank each copy of a deck): more rows than 80x24 or 120x40 has for the seats, so that
# seats give up their last rows, each saying how many of its sets it no longer shows.
MORE_SETS = tuple((seat, " ".join(f"{rank}{suit}.{deck}" for suit in "CDHS"))
                  for seat, (rank, deck) in enumerate((("3", 1), ("4", 1), ("5", 1), ("6", 1), ("7", 1), ("8", 1),
                                                       ("9", 1), ("T", 1)))) + \
    tuple((seat, " ".join(f"{rank}{suit}.{deck}" for suit in "CDH"))
          for seat, (rank, deck) in enumerate((("J", 1), ("Q", 1), ("K", 1), ("3", 2), ("4", 2), ("5", 2),
                                               ("6", 2), ("7", 2))))
FULL_SETS = LONG_SETS + MORE_SETS


def fullest_position(seats: int, rules: object, seed: int) -> Game:
    """The fullest table: this seat (0) to meld, every seat down with three sets or more."""
    return position(8, round=7, hands={0: "3D.3 4D.3 6C.3"}, sets=FULL_SETS, down=tuple(range(8)), turn_seat=0,
                    phase=Phase.MELD, pile="9H.3")


class LongTableApp(App[None]):
    """The table screen of the longest table, against a real server in the app's own loop: the server's
    game is the hand-made position (``longest_position``), and the seat's stream, opened once it is
    dealt, starts from its snapshot."""

    CSS_PATH = [str(TUI / name) for name in TenPenniesApp.CSS_PATH]

    def __init__(self, home: Path) -> None:
        super().__init__()
        self.db = home / "long.db"
        self.server: Server | None = None
        self.connection: Connection | None = None
        self.table: TableScreen | None = None

    async def on_mount(self) -> None:
        self.server = server = Server(Options(port=0, db=str(self.db), allow_seeds=True))
        await server.start()
        self.connection = connection = Connection(f"127.0.0.1:{server.port}")
        hosted = await connection.create_table("Long table", 8,
                                               pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[7])),
                                               seed=1, decision_seconds=0, takeover_seconds=0)
        me = await connection.join(hosted.table_id, "Ann")
        for _ in range(7):
            await connection.add_bot(hosted.table_id, hosted.host_token, "greedy")
        await connection.start(hosted.table_id, hosted.host_token)
        self.table = TableScreen(connection, me, prefs=TablePrefs(guide_seen=True))
        await self.push_screen(self.table)

    @on(events.Unmount)
    async def stop_server(self) -> None:
        if self.connection is not None:
            await self.connection.close()
        if self.server is not None:
            await self.server.stop(0)


async def long_table(app: LongTableApp, pilot: Pilot[None]) -> TableScreen:
    await until(pilot, lambda: app.table is not None and app.table.view is not None and bool(app.table.legal),
                "the longest table")
    assert app.table is not None
    return app.table


def whole(words: list[str], times: str = "×") -> list[str]:
    """Words as drawn, each run counted (``JK×2``) written out again."""
    out: list[str] = []
    for word in words:
        face, _, count = word.partition(times)
        out += [face] * (int(count) if count else 1)
    return out


def sets_shown(screen: TableScreen) -> dict[int, list[str]]:
    """Each seat's words in the pieces column of the seats strip, from its own line and the rows under it."""
    rows = [row.plain for row in screen.seats_strip.rows]
    column = rows[0].index("Sets on the table")
    shown: dict[int, list[str]] = {}
    seat = -1
    for row in rows[1:]:
        if row[:column].strip():
            seat += 1
        shown.setdefault(seat, []).extend(row[column:].split())
    return shown


@pytest.mark.parametrize("size", SIZES)
def test_every_set_on_the_longest_table_is_whole_or_says_v(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          size: tuple[int, int]) -> None:
    """8 seats in round 7, each down with a set of 7 to 12 cards: every set on the table is shown whole
    (compact, ``JK×2``, or on over the rows below) within the strip's width and the room it has; where the
    rows run out a seat says how many it does not show, and ``v`` shows every card."""
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: longest_position(seats, rules, seed))

    async def check() -> None:
        app = LongTableApp(tmp_path)
        async with app.run_test(size=size) as pilot:
            screen = await long_table(app, pilot)
            await pilot.pause()
            strip = screen.seats_strip
            assert all(row.cell_len <= strip.content_size.width for row in strip.rows)
            assert strip.outer_size.height <= screen.seats_room() or not screen.seats_room()
            assert screen.view is not None
            shown, style, wild = sets_shown(screen), screen.card_style, screen.view.spec.wild_ranks
            for owner in range(8):
                drawn = whole(shown.get(owner, []))
                for meld in (m for m in screen.view.table if m.owner == owner):
                    words = [f"[{meld.id}]", *(style.rich(c, wild=c.rank in wild).plain for c in meld.cards)]
                    at = next((i for i in range(len(drawn)) if drawn[i:i + len(words)] == words), None)
                    assert at is not None or "more:" in drawn, (owner, words, drawn)
            await pilot.press("v")
            assert isinstance(app.screen, PileScreen)
            dialog = app.screen.query_one("#dialog")
            assert dialog.outer_size.height <= size[1]

    asyncio.run(check())


def elided(screen: TableScreen) -> dict[int, int]:
    """Each seat whose rows ran out: how many of its sets it says it does not show (``… N more: v``)."""
    said: dict[int, int] = {}
    for seat, words in sets_shown(screen).items():
        text = " ".join(words)
        if "more: v" in text:
            said[seat] = int(text.split("… ")[-1].split(" more")[0])
    return said


@pytest.mark.parametrize("size", SIZES)
def test_on_the_fullest_table_a_seat_whose_rows_run_out_counts_the_sets_it_does_not_show(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """8 seats in round 7, each down with three sets or more: at 80x24 and 120x40 the rows run out, and each seat
    that gives up rows says exactly how many of its sets are not shown whole (the others are, card for card);
    at 200x60 every set is whole. v shows every set whole."""
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: fullest_position(seats, rules, seed))

    async def check() -> None:
        app = LongTableApp(tmp_path)
        async with app.run_test(size=size) as pilot:
            screen = await long_table(app, pilot)
            await pilot.pause()
            strip = screen.seats_strip
            assert all(row.cell_len <= strip.content_size.width for row in strip.rows)
            assert strip.outer_size.height <= screen.seats_room()
            assert screen.view is not None
            shown, style, wild = sets_shown(screen), screen.card_style, screen.view.spec.wild_ranks
            said = elided(screen)
            for owner in range(8):
                drawn = whole(shown.get(owner, []))
                melds = [m for m in screen.view.table if m.owner == owner]
                missing = 0
                for meld in melds:
                    words = [f"[{meld.id}]", *(style.rich(c, wild=c.rank in wild).plain for c in meld.cards)]
                    shown_whole = any(drawn[i:i + len(words)] == words for i in range(len(drawn)))
                    missing += not shown_whole
                    # a set is whole or not there at all: its first rows alone would read as the whole set
                    assert shown_whole or words[0] not in drawn, (owner, words, drawn)
                assert missing == said.get(owner, 0), (owner, missing, said, drawn)
            assert bool(said) == (size != (200, 60)), said
            await pilot.press("v")
            assert isinstance(app.screen, PileScreen)
            await pilot.pause()
            dialog = app.screen.query_one("#dialog", VerticalScroll)  # every set, the rows it takes scrolled to
            assert dialog.outer_size.height <= size[1]
            keys = [key.key for key in app.screen.query_one(KeysFooter).keys]
            assert ("down" in keys) == (dialog.max_scroll_y > 0), keys
            for _ in range(dialog.max_scroll_y):
                await pilot.press("down")
            assert dialog.scroll_y == dialog.max_scroll_y

    asyncio.run(check())


@pytest.mark.parametrize("size", SIZES)
def test_the_fullest_table(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The fullest table's picture: at 80x24 and 120x40 seats say how many of their sets are not shown (v)."""
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: fullest_position(seats, rules, seed))
    app = LongTableApp(tmp_path)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = await long_table(app, pilot)
        prompt = screen.query_one("#prompt")
        await until(pilot, lambda: not prompt.has_class("new"), "the prompt's highlight to pass")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_the_longest_table(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The longest table's picture: the sets compact (``JK×2``) or on over two rows."""
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: longest_position(seats, rules, seed))
    app = LongTableApp(tmp_path)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = await long_table(app, pilot)
        prompt = screen.query_one("#prompt")
        await until(pilot, lambda: not prompt.has_class("new"), "the prompt's highlight to pass")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
