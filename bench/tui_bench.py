"""The terminal client's speed, headless (Textual's ``App.run_test``: the app composes and renders each
frame as in a terminal, but the frames are written nowhere), each figure a ratio against a baseline
measured in the same run, since these machines are noisy.

    python bench/tui_bench.py            # as `make bench` runs it
    python bench/tui_bench.py --quick    # fewer runs, a shorter game
    python bench/tui_bench.py --only start-up   # one part (start-up, events)

Start-up: from constructing the app to its first usable frame, against a trivial Textual app (one Static)
measured the same way (construct, then poll for the ready state, then wait for the screen's refresh):
* local mode: the app with its in-process server, until the hand is drawn and the prompt asks this seat
  something (its first decision: take or decline, or buy);
* a server's address: until the lobby's table list shows the server's tables (the server runs in a
  process of its own, started before the clock starts).
Runs are interleaved (trivial, local, lobby, trivial, ...) so that drift hits all three alike.

Event to screen: the client watches a 4-seat table of greedy bots playing at full speed (the server in a
process of its own). For each event, the time from the table screen receiving it (``fold_event``) to the
screen having refreshed after it: the end of the first frame the app composes (its driver's ``flush``: a
headless driver that takes the frames as a terminal would, ``frame_driver``; the frame's terminal output is
made and thrown away, so it costs what it would in a terminal but the write); median and p99 against one
frame at 60 Hz. (``call_after_refresh`` was tried first: Textual runs it only once the screen has no dirty
widget left, which under a steady stream of events is seconds late while frames are being drawn all along, so
it measures idleness, not refresh.) A frame shows the events the
screen had drawn (handed to its widgets) before it; one folded but not yet drawn waits for a later frame.
The watcher closes each round's end dialog at its first frame, as a person does with a key (a table behind a
dialog draws at most four times a second and everything at once when the dialog closes); the figures are
given again for the events that came with the table in view, those that came as the dialog was about to open
(after the round's end was folded, while the table's last frame before the dialog was being made: those not
drawn in it wait for the dialog to close) and those that came while it was up (theirs include the dialog's
time). The latency is from the screen taking the event off its stream: a
screen that falls behind a full-speed stream leaves the backlog in gRPC's buffers, where no clock sees it,
so read the rate (against the bare stream's) beside it.

At full speed the screen draws each burst of events (at most each ``table.BURST`` seconds) and Textual
composes a frame at the next tick of the screen's frame timer: Textual's own, ``TEXTUAL_FPS`` ticks a second
(the client's ``cli.FRAMES_PER_SECOND`` unless the variable says otherwise; each figure's heading says the rate
it ran at), so that an event waits half a tick on average for it, whatever a frame costs. Compare with
another rate by setting it (Textual's own default is 60):

    TEXTUAL_FPS=60 python bench/tui_bench.py

At people's pace (the same watcher, four players in a process of their own each answering ``PACE`` seconds
after it is asked) the screen is idle when an event comes and its frame is drawn at once: there the figure is
what the screen's own work costs, the one a person at a table feels.
"""

from __future__ import annotations

# first: the client's frame rate (``TEXTUAL_FPS``), which Textual reads once, as it is imported
import tenpennies.client.cli  # noqa: F401

# isort: split

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from pathlib import Path

from textual.app import App, ComposeResult
from textual.constants import MAX_FPS
from textual.driver import Driver
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import DataTable, Static

from tenpennies.client.bot import play_seat
from tenpennies.client.connection import Connection, HostedTable, SeatSession
from tenpennies.client.settings import TablePrefs
from tenpennies.client.tui import table as table_module
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.ten_pennies import RoundEndScreen
from tenpennies.client.view import Incoming
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.game import SeatView
from tenpennies.v2 import tenpennies_pb2 as pb

from benchkit import start_server  # the bench folder is the script's own: on sys.path

SIZE = (80, 24)
PACE = 0.15  # seconds a paced player takes over each decision
FRAME = 1 / 60
READY_TIMEOUT = 60.0
QUIET = 0.5  # seconds with no event that say a finished table's stream has nothing more to send
AFTER_END = 2.0  # seconds the events after the game's end have to be shown


# --- start-up ----------------------------------------------------------------------------------------------

class Trivial(App[None]):
    """The baseline: one Static."""

    def compose(self) -> ComposeResult:
        yield Static("Ten Pennies")


def trivial_ready(app: App[None]) -> bool:
    return bool(app.query(Static)) and app.screen.is_mounted


def local_ready(app: App[None]) -> bool:
    screen = app.screen
    if not isinstance(screen, TableScreen) or not screen.legal or not getattr(screen.query_one("#hand"), "cards", ()):
        return False
    return bool(str(screen.query_one("#prompt", Static).render()))  # it asks: take, buy, draw, ...


def lobby_ready(tables: int) -> Callable[[App[None]], bool]:
    def ready(app: App[None]) -> bool:
        screen = app.screen
        return isinstance(screen, LobbyScreen) and screen.query_one("#tables", DataTable).row_count == tables
    return ready


async def time_to_ready(make: Callable[[], App[None]], ready: Callable[[App[None]], bool]) -> float:
    """Seconds from constructing the app to the first refresh of its screen after ``ready(app)`` holds."""
    loop = asyncio.get_running_loop()
    start = time.perf_counter()
    app = make()
    async with app.run_test(size=SIZE):
        give_up = loop.time() + READY_TIMEOUT
        while not ready(app):
            if loop.time() > give_up:
                raise RuntimeError(f"{type(app).__name__} never got ready")
            await asyncio.sleep(0.001)
        painted: asyncio.Future[float] = loop.create_future()

        def stamp() -> None:
            if not painted.done():
                painted.set_result(time.perf_counter())

        app.screen.call_after_refresh(stamp)
        end: float = await asyncio.wait_for(painted, READY_TIMEOUT)
    return end - start


async def start_up(address: str, runs: int) -> None:
    connection = Connection(address)
    for name in ("Sunday pennies", "Deuces wild"):
        await connection.create_table(name, 4, pb.HouseRules(), decision_seconds=0)
    tables = len(await connection.tables())
    await connection.close()
    times: dict[str, list[float]] = {"trivial": [], "local": [], "lobby": []}
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(runs):
            home = Path(scratch) / f"local-{run}"  # a fresh data directory: a new game, no continue offer
            # a player past their first game (no guide over the table), and no pause before a buy offer takes
            # keys (a deliberate 0.6 s when the first decision is a buy: the table is drawn, its keys wait)
            TablePrefs(guide_seen=True, offer_pause=0).save(home)
            times["trivial"].append(await time_to_ready(Trivial, trivial_ready))
            times["local"].append(await time_to_ready(
                lambda: TenPenniesApp(Launch("local", name="bench", home=home)), local_ready))  # noqa: B023
            times["lobby"].append(await time_to_ready(
                lambda: TenPenniesApp(Launch("server", address=address, name="bench", home=Path(scratch))),
                lobby_ready(tables)))
    base = statistics.median(times["trivial"])
    print(f"start-up, headless (App.run_test, {SIZE[0]}x{SIZE[1]}, frames at {MAX_FPS} a second), median of {runs} "
          "interleaved runs:")
    print(f"  trivial app (one Static), first frame     {base * 1000:8.1f} ms   1.00x (the baseline)")
    for key, what in (("local", "local mode: hand and prompt shown"), ("lobby", "server address: lobby list shown")):
        median = statistics.median(times[key])
        print(f"  {what:<40} {median * 1000:8.1f} ms  {median / base:5.2f}x   "
              f"(min {min(times[key]) * 1000:.1f}, max {max(times[key]) * 1000:.1f} ms)")


# --- event to screen ---------------------------------------------------------------------------------------

# The table screen's method that hands the folded events to its widgets: ``redraw`` (once a burst of events
# is folded), or, before the screen kept what it drew, ``refresh_table`` (after each message). Either name,
# so that the same bench runs against this starting commit (the A/B).
DRAW = "redraw" if hasattr(TableScreen, "redraw") else "refresh_table"


class TimedTableScreen(TableScreen):
    """The table screen, with each event's arrival timed where the screen receives it (``fold_event``,
    called from its stream worker as each message comes off the stream). An event is on the screen at the
    end of the first frame composed after the screen drew it (``DRAW``): an event folded but not yet
    handed to the widgets when a frame is composed waits for the next one."""

    def __init__(self, connection: Connection, session: SeatSession) -> None:
        super().__init__(connection, session, style=CardStyle())
        self.pending: list[tuple[float, str]] = []   # folded, not drawn yet: (when, where the table stood: ``WHEN``)
        self.drawn: list[tuple[float, str]] = []     # drawn, not on the screen yet
        self.latencies: list[float] = []
        self.folded_at = 0.0   # when the last event was taken off the stream
        self.end_folded = 0.0  # when the game's end was (the bare stream's count ends with it)
        self.end_shown = 0.0   # when the first frame after it was drawn was composed
        self.to_end = 0        # events folded up to the game's end, it included (the bare stream's count)
        self.when: list[str] = []      # for each latency: where the table stood as the event came
        setattr(self, DRAW, self._timed_draw)

    def fold_event(self, incoming: Incoming) -> None:
        # a dialog over the table; or one due once the table's next frame is composed (``after_frame``: an
        # end was folded and is being drawn first; the starting commit pushed it at once)
        when = "behind" if self.app.screen is not self else "opening" if getattr(self, "_after_frame", ()) else "view"
        self.folded_at = time.perf_counter()
        if not self.end_folded:
            self.to_end += 1
        if incoming.kind == "game_ended":
            self.end_folded = self.folded_at
        self.pending.append((self.folded_at, when))
        super().fold_event(incoming)

    def _timed_draw(self) -> None:
        before = getattr(self, "_drawn_at", None)
        getattr(super(), DRAW)()
        # drawn (behind a dialog the table waits; the starting commit's screen always draws)
        if before is None or self._drawn_at != before:
            self.drawn.extend(self.pending)
            self.pending.clear()

    def painted(self) -> None:
        """A frame was composed: every event drawn before it is on the screen."""
        now = time.perf_counter()
        if self.end_folded and not self.end_shown and any(t == self.end_folded for t, _ in self.drawn):
            self.end_shown = now
        self.latencies.extend(now - t for t, _ in self.drawn)
        self.when.extend(when for _, when in self.drawn)
        self.drawn.clear()


def frame_driver(frame: Callable[[], None]) -> type[Driver]:
    """Textual's headless driver, save that the app draws its frames to it as to a terminal (``is_headless``
    False: each frame is turned into terminal output, thrown away here, so that it costs what it would in a
    terminal, less the write) and that the end of each frame's output (``Driver.flush``) calls ``frame``: the
    bench's stopwatch, through Textual's public driver API (``App(driver_class=...)``)."""

    class FrameDriver(HeadlessDriver):
        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            """The frame's terminal output, made and thrown away."""

        def flush(self) -> None:
            frame()

    return FrameDriver


class Watcher(App[None]):
    """The smallest app around the table screen, with the table's style sheet (as the real app loads it).
    Each frame the screen composes ends in its driver's ``flush`` (``frame_driver``), which stops the clock
    of the events the frame shows. Run with ``run_test(headless=False)``: the frames are made as for a
    terminal."""

    CSS_PATH = str(Path(table_module.__file__).with_name("table.tcss"))

    def __init__(self, screen: TimedTableScreen) -> None:
        super().__init__(driver_class=frame_driver(self.framed))
        self.table = screen
        self.frames = 0

    async def on_mount(self) -> None:
        await self.push_screen(self.table)

    def framed(self) -> None:
        """A frame composed and written out."""
        self.frames += 1
        self.table.painted()
        if isinstance(self.screen, RoundEndScreen):
            self.screen.dismiss()  # as a watcher does who reads it at a glance: a key once it is shown


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def bot_table(connection: Connection, rounds: list[int]) -> HostedTable:
    hosted = await connection.create_table("bots", 4, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=rounds)),
                                           seed=5, decision_seconds=0, takeover_seconds=0)
    for _ in range(4):
        await connection.add_bot(hosted.table_id, hosted.host_token, "greedy")
    return hosted


async def bare_stream(address: str, rounds: list[int]) -> tuple[int, float]:
    """The same game followed by a bare spectator stream (no screen): how fast the server sends it."""
    connection = Connection(address)
    hosted = await bot_table(connection, rounds)
    count, started = 0, 0.0
    async for message in connection.spectate(hosted.table_id).stream():
        if isinstance(message, pb.Snapshot):
            await connection.start(hosted.table_id, hosted.host_token)
            started = time.perf_counter()
            continue
        count += 1
        if message.WhichOneof("kind") == "game_ended":
            break
    took = time.perf_counter() - started
    await connection.close()
    return count, took


class PacedBot(GreedyBot):
    """Greedy, taking ``PACE`` seconds over each decision (the SDK asks it in a thread of its own)."""

    def choose(self, view: SeatView):  # type: ignore[no-untyped-def]
        time.sleep(PACE)
        return super().choose(view)


def paced_players(address: str, table_id: str, tokens: list[tuple[int, str]]) -> None:
    """Play the table's seats with paced greedy bots (run in a process of its own)."""
    async def play() -> None:
        connection = Connection(address)
        await asyncio.gather(*(play_seat(PacedBot(), connection.seat(table_id, seat, token))
                               for seat, token in tokens))
        await connection.close()
    asyncio.run(play())


async def paced_table(connection: Connection, rounds: list[int]) -> tuple[HostedTable, BaseProcess]:
    """A table of four paced players, each in the seat it joined, played from another process."""
    hosted = await connection.create_table("paced", 4, pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=rounds)),
                                           seed=5, decision_seconds=0, takeover_seconds=0)
    tokens = []
    for seat in range(4):
        session = await connection.join(hosted.table_id, f"paced {seat}", seat)
        assert session.token
        tokens.append((seat, session.token))
    players = multiprocessing.get_context("spawn").Process(
        target=paced_players, args=(connection.address, hosted.table_id, tokens), daemon=True)
    players.start()
    return hosted, players


async def watch(connection: Connection, hosted: HostedTable) -> tuple[TimedTableScreen, Watcher, float]:
    """A spectator's table screen following the table from before its start to its end: the screen, its
    app, and the seconds from the start to the game's end on the screen."""
    screen = TimedTableScreen(connection, connection.spectate(hosted.table_id))
    app = Watcher(screen)
    loop = asyncio.get_running_loop()
    async with app.run_test(size=SIZE, headless=False) as pilot:
        give_up = loop.time() + READY_TIMEOUT
        while screen.tv.info is None:
            assert loop.time() < give_up, "the spectator never got its snapshot"
            await pilot.pause(0.01)
        started = time.perf_counter()
        await connection.start(hosted.table_id, hosted.host_token)
        give_up = loop.time() + 600
        # the game's end on the screen, and every event after it (a table's last messages come just after
        # it): none folded for QUIET seconds, and each one on the screen; those still behind the game's end
        # (which the watcher leaves open) after AFTER_END seconds more are left out
        while not screen.end_shown or time.perf_counter() - screen.folded_at < QUIET:
            assert loop.time() < give_up, "the game never ended"
            await asyncio.sleep(0.01)
        drawn_by = loop.time() + AFTER_END
        while (screen.pending or screen.drawn) and loop.time() < drawn_by:
            await asyncio.sleep(0.01)
        took = screen.end_shown - started
    return screen, app, took


def latency_lines(screen: TimedTableScreen) -> None:
    samples = screen.latencies
    median, p99 = statistics.median(samples), percentile(samples, 0.99)
    print(f"  median {median * 1000:6.2f} ms  {median / FRAME:5.2f} frames (1 frame = 1/60 s = {FRAME * 1000:.1f} ms)")
    print(f"  p99    {p99 * 1000:6.2f} ms  {p99 / FRAME:5.2f} frames")
    print(f"  max    {max(samples) * 1000:6.2f} ms  {max(samples) / FRAME:5.2f} frames")
    # The watcher closes each round's end at its first frame; events that came while it was up are drawn
    # when it closes (the table waits behind a dialog), so theirs include the dialog's time, as do those that
    # came as it was about to open (folded after the table's last frame before it, drawn once it closes).
    for what, when in (("came with the table in view", "view"), ("came as a round's end opened", "opening"),
                       ("came behind the round's end", "behind")):
        part = [t for t, w in zip(samples, screen.when, strict=True) if w == when]
        if part:
            print(f"  {what:<28} {len(part):5d} events: median {statistics.median(part) * 1000:6.2f} ms, "
                  f"p99 {percentile(part, 0.99) * 1000:6.2f} ms")


async def event_to_screen(address: str, rounds: list[int]) -> None:
    bare_count, bare_took = await bare_stream(address, rounds)
    connection = Connection(address)
    screen, app, took = await watch(connection, await bot_table(connection, rounds))
    await connection.close()
    samples = screen.latencies
    print(f"event to screen, headless, a spectator of 4 greedy bots at full speed (rounds {rounds}; server in "
          f"its own process; frames at {MAX_FPS} a second):")
    print(f"  bare stream (no screen): {bare_count} events in {bare_took:.2f} s "
          f"({bare_count / bare_took:.0f} events/s)")
    print(f"  table screen: {screen.to_end} events to the game's end in {took:.2f} s ({screen.to_end / took:.0f} "
          f"events/s, {took / bare_took:.1f}x the bare stream's time), {app.frames} frames; {len(samples)} timed")
    print(f"  rate against the bare stream's: {bare_took / took:.2f}x (the aim: 0.5x or more)")
    latency_lines(screen)
    print("  (the aims: median 8 ms or less, p99 one frame, 16.7 ms, or less)")


async def event_to_screen_paced(address: str, rounds: list[int]) -> None:
    connection = Connection(address)
    hosted, players = await paced_table(connection, rounds)
    try:
        screen, app, took = await watch(connection, hosted)
    finally:
        await connection.close()
        players.join(30)
        if players.is_alive():
            players.kill()
    print(f"event to screen, headless, a spectator of 4 players at people's pace (each decision {PACE * 1000:.0f} ms; "
          f"rounds {rounds}; players and server each in a process of their own; frames at {MAX_FPS} a second):")
    print(f"  table screen: {len(screen.latencies)} events in {took:.2f} s, {app.frames} frames")
    latency_lines(screen)


# --- the server, in a process of its own ------------------------------------------------------------------



async def main(quick: bool, only: str | None) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        process, port = start_server(Path(scratch) / "bench.db", "--allow-seeds")
        address = f"127.0.0.1:{port}"
        try:
            if only in (None, "start-up"):
                await start_up(address, runs=3 if quick else 9)
            if only in (None, "events"):
                await event_to_screen(address, [1, 2] if quick else [1, 2, 3, 4, 5, 6, 7])
                await event_to_screen_paced(address, [1] if quick else [1, 2])
        finally:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer runs, a shorter game")
    parser.add_argument("--only", choices=("start-up", "events"), help="one part: start-up, or event to screen")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.quick, arguments.only))
