"""Pictures of Thirty-One's table (pytest-textual-snapshot), each at 80x24 and 120x40: a last turn after a
knock (who knocked, who still has a turn, every seat's lives, the hand and its worth), a deal's showdown (every
hand, its worth, what each seat lost), a switch table (the middle hands) and a banking one (the widow, the
tokens, the centre). As tests/test_tui_snapshots.py: the real app in server mode against a real server in
the app's own loop, seeded tables of the game's deterministic heuristic bots, no timers, table ids counted,
this seat played by keys with the heuristic bot's choices."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_tui_snapshots import SIZES, ServedApp, SnapCompare, fixed_table_ids, rows, snapshot, until
from test_tui_thirty_one import play_by_keys
from textual.pilot import Pilot

from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.thirty_one import DealEndScreen
from tenpennies.engine.thirty_one.bots import HeuristicBot
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.wire import thirty_one as wire
from tenpennies.wire.games import THIRTY_ONE

__all__ = ["fixed_table_ids"]  # the table ids counted, as in the Ten Pennies pictures (an autouse fixture)


async def sit_at(app: ServedApp, pilot: Pilot[None], rules: Rules, seed: int, seats: int = 3) -> TableScreen:
    """A seeded Thirty-One table of ``seats``, heuristic bots in all but the last seat, made by the helper;
    the app joins it from the lobby (enter), then the helper starts it."""
    _, helper = app.served()
    await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
    hosted = await helper.create_table("Thirty-One", seats, wire.rules_to_pb(rules), seed=seed, decision_seconds=0,
                                       takeover_seconds=0, game=THIRTY_ONE)
    for _ in range(seats - 1):
        await helper.add_bot(hosted.table_id, hosted.host_token, "heuristic")
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


async def play_until(app: ServedApp, pilot: Pilot[None], screen: TableScreen, done: Callable[[], bool], what: str,
                     *, at_deal_end: bool = False, turns: int = 300) -> None:
    """Play this seat by keys with the heuristic bot's choices (closing each deal's end) until ``done()``
    holds when the game waits for this seat (``at_deal_end``: when a deal's end is shown)."""
    bot = HeuristicBot()
    for _ in range(turns):
        await until(pilot, lambda: isinstance(app.screen, DealEndScreen) or (app.screen is screen and bool(
            screen.legal)), what)
        if isinstance(app.screen, DealEndScreen):
            if at_deal_end and done():
                return
            await pilot.press("space")
            await until(pilot, lambda: app.screen is screen, "the table again")
            continue
        if not at_deal_end and done():
            return
        assert screen.view is not None
        await play_by_keys(pilot, app, screen, bot.choose(screen.view))  # type: ignore[arg-type]
    pytest.fail(f"never reached {what}")


@pytest.mark.parametrize("size", SIZES)
def test_thirty_one_last_turn_after_a_knock(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Classic, three seats: a bot knocked on its first turn; this seat has its last turn, the other still to play."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, Rules.of("classic"), seed=48)

        def last_turn() -> bool:
            v = screen.view
            return v is not None and v.knocker is not None and v.knocker != 2 and bool(v.final_turns)

        await play_until(app, pilot, screen, last_turn, "a last turn with a seat still to play")

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_thirty_one_showdown(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Classic, three seats: the first deal's end after a knock, every hand shown."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, Rules.of("classic"), seed=48)

        def showdown() -> bool:
            end = screen.tv.view.last_deal if screen.tv.view is not None else None
            return end is not None and end.how == "knock"

        await play_until(app, pilot, screen, showdown, "a showdown", at_deal_end=True)

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_thirty_one_switch_middle_hands(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Switch, three seats: this seat's turn with the middle hands on the table."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, Rules.of("switch"), seed=3)
        await play_until(app, pilot, screen, lambda: screen.view is not None and len(screen.view.middle) == 2
                         and screen.view.knocker is None, "a turn with two middle hands")

    assert snapshot(snap_compare, tmp_path, size, drive)


@pytest.mark.parametrize("size", SIZES)
def test_thirty_one_banking_widow(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """Banking, three seats: this seat's turn, the widow, every seat's tokens and the centre."""

    async def drive(app: ServedApp, pilot: Pilot[None]) -> None:
        screen = await sit_at(app, pilot, Rules.of("banking"), seed=5)
        await play_until(app, pilot, screen, lambda: screen.view is not None and screen.view.knocker is None,
                         "a turn before a knock")

    assert snapshot(snap_compare, tmp_path, size, drive)
