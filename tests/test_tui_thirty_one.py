"""Thirty-One's table screen (client/tui/thirty_one.py) by keys: Textual's Pilot against a real server on a
loopback port. A whole game played to its end by keys (the client's seat with the heuristic bot's choices,
made from the screen's own view and legal commands), each preset's own moves through the chooser, what the
screen shows (the hand and its worth, lives, the knock, the widow, the middle hands, the table cards), the
deal's end and the game's end, and a key that is not a move now saying why."""

from __future__ import annotations

import argparse
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Select, Static, Switch

from tenpennies.client import cli
from tenpennies.client.arguments import local_rules
from tenpennies.client.connection import Connection, SeatSession
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui.app import ContinueScreen, Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.choose import ChooseScreen
from tenpennies.client.tui.hand import Hand
from tenpennies.client.tui.help import RuleScreen
from tenpennies.client.tui.lobby import CreateTableScreen, LobbyScreen
from tenpennies.client.tui.review import ReviewScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.thirty_one import (
    DealEndScreen,
    ThirtyOneGameEndScreen,
    ThirtyOneHelp,
    ThirtyOneTable,
    standing,
)
from tenpennies.engine.cards import Card
from tenpennies.engine.thirty_one.bots import HeuristicBot
from tenpennies.engine.thirty_one.commands import (
    Command,
    Discard,
    DrawStock,
    ExchangeMiddle,
    ExchangeWidow,
    KeepHand,
    Knock,
    Renew,
    Stand,
    SwapHand,
    TableSwap,
    TableSwapAll,
    TakeDiscard,
)
from tenpennies.engine.thirty_one.events import PlayerInfo
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.server.app import Server
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import thirty_one as wire
from tenpennies.wire.games import THIRTY_ONE

from tuikit import TableApp, screen_of, table_shown, until

SIZE = (80, 24)
ASCII = CardStyle(ascii=True, colour=False)
KEYS: dict[type, str] = {DrawStock: "r", TakeDiscard: "t", Knock: "k", Stand: "s"}
CHOOSER = (ExchangeWidow, ExchangeMiddle, SwapHand, Renew, TableSwap, TableSwapAll)


def widget(screen: TableScreen) -> ThirtyOneTable:
    game = screen.game
    assert isinstance(game, ThirtyOneTable), game
    return game


def plain(static: Static) -> str:
    """What a Static shows, in plain text (whatever it renders: text, a table, a grid of two sides)."""
    out = io.StringIO()
    Console(width=static.content_size.width or 76, color_system=None, file=out).print(static.content)
    return out.getvalue().rstrip("\n")


def text(screen: TableScreen, selector: str) -> str:
    return plain(screen.query_one(selector, Static))


def shown(app: TableApp) -> str:
    """Every line of the dialog on top."""
    return "\n".join(plain(s) for s in app.screen.query(Static))


async def table_of(connection: Connection, preset: str, seed: int, seats: int = 2, **knobs: object
                   ) -> tuple[str, str, SeatSession]:
    """A Thirty-One table of ``preset``: this client in seat 0, the game's own bots in the others."""
    hosted = await connection.create_table(f"31 {preset}", seats, wire.rules_to_pb(Rules.of(preset, **knobs)),
                                           seed=seed, decision_seconds=0, takeover_seconds=0, game=THIRTY_ONE)
    me = await connection.join(hosted.table_id, "Me")
    for _ in range(seats - 1):
        await connection.add_bot(hosted.table_id, hosted.host_token, "heuristic")
    return hosted.table_id, hosted.host_token, me


def app_for(connection: Connection, me: SeatSession) -> TableApp:
    return TableApp(lambda: TableScreen(connection, me, style=ASCII))


async def started(pilot: Pilot[None], screen: TableScreen, connection: Connection, table_id: str, host: str) -> None:
    await until(pilot, lambda: screen.tv.info is not None and screen.tv.info.seat_info[0].connected, "seated")
    await connection.start(table_id, host)
    await until(pilot, lambda: screen.view is not None, "the game")


async def moved(pilot: Pilot[None], screen: TableScreen, keys: tuple[str, ...]) -> None:
    """Press ``keys`` (the last sends a command) and wait for the game to move; a refusal fails at once."""
    before = screen.tv.sequence
    await pilot.press(*keys)
    await until(pilot, lambda: screen.tv.sequence > before or "T31-" in text(screen, "#message"),
                f"the game to move after {keys}")
    assert screen.tv.sequence > before, text(screen, "#message")


async def my_turn(pilot: Pilot[None], app: TableApp, screen: TableScreen, when: Callable[[], bool],
                  what: str) -> None:
    """Let the game go on (each deal's end closed) until this seat is asked and ``when()`` holds."""
    for _ in range(100):
        await until(pilot, lambda: isinstance(app.screen, DealEndScreen) or (app.screen is screen and bool(
            screen.legal)), what)
        if isinstance(app.screen, DealEndScreen):
            await pilot.press("space")
            await until(pilot, lambda: app.screen is screen, "the table again")
            continue
        if when():
            return
        v = screen.view
        assert v is not None
        await play_by_keys(pilot, app, screen, HeuristicBot().choose(v))
    raise AssertionError(f"never: {what}")


async def cursor_to(pilot: Pilot[None], screen: TableScreen, card: Card) -> None:
    game = widget(screen)
    step = [c.id for c in game.shown].index(card.id) - game.cursor_index()
    if step:
        await pilot.press(*["right" if step > 0 else "left"] * abs(step))
    assert game.cursor_card() == card


async def play_by_keys(pilot: Pilot[None], app: TableApp, screen: TableScreen, command: Command) -> None:
    """Make ``command`` with the keys a player would use."""
    key = KEYS.get(type(command))
    if key is not None:
        await moved(pilot, screen, (key,))
    elif isinstance(command, Discard):
        await cursor_to(pilot, screen, command.card)
        await moved(pilot, screen, ("x",))
    elif isinstance(command, KeepHand):
        await moved(pilot, screen, (str(command.hand + 1),))
    elif isinstance(command, CHOOSER):
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ChooseScreen), "the chooser")
        chooser = app.screen
        assert isinstance(chooser, ChooseScreen)
        index = [c for _, c in chooser.choices].index(command)
        await until(pilot, lambda: chooser.query_one(OptionList).highlighted == 0, "the chooser's list")
        await moved(pilot, screen, ("down",) * index + ("enter",))
    else:
        raise AssertionError(f"no keys for {command}")


async def play_to_the_end(pilot: Pilot[None], app: TableApp, screen: TableScreen, limit: int = 400) -> list[Command]:
    """Play this seat by keys with the heuristic bot's choices until the game ends, closing each deal's end."""
    bot = HeuristicBot()
    made: list[Command] = []
    deals = 0
    for _ in range(limit):
        await until(pilot, lambda: isinstance(app.screen, (DealEndScreen, ThirtyOneGameEndScreen))
                    or (app.screen is screen and bool(screen.legal)), "my turn or a deal's end")
        if isinstance(app.screen, ThirtyOneGameEndScreen):
            return made
        if isinstance(app.screen, DealEndScreen):
            deals += 1
            assert "Deal " in shown(app)
            await pilot.press("space")  # any key continues
            continue
        v = screen.view
        assert v is not None
        command = bot.choose(v)
        await play_by_keys(pilot, app, screen, command)
        made.append(command)
    raise AssertionError("the game never ended")


# --- a whole game ---------------------------------------------------------------------------------


async def test_a_whole_game_of_thirty_one_is_played_by_keys_to_its_end(
        connection: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))  # where the review is kept
    table_id, host, me = await table_of(connection, "classic", seed=7, seats=3, lives=1)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        made = await play_to_the_end(pilot, app, screen)
        assert {DrawStock, Discard} <= {type(c) for c in made} or Knock in {type(c) for c in made}
        end = shown(app)
        assert end.startswith("Game over: ") and "Lives" in end and "winner" in end
        await pilot.press("space")
        await until(pilot, lambda: app.screen is screen, "back at the table")
        assert widget(screen).over
        assert text(screen, "#prompt").startswith("Game over: ") and "enter shows the result" in text(screen, "#prompt")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ThirtyOneGameEndScreen), "the result again")
        assert screen.tv.log[-1].startswith(("Game over", "The game is over")) or "won" in screen.tv.log[-1]
        # the player's play reviewed, from the server's record of the game (the same screen as Ten Pennies')
        assert "R reviews your play" in shown(app)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        review_screen = app.screen
        assert isinstance(review_screen, ReviewScreen)
        await until(pilot, lambda: review_screen.review is not None, "the review made", timeout=120)
        assert review_screen.review is not None and review_screen.review.searcher == "searcher"


# --- what the screen shows -------------------------------------------------------------------------


async def test_the_table_shows_the_hand_and_its_worth_the_pile_the_stock_and_every_seats_lives(
        connection: Connection) -> None:
    table_id, host, me = await table_of(connection, "classic", seed=3, seats=3)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        await my_turn(pilot, app, screen, lambda: screen.view is not None and screen.view.knocker is None,
                      "a turn before any knock")
        v = screen.view
        assert v is not None and len(v.hand) == 3
        hand = str(screen.query_one(Hand).render())
        assert all(ASCII.text(c) in hand for c in v.hand)
        line = text(screen, "#t31-table")
        assert f"Your hand is worth {int(v.value)}" in line and f"Stock {v.stock_size}" in line
        assert v.discard_top is not None and f"Discard {ASCII.text(v.discard_top)}" in line
        seats = text(screen, "#seats")
        assert "Lives" in seats and "heuristic bot 1" in seats and "heuristic bot 2" in seats
        for p in v.players:
            assert f" {p.hand_size} {p.lives:>6}" in seats  # every seat's cards and lives
        assert text(screen, "#header").startswith(f"Thirty-One, classic - deal {v.deal}")
        prompt = text(screen, "#prompt")
        assert prompt.startswith("Your turn: draw [r], take the ") and "knock [k]" in prompt
        # a key that is not a move now says why
        await pilot.press("s")
        await until(pilot, lambda: "T31-6.1" in text(screen, "#message"), "why not stand")
        await moved(pilot, screen, ("r",))
        view = screen.tv.view
        assert view is not None and len(view.hand) == 4
        await until(pilot, lambda: bool(screen.legal), "the discard")
        assert text(screen, "#prompt").startswith("Your turn: discard a card [x]")
        await pilot.press("k")
        await until(pilot, lambda: "discard now [x]" in text(screen, "#message"), "why not knock")
        await pilot.press("question_mark")  # over the refusal: the rule it cites, from the rule book
        await until(pilot, lambda: isinstance(app.screen, RuleScreen), "the rule")
        assert isinstance(app.screen, RuleScreen) and app.screen.number == "T31-4.1"
        assert "On a turn a seat does exactly one of" in " ".join(shown(app).split())
        await pilot.press("question_mark")  # and ? there: the keys
        await until(pilot, lambda: isinstance(app.screen, ThirtyOneHelp), "the help")
        assert "knock" in shown(app) and "lowest hand loses a life" in shown(app)


async def test_a_knock_shows_who_knocked_and_who_still_has_a_turn(connection: Connection) -> None:
    table_id, host, me = await table_of(connection, "classic", seed=5, seats=3)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        await my_turn(pilot, app, screen, lambda: Knock in {type(c) for c in screen.legal}, "a turn to knock on")
        await moved(pilot, screen, ("k",))
        # the bots play their last turns at once: what the table showed after the knock is in its log
        assert any(line == "You knocked" or line.startswith("You knocked") for line in screen.tv.log)
        await until(pilot, lambda: isinstance(app.screen, DealEndScreen), "the showdown")
        end = shown(app)
        assert "You knocked" in end and "Worth" in end and "This deal" in end
        assert "(knocked)" in end and ("lost 1 life" in end or "lost 2 lives" in end)


async def test_banking_shows_the_widow_and_exchanges_with_it_through_the_chooser(connection: Connection) -> None:
    table_id, host, me = await table_of(connection, "banking", seed=2, seats=2, deals=1)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        await my_turn(pilot, app, screen, lambda: any(isinstance(c, ExchangeWidow) for c in screen.legal) and
                      screen.view is not None and screen.view.widow == (None, None, None), "the widow face down")
        assert "Widow ## ## ##" in text(screen, "#t31-extra") and "Centre" in text(screen, "#t31-table")
        assert "exchange [e]" in text(screen, "#prompt") and "Tokens" in text(screen, "#seats")
        v = screen.view
        assert v is not None
        exchange = next(c for c in screen.legal if isinstance(c, ExchangeWidow) and len(c.give) == 1)
        await play_by_keys(pilot, app, screen, exchange)
        await until(pilot, lambda: screen.view is not None and all(c is not None for c in screen.view.widow),
                    "the widow face up")
        assert "##" not in text(screen, "#t31-extra")


async def test_switch_keeps_a_hand_and_shows_the_middle_hands(connection: Connection) -> None:
    # seat 0 deals the first deal: it keeps one of its two hands first (T31-2.4)
    table_id, host, me = await table_of(connection, "switch", seed=4, seats=2)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        await until(pilot, lambda: any(isinstance(c, KeepHand) for c in screen.legal), "the keep")
        assert text(screen, "#prompt").startswith("You dealt yourself two hands: keep your first hand [1]")
        assert "Your second hand" in text(screen, "#t31-extra")
        await moved(pilot, screen, ("2",))
        await until(pilot, lambda: "Middle 0:" in text(screen, "#t31-extra") and "Middle 1:" in text(
            screen, "#t31-extra"), "the middle hands")
        assert "Discard" not in text(screen, "#t31-table")  # switch has no discard pile (T31-4.5)


async def test_stop_the_bus_swaps_with_the_table_cards(connection: Connection) -> None:
    table_id, host, me = await table_of(connection, "stop_the_bus", seed=6, seats=2)
    app = app_for(connection, me)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await started(pilot, screen, connection, table_id, host)
        await my_turn(pilot, app, screen, lambda: any(isinstance(c, TableSwap) for c in screen.legal), "a swap")
        assert "Table cards" in text(screen, "#t31-extra") and "Your hand: " in text(screen, "#t31-table")
        swap = next(c for c in screen.legal if isinstance(c, TableSwap))
        await play_by_keys(pilot, app, screen, swap)
        view = screen.tv.view
        assert view is not None and swap.take in view.hand and swap.give in view.table_cards



# --- the lobby --------------------------------------------------------------------------------------


async def test_the_lobbys_form_makes_a_thirty_one_table_of_a_preset_and_the_list_shows_its_game(
        server: Server, connection: Connection, tmp_path: Path) -> None:
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{server.port}", name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
        form = app.screen
        assert form.query_one("#preset", Select).display and not form.query_one("#t31-preset", Select).display
        form.query_one("#game", Select).value = THIRTY_ONE
        await until(pilot, lambda: form.query_one("#t31-preset", Select).display
                    and not form.query_one("#preset", Select).display, "Thirty-One's rules in the form")
        form.query_one("#t31-preset", Select).value = pb.THIRTY_ONE_PRESET_CUT_THROAT
        # the preset sets its knobs in the form (cut throat: 3 lives, no free ride, a tying knocker loses two)
        await until(pilot, lambda: form.query_one("#t31-lives", Input).value == "3", "cut throat's lives")
        assert not form.query_one("#t31-free_ride", Switch).value
        assert form.query_one("#t31-knocker_tie", Select).value == pb.THIRTY_ONE_KNOCKER_TIE_TWO
        # only the knobs the preset plays are in the form (cut throat keeps lives: no tokens, no deals)
        assert form.query_one("#t31-lives", Input).display and not form.query_one("#t31-tokens", Input).display
        assert not form.query_one("#t31-deals", Input).display
        form.query_one("#t31-lives", Input).value = "2"
        form.query_one("#seats", Select).value = 3
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the form to close")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and len(lobby.hosted) == 1
        table_id = next(iter(lobby.hosted))
        await until(pilot, lambda: table_id in lobby.tables, "the table in the list")
        cells = [str(c) for c in lobby.query_one("#tables", DataTable).get_row(table_id)]
        assert cells[0].startswith("*") and cells[1:4] == ["0/3", "waiting", "31 cutthr."]
        assert "Thirty-One, cut throat" in plain(lobby.query_one("#lobby-selected", Static))
        info = next(t for t in await connection.tables() if t.table_id == table_id)
        assert info.game == THIRTY_ONE and wire.rules_from_pb(info.rules) == Rules.of("cut_throat", lives=2)
        await pilot.press("b")  # the game's own bot
        await until(pilot, lambda: lobby.tables[table_id].seat_info[0].kind == pb.SEAT_KIND_BOT, "a bot")
        assert lobby.tables[table_id].seat_info[0].name == "heuristic bot"


# --- tenpennies play --local --game thirty_one --------------------------------------------------------------


def test_play_local_takes_the_game_and_its_rules_and_refuses_a_rule_it_lacks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    launched: list[Launch] = []

    def launch(args: argparse.Namespace) -> int:
        launched.append(cli.play_launch(args, {}))
        return 0
    monkeypatch.setattr(cli, "cmd_play", launch)
    assert cli.main(["play", "--local", "--game", "thirty_one", "--rule", "preset=switch", "--rule", "lives=2"]) == 0
    assert (launched[0].mode, launched[0].game, launched[0].rules) == ("local", "thirty_one",
                                                                        ("preset=switch", "lives=2"))
    assert local_rules("thirty_one", launched[0].rules) == wire.rules_to_pb(Rules.of("switch", lives=2))
    monkeypatch.undo()
    monkeypatch.setenv("TENPENNIES_HOME", str(tmp_path))
    assert cli.main(["play", "--local", "--game", "thirty_one", "--rule", "hand_size=9"]) == 2
    assert "no such rule setting in Thirty-One: hand_size" in capsys.readouterr().err
    assert cli.main(["play", "--local", "--game", "thirty_one", "--rule", "preset=nope"]) == 2
    assert "T31" in capsys.readouterr().err
    assert cli.main(["play", "--local", "--game", "thirty_one", "--rule", "preset=banking", "--rule", "lives=2"]) == 2
    assert ("T31-7.1: lives applies to the classic, cut_throat, switch and stop_the_bus presets only (the preset is "
            "banking)") in capsys.readouterr().err
    for other in ("poker", "thirty-one", "ten-pennies", "Thirty_One"):  # the games' one spelling is their engine name
        with pytest.raises(SystemExit):
            cli.main(["play", "--local", "--game", other])
        assert f"no game {other!r} here (there are ten_pennies, thirty_one)" in capsys.readouterr().err
    assert cli.main(["play", "--server", "h:1", "--game", "thirty_one"]) == 2
    assert "go with --local" in capsys.readouterr().err


async def test_a_local_thirty_one_game_seats_three_bots_and_the_player_and_the_start_offers_either_game(
        tmp_path: Path) -> None:
    TablePrefs(guide_seen=True, guides_seen=[THIRTY_ONE]).save(tmp_path)  # (the guide: tests/test_tui_guide.py)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path, game=THIRTY_ONE, rules=("preset=banking",)))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: table_shown(app), "the local Thirty-One table")
        screen = table_shown(app)
        assert isinstance(screen, TableScreen) and isinstance(screen.game, ThirtyOneTable)
        assert app.local is not None and app.local.connection is not None
        (info,) = await app.local.connection.tables()
        assert info.game == THIRTY_ONE and wire.rules_from_pb(info.rules) == Rules.of("banking")
        assert [s.name for s in info.seat_info] == ["heuristic bot"] * 3 + ["me"]
        # the header names the preset unless the line is full (a bot may have knocked by now: then it says so)
        assert text(screen, "#header").startswith("Thirty-One") and screen.view is not None
        assert widget(screen).title(screen.view).startswith("Thirty-One, banking")

    again = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ContinueScreen) and again.screen.query("#continue"),
                    "the offer to continue")
        offer = again.screen
        # the bots may have played a deal to its end (a knock) before the first app closed: deal 1 or later
        assert re.search(r"Continue your game \(Thirty-One, deal \d+\)", str(offer.query_one("#continue").render()))
        assert "New game of Thirty-One" in str(offer.query_one("#new-thirty_one").render())
        await pilot.press("t")  # a new Thirty-One game; the bots play the old one out
        await until(pilot, lambda: table_shown(again), "the new table")
        assert again.local is not None and again.local.connection is not None
        tables = await again.local.connection.tables()
        assert len(tables) == 2 and all(t.game == THIRTY_ONE for t in tables)
        table = table_shown(again)
        assert isinstance(table, TableScreen)
        fresh = next(t for t in tables if t.table_id == table.session.table_id)
        assert wire.rules_from_pb(fresh.rules) == Rules()  # a new game from this screen: the game's defaults


async def test_a_spectator_watches_a_thirty_one_game_of_bots_to_its_end_and_sees_no_hand(
        connection: Connection) -> None:
    hosted = await connection.create_table("31 watched", 3, wire.rules_to_pb(Rules.of("switch", lives=1)), seed=9,
                                           decision_seconds=0, takeover_seconds=0, game=THIRTY_ONE)
    for _ in range(3):
        await connection.add_bot(hosted.table_id, hosted.host_token, "heuristic")
    app = TableApp(lambda: TableScreen(connection, connection.spectate(hosted.table_id), style=ASCII))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.tv.info is not None and isinstance(screen.game, ThirtyOneTable),
                    "the table")
        await connection.start(hosted.table_id, hosted.host_token)
        for _ in range(100):
            await until(pilot, lambda: isinstance(app.screen, (DealEndScreen, ThirtyOneGameEndScreen)), "an end")
            if isinstance(app.screen, ThirtyOneGameEndScreen):
                break
            dialog = app.screen
            await pilot.press("space")  # (the bots play on meanwhile: the next deal's end may follow at once)
            await until(pilot, lambda: app.screen is not dialog, "the deal's end closed")  # noqa: B023
        assert isinstance(app.screen, ThirtyOneGameEndScreen) and "Game over: " in shown(app)
        assert "R reviews" not in shown(app)  # a spectator has no play of its own to review
        await pilot.press("space")
        await until(pilot, lambda: app.screen is screen, "the table again")
        assert "Watching" in text(screen, "#t31-table") and not screen.query_one(Hand).display
        assert not any(line.startswith("Dealt to ") for line in screen.tv.log)  # no hand was shown it
        await pilot.press("k")
        await until(pilot, lambda: "watching: only the seated play" in text(screen, "#message"), "why not")


def test_a_seat_on_its_free_ride_is_said_in_the_rule_books_words() -> None:
    riding = PlayerInfo(seat=1, hand_size=3, lives=0, riding=True, out=False, tokens=0, points=0)
    assert standing(riding, Rules()) == "free ride"  # (T31-7.2's words, not slang)
    assert standing(riding._replace(riding=False, lives=2), Rules()) == "2"


async def test_the_prompt_is_whole_at_80_columns(connection: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    """The longest prompt of a turn: a last turn after a knock, the card taken not to be discarded again."""
    from tenpennies.engine.thirty_one.kind import ThirtyOne
    from tenpennies.engine.thirty_one.view import Phase

    from positions import thirty_one

    def new(kind: object, seats: int, rules: object, seed: int) -> object:
        game = thirty_one(3, hands={0: "JD 9D 4S 2C", 1: "KH QH 3C", 2: "5S 6S 7S"}, turn_seat=0, dealer=2,
                          phase=Phase.DISCARD, knocker=1)
        game.taken = Card.parse("JD")
        return game

    monkeypatch.setattr(ThirtyOne, "new", new)
    table_id, host, me = await table_of(connection, "classic", seed=1, seats=3)
    await connection.start(table_id, host)
    app = TableApp(lambda: TableScreen(connection, me))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = screen_of(app)
        await until(pilot, lambda: screen.view is not None and bool(screen.legal), "the discard")
        await pilot.pause()
        region = screen.query_one("#prompt", Static)
        prompt = " ".join(" ".join(region.render_line(y).text for y in range(region.size.height)).split())
        whole = "Your last turn (heuristic bot 1 knocked): discard a card [x] (not the J♦ you took)"
        assert prompt.startswith(whole), prompt
        assert "…" not in prompt


def test_a_preset_of_one_life_or_one_token_says_so_in_the_singular() -> None:
    from tenpennies.client.tui.thirty_one import rules_text

    assert "1 life each" in rules_text(Rules.of("classic", lives=1))
    assert "3 lives each" in rules_text(Rules.of("classic", lives=3))
    assert "1 token each" in rules_text(Rules.of("banking", tokens=1))
