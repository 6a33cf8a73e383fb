"""A game's rule settings ("knobs"), each declared once as a field of the game's rules dataclass.

``knob(...)`` declares one: its default (whose type is the knob's), the rule it changes, a label and a
line of help, the values it takes. ``declared(Rules)`` lists the declarations; validation, ``--rule
NAME=VALUE``, the plain dict, the wire and the create form all come from them. Ten Pennies (TP-6) and
Thirty-One (T31) both declare their rules so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from .errors import RuleError

KnobValue = bool | int | str | tuple[int, ...]
V = TypeVar("V", bool, int, str, tuple[int, ...])
ON_WORDS = ("on", "true", "yes")
OFF_WORDS = ("off", "false", "no")


def either(words: Iterable[str]) -> str:
    *rest, last = words
    return f"{', '.join(rest)} or {last}" if rest else last


@dataclass(frozen=True, slots=True)
class Knob:
    """One house rule of TP-6 as declared on ``HouseRules``. Its type is its default's: ``bool`` (on or
    off), ``int`` (a whole number from ``low`` to ``high``), ``str`` (one of ``choices``' words) or
    ``tuple`` (rounds: numbers from ``low`` to ``high`` in rising order)."""

    name: str
    default: KnobValue
    rule: str                                  # the rule it changes (TP-x.y of docs/RULES.md)
    label: str                                 # a short title, as a form shows it
    help: str                                  # one line: what it does
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (word, what it means), for a knob that is one of some words
    refused: str = ""                          # the rule a value it does not take is refused under ("": ``rule``)
    applies: Callable[[Any], bool] | None = None  # the rules it changes the game under (None: any); see ``applies_to``

    @property
    def kind(self) -> type:
        return type(self.default)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(word for word, _ in self.choices)

    @property
    def takes(self) -> str:
        """The values the knob takes, in words: ``on or off``, ``a whole number from 0 to 100``, ..."""
        if self.kind is bool:
            return "on or off"
        if self.kind is str:
            return either(self.words)
        if self.kind is tuple:
            return f"round numbers {self.low} to {self.high} in rising order, separated by commas"
        if self.high is None:
            return f"a whole number of at least {self.low}"
        return f"a whole number from {self.low} to {self.high}"

    def applies_to(self, rules: object) -> bool:
        """Whether the knob changes the game under ``rules`` (its game's rules: a knob of one preset's means
        nothing under another, as Thirty-One's ``tokens`` outside ``banking``)."""
        return self.applies is None or self.applies(rules)

    def word(self, value: KnobValue) -> str:
        """A value as ``--rule`` writes it: ``on``, ``11``, ``deuces``, ``1,2,3``."""
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, tuple):
            return ",".join(str(r) for r in value)
        return str(value)

    def _refuse(self, value: object) -> RuleError:
        return RuleError(self.refused or self.rule, f"{self.name} takes {self.takes}, not {value!r}")

    def parse(self, text: str) -> KnobValue:
        """The value ``text`` writes (``on``, ``9``, ``deuces``, ``1,2``), as ``check`` then judges it;
        RuleError (``refused``) naming the knob and what it takes if ``text`` is not of its type at all."""
        text = text.strip()
        if self.kind is bool:
            if text.lower() in ON_WORDS + OFF_WORDS:
                return text.lower() in ON_WORDS
            raise self._refuse(text)
        if self.kind is str:
            return text
        parts = [p for p in text.replace(" ", ",").split(",") if p] if self.kind is tuple else [text]
        if not parts or not all(re.fullmatch(r"-?[0-9]{1,9}", p) for p in parts):
            raise self._refuse(text)
        return tuple(int(p) for p in parts) if self.kind is tuple else int(parts[0])

    def check(self, value: object) -> None:
        """RuleError (``refused``) naming the knob and what it takes unless ``value`` is one it takes."""
        if self.kind is bool:
            fits = isinstance(value, bool)
        elif self.kind is str:
            fits = isinstance(value, str) and value in self.words
        elif self.kind is tuple:
            fits = isinstance(value, tuple) and bool(value) and all(self._whole(r) for r in value) \
                and all(a < b for a, b in zip(value, value[1:], strict=False))
        else:
            fits = self._whole(value)
        if not fits:
            raise self._refuse(value)

    def _whole(self, value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) \
            and (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def knob(default: V, rule: str, label: str, help: str, *, low: int | None = None, high: int | None = None,
         choices: tuple[tuple[str, str], ...] = (), refused: str = "",
         applies: Callable[[Any], bool] | None = None) -> V:
    """Declare a rule setting: a dataclass field whose metadata is its ``Knob`` (named after the field by
    ``declared``); ``refused``: the rule a value it does not take is refused under (default: ``rule``);
    ``applies``: whether it changes the game under given rules, from what they play (default: always)."""
    return field(default=default, metadata={"knob": Knob("", default, rule, label, help, low, high, choices, refused,
                                                         applies)})


def declared(rules: type) -> tuple[Knob, ...]:
    """The knobs a rules dataclass declares (its fields made by ``knob``), in field order, each named."""
    return tuple(replace(f.metadata["knob"], name=f.name) for f in fields(rules) if "knob" in f.metadata)


def settings(texts: Iterable[str], named: Callable[[str], Knob]) -> dict[str, Any]:
    """The values ``NAME=VALUE`` texts give their knobs, as a command line writes them: ``preset=deuces``,
    ``discard-to-go-out=on``, ``rounds=1,2`` (``-`` may stand for ``_`` in a name), each judged by its knob
    (``parse``, ``check``); ``named`` finds a knob by name, with the game's RuleError for a name it has none
    of. What the values make together (a preset's knobs beside it) is the game's rules' to judge."""
    values: dict[str, Any] = {}  # Any: each knob's own type, for the rules' fields
    for setting in texts:
        name, _, text = setting.partition("=")
        declared = named(name.strip().replace("-", "_"))
        value = declared.parse(text)
        declared.check(value)
        values[declared.name] = value
    return values
