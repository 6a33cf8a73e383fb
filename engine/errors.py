"""The one error of every game's rules."""

from __future__ import annotations


class RuleError(Exception):
    """A command or setting that breaks a numbered rule of its game. ``str(err)`` starts with the rule
    (``TP-4.11: ...``); a refused command leaves the game exactly as it was."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
