"""Bots that play Thirty-One from a seat's view alone and the timer's safe default (``engine.play`` plays a
whole game with them).

* ``random``: any legal command.
* ``heuristic``: collects one suit (takes what raises its hand's value, discards what adds least), knocks
  at a sensible value (``KNOCK_AT``; in stop_the_bus at a flush or a high pair), draws on its last turn.
* ``searcher``: for each legal command, plays the deal out from games its seat cannot tell from the real
  one (``Game.sampled``: the hidden cards dealt at random) with the heuristic at every seat, and takes the
  command whose deals end best for it (lives kept, tokens won, points scored).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .. import play
from ..cards import Card
from ..interface import Bot
from .commands import (
    Command,
    Discard,
    DrawStock,
    ExchangeMiddle,
    ExchangeWidow,
    KeepHand,
    Knock,
    Renew,
    Stand,
    SwapHand,
    TableSwap,
    TableSwapAll,
    TakeDiscard,
)
from .events import DealEnded, Event
from .game import Game
from .hands import brag_key, card_value, hand_value
from .rules import Rules
from .view import Phase, SeatView

KNOCK_AT = 26.0
"""The heuristic knocks with a hand worth this much or more."""


def _worth(cards: Sequence[Card], rules: Rules) -> tuple[float, ...]:
    """How good a hand of three is (bigger is better): brag order, or the value."""
    if rules.brag:
        return tuple(float(k) for k in brag_key(cards)) if len(cards) == 3 else (-1.0,)
    return (hand_value(cards, rules),)


def after(view: SeatView, command: Command) -> tuple[Card, ...] | None:
    """The seat's hand once ``command`` is played, where the view shows every card of it (None: it takes a
    card the seat cannot see, or does not change the hand in a way that can be judged now)."""
    hand = list(view.hand)
    match command:
        case TakeDiscard():
            top = view.discard_top
            if top is None:
                return None
            cards = hand + [top]
            kept = [tuple(c for c in cards if c is not drop) for drop in cards if drop is not top]
            return max(kept, key=lambda h: _worth(h, view.rules))
        case Discard(card=card):
            return tuple(c for c in hand if c is not card)
        case ExchangeWidow(give=give, take=take):
            got = tuple(c for p in take if (c := view.widow[p]) is not None)
            if len(got) != len(take):
                return None
            return tuple(c for c in hand if c not in give) + got
        case ExchangeMiddle(card=card, place=place, slot=slot):
            got_one = view.middle[place].cards[slot]
            return None if got_one is None else tuple(c for c in hand if c is not card) + (got_one,)
        case SwapHand(place=place):
            shown = tuple(c for c in view.middle[place].cards if c is not None)
            return shown if len(shown) == len(view.middle[place].cards) else None
        case TableSwap(give=give, take=take):
            return tuple(c for c in hand if c is not give) + (take,)
        case TableSwapAll():
            return tuple(view.table_cards)
    return None


class HeuristicBot:
    """Plays a suit and knocks on a threshold (see the module)."""

    def __init__(self, knock_at: float = KNOCK_AT) -> None:
        self.knock_at = knock_at

    def choose(self, view: SeatView) -> Command:
        seat = view.seat
        assert seat is not None, "a spectator does not play"
        legal, rules = view.legal, view.rules
        if view.phase is Phase.KEEP:
            return KeepHand(seat, 1 if _worth(view.spare, rules) > _worth(view.hand, rules) else 0)
        if view.phase is Phase.DISCARD:
            discards = [c for c in legal if isinstance(c, Discard)]
            return max(discards, key=lambda c: (_worth(after(view, c) or (), rules), -card_value(c.card), -c.card.id))
        now = _worth(view.hand, rules)
        rounds = view.turn // max(1, sum(not p.out for p in view.players))
        if Knock(seat) in legal and self._strong(now, rules, rounds):
            return Knock(seat)
        judged = [(worth, -i, c) for i, c in enumerate(legal)
                  if (hand := after(view, c)) is not None and (worth := _worth(hand, rules)) > now]
        if judged:
            return max(judged, key=lambda t: (t[0], t[1]))[2]
        if DrawStock(seat) in legal:
            return DrawStock(seat)
        if Stand(seat) in legal:
            return Stand(seat)
        blind = [c for c in legal if isinstance(c, ExchangeMiddle) and view.middle[c.place].cards[c.slot] is None]
        if blind:  # switch: trade the card that adds least for a face-down one
            return max(blind, key=lambda c: (_worth(after_giving(view, c.card), rules), -card_value(c.card)))
        renewals = [c for c in legal if isinstance(c, Renew) and c.face_up]
        if renewals:
            return renewals[0]
        if Knock(seat) in legal and not rules.brag:
            return Knock(seat)
        options = [(_worth(hand, rules), -i, c) for i, c in enumerate(legal) if (hand := after(view, c)) is not None]
        if options:
            return max(options, key=lambda t: (t[0], t[1]))[2]
        return legal[0]

    def _strong(self, worth: tuple[float, ...], rules: Rules, rounds: int) -> bool:
        """Strong enough to knock: from the third round of turns on, a little less each round (a deal with
        no stock to run out, switch or stop_the_bus, ends when someone knocks)."""
        late = max(0, rounds - 2)
        if rules.brag:
            cls, high = worth[0], worth[1]
            return cls >= 2 or (cls == 1 and high >= 12 - late) or late >= 6
        return worth[0] >= self.knock_at - late


def after_giving(view: SeatView, card: Card) -> tuple[Card, ...]:
    return tuple(c for c in view.hand if c is not card)


def deal_outcome(end: DealEnded, seat: int) -> float:
    """What a deal's end was worth to ``seat``: lives lost (less), tokens won less paid, points scored."""
    return float(end.scored[seat] + end.won[seat] - end.paid[seat] - 2 * end.lost[seat]) \
        - (5.0 if seat in end.went_out else 0.0)


class SearchBot:
    """Determinized rollouts through the game interface, from the seat's view alone (see the module).

    Each sampled world plays every candidate, so the candidates are compared on the same hidden cards; the
    searcher leaves the heuristic's own choice only for a command that does better on those worlds by more
    than twice the standard error of the difference (a deal's outcome is noisy: a few worlds are a poor
    judge). Candidates: the heuristic's choice, every command whose result the view cannot judge (a draw,
    a knock, a stand, a face-down card: one slot a middle hand, as they are alike), and the ``width`` best
    of those it can."""

    def __init__(self, seed: int = 0, samples: int = 16, max_steps: int = 120, width: int = 6) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.max_steps = max_steps
        self.width = width
        self.policy = HeuristicBot()

    def candidates(self, view: SeatView) -> list[Command]:
        judged: list[tuple[tuple[float, ...], int, Command]] = []
        blind: list[Command] = []
        unseen_slots: set[tuple[Card, int]] = set()
        for i, command in enumerate(view.legal):
            hand = after(view, command)
            if hand is None:
                if isinstance(command, ExchangeMiddle):  # face-down cards of one hand are alike to this seat
                    if (command.card, command.place) in unseen_slots:
                        continue
                    unseen_slots.add((command.card, command.place))
                blind.append(command)
            else:
                judged.append((_worth(hand, view.rules), -i, command))
        judged.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return blind + [c for _, _, c in judged[: self.width]]

    def choose(self, view: SeatView) -> Command:
        seat = view.seat
        assert seat is not None, "a spectator does not play"
        default = self.policy.choose(view)
        legal = [default] + [c for c in self.candidates(view) if c != default]
        if len(legal) == 1:
            return default
        outcomes: list[list[float]] = [[] for _ in legal]
        tries = 1 + view.turn // max(1, sum(not p.out for p in view.players))  # 1 + rounds of turns played
        for _ in range(self.samples):
            world = Game.sampled(view, self.rng, min(tries, 6))
            for i, command in enumerate(legal):
                game = world.copy()
                outcomes[i].append(self._rollout(game, game.apply(command, trusted=True), seat))
        best, best_gain = 0, 0.0
        for i in range(1, len(legal)):
            diffs = [a - b for a, b in zip(outcomes[i], outcomes[0], strict=True)]
            mean = sum(diffs) / len(diffs)
            spread = (sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1)) ** 0.5
            if mean > best_gain and mean > 2 * spread / len(diffs) ** 0.5:
                best, best_gain = i, mean
        return legal[best]

    def _rollout(self, game: Game, events: list[Event], seat: int) -> float:
        return play_out(game, events, seat, self.policy, self.max_steps)


def play_out(game: Game, events: list[Event], seat: int, policy: Bot, max_steps: int = 120) -> float:
    """The deal played on to its end by ``policy`` at every seat, from the ``events`` of the command just
    applied: what it was worth to ``seat`` (``deal_outcome``; 0 for a game over or a deal cut short)."""
    for _ in range(max_steps):
        for event in events:
            if isinstance(event, DealEnded):
                return deal_outcome(event, seat)
        if game.over:
            return 0.0
        actor = game.to_act()[0]
        events = game.apply(policy.choose(game.view(actor)), trusted=True)
    return 0.0


REVIEW_BUDGET = 64
"""The most worlds a review plays an option of a decision in by default (``option_rollouts``): a clear
decision takes its first look's (``review.first_look``), those whose place among the costliest is in
question up to this many, within the review's rollouts (``review.SPEND``)."""


def option_values(game: Game, seat: int, options: Sequence[Command], *, budget: int, seed: int) -> list[float]:
    """``seat``'s expected loss over the rest of the deal after each of ``options`` (lower is better): the
    ``searcher``'s rollouts, negated, on worlds sampled from the seat's view alone (``Game.sampled``,
    as ``SearchBot`` samples them), every option on the same worlds, the heuristic at every seat: ``budget``
    rollouts in all, ``budget // len(options)`` worlds (at least one)."""
    view = game.view(seat)
    rng = random.Random(seed)
    policy = HeuristicBot()
    tries = 1 + view.turn // max(1, sum(not p.out for p in view.players))
    totals = [0.0] * len(options)
    worlds = max(1, budget // max(1, len(options)))
    for _ in range(worlds):
        world = Game.sampled(view, rng, min(tries, 6))
        for i, command in enumerate(options):
            played = world.copy()
            totals[i] += play_out(played, played.apply(command, trusted=True), seat, policy)
    return [0.0 - total / worlds for total in totals]  # (0.0 -: no -0.0 shown)


def option_rollouts(game: Game, seat: int, seed: int) -> Callable[[Sequence[Command], range], list[list[float]]]:
    """What a review extends a decision with, world by world: ``rollouts(options, worlds)`` is, for each of
    ``options``, ``seat``'s loss over the rest of the deal (as ``option_values``) in each world numbered in
    ``worlds``; world ``j`` is sampled from the seat's view with a generator seeded from ``seed`` and ``j``
    alone, so options played in it at different times meet the same world (their differences stay paired)."""
    view = game.view(seat)
    policy = HeuristicBot()
    tries = min(1 + view.turn // max(1, sum(not p.out for p in view.players)), 6)

    def rollouts(options: Sequence[Command], worlds: range) -> list[list[float]]:
        table: list[list[float]] = [[] for _ in options]
        for j in worlds:
            world = Game.sampled(view, random.Random(f"{seed}/{j}"), tries)
            for values, command in zip(table, options, strict=True):
                played = world.copy()
                values.append(0.0 - play_out(played, played.apply(command, trusted=True), seat, policy))
        return table

    return rollouts


def review_options(game: Game, seat: int, chosen: Command) -> list[Command]:
    """``chosen`` and the searcher's candidates (``SearchBot.candidates``: every command the view cannot
    judge, one face-down slot per middle hand, and the six best of those it can)."""
    view = game.view(seat)
    if len(view.legal) <= 1:
        return [chosen]
    return [chosen] + [c for c in SearchBot().candidates(view) if c != chosen]


def safe_default(view: SeatView) -> Command:
    """What the server plays for a seat whose decision timer ran out: stand after a knock, draw from the
    stock where it may, else what the heuristic would (keep the better hand, discard what adds least, the
    best exchange). Never a knock where anything else is legal: the timer does not end a deal for a seat."""
    seat = view.seat
    assert seat is not None, "a spectator has no decisions"
    for command in (Stand(seat), DrawStock(seat)):
        if command in view.legal:
            return command
    choice = HeuristicBot(knock_at=99).choose(view)
    if isinstance(choice, Knock):
        others = [c for c in view.legal if not isinstance(c, Knock)]
        if others:
            return others[0]
    return choice


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": play.RandomBot,
    "heuristic": lambda seed: HeuristicBot(),
    "searcher": lambda seed: SearchBot(seed),
}
"""The built-in bots by name, each made from a seed."""
