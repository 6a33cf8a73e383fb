"""The client's footer (the table, the lobby, the splash, ...): the keys of the screen's bindings on one line,
as Textual's ``Footer`` draws them, but one widget rather than a widget a key.

Textual's footer rebuilds itself whenever the bindings may have changed: each key a widget, all unmounted
and made again (5-8 ms for a table's thirteen keys, then a layout of their own). A table's keys change
with every decision a seated player is asked for, and once more as the table first shows (its keys are
first built as it mounts, before anything is focused or drawn): that rebuild and its layout were an eighth
of a local game's start. Here the keys are a line of text, drawn again (no layout: the footer is one line
docked at the bottom) only when what it would show changes.

It draws what Textual's footer draws, cell for cell (the snapshot pictures compare them): each key as
`` key description `` in the footer's component styles, a key its binding disables dimmed, the key under
the pointer on the hover background; a click presses the key (a disabled one rings the bell); ``compact``
as Textual's. Not kept: scrolling a line of keys wider than the terminal (cut at its edge instead, as
Textual's shows it until scrolled), binding groups and the command palette's key (the client has neither).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from .line import row_cells


@dataclass(frozen=True)
class Key:
    """One key as the footer shows it."""

    key: str          # what pressing it sends (``App.simulate_key``)
    display: str      # how it is written (``App.get_key_display``)
    description: str
    enabled: bool     # a binding its screen disables is shown dimmed
    tooltip: str = ""


class KeysFooter(Widget, can_focus=False):
    """The screen's keys, one line, drawn again only when they change."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--item", "footer-key--hover"}
    # Textual's Footer and FooterKey, their rules for one line of text: the key and its description, the
    # key's own ground (FooterKey's background, and its colour under the pointer), and the compact spacing
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        text-wrap: nowrap;
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--item {
            background: $footer-item-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__()
        self.compact = compact
        self.hovered: int | None = None   # the key under the pointer
        self._keys: tuple[Key, ...] = ()
        self._stale = True                # the bindings may have changed since the keys were read
        self._spans: list[tuple[int, int]] = []  # each key's cells on the line: [start, end)
        self._drawn: Hashable = None      # the bindings the keys were read from (None: none yet)
        self._line: Strip | None = None   # the line as drawn, at ``_line_width``
        self._line_width = -1

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """The screen's bindings may have changed (a screen says so several times as it shows, and at every
        focus): they are read again once the messages at hand are handled, and the line drawn again only if
        the keys changed (a refresh for nothing holds up the screen's next idle moment for a frame)."""
        if screen is self.screen and not self._stale:
            self._stale = True
            self.call_later(self._fresh)

    @property
    def keys(self) -> tuple[Key, ...]:
        """The keys shown, as the screen's bindings have them now."""
        self._fresh()
        return self._keys

    def _fresh(self) -> None:
        """The keys read again from the screen's bindings if they may have changed; drawn again if they did."""
        if not self._stale or not self.is_attached:
            return
        self._stale = False
        bindings = self.screen.active_bindings
        # compared as the bindings say it, before the keys are made (making them asks the app how to write
        # each key, several times the comparison's cost, at every focus and decision)
        now = (self.compact, tuple((key, b.binding.action, b.binding.description, b.binding.key_display, b.enabled,
                                    b.binding.show, b.tooltip) for key, b in bindings.items()))
        if now == self._drawn:
            return
        self._drawn = now
        seen: set[str] = set()
        keys = []
        for _, binding, enabled, tooltip in bindings.values():
            if binding.show and binding.action not in seen:  # (Textual's shows one key an action, the first)
                seen.add(binding.action)
                keys.append(Key(binding.key, self.app.get_key_display(binding), binding.description, enabled,
                                tooltip))
        self._keys = tuple(keys)
        self.hovered = None
        self._line = None
        self.refresh()

    # --- drawing ---

    def _key_text(self, key: Key, hovered: bool) -> Text:
        """One key as Textual's FooterKey renders it: the key in bold between its padding, the description
        after it, over the key's ground (dimmed when disabled)."""
        key_style = self.get_component_rich_style("footer-key--key", partial=True)
        description_style = self.get_component_rich_style("footer-key--description", partial=True)
        ground = self.get_component_rich_style("footer-key--hover" if hovered else "footer-key--item", partial=True)
        if not key.enabled:
            ground += Style(dim=True)
        if key.description:
            key_cells = key.display if self.compact else f" {key.display} "
            description_cells = f" {key.description}" if self.compact else f"{key.description} "
            text = Text.assemble((key_cells, key_style), (description_cells, description_style))
        else:
            text = Text.assemble((key.display, key_style))
        text.stylize_before(ground)
        return text

    def line(self) -> Text:
        """Every key on one line (Textual's compact footer leaves a cell after each), and where each is."""
        line = Text(no_wrap=True, overflow="crop")
        self._spans = []
        for index, key in enumerate(self._keys):
            start = line.cell_len
            line.append_text(self._key_text(key, index == self.hovered))
            self._spans.append((start, line.cell_len))
            if self.compact:
                line.append(" ")
        return line

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        self._fresh()
        if self._line is None or self._line_width != width:
            line = self.line()
            line.truncate(width, overflow="crop")
            self._line = row_cells(self, line, width) or Strip.blank(width, self.visual_style.rich_style)
            self._line_width = width
        return self._line if y == 0 else Strip.blank(width, self.visual_style.rich_style)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._line = None

    # --- the pointer ---

    def key_at(self, x: int) -> int | None:
        return next((index for index, (start, end) in enumerate(self._spans) if start <= x < end), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hovered = self.key_at(event.x)
        if hovered != self.hovered:
            self.hovered = hovered
            self.tooltip = self._keys[hovered].tooltip or None if hovered is not None else None
            self._line = None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.hovered is not None:
            self.hovered = None
            self._line = None
            self.refresh()

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self.key_at(event.x)
        if index is None:
            return
        key = self._keys[index]
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()
