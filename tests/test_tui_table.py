"""The table screen, driven by keys against a real server on a loopback port (Textual's Pilot, 80x24)."""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from tenpennies.client.connection import Connection, HostedTable, SeatSession
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui import table as table_module
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.footer import KeysFooter
from tenpennies.client.tui.guide import GuideScreen
from tenpennies.client.tui.help import Dismissable, RuleScreen
from tenpennies.client.tui.log import TableLog
from tenpennies.client.tui.prefs import PrefsScreen
from tenpennies.client.tui.seats import SeatLine
from tenpennies.client.tui.seats import draw as seats_draw
from tenpennies.client.tui.table import DIMMED, TableScreen
from tenpennies.client.tui.ten_pennies import GameEndScreen, HelpScreen, PileScreen, RoundEndScreen, StatusLine
from tenpennies.client.tui.ten_pennies import table as ten_pennies
from tenpennies.client.tui.ten_pennies.dialogs import pennies
from tenpennies.client.tui.ten_pennies.guide import PAGES as GUIDE_PAGES
from tenpennies.client.view import Incoming, TableView
from tenpennies.engine.cards import CARDS_PER_DECK
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    LayOff,
    PassBuy,
    Phase,
    TakeDiscard,
    parse_cards,
)
from tenpennies.engine.ten_pennies.kind import TenPennies
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.ten_pennies import command_to_pb

from positions import position
from tuikit import TableApp, game_of, painted_rows, screen_of, settled, text_of, until

SIZE = (80, 24)
ONE_ROUND = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=40))


def on_top(app: TableApp) -> object:
    return app.screen


def plain(renderable: RenderableType, width: int = 78) -> str:
    """A renderable as the terminal shows its text."""
    console = Console(width=width, color_system=None, legacy_windows=False)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def has(screen: TableScreen, kind: type) -> bool:
    return any(isinstance(c, kind) for c in screen.legal)


async def table(connection: Connection, *, seats: int = 2, bots: int = 1, rules: pb.HouseRules = ONE_ROUND,
                seed: int = 5, decision_seconds: int = 0, start: bool = True
                ) -> tuple[HostedTable, SeatSession]:
    hosted = await connection.create_table("pilot", seats, rules, seed=seed, decision_seconds=decision_seconds,
                                           takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    for _ in range(bots):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    if start:
        await connection.start(hosted.table_id, hosted.host_token)
    return hosted, me


class Scripted:
    """A second seat played by the test through its own SeatSession: declines every live discard, answers
    offers with ``buys``, draws, and discards its first card."""

    def __init__(self, session: SeatSession, buys: bool = False) -> None:
        self.session = session
        self.buys = buys
        self.view = TableView(session.seat)

    def choose(self, legal: tuple[Command, ...]) -> Command | None:
        for kind in (DeclineDiscard, Buy if self.buys else PassBuy, Draw, Discard):
            for command in legal:
                if isinstance(command, kind):
                    return command
        return None

    def legal(self) -> tuple[Command, ...]:
        v = self.view.view
        return v.legal if v is not None else ()

    async def watch(self) -> None:
        """Fold the stream only: the seat moves when ``step`` is called."""
        async for message in self.session.follow():
            if isinstance(message, pb.Snapshot):
                self.view.apply_snapshot(message)
            elif isinstance(message, pb.Event):
                self.view.apply_event(message)

    async def step(self) -> None:
        """Make this seat's move, and wait until its stream has told it (its legal commands are new)."""
        command = self.choose(self.legal())
        assert command is not None
        before = self.view.sequence
        await self.session.send(command_to_pb(command))
        while self.view.sequence <= before:
            await asyncio.sleep(0.01)

    async def play(self) -> None:
        async for message in self.session.follow():
            if isinstance(message, pb.Snapshot):
                self.view.apply_snapshot(message)
            elif isinstance(message, pb.Event):
                self.view.apply_event(message)
            v = self.view.view
            if v is not None and v.legal:
                command = self.choose(v.legal)
                if command is not None:
                    try:
                        await self.session.send(command_to_pb(command))
                    except Exception:  # a stale view: the next request brings fresh legal commands
                        pass


# --- cards ------------------------------------------------------------------------------------------

def test_card_texts_are_two_or_three_cells_and_differ_without_colour() -> None:
    for style in (CardStyle(), CardStyle(ascii=True), CardStyle(colour=False), CardStyle(four_colour=True)):
        texts = set()
        for card_id in range(CARDS_PER_DECK):
            card = Card.from_id(card_id)
            text = style.rich(card, wild=False, selected=False, cursor=False)
            assert 2 <= text.cell_len <= 3, (style, card)
            texts.add(text.plain)
        assert len(texts) == 53  # 52 faces and the joker, told apart by text alone
    assert CardStyle().text(Card.parse("TH")) == "10♥"
    assert CardStyle(ascii=True).text(Card.parse("TH")) == "TH"
    wild = CardStyle(colour=False).rich(Card.parse("JK"), wild=True, selected=True, cursor=True)
    assert wild.plain == "JK*" and wild.style and "reverse" in str(wild.style)


# --- playing ----------------------------------------------------------------------------------------

async def test_take_decline_draw_and_discard_by_keys(connection: Connection) -> None:
    hosted, me = await table(connection, decision_seconds=30)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await until(pilot, lambda: has(screen, TakeDiscard), "my turn")
        assert "take" in text_of(screen, "#prompt") and " s" in text_of(screen, "#prompt")  # the countdown
        await pilot.press("d")
        await until(pilot, lambda: has(screen, Draw), "the draw after declining")
        assert "draw" in text_of(screen, "#prompt")
        held = {c.id for c in screen.view.hand} if screen.view else set()
        await pilot.press("r")
        await until(pilot, lambda: has(screen, Discard), "the meld step")
        v = screen.view
        assert v is not None and me.seat is not None
        drawn = [c.id for c in v.hand if c.id not in held]
        assert len(drawn) == 1 and game.fresh == set(drawn)  # the drawn card is marked...
        assert game.cursor_id == drawn[0]  # ...and the cursor is on it
        marks = str(screen.query_one("#hand").render()).split("\n")[1]
        assert marks.count("+") == 1 and marks.index("+") == 4 * game.cursor_index() + 1
        before = v.players[me.seat].hand_size
        await pilot.press("end", "x")
        await until(pilot, lambda: screen.view is not None and me.seat is not None
                    and screen.view.players[me.seat].hand_size == before - 1, "the discard")
        await until(pilot, lambda: has(screen, TakeDiscard), "my next turn")
        assert not game.fresh and "+" not in str(screen.query_one("#hand").render())  # gone with the discard
        await pilot.press("t")
        await until(pilot, lambda: has(screen, Discard), "the meld step after taking")
        v = screen.view
        assert v is not None and v.players[me.seat].hand_size == before
        assert len(game.fresh) == 1 and game.cursor_id in game.fresh  # the taken card, marked


async def test_buy_and_pass_an_offered_discard(connection: Connection) -> None:
    hosted, me = await table(connection, bots=0, start=False, seed=11)
    other = Scripted(await connection.join(hosted.table_id, "Other"))
    await connection.start(hosted.table_id, hosted.host_token)
    task = asyncio.ensure_future(other.play())
    app = TableApp(lambda: TableScreen(connection, me))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            assert me.seat is not None
            seat = me.seat

            async def my_turn_declines() -> None:
                while not has(screen, Buy):  # play my own turns plainly until the other seat declines
                    if has(screen, TakeDiscard):
                        await pilot.press("d")
                    elif has(screen, Draw):
                        await pilot.press("r")
                    elif has(screen, Discard):
                        await pilot.press("x")
                    await pilot.pause(0.05)

            await asyncio.wait_for(my_turn_declines(), 8)
            assert "Buy the" in text_of(screen, "#prompt")
            v = screen.view
            assert v is not None
            hand, pennies = v.players[seat].hand_size, v.players[seat].pennies
            await pilot.press("b")
            await until(pilot, lambda: screen.view is not None
                        and screen.view.players[seat].hand_size == hand + 3, "the bought card and two more")
            assert screen.view is not None and screen.view.players[seat].pennies == pennies - 1
            await asyncio.wait_for(my_turn_declines(), 8)
            await pilot.press("p")
            await until(pilot, lambda: any("Nobody bought" in line for line in screen.tv.log), "the card dead")
            assert screen.view is not None and screen.view.players[seat].pennies == pennies - 1
    finally:
        task.cancel()


async def test_lay_the_contract_from_the_hint(connection: Connection) -> None:
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40))
    hosted, me = await table(connection, rules=rules, seed=3)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await meld_step(pilot, screen)
        await pilot.press("h")
        assert game.builder and "Hint" in text_of(screen, "#message")
        await pilot.press("m")
        assert me.seat is not None
        seat = me.seat
        await until(pilot, lambda: screen.view is not None and screen.view.players[seat].down, "down")
        v = screen.view
        assert v is not None and any(m.owner == seat for m in v.table)
        assert "[0]" in text_of(screen, "#seats")


def points_laid(command: LayContract) -> int:
    return sum(c.points for s in command.sets for c in s)


async def test_the_first_hint_is_the_contract_that_leaves_the_fewest_points(connection: Connection) -> None:
    """The server lists contracts rank by rank; h shows them most points laid first."""
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40))
    hosted, me = await table(connection, rules=rules, seed=4)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await meld_step(pilot, screen)
        contracts = [c for c in screen.legal if isinstance(c, LayContract)]
        most = sorted({points_laid(c) for c in contracts}, reverse=True)
        assert points_laid(contracts[0]) < most[0], "seed 4: the server's first contract is not the best"
        hinted = []
        for _ in range(2):
            await pilot.press("h")
            hinted.append(points_laid(LayContract(0, tuple(game.builder))))
        assert hinted == most[:2]
        assert text_of(screen, "#message").startswith(f"Hint 2/{len(contracts)}: ")


async def select(pilot: Pilot[None], screen: TableScreen, cards: list[Card]) -> None:
    """Select ``cards`` by keys: the cursor to each (home, then right) and space."""
    for card in cards:
        index = [c.id for c in game_of(screen).shown].index(card.id)
        await pilot.press("home", *["right"] * index, "space")


async def meld_step(pilot: Pilot[None], screen: TableScreen) -> None:
    """Wait for this seat's turn, take the live discard if it is offered, and wait for the meld step."""
    await until(pilot, lambda: has(screen, TakeDiscard) or has(screen, LayContract), "my turn")
    if has(screen, TakeDiscard):
        await pilot.press("t")
    await until(pilot, lambda: has(screen, LayContract), "the meld step")


def two_of_a_suit(screen: TableScreen) -> list[Card]:
    """Three naturals of one rank, two of them of one suit (two decks): a set TP-4.9 forbids."""
    v = screen.view
    assert v is not None
    naturals = [c for c in game_of(screen).shown if c.rank not in v.spec.wild_ranks]
    for twin in naturals:
        same = [c for c in naturals if (c.rank, c.suit) == (twin.rank, twin.suit)]
        other = [c for c in naturals if c.rank == twin.rank and c.suit != twin.suit]
        if len(same) >= 2 and other:
            return [other[0], *same[:2]]
    raise AssertionError(f"seed 6 deals a pair of one rank and suit and a third of that rank: {game_of(screen).shown}")


async def test_a_set_the_rules_forbid_is_refused_as_it_is_added(connection: Connection) -> None:
    """The newcomer's J♦ J♠ J♠ J♥: m says the rule (TP-4.9) at once and adds nothing, rather than
    building the contract for the server to refuse on enter."""
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40))
    hosted, me = await table(connection, seats=3, bots=2, rules=rules, seed=6)  # two decks
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # (toasts are off by default)
        screen = screen_of(app)
        game = game_of(screen)
        await meld_step(pilot, screen)
        v = screen.view
        assert v is not None
        hand = v.hand
        twins = two_of_a_suit(screen)
        await select(pilot, screen, twins)
        await pilot.press("m")
        said = text_of(screen, "#message")
        assert said.startswith("TP-4.9: a set may not hold two naturals of one rank and suit"), said
        assert "(card" not in said and all(CardStyle().text(c) in said for c in twins), said
        assert game.builder == [] and game.selected == {c.id for c in twins}  # nothing added, nothing lost
        assert not screen.query_one("#builder").display
        await pilot.press("question_mark")  # the rule cited, in the rule book's words, one key away
        assert isinstance(app.screen, RuleScreen) and app.screen.number == "TP-4.9"
        book = " ".join(plain(w.content) for w in app.screen.query(Static))  # type: ignore[arg-type]
        assert "A set may not hold two naturals of the same rank and suit" in " ".join(book.split()), book
        await pilot.press("question_mark")  # and ? there: the keys
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the keys' help")
        await pilot.press("space")
        await until(pilot, lambda: app.screen is screen, "the table")
        mixed = [twins[0], next(c for c in game.shown if c.rank not in v.spec.wild_ranks | {twins[0].rank})]
        await pilot.press("escape")
        await select(pilot, screen, mixed)  # too few, and of two ranks: the contract's own rule first
        await pilot.press("m")
        assert text_of(screen, "#message").startswith("TP-4.11: the contract of round 1 is 2 sets of 3: a set of 2")
        assert game.builder == []
        await pilot.press("enter")  # nothing built: enter lays nothing
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.query("Toast")  # once, on the message line: no toast over the hand
        assert screen.view is not None and screen.view.hand == hand and has(screen, LayContract)
        assert me.seat is not None and not screen.view.players[me.seat].down


async def test_a_legal_set_is_still_added_and_a_built_contract_takes_no_more(connection: Connection) -> None:
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40))
    hosted, me = await table(connection, seats=3, bots=2, rules=rules, seed=6)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await meld_step(pilot, screen)
        contract = next(c for c in screen.legal if isinstance(c, LayContract))
        first, second = contract.sets
        await select(pilot, screen, list(first))
        await pilot.press("m")
        assert text_of(screen, "#message").startswith("Set 1 of 2 added")
        assert [set(s) for s in game.builder] == [set(first)] and not game.selected
        await select(pilot, screen, list(second))
        await pilot.press("m")
        assert text_of(screen, "#message").startswith("The contract is built")
        assert len(game.builder) == 2
        assert "\n" not in text_of(screen, "#builder")  # one line, however much it holds
        assert screen.query_one("#builder").size.height == 1
        await select(pilot, screen, game.shown[:3])
        await pilot.press("m")  # a third set: the contract is two
        assert text_of(screen, "#message").startswith("TP-4.11: the contract (2 sets of 3) is built")
        assert len(game.builder) == 2
        await pilot.press("escape", "enter")  # esc clears the selection and the builder: enter lays nothing
        assert game.builder == []
        await select(pilot, screen, list(first))
        await pilot.press("m")
        await select(pilot, screen, list(second))
        await pilot.press("m", "enter")
        assert me.seat is not None
        seat = me.seat
        await until(pilot, lambda: screen.view is not None and screen.view.players[seat].down, "down")


async def test_a_refused_lay_off_shows_the_servers_rule_and_changes_nothing(connection: Connection) -> None:
    """A lay-off goes to the server as it is asked for: its refusal is said once, the rule first."""
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], hand_size=20, max_turns=40))
    hosted, me = await table(connection, rules=rules, seed=4)  # after the hint's contract, one lay-off is listed
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE, notifications=True) as pilot:  # (toasts are off by default)
        screen = screen_of(app)
        game = game_of(screen)
        await meld_step(pilot, screen)
        assert me.seat is not None
        seat = me.seat
        await pilot.press("h", "m")  # the hint's contract, laid
        await until(pilot, lambda: screen.view is not None and screen.view.players[seat].down, "down")
        await until(pilot, lambda: has(screen, LayOff), "a lay-off to make")
        v = screen.view
        assert v is not None
        hand = v.hand
        target = v.table[0]
        card = next(c for c in game.shown if c.rank not in v.spec.wild_ranks | {target.rank})
        await select(pilot, screen, [card])
        assert target.id == 0 and len(v.table) > 1
        await pilot.press("o", "0")  # set 0 at once: no set's number begins with a 0
        await until(pilot, lambda: "TP-4." in text_of(screen, "#message"), "the refusal")
        said = text_of(screen, "#message")
        assert said.startswith(f"TP-4.13: {CardStyle().text(card)} is not of set {target.id}'s rank"), said
        assert "(card" not in said
        await pilot.pause()
        await pilot.pause()  # (a toast would be up by now)
        assert not app.screen.query("Toast")  # once, on the message line: no toast over the hand
        assert screen.view is not None and screen.view.hand == hand and len(screen.view.table) == len(v.table)


async def test_the_round_end_and_game_end_screens(connection: Connection) -> None:
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2], max_turns=2))
    hosted, me = await table(connection, rules=rules)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)

        async def play_until(kind: type) -> None:
            while not isinstance(app.screen, kind):
                if app.screen is screen:
                    for command, key in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x")):
                        if has(screen, command):
                            await pilot.press(key)
                            break
                await pilot.pause(0.05)

        await asyncio.wait_for(play_until(RoundEndScreen), 8)
        shown = str(app.screen.query_one("#dialog").query(Static).first().render())
        assert "Round 1" in shown and "over" in shown
        # Paid next to an unchanged Pennies column: where it went is said (the purse, not the buy pennies)
        note = " ".join(plain(w.content) for w in app.screen.query(Static)).split()  # type: ignore[arg-type]
        assert "To pot: a penny a card left in hand, from each player's purse into the pot (TP-5.2)" in " ".join(note)
        assert "the buy pennies (Pennies at the table) are not touched." in " ".join(note)
        first = app.screen
        await pilot.press("space")
        assert on_top(app) is screen
        # closed, the end is kept (removed, Textual would lay the table out again as the game goes on) ...
        assert first.is_attached and first not in app.screen_stack
        await asyncio.wait_for(play_until(RoundEndScreen), 8)  # the last round's hands, before the standings
        shown = str(app.screen.query_one("#dialog").query(Static).first().render())
        assert "Round 2" in shown and "over" in shown
        # ... and shown again for the next, its lines changed in place (made anew, its widgets' mounting took a
        # third of its first frame): one is kept at most
        assert app.screen is first
        words = " ".join(plain(w.content) for w in app.screen.query(Static))  # type: ignore[arg-type]
        assert "Any key shows the final standings." in words and "Any key continues." not in words  # its last
        second = app.screen
        await pilot.press("space")
        await asyncio.wait_for(play_until(GameEndScreen), 8)
        await until(pilot, lambda: not second.is_attached, "the last round's end let go")
        assert screen.tv.game_end is not None
        standings = app.screen
        await pilot.press("space")
        assert app.screen is screen and "Game over" in text_of(screen, "#prompt")
        assert standings.is_attached  # kept, until the table goes (as it does for the lobby)
        await app.pop_screen()
        await until(pilot, lambda: not standings.is_attached, "the game's end let go with the table")


class EndDialog(Dismissable):
    def compose(self) -> ComposeResult:
        yield Static("an end")


async def test_an_end_shown_again_before_its_push_is_pushed_once(connection: Connection) -> None:
    """Two ends that come in one message (Thirty-One: a deal's end, and the next deal's blitz) show the same
    kept dialog twice before the table's next frame: it is pushed once, and what follows it is the latest's."""
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None, "the game")
        dialog, after = EndDialog(), []
        screen.game.show_over_table(dialog, lambda: after.append("first"))
        screen.game.show_over_table(dialog, lambda: after.append("second"))
        await until(pilot, lambda: on_top(app) is dialog, "the end")  # (both pushes are run together)
        assert app.screen_stack.count(dialog) == 1
        await pilot.press("space")
        assert on_top(app) is screen and after == ["second"]


async def test_a_resized_terminal_lays_the_table_and_a_dialog_over_it_out_again(connection: Connection) -> None:
    """A screen skips only the Resize its own first layout sends it, at the size it was laid out at
    (``OneLayout``): a real resize still lays the table out again, and a dialog over it, and the table
    under the dialog."""
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None, "the game")
        log = screen.query_one(TableLog)
        assert log.region.x == 0 and log.region.width == SIZE[0]  # narrow: the log under the seats
        await pilot.resize_terminal(120, 30)
        await until(pilot, lambda: screen.outer_size == (120, 30) and log.region.x > 0, "the log beside the seats")
        dialog = EndDialog()
        screen.game.show_over_table(dialog)
        await until(pilot, lambda: on_top(app) is dialog, "the dialog")
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: dialog.outer_size == SIZE, "the dialog at the new size")
        await until(pilot, lambda: log.region.x == 0 and log.region.width == SIZE[0], "the table under it too")
        await pilot.press("space")
        assert on_top(app) is screen and screen.outer_size == SIZE


async def test_the_logs_lines_are_wrapped_again_when_its_width_changes(connection: Connection) -> None:
    """A resize that puts the log beside the seats (narrower) or back under them (wider) writes its lines again
    at its new width: none cut at the edge, none left short, none lost or doubled."""
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        log = screen.query_one(TableLog)
        await until(pilot, lambda: screen.view is not None and bool(screen.legal) and bool(log.lines), "my turn")

        def told() -> str:  # the log's words as the lines show them (wrapped: spaces go at breaks)
            return "".join(strip.text for strip in log.lines).replace(" ", "")

        def widest() -> int:
            return max(strip.cell_length for strip in log.lines)

        before, wide = told(), widest()
        assert wide > 50  # a line longer than the log will be beside the seats
        await pilot.resize_terminal(120, 30)
        await until(pilot, lambda: log.region.x > 0 and widest() <= log.scrollable_content_region.width,
                    "every line within the log beside the seats")
        assert told() == before
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: log.region.x == 0 and widest() == wide, "the lines as long as before")
        assert told() == before
        # a line drawn after the log took its new width but before its Resize came: the lines before it are
        # written again with it (here the Resize never reaches the log's own handler)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(TableLog, "on_resize", lambda self, event: None)
            await pilot.resize_terminal(120, 30)
            await until(pilot, lambda: log.region.x > 0, "the log beside the seats")
            log.add("drawn as the log was resized")
            log.release()
            assert widest() <= log.scrollable_content_region.width and told() == before + "drawnasthelogwasresized"


async def test_behind_a_dialog_the_table_draws_seldom_then_at_once_when_it_closes(connection: Connection) -> None:
    """A dialog over the table (here the round's end) is composed whole with the table dimmed under it, so
    behind it the table draws at most each ``DIMMED`` seconds (and once as a round or the game ends, for the
    dialog that ends it), however fast the game goes; when the dialog closes, everything that came meanwhile
    (the log's lines, the game) is drawn at once."""
    hosted = await connection.create_table("bots", 4, pb.HouseRules(), seed=4, decision_seconds=0)
    for _ in range(4):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        log = screen.query_one(TableLog)
        draws: list[tuple[float, bool]] = []   # when the table drew, and whether it was on top
        events: list[tuple[float, str]] = []   # when each event was folded, and its kind
        redraw, fold_event = screen.redraw, screen.fold_event

        def drawing() -> None:
            draws.append((time.monotonic(), screen.on_top))
            redraw()

        def folding(incoming: Incoming) -> None:
            events.append((time.monotonic(), incoming.kind or ""))
            fold_event(incoming)
        screen.redraw = drawing  # type: ignore[method-assign]
        screen.fold_event = folding  # type: ignore[method-assign]
        await connection.start(hosted.table_id, hosted.host_token)
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), "the round's end")
        opened = time.monotonic()
        await until(pilot, lambda: sum(when > opened for when, _ in events) >= 30 or screen.tv.game_end is not None,
                    "the game going on behind the dialog")
        over = time.monotonic()
        behind = [when for when, on_top in draws if not on_top and opened < when <= over]
        came = [kind for when, kind in events if opened < when <= over]
        ends = sum(kind in ("round_ended", "game_ended") for kind in came)
        assert len(came) >= 30, "the game went on behind the dialog"
        assert len(behind) <= (over - opened) / DIMMED + 1 + 2 * ends, (behind, ends)
        assert len(behind) < len(came) / 3
        while app.screen is not screen:  # the round's end (and the game's, if the bots finished meanwhile)
            await pilot.press("space")
            await pilot.pause()
        await until(pilot, lambda: screen.view is screen.tv.view, "the table drawn again")
        shown = "".join(strip.text for strip in log.lines[-6:]).replace(" ", "")  # wrapped: spaces go at breaks
        assert shown.endswith(screen.tv.log[-1].replace(" ", "")), (screen.tv.log[-1], shown)


async def scripted_table(connection: Connection) -> tuple[HostedTable, list[Scripted]]:
    """A started table of two seats, each played by the test (``Scripted``): nothing moves unless it says."""
    hosted = await connection.create_table("pilot", 2, ONE_ROUND, seed=5, decision_seconds=0, takeover_seconds=0)
    seats = [Scripted(await connection.join(hosted.table_id, name)) for name in ("Ann", "Bob")]
    await connection.start(hosted.table_id, hosted.host_token)
    return hosted, seats


async def test_a_move_drawn_during_a_batch_update_is_on_the_screen_once_it_ends(connection: Connection) -> None:
    """Textual composes no frame while the app holds a batch update (``App.batch_update``, which Textual
    itself takes to mount and remove widgets), and a screen whose frame was put off then composes it only
    when something next comes to it. A move the table drew meanwhile, and then nothing more (no event, no
    key: the next seat to play is away), must be on the screen all the same: once the batch ends, by the
    clock alone."""
    hosted, seats = await scripted_table(connection)
    watching = [asyncio.create_task(seat.watch()) for seat in seats]
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None and any(seat.legal() for seat in seats), "the game")
            log = screen.query_one(TableLog)
            rows = painted_rows(log)
            mover = next(seat for seat in seats if seat.legal())
            with app.batch_update():
                await mover.step()
                await settled(app, lambda: screen.tv.sequence >= mover.view.sequence and screen.view is screen.tv.view,
                              "the move drawn")
                await asyncio.sleep(0.1)  # the frames' time: each put off by the batch
                line = log.lines[-1].text.rstrip()
                assert line not in rows, "a frame was composed during the batch: this test no longer tests that"
            await settled(app, lambda: line in rows, f"the move's line {line!r} on the screen", timeout=3)
    finally:
        for task in watching:
            task.cancel()


async def test_a_move_that_came_behind_a_dialog_shows_under_it_and_then_nothing_more(connection: Connection) -> None:
    """A move that comes while a dialog is over the table is drawn under it (dimmed, at the table's pace
    behind a dialog, ``DIMMED``), and then nothing more comes: it shows under the dialog all the same, by the
    clock alone. (Once the dialog closes, the table is drawn whole again.)"""
    hosted, seats = await scripted_table(connection)
    watching = [asyncio.create_task(seat.watch()) for seat in seats]
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None and any(seat.legal() for seat in seats), "the game")
            screen.action_help()
            await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help over the table")
            log = screen.query_one(TableLog)
            rows = painted_rows(log)
            mover = next(seat for seat in seats if seat.legal())
            await mover.step()
            await settled(app, lambda: screen.tv.sequence >= mover.view.sequence and screen.view is screen.tv.view,
                          "the move drawn behind the dialog")
            line = log.lines[-1].text.rstrip()
            await settled(app, lambda: line in rows, f"the move's line {line!r} under the dialog", timeout=3)
    finally:
        for task in watching:
            task.cancel()


# --- watching, waiting, help, leaving ----------------------------------------------------------------

async def test_a_spectator_sees_the_table_without_a_hand(connection: Connection) -> None:
    hosted = await connection.create_table("bots", 2, ONE_ROUND, seed=2, decision_seconds=0)
    for _ in range(2):
        await connection.add_bot(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await connection.start(hosted.table_id, hosted.host_token)
        await until(pilot, lambda: screen.view is not None and len(screen.tv.log) > 30, "a game going on")
        assert not screen.query_one("#hand").display
        assert not screen.legal
        # Watching once (the status line), and the prompt one line: whose turn it is
        drawn = screen.query_one(StatusLine).sides  # the status line as drawn, its two sides
        assert drawn is not None and " ".join(side.plain for side in drawn).count("Watching") == 1
        assert "Watching" not in text_of(screen, "#prompt")
        assert screen.query_one("#prompt").size.height == 1
        # the log scrolls, to its last line, with no scrollbar drawn beside it (its glyphs read as stray marks)
        log = screen.query_one("#log", TableLog)
        assert log.styles.scrollbar_visibility == "hidden" and log.show_vertical_scrollbar and log.max_scroll_y > 0
        await until(pilot, lambda: log.scroll_y == log.max_scroll_y, "the log at its end")


async def test_host_adds_a_bot_and_starts_from_the_waiting_table(connection: Connection) -> None:
    hosted, me = await table(connection, bots=0, start=False)
    app = TableApp(lambda: TableScreen(connection, me, host=hosted))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: "Waiting for players" in text_of(screen, "#prompt"), "the waiting table")
        await pilot.press("b")
        await until(pilot, lambda: screen.tv.info is not None
                    and any(s.kind == pb.SEAT_KIND_BOT for s in screen.tv.info.seat_info), "the bot")
        await pilot.press("g")
        await until(pilot, lambda: screen.view is not None, "the game")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert on_top(app) is screen


async def test_leave_asks_then_gives_up_the_seat(connection: Connection) -> None:
    hosted, me = await table(connection, bots=0, start=False)
    app = TableApp(lambda: TableScreen(connection, me, host=hosted, leave_to_lobby=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.tv.info is not None, "the snapshot")
        await pilot.press("L")
        await pilot.press("y")
        await until(pilot, lambda: app.screen is not screen, "back to the lobby")
    tables = {t.table_id: t for t in await connection.tables()}
    assert all(s.kind == pb.SEAT_KIND_EMPTY for s in tables[hosted.table_id].seat_info)


async def test_a_dropped_stream_says_reconnecting_until_it_is_back(tmp_path: Path) -> None:
    db = str(tmp_path / "r.db")
    first = Server(Options(port=0, db=db, allow_seeds=True))
    await first.start()
    port = first.port
    connection = Connection(f"127.0.0.1:{port}")
    hosted, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me))
    again: Server | None = None
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None, "the game")
            await first.stop(0)
            await until(pilot, lambda: "Reconnecting" in text_of(screen, "#prompt"), "the drop shown")
            assert "the server is out of reach; trying again in" in text_of(screen, "#prompt")
            again = Server(Options(port=port, db=db, allow_seeds=True))
            await again.start()
            await until(pilot, lambda: "Reconnecting" not in text_of(screen, "#prompt"), "back", timeout=15)
            assert screen.view is not None and screen.link is not None and screen.link.up
    finally:
        await connection.close()
        if again is not None:
            await again.stop(0)


async def test_sort_reorder_select_and_click_are_display_only(connection: Connection) -> None:
    hosted, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me, style=CardStyle(ascii=True, colour=False)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await until(pilot, lambda: len(game.shown) >= 11, "the hand")
        by_rank = [c.rank for c in game.shown]
        assert by_rank == sorted(by_rank)
        await pilot.press("s")
        suits = [c.suit or "Z" for c in game.shown]
        assert game.sort == "suit" and suits == sorted(suits, key="CDSHZ".index)
        first, second = game.shown[0], game.shown[1]
        await pilot.press("home", "shift+right")
        assert game.sort == "own" and game.shown[:2] == [second, first]
        assert game.cursor_index() == 1  # the cursor moved with its card
        await pilot.press("space")
        assert game.selected == {first.id}
        assert "^==" in str(screen.query_one("#hand").render())  # the marks tell it without colour
        await pilot.click("#hand", offset=(1 + 4 * 2, 0))  # the third card
        assert game.selected == {first.id, game.shown[2].id}
        await pilot.press("escape")
        assert not game.selected


# --- what the table says ------------------------------------------------------------------------------

async def test_keys_that_do_nothing_say_why(connection: Connection) -> None:
    hosted, me = await table(connection, bots=0, start=False)
    other = Scripted(await connection.join(hosted.table_id, "Other"))
    folding = asyncio.ensure_future(other.watch())  # it moves only when the test says
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            game = game_of(screen)

            def said() -> str:
                return text_of(screen, "#message")

            await until(pilot, lambda: bool(other.legal()) and screen.view is not None, "the other seat's turn")
            await pilot.press("t")
            assert said() == "not your turn: Other is playing"
            await other.step()  # declines: the card is offered to me
            await until(pilot, lambda: has(screen, Buy), "the offer")
            await pilot.press("h")  # an offer's hint: what the bots' policy would do, and why
            assert said().startswith("Hint: buy the ") or said().startswith("Hint: pass "), said()
            await pilot.press("x")
            assert said().startswith("not now: buy [b] or pass [p] the ")
            await pilot.press("p")
            for _ in range(2):  # it draws and discards
                await until(pilot, lambda: bool(other.legal()), "the other seat's move")
                await other.step()
            await until(pilot, lambda: has(screen, TakeDiscard), "my turn")
            assert said() == ""  # what was said went with the turn
            await pilot.press("m")
            assert said().startswith("not now: take [t] or decline [d] the ")
            await pilot.press("d")
            await until(pilot, lambda: bool(other.legal()), "the offer to the other seat")
            await other.step()  # passes
            await until(pilot, lambda: has(screen, Draw), "the draw")
            await pilot.press("m")
            assert said() == "not now: draw [r]"
            await pilot.press("h")  # (no hint for a draw: nothing to lay)
            assert said() == ten_pennies.NOTHING_TO_LAY
            await pilot.press("r")
            await until(pilot, lambda: has(screen, Discard), "the meld step")
            await pilot.press("m")
            assert said().startswith("no contract (2 sets of 3) can be made" if not has(screen, LayContract)
                                     else "Select the cards of a set")
            await pilot.press("o")
            assert said() == "no lay-off yet: you lay off once your contract is down"
            await pilot.press("3")
            assert said() == "no lay-off yet: you lay off once your contract is down"
            game.action_layoff_key()  # (what o says when a lay-off is listed)
            await pilot.pause()  # its words go up to the screen as a message
            assert said().startswith("lay off on which set? press its number")
            await pilot.press("escape", "x")
            await until(pilot, lambda: bool(other.legal()), "its turn")
            await pilot.press("r")
            assert said() == "not your turn: Other is playing"
            await pilot.press("question_mark")  # a key a binding takes says nothing
            assert isinstance(app.screen, HelpScreen)
            shown = "\n".join(str(w.render()) for w in app.screen.query(Static))
            assert "$ the seats a declined card is offered to" in shown and "▶ whose turn" in shown
    finally:
        folding.cancel()


class Offered(Scripted):
    """A seat that never answers a buy offer: an offer made to it stays open."""

    def choose(self, legal: tuple[Command, ...]) -> Command | None:
        command = super().choose(legal)
        return None if isinstance(command, PassBuy) else command


def dollar_seats(screen: TableScreen) -> set[int]:
    rows = text_of(screen, "#seats").split("\n")[1:]  # one a seat, in seat order (nobody has melded)
    return {s for s, row in enumerate(rows) if row.startswith("$")}


async def test_the_buy_marks_are_the_offer_the_same_for_every_view(connection: Connection) -> None:
    """$ marks the seats a card is offered to (public), not who has still to answer (private, TP-4.7): a
    seat that answered, a spectator, and a view begun from a snapshot mark the same seats."""
    hosted, me = await table(connection, seats=3, bots=0, start=False, seed=4)
    other = Scripted(await connection.join(hosted.table_id, "Other"))  # declines, passes
    quiet = Offered(await connection.join(hosted.table_id, "Quiet"))  # declines, never answers an offer
    await connection.start(hosted.table_id, hosted.host_token)
    tasks = [asyncio.ensure_future(other.play()), asyncio.ensure_future(quiet.play())]
    app = TableApp(lambda: TableScreen(connection, me))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            assert me.seat is not None and quiet.session.seat is not None
            seat = me.seat

            def settled() -> bool:
                v = screen.view
                return (v is not None and v.phase is Phase.BUY and seat in v.buy_offer and not screen.legal
                        and seat not in v.to_act)

            async def play_until_answered() -> None:
                while not settled():  # take every discard (so my declines never open an offer), pass offers
                    for kind, key in ((TakeDiscard, "t"), (PassBuy, "p"), (Draw, "r"), (Discard, "x")):
                        if has(screen, kind):
                            await pilot.press(key)
                            break
                    await pilot.pause(0.05)

            await asyncio.wait_for(play_until_answered(), 10)
            v = screen.view
            assert v is not None
            offered = set(v.buy_offer)
            assert offered == {seat, quiet.session.seat}
            await until(pilot, lambda: dollar_seats(screen) == offered, "my own answered seat still marked")
            late = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id)))
            async with late.run_test(size=SIZE) as watch:  # a view begun from a snapshot, mid-offer
                spectator = screen_of(late)
                await until(watch, lambda: spectator.view is not None, "the spectator's snapshot")
                assert spectator.view is not None and set(spectator.view.buy_offer) == offered
                # the screen draws once the snapshot's batch is folded
                await until(watch, lambda: dollar_seats(spectator) == offered, "the spectator's marks")
    finally:
        for task in tasks:
            task.cancel()


async def test_a_full_waiting_table_says_start(connection: Connection) -> None:
    hosted, me = await table(connection, bots=1, start=False)
    host = TableApp(lambda: TableScreen(connection, me, host=hosted))
    async with host.run_test(size=SIZE) as pilot:
        screen = screen_of(host)
        await until(pilot, lambda: text_of(screen, "#prompt") == "All 2 seats filled: start [g]", "start [g]")
    guest = TableApp(lambda: TableScreen(connection, me))
    async with guest.run_test(size=SIZE) as pilot:
        screen = screen_of(guest)
        await until(pilot, lambda: "waiting for the host to start" in text_of(screen, "#prompt"), "the host")
        assert text_of(screen, "#prompt") == "All 2 seats filled: waiting for the host to start"


async def test_a_timed_out_move_is_one_line_of_the_log(connection: Connection) -> None:
    hosted, me = await table(connection, decision_seconds=1)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: any(line.startswith("Time ran out: You ") for line in screen.tv.log),
                    "the timer", timeout=10)
        log = list(screen.tv.log)
        for line in (x for x in log if x.startswith("Time ran out: ")):  # one line a move, not two
            assert line.removeprefix("Time ran out: ") not in log, log
        assert not any("Time ran out for" in line for line in log)


async def test_the_log_keeps_its_last_line_in_view_when_it_shrinks() -> None:
    """The seats strip above the log grows as sets are laid, and the log shrinks: its newest line stays in
    view (a fresh clone's player saw the last line hidden until the next event)."""

    class LogApp(App[None]):
        def compose(self) -> ComposeResult:
            yield TableLog(id="log")

    app = LogApp()
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(TableLog)
        for n in range(60):
            log.add(f"line {n}")
        log.release()
        await pilot.pause()
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        log.styles.height = 6
        await until(pilot, lambda: log.size.height == 6, "the log shrunk")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y, (log.scroll_y, log.max_scroll_y)
        assert "line 59" in log.lines[-1].text


# --- every key answers the decision it was shown for ------------------------------------------------

class Recording(SeatSession):
    """A seat's session that keeps the decision each command it sends names (and sends it)."""

    named: list[int]

    async def send(self, command: pb.Command, decision: int | None = None) -> int:
        self.named.append(self.decision if decision is None else decision)
        return await super().send(command, decision=decision)


def moved_on(screen: TableScreen, before: int, kind: type) -> bool:
    """The game moved past ``before``, or a move of ``kind`` is no longer this seat's."""
    return screen.tv.sequence > before or not has(screen, kind)


async def pressed(pilot: Pilot[None], screen: TableScreen, key: str) -> None:
    """Press a key that sends a command, and wait for the game to move."""
    before = screen.tv.sequence
    await pilot.press(key)
    await until(pilot, lambda: screen.tv.sequence > before, f"the move of {key}")


def offered(screen: TableScreen) -> bool:
    """A buy offer is on the screen (its keys may still be waiting)."""
    v = screen.drawn_view
    return v is not None and any(isinstance(c, Buy) for c in v.legal)


async def test_a_key_pressed_as_a_new_offer_appears_is_not_taken_for_it(
        connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the offer's moment and the prompt's flash long enough that a loaded machine still looks within them
    monkeypatch.setattr(table_module, "FLASH", 3.0)
    hosted, joined = await table(connection, bots=0, start=False)
    me = Recording(joined.service, joined.table_id, joined.seat, joined.token)
    me.named = []
    other = Scripted(await connection.join(hosted.table_id, "Other"))
    folding = asyncio.ensure_future(other.watch())  # it moves only when the test says
    await connection.start(hosted.table_id, hosted.host_token)
    prefs = TablePrefs(offer_pause=3.0, guide_seen=True)
    app = TableApp(lambda: TableScreen(connection, me, prefs=prefs, home=tmp_path))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            checked = 0
            while checked < 2:
                await until(pilot, lambda: offered(screen) or bool(other.legal()) or bool(screen.legal),
                            "a move for one of the seats")
                if bool(other.legal()) and not offered(screen):
                    await other.step()
                    continue
                if not offered(screen):  # my own turn, plainly
                    keys = next(k for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"),
                                                  (Discard, "x")) if has(screen, kind))
                    await pressed(pilot, screen, keys)
                    continue
                checked += 1
                decision = screen.decision
                assert decision == screen.tv.decision and decision > 0  # the DecisionRequest's sequence
                # drawn this instant: the prompt is marked new, and a key pressed now is not taken for it
                assert screen.query_one("#prompt").has_class("new")
                assert screen.paused and not screen.legal
                named = len(me.named)
                await pilot.press("p")
                assert "keys wait a moment" in text_of(screen, "#message")
                assert "keys in a moment" in text_of(screen, "#prompt")
                await until(pilot, lambda: not screen.paused, "the offer's moment to pass")
                assert len(me.named) == named, "nothing was sent for the key"
                assert screen.tv.decision == decision and offered(screen), "the offer is still open"
                await pilot.press("p")  # now it answers the offer shown, naming it
                await until(pilot, lambda: screen.tv.decision != decision, "the pass")  # noqa: B023 (awaited here)
                assert me.named[named:] == [decision]
                await pilot.press("p")  # once answered, a decision takes no second answer
                assert me.named[named + 1:] == []
    finally:
        folding.cancel()


async def test_auto_pass_shows_on_the_table_passes_only_cards_that_fit_nothing_and_a_turns_it_off(
        connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the other seat to pick up the 8♣, which goes with this seat's 8♦ 8♥; its hand the K♠ it discards next
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: position(
        2, hands={0: "8D 8H 3S 5D 9C JS", 1: "KS QD 4C"}, pile="8C", turn_seat=1, phase=Phase.PICK_UP))
    hosted, me = await table(connection, bots=0, start=False)
    other = Scripted(await connection.join(hosted.table_id, "Other"))
    folding = asyncio.ensure_future(other.watch())
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(guide_seen=True), home=tmp_path))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            game = game_of(screen)
            await until(pilot, lambda: screen.view is not None, "the game")
            assert "Auto-pass" not in text_of(screen, "#status")
            await pilot.press("a")
            assert game.auto_pass() == "round"
            assert "Auto-pass on, this round: offers of cards that fit nothing" in text_of(screen, "#message")
            await until(pilot, lambda: "Auto-pass [a]" in text_of(screen, "#status"), "the auto-pass on the table")
            assert "Your hand: 6 cards" in text_of(screen, "#status")  # (beside it, whole at 80 columns)
            await other.step()  # declines the 8♣: offered to this seat, and left to it: it fits
            await until(pilot, lambda: has(screen, PassBuy), "the offer")
            await pilot.pause(0.1)
            assert has(screen, PassBuy) and "Not passed by itself: the 8♣ fits your hand" in text_of(screen, "#message")
            await until(pilot, lambda: not screen.paused, "the offer's keys")
            await pressed(pilot, screen, "p")
            await other.step()  # draws
            await other.step()  # discards the K♠
            await until(pilot, lambda: has(screen, DeclineDiscard), "this seat's pick-up")
            await pressed(pilot, screen, "d")
            await until(pilot, lambda: bool(other.legal()), "the offer to the other seat")
            await other.step()  # passes
            await until(pilot, lambda: has(screen, Draw), "the draw")
            await pressed(pilot, screen, "r")
            await until(pilot, lambda: has(screen, Discard), "the discard")
            three = Card.parse("3S")
            game.cursor_id = three.id
            await pressed(pilot, screen, "x")  # the 3♠: nothing else in this hand goes with it
            await until(pilot, lambda: bool(other.legal()), "the other seat's pick-up")
            await other.step()  # declines the 3♠: offered to this seat, and passed by itself
            await until(pilot, lambda: "Passed the 3♠ by itself" in text_of(screen, "#message"), "the auto-pass")
            await pilot.press("a")  # off again
            assert game.auto_pass() == "never" and "Auto-pass off" in text_of(screen, "#message")
            assert "Auto-pass" not in text_of(screen, "#status")
            assert TablePrefs.load(tmp_path).auto_pass == "never"
    finally:
        folding.cancel()


async def test_the_settings_step_the_auto_pass_and_remember_every_round(connection: Connection,
                                                                         tmp_path: Path) -> None:
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(guide_seen=True), home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await until(pilot, lambda: screen.view is not None, "the game")
        await pilot.press("comma")
        assert isinstance(app.screen, PrefsScreen)
        steps = []
        for _ in range(3):
            await pilot.press("a")
            steps.append((game.auto_pass(), TablePrefs.load(tmp_path).auto_pass))
        assert steps == [("round", "never"), ("unfit", "unfit"), ("never", "never")]


async def test_a_finished_table_wakes_nobody(connection: Connection) -> None:
    hosted, me = await table(connection, bots=1,
                             rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=2)),
                             decision_seconds=30)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None, "the game")
        # a countdown is shown while a seat decides (its deadline comes with the decision, after the view)
        await until(pilot, lambda: screen.ticking, "the tick while a countdown is shown")
        while not game_of(screen).over:
            await until(pilot, lambda: bool(screen.legal) or game_of(screen).over, "my turn or the end")
            for kind, key in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x")):
                if has(screen, kind):
                    await pressed(pilot, screen, key)
                    break
        await until(pilot, lambda: not screen.ticking, "the tick to stop")
        assert not screen.tv.deadline_ms


async def test_the_first_game_opens_the_guide_once_and_help_reopens_it(connection: Connection,
                                                                      tmp_path: Path) -> None:
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(), home=tmp_path, guide=True))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: isinstance(app.screen, GuideScreen), "the guide over the first game")
        guide = app.screen
        assert isinstance(guide, GuideScreen)
        assert "(1/" in text_of(guide, "#guide-title")
        await pilot.press("enter")
        assert "1. Pick up" in text_of(guide, "#guide-title")
        assert not TablePrefs.load(tmp_path).guide_seen  # (not until it closes)
        await pilot.press("escape")  # skipped
        await until(pilot, lambda: app.screen is screen, "the table")
        assert TablePrefs.load(tmp_path).guide_seen and screen.prefs.guide_seen
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("G")
        await until(pilot, lambda: isinstance(app.screen, GuideScreen), "the guide again, from help")
        for _ in GUIDE_PAGES:
            await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the table after the last page")

    again = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs.load(tmp_path), home=tmp_path,
                                         guide=True))
    async with again.run_test(size=SIZE) as pilot:
        screen = screen_of(again)
        await until(pilot, lambda: screen.view is not None and bool(screen.legal), "the game")
        assert again.screen is screen  # seen: not shown again


async def test_v_shows_the_discard_pile_top_first_and_the_sets_on_the_table(connection: Connection) -> None:
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None and bool(screen.legal), "the game")
        for key in ("d", "r", "x"):  # a turn: the pile grows by this seat's discard
            await until(pilot, lambda: bool(screen.legal), "my move")
            await pressed(pilot, screen, key)
        await until(pilot, lambda: len(screen.tv.pile) >= 2, "two discards")
        await pilot.press("v")
        assert isinstance(app.screen, PileScreen)
        shown = "\n".join(plain(w.content) for w in app.screen.query(Static))  # type: ignore[arg-type]
        style = screen.card_style
        top_first = " ".join(style.text(c) for c in reversed(screen.tv.pile))
        assert screen.view is not None
        assert f"Discard pile: {screen.view.pile_size} cards" in shown and top_first in shown, shown
        assert "it may become the stock 1 more time this round" in " ".join(shown.split())  # (the header may not)
        assert "Sets on the table" in shown and "You" in shown and "greedy bot" in shown
        await pilot.press("space")
        assert on_top(app) is screen


def test_the_same_face_from_two_decks_is_told_apart_on_the_table() -> None:
    for style, second in ((CardStyle(), "7♥¹"), (CardStyle(ascii=True), "7H.1"), (CardStyle(colour=False), "7♥¹")):
        first, other = Card.parse("7H"), Card.parse("7H.1")
        assert style.rich(first).plain != style.rich(other).plain == second
        assert style.text(first) == style.text(other)  # the log's words: a 7♥ is a 7♥
    joker = Card.from_id(CARDS_PER_DECK + 52)  # the second deck's first joker
    assert CardStyle().rich(joker, wild=True).plain == "JK¹*"
    assert CardStyle().rich(Card.from_id(52)).plain == CardStyle().rich(Card.from_id(53)).plain == "JK"


MOVES = {"Take": TakeDiscard, "Decline": DeclineDiscard, "Buy": Buy, "Pass": PassBuy, "Draw": Draw,
         "Lay off": LayOff, "Discard": Discard}


def footer_moves(screen: TableScreen) -> set[str]:
    """The moves the footer shows, as drawn."""
    return {key.description for key in screen.query_one(KeysFooter).keys if key.description in MOVES}


def listed_moves(screen: TableScreen) -> set[str]:
    return {word for word, kind in MOVES.items() if has(screen, kind)}


async def test_the_footer_shows_only_the_moves_possible_now(connection: Connection) -> None:
    """Also when an offer open to this seat is settled by another seat's buy (its Buy and Pass go) and under
    another seat's turn (no move of this seat's)."""
    hosted, me = await table(connection, seats=3, bots=0, start=False,
                             rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=16)))
    other = Scripted(await connection.join(hosted.table_id, "Other"), buys=True)
    await connection.add_bot(hosted.table_id, hosted.host_token)
    folding = asyncio.ensure_future(other.watch())
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(offer_pause=0, guide_seen=True)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            seen: set[str] = set()
            settled = 0
            for _ in range(120):
                await until(pilot, lambda: bool(screen.legal) or bool(other.legal()) or game_of(screen).over,
                            "a seat to move")
                if game_of(screen).over:
                    break
                if other.legal():  # the other seat first: an offer open to both is settled by its buy
                    offered_too = has(screen, Buy)
                    await other.step()
                    if offered_too and not any(isinstance(c, (Buy, PassBuy)) for c in other.legal()):
                        settled += 1
                    await until(pilot, lambda: footer_moves(screen) == listed_moves(screen),
                                "the footer's moves after the other seat's")
                    continue
                await until(pilot, lambda: footer_moves(screen) == listed_moves(screen), "the footer's moves")
                seen |= footer_moves(screen)
                kind, key = next((kind, k) for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"),
                                                           (Discard, "x")) if has(screen, kind))
                moved = functools.partial(moved_on, screen, screen.tv.sequence, kind)
                await pilot.press(key)
                # the move, or (under load) the end of a decision the screen had not caught up with yet: the other
                # seat's buy settled the offer as the key went in, and it is the other seat's to move now
                await until(pilot, moved, f"the move of {key}")
                await until(pilot, lambda: bool(screen.legal) or not footer_moves(screen),
                            "no move keys while this seat waits")
            assert {"Decline", "Draw", "Discard"} <= seen
            assert settled, "an offer open to this seat was settled by the other seat's buy"
    finally:
        folding.cancel()


async def test_the_table_settings_are_set_from_the_table_and_remembered(connection: Connection,
                                                                        tmp_path: Path) -> None:
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(guide_seen=True), home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None, "the game")
        await pilot.press("comma")
        assert isinstance(app.screen, PrefsScreen)
        shown = plain(app.screen.query_one("#prefs-table", Static).content)  # type: ignore[arg-type]
        rows = [" ".join(line.split()) for line in shown.splitlines()]
        assert rows[:3] == ["b bell at a new decision on", "+ / - a new buy offer ignores keys for 0.6 s",
                            "a auto-pass offers of cards that fit nothing off"], rows
        await pilot.press("b", "plus", "plus", "a")
        saved = TablePrefs.load(tmp_path)
        assert not saved.bell and saved.offer_pause == pytest.approx(1.0) and game_of(screen).auto_pass() == "round"
        shown = plain(app.screen.query_one("#prefs-table", Static).content)  # type: ignore[arg-type]
        rows = [" ".join(line.split()) for line in shown.splitlines()]
        assert rows[:3] == ["b bell at a new decision off", "+ / - a new buy offer ignores keys for 1.0 s",
                            "a auto-pass offers of cards that fit nothing this round"], rows
        await pilot.press("escape")
        assert on_top(app) is screen


async def test_a_short_games_header_keeps_the_wild_cap_at_80_columns(connection: Connection) -> None:
    for rounds, cap in (([1, 2], "1"), ([5, 6], "2"), ([7], "3")):
        _, me = await table(connection, rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=rounds)))
        app = TableApp(lambda: TableScreen(connection, me))  # noqa: B023 (made and run here)
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None, "the game")  # noqa: B023
            header = text_of(screen, "#header")
            assert len(header) <= 78 and "…" not in header, header
            assert f"{cap} a set" in header or f"max {cap}" in header, header
            assert "reshuf." not in header, header  # a word whole, or left to v (no clipped jargon)


def test_pennies_are_counted_in_words() -> None:
    assert [pennies(n) for n in (0, 1, 2, 10)] == ["0 pennies", "1 penny", "2 pennies", "10 pennies"]


def test_with_eleven_sets_a_digit_waits_only_when_a_longer_number_could_be_meant() -> None:
    seven, king = Card.parse("7H"), Card.parse("KS")
    legal: tuple[Command, ...] = (LayOff(0, seven, 1), LayOff(0, king, 1), LayOff(0, king, 10), Discard(0, seven))
    assert not ten_pennies.waits_for_more("1", legal, seven)  # the 7 goes on set 1 alone: at once
    assert ten_pennies.waits_for_more("1", legal, king)  # the K may go on 1 or 10: another digit, or enter
    assert not ten_pennies.waits_for_more("10", legal, king)
    assert not ten_pennies.waits_for_more("0", legal, king)  # a 0 begins no longer number
    assert ten_pennies.waits_for_more("1", legal, None)  # (no card chosen: any listed lay-off counts)


def test_a_set_too_long_for_its_row_is_compact_or_goes_on_and_rows_run_out_saying_v() -> None:
    style, wild = CardStyle(), frozenset({15})

    def piece(number: int, cards: str) -> Text:
        out = Text(f"[{number}] ", style="dim")
        out.append_text(style.cards(parse_cards(cards), wild))
        return out

    contract = piece(3, "TC TD TH TS 2C JK JK.1")  # 10♣ 10♦ 10♥ 10♠ 2♣ JK* JK*
    figures = "   11      10     0"
    lines = (SeatLine("heuristic bot 3", ("down", "bot"), figures=figures, pieces=(contract, piece(4, "5C 5D 5H"))),
             SeatLine("You", ("down",), figures=figures, pieces=(piece(5, "QC QD QH QS 2C 2D 2H 2S 3C 3D 3H"),)))
    drawn = [row.plain.rstrip() for row in seats_draw(lines, ten_pennies.SEATS_HEAD, 76)]
    assert all(len(row) <= 76 for row in drawn), drawn
    assert drawn[1].endswith("[3] 10♣ 10♦ 10♥ 10♠ 2♣ JK*×2"), drawn  # compact: whole on one row
    assert drawn[2].strip() == "[4] 5♣ 5♦ 5♥"
    assert drawn[3].endswith("[5] Q♣ Q♦ Q♥ Q♠ 2♣ 2♦ 2♥ 2♠") and drawn[4].endswith("    3♣ 3♦ 3♥")  # on, under its cards
    # four rows where they take five: of the seats with the most rows the last gives one up, and says so
    cut = [row.plain.rstrip() for row in seats_draw(lines, ten_pennies.SEATS_HEAD, 76, height=4)]
    assert len(cut) == 4 and cut[1].endswith("JK*×2") and cut[2].strip() == "[4] 5♣ 5♦ 5♥", cut
    assert cut[3].endswith("down      … 1 more: v"), cut


async def test_the_hints_say_why_in_the_hands_own_cards_and_count_one_card_as_one(
        connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    # down with two sets, a 4♠ left in hand; the 4♣ live: a pair, not a set, and it lays off nowhere
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: position(
        2, hands={0: "4S", 1: "KS QD 4D"}, pile="4C", turn_seat=0, phase=Phase.PICK_UP, down=(0,),
        sets=((0, "7C 7D 7H"), (0, "8C 8D 8H"))))
    _, me = await table(connection)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(guide_seen=True)))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: has(screen, DeclineDiscard), "the pick-up")
        assert "Your hand: 1 card ·" in text_of(screen, "#status")
        await pilot.press("h")
        said = text_of(screen, "#message")
        assert "decline the 4♣ [d]: you are down" in said and "with your 4♠ it is a pair, not a set" in said, said
        assert "fits nothing" not in said


async def test_the_buy_hint_counts_one_card_short_as_one(connection: Connection,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(TenPennies, "new", lambda kind, seats, rules, seed: position(
        2, hands={0: "5C 5D 5H 9C 9D KS", 1: "KD QD 4D"}, pile="9H", turn_seat=1, phase=Phase.PICK_UP,
        buy_penalty_cards=1))
    hosted, me = await table(connection, bots=0, start=False,
                             rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], buy_penalty_cards=1)))
    other = Scripted(await connection.join(hosted.table_id, "Other"))
    folding = asyncio.ensure_future(other.watch())
    await connection.start(hosted.table_id, hosted.host_token)
    app = TableApp(lambda: TableScreen(connection, me, prefs=TablePrefs(guide_seen=True, offer_pause=0)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = screen_of(app)
            await until(pilot, lambda: screen.view is not None and bool(other.legal()), "the other seat's pick-up")
            await other.step()  # declines the 9♥: offered to this seat
            await until(pilot, lambda: has(screen, Buy), "the offer")
            assert "a buy adds 1 card" in text_of(screen, "#prompt")
            await pilot.press("h")
            said = text_of(screen, "#message")
            assert "your contract goes from 1 card short to 0, for a penny and 1 card more" in said, said
    finally:
        folding.cancel()


class Timed(TableScreen):
    """A table screen that notes when it folds each other seat's turn."""

    turns: list[float]

    def fold_event(self, incoming: Incoming) -> None:
        message = incoming.message
        if incoming.kind == "turn_started" and message.turn_started.seat != self.session.seat:
            self.turns.append(time.monotonic())
        super().fold_event(incoming)


async def test_the_pace_setting_brings_the_bots_turns_one_by_one_and_is_remembered(
        connection: Connection, tmp_path: Path) -> None:
    _, me = await table(connection, seats=3, bots=2)
    prefs = TablePrefs(guide_seen=True)
    app = TableApp(lambda: Timed(connection, me, prefs=prefs, home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        assert isinstance(screen, Timed)
        screen.turns = []
        await until(pilot, lambda: screen.view is not None and bool(screen.legal), "this seat's turn")
        await pilot.press("comma")
        assert isinstance(app.screen, PrefsScreen)
        await pilot.press("p")
        assert TablePrefs.load(tmp_path).pace == "normal" and "come normal" in " ".join(
            plain(app.screen.query_one("#prefs-table", Static).content).split())  # type: ignore[arg-type]
        await pilot.press("escape")
        for _ in range(40):  # this seat played plainly until the bots have had four turns
            await until(pilot, lambda: bool(screen.legal) and not screen.paused or len(screen.turns) >= 4,
                        "this seat's move")
            if len(screen.turns) >= 4:
                break
            keys = next(k for kind, k in ((DeclineDiscard, "d"), (PassBuy, "p"), (Draw, "r"), (Discard, "x"))
                        if has(screen, kind))
            await pressed(pilot, screen, keys)
        assert len(screen.turns) >= 4
        gaps = [b - a for a, b in zip(screen.turns, screen.turns[1:], strict=False)]
        assert min(gaps) >= 0.45, gaps  # each bot's turn a moment after the one before
