"""The listed meld candidates: always legal, bounded, and never missing a contract that exists."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tenpennies.engine import Card, HouseRules, LayContract, RoundSpec, RuleError
from tenpennies.engine.cards import shoe
from tenpennies.engine.game import Phase
from tenpennies.engine.melds import MAX_CANDIDATES, check_set, contract_candidates, set_candidates

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
