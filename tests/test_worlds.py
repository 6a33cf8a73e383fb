"""Game.copy, and worlds sampled from a seat's view (engine/ten_pennies/worlds.py)."""

from __future__ import annotations

import random

import pytest

from tenpennies.engine.cards import decks_for
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot, play_game
from tenpennies.engine.ten_pennies import Game, HouseRules
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.worlds import SeatMemory, sample_world


def card_ids(game: Game) -> list[int]:
    return sorted([c.id for p in game.players for c in p.hand] + [c.id for c in game.stock]
                  + [c.id for c in game.pile] + [c.id for t in game.table for c in t.cards])


def mixed_bots(seats: int, seed: int) -> list[Bot]:
    return [RandomBot(seed * 10 + s) if s % 2 else GreedyBot() for s in range(seats)]


def advance(game: Game, bots: list[Bot], commands: int) -> None:
    for _ in range(commands):
        if game.over:
            return
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game.view(seat)))


# --- Game.copy ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_copy_shares_nothing_and_plays_on_identically(seed: int) -> None:
    seats = 2 + seed % 7
    rules = HouseRules(rounds=(1, 5), max_turns=40, preset="deuces" if seed % 2 else "standard")
    game = Game(seats, rules, seed)
    advance(game, mixed_bots(seats, seed), 30 + 17 * seed)
    before = game.to_dict()
    copy = game.copy()
    assert copy.to_dict() == before
    # no mutable object in common
    assert copy.players is not game.players and copy.log is not game.log and copy.rng is not game.rng
    assert copy.stock is not game.stock and copy.pile is not game.pile and copy.table is not game.table
    assert copy.buy_order is not game.buy_order and copy.buy_answers is not game.buy_answers
    for mine, theirs in zip(copy.players, game.players, strict=True):
        assert mine is not theirs and mine.hand is not theirs.hand
    for mine_set, their_set in zip(copy.table, game.table, strict=True):
        assert mine_set is not their_set and mine_set.cards is not their_set.cards
        assert mine_set.suits is not their_set.suits
    # playing the copy on leaves the original as it was
    play_game(copy, mixed_bots(seats, seed + 1))
    assert copy.over and game.to_dict() == before
    # and a copy plays exactly as its original from the same point (same cards drawn, same reshuffles)
    again = game.copy()
    play_game(again, mixed_bots(seats, seed + 2))
    play_game(game, mixed_bots(seats, seed + 2))
    assert again.to_dict() == game.to_dict()


def test_copy_of_a_copy_and_of_an_open_buy_offer() -> None:
    game = Game(4, HouseRules(rounds=(1,)), 3)
    bots = mixed_bots(4, 3)
    while game.phase is not Phase.BUY or len(game.to_act()) < 3:
        advance(game, bots, 1)
    first = game.to_act()[0]
    copy = game.copy().copy()
    copy.apply(copy.legal_commands(first)[1])  # pass
    assert first in game.to_act() and first not in copy.to_act()


# --- worlds ------------------------------------------------------------------------------------------

def check_world(game: Game, seat: int, memory: SeatMemory | None, rng: random.Random) -> None:
    view = game.view(seat)
    world = sample_world(view, rng, memory)
    assert world.view(seat) == view
    assert card_ids(world) == list(range(decks_for(game.n) * 54))  # every card once
    if memory is not None:
        for other, cards in enumerate(memory.known):
            assert cards <= set(world.players[other].hand)   # known cards sit where they are known to be
            assert cards <= set(game.players[other].hand)    # and the memory is right about them
        for known_card, world_card, real in zip(memory.pile, world.pile, game.pile, strict=True):
            assert known_card is None or known_card is world_card is real
    # the world plays on by the rules
    advance(world, [GreedyBot()] * game.n, 6)


def watched_game(seats: int, rules: HouseRules, seed: int, rng: random.Random, *, every: int,
                 late: bool = False, choose_only: bool = False) -> tuple[int, int]:
    """Play a game where every seat keeps a memory; sample worlds for every seat every ``every`` commands.
    ``late``: the memories start watching only after a while; ``choose_only``: a seat's memory sees only
    the views its seat decides on. Returns (worlds checked, cards known in other hands, summed)."""
    game = Game(seats, rules, seed)
    bots = mixed_bots(seats, seed)
    memories = [SeatMemory(s) for s in range(seats)]
    start = rng.randrange(20, 80) if late else 0
    checked = known = 0
    step = 0
    while not game.over:
        step += 1
        seat = game.to_act()[0]
        view = game.view(seat)
        if step > start and choose_only:
            memories[seat].observe(view)
        game.apply(bots[seat].choose(view))
        if game.over or step <= start:
            continue
        if not choose_only:
            for s in range(seats):
                memories[s].observe(game.view(s))
        if step % every == 0:
            for s in range(seats):
                memory = memories[s] if memories[s].last == game.view(s) else None
                check_world(game, s, memory, rng)
                checked += 1
                known += sum(len(k) for k in memory.known) if memory else 0
    return checked, known


def test_sampled_worlds_never_contradict_the_view_over_many_games() -> None:
    rng = random.Random(8)
    checked = known = 0
    for seed in range(40):
        seats = rng.randint(2, 8)
        rules = HouseRules(rounds=tuple(sorted(rng.sample(range(1, 8), 2))), max_turns=rng.randint(10, 40),
                           preset=rng.choice(["standard", "deuces"]), reshuffles=rng.randint(0, 2),
                           buy_penalty_cards=rng.randint(0, 3), hand_size=rng.randint(5, 11))
        c, k = watched_game(seats, rules, seed, rng, every=9)
        checked += c
        known += k
    assert checked > 500 and known > 100  # the memories do learn cards in other hands


def test_worlds_for_a_seat_that_joined_late_or_sees_only_its_decisions() -> None:
    rng = random.Random(9)
    for seed in range(8):
        rules = HouseRules(rounds=(2, 6), max_turns=30, reshuffles=1 + seed % 2)
        watched_game(3 + seed % 5, rules, seed, rng, every=5, late=True)
        watched_game(3 + seed % 5, rules, seed, rng, every=5, choose_only=True)


def test_memory_knows_a_taken_card_and_the_pile_below_the_top() -> None:
    game = Game(4, HouseRules(rounds=(1,)), 21)
    memories = [SeatMemory(s) for s in range(4)]
    for s in range(4):
        memories[s].observe(game.view(s))
    # two discards, then the next seat takes the live card: the others know it is in that hand
    taker = None
    for _ in range(200):
        seat = game.to_act()[0]
        legal = game.legal_commands(seat)
        if game.phase is Phase.PICK_UP and len(game.pile) >= 3:
            command = legal[0]  # take
            taker, card = seat, game.pile[-1]
        elif game.phase is Phase.PICK_UP or game.phase is Phase.BUY:
            command = legal[1]  # decline / pass
        else:
            command = legal[-1]  # draw, or discard the last card listed
        game.apply(command)
        for s in range(4):
            memories[s].observe(game.view(s))
        if taker is not None:
            break
    assert taker is not None
    for s in range(4):
        if s != taker:
            assert card in memories[s].known[taker]
            assert memories[s].pile == game.pile  # the whole pile is known to a seat that watched it all
    fresh = SeatMemory(0)
    fresh.observe(game.view(0))
    assert fresh.pile[:-1] == [None] * (len(game.pile) - 1) and fresh.pile[-1] is game.pile[-1]
    world = sample_world(game.view(0), random.Random(1), fresh)
    assert world.view(0) == game.view(0)


def test_sample_world_refuses_a_spectator_and_a_stale_memory() -> None:
    game = Game(3, HouseRules(rounds=(1,)), 2)
    with pytest.raises(ValueError):
        sample_world(game.view(None), random.Random(0))
    memory = SeatMemory(1)
    memory.observe(game.view(1))
    advance(game, mixed_bots(3, 2), 3)
    with pytest.raises(ValueError):
        sample_world(game.view(1), random.Random(0), memory)


def test_same_seed_same_world() -> None:
    game = Game(5, HouseRules(rounds=(3,)), 4)
    advance(game, mixed_bots(5, 4), 25)
    seat = game.to_act()[0]
    a = sample_world(game.view(seat), random.Random(77))
    b = sample_world(game.view(seat), random.Random(77))
    assert a.to_dict() == b.to_dict()
