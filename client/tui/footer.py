"""The table screen's footer: Textual's, rebuilt only when the keys it shows change.

Textual's footer queues a rebuild of itself (a widget a key, some ms) for each signal that bindings may have
changed; a screen mounting sends three or four (its focus, the screen stack, its first keys), and each
rebuild drew the same keys again, one after the other, before the table was usable. Here a queued rebuild
that would draw the keys already drawn is skipped."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer


class KeysFooter(Footer):
    """A ``Footer`` that does not rebuild itself to draw the same keys again."""

    def __init__(self) -> None:
        super().__init__()
        self._drawn: Hashable = None  # what the last rebuild drew (None: not built yet)

    def shown(self) -> Hashable:
        """What the footer would draw now: its settings and each key it would show."""
        keys = tuple((key, b.binding.action, b.binding.description, b.binding.key_display, b.enabled,
                      b.binding.show, b.tooltip) for key, b in self.screen.active_bindings.items())
        return (self._bindings_ready, self.compact, self.show_command_palette, self.combine_groups, keys)

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        now = self.shown()
        if now == self._drawn:
            return
        self._drawn = now
        await super().recompose()
