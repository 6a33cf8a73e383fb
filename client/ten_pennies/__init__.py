"""Ten Pennies as the client's non-screen parts tell it (``ENTRY``, listed by ``client/games.py``): rounds of
a contract each, a score (lowest wins), pennies won, paid and bought with (docs/RULES.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tenpennies.engine.cards import Card, sort_key
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.game import Game, SeatView
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.engine.ten_pennies.narrate import Narrator
from tenpennies.engine.ten_pennies.results import balances, pennies_bought_with, penny_balance
from tenpennies.engine.ten_pennies.rules import HouseRules
from tenpennies.v2 import tenpennies_pb2 as pb

from ..game_entry import ClientGame, Rounds

__all__ = ["ENTRY", "rounds_text"]


def _cards(cards: Sequence[Card]) -> str:
    """Cards sorted by rank, as a hand is read."""
    return " ".join(c.text for c in sorted(cards, key=sort_key))


def rounds_text(rounds: Sequence[int]) -> str:
    """``1-7`` for a run of rounds, else ``1,3,5``."""
    if len(rounds) > 2 and list(rounds) == list(range(rounds[0], rounds[-1] + 1)):
        return f"{rounds[0]}-{rounds[-1]}"
    return ",".join(map(str, rounds))


def _round_started(event: Any) -> int | None:
    return event.round if isinstance(event, ev.RoundStarted) else None


def _round_scores(event: Any, rules: Any) -> tuple[int, ...] | None:
    return tuple(event.scores) if isinstance(event, ev.RoundEnded) else None


def _reader(rules: HouseRules, name: Callable[[int], str]) -> Narrator:
    """Every hand told sorted, as it is read."""
    return Narrator(rules, name, cards=_cards, every_hand=True)


def _round_end(narrator: Narrator, event: Any) -> str | None:
    if not isinstance(event, ev.RoundEnded):
        return None
    return (f"round {event.round}: {narrator.why(event)}; points {list(event.points)}; totals {list(event.scores)}; "
            f"pot {event.pot}")


def _columns(view: SeatView, scores: Sequence[int], seat: int, rules: HouseRules) -> str:
    player = view.players[seat]
    return (f"score {scores[seat]:>4}  won {player.won:>3}  paid {player.paid:>3}  "
            f"bought {pennies_bought_with(player, rules):>2}  pennies {penny_balance(player, rules):>+4}")


def _counts(view: SeatView, rules: HouseRules) -> Mapping[str, tuple[int, ...]]:
    """A seat's pot shares, pennies paid, and the tallies the standings add up (``Kind.tournament_tallies``):
    its penny balance and the pennies it bought with (TP-5.2 to TP-5.4). All public."""
    buys, pennies = balances(view.players, rules)
    return {"won": tuple(p.won for p in view.players), "paid": tuple(p.paid for p in view.players), "buys": buys,
            "pennies": pennies}


def _unfinished(snapshot: pb.Snapshot) -> tuple[int, int, int, str]:
    rounds = list(snapshot.table.rules.ten_pennies.rounds) or list(HouseRules().rounds)
    number = snapshot.game.ten_pennies.round
    return number, len(rounds), rounds.index(number) + 1 if number in rounds else number, ""


def _stands(game: Game) -> str:
    return f"round {game.spec.number} ({game.round_index + 1} of {len(game.rules.rounds)}), turn {game.turn}"


ENTRY = ClientGame(
    name=TEN_PENNIES.name,
    rounds=Rounds(_round_started, _round_scores, "round", lambda rules: "score"),
    reader=_reader,
    rules_words=lambda rules: f"preset {rules.preset}, rounds {rounds_text(rules.rounds)}",
    move_mark=lambda game: f"[r{game.spec.number} t{game.turn}] ",
    stands=_stands,
    turn_started=lambda event: isinstance(event, ev.TurnStarted),
    hand=lambda view: _cards(view.hand),
    round_end=_round_end,
    columns=_columns,
    counts=_counts,
    pennies_left=lambda view, seat: view.players[seat].pennies,
    signed=frozenset({"pennies"}),
    standing_notes=("pennies: won - paid - bought with (TP-5.2 to TP-5.4);",),
    unfinished=_unfinished,
)
