"""Thirty-One as the client's non-screen parts tell it (``ENTRY``, listed by ``client/games.py``): deals, each
seat's lives, tokens or points as its preset keeps them, a place at the end (docs/THIRTY-ONE.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.game import Game
from tenpennies.engine.thirty_one.kind import THIRTY_ONE
from tenpennies.engine.thirty_one.narrate import PRESET_TITLES, Narrator
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.engine.thirty_one.view import SeatView
from tenpennies.v2 import tenpennies_pb2 as pb

from ..game_entry import ClientGame, Rounds
from ..plots import deal_figures

__all__ = ["ENTRY"]


def _deal_started(event: Any) -> int | None:
    return event.deal if isinstance(event, ev.DealStarted) else None


def _deal_figures(event: Any, rules: Rules) -> tuple[int, ...] | None:
    """A deal's end (or the first deal's start): each seat's lives, tokens or points (``deal_figures``)."""
    if not isinstance(event, (ev.DealEnded, ev.DealStarted)):
        return None
    return deal_figures(event.players, rules.scoring)


def _deal_end(narrator: Narrator, event: Any) -> str | None:
    return f"deal {event.deal}: {narrator.why(event)}" if isinstance(event, ev.DealEnded) else None


def _columns(view: SeatView, scores: Sequence[int], seat: int, rules: Rules) -> str:
    """The tally the preset keeps (T31-7, T31-8), and a free ride."""
    player = view.players[seat]
    return f"{rules.scoring} {getattr(player, rules.scoring):>3}{'  (free ride)' if player.riding else ''}"


def _counts(view: SeatView, rules: Rules) -> Mapping[str, tuple[int, ...]]:
    """Each seat's lives, tokens and points as it ended (``Result.tallies``' names)."""
    return {tally: tuple(getattr(p, tally) for p in view.players) for tally in ("lives", "tokens", "points")}


def _unfinished(snapshot: pb.Snapshot) -> tuple[int, int, int, str]:
    deal = snapshot.game.thirty_one.deal
    return deal, 0, deal, f"{THIRTY_ONE.title}, deal {deal}"


def _stands(game: Game) -> str:
    return f"deal {game.deal}, turn {game.turn}"


ENTRY = ClientGame(
    name=THIRTY_ONE.name,
    rounds=Rounds(_deal_started, _deal_figures, "deal", lambda rules: str(rules.scoring)),
    rules_words=lambda rules: f"preset {PRESET_TITLES[rules.preset]}",
    move_mark=lambda game: f"[d{game.deal} t{game.turn}] ",
    stands=_stands,
    turn_started=lambda event: isinstance(event, ev.TurnStarted),
    hand=lambda view: " ".join(c.text for c in view.hand),
    round_end=_deal_end,
    columns=_columns,
    counts=_counts,
    places=True,
    score_note="1 the best, tied seats share",
    tally_words={"lives": "lives left"},
    digits=2,
    unfinished=_unfinished,
)
