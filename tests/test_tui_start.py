"""The terminal client's start-up: the local game's table is drawn with its first frame (its seat's stream is
read to its snapshot before the screen is shown, ``TableScreen.open_stream``), and a stream opened that way
goes on as one stream: every event once, none missed."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from rich.console import RenderableType
from textual.app import App
from textual.screen import Screen

from tenpennies.client import local as local_module
from tenpennies.client.connection import Connection, SeatSession
from tenpennies.client.local import DB_FILE, LocalServer
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.view import Incoming
from tenpennies.engine.ten_pennies import Discard, Draw, PassBuy
from tenpennies.server.store import Store
from tenpennies.v2 import tenpennies_pb2 as pb

from tuikit import until

SIZE = (80, 24)


class FirstFrame(TenPenniesApp):
    """The app, noting what the table screen showed in the first frame composed of it (``App._display``,
    Textual's hook for each frame composed: the one the bench times frames with)."""

    first: tuple[int, tuple[str, ...]] | None = None  # the cards of the hand drawn, the log's lines

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        super()._display(screen, renderable)
        if isinstance(screen, TableScreen) and self.first is None and renderable is not None:
            view = screen.drawn_view
            self.first = (len(view.hand) if view is not None else 0, tuple(screen.tv.log))


async def test_a_local_games_first_frame_shows_the_hand_and_the_story_so_far(tmp_path: Path) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    app = FirstFrame(Launch("local", name="me", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.first is not None, "the table's first frame")
        assert app.first is not None
        cards, log = app.first
        assert cards == 11  # round 1 deals eleven cards (TP-3.1): drawn from the start, not after an empty table
        assert any(line.startswith("The game starts") for line in log)  # the story from the deal on, told once
        assert sum(line.startswith("Dealt to You: ") for line in log) == 1


class Recorded(TableScreen):
    """The table screen, noting each message its stream brings as it takes it (snapshots, event sequences)."""

    def __init__(self, connection: Connection, session: SeatSession) -> None:
        super().__init__(connection, session, story=True)
        self.snapshots = 0
        self.sequences: list[int] = []

    def log_snapshot(self, again: bool) -> None:  # (called once for each snapshot the stream brings)
        self.snapshots += 1
        super().log_snapshot(again)

    def fold_event(self, incoming: Incoming) -> None:
        self.sequences.append(incoming.message.sequence)
        super().fold_event(incoming)


class OpenedFirst(App[None]):
    """A table screen whose stream is opened and read to its snapshot before the screen is pushed, as the
    local game's launcher does."""

    def __init__(self, screen: Recorded) -> None:
        super().__init__()
        self.table = screen

    async def on_mount(self) -> None:
        await self.table.open_stream()
        await self.push_screen(self.table)


async def test_a_stream_opened_before_its_screen_goes_on_without_gap_or_double(connection: Connection) -> None:
    hosted = await connection.create_table("early", 4, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1])),
                                           seed=7, decision_seconds=0, takeover_seconds=0)
    for seat in range(3):
        await connection.add_bot(hosted.table_id, hosted.host_token, seat=seat)
    me = await connection.join(hosted.table_id, "Me", seat=3)
    await connection.start(hosted.table_id, hosted.host_token)
    screen = Recorded(connection, me)
    app = OpenedFirst(screen)
    async with app.run_test(size=SIZE) as pilot:
        for turn in range(6):  # play on: the stream brings what the moves make, live
            await until(pilot, lambda: bool(screen.legal), f"decision {turn}")
            legal = screen.legal
            screen.send(next((c for kind in (PassBuy, Draw, Discard) for c in legal if isinstance(c, kind)), legal[0]))
    assert screen.snapshots == 1  # one stream: the snapshot read before the screen, and no other
    assert screen.sequences == sorted(set(screen.sequences))  # no event twice, none out of order
    # none missed: the seat's whole history, from a fresh stream, up to the last event the screen took
    last = screen.sequences[-1]
    again = connection.seat(hosted.table_id, 3, me.token)
    again.last_sequence = 0
    seen: list[int] = []
    async for message in again.stream():
        if isinstance(message, pb.Event):
            seen.append(message.sequence)
            if message.sequence >= last:
                break
    assert seen == screen.sequences


async def test_a_local_game_whose_file_cannot_be_opened_says_why_and_lets_go_of_the_directory(
        tmp_path: Path) -> None:
    """The local games' file is not a database: the app says so and ends (it opens the file in a thread, for the
    server it hands it to), and lets go of the directory's lock: with the file mended, a local game starts."""
    (tmp_path / DB_FILE).write_bytes(b"not a database " * 512)
    TablePrefs(guide_seen=True).save(tmp_path)
    app = TenPenniesApp(Launch("local", name="me", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.return_code is not None, "the app to end")
        words = " ".join(str(renderable) for renderable in app._exit_renderables)  # what the terminal is left
    assert app.return_code == 1
    assert "The local game could not start: file is not a database" in words
    with pytest.raises(sqlite3.DatabaseError):  # (the app stops its local server as it ends: here no one does)
        await LocalServer(tmp_path).start()
    (tmp_path / DB_FILE).unlink()
    local = LocalServer(tmp_path)
    await local.start()  # (the lock still held: RuntimeError, another local game is running)
    await local.stop()


def stores_open() -> int:
    """The stores open in this process (each runs one checkpoint thread while it is open)."""
    return sum(1 for thread in threading.enumerate() if thread.name == "checkpoint")


async def test_a_local_start_given_up_while_its_store_opens_closes_it_then_lets_go_of_the_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quitting on the splash cancels the local start while its store is being opened in a thread: the thread
    opens it all the same, so it is closed once open, and only then is the directory's lock let go."""
    gate = threading.Event()
    made: list[Store] = []

    class SlowStore(Store):  # a real store, on a disk that keeps it waiting until the test says
        def __init__(self, path: str) -> None:
            gate.wait(30)
            super().__init__(path)
            made.append(self)
    monkeypatch.setattr(local_module, "Store", SlowStore)
    before = stores_open()
    local = LocalServer(tmp_path)
    starting = asyncio.ensure_future(local.start())
    give_up = time.monotonic() + 30
    while local.lock is None:  # (the start runs to its wait for the store)
        assert time.monotonic() < give_up, "the start never took the directory"
        await asyncio.sleep(0.001)
    starting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await starting
    assert local.lock is not None  # the store is still being opened: the directory is not let go yet
    gate.set()
    while local.lock is not None:
        assert time.monotonic() < give_up, "the directory was never let go"
        await asyncio.sleep(0.01)
    assert len(made) == 1 and stores_open() == before  # opened, then closed
    again = LocalServer(tmp_path)
    await again.start()  # the directory is free, and its file whole
    await again.stop()
