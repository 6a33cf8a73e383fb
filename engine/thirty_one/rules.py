"""Thirty-One's presets and knobs (docs/THIRTY-ONE.md), each declared once, and the rule error (T31-x.y).

``Rules`` holds the preset and every knob; a preset fills the knobs it sets (``PRESETS``), and a knob
given beside it overrides that: make rules with ``Rules.of(preset, **knobs)``, ``from_dict`` or
``from_settings`` (a bare ``Rules(preset=...)`` keeps the classic knobs). ``KNOBS`` lists the
declarations (``engine.knobs``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import knobs
from ..interface import RuleError as RuleError  # every game's error; Thirty-One's rules are T31-x.y
from ..knobs import Knob, either

BOOK = "T31"
"""The rule a setting that is no knob at all is refused under (the rule book's preamble: presets and knobs)."""

PRESET_NAMES = ("classic", "cut_throat", "no_elimination", "banking", "switch", "stop_the_bus")


@dataclass(frozen=True, slots=True)
class Rules:
    """The preset and every knob. The defaults are ``classic``'s; a field is the one declaration of its knob."""

    preset: str = knobs.knob(
        "classic", BOOK, "Preset", "which variant of Thirty-One (it sets the other knobs' defaults)",
        choices=(("classic", "lives and the free ride"), ("cut_throat", "West Lansing Cut Throat"),
                 ("no_elimination", "points, nobody out"), ("banking", "tokens and a widow"),
                 ("switch", "middle hands"), ("stop_the_bus", "brag hands, table cards")))
    # ``applies``: what a preset must play for the knob to change its game (from the properties below, that say
    # what each preset plays); a knob set under any other preset is refused (``refuse_unplayed``).
    three_of_a_kind: str = knobs.knob(
        "30.5", "T31-3.2", "Three of a kind", "what three cards of one rank are worth",
        choices=(("30.5", "30 and a half"), ("off", "counted by suit like any hand")),
        applies=lambda rules: not rules.brag)  # T31-3.4: brag hands have no value
    discard_taken: bool = knobs.knob(
        False, "T31-4.2", "Discard the card taken", "a card taken from the discard pile may be discarded in the "
        "same turn", applies=lambda rules: rules.draws)
    first_turn_knock: bool = knobs.knob(
        True, "T31-4.3", "Knock on the first turn", "knocking is allowed in the deal's first round of turns")
    blitz_after_knock: bool = knobs.knob(
        False, "T31-5.2", "Blitz after a knock", "a seat reaching 31 after a knock ends the deal at once",
        applies=lambda rules: rules.blitz)
    knocker_tie: str = knobs.knob(
        "one", "T31-6.3", "Knocker tying for lowest", "lives a knocker loses who ties for the lowest hand",
        choices=(("one", "one life"), ("two", "two lives")), applies=lambda rules: rules.scoring == "lives")
    lives: int = knobs.knob(4, "T31-7.1", "Lives", "lives each seat starts with", low=1, high=99,
                            applies=lambda rules: rules.scoring == "lives")
    free_ride: bool = knobs.knob(True, "T31-7.2", "Free ride", "a seat with no lives left plays on until its next "
                                 "loss", applies=lambda rules: rules.scoring == "lives")
    tokens: int = knobs.knob(20, "T31-7.4", "Tokens", "tokens each seat starts with (banking)", low=1, high=10_000,
                             applies=lambda rules: rules.scoring == "tokens")
    deals: int = knobs.knob(0, "T31-8.1", "Deals", "deals in a game of banking or no_elimination (0: twice the "
                            "number of seats)", low=0, high=1000, applies=lambda rules: rules.scoring != "lives")

    @classmethod
    def of(cls, preset: str = "classic", **settings: Any) -> Rules:
        """The preset's rules, with ``settings`` (knob name -> value) overriding its knobs."""
        if preset not in PRESETS:
            raise RuleError(BOOK, f"no preset {preset!r} (the presets: {', '.join(PRESET_NAMES)})")
        for name in settings:
            knob_named(name)
        return cls(**{"preset": preset, **PRESETS[preset], **settings})

    def validate(self, seats: int) -> None:
        """RuleError for a table the rule book does not allow."""
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in SEATS:
            raise RuleError("T31-1.1", f"a game of Thirty-One has {SEATS[0]} to {SEATS[-1]} seats, not {seats}")
        for declared in KNOBS:
            declared.check(getattr(self, declared.name))

    def applies(self, name: str) -> bool:
        """Whether knob ``name`` changes the game under this preset (its declaration's ``applies``)."""
        return knob_named(name).applies_to(self)

    def deals_for(self, seats: int) -> int:
        """T31-7.4, T31-8.1: how many deals a game of banking or no_elimination lasts."""
        return self.deals or 2 * seats

    # --- what the preset plays -------------------------------------------------------------------

    @property
    def scoring(self) -> str:
        """How a deal is settled: ``lives`` (T31-6.2, T31-7), ``tokens`` (banking) or ``points`` (T31-8)."""
        return {"banking": "tokens", "no_elimination": "points"}.get(self.preset, "lives")

    @property
    def brag(self) -> bool:
        """T31-3.4: hands rank by three-card brag (stop_the_bus), not by value."""
        return self.preset == "stop_the_bus"

    @property
    def draws(self) -> bool:
        """T31-4.1: a turn draws from the stock or the discard pile (not in switch or stop_the_bus)."""
        return self.preset not in ("switch", "stop_the_bus")

    @property
    def blitz(self) -> bool:
        """T31-5.3: stop_the_bus has no blitz."""
        return self.preset != "stop_the_bus"

    # --- plain data ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {k.name: getattr(self, k.name) for k in KNOBS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """From plain data: the preset's knobs, then the knobs given (an unknown one is refused, T31);
        values are judged by ``validate``."""
        settings = dict(data)
        return cls.of(settings.pop("preset", "classic"), **settings)

    @classmethod
    def from_settings(cls, settings: Iterable[str]) -> Rules:
        """From ``NAME=VALUE`` texts, as ``--rule`` writes them (``knobs.settings``): the preset's
        knobs, then the others; RuleError naming the knob and what it takes for a bad one, or the presets it
        applies to for one the preset has no use for (``refuse_unplayed``)."""
        values = knobs.settings(settings, knob_named)
        rules = cls.from_dict(values)
        refuse_unplayed(rules, values)
        return rules


KNOBS: tuple[Knob, ...] = knobs.declared(Rules)
SEATS = range(2, 8)
"""The seats a table may have (T31-1.1)."""
_BY_NAME = {k.name: k for k in KNOBS}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "cut_throat": {"knocker_tie": "two", "lives": 3, "free_ride": False},
    "no_elimination": {"three_of_a_kind": "off", "blitz_after_knock": True},
    "banking": {"deals": 20},
    "switch": {},
    "stop_the_bus": {"lives": 3},
}
"""What each preset sets beyond the classic defaults (the rule book's presets, rule by rule)."""

assert tuple(PRESETS) == PRESET_NAMES == _BY_NAME["preset"].words

PLAYED_BY: dict[str, tuple[str, ...]] = {
    k.name: tuple(p for p in PRESET_NAMES if k.applies_to(Rules.of(p))) for k in KNOBS}
"""The presets under which each knob changes the game (from its declaration's ``applies``): ``tokens``
``banking``'s alone, ``lives`` those that keep lives, ``first_turn_knock`` every one."""


def preset_only(name: str) -> str:
    """What a knob set under a preset it does not apply to is told: ``applies to the banking preset only``."""
    presets = PLAYED_BY[knob_named(name).name]
    if len(presets) == 1:
        return f"applies to the {presets[0]} preset only"
    return f"applies to the {', '.join(presets[:-1])} and {presets[-1]} presets only"


def unplayed(rules: Rules, names: Iterable[str]) -> list[str]:
    """Those of the knobs ``names`` that ``rules``' preset has no use for (``Rules.applies``), in order."""
    return [name for name in names if not rules.applies(name)]


def refuse_unplayed(rules: Rules, names: Iterable[str]) -> None:
    """RuleError (the knob's rule) for the first of the knobs ``names`` (the ones a player set) that ``rules``'
    preset has no use for: ``T31-7.4: tokens applies to the banking preset only (the preset is classic)``."""
    for name in unplayed(rules, names):
        raise RuleError(knob_named(name).rule, f"{name} {preset_only(name)} (the preset is {rules.preset})")


def knob_named(name: str) -> Knob:
    """The declaration of knob ``name``; RuleError (T31) naming the knobs if there is none."""
    if name not in _BY_NAME:
        raise RuleError(BOOK, f"no such rule setting in Thirty-One: {name} (the settings: {', '.join(_BY_NAME)})")
    return _BY_NAME[name]


def knobs_table() -> str:
    """The knobs as a Markdown table, with each preset's values."""
    lines = ["| knob | " + " | ".join(f"`{p}`" for p in PRESET_NAMES) + " | takes | rule | what it does |",
             "|---|" + "---|" * len(PRESET_NAMES) + "---|---|---|"]
    for k in KNOBS[1:]:
        cells = " | ".join(k.word(getattr(Rules.of(p), k.name)) for p in PRESET_NAMES)
        takes = either(f"`{w}`" for w in k.words) if k.choices else k.takes
        lines.append(f"| `{k.name}` | {cells} | {takes} | {k.rule} | {k.help} |")
    return "\n".join(lines) + "\n"


def with_knob(rules: Rules, name: str, value: Any) -> Rules:
    """``rules`` with one knob changed (checked)."""
    knob_named(name).check(value)
    return replace(rules, **{name: value})
