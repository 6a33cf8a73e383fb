"""A learned value of a Ten Pennies position: the points a seat will hold when the round ends, read from a
whole game (a world a searcher samples), which lets a review's rollout stop some turns after the decision
(``search.rollout``'s ``horizon``) instead of playing the round out.

The value sorts a position into a cell (``cell``: the round; the seat down or not; how far it is from going
down, or how many cards it has left to shed; how near the nearest other seat is to going out) and within
the cell is linear in the points of the seat's hand (so the cell's slope is about the chance that the hand
is still held at the end). The cells were fitted by least squares to the points seats of self-play held at
the end of the round (four seats, the rollout policy ``strategies.fast_choice`` at each, the rule book's
house rules): ``bench/value_train.py`` fits them and writes ``value_weights.py``; a cell too rare to fit
takes its round's. Those house rules alone (``fitted``): at others a searcher plays its rollouts out.

What it trades: the value is an average over positions like the one reached, so a rollout stopped early
knows of the rest of the round only what the cell does (a card that would make a set two turns later counts
as a card nearer the contract, not as the set); in return each rollout is shorter, and far less of the luck
of the later draws, so a review tells options apart in fewer worlds (docs/REVIEWS.md).
"""

from __future__ import annotations

from .game import Game
from .rules import HouseRules
from .strategies import _distance, _tally
from .value_weights import BY_ROUND, CELLS

Cell = tuple[int, bool, int, int]


def fitted(rules: HouseRules) -> bool:
    """Whether the value was fitted to games of these house rules: the rule book's, whichever rounds are
    played (which rounds a game plays does not change how one is played)."""
    return rules == HouseRules(rounds=rules.rounds)


def cell(game: Game, seat: int) -> tuple[Cell, float]:
    """``seat``'s cell in ``game`` (the round; down or not; its distance to the contract, or the cards it has
    left; the nearest other seat's: its distance to the contract and two, or its cards left if down; each
    capped at 6) and its hand's points, by tens."""
    players = game.players
    me = players[seat]
    spec, rules = game.spec, game.rules
    if me.down:
        mine = len(me.hand)
    else:
        counts, wilds, _ = _tally(me.hand, spec, rules)
        mine = _distance(counts, wilds, spec)
    nearest = 6
    for s, other in enumerate(players):
        if s != seat:
            if other.down:
                near = len(other.hand)
            else:
                counts, wilds, _ = _tally(other.hand, spec, rules)
                near = _distance(counts, wilds, spec) + 2
            nearest = min(nearest, near)
    return (spec.number, me.down, min(mine, 6), nearest), sum(card.points for card in me.hand) / 10


def value(game: Game, seat: int) -> float:
    """The points ``seat`` is expected to hold when the round of ``game`` ends (never below 0)."""
    key, points = cell(game, seat)
    a, b = CELLS.get(key) or BY_ROUND[key[0], key[1]]
    return max(0.0, a + b * points)
