"""The rule book's tables (TP-2.1), the house-rule knobs (TP-6); the rule error is every game's (``interface``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ..cards import ACE, CARDS_PER_DECK, JOKER, decks_for
from ..interface import RuleError as RuleError  # every game's error; Ten Pennies' rules are TP-x.y


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
PRESETS = ("standard", "deuces")
LATER_SET_WILDS = ("round_cap", "one_per_three")  # TP-4.12
_LATE_WILDS = frozenset({JOKER, ACE, 2})


def round_spec(number: int, preset: str) -> RoundSpec:
    if number >= 5:
        wilds = _LATE_WILDS
    else:
        wilds = frozenset({JOKER}) if preset == "standard" else frozenset({2})
    return RoundSpec(number, CONTRACTS[number], wilds, WILD_CAPS[number])


@dataclass(frozen=True, slots=True)
class HouseRules:
    """TP-6: the preset and every knob, with the rule book's defaults."""

    preset: str = "standard"
    distinct_suits: bool = True
    all_wild_sets: bool = True
    wild_layoff_cap: bool = False
    discard_to_go_out: bool = False
    later_set_wilds: str = "round_cap"
    hand_size: int = 11
    buy_pennies: int = 10
    buy_penalty_cards: int = 2
    reshuffles: int = 1
    max_turns: int = 300
    rounds: tuple[int, ...] = field(default=(1, 2, 3, 4, 5, 6, 7))

    def validate(self, seats: int) -> None:
        """Raise RuleError for a table that the rule book does not allow."""
        if not 2 <= seats <= 8:
            raise RuleError("TP-1.1", f"a game has 2 to 8 seats, not {seats}")
        if self.preset not in PRESETS:
            raise RuleError("TP-6", f"preset must be one of {', '.join(PRESETS)}, not {self.preset!r}")
        if self.later_set_wilds not in LATER_SET_WILDS:
            raise RuleError("TP-6", f"later_set_wilds must be one of {', '.join(LATER_SET_WILDS)}, "
                                    f"not {self.later_set_wilds!r}")
        for name in ("distinct_suits", "all_wild_sets", "wild_layoff_cap", "discard_to_go_out"):
            if not isinstance(getattr(self, name), bool):
                raise RuleError("TP-6", f"{name} is on or off (a bool)")
        for name, low in (("hand_size", 1), ("buy_pennies", 0), ("buy_penalty_cards", 0),
                          ("reshuffles", 0), ("max_turns", 1)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise RuleError("TP-6", f"{name} must be a whole number of at least {low}, not {value!r}")
        if self.max_turns > 100_000 or self.buy_pennies > 10_000 or self.buy_penalty_cards > 100 \
                or self.reshuffles > 1000:
            raise RuleError("TP-6", "a knob is set beyond any sensible table")
        shoe_size = decks_for(seats) * CARDS_PER_DECK
        if seats * self.hand_size + 1 > shoe_size:
            raise RuleError("TP-3.1", f"{seats} hands of {self.hand_size} and an upcard need more than "
                                      f"the {shoe_size} cards of the shoe")
        rounds = self.rounds
        if not rounds or any(not isinstance(r, int) or isinstance(r, bool) for r in rounds) \
                or any(r not in CONTRACTS for r in rounds) \
                or any(a >= b for a, b in zip(rounds, rounds[1:], strict=False)):
            raise RuleError("TP-6", f"rounds must be rounds 1 to 7 in rising order, not {rounds!r}")

    def round(self, number: int) -> RoundSpec:
        return _SPECS[(number, self.preset)]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rounds"] = list(self.rounds)
        return data

    @classmethod
    def from_settings(cls, settings: Iterable[str]) -> HouseRules:
        """From ``KNOB=VALUE`` texts, as a command line writes them: ``preset=deuces``,
        ``discard_to_go_out=on``, ``hand_size=9``, ``rounds=1,2``; unknown knobs and bad values are
        refused citing TP-6."""
        knobs: dict[str, Any] = {}
        for setting in settings:
            name, _, value = setting.partition("=")
            name = name.strip().replace("-", "_")
            value = value.strip()
            if value.lower() in ("on", "true", "yes"):
                knobs[name] = True
            elif value.lower() in ("off", "false", "no"):
                knobs[name] = False
            elif name == "rounds":
                try:
                    knobs[name] = tuple(int(r) for r in value.split(","))
                except ValueError:
                    raise RuleError("TP-6", f"rounds are numbers 1 to 7 separated by commas, not {value!r}") \
                        from None
            elif value.lstrip("-").isdigit():
                knobs[name] = int(value)
            else:
                knobs[name] = value
        return cls.from_dict(knobs)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """Build from a plain mapping (unknown knobs are an error, missing ones take the defaults)."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RuleError("TP-6", f"no such house rule: {', '.join(sorted(unknown))}")
        data = dict(data)
        if "rounds" in data:
            data["rounds"] = tuple(data["rounds"])
        return cls(**data)


_SPECS = {(n, p): round_spec(n, p) for n in CONTRACTS for p in PRESETS}
