"""The bot SDK: one bot interface for everywhere, and ``tenpennies bot``.

A bot is any object with ``choose(view: SeatView) -> Command`` (``engine.interface.Bot``: a Ten Pennies
``SeatView`` and command, or a Thirty-One one at a Thirty-One table: the SDK follows the game the table names,
and knows each game only through its ``Kind``: its bots, its safe default, its end): it sees
what its seat may know and picks from ``view.legal``. The same object plays in-process
(``engine.bots.play_game``) and over gRPC against any server (``play_seat``), where ``view`` is the
engine ``SeatView`` the seat's stream folds into (``client.view.TableView``), with the server's legal
commands: exactly the view type a bot in-process sees.

Over gRPC ``play_seat`` follows the seat's stream (``SeatSession.follow``: it reconnects and resumes like
the terminal client), and whenever the fold shows legal commands for the seat, asks the bot in a thread
of its own (``engine.seats.ask``, the one seat loop's check) and sends its answer. It answers within the
table's decision timer: a bot that has not answered after ``margin`` (80%) of the time left to the
deadline, that raises, that is still busy with an earlier decision, or that answers something not legal
has ``safe_default(view)`` (what the server's timer would do) sent in its place. A command the server
refuses is counted and not retried: one the view listed lost a race (the decision passed: a nearer seat
bought, the timer acted) and is no fault of the bot's; one it did not list (a meld of the bot's own
making) is illegal, and the safe default follows. Everything is counted in ``SeatStats``.

``enter_tournament`` plays a bot in a server's tournament mode (``tenpennies bot --tournament``); the
headless runner that plays whole tournaments of bots is ``client.tournament.play_tournament``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import inspect
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from tenpennies.client.arguments import address, game_title, no_bot, player_name
from tenpennies.client.connection import Backoff, Connection, Link, SeatSession, ServerError
from tenpennies.client.games import StandingRow, cell, client_game, mean_text, standing_columns
from tenpennies.client.games import standings_lines as standings_lines_of
from tenpennies.client.trust import (
    TrustError,
    certificate_refused,
    changed_advice,
    explain,
    fingerprint_argument,
    settle,
)
from tenpennies.client.view import TableView
from tenpennies.engine import seats
from tenpennies.engine.games import DEFAULT_GAME, GAMES, kind, kind_of
from tenpennies.engine.interface import Bot, Command, View
from tenpennies.engine.seats import Answer, Fault
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.games import wire

STRATEGIES = sorted({strategy for game in GAMES.values() for strategy in game.bots})
"""Every game's built-in bots by name (``random`` is both games'): ``load_bot`` gives the one of the game
the seat turns out to play."""


def safe_default(view: Any) -> Any:
    """What the server's timer would do for the seat (its game's ``Kind.safe_default``)."""
    return kind_of(view).safe_default(view)


class GameBot:
    """A built-in strategy of whichever game the seat plays: made (with its seed) from the first view it is
    shown, as that view's game names it; a strategy its game lacks raises (the safe default is sent)."""

    def __init__(self, strategy: str, seed: int) -> None:
        self.strategy = strategy
        self.seed = seed
        self.bot: Any = None  # the game's own bot (each game's Bot protocol), once the game is known

    def choose(self, view: Any) -> Any:
        if self.bot is None:
            game = kind_of(view)
            if self.strategy not in game.bots:
                raise BotLoadError(f"this game has no {self.strategy} bot (it has {', '.join(sorted(game.bots))})")
            self.bot = game.bots[self.strategy](self.seed)
        return self.bot.choose(view)

MARGIN = 0.8
"""The share of the time left to a decision's deadline the bot may think; the rest is for the wire."""
MIN_THINK = 0.02
"""Seconds: with less than this left, the safe default goes at once."""
BUSY_RETRIES = (0.05, 0.1, 0.2, 0.4)
"""Seconds (jittered) before sending again a command the server refused for the client's spent budget
(RESOURCE_EXHAUSTED: many bots on one machine share its address's), while the decision is still open."""

StreamItem = pb.Snapshot | pb.Event | Link
OnEvent = Callable[[StreamItem, TableView], object]
"""Called with every item of the seat's stream after it is folded into the TableView (a ``Link`` when
the stream comes up or goes down)."""

_REFUSED = {grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT}


@dataclass
class SeatStats:
    """What happened to one seat's decisions. Each decision the seat was asked ends one way, so that
    ``decisions == played + defaults + stale + lost + unsent + open`` (``outcomes``); ``slow``, ``errors``
    and ``illegal`` say why the defaults were sent (they add up to ``defaults``); the rest count commands
    and the stream, not decisions."""

    decisions: int = 0    # decisions the seat was asked
    played: int = 0       # the bot's own command went and the server accepted it
    defaults: int = 0     # a safe default went in the bot's place (each also counted below, by why)
    slow: int = 0         # ... the bot had not answered in time, or was still busy with an earlier decision
    errors: int = 0       # ... choose() raised
    illegal: int = 0      # ... the bot answered something not legal (judged here, or refused by the server)
    stale: int = 0        # the decision ended (another seat bought, the timer acted) while the bot thought, or
    #                       before its answer arrived (the server said so: the decision it named was not open)
    lost: int = 0         # the bot's answer, one the view listed, was refused all the same (a race the server
    #                       could not tell by the decision's name: an older server)
    unsent: int = 0       # the bot's answer could not be sent (the server went away): the stream asks again
    open: int = 0         # still being decided when the game (or the seat's stream) ended
    refused: int = 0      # commands the server refused (FAILED_PRECONDITION, INVALID_ARGUMENT): lost + some illegal
    timed_out: int = 0    # decisions the server's timer made for the seat (TimerExpired)
    send_errors: int = 0  # sends that failed otherwise (the server went away): the resumed stream asks again
    reconnects: int = 0   # times the stream dropped
    last_error: str = ""  # the last error's words (a bot's exception, a refusal)

    @property
    def outcomes(self) -> int:
        """The decisions accounted for, each by how it ended: ``decisions``, when nothing is miscounted."""
        return self.played + self.defaults + self.stale + self.lost + self.unsent + self.open

    def summary(self) -> str:
        """The counts in one line, each decision in one of its ways of ending (they add up to the total)."""
        return (f"decisions {self.decisions}: played {self.played}, safe defaults {self.defaults} (slow {self.slow}, "
                f"errors {self.errors}, illegal {self.illegal}), passed while the bot thought {self.stale}, "
                f"answered too late {self.lost}, not sent {self.unsent}, still open {self.open}; "
                f"commands refused {self.refused}, timer acted {self.timed_out}, reconnects {self.reconnects}")


class FunctionBot:
    """A bot made of a function ``choose(view) -> Command``."""

    def __init__(self, choose: Callable[[View], Command]) -> None:
        self._choose = choose

    def choose(self, view: View) -> Command:
        return self._choose(view)


class SerialBot:
    """A bot shared by several seats at once (a tournament may seat one bot at two tables): one
    ``choose`` at a time, for bots that are not thread-safe."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self._lock = threading.Lock()

    def choose(self, view: View) -> Command:
        with self._lock:
            return self.bot.choose(view)


class _Thinker:
    """Asks the bot (``engine.seats.ask``) in a daemon thread, one call at a time: a bot that never returns
    holds only its own thread (and keeps the process from nothing on exit), never the event loop."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.busy = False

    def think(self, view: View) -> asyncio.Future[Answer[Command]]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Answer[Command]] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if future.done():  # given up on already
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def work() -> None:
            result: Any = None
            error: BaseException | None = None
            try:
                result = seats.ask(self.bot, view, safe_default, _own_meld(view))
            except BaseException as exc:  # what ask does not catch (KeyboardInterrupt, SystemExit)
                error = exc
            self.busy = False
            try:
                loop.call_soon_threadsafe(settle, result, error)
            except RuntimeError:  # the loop is gone: nobody waits any more
                pass

        self.busy = True
        threading.Thread(target=work, name="bot-choose", daemon=True).start()
        return future


@dataclass(eq=False)
class _Decision:
    view: View
    legal: tuple[Command, ...]
    budget: float | None  # seconds the bot may think; None: no timer
    sequence: int = 0     # its DecisionRequest's sequence, named in the answer (0: not known)
    sending: bool = field(default=False)
    settled: bool = field(default=False)  # counted by how it ended (SeatStats.outcomes)


class SeatPlayer:
    """Plays one seat with a bot over gRPC; ``play_seat`` is the short way to use it. ``table`` is the
    seat's TableView as folded so far, ``stats`` what happened."""

    def __init__(self, bot: Bot, session: SeatSession, *, on_event: OnEvent | None = None,
                 stats: SeatStats | None = None, margin: float = MARGIN, backoff: Backoff | None = None) -> None:
        if session.seat is None:
            raise ValueError("a spectator has no decisions: give play_seat a seat's session")
        self.session = session
        self.seat: int = session.seat
        self.table = TableView(session.seat)
        self.stats = stats if stats is not None else SeatStats()
        self.on_event = on_event
        self.margin = margin
        self.backoff = backoff
        self._thinker = _Thinker(bot)
        self._decision: _Decision | None = None
        self._tasks: dict[asyncio.Task[None], _Decision] = {}

    async def run(self) -> pb.GameEnded | None:
        """Play until the game ends: its end (None if the server ended the seat's stream first: the seat
        was emptied). Raises ServerError when the seat or the table is no longer there."""
        try:
            async for item in self.session.follow(self.backoff):
                if isinstance(item, Link):
                    if not item.up:
                        self.stats.reconnects += 1
                        if item.error is not None and certificate_refused(item.error):
                            raise item.error  # not the server it trusted: a bot cannot ask, so it stops
                elif isinstance(item, pb.Snapshot):
                    self.table.apply_snapshot(item)
                    if self._decision is not None and not self._decision.sending:
                        self._decision = None  # whatever is open now, the snapshot lists it: decide afresh
                else:
                    before = self.table.sequence
                    self.table.apply_event(item)
                    if item.WhichOneof("kind") == "timer_expired" and item.timer_expired.seat == self.seat \
                            and item.sequence > before:
                        self.stats.timed_out += 1
                if self.on_event is not None:
                    self.on_event(item, self.table)
                ended = self._ended(isinstance(item, pb.Snapshot))
                if ended is not None:
                    return ended
                if not isinstance(item, Link):
                    self._consider()
            return None
        finally:
            self._decision = None
            sending = [task for task, decision in self._tasks.items() if decision.sending]
            if sending:  # a command on its way (the game's last, say) is let finish, to be counted
                await asyncio.wait(sending, timeout=5)
            undecided = [decision for task, decision in self._tasks.items() if not task.done()]
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self.stats.open += sum(1 for decision in undecided if not decision.settled)

    def _ended(self, snapshot: bool) -> pb.GameEnded | None:
        """The game's end once its event is folded, or once a snapshot shows the game over; never read from a
        view folded event by event (a game's view may show its end an event before the end's: its winners)."""
        if self.table.game_end is not None:
            return self.table.game_end
        view = self.table.view
        if view is None or not snapshot:
            return None
        # a snapshot of a game that ended meanwhile: its end as the game's kind reads it from the view
        end = kind(self.table.game).game_end(view, self.table.winners)
        if end is None:
            return None
        ended: pb.GameEnded = wire(self.table.game).event_to_pb(end, self.table.rules).game_ended
        return ended

    # --- decisions ---------------------------------------------------------------------------------

    def _consider(self) -> None:
        """After each folded message: a decision that is new starts being decided; one that ended (any
        game event ends it) is dropped, so an answer that comes too late is never sent."""
        view = self.table.view
        legal = view.legal if view is not None else ()
        if not legal:
            self._decision = None
            return
        if self._decision is not None and self._decision.legal == legal:
            return  # the same decision, already being decided (a chat line or a seat change came)
        assert view is not None
        decision = _Decision(view, legal, self._budget(), self.table.decision)
        self._decision = decision
        self.stats.decisions += 1
        task = asyncio.get_running_loop().create_task(self._decide(decision))
        self._tasks[task] = decision
        task.add_done_callback(lambda done: self._tasks.pop(done, None))

    def _budget(self) -> float | None:
        """Seconds the bot may think: ``margin`` of the time left to the deadline (None: no timer). A
        deadline that says less than nothing or more than the table's timer is read as a clock that
        differs from the server's, and the table's whole timer is taken instead."""
        deadline = self.table.deadline_ms
        if not deadline:
            return None
        left = deadline - time.time() * 1000
        info = self.table.info
        timer_ms = info.settings.decision_seconds * 1000 if info is not None else 0
        if timer_ms and not 0 < left <= timer_ms + 1000:
            left = timer_ms
        return max(0.0, left) * self.margin / 1000

    async def _decide(self, decision: _Decision) -> None:
        answer = await self._ask(decision)
        if self._decision is not decision:
            self._count(decision, "stale")  # the game moved on while the bot thought
            return
        if answer.fault is None:
            outcome = await self._send(decision, answer.command)
            if outcome == "accepted":
                self._count(decision, "played")
                return
            if outcome == "failed":
                self._count(decision, "unsent")  # the stream resumes and lists what is still open
                return
            if outcome == "stale":
                self._count(decision, "stale")  # the server says the decision it names is no longer open
                return
            if self._decision is not decision or answer.command in decision.legal:
                self._count(decision, "lost")  # a listed command refused lost a race
                return
            self.stats.illegal += 1  # a meld of its own making that the rules refused
        self._count(decision, "defaults")
        await self._send(decision, safe_default(decision.view))

    def _count(self, decision: _Decision, how: str) -> None:
        """Count the decision once, by how it ended (a ``SeatStats`` field)."""
        decision.settled = True
        setattr(self.stats, how, getattr(self.stats, how) + 1)

    async def _ask(self, decision: _Decision) -> Answer[Command]:
        """The bot's answer (``engine.seats``): its command if legal and in time, else the safe default
        with the fault, counted."""
        view = decision.view
        if self._thinker.busy or (decision.budget is not None and decision.budget < MIN_THINK):
            answer = seats.late(view, safe_default)
        else:
            try:
                answer = await asyncio.wait_for(self._thinker.think(view), decision.budget)
            except TimeoutError:
                answer = seats.late(view, safe_default)
        match answer.fault:
            case Fault.LATE:
                self.stats.slow += 1
            case Fault.ERROR:
                self.stats.errors += 1
            case Fault.ILLEGAL:
                self.stats.illegal += 1
        if answer.fault is not None and answer.fault is not Fault.LATE:
            self.stats.last_error = answer.why
        return answer

    async def _send(self, decision: _Decision, command: Command) -> str:
        """accepted, stale (the decision passed before the answer came: counted as stale), refused (the
        server said no: counted) or failed (it could not be reached)."""
        decision.sending = True
        try:
            for wait in BUSY_RETRIES:  # the server's budget for this client is spent for now: a moment, again
                try:
                    await self.session.send(wire(self.table.game).command_to_pb(command), decision.sequence)
                    return "accepted"
                except ServerError as error:
                    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED or self._decision is not decision:
                        raise
                    await asyncio.sleep(wait * (0.5 + random.random()))
            await self.session.send(wire(self.table.game).command_to_pb(command), decision.sequence)
            return "accepted"
        except ServerError as error:
            self.stats.last_error = error.words
            if error.stale:
                return "stale"  # (counted by the caller, as the decision's end)
            if error.code() in _REFUSED:
                self.stats.refused += 1
                return "refused"
            self.stats.send_errors += 1
            return "failed"
        finally:
            decision.sending = False


def _own_meld(view: View) -> Callable[[Command], bool]:
    """Beyond what the view lists, worth sending (the game's ``Kind.unlisted``: Ten Pennies' melds of the
    bot's own making while the seat may meld; the server judges them)."""
    game = kind_of(view)
    return lambda command: game.unlisted(view, command)


async def play_seat(bot: Bot, session: SeatSession, *, on_event: OnEvent | None = None,
                    stats: SeatStats | None = None, margin: float = MARGIN,
                    backoff: Backoff | None = None) -> pb.GameEnded | None:
    """Play ``session``'s seat with ``bot`` until the game ends; return its end (None: the server ended
    the seat's stream first, the seat was emptied). Reconnects and resumes across drops; ``stats``, when
    given, is kept up to date as it goes; ``on_event`` sees every item of the stream once folded."""
    return await SeatPlayer(bot, session, on_event=on_event, stats=stats, margin=margin, backoff=backoff).run()


# --- loading a bot -------------------------------------------------------------------------------------

class BotLoadError(Exception):
    """A strategy or script that gives no bot."""


def load_script(path: str | Path, seed: int = 0) -> Bot:
    """The bot a Python file defines: ``class Bot`` (made with the seed if its constructor takes an
    argument) with ``choose(self, view)``, or a function ``choose(view)``."""
    path = Path(path)
    if not path.is_file():
        raise BotLoadError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(f"tenpennies_bot_script_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise BotLoadError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise BotLoadError(f"{path} failed to load: {type(error).__name__}: {error}") from error
    made = getattr(module, "Bot", None)
    if isinstance(made, type) and callable(getattr(made, "choose", None)):
        try:
            takes_seed = bool(inspect.signature(made).parameters)
        except (TypeError, ValueError):
            takes_seed = False
        bot: Bot = made(seed) if takes_seed else made()
        return bot
    choose = getattr(module, "choose", None)
    if callable(choose):
        return FunctionBot(choose)
    raise BotLoadError(f"{path} defines neither a class Bot with choose(self, view) nor a function choose(view)")


def load_bot(strategy: str | None = None, script: str | Path | None = None, seed: int = 0) -> Bot:
    """A built-in strategy by name (``STRATEGIES``: each game's ``Kind.bots``; one the default game alone has,
    Ten Pennies', as it is; any other as a ``GameBot`` of the game the seat plays) or a script's bot."""
    if script is not None:
        return load_script(script, seed)
    if strategy is None or strategy not in STRATEGIES:
        raise BotLoadError(f"strategies are {', '.join(STRATEGIES)}, not {strategy!r}")
    if [name for name, game in GAMES.items() if strategy in game.bots] == [DEFAULT_GAME]:
        bot: Bot = kind(DEFAULT_GAME).bots[strategy](seed)
        return bot
    return GameBot(strategy, seed)


# --- tournaments ---------------------------------------------------------------------------------------

class NoTournamentMode(Exception):
    """The server does not know the tournament RPCs (it answered UNIMPLEMENTED)."""

    def __str__(self) -> str:
        return "this server has no tournament mode"


_TRANSIENT = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.DEADLINE_EXCEEDED,
              grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}


async def enter_tournament(connection: Connection, name: str, bot: Bot, *, tournament: str = "",
                          bot_token: str = "", on_seated: Callable[[pb.WaitForSeatResponse], object] | None = None,
                          on_event: Callable[[pb.WaitForSeatResponse, StreamItem, TableView], object] | None = None,
                          margin: float = MARGIN, backoff: Backoff | None = None) -> pb.GetStandingsResponse:
    """Register ``bot`` under ``name`` with the server's tournament mode, play every seat it is given until
    the tournament is over, and return the standings.

    The wire: ``RegisterBot{tournament, name, bot_token}`` gives the bot's token (``bot_token`` takes up a
    name registered before); ``WaitForSeat{bot_token}`` streams each seat the tournament gives the bot
    (first those of its games still being played), and ends when the tournament is over; each seat is
    played with ``play_seat`` (one ``choose`` at a time across seats), and the stream is followed again,
    after a jittered backoff, when the connection drops; ``GetStandings`` at the end. Raises
    NoTournamentMode when the server answers UNIMPLEMENTED, ServerError for any other refusal (NOT_FOUND:
    this server runs no tournament, or not that one)."""
    shared = SerialBot(bot)
    backoff = backoff or Backoff()
    playing: dict[tuple[str, int], asyncio.Task[pb.GameEnded | None]] = {}
    try:
        registered: pb.RegisterBotResponse = await connection.service.RegisterBot(
            pb.RegisterBotRequest(tournament=tournament, name=name, bot_token=bot_token))
        token = registered.bot_token
        while True:
            call = connection.service.WaitForSeat(pb.WaitForSeatRequest(bot_token=token))
            try:
                async for seated in call:
                    backoff.reset()
                    key = (seated.table_id, seated.seat)
                    if key in playing and not playing[key].done():
                        continue  # told again after a reconnect: already being played
                    if on_seated is not None:
                        on_seated(seated)
                    hook: OnEvent | None = None
                    if on_event is not None:
                        def hook(item: StreamItem, table: TableView, _seated: pb.WaitForSeatResponse = seated
                                 ) -> object:
                            assert on_event is not None
                            return on_event(_seated, item, table)
                    session = await connection.given_seat(seated.table_id, seated.seat, seated.token)
                    playing[key] = asyncio.get_running_loop().create_task(
                        play_seat(shared, session, on_event=hook, margin=margin))
                break  # the stream ended: the tournament is over
            except grpc.aio.AioRpcError as error:
                if error.code() not in _TRANSIENT:
                    raise
                await asyncio.sleep(backoff.next())
            finally:
                call.cancel()
        await asyncio.gather(*playing.values(), return_exceptions=True)
        standings: pb.GetStandingsResponse = await connection.service.GetStandings(
            pb.GetStandingsRequest(tournament=tournament))
        return standings
    except grpc.aio.AioRpcError as error:
        if error.code() == grpc.StatusCode.UNIMPLEMENTED:
            raise NoTournamentMode() from None
        raise ServerError.of(error) from None
    finally:
        for task in playing.values():
            task.cancel()
        await asyncio.gather(*playing.values(), return_exceptions=True)


# --- tenpennies bot ---------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``tenpennies bot``."""
    parser.add_argument("--server", type=address, required=True, metavar="HOST:PORT")
    parser.add_argument("--tls-ca", metavar="FILE", help="PEM CA certificate, to reach a TLS server")
    parser.add_argument("--fingerprint", type=fingerprint_argument, metavar="SHA256:...",
                        help="trust a TLS server whose certificate has this fingerprint (the server prints it); "
                             "without it, only servers trusted before with tenpennies play")
    parser.add_argument("--name", type=player_name, help="the bot's name at the table (default: from the strategy)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", metavar="ID", help="join this table and play it to the end")
    where.add_argument("--tournament", metavar="NAME", nargs="?", const="",
                       help="register with the server's tournament mode (NAME: which tournament, if it asks)")
    parser.add_argument("--seat", type=int, metavar="N", help="with --table: the seat to join (default: first free)")
    parser.add_argument("--token", help="with --table and --seat: take up a seat joined before, by its token; "
                                        "with --tournament: the bot's token, to take up its name again")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--strategy", metavar="NAME",
                     help=f"a built-in bot: {', '.join(STRATEGIES)} (" + "; ".join(
                         f"{game_title(name)}: {', '.join(sorted(game.bots))}" for name, game in GAMES.items()) + ")")
    how.add_argument("--script", metavar="FILE.py",
                     help="a Python file defining class Bot (choose(self, view)) or a function choose(view)")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed (random strategies)")
    parser.add_argument("--password", default="", help="with --table: the password of a private table")


def run(args: argparse.Namespace) -> int:
    """``tenpennies bot``: 0 when the game (or tournament) ended, 1 on a server's refusal, 2 on bad flags."""
    if args.token and args.table and args.seat is None:
        print("--token takes up a seat joined before: give its --seat too", file=sys.stderr)
        return 2
    if args.tournament is not None and args.seat is not None:
        print("--seat goes with --table", file=sys.stderr)
        return 2
    try:
        bot = load_bot(args.strategy, args.script, args.seed)
    except BotLoadError as error:
        print(error, file=sys.stderr)
        return 2
    name = args.name or (f"{args.strategy} bot" if args.strategy else Path(args.script).stem)[:40]
    try:
        return asyncio.run(_main(args, bot, name))
    except KeyboardInterrupt:
        return 130


async def _main(args: argparse.Namespace, bot: Bot, name: str) -> int:
    try:
        pinned = None if args.tls_ca else await asyncio.to_thread(settle, args.server, args.fingerprint)
    except TrustError as error:
        print(error, file=sys.stderr)
        return 1
    connection = Connection(args.server, args.tls_ca, pinned=pinned)
    try:
        if args.tournament is not None:
            return await _tournament(connection, name, bot, args.tournament, args.token or "", args.strategy)
        return await _table(connection, name, bot, args.table, args.seat, args.token, args.password, args.strategy)
    except NoTournamentMode as error:
        print(error, file=sys.stderr)
        return 1
    except ServerError as error:
        if certificate_refused(error):  # it changed while the bot played: say what it is now, and the flag
            print(await asyncio.to_thread(changed_advice, args.server), file=sys.stderr)
            return 1
        print(explain(error, args.server) or f"the server said: {error.words}", file=sys.stderr)
        return 1
    finally:
        await connection.close()


async def _table(connection: Connection, name: str, bot: Bot, table_id: str, seat: int | None,
                 token: str | None, password: str = "", strategy: str | None = None) -> int:
    if strategy is not None:  # a built-in strategy the table's game has not is refused before joining
        game = next(((t.game or DEFAULT_GAME) for t in await connection.tables() if t.table_id == table_id), None)
        if game is not None and game in GAMES and strategy not in kind(game).bots:
            print(f"table {table_id} plays {game_title(game)}: {no_bot(game, [strategy])}", file=sys.stderr)
            return 2
    if token:
        assert seat is not None
        session = connection.seat(table_id, seat, token)
        print(f"taking up seat {seat} of table {table_id}", flush=True)
    else:
        session = await connection.join(table_id, name, seat, password)
        print(f"joined table {table_id} as seat {session.seat} (to take it up again: "
              f"--table {table_id} --seat {session.seat} --token {session.token})", flush=True)
    stats = SeatStats()
    ended = await play_seat(bot, session, on_event=_print_round_ends, stats=stats)
    return _finish(ended, stats)


def _finish(ended: pb.GameEnded | None, stats: SeatStats) -> int:
    if ended is None:
        print("the seat was emptied before the game ended", flush=True)
    print(stats.summary(), flush=True)
    return 0


def _print_round_ends(item: StreamItem, table: TableView) -> None:
    """Each round's end and the game's in the narrator's words, and the final standings, as they come."""
    if not isinstance(item, pb.Event) or item.sequence != table.sequence:
        return
    kind = item.WhichOneof("kind")
    if kind in ("round_ended", "game_ended"):
        print(_told(table), flush=True)
    if kind == "game_ended":
        for line in standings_lines(item.game_ended, table):
            print(line, flush=True)


def _told(table: TableView) -> str:
    """The line the table's narrator just told (its view has folded a round's or the game's end, which the
    narrator always tells)."""
    return table.log[-1] if table.log else ""


def standings_lines(end: pb.GameEnded, table: TableView) -> list[str]:
    """A game's end seat by seat, best first, as its game's entry writes the final standings
    (``client.games.standings_lines``), from the table's view of the finished game."""
    entry = client_game(table.game)
    return ["final standings:", *standings_lines_of(entry, table.view, end.scores, end.winners, table.rules,
                                                    table.name, table.seat)]


def standing_line(standing: pb.Standing, game: str, tallies: Sequence[str] = ()) -> str:
    """One bot's line of a tournament's standings (``GetStandings``), its game's columns as the headless
    tournament's table has them (``client.games.standing_columns``): its mean score (place, where the game
    scores by place) and its game's own tallies a game (pennies and buys, lives left, ...), in the order of
    ``tallies`` (the response's), any others after them by name."""
    entry = client_game(game)
    row = StandingRow.of_pb(standing)
    order = [*tallies, *sorted(set(standing.tallies) - set(tallies))]
    own = "  ".join([f"mean {entry.score_word} {mean_text(entry, row, ' '):>15}",
                     *(f"{c.header} {cell(c, row)}" for c in standing_columns(entry, order))])
    return (f"{standing.name:<24} games {standing.games:>4}  wins {standing.shared_wins:>6.2f}  {own}  "
            f"illegal {standing.illegal:>3}  timed out {standing.timed_out:>3}  rating {standing.rating_mu:6.2f} "
            f"± {standing.rating_sigma:.2f}")


async def tournament_game(connection: Connection, tournament: str = "") -> str | None:
    """The game a server's tournament plays (``GetStandings``' ``game``; an older server's that names none:
    Ten Pennies), or None when the server does not say (no tournament, not that one, out of reach: registering
    then tells why)."""
    try:
        standings: pb.GetStandingsResponse = await connection.service.GetStandings(
            pb.GetStandingsRequest(tournament=tournament))
    except grpc.aio.AioRpcError:
        return None
    return standings.game or DEFAULT_GAME


async def _tournament(connection: Connection, name: str, bot: Bot, tournament: str, token: str,
                      strategy: str | None = None) -> int:
    if strategy is not None:  # a built-in strategy the tournament's game has not is refused before registering
        game = await tournament_game(connection, tournament)
        if game is not None and game in GAMES and strategy not in kind(game).bots:
            print(f"this tournament plays {game_title(game)}: {no_bot(game, [strategy])}", file=sys.stderr)
            return 2

    def seated(seat: pb.WaitForSeatResponse) -> None:
        print(f"game {seat.game}: seated at table {seat.table_id}, seat {seat.seat}", flush=True)

    def events(seat: pb.WaitForSeatResponse, item: StreamItem, table: TableView) -> None:
        if isinstance(item, pb.Event) and item.WhichOneof("kind") == "game_ended" and item.sequence == table.sequence:
            end = item.game_ended
            scores = ", ".join(f"{table.name(s)} {end.scores[s]}" for s in range(len(end.scores)))
            print(f"game {seat.game}: {_told(table)} ({client_game(table.game).score_word}s {scores})", flush=True)

    report = await enter_tournament(connection, name, bot, tournament=tournament, bot_token=token,
                                   on_seated=seated, on_event=events)
    print(f"tournament {report.tournament}: {report.games_played} of {report.games_total} games played", flush=True)
    for place, standing in enumerate(report.standings, 1):
        mark = "  (this bot)" if standing.name == name else ""
        print(f"  {place:>3}. {standing_line(standing, report.game, report.tallies)}{mark}", flush=True)
    return 0
