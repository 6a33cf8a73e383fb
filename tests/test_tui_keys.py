"""Every key a screen's footer shows does something there, and every control a screen can focus is in view
(Textual's Pilot, 80x24): the start screen, the first game's guide, the lobby and its dialogs, the table (at a
first decision, as it melds, at Thirty-One) and its dialogs, the ends of a round, a deal and a game of both games,
your games (the history), the replay viewer and the review, each key pressed on a fresh screen; every dialog has
a footer of its own (the one under it shows keys that do nothing there); and the README's keys of the table are
the keys bound there, each way round."""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from replays import played, review_of
from rich.text import Text
from test_history import finished_game
from test_tui_snapshots import fullest_position
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tenpennies.client.connection import Connection, SeatSession
from tenpennies.client.local import read_game
from tenpennies.client.reviews import save_review
from tenpennies.client.rulebook import rule_text
from tenpennies.client.settings import LocalGame, TablePrefs, Unfinished
from tenpennies.client.trust import KnownServers
from tenpennies.client.tui.app import ContinueScreen, Start, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.choose import ChooseScreen
from tenpennies.client.tui.footer import KeysFooter
from tenpennies.client.tui.help import ConfirmScreen, RuleScreen
from tenpennies.client.tui.history import HistoryScreen
from tenpennies.client.tui.lobby import LOBBY_HELP, CreateTableScreen, LobbyHelp, LobbyScreen, RemoveSeatScreen
from tenpennies.client.tui.prefs import PrefsScreen
from tenpennies.client.tui.review import ReviewScreen
from tenpennies.client.tui.servers import ServersHelp
from tenpennies.client.tui.standings import StandingsScreen
from tenpennies.client.tui.table import YOUR_GAMES, TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, HelpScreen, PileScreen, RoundEndScreen, TenPenniesTable
from tenpennies.client.tui.ten_pennies.dialogs import KEYS
from tenpennies.client.tui.ten_pennies.guide import TurnGuide as GuideScreen
from tenpennies.client.tui.thirty_one import (
    DealEndScreen,
    ThirtyOneGameEndScreen,
    ThirtyOneHelp,
    guide_pages,
)
from tenpennies.client.tui.thirty_one.table import KEYS as THIRTY_ONE_KEYS
from tenpennies.client.tui.trust import PasswordScreen, RefusedScreen, TrustScreen
from tenpennies.client.tui.viewer import ReplayScreen
from tenpennies.engine.cards import Card
from tenpennies.engine.games import kind
from tenpennies.engine.ten_pennies import Phase
from tenpennies.engine.ten_pennies import SeatView as TenPenniesView
from tenpennies.engine.ten_pennies import events as tp_events
from tenpennies.engine.ten_pennies.kind import TenPennies
from tenpennies.engine.thirty_one.commands import Command as ThirtyOneCommand
from tenpennies.engine.thirty_one.commands import DrawStock, Knock
from tenpennies.engine.thirty_one.rules import Rules as ThirtyOneRules
from tenpennies.engine.thirty_one.view import SeatView as ThirtyOneView
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import thirty_one as t31_wire
from tenpennies.wire.games import THIRTY_ONE

from positions import position
from tuikit import Over, until

SIZE = (80, 24)


def footer_keys(screen: Screen[Any]) -> list[str]:
    return [key.key for key in screen.query_one(KeysFooter).keys]


def in_view(screen: Screen[Any], widget: Widget) -> bool:
    """The widget is wholly in view: inside the screen and inside what each of its containers shows (their
    content, within their borders and padding)."""
    return bool(widget.region) and screen.region.contains_region(widget.region) and all(
        parent.content_region.contains_region(widget.region)
        for parent in widget.ancestors if isinstance(parent, Widget) and parent is not screen)


def out_of_view(screen: Screen[Any]) -> list[Widget]:
    """The controls the screen can focus (its focus chain: shown, enabled) that are not wholly in view."""
    return [widget for widget in screen.focus_chain if not in_view(screen, widget)]


async def unseen_when_focused(pilot: Pilot[None], screen: Screen[Any]) -> list[str]:
    """The controls the screen can focus that are not wholly in view even once focused (a form's fields below
    its fold scroll into view as tab reaches them): each focused in turn."""
    unseen = []
    for widget in list(screen.focus_chain):
        screen.set_focus(widget)
        await pilot.pause()
        if not in_view(screen, widget):
            unseen.append(f"{type(screen).__name__} {widget!r}")
    return unseen


async def each_key_acts(make: Callable[[], Screen[Any]], seen: Callable[[Screen[Any]], Hashable],
                        ready: Callable[[Screen[Any]], object] = lambda screen: True) -> list[str]:
    """Press each key the screen's footer shows (its own footer: a dialog without one fails here), each on a
    fresh screen (once ``ready``); the keys that changed nothing: the app did not quit, the screen was not
    closed nor covered, and what ``seen`` makes of it stayed the same. First, every control the screen can
    focus must be in view once focused."""
    probe = Over(make)
    async with probe.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ready(probe.screen), "the screen")
        await pilot.pause()
        keys = footer_keys(probe.screen)
        hidden = await unseen_when_focused(pilot, probe.screen)
    assert keys, "the footer shows keys"
    assert not hidden, f"controls out of view: {hidden}"
    dead = []
    for key in keys:
        app = Over(make)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: ready(app.screen), "the screen")  # noqa: B023 (awaited here)
            await pilot.pause()
            screen = app.screen
            before = seen(screen), app.clipboard
            await pilot.press(key)
            await pilot.pause(0.1)
            if app.return_code is None and app.screen is screen and not app.answers \
                    and (seen(screen), app.clipboard) == before:
                dead.append(key)
    return dead


def unfinished() -> Unfinished:
    return Unfinished(LocalGame("t1", 3, "token", "host"), 2, 7, 2)


async def test_the_start_screen_shows_every_choice_and_each_footer_key_chooses() -> None:
    app = Over(lambda: ContinueScreen(unfinished()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ContinueScreen)
        buttons = [w.id for w in screen.query("Button")]
        assert buttons == ["continue", "new", "new-thirty_one", "short", "practice"]
        assert not out_of_view(screen), [w.id for w in out_of_view(screen)]
        keys = footer_keys(screen)
        assert {"c", "n", "s", "p", "g", "h", "q"} <= set(keys), keys
        footer = screen.query_one(KeysFooter)
        assert footer.line().cell_len <= SIZE[0], footer.line().plain  # every key shown whole
        for _ in buttons:  # tab goes round the choices, each in view as it is focused
            await pilot.press("tab")
            assert screen.focused is not None and screen.focused.id in buttons
            assert screen.region.contains_region(screen.focused.region)
        await pilot.press("p")
    assert app.answers == [Start("practice")]
    assert await each_key_acts(lambda: ContinueScreen(unfinished()), lambda s: None) == []


async def test_each_key_the_guides_footer_shows_acts_and_q_quits_over_it() -> None:
    def page(screen: Screen[Any]) -> Hashable:
        return screen.page if isinstance(screen, GuideScreen) else None

    assert await each_key_acts(GuideScreen, page) == []  # (← shown from the second page on: none before the first)
    assert await each_key_acts(lambda: GuideScreen(guide_pages(ThirtyOneRules()), "Thirty-One"), page) == []
    app = Over(GuideScreen)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "q" in footer_keys(app.screen) and "left" not in footer_keys(app.screen)
        await pilot.press("right")
        await pilot.pause()
        assert "left" in footer_keys(app.screen)  # a page before this one now
        await pilot.press("q")
        await pilot.pause()
        assert app.return_code == 0


async def test_each_key_the_replay_viewers_footer_shows_acts() -> None:
    record = played(seats=3, seed=3)

    def where(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, ReplayScreen)
        return screen.position, screen.plotting

    middle = len(record.commands) // 2
    assert await each_key_acts(lambda: ReplayScreen(record, position=middle), where) == []


async def test_each_key_the_tables_footer_shows_acts_and_every_control_is_in_view(connection: Connection) -> None:
    """At this seat's first decision of a seeded table: each key the footer shows, pressed at a table of its
    own, sends a move, opens something, or says something."""
    def make() -> Screen[Any]:
        assert sessions
        return TableScreen(connection, sessions.pop())

    def said(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, TableScreen)
        game = screen.game
        assert isinstance(game, TenPenniesTable)
        return (screen.tv.sequence, str(screen.message_line.render()), frozenset(game.selected), game.sort,
                game.cursor_id)

    def ready(screen: Screen[Any]) -> bool:
        return isinstance(screen, TableScreen) and bool(screen.legal) and not screen.paused

    sessions: list[SeatSession] = []
    for _ in range(12):
        hosted = await connection.create_table("keys", 2, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1])),
                                               seed=5, decision_seconds=0, takeover_seconds=0)
        sessions.append(await connection.join(hosted.table_id, "Me"))
        await connection.add_bot(hosted.table_id, hosted.host_token)
        await connection.start(hosted.table_id, hosted.host_token)
    assert await each_key_acts(make, said, ready) == []


KEY_NAMES = {",": "comma", "?": "question_mark", "←": "left", "→": "right", "enter": "enter", "home": "home",
             "end": "end", "space": "space", "esc": "escape"}


def readme_table_keys(text: str | None = None) -> set[str]:
    """The keys the README's table of the table's keys names (its first column), as Textual names them: a
    range (`` `0`-`9` ``) each of its digits, ``shift+← →`` both shifted arrows."""
    if text is None:
        text = (Path(__file__).parent.parent / "README.md").read_text()
    start = text.index("| keys | what |", text.index("### At the table"))
    keys: set[str] = set()
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        first = line.split("|")[1]
        if "shift+← →" in first:
            keys |= {"shift+left", "shift+right"}
            first = first.replace("shift+← →", "")
        if "`0`-`9`" in first:
            keys |= {str(n) for n in range(10)}
            first = first.replace("`0`-`9`", "")
        for word in re.findall(r"`([^`]+)`|(←|→|home|end|space|esc|enter)", first):
            key = word[0] or word[1]
            keys.add(KEY_NAMES.get(key, key))
    return keys


def table_bindings() -> set[str]:
    """Every key bound at a Ten Pennies table (the game's, the screen's, the app's), as Textual names them;
    but ctrl+c, which quits anywhere."""
    return {key for binding in (*TenPenniesTable.BINDINGS, *TableScreen.BINDINGS, *TenPenniesApp.BINDINGS)
            if isinstance(binding, Binding) for key in binding.key.split(",")} - {"ctrl+c"}


def test_every_key_the_readme_gives_the_table_is_bound_there() -> None:
    named = readme_table_keys()
    assert {"t", "d", "b", "p", "m", "x", "s", "h", "a", "v", "comma", "c", "question_mark", "q"} <= named, named
    assert named <= table_bindings(), named - table_bindings()


def test_every_key_bound_at_the_table_is_in_the_readmes_keys() -> None:
    """The other way round: no key of the table is left out of the README's table of its keys."""
    assert table_bindings() - readme_table_keys() == set()


async def test_each_key_the_lobbys_footer_shows_acts(connection: Connection) -> None:
    """The lobby with a table waiting for players under the cursor: each key the footer shows opens
    something (a form, the table, its watching, help) or changes what the lobby shows."""
    hosted = await connection.create_table("Keys table", 4, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1])),
                                           decision_seconds=0)
    await connection.add_bot(hosted.table_id, hosted.host_token)

    def listed(screen: Screen[Any]) -> bool:
        return isinstance(screen, LobbyScreen) and hosted.table_id in screen.tables \
            and bool(screen.query_one("#lobby-selected").display)

    def seen(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, LobbyScreen)
        return (str(screen.query_one("#lobby-status", Static).render()),
                str(screen.query_one("#lobby-selected", Static).render()), screen.query_one(DataTable).cursor_row)

    assert await each_key_acts(lambda: LobbyScreen(connection, "ann"), seen, listed) == []


# --- the dialogs: the ends of a round, a deal and a game (both games), and those over the table -----------

NAMES = ("Ann", "Bob", "You")


def name(seat: int) -> str:
    return NAMES[seat]


def ten_pennies_ends() -> tuple[list[tp_events.RoundEnded], tp_events.GameEnded, TenPenniesView, TenPenniesView,
                                list[Card]]:
    """A short Ten Pennies game played to its end by bots: each round's end and the game's (the engine's
    events), the last seat's view at its end and in round 1 once sets are on the table, and the pile then."""
    record = played(seats=3, seed=3, rules={"rounds": [1, 2], "max_turns": 40})
    game = kind("ten_pennies").new(record.seats, record.rules, record.seed)
    rounds: list[tp_events.RoundEnded] = []
    ended: tp_events.GameEnded | None = None
    middle: TenPenniesView | None = None
    pile: list[Card] = []
    for command in record.commands:
        for event in game.apply(command):
            if isinstance(event, tp_events.RoundEnded):
                rounds.append(event)
            elif isinstance(event, tp_events.GameEnded):
                ended = event
        if middle is None and game.view(2).table and len(game.pile) > 2:
            middle, pile = game.view(2), list(game.pile)
    assert ended is not None and middle is not None and len(rounds) == 2
    return rounds, ended, game.view(2), middle, pile


def thirty_one_end() -> ThirtyOneView:
    """Seat 2's view of a Thirty-One game played to its end by bots (its last deal's end in it)."""
    record = played("thirty_one", seats=3, seed=5)
    game = kind("thirty_one").new(record.seats, record.rules, record.seed)
    for command in record.commands:
        game.apply(command)
    view = game.view(2)
    assert isinstance(view, ThirtyOneView) and view.last_deal is not None
    return view


def unchanged(screen: Screen[Any]) -> Hashable:
    """A dialog whose keys close it, quit, open something or scroll it (where it is taller than the terminal):
    nothing else on it changes in place."""
    return tuple(box.scroll_y for box in screen.query("#dialog").results(VerticalScroll))


async def test_each_key_the_round_and_game_ends_footers_show_acts_and_q_quits_over_them() -> None:
    """Ten Pennies' round end and game end, Thirty-One's deal end and game end: each has a footer of its own
    (the table's, under it, shows keys that do nothing there), each key on it closes the dialog, opens what it
    names or quits; R and H are shown only where the table offers them."""
    rounds, ended, last, _, _ = ten_pennies_ends()
    style = CardStyle()
    rules = played(seats=3, seed=3, rules={"rounds": [1, 2], "max_turns": 40}).rules
    opened: list[str] = []

    def round_end() -> Screen[Any]:
        return RoundEndScreen(name, 2, style, 3).show(rounds[0], rules.round(1), rounds=rounds[:1])

    def game_end(offered: bool = True) -> Screen[Any]:
        return GameEndScreen(last, ended, name, 2, rounds=rounds,
                             review=(lambda: opened.append("review")) if offered else None,
                             history=(lambda: opened.append("history")) if offered else None)

    t31 = thirty_one_end()
    assert t31.last_deal is not None
    deal_end = t31.last_deal

    def deal_end_screen() -> Screen[Any]:
        return DealEndScreen(t31.rules, style.text, t31.seats).show(deal_end, list(NAMES))

    def t31_game_end() -> Screen[Any]:
        return ThirtyOneGameEndScreen(t31, t31.winners, list(NAMES), style.text,
                                      review=lambda: opened.append("review"),
                                      history=lambda: opened.append("history"))

    for make in (round_end, game_end, deal_end_screen, t31_game_end):
        assert await each_key_acts(make, unchanged) == [], make
    assert opened.count("review") == 2 and opened.count("history") == 2  # R and H, each on both games' ends
    for make, keys in ((round_end, {"enter", "q"}), (game_end, {"R", "H", "escape", "q"}),
                       (lambda: game_end(False), {"escape", "q"}), (deal_end_screen, {"enter", "q"}),
                       (t31_game_end, {"R", "H", "escape", "q"})):
        app = Over(make)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert set(footer_keys(app.screen)) == keys, (make, footer_keys(app.screen))
            await pilot.press("q")
            await pilot.pause()
            assert app.return_code == 0  # q quits over it, as the footer says
        app = Over(make)
        async with app.run_test(size=SIZE) as pilot:  # and any key the footer does not show closes it
            await pilot.pause()
            await pilot.press("z")
            await pilot.pause()
            assert app.answers and app.return_code is None


async def test_each_key_the_tables_dialogs_footers_show_acts() -> None:
    """Over the table: the help (either game's), the pile and the sets, the settings, a rule's text, the
    question before leaving, Thirty-One's chooser; each with a footer of its own whose every key acts."""
    _, _, _, middle, pile = ten_pennies_ends()
    style = CardStyle()
    t31 = thirty_one_end()
    prefs_made: list[TablePrefs] = []

    def prefs() -> Screen[Any]:
        made = TablePrefs()
        prefs_made.append(made)
        return PrefsScreen(made, lambda: made.auto_pass, lambda: setattr(made, "auto_pass", "unfit"),
                           lambda: None)

    def prefs_seen(screen: Screen[Any]) -> Hashable:
        return repr(prefs_made[-1])

    rule = rule_text("TP-4.9")
    assert rule is not None
    choices: list[tuple[Text, ThirtyOneCommand]] = [(Text("swap your 7♥ for the widow's K♠"), DrawStock(0)),
                                                    (Text("knock"), Knock(0))]
    dialogs: tuple[tuple[Callable[[], Screen[Any]], Callable[[Screen[Any]], Hashable]], ...] = (
        (lambda: HelpScreen(middle, style, [("q", "quit")]), unchanged),
        (lambda: HelpScreen(middle, style, watching=True), unchanged),
        (lambda: PileScreen(middle, pile, name, style), unchanged),
        (prefs, prefs_seen),
        (lambda: RuleScreen("TP-4.9", rule), unchanged),
        (lambda: ConfirmScreen("Leave the table? Your seat is given up."), unchanged),
        (lambda: ThirtyOneHelp(t31, [("q", "quit")]), unchanged),
        (lambda: ChooseScreen(choices), unchanged),
    )
    for make, seen in dialogs:
        assert await each_key_acts(make, seen) == [], make

    # taller than 80x24, the help and the fullest table's sets scroll, and say so; the other dialogs fit
    full = fullest_position(8, None, 0)

    def fullest_pile() -> Screen[Any]:
        return PileScreen(full.view(0), full.pile, lambda seat: f"seat {seat}", style)

    assert await each_key_acts(fullest_pile, unchanged) == []
    for make, keys in ((fullest_pile, ["down", "escape", "q"]),
                       (lambda: HelpScreen(middle, style, [("q", "quit")]), ["down", "G", "escape", "q"]),
                       (lambda: PileScreen(middle, pile, name, style), ["escape", "q"])):
        app = Over(make)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert footer_keys(app.screen) == keys
            box = app.screen.query_one("#dialog", VerticalScroll)
            for _ in range(box.max_scroll_y):  # every line of it reached
                await pilot.press("down")
            assert box.scroll_y == box.max_scroll_y and box.outer_size.height < SIZE[1]


async def test_each_key_the_review_screens_footer_shows_acts(tmp_path: Path) -> None:
    """A kept review (it opens at once): v steps through the game in the viewer, esc closes, q quits."""
    record = played(seats=3, seed=3)
    searcher, budget = kind(record.game).searcher
    review = replace(review_of(record, 2, {1: 2.5}), searcher=searcher, budget=budget)
    save_review("games.db", review, home=tmp_path)

    def make() -> Screen[Any]:
        return ReviewScreen(record, 2, "games.db", home=tmp_path)

    def ready(screen: Screen[Any]) -> bool:
        return isinstance(screen, ReviewScreen) and screen.review is not None

    assert await each_key_acts(make, unchanged, ready) == []
    app = Over(make)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: ready(app.screen), "the kept review")
        await pilot.pause()
        assert footer_keys(app.screen) == ["v", "escape", "q"]


async def test_each_key_the_history_screens_footer_shows_acts(server: Server, connection: Connection,
                                                                tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Your games, two finished: enter replays the one under the cursor, r reviews it (a kept review: at
    once), y copies its id, esc goes back."""
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))  # where the reviews are kept
    db = Path(server.options.db)
    for seed in (5, 6):
        table_id = await finished_game(connection, seed)
        searcher, budget = kind("ten_pennies").searcher
        save_review(str(db), replace(review_of(read_game(db, table_id), 2, {0: 1.0}), searcher=searcher,
                                     budget=budget))

    def listed(screen: Screen[Any]) -> bool:
        return isinstance(screen, HistoryScreen) and len(screen.rows) == 2

    def seen(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, HistoryScreen)
        return screen.query_one(DataTable).cursor_row, str(screen.query_one("#history-game", Static).render())

    assert await each_key_acts(lambda: HistoryScreen(db), seen, listed) == []


# --- the table in its other states ----------------------------------------------------------------------

async def test_each_key_the_tables_footer_shows_acts_as_this_seat_melds(
        connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """This seat to meld, a contract in hand and sets on the table: each key the footer shows acts."""
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: position(
        2, hands={0: "5C 5D 5H 9C 9D 9H KS 4D", 1: "KD QD 4C"}, sets=((1, "7C 7D 7H"), (1, "8C 8D 8H")),
        down=(1,), turn_seat=0, phase=Phase.MELD, pile="3C"))

    def make() -> Screen[Any]:
        assert sessions
        return TableScreen(connection, sessions.pop())

    def said(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, TableScreen)
        game = screen.game
        assert isinstance(game, TenPenniesTable)
        return (screen.tv.sequence, str(screen.message_line.render()), frozenset(game.selected), game.sort,
                game.cursor_id, tuple(tuple(s) for s in game.builder))

    def ready(screen: Screen[Any]) -> bool:
        return isinstance(screen, TableScreen) and bool(screen.legal) and not screen.paused

    sessions: list[SeatSession] = []
    for _ in range(12):
        hosted = await connection.create_table("keys", 2, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1])),
                                               seed=5, decision_seconds=0, takeover_seconds=0)
        sessions.append(await connection.join(hosted.table_id, "Me"))
        await connection.add_bot(hosted.table_id, hosted.host_token)
        await connection.start(hosted.table_id, hosted.host_token)
    assert await each_key_acts(make, said, ready) == []


async def test_each_key_a_thirty_one_tables_footer_shows_acts(connection: Connection) -> None:
    """Thirty-One, this seat's first turn: each key the footer shows plays, opens or says something."""
    def make() -> Screen[Any]:
        assert sessions
        return TableScreen(connection, sessions.pop())

    def said(screen: Screen[Any]) -> Hashable:
        assert isinstance(screen, TableScreen)
        return screen.tv.sequence, str(screen.message_line.render())

    def ready(screen: Screen[Any]) -> bool:
        return isinstance(screen, TableScreen) and bool(screen.legal) and not screen.paused

    sessions: list[SeatSession] = []
    for _ in range(10):
        hosted = await connection.create_table("keys 31", 2, t31_wire.rules_to_pb(ThirtyOneRules()), seed=3,
                                               decision_seconds=0, takeover_seconds=0, game=THIRTY_ONE)
        sessions.append(await connection.join(hosted.table_id, "Me"))
        await connection.add_bot(hosted.table_id, hosted.host_token, "heuristic")
        await connection.start(hosted.table_id, hosted.host_token)
    assert await each_key_acts(make, said, ready) == []


# --- the lobby's dialogs ----------------------------------------------------------------------------------

async def test_each_key_the_lobbys_dialogs_footers_show_acts(connection: Connection, tmp_path: Path) -> None:
    """Over the lobby (and the servers' list, and the splash before a server's lobby): the lobby's help, the new
    table's form (every field in view as tab reaches it), the seat to empty, the standings, a private table's
    password, a server's certificate to trust or not, a refusal to connect, the servers' help; each with a
    footer of its own."""
    hosted = await connection.create_table("Keys table", 4, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1])),
                                           decision_seconds=0)
    await connection.add_bot(hosted.table_id, hosted.host_token)
    (info,) = [t for t in await connection.tables() if t.table_id == hosted.table_id]
    known = KnownServers.at(tmp_path)
    dialogs: tuple[Callable[[], Screen[Any]], ...] = (
        LobbyHelp, lambda: CreateTableScreen(connection, "ann"), lambda: RemoveSeatScreen(info),
        lambda: StandingsScreen(connection, pb.GetStandingsResponse(tournament="Cup", games_total=4)),
        lambda: PasswordScreen("Ann's table", "join"),
        lambda: TrustScreen("host:1", "SHA256:" + "ab" * 32, known),
        lambda: RefusedScreen("Not the server you trusted", "Its certificate changed."),
        ServersHelp)
    for make in dialogs:
        assert await each_key_acts(make, unchanged) == [], make


async def test_the_lobbys_help_fits_a_terminal_of_80_by_24_with_no_line_wrapped_or_cut() -> None:
    """Every line of the lobby's help in view at the smallest terminal the client is made for, none folded."""
    app = Over(LobbyHelp)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyHelp), "the lobby's help")
        await pilot.pause()
        box = app.screen.query_one("#lobby-help")
        help_text = box.query_one(Static)
        lines = Text.from_markup(LOBBY_HELP).plain.splitlines()
        assert help_text.content_size.height == len(lines), "a line folded"
        assert help_text.region.bottom <= box.content_region.bottom, "the last lines cut off"


async def test_each_key_of_the_tables_help_takes_one_line_at_80_columns() -> None:
    """Either game's table help may scroll at 80x24, but none of its keys' rows folds: each reads at a glance."""
    _, _, _, middle, _ = ten_pennies_ends()
    local = [("q", "quit"), YOUR_GAMES]  # the keys a local game's table adds
    app = Over(lambda: HelpScreen(middle, CardStyle(), local))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        grid = app.screen.query_one("#dialog", VerticalScroll).query(Static).first()
        assert grid.content_size.height == len(KEYS) + len(local), "a key's row folded"
    app = Over(lambda: ThirtyOneHelp(thirty_one_end(), local))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        grid = app.screen.query_one("#dialog", VerticalScroll).query(Static).first()
        assert grid.content_size.height == len(THIRTY_ONE_KEYS) + len(local), "a Thirty-One key's row folded"
