"""A seat's view and events never carry another seat's cards nor the stock's order."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot
from tenpennies.engine.ten_pennies import Card, Game, HouseRules
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.bots import GreedyBot


def cards_in(obj: object) -> set[int]:
    """Every card id reachable from a view, event or command."""
    if isinstance(obj, Card):
        return {obj.id}
    if isinstance(obj, (tuple, list, set, frozenset)):
        return set().union(*(cards_in(x) for x in obj)) if obj else set()
    if isinstance(obj, dict):
        return cards_in(list(obj.values()))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return cards_in([getattr(obj, f.name) for f in dataclasses.fields(obj)])
    return set()


def play(seats: int, seed: int, on_step: Callable[[Game, list[ev.Event], set[int]], None]) -> Game:
    game = Game(seats, HouseRules(max_turns=60), seed)
    bots: list[Bot] = [GreedyBot() if s % 2 else RandomBot(seed + s) for s in range(seats)]
    while not game.over:
        seat = game.to_act()[0]
        pile_before = {c.id for c in game.pile}
        events = game.apply(bots[seat].choose(game.view(seat)))
        on_step(game, events, pile_before)
    return game


@pytest.mark.parametrize("seats,seed", [(2, 1), (4, 2), (8, 3)])
def test_a_view_holds_only_the_seats_hand_the_table_and_the_top_of_the_pile(seats: int, seed: int) -> None:
    def check(game: Game, events: list[ev.Event], pile_before: set[int]) -> None:
        public = {c.id for t in game.table for c in t.cards} | ({game.pile[-1].id} if game.pile else set())
        for seat in list(range(seats)) + [None]:
            view = game.view(seat)
            own = {c.id for c in view.hand}
            assert cards_in(view) <= own | public, f"seat {seat} sees cards it may not"
            assert view.stock_size == len(game.stock)
        assert game.view(None).hand == () and game.view(None).legal == ()
    play(seats, seed, check)


@pytest.mark.parametrize("seats,seed", [(3, 4), (6, 5)])
def test_public_events_carry_only_face_up_cards_and_private_ones_go_to_their_seat(seats: int, seed: int) -> None:
    counts = {"private": 0, "public": 0}

    def check(game: Game, events: list[ev.Event], pile_before: set[int]) -> None:
        face_up = {c.id for t in game.table for c in t.cards} | {c.id for c in game.pile} | pile_before
        stock = {c.id for c in game.stock}
        # a step that ends a round also deals the next: the state after it tells only of the new round
        start = max((i for i, e in enumerate(events) if isinstance(e, ev.RoundStarted)), default=0)
        for event in events[start:]:
            if event.to is not None:
                counts["private"] += 1
                assert isinstance(event, (ev.CardsReceived, ev.BuyAnswered))
                assert event.visible_to(event.to) and not event.visible_to(None)
                assert all(event.visible_to(s) == (s == event.to) for s in range(seats))
                continue
            counts["public"] += 1
            shown = cards_in(event)
            assert not shown & stock, f"{event} names stock cards"
            if not isinstance(event, ev.RoundEnded):  # a round's end shows the hands, as at a table
                assert shown <= face_up, f"{event} shows a hidden card"
    play(seats, seed, check)
    assert counts["private"] and counts["public"]


def test_no_event_or_view_names_the_seed_or_the_stock() -> None:
    game = Game(4, seed=123456789)
    for event in game.opening_events:
        assert "123456789" not in repr(event)
    fields = {f.name for f in dataclasses.fields(game.view(0))}
    assert not fields & {"seed", "stock", "rng"}


def test_a_seat_outside_the_table_has_no_view() -> None:
    from tenpennies.engine.ten_pennies import RuleError
    with pytest.raises(RuleError, match="TP-1.1"):
        Game(2).view(2)


def test_random_seat_views_never_include_other_hands() -> None:
    rng = random.Random(0)
    for seed in range(20):
        game = Game(rng.randint(2, 8), seed=seed)
        for seat in range(game.n):
            mine = cards_in(game.view(seat))
            for other in range(game.n):
                if other != seat:
                    assert not mine & {c.id for c in game.players[other].hand}
