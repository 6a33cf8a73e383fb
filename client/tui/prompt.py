"""The two lines under the hand: the prompt (what the table waits for, or why it cannot go on) and the
message line (what the last key or command came to; an error in bold). Each redraws only on a change."""

from __future__ import annotations

from rich.text import Text

from .line import Line


class Prompt(Line):
    """What the table waits for now (and the clock of this seat's decision)."""


class MessageLine(Line):
    """What the last key or command came to; ``error`` draws it as an error."""

    def say(self, text: str | Text, error: bool = False) -> None:
        self.set_class(error, "error")
        self.show(text if isinstance(text, Text) else Text(text))  # plain: "[t]" is a key, not markup
