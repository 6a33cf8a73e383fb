"""The listed meld candidates: always legal, bounded, and never missing a contract that exists."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tenpennies.engine.cards import parse_cards, shoe
from tenpennies.engine.ten_pennies import Card, Command, HouseRules, LayContract, LayOff, LaySet, RoundSpec, RuleError
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.melds import (
    MAX_CANDIDATES,
    TableSet,
    check_set,
    contract_candidates,
    layoff_error,
    set_candidates,
    set_error,
)
from tenpennies.engine.ten_pennies.rules import LATER_SET_WILDS

from positions import position


def brute_force_has_contract(hand: list[Card], spec: RoundSpec, rules: HouseRules) -> bool:
    """Try every way of picking the contract's sets from the hand."""
    k, size = spec.contract.sets, spec.contract.size

    def ok(cards: Sequence[Card]) -> bool:
        try:
            check_set(cards, spec, rules)
            return True
        except RuleError:
            return False

    def search(remaining: list[Card], left: int) -> bool:
        if left == 0:
            return True
        for n in range(size, len(remaining) + 1):
            for chosen in combinations(remaining, n):
                if ok(chosen):
                    ids = {c.id for c in chosen}
                    if search([c for c in remaining if c.id not in ids], left - 1):
                        return True
        return False

    return search(hand, k)


# few ranks, so that contracts are common; 2s, aces and jokers are wild in some rounds
POOL = [c.id for c in shoe(2) if c.rank in (2, 5, 7, 14, 15)]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(POOL), min_size=3, max_size=10, unique=True), st.integers(1, 7),
       st.sampled_from(["standard", "deuces"]), st.booleans(), st.booleans())
def test_a_contract_is_listed_whenever_one_can_be_laid(ids: list[int], round_no: int, preset: str, distinct: bool,
                                                       all_wild: bool) -> None:
    rules = HouseRules(preset=preset, distinct_suits=distinct, all_wild_sets=all_wild)
    spec = rules.round(round_no)
    hand = [Card.from_id(i) for i in ids]
    listed = contract_candidates(hand, spec, rules)
    assert bool(listed) == brute_force_has_contract(hand, spec, rules)
    event("contract found" if listed else "no contract")
    for sets in listed:
        assert len(sets) == spec.contract.sets
        assert all(len(s) >= spec.contract.size for s in sets)
        for s in sets:
            check_set(s, spec, rules)
        laid = [c.id for s in sets for c in s]
        assert len(laid) == len(set(laid)) and set(laid) <= set(ids)


def test_splitting_one_rank_into_two_sets_keeps_a_suit_for_each() -> None:
    rules = HouseRules()
    hand = [Card.parse(t) for t in "7C 7D 7H 7H.1 7S 7S.1".split()]
    listed = contract_candidates(hand, rules.round(1), rules)
    assert listed, "7C 7D 7H | 7H.1 7S 7S.1 ... two sets of sevens exist"


def test_a_hand_full_of_wild_cards_lists_a_bounded_number_of_melds() -> None:
    wilds = [c for c in shoe(4) if c.rank in (2, 14, 15)]  # 40 wild cards in round 5
    naturals = [c for c in shoe(4) if c.rank in (5, 6, 7, 8)][:30]
    game = position(8, round=5, hands={0: " ".join(c.text for c in wilds + naturals)})
    commands = game.legal_commands(0)
    contracts = [c for c in commands if isinstance(c, LayContract)]
    assert 0 < len(contracts) <= MAX_CANDIDATES
    for command in contracts[:5]:
        assert game.is_legal(command)
    game.apply(contracts[0])
    assert len(set_candidates(game.players[0].hand, game.spec, game.rules)) <= 4 * 16 + 1


def test_candidates_respect_discard_to_go_out() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H"}, discard_to_go_out=True)
    assert all(not isinstance(c, LayContract) for c in game.legal_commands(0))
    game = position(hands={0: "5C 5D 5H 8C 8D 8H"})
    assert any(isinstance(c, LayContract) for c in game.legal_commands(0))
    assert game.phase is Phase.MELD


def refusal(command: Command, **position_of: object) -> RuleError | None:
    """What the game says to ``command`` in the position: its RuleError, or None when it is laid."""
    game = position(**position_of)  # type: ignore[arg-type]
    try:
        game.apply(command)
    except RuleError as error:
        return error
    return None


# a second set good in every round of two sets (3, 4 or 5 cards, a wild where five are needed), of copies
# that POOL never holds
SEVENS_AND_WILDS = [i for i in POOL if Card.from_id(i).rank in (7, 2, 14, 15)]  # sets that may well be good
SECOND_SET = {3: "9C.2 9D.2 9H.2", 4: "9C.2 9D.2 9H.2 9S.2", 5: "9C.2 9D.2 9H.2 9S.2 AC.3"}


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.sampled_from(POOL), min_size=1, max_size=7, unique=True),
                 st.lists(st.sampled_from(SEVENS_AND_WILDS), min_size=3, max_size=7, unique=True)),
       st.integers(1, 7), st.sampled_from(["standard", "deuces"]), st.booleans(), st.booleans(),
       st.sampled_from(LATER_SET_WILDS), st.booleans())
def test_set_error_is_the_refusal_the_game_gives(ids: list[int], round_no: int, preset: str, distinct: bool,
                                                 all_wild: bool, later: str, down: bool) -> None:
    """The client asks set_error before it sends: it must say exactly what the game says when laid."""
    knobs = dict(preset=preset, distinct_suits=distinct, all_wild_sets=all_wild, later_set_wilds=later)
    rules = HouseRules(**knobs)  # type: ignore[arg-type]
    spec = rules.round(round_no)
    cards = tuple(Card.from_id(i) for i in ids)
    hand = " ".join(c.text for c in cards) + " KD.2"  # a card left to discard
    command: Command
    if down:
        command = LaySet(0, cards)
        expected = set_error(command.cards, spec, rules)  # (a command keeps its cards in a canonical order)
    else:
        others = () if spec.contract.sets == 1 else (tuple(parse_cards(SECOND_SET[spec.contract.size])),)
        hand += "".join(" " + c.text for s in others for c in s)
        command = LayContract(0, (cards, *others))
        tested = next(s for s in command.sets if set(s) == set(cards))
        expected = set_error(tested, spec, rules, contract=True)
    said = refusal(command, seats=8, round=round_no, hands={0: hand}, down=(0,) if down else (), **knobs)
    event("refused" if said else "laid")
    assert (str(expected) if expected else None) == (str(said) if said else None)


@pytest.mark.parametrize("card, target, knobs, rule", [
    ("5H", "5C 5D 5S", {}, None),
    ("5C.1", "5C 5D 5S", {}, "TP-4.9"),
    ("5C.1", "5C 5D 5S", {"distinct_suits": False}, None),
    ("7C", "5C 5D 5S", {}, "TP-4.13"),
    ("JK.1", "5C 5D JK", {}, None),
    ("JK.1", "5C 5D JK", {"wild_layoff_cap": True}, "TP-4.13"),
    ("5H", "JK JK.1 JK.2", {}, "TP-4.10"),
])
def test_layoff_error_is_the_refusal_the_game_gives(card: str, target: str, knobs: dict[str, object],
                                                    rule: str | None) -> None:
    rules = HouseRules(**knobs)  # type: ignore[arg-type]
    spec = rules.round(1)
    expected = layoff_error(Card.parse(card), TableSet(0, 1, parse_cards(target), spec.wild_ranks), spec, rules)
    assert (expected.rule if expected else None) == rule
    said = refusal(LayOff(0, Card.parse(card), 0), seats=8, hands={0: f"{card} KD.2"}, down=(0,),
                   sets=[(1, target)], **knobs)
    assert (str(expected) if expected else None) == (str(said) if said else None)


def test_a_contract_set_too_small_cites_tp_4_11_before_the_set_rules() -> None:
    rules = HouseRules()
    error = set_error(tuple(parse_cards("JD JS JS.1")), rules.round(2), rules, contract=True)
    assert error is not None and error.rule == "TP-4.11" and "a set of 3 is too small" in str(error)
    error = set_error(tuple(parse_cards("JD JS JS.1 JH")), rules.round(1), rules, contract=True)
    assert error is not None and error.rule == "TP-4.9", error  # the newcomer's four jacks of two decks
    assert set_error(tuple(parse_cards("JD JS JH")), rules.round(1), rules, contract=True) is None
