"""What the lobby, the table screen and its dialogs use: the reconnect backoff, a table's filled seats, a
sentence, a count of pennies, and their quick frames (``QuickFrames``, ``LiveScreen``)."""

from __future__ import annotations

from typing import TypeVar

from textual import events, on
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.v1 import tenpennies_pb2 as pb

RETRY_FIRST, RETRY_MOST = 0.5, 2.0  # the reconnect backoff: jittered, so at most 3 s apart
WIDE = 110  # columns from which the table's log sits beside the seats (and its dialogs keep to their side)
FRAME_RATE = 1000  # the ticks a second of a live screen's frame timer (Textual's own is 60; ``LiveScreen``)


R = TypeVar("R")


class QuickFrames(Screen[R]):
    """A screen whose frames are composed on a timer of ``FRAME_RATE`` ticks a second rather than Textual's
    60: a screen that follows a stream (``LiveScreen``), and a dialog over the table (a round's end pushed
    just after a frame waited most of a frame for its first).

    A screen with something to draw waits for its frame timer's next tick (``_update_timer``, a private of
    Textual's, pinned in pyproject), and under a steady stream of changes the ticks come on its grid: at 60
    a change drawn just after a frame waited 8 ms on average for the next one, at 240 2 ms (a quarter of the
    median event to screen at full speed, once a table's frames took 2-4 ms), and a lobby whose list came
    just after a frame showed it up to 16 ms late. An idle screen draws at once whatever the rate; a busy one
    draws no more often than it is changed, and a paused timer does not tick. (Textual's ``TEXTUAL_FPS``
    sets it for every screen, but only if set before textual is imported.)"""

    _frames: Timer | None = None

    @property
    def _update_timer(self) -> Timer:
        if self._frames is None:
            self._frames = self.set_interval(1 / FRAME_RATE, self._frame, name="screen_update", pause=True)
        return self._frames

    def _frame(self) -> None:
        """Compose a frame: Textual's own update."""
        self._on_timer_update()

    def _screen_resized(self, size: Size) -> None:
        """Lay the screen out at ``size`` (Textual's, a private, pinned in pyproject), unless it was laid out
        at that size already. A screen's first layout sends the screen a Resize to the size it was just laid
        out at, and Textual's handler laid the whole screen out and drew it again for nothing: a few ms of a
        local game's start, after its first frame. (Skipped here rather than by ``prevent_default`` on the
        Resize: the app sends one Resize to every screen on the stack, and a handled one would be handled for
        the screens under a dialog too.)"""
        if size != self.outer_size:
            super()._screen_resized(size)


class LiveScreen(QuickFrames[None]):
    """A screen that follows a stream: the lobby's tables, a table's game. The first time it shows, its
    widgets are not styled again (``on_screen_resume``). (Not so for a dialog: a modal screen's own styles,
    the see-through background among them, are worked out as it is pushed.)"""

    _has_shown = False  # the screen has shown once

    @on(events.ScreenResume)
    def _first_show(self, event: events.ScreenResume) -> None:
        """The first time the screen shows, its widgets' styles are not worked out again: they were as it
        mounted, a moment before. (Textual works them out again whenever a screen is pushed, in its own
        handler, which runs after this one: every region then drew a second whole frame.) A subclass's own
        ``on_screen_resume`` runs before this one, as Textual calls each class's handlers in turn."""
        if not self._has_shown:
            self._has_shown = True
            event.refresh_styles = False


def pennies(n: int) -> str:
    """``1 penny``, ``2 pennies``."""
    return f"{n} penn{'y' if n == 1 else 'ies'}"


def count(n: int, thing: str) -> str:
    """``1 card``, ``2 cards``: ``thing`` one, with an s for any other number."""
    return f"{n} {thing}{'' if n == 1 else 's'}"


def sentence(text: str) -> str:
    """``text`` ending as a sentence does, so that another may follow it."""
    return text if text.endswith((".", "?", "!")) else text + "."


def filled(info: pb.TableInfo) -> int:
    return sum(1 for s in info.seat_info if s.kind in (pb.SEAT_KIND_PLAYER, pb.SEAT_KIND_BOT))


def default_bot(game: str) -> str:
    """The bot a host adds with ``b``: the game's own default (the one that takes over a gone player)."""
    return kind(game or DEFAULT_GAME).takeover
