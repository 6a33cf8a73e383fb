"""Finished games made here, for the replay viewer's and the history's tests: bots of the game's own kind play
a seeded game to its end, and its record is what a store would give back (``GameRecord``)."""

from __future__ import annotations

from typing import Any

from tenpennies.engine.games import kind
from tenpennies.engine.review import Mark, Option, Review
from tenpennies.wire.record import GameRecord

NAMES = ("Ann", "Bob", "Cy", "You")


def played(game: str = "ten_pennies", seats: int = 4, seed: int = 7, rules: dict[str, Any] | None = None,
           bot: str | None = None) -> GameRecord:
    """A game of ``game`` played to its end by its default bots (``bot``: another of its bots)."""
    k = kind(game)
    house = k.rules_from_dict(rules or {})
    g = k.new(seats, house, seed)
    bots = [k.bots[bot or k.takeover](seed + s) for s in range(seats)]
    commands = []
    while not g.over:
        seat = g.to_act()[0]
        command = bots[seat].choose(g.view(seat))
        g.apply(command)
        commands.append(command)
    return GameRecord(f"{game[:2]}{seed:06d}", f"{game} {seed}", seats, house, seed, "finished",
                      list(NAMES[:seats]), commands, game)


def review_of(record: GameRecord, seat: int, costs: dict[int, float]) -> Review:
    """A review of ``seat`` made up here (no searcher): ``costs`` maps the n-th command of the seat (from 0)
    to what it cost; every other decision of the seat costs 0. Its options: the chosen one and a better one."""
    k = kind(record.game)
    marks = []
    mine = [i for i, c in enumerate(record.commands) if c.seat == seat]
    for n, index in enumerate(mine):
        chosen = k.format_command(record.commands[index])
        loss = costs.get(n, 0.0)
        options = (Option(f"{seat} better move {n}", 10.0), Option(chosen, 10.0 + loss)) if loss else (
            Option(chosen, 10.0), Option(f"{seat} worse move {n}", 12.5))
        marks.append(Mark(index, 0, chosen, options, loss))
    return Review(record.table_id, seat, "made up", 8, tuple(marks), seed=0)  # (a seed: a kept one will do)
