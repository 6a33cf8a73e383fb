"""The client's footer (the table, the lobby, the splash, ...): Textual's, rebuilt only when its keys change.

Textual's footer queues a rebuild of itself (a widget a key, some ms) for each signal that bindings may have
changed; a screen mounting sends three or four (its focus, the screen stack, its first keys), and each
rebuild drew the same keys again, one after the other, before the table was usable. Here a queued rebuild
that would draw the keys already drawn is skipped.

Each key Textual's footer makes starts as compact and is then told the footer's own setting: two changes of
its classes as it mounts, each a pass of the style sheet over it (about half the footer's cost, and the
footer was a seventh of a local game's start). Here each key is made with the footer's setting already, as
it ends up: nothing changes as it mounts."""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeysFooter(Footer):
    """A ``Footer`` that does not rebuild itself to draw the same keys again."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._drawn: Hashable = None  # what the last rebuild drew (None: not built yet)

    def shown(self) -> Hashable:
        """What the footer would draw now: its settings and each key it would show."""
        keys = tuple((key, b.binding.action, b.binding.description, b.binding.key_display, b.enabled,
                      b.binding.show, b.tooltip) for key, b in self.screen.active_bindings.items())
        return (self._bindings_ready, self.compact, self.show_command_palette, self.combine_groups, keys)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_reactive(FooterKey.compact, self.compact)  # set before mounting: no watcher runs
                widget.set_class(self.compact, "-compact", update=False)  # (what that watcher would do)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        """As Textual's, but the rebuild is queued at once, not after the next frame: the keys come in the
        frame that shows what they act on (a table's first frame among them, rather than a frame later,
        with a layout of their own)."""
        self._bindings_ready = True
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self.call_next(self.recompose)

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        now = self.shown()
        if now == self._drawn:
            return
        self._drawn = now
        await super().recompose()
