"""The table screen played by keys to the end of a round, and two players at one table, each on their own
screen: Textual's Pilot (80x24) against a real server on a loopback port.

The games are seeded and the built-in bots deterministic, so a seed found in-process with the engine
(``Game`` and ``GreedyBot``) gives the same game through the server: here the client's seat is played by
keys with the greedy bot's choices, made from the screen's own view and legal commands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from tenpennies.client.connection import Connection, SeatSession
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.hand import Hand
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import RoundEndScreen
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    HouseRules,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    TakeDiscard,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping
from tenpennies.wire.cards import card_from_pb

from tuikit import TableApp, game_of, screen_of, until

SIZE = (80, 24)
ASCII = CardStyle(ascii=True, colour=False)  # cards as 7H TD JK: the hand's text splits into cards

# Two seats, hands of 8, rounds 1 and 2: with greedy play on both seats, seat 0 (the client) lays off
# onto sets on the table and goes out in round 1 by laying off its last card (found with the engine).
GOING_OUT_RULES = pb.HouseRules(ten_pennies=pb.TenPenniesRules(hand_size=8, rounds=[1, 2], max_turns=60))
GOING_OUT_SEED = 44


def has(screen: TableScreen, kind: type) -> bool:
    return any(isinstance(c, kind) for c in screen.legal)


def table_screen(connection: Connection, session: SeatSession) -> Callable[[], TableScreen]:
    return lambda: TableScreen(connection, session, style=ASCII)


def hand_cards(screen: TableScreen) -> list[str]:
    """The hand widget's text as drawn, card by card (its rows alternate cards and marks)."""
    text = str(screen.query_one(Hand).render())
    return [card for row in text.split("\n")[::2] for card in row.split()]


def log_text(screen: TableScreen) -> str:
    return "\n".join(screen.tv.log)


async def seated(screen: TableScreen, pilot: Pilot[None], seat: int) -> None:
    await until(pilot, lambda: screen.tv.info is not None and screen.tv.info.seat_info[seat].connected,
                f"seat {seat} followed")


# --- the greedy bot's choice, by keys ------------------------------------------------------------------

async def moved(pilot: Pilot[None], screen: TableScreen, keys: tuple[str, ...]) -> None:
    """Press ``keys`` (the last of them sends a command), then wait for the game to move: a new event.
    A refusal would show in the message line, and fails at once."""
    before = screen.tv.sequence
    await pilot.press(*keys)
    await until(pilot, lambda: screen.tv.sequence > before or "TP-" in str(screen.query_one("#message").render()),
                f"the game to move after {keys}")
    assert screen.tv.sequence > before, str(screen.query_one("#message").render())


async def cursor_to(pilot: Pilot[None], screen: TableScreen, card: Card) -> None:
    step = [c.id for c in game_of(screen).shown].index(card.id) - game_of(screen).cursor_index()
    if step:
        await pilot.press(*["right" if step > 0 else "left"] * abs(step))
    assert game_of(screen).shown[game_of(screen).cursor_index()].id == card.id


async def select(pilot: Pilot[None], screen: TableScreen, cards: tuple[Card, ...]) -> None:
    for card in cards:
        await cursor_to(pilot, screen, card)
        await pilot.press("space")
    assert game_of(screen).selected == {c.id for c in cards}


SIMPLE_KEYS: dict[type, str] = {TakeDiscard: "t", DeclineDiscard: "d", Buy: "b", PassBuy: "p", Draw: "r"}


async def play_by_keys(pilot: Pilot[None], screen: TableScreen, command: Command) -> None:
    """Make ``command`` with the keys a player would use."""
    key = SIMPLE_KEYS.get(type(command))
    if key is not None:
        await moved(pilot, screen, (key,))
    elif isinstance(command, LayContract):
        for cards in command.sets:
            await select(pilot, screen, cards)
            await pilot.press("m")  # into the builder
        assert len(game_of(screen).builder) == len(command.sets)
        await moved(pilot, screen, ("m",))  # the contract is built: m lays it
    elif isinstance(command, LaySet):
        await select(pilot, screen, command.cards)
        await moved(pilot, screen, ("m",))
    elif isinstance(command, LayOff):
        await cursor_to(pilot, screen, command.card)  # nothing selected: the card under the cursor
        digits = tuple(str(command.set_id))
        v = screen.view
        assert v is not None
        if 0 < command.set_id and command.set_id * 10 < len(v.table):  # the number could go on: enter ends it
            digits += ("enter",)
        await moved(pilot, screen, digits)
    elif isinstance(command, Discard):
        await cursor_to(pilot, screen, command.card)
        await moved(pilot, screen, ("x",))
    else:
        raise AssertionError(f"no keys for {command}")


def greedy_game(seats: int, rules: HouseRules, seed: int) -> list[tuple[int, Command, list[ev.Event]]]:
    """The whole first round with greedy bots in every seat, in-process: (seat, command, its events)."""
    game, bot = Game(seats, rules, seed), GreedyBot()
    played: list[tuple[int, Command, list[ev.Event]]] = []
    while not game.over:
        seat = game.to_act()[0]
        command = bot.choose(game.view(seat))
        events = game.apply(command)
        played.append((seat, command, events))
        if any(isinstance(e, ev.RoundEnded) for e in events):
            break
    return played


# --- laying off and going out --------------------------------------------------------------------------

def test_the_seed_lays_off_and_goes_out_by_a_lay_off() -> None:
    """The position the next test plays to, checked in the engine alone."""
    played = greedy_game(2, mapping.rules_from_pb(GOING_OUT_RULES), GOING_OUT_SEED)
    mine = [command for seat, command, _ in played if seat == 0]
    assert sum(isinstance(c, LayOff) for c in mine) >= 2
    seat, last, events = played[-1]
    assert seat == 0 and isinstance(last, LayOff)
    assert any(isinstance(e, ev.WentOut) and e.seat == 0 for e in events)


async def test_lay_off_by_digit_and_go_out(connection: Connection) -> None:
    hosted = await connection.create_table("out", 2, GOING_OUT_RULES, seed=GOING_OUT_SEED, decision_seconds=0,
                                           takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    assert me.seat == 0
    await connection.add_bot(hosted.table_id, hosted.host_token, "greedy")
    app = TableApp(lambda: TableScreen(connection, me, style=ASCII))
    bot = GreedyBot()
    layoffs: list[LayOff] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await seated(screen, pilot, 0)
        await connection.start(hosted.table_id, hosted.host_token)
        last: Command | None = None
        for _ in range(200):
            await until(pilot, lambda: screen.tv.round_end is not None or bool(screen.legal), "my turn")
            if screen.tv.round_end is not None:
                break
            v = screen.view
            assert v is not None
            last = bot.choose(v)
            if isinstance(last, LayOff):
                off, hand = last, len(v.hand)
                line = f"You laid off {ASCII.text(off.card)} on set {off.set_id}"
                await play_by_keys(pilot, screen, off)
                await until(pilot, lambda: line in screen.tv.log, line)  # noqa: B023
                if hand > 1:  # (the last card goes out: the round ends, and the next one clears the table)
                    assert screen.view is not None and len(screen.view.hand) == hand - 1
                    assert any(m.id == off.set_id and off.card in m.cards for m in screen.view.table)
                layoffs.append(off)
            else:
                await play_by_keys(pilot, screen, last)
        else:
            pytest.fail("round 1 never ended")
        assert len(layoffs) >= 2 and isinstance(last, LayOff)
        ended = screen.tv.round_end
        assert ended is not None and ended.round == 1 and ended.out == 0
        assert "You went out" in log_text(screen)
        await until(pilot, lambda: isinstance(app.screen, RoundEndScreen), "the round's end")
        shown = "\n".join(str(s.render()) for s in app.screen.query("Static"))
        assert "Round 1 over: You went out" in shown
        assert not ended.hands[0] and all(ended.hands[1:])  # out: an empty hand


# --- two players, two screens -----------------------------------------------------------------------------

async def test_two_clients_each_see_only_their_own_hand(connection: Connection) -> None:
    rules = pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1], max_turns=12))
    hosted = await connection.create_table("two", 2, rules, seed=9, decision_seconds=0, takeover_seconds=0)
    ann = await connection.join(hosted.table_id, "Ann")
    bob = await connection.join(hosted.table_id, "Bob")
    sessions: dict[int, SeatSession] = {0: ann, 1: bob}
    assert (ann.seat, bob.seat) == (0, 1)
    apps = {seat: TableApp(table_screen(connection, session)) for seat, session in sessions.items()}
    async with apps[0].run_test(size=SIZE) as pilot_a, apps[1].run_test(size=SIZE) as pilot_b:
        pilots = {0: pilot_a, 1: pilot_b}
        screens = {seat: screen_of(app) for seat, app in apps.items()}
        for seat in (0, 1):
            await seated(screens[seat], pilots[seat], seat)
        await connection.start(hosted.table_id, hosted.host_token)

        async def truth(seat: int) -> list[str]:
            """The seat's hand as the server holds it (its own snapshot)."""
            snapshot = await sessions[seat].snapshot()
            return [ASCII.text(card_from_pb(c)) for c in snapshot.game.hand]

        async def check(waiting: int) -> None:
            """While the game waits for ``waiting``: each screen comes to draw exactly its own seat's hand
            (the server's), and meanwhile never a card of the other's that it does not hold itself (two
            decks: a face may be in both hands)."""
            hands = {seat: await truth(seat) for seat in (0, 1)}
            assert screens[waiting].legal, "the game still waits for this seat"
            for seat in (0, 1):
                others_only = set(hands[1 - seat]) - set(hands[seat])
                assert others_only

                def shows_own(seat: int = seat, others_only: set[str] = others_only) -> bool:
                    drawn = hand_cards(screens[seat])
                    assert not others_only & set(drawn), (seat, drawn, hands[1 - seat])
                    return Counter(drawn) == Counter(hands[seat])

                await until(pilots[seat], shows_own, f"seat {seat}'s screen to show its hand")
                other = "Bob" if seat == 0 else "Ann"
                log = log_text(screens[seat])
                assert f"Dealt to {other}:" not in log and f"{other} drew the" not in log
                assert f"{other} took the penalty" not in log

        checked = 0
        for _ in range(40):  # each seat plays plainly by keys; check both screens whenever one waits
            waiting = [s for s in (0, 1) if screens[s].legal]
            if not waiting:
                await until(pilot_a, lambda: any(screens[s].legal for s in (0, 1))
                            or screens[0].tv.round_end is not None, "a seat to wait")
                if screens[0].tv.round_end is not None:
                    break
                continue
            seat = waiting[0]
            await check(seat)
            checked += 1
            screen = screens[seat]
            keys = next(k for kind, k in ((DeclineDiscard, ("d",)), (PassBuy, ("p",)), (Draw, ("r",)),
                                          (Discard, ("home", "x"))) if has(screen, kind))
            await moved(pilots[seat], screen, keys)
        assert checked >= 10


async def test_enter_does_what_a_lay_off_hint_says(connection: Connection) -> None:
    """A hint for a lay-off (or a further set) names its key and enter: enter lays it, as said."""
    hosted = await connection.create_table("hint", 2, GOING_OUT_RULES, seed=GOING_OUT_SEED, decision_seconds=0,
                                           takeover_seconds=0)
    me = await connection.join(hosted.table_id, "Me")
    await connection.add_bot(hosted.table_id, hosted.host_token, "greedy")
    app = TableApp(lambda: TableScreen(connection, me, style=ASCII))
    bot = GreedyBot()
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        game = game_of(screen)
        await seated(screen, pilot, 0)
        await connection.start(hosted.table_id, hosted.host_token)
        for _ in range(200):
            await until(pilot, lambda: bool(screen.legal), "my turn")
            if has(screen, LayOff) and not has(screen, LayContract):
                break
            v = screen.view
            assert v is not None
            await play_by_keys(pilot, screen, bot.choose(v))
        else:
            pytest.fail("no lay-off came")
        await pilot.press("h")
        hinted = game.hinted
        assert isinstance(hinted, (LayOff, LaySet)), hinted
        said = str(screen.query_one("#message").render())
        assert "or enter lays it" in said, said
        line = (f"You laid off {ASCII.text(hinted.card)} on set {hinted.set_id}" if isinstance(hinted, LayOff)
                else "You laid a set")
        await moved(pilot, screen, ("enter",))
        await until(pilot, lambda: any(line in entry for entry in screen.tv.log), line)
