"""The engine's fold (engine/ten_pennies/fold.py) against the engine's own views, over many seeded games:
every seat and a spectator, folding only the events it may see, knows after every command exactly what
``Game.view`` shows it, but for what a fold cannot know (the legal commands; other seats' buy answers)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Iterator

from tenpennies.engine.cards import decks_for
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot
from tenpennies.engine.ten_pennies import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    HouseRules,
    Known,
    PassBuy,
    Phase,
    SeatView,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.fold import fold, opening


def random_table(rng: random.Random) -> tuple[int, HouseRules, int]:
    """Any table; one in three small and long-handed, so that the stock runs out and is rebuilt."""
    if rng.random() < 0.35:
        seats = rng.randint(2, 3)
        hand_size = rng.randint(12, 20)
        max_turns = 300
    else:
        seats = rng.randint(2, 8)
        hand_size = rng.randint(3, min(11, (decks_for(seats) * 54 - 1) // seats))
        max_turns = rng.randint(1, 40)
    rules = HouseRules(
        preset=rng.choice(["standard", "deuces"]), distinct_suits=rng.random() < 0.7,
        all_wild_sets=rng.random() < 0.7, wild_layoff_cap=rng.random() < 0.3, discard_to_go_out=rng.random() < 0.3,
        later_set_wilds="one_per_three" if rng.random() < 0.3 else "round_cap", hand_size=hand_size,
        buy_pennies=rng.randint(0, 10), buy_penalty_cards=rng.randint(0, 5), reshuffles=rng.randint(0, 4),
        max_turns=max_turns, rounds=tuple(sorted(rng.sample(range(1, 8), rng.randint(1, 2)))))
    return seats, rules, rng.randrange(2**32)


PLAIN = (DeclineDiscard, Buy, PassBuy, Draw, Discard)


def played(seats: int, rules: HouseRules, seed: int) -> Iterator[tuple[Game, Command, list[ev.Event]]]:
    """A whole game: random and greedy bots, or (one game in four) players who never meld and often buy,
    so that buys' penalty cards run the stock out. Any awaited seat acts, as over the network."""
    game = Game(seats, rules, seed)
    rng = random.Random(seed)
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 == 0 else GreedyBot() for s in range(seats)]
    plain = seed % 4 == 0
    while not game.over:
        seat = rng.choice(game.to_act())
        command: Command
        if plain:
            command = rng.choice([c for c in game.legal_commands(seat) if isinstance(c, PLAIN)])
        else:
            command = bots[seat].choose(game.view(seat))
        yield game, command, game.apply(command)


def expected(truth: SeatView) -> SeatView:
    """What a fold of ``truth.seat``'s events shows: no legal commands, and while a buy offer is open every
    offered seat but this one once it has answered (the others' answers are private, TP-4.7)."""
    seat = truth.seat
    to_act = truth.to_act
    if truth.phase is Phase.BUY:
        to_act = tuple(s for s in truth.buy_offer if s != seat or s in truth.to_act)
    return dataclasses.replace(truth, legal=(), to_act=to_act)


def fold_all(known: Known, events: list[ev.Event]) -> Known:
    for event in events:
        if event.visible_to(known.view.seat):
            before = known.view
            kept = dataclasses.replace(before)
            known = fold(known, event)
            assert before == kept, f"folding {event} changed a view already handed out"
    return known


def test_every_seats_fold_of_its_events_is_its_view_after_every_command() -> None:
    rng = random.Random(13)
    kinds: Counter[str] = Counter()
    commands = 0
    for _ in range(120):
        seats, rules, seed = random_table(rng)
        audience: list[int | None] = [*range(seats), None]
        game = Game(seats, rules, seed)
        # two starts: the view at the start, and the game's opening events from nothing
        from_view = {s: Known.of(game.view(s)) for s in audience}
        started = game.opening_events[0]
        assert isinstance(started, ev.GameStarted)
        from_start = {s: fold_all(opening(s, started), game.opening_events) for s in audience}
        for s in audience:
            assert from_view[s].view == game.view(s)  # (legal commands and all, until an event ends them)
            assert from_start[s].view == expected(game.view(s))
        for game, command, events in played(seats, rules, seed):
            commands += 1
            kinds.update(type(e).__name__ for e in events)
            kinds["rebuilt by a buy"] += any(isinstance(a, ev.StockRebuilt) and isinstance(b, ev.CardBought)
                                             for a, b in itertools.pairwise(events))
            for s in audience:
                truth = expected(game.view(s))
                for folds in (from_view, from_start):
                    folds[s] = fold_all(folds[s], events)
                    assert folds[s].view == truth, f"seat {s} after {command} ({seats} seats, seed {seed})"
                    assert folds[s].pile == tuple(game.pile)  # every discard is face up: seen from the deal
        assert not from_view[None].view.hand
    assert commands > 10_000
    assert kinds["rebuilt by a buy"] and kinds["StockRebuilt"] > 10 and kinds["CardBought"] > 100
    assert kinds["LaidOff"] > 100 and kinds["SetLaid"] and kinds["ContractLaid"] and kinds["WentOut"]


def test_a_fold_begun_mid_round_knows_the_pile_only_from_its_top() -> None:
    """Started from a view mid-round (a snapshot's), a fold is exact but for the card under a taken or
    bought one it never saw: then the top of the pile is unknown (None) until the next discard."""
    rng = random.Random(31)
    unknown = 0
    for _ in range(60):
        seats, rules, seed = random_table(rng)
        join_at = rng.randint(5, 60)
        folds: dict[int | None, Known] = {}
        for step, (game, _, events) in enumerate(played(seats, rules, seed)):
            if not folds and step >= join_at and game.phase is not Phase.BUY:
                # joins here (not while a buy offer is open: the answers given so far are in no view)
                folds = {s: Known.of(game.view(s)) for s in [*range(seats), None]}
                continue
            for s, known in folds.items():
                known = folds[s] = fold_all(known, events)
                truth = expected(game.view(s))
                assert known.pile == tuple(game.pile[len(game.pile) - len(known.pile):])
                if known.pile or not truth.pile_size:
                    assert known.view == truth
                else:
                    unknown += 1
                    assert known.view == dataclasses.replace(truth, discard_top=None)
    assert unknown > 20


def test_an_event_that_changes_nothing_returns_the_same_knowledge() -> None:
    game = Game(3, HouseRules(), 4)
    known = Known.of(game.view(0))
    known = fold(known, ev.TurnStarted(known.view.turn_seat, known.view.turn))  # drops the legal commands
    assert not known.view.legal
    assert fold(known, ev.WentOut(1)) is known and fold(known, ev.DealerDraw(1, game.pile[-1], 0)) is known
    assert fold(known, ev.CardsReceived(1, (game.pile[-1],), "draw")) is known  # another seat's cards: unseen
