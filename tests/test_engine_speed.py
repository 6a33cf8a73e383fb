"""The engine's fast paths give the answers of the slow ones they stand for: a copy plays on exactly as a
replay of its log from the seed does, the listing's quick ways out never leave out a meld, and the checks'
quick yes is given only to commands the full checks (and the listing) call legal."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenpennies.engine.cards import Card, decks_for, shoe
from tenpennies.engine.ten_pennies import (
    Buy,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    HouseRules,
    LayOff,
    LaySet,
    PassBuy,
    RuleError,
    TakeDiscard,
    parse_cards,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.melds import (
    TableSet,
    _search_contracts,
    _search_sets,
    cards_laid_off,
    contract_candidates,
    layoff_refusal,
    set_candidates,
)
from tenpennies.engine.ten_pennies.rules import LATER_SET_WILDS

from positions import position


def random_move(game: Game, rng: random.Random) -> Command:
    return rng.choice(game.legal_commands(rng.choice(game.to_act())))


def short_rules(seed: int) -> HouseRules:
    """Short games that still reach new rounds and reshuffles (a small stock: big hands, few turns)."""
    return HouseRules(rounds=(1, 5, 7), max_turns=60, hand_size=11 + seed % 3,
                      preset="deuces" if seed % 2 else "standard", reshuffles=seed % 3,
                      buy_penalty_cards=2 + seed % 2)


# --- Game.copy: a snapshot of the generator's state, fresh containers --------------------------------

@pytest.mark.parametrize("seed", range(16))
def test_a_copy_played_on_is_the_replay_of_its_log(seed: int) -> None:
    """Copies taken along a random game, each played on at random to the end: every event it gives and its
    final state are those of the game replayed (every command checked) from the seed and the copy's log.
    The original is left as it was, and a copy of a copy (before and after it draws) is no different."""
    rng = random.Random(seed)
    seats = 2 + seed % 7
    rules = short_rules(seed)
    game = Game(seats, rules, seed)
    copies = 0
    while not game.over:
        if rng.random() < 0.05:
            before = game.to_dict()
            copy = game.copy()
            if rng.random() < 0.5:
                copy = copy.copy()  # a copy of a copy that has not drawn yet
            played: list[ev.Event] = []
            while not copy.over:
                played += copy.apply(random_move(copy, rng))
                if rng.random() < 0.01:
                    copy = copy.copy()
            assert game.to_dict() == before, "playing the copy changed the original"
            replayed = Game(seats, rules, seed)
            again: list[ev.Event] = []
            for i, command in enumerate(copy.log):
                events = replayed.apply(command)
                if i >= len(game.log):
                    again += events
            assert again == played
            assert replayed.to_dict() == copy.to_dict()
            assert replayed.result == copy.result
            copies += 1
        game.apply(random_move(game, rng))
    assert copies, "the test took no copy"


def test_a_copy_and_its_original_shuffle_alike_and_apart() -> None:
    """The generator's state is shared until one of them draws; from then each has its own."""
    game = Game(4, HouseRules(rounds=(1, 2), max_turns=3), 5)
    copy = game.copy()
    for target in (game, copy):  # end the round: the next deal shuffles
        while target.round_number == 1:
            seat = target.to_act()[0]
            target.apply(target.legal_commands(seat)[-1])
    assert [p.hand for p in game.players] == [p.hand for p in copy.players]
    assert game.stock == copy.stock and game.rng is not copy.rng
    assert game.rng.getstate() == copy.rng.getstate()
    game.rng.random()
    assert game.rng.getstate() != copy.rng.getstate() and game.to_dict() != copy.to_dict()


def test_a_game_read_back_keeps_its_generator_state() -> None:
    game = Game(3, HouseRules(), 9)
    rng = random.Random(1)
    for _ in range(150):
        game.apply(random_move(game, rng))
    back = Game.from_dict(game.to_dict())
    assert back.to_dict() == game.to_dict()
    while not game.over:
        command = random_move(game, rng)
        assert back.apply(command) == game.apply(command)
    bad = game.to_dict()
    bad["rng"][1] = bad["rng"][1][:10]
    with pytest.raises((ValueError, TypeError)):
        Game.from_dict(bad)


def test_the_sets_a_copy_shares_are_copied_by_the_first_game_to_change_them() -> None:
    """A lay-off, or a set laid, in either game leaves the other's table as it was."""
    game = position(hands={0: "9D KS 5C 5D 5H 4C", 1: "3C"}, down=(0,), sets=[(1, "9C 9H 9S"), (0, "KC KD KH")])
    copy = game.copy()
    game.apply(LayOff(0, Card.parse("9D"), 0))
    assert [len(t.cards) for t in copy.table] == [3, 3] and [len(t.cards) for t in game.table] == [4, 3]
    copy.apply(LayOff(0, Card.parse("KS"), 1))
    assert [len(t.cards) for t in copy.table] == [3, 4] and [len(t.cards) for t in game.table] == [4, 3]
    again = copy.copy()
    again.apply(LaySet(0, tuple(parse_cards("5C 5D 5H"))))
    assert len(again.table) == 3 and len(copy.table) == 2 and copy.table[0].suits == {"C", "H", "S"}
    assert copy.to_dict() != again.to_dict() and game.view(1).table != copy.view(1).table


# --- the listing's quick ways out ---------------------------------------------------------------------

FEW_RANKS = [c for c in shoe(3) if c.rank in (2, 5, 7, 9, 14, 15)]  # many sets and many wilds
ANY_CARD = shoe(4)


def any_rules() -> st.SearchStrategy[HouseRules]:
    return st.builds(HouseRules, preset=st.sampled_from(["standard", "deuces"]), distinct_suits=st.booleans(),
                     all_wild_sets=st.booleans(), later_set_wilds=st.sampled_from(list(LATER_SET_WILDS)))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FEW_RANKS), max_size=24, unique=True)
       | st.lists(st.sampled_from(ANY_CARD), max_size=40, unique=True),
       st.integers(1, 7), any_rules(), st.integers(3, 7))
def test_the_quick_way_out_never_leaves_out_a_meld(hand: list[Card], round_no: int, rules: HouseRules,
                                                    size: int) -> None:
    spec = rules.round(round_no)
    assert contract_candidates(hand, spec, rules) == _search_contracts(hand, spec, rules, 48)
    assert set_candidates(hand, spec, rules, size) == _search_sets(hand, spec, rules, size)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(FEW_RANKS), min_size=1, max_size=12, unique=True),
       st.lists(st.sampled_from(FEW_RANKS), max_size=20, unique=True), st.integers(1, 7), any_rules(),
       st.booleans())
def test_cards_laid_off_are_those_layoff_refusal_lets_go(on_table: list[Card], hand: list[Card], round_no: int,
                                                        rules: HouseRules, capped: bool) -> None:
    rules = HouseRules(**{**rules.to_dict(), "rounds": tuple(rules.rounds), "wild_layoff_cap": capped})
    spec = rules.round(round_no)
    hand = [c for c in hand if c not in on_table]
    target = TableSet(0, 0, on_table, spec.wild_ranks)  # not always a legal set: the judge is the same
    assert cards_laid_off(hand, target, spec, rules) == [
        c for c in hand if layoff_refusal(c, target, spec, rules) is None]


# --- the checks' quick yes ----------------------------------------------------------------------------

def every_simple_command(game: Game) -> list[Command]:
    """Every command a seat could send that the listing lists in full (all but melds): of every seat, for
    every card of the shoe, in whatever phase the game is in."""
    commands: list[Command] = []
    for seat in range(game.seats):
        commands += [TakeDiscard(seat), DeclineDiscard(seat), Draw(seat), Buy(seat), PassBuy(seat)]
        commands += [Discard(seat, card) for card in shoe(decks_for(game.seats))]
    return commands


@pytest.mark.parametrize("seed", range(6))
def test_a_command_is_legal_exactly_when_it_is_listed(seed: int) -> None:
    """For every command but melds (whose listing is bounded), the checks accept exactly what the listing
    lists, in every state of random games; listed melds are all accepted. A refusal leaves the game as it was."""
    rng = random.Random(seed)
    seats = 2 + seed % 4
    game = Game(seats, short_rules(seed), seed)
    while not game.over:
        if rng.random() > 0.3:  # three states in ten, at random
            game.apply(random_move(game, rng))
            continue
        listed = {seat: game.legal_commands(seat) for seat in range(seats)}
        for command in every_simple_command(game):
            assert game.is_legal(command) == (command in listed[command.seat]), command
        for commands in listed.values():
            assert all(game.is_legal(command) for command in commands)
        if rng.random() < 0.3:
            before = game.to_dict()
            wrong = rng.choice([c for c in every_simple_command(game) if c not in listed[c.seat]])
            with pytest.raises(RuleError):
                game.apply(wrong)
            assert game.to_dict() == before
        game.apply(random_move(game, rng))


# --- events made without the frozen dataclass's own __init__ -------------------------------------------

EVENT_CLASSES = [c for c in vars(ev).values()
                 if isinstance(c, type) and issubclass(c, ev.Event) and dataclasses.is_dataclass(c)]


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda c: c.__name__)
def test_an_event_is_made_as_its_dataclass_makes_it(cls: Any) -> None:
    """Same parameters (by position or by name, none missing, none extra), every field set, still frozen."""
    names = [f.name for f in dataclasses.fields(cls)]
    values = [object() for _ in names]
    made = cls(*values)
    assert [getattr(made, name) for name in names] == values
    assert cls(**dict(zip(names, values, strict=True))) == made == dataclasses.replace(made)
    assert repr(made).startswith(f"{cls.__name__}(")
    with pytest.raises(TypeError):
        cls(*values[:-1])
    with pytest.raises(TypeError):
        cls(*values, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, names[0], None)
    assert len(EVENT_CLASSES) >= 20
