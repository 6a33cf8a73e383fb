"""The one seat loop: how a bot's answer to its seat's decision is asked for, checked and counted, and how
a decision of several seats at once (a buy offer) is settled, wherever the seat is played.

* ``ask(bot, view, default)``: the bot's command if it is a legal command of its own seat, else
  ``default(view)`` (the game's safe default, what a timer would play) with the ``Fault`` that made it
  (the bot raised, or answered something illegal). It never raises. ``late(view, default)`` is the
  answer for a bot that did not answer in time. ``Tally`` counts the answers for the standings: a
  raise or an illegal answer counts as *illegal*, a late one as a *timeout*.
* ``play_decision(game, decide)``: one decision of an in-process game. **Buy offers**: every seat the
  game waits for is asked at once, from the view it has when the decision opens (a seat's view does not
  show the others' answers, TP-4.7), and the answers are applied in the game's order (nearest seat
  first) until the decision is settled; the rest are answers to an offer that is gone and are dropped.
  This is what a server does, whose seats all answer at once; so a bot is asked the same questions
  in-process and over gRPC.

Used by ``play.play_game`` (strict: a bot's mistake is an error there), the headless
tournament in-process, the SDK's ``SeatPlayer`` (and with it the headless tournament over gRPC and
``tenpennies bot``), and the server's takeover bots. Game-agnostic: a view has ``seat`` and ``legal``,
a command has ``seat``. No clock and no threads here: a driver that times its bot says ``late``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, Protocol, TypeVar

C = TypeVar("C")
E = TypeVar("E")
V = TypeVar("V", bound="View")
V_contra = TypeVar("V_contra", contravariant=True)
C_co = TypeVar("C_co", covariant=True)
V_co = TypeVar("V_co", bound="View", covariant=True)
C_contra = TypeVar("C_contra", contravariant=True)


class View(Protocol):
    """What the seat loop reads of a seat's view."""

    @property
    def seat(self) -> int | None: ...

    @property
    def legal(self) -> Sequence[Any]: ...


class Player(Protocol[V_contra, C_co]):
    """A bot: its command for a seat's decision, from the seat's view."""

    def choose(self, view: V_contra) -> C_co: ...


class Table(Protocol[V_co, C_contra, E]):
    """What ``play_decision`` needs of an in-process game."""

    def to_act(self) -> tuple[int, ...]: ...

    def view(self, seat: int | None) -> V_co: ...

    def apply(self, command: C_contra, *, trusted: bool = False) -> list[E]: ...


class Fault(Enum):
    """Why the bot's own answer was not played."""

    ERROR = "error"      # choose() raised
    ILLEGAL = "illegal"  # it answered something that is not a legal command of its seat
    LATE = "late"        # it did not answer in time


@dataclass(frozen=True)
class Answer(Generic[C]):
    """What to play for a seat's decision: the bot's command, or the default with the fault and its words."""

    command: C
    fault: Fault | None = None
    why: str = ""


def is_own_legal(view: View, command: object, accepts: Callable[[Any], bool] | None = None) -> bool:
    """A command of the view's seat that the view lists, or that ``accepts`` (the rules' own judge, for
    commands a view lists only some of: meld candidates are bounded) takes."""
    if getattr(command, "seat", None) != view.seat or view.seat is None:
        return False
    try:
        if command in view.legal:
            return True
    except TypeError:  # something not comparable with a command is not one
        return False
    return accepts is not None and accepts(command)


def ask(bot: Player[V, Any], view: V, default: Callable[[V], C],
        accepts: Callable[[Any], bool] | None = None) -> Answer[C]:
    """The bot's answer to its seat's decision, checked; never raises."""
    try:
        command = bot.choose(view)
    except Exception as error:
        return Answer(default(view), Fault.ERROR, f"{type(error).__name__}: {error}")
    if is_own_legal(view, command, accepts):
        return Answer(command)
    return Answer(default(view), Fault.ILLEGAL, f"not a legal command here: {command!r}")


def late(view: V, default: Callable[[V], C]) -> Answer[C]:
    """The answer for a bot that did not answer in time: the default."""
    return Answer(default(view), Fault.LATE, "no answer in time")


@dataclass
class Tally:
    """One seat's answers, counted as the standings count them."""

    decisions: int = 0
    illegal: int = 0   # raised, or answered something illegal
    timeouts: int = 0  # did not answer in time

    def count(self, answer: Answer[Any]) -> None:
        self.decisions += 1
        if answer.fault is Fault.LATE:
            self.timeouts += 1
        elif answer.fault is not None:
            self.illegal += 1


def play_decision(game: Table[V, C, E], decide: Callable[[int, V], C], *, trusted: bool = False,
                  applied: Callable[[list[E]], object] | None = None) -> list[E]:
    """Play one decision of ``game``: every seat it waits for is asked at once (``decide(seat, view)``),
    then the answers are applied nearest seat first while the game still waits for their seats and for
    nothing else (see the module: buy offers). ``trusted``: the answers were checked already (``ask``).
    ``applied`` sees each command's events as it is applied. The events of the commands applied."""
    acting = game.to_act()
    if len(acting) == 1:  # most decisions: one seat, nothing to settle
        seat = acting[0]
        alone = game.apply(decide(seat, game.view(seat)), trusted=trusted)
        if applied is not None:
            applied(alone)
        return alone
    answers = [decide(seat, game.view(seat)) for seat in acting]
    events: list[E] = []
    offered = set(acting)
    for seat, command in zip(acting, answers, strict=True):
        waiting = game.to_act()
        if seat not in waiting or not offered.issuperset(waiting):
            break  # settled: the rest answer a decision that is gone
        applied_now = game.apply(command, trusted=trusted)
        if applied is not None:
            applied(applied_now)
        events += applied_now
    return events
