"""The rule book's tables (TP-2.1) and the house-rule knobs (TP-6); the rule error is every game's (``interface``).

Each house rule is declared once, as a field of ``HouseRules`` made by ``knob(...)``: its name, type and
default, the rule it changes, a label and a line of help, and the values it takes. ``KNOBS`` lists those
declarations; validation, ``--rule NAME=VALUE`` (``from_settings``), ``to_dict``/``from_dict``, the wire
mapping, the lobby's create form and the README's table of knobs (``knobs_table``) all come from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import knobs
from ..cards import ACE, CARDS_PER_DECK, JOKER, decks_for
from ..interface import RuleError as RuleError  # every game's error; Ten Pennies' rules are TP-x.y
from ..knobs import OFF_WORDS as OFF_WORDS
from ..knobs import ON_WORDS as ON_WORDS
from ..knobs import Knob as Knob
from ..knobs import KnobValue as KnobValue
from ..knobs import either


@dataclass(frozen=True, slots=True)
class Contract:
    sets: int      # how many sets
    size: int      # the least size of each

    def __str__(self) -> str:
        return f"{self.sets} set{'s' if self.sets > 1 else ''} of {self.size}"


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """What one round of TP-2.1 asks: the contract, the wild ranks and the per-set cap on wilds."""

    number: int
    contract: Contract
    wild_ranks: frozenset[int]
    wild_cap: int


CONTRACTS = {1: Contract(2, 3), 2: Contract(1, 4), 3: Contract(2, 4), 4: Contract(1, 5),
             5: Contract(2, 5), 6: Contract(1, 6), 7: Contract(1, 7)}
WILD_CAPS = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3}
_LATE_WILDS = frozenset({JOKER, ACE, 2})


def round_spec(number: int, preset: str) -> RoundSpec:
    if number >= 5:
        wilds = _LATE_WILDS
    else:
        wilds = frozenset({JOKER}) if preset == "standard" else frozenset({2})
    return RoundSpec(number, CONTRACTS[number], wilds, WILD_CAPS[number])


# --- the house rules (TP-6) --------------------------------------------------------------------------

V = TypeVar("V", bool, int, str, tuple[int, ...])


def knob(default: V, rule: str, label: str, help: str, *, low: int | None = None, high: int | None = None,
         choices: tuple[tuple[str, str], ...] = ()) -> V:
    """Declare a house rule: a field of ``HouseRules`` whose metadata is its ``Knob`` (named after the field);
    a value it does not take is refused citing TP-6."""
    return knobs.knob(default, rule, label, help, low=low, high=high, choices=choices, refused="TP-6")


@dataclass(frozen=True, slots=True)
class HouseRules:
    """TP-6: the preset and every knob, with the rule book's defaults. Each field is the one declaration of
    its house rule (``KNOBS``); a value is judged by ``validate``, not when the rules are made."""

    preset: str = knob("standard", "TP-2.1", "Preset", "which rank is wild in rounds 1-4",
                       choices=(("standard", "jokers wild"), ("deuces", "2s wild")))
    distinct_suits: bool = knob(True, "TP-4.9", "Distinct suits in a set",
                                "no set holds two naturals of the same rank and suit")
    all_wild_sets: bool = knob(True, "TP-4.10", "All-wild sets allowed",
                               "a set made only of wild cards may be laid, whatever its size")
    wild_layoff_cap: bool = knob(False, "TP-4.13", "Wild cap on lay-offs",
                                 "wild cards laid off count against the round's cap")
    discard_to_go_out: bool = knob(False, "TP-4.16", "Discard to go out", "the last card must be a discard")
    later_set_wilds: str = knob("round_cap", "TP-4.12", "Later sets' wilds",
                                "how many wild cards a set laid after the contract may hold",
                                choices=(("round_cap", "round's cap"), ("one_per_three", "1 wild per 3 cards")))
    hand_size: int = knob(11, "TP-3.1", "Hand size", "cards dealt to each seat (the shoe must hold them)",
                          low=1)
    buy_pennies: int = knob(10, "TP-5.3", "Buy pennies", "each seat's buy stack for the whole game",
                            low=0, high=10_000)
    buy_penalty_cards: int = knob(2, "TP-4.4", "Buy penalty cards", "cards a buyer takes from the stock with "
                                  "the card bought", low=0, high=100)
    reshuffles: int = knob(1, "TP-4.18", "Reshuffles", "times a round the pile may be turned into a new stock",
                           low=0, high=1000)
    max_turns: int = knob(300, "TP-4.20", "Max turns a round", "turns after which a round ends with nobody out",
                          low=1, high=100_000)
    rounds: tuple[int, ...] = knob((1, 2, 3, 4, 5, 6, 7), "TP-2.1", "Rounds",
                                   "which rounds are played, in order (a short game plays fewer)",
                                   low=min(CONTRACTS), high=max(CONTRACTS))

    def validate(self, seats: int) -> None:
        """Raise RuleError for a table that the rule book does not allow."""
        if seats not in SEATS:
            raise RuleError("TP-1.1", f"a game has {SEATS[0]} to {SEATS[-1]} seats, not {seats}")
        for declared in KNOBS:
            declared.check(getattr(self, declared.name))
        shoe_size = decks_for(seats) * CARDS_PER_DECK
        if seats * self.hand_size + 1 > shoe_size:
            raise RuleError("TP-3.1", f"{seats} hands of {self.hand_size} and an upcard need more than "
                                      f"the {shoe_size} cards of the shoe")

    def round(self, number: int) -> RoundSpec:
        return _SPECS[(number, self.preset)]

    def to_dict(self) -> dict[str, Any]:
        """Plain values (rounds as a list), as JSON keeps them; ``from_dict`` reads them back."""
        return {k.name: list(v) if isinstance(v := getattr(self, k.name), tuple) else v for k in KNOBS}

    @classmethod
    def from_settings(cls, settings: Iterable[str]) -> HouseRules:
        """From ``NAME=VALUE`` texts, as a command line writes them (``knobs.settings``): ``preset=deuces``,
        ``discard_to_go_out=on``, ``hand_size=9``, ``rounds=1,2``; an unknown name or a value the knob does not
        take is refused citing TP-6, naming the knob and what it takes."""
        return cls(**knobs.settings(settings, knob_named))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """Build from a plain mapping (unknown knobs are an error, missing ones take the defaults; the
        values are judged by ``validate``)."""
        knobs: dict[str, Any] = {}
        for name in sorted(data):
            value = data[name]
            knobs[name] = tuple(value) if knob_named(name).kind is tuple and isinstance(value, list) else value
        return cls(**knobs)


KNOBS: tuple[Knob, ...] = knobs.declared(HouseRules)
SEATS = range(2, 9)
"""The seats a table may have (TP-1.1)."""
_BY_NAME = {k.name: k for k in KNOBS}
PRESETS = _BY_NAME["preset"].words
LATER_SET_WILDS = _BY_NAME["later_set_wilds"].words  # TP-4.12


def knob_named(name: str) -> Knob:
    """The declaration of house rule ``name``; RuleError (TP-6) naming the known ones if there is none."""
    if name not in _BY_NAME:
        raise RuleError("TP-6", f"no such house rule: {name} (the house rules: {', '.join(_BY_NAME)})")
    return _BY_NAME[name]


def knobs_table() -> str:
    """The house rules as a Markdown table (the README's, which a test keeps equal to this)."""
    def default(k: Knob) -> str:
        rounds = k.default if isinstance(k.default, tuple) else ()
        if len(rounds) > 2 and list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
            return f"{rounds[0]}-{rounds[-1]}"
        return k.word(k.default)

    def takes(k: Knob) -> str:
        if k.choices:
            return either(f"`{word}` ({meaning})" for word, meaning in k.choices)
        return k.takes

    lines = ["| knob | default | takes | rule | what it does |", "|---|---|---|---|---|"]
    lines += [f"| `{k.name}` | {default(k)} | {takes(k)} | {k.rule} | {k.help} |" for k in KNOBS]
    return "\n".join(lines) + "\n"


_SPECS = {(n, p): round_spec(n, p) for n in CONTRACTS for p in PRESETS}
