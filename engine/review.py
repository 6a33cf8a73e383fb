"""A review of one seat's play in a finished game: each decision it made, scored by a searcher from what the
seat knew at that moment (never the hidden cards), the choice it made and what that cost against the best.

Points are the seat's expected points for the rest of the round after the option (lower is better, as the
score is); ``loss`` is the chosen option's expected points less the best option's (0 for the best choice).
These are plain values, kept as JSON with the game (``to_dict``/``from_dict``), shown by ``tenpennies replay
--review`` and the terminal client's review and replay viewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One thing the seat could have done (its command's notation) and its expected points."""

    command: str
    points: float


@dataclass(frozen=True)
class Mark:
    """One decision of the reviewed seat: ``index`` is the position of its command in the game's command
    log (0-based), ``round`` the round (or deal) it fell in, ``options`` best first."""

    index: int
    round: int
    chosen: str
    options: tuple[Option, ...]
    loss: float

    @property
    def best(self) -> Option:
        return self.options[0]


@dataclass(frozen=True)
class Review:
    """The reviewed ``seat``'s decisions in log order (only those with more than one option), by
    ``searcher`` at ``budget`` (its own unit: rollouts or seconds, named in the searcher's docs)."""

    game_id: str
    seat: int
    searcher: str
    budget: int
    marks: tuple[Mark, ...]

    def costliest(self, n: int) -> list[Mark]:
        """The ``n`` decisions that cost the most, costliest first (ties in game order); none that cost 0."""
        costly = [m for m in self.marks if m.loss > 0]
        return sorted(costly, key=lambda m: (-m.loss, m.index))[:n]

    @property
    def total_loss(self) -> float:
        return sum(m.loss for m in self.marks)

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "seat": self.seat, "searcher": self.searcher, "budget": self.budget,
                "marks": [{"index": m.index, "round": m.round, "chosen": m.chosen, "loss": m.loss,
                           "options": [[o.command, o.points] for o in m.options]} for m in self.marks]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Review:
        return cls(str(data["game_id"]), int(data["seat"]), str(data["searcher"]), int(data["budget"]),
                   tuple(Mark(int(m["index"]), int(m["round"]), str(m["chosen"]),
                              tuple(Option(str(c), float(p)) for c, p in m["options"]), float(m["loss"]))
                         for m in data["marks"]))
