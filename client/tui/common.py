"""What the lobby, the table screen and its dialogs use: the reconnect backoff, a table's filled seats, a
sentence, a count, and their screens' first frames (``OneLayout``, ``LiveScreen``)."""

from __future__ import annotations

from typing import TypeVar

from textual import events, on
from textual.screen import Screen

from tenpennies.engine.games import DEFAULT_GAME, kind
from tenpennies.v2 import tenpennies_pb2 as pb

RETRY_FIRST, RETRY_MOST = 0.5, 2.0  # the reconnect backoff: jittered, so at most 3 s apart
WIDE = 110  # columns from which the table's log sits beside the seats (and its dialogs keep to their side)


R = TypeVar("R")


class OneLayout(Screen[R]):
    """A screen laid out once for its first frame, not twice: a screen's first layout sends the screen a
    Resize to the size it was just laid out at, and Textual's handler of it laid the whole screen out and
    drew it again for nothing (a few ms of a local game's start, after its first frame). That Resize is
    handled here, on the screen on top only (``is_active``: the App sends one Resize to every screen it
    shows, and a handled one would be handled for the screens under it too), by ``prevent_default``: a Resize
    to any other size is laid out as ever. A dialog over the table is one (a round's end, its first frame
    the one the player waits for), and so is a screen that follows a stream (``LiveScreen``)."""

    @on(events.Resize)
    def _laid_out_already(self, event: events.Resize) -> None:
        if self.is_active and event.size == self.outer_size:
            event.prevent_default()


class LiveScreen(OneLayout[None]):
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
