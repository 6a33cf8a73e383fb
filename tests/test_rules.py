"""One test (or a few) per numbered rule of docs/RULES.md, named after it; every knob both ways."""

from __future__ import annotations

from typing import Any

import pytest

from tenpennies.engine.cards import ACE, JOKER, decks_for, shoe
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    Game,
    HouseRules,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    RuleError,
    TakeDiscard,
    parse_cards,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.game import Phase

from positions import position, snapshot


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def rejected(game: Game, command: Command, rule: str) -> RuleError:
    """Assert the command is refused, citing ``rule``, and that nothing changed."""
    before = snapshot(game)
    with pytest.raises(RuleError) as info:
        game.apply(command)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(rule + ":")
    assert snapshot(game) == before
    assert not game.is_legal(command)
    return info.value


# --- TP-1 players, cards, decks ---------------------------------------------------------------------

@pytest.mark.parametrize("seats", [1, 9, 0])
def test_tp_1_1_a_game_has_2_to_8_seats(seats: int) -> None:
    with pytest.raises(RuleError, match="TP-1.1"):
        Game(seats)


def test_tp_1_1_left_of_a_seat_is_the_next_seat_clockwise() -> None:
    game = Game(3, seed=5)
    first = game.turn_seat
    assert first == (game.dealer + 1) % 3
    game.apply(TakeDiscard(first))
    game.apply(Discard(first, game.players[first].hand[0]))
    assert game.turn_seat == (first + 1) % 3


@pytest.mark.parametrize("seats,decks", [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4)])
def test_tp_1_2_the_shoe_is_ceil_n_over_2_decks_of_54(seats: int, decks: int) -> None:
    assert decks_for(seats) == decks
    game = Game(seats, seed=1)
    every = [c for p in game.players for c in p.hand] + game.stock + game.pile
    assert len(every) == 54 * decks
    assert len({c.id for c in every}) == 54 * decks  # each physical card once
    assert sum(1 for c in every if c.rank == JOKER) == 2 * decks


def test_tp_1_2_every_physical_card_has_its_own_identity() -> None:
    seven, other_seven = Card.parse("7H"), Card.parse("7H.1")
    assert seven != other_seven and seven.rank == other_seven.rank and seven.suit == other_seven.suit
    assert seven.text != other_seven.text and len({c.text for c in shoe(2)}) == 108


def test_tp_1_3_rank_order_for_the_dealer_draw_puts_jokers_above_aces() -> None:
    order = [Card.parse(t).rank for t in ("2C", "9C", "TC", "JC", "QC", "KC", "AC", "JK")]
    assert order == sorted(order) and Card.parse("JK").rank == JOKER > ACE


# --- TP-2 the game and its rounds ---------------------------------------------------------------

@pytest.mark.parametrize("round_no,sets,size,cap", [(1, 2, 3, 1), (2, 1, 4, 1), (3, 2, 4, 1), (4, 1, 5, 2),
                                                   (5, 2, 5, 2), (6, 1, 6, 2), (7, 1, 7, 3)])
def test_tp_2_1_contracts_and_wild_caps(round_no: int, sets: int, size: int, cap: int) -> None:
    for preset in ("standard", "deuces"):
        spec = HouseRules(preset=preset).round(round_no)
        assert (spec.contract.sets, spec.contract.size, spec.wild_cap) == (sets, size, cap)


def test_tp_2_1_wild_ranks_under_each_preset() -> None:
    standard, deuces = HouseRules(), HouseRules(preset="deuces")
    for r in (1, 2, 3, 4):
        assert standard.round(r).wild_ranks == {JOKER}
        assert deuces.round(r).wild_ranks == {2}
    for r in (5, 6, 7):
        assert standard.round(r).wild_ranks == deuces.round(r).wild_ranks == {JOKER, ACE, 2}


def test_tp_2_1_a_game_plays_seven_rounds_in_order() -> None:
    from tenpennies.engine.play import play_game
    from tenpennies.engine.ten_pennies.bots import GreedyBot
    seen: list[int] = []
    play_game(Game(3, seed=2), [GreedyBot()] * 3,
              on_events=lambda es: seen.extend(e.round for e in es if isinstance(e, ev.RoundEnded)))
    assert seen == [1, 2, 3, 4, 5, 6, 7]


def test_tp_2_1_deuces_jokers_are_natural_in_rounds_1_to_4() -> None:
    game = position(preset="deuces", round=1, hands={0: "JK JK.1 2C 5H 9D"}, down=(0,))
    spec = game.spec
    game.apply(LaySet(0, cards("JK JK.1 2C")))  # a set of natural jokers with one wild 2
    assert game.table[0].rank == JOKER and game.table[0].wilds == 1
    rejected(position(preset="deuces", round=1, hands={0: "JK 5C 5D 9D"}, down=(0,)),
             LaySet(0, cards("JK 5C 5D")), "TP-4.8")
    assert JOKER not in spec.wild_ranks


def test_tp_2_2_every_card_of_a_wild_rank_is_wild() -> None:
    game = position(round=5, hands={0: "AC 2D JK.1 5H 9D"}, down=(0,))
    game.apply(LaySet(0, cards("AC 2D JK.1")))  # all wild, so an all-wild set
    assert game.table[0].rank is None and game.table[0].wilds == 3


def test_tp_2_3_the_highest_draw_deals_and_ties_redraw_among_themselves() -> None:
    for seed in range(60):
        game = Game(4, seed=seed)
        draws = [e for e in game.opening_events if isinstance(e, ev.DealerDraw)]
        rounds = max(d.tie_break for d in draws)
        last = [d for d in draws if d.tie_break == rounds]
        best = max(d.card.rank for d in last)
        assert [d.seat for d in last if d.card.rank == best] == [game.dealer]
        for k in range(rounds):  # a redraw is among the seats tied for highest only
            tied = [d for d in draws if d.tie_break == k]
            top = max(d.card.rank for d in tied)
            assert sorted(d.seat for d in draws if d.tie_break == k + 1) == \
                sorted(d.seat for d in tied if d.card.rank == top)
    assert any(max(d.tie_break for d in Game(8, seed=s).opening_events if isinstance(d, ev.DealerDraw)) > 0
               for s in range(40)), "no seed produced a tie; the tie rule went untested"


def test_tp_2_3_the_deal_passes_left_after_each_round() -> None:
    from tenpennies.engine.play import play_game
    from tenpennies.engine.ten_pennies.bots import GreedyBot
    dealers: list[int] = []
    play_game(Game(3, seed=9), [GreedyBot()] * 3,
              on_events=lambda es: dealers.extend(e.dealer for e in es if isinstance(e, ev.RoundStarted)))
    first = Game(3, seed=9).dealer
    assert dealers == [(first + k) % 3 for k in range(1, 7)]


# --- TP-3 the deal ------------------------------------------------------------------------------

def test_tp_3_1_eleven_cards_each_one_at_a_time_from_left_of_dealer() -> None:
    game = Game(4, seed=11)
    assert [len(p.hand) for p in game.players] == [11] * 4
    # replay the shuffle: card k of the deal goes to seat dealer+1+k
    import random
    rng = random.Random(11)
    probe = Game.__new__(Game)
    probe.n, probe.rng = 4, rng
    probe._choose_dealer([])
    deck = shoe(2)
    rng.shuffle(deck)
    for k in range(44):
        assert game.players[(game.dealer + 1 + k) % 4].hand[k // 4] is deck.pop()


def test_tp_3_1_hand_size_knob() -> None:
    game = Game(5, HouseRules(hand_size=7), seed=1)
    assert [len(p.hand) for p in game.players] == [7] * 5
    with pytest.raises(RuleError, match="TP-3.1"):
        Game(2, HouseRules(hand_size=27))


def test_tp_3_2_the_upcard_starts_the_pile_and_the_rest_is_stock() -> None:
    game = Game(4, seed=3)
    upcard = next(e for e in game.opening_events if isinstance(e, ev.UpcardTurned)).card
    assert game.pile == [upcard] and game.pile_live
    assert len(game.stock) == 108 - 44 - 1


def test_tp_3_3_the_seat_left_of_the_dealer_plays_first() -> None:
    for seed in range(10):
        game = Game(5, seed=seed)
        assert game.to_act() == ((game.dealer + 1) % 5,) and game.phase is Phase.PICK_UP


# --- TP-4 a turn --------------------------------------------------------------------------------

def test_tp_4_1_only_the_live_top_card_can_be_taken() -> None:
    game = position(hands={0: "3C 4D", 1: "5H"}, pile="9S KD", phase=Phase.PICK_UP)
    game.apply(TakeDiscard(0))
    assert Card.parse("KD") in game.players[0].hand and game.pile == [Card.parse("9S")]
    rejected(game, TakeDiscard(0), "TP-4.1")  # the card below is not live, and the pick-up is over


def test_tp_4_1_a_card_stops_being_live_at_the_end_of_the_next_pick_up() -> None:
    game = position(hands={0: "3C 4D", 1: "5H 6H"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    for seat in (1, 2, 3):
        game.apply(PassBuy(seat))
    game.apply(Draw(0))
    assert not game.pile_live and not game.view(0).discard_live


def test_tp_4_2_the_player_may_take_the_live_discard_for_free() -> None:
    game = position(hands={0: "3C 4D"}, pile="KD", phase=Phase.PICK_UP, pennies={0: 10})
    stock = len(game.stock)
    game.apply(TakeDiscard(0))
    assert game.players[0].pennies == 10 and len(game.stock) == stock and game.phase is Phase.MELD
    assert len(game.players[0].hand) == 3  # taking replaces the draw


def test_tp_4_2_taking_the_discard_replaces_the_draw() -> None:
    game = position(hands={0: "3C 4D"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(TakeDiscard(0))
    rejected(game, Draw(0), "TP-4.2")
    game = position(hands={0: "3C 4D"}, pile="KD", phase=Phase.DRAW, live=False)
    game.apply(Draw(0))
    rejected(game, Draw(0), "TP-4.2")  # one pick-up a turn


def test_tp_4_2_nothing_is_melded_or_discarded_before_the_pick_up() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H 9D"}, pile="KD", phase=Phase.PICK_UP, sets=[(1, "9C 9H 9S")])
    rejected(game, Discard(0, Card.parse("9D")), "TP-4.2")
    rejected(game, LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))), "TP-4.2")
    game.apply(DeclineDiscard(0))
    rejected(game, Discard(0, Card.parse("9D")), "TP-4.6")  # the offer is open: the draw comes first
    for seat in (1, 2, 3):
        game.apply(PassBuy(seat))
    rejected(game, Discard(0, Card.parse("9D")), "TP-4.6")
    rejected(game, LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))), "TP-4.6")


@pytest.mark.parametrize("command,rule", [
    (TakeDiscard(1), "TP-4.2"), (DeclineDiscard(1), "TP-4.2"), (Draw(1), "TP-4.6"),
    (LayContract(1, (cards("5C 5D 5H"), cards("8C 8D 8H"))), "TP-4.11"),
    (LaySet(1, cards("QC QD QH")), "TP-4.12"), (LayOff(1, Card.parse("KS"), 0), "TP-4.12"),
    (Discard(1, Card.parse("9D")), "TP-4.15")])
def test_tp_4_every_command_out_of_turn_cites_the_rule_of_its_step(command: Command, rule: str) -> None:
    for phase in (Phase.PICK_UP, Phase.DRAW, Phase.MELD):
        game = position(hands={0: "3C", 1: "5C 5D 5H 8C 8D 8H QC QD QH KS 9D"}, pile="7D", phase=phase,
                        down=(1,) if isinstance(command, (LaySet, LayOff)) else (), sets=[(2, "KC KD KH")])
        error = rejected(game, command, rule)
        assert "seat 0's turn" in error.message


def test_tp_4_3_declined_card_goes_to_the_nearest_seat_that_buys() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
    declined = game.apply(DeclineDiscard(0))[0]
    assert isinstance(declined, ev.DiscardDeclined) and declined.offered_to == (1, 2, 3)
    game.apply(PassBuy(1))
    events = game.apply(Buy(2))
    bought = [e for e in events if isinstance(e, ev.CardBought)]
    assert bought and bought[0].seat == 2 and Card.parse("KD") in game.players[2].hand
    assert game.phase is Phase.DRAW


def test_tp_4_3_a_seat_without_pennies_is_not_offered_the_card() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP,
                    pennies={1: 0})
    declined = game.apply(DeclineDiscard(0))[0]
    assert isinstance(declined, ev.DiscardDeclined) and declined.offered_to == (2, 3)
    rejected(game, Buy(1), "TP-4.3")
    rejected(game, Buy(0), "TP-4.3")  # the player who declined it


def test_tp_4_3_nobody_can_buy_when_no_card_is_offered() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", phase=Phase.PICK_UP)
    rejected(game, Buy(1), "TP-4.3")
    rejected(game, PassBuy(1), "TP-4.3")


def test_tp_4_4_the_buyer_pays_a_penny_and_takes_two_penalty_cards() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", stock="9H 8H 7H 6H", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    events = game.apply(Buy(1))
    assert game.players[1].pennies == 9 and game.pot == 1
    assert game.players[1].hand == list(cards("4C KD 9H 8H"))
    private = [e for e in events if isinstance(e, ev.CardsReceived)]
    assert private[0].to == 1 and private[0].cards == cards("9H 8H")
    game.apply(Draw(0))
    assert game.players[0].hand == list(cards("3C 7H"))  # the player draws after the penalty cards


def test_tp_4_4_buy_penalty_cards_knob() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", stock="9H 8H 7H 6H", phase=Phase.PICK_UP,
                    buy_penalty_cards=0)
    game.apply(DeclineDiscard(0))
    game.apply(Buy(1))
    assert game.players[1].hand == list(cards("4C KD"))


def test_tp_4_4_the_buyer_plays_none_of_its_cards_until_its_own_turn() -> None:
    game = position(hands={0: "3C", 1: "KC KH"}, pile="KD", stock="KS 8H 7H", phase=Phase.PICK_UP,
                    down=(1,), sets=[(1, "QC QD QH")])
    game.apply(DeclineDiscard(0))
    game.apply(Buy(1))
    rejected(game, LaySet(1, cards("KC KH KD")), "TP-4.12")  # not seat 1's turn
    rejected(game, Discard(1, Card.parse("KD")), "TP-4.15")


def test_tp_4_5_a_card_nobody_buys_is_dead() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", stock="9H 8H", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    game.apply(PassBuy(1))
    game.apply(PassBuy(2))
    events = game.apply(PassBuy(3))
    assert any(isinstance(e, ev.CardDead) and e.card == Card.parse("KD") for e in events)
    rejected(game, TakeDiscard(0), "TP-4.5")
    rejected(game, Buy(1), "TP-4.3")
    game.apply(Draw(0))
    assert game.pile[-1] == Card.parse("KD") and not game.pile_live


def test_tp_4_6_the_player_draws_after_the_buy_is_settled() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", stock="9H 8H 7H", phase=Phase.PICK_UP)
    rejected(game, Draw(0), "TP-4.6")
    game.apply(DeclineDiscard(0))
    rejected(game, Draw(0), "TP-4.6")
    game.apply(PassBuy(1))
    game.apply(PassBuy(2))
    game.apply(PassBuy(3))
    assert game.to_act() == (0,) and game.legal_commands(0) == [Draw(0)]
    game.apply(Draw(0))
    assert game.phase is Phase.MELD


def test_tp_4_7_a_further_seat_never_beats_a_nearer_one_whatever_the_order_of_answers() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    assert game.apply(Buy(3)) == [ev.BuyAnswered(3, True)]  # waits for seats 1 and 2
    assert game.to_act() == (1, 2)
    assert game.apply(Buy(2)) == [ev.BuyAnswered(2, True)]  # still waits for seat 1
    assert game.to_act() == (1,)
    events = game.apply(Buy(1))
    assert [e.seat for e in events if isinstance(e, ev.CardBought)] == [1]
    assert game.players[2].pennies == game.players[3].pennies == 10


def test_tp_4_7_a_further_seat_may_still_answer_after_a_nearer_one_said_buy() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    game.apply(Buy(2))
    assert game.to_act() == (1, 3) and game.legal_commands(3) == [Buy(3), PassBuy(3)]
    assert game.apply(Buy(3)) == [ev.BuyAnswered(3, True)]
    events = game.apply(PassBuy(1))  # seat 1 passes: seat 2 is the nearest that wants it
    assert [e.seat for e in events if isinstance(e, ev.CardBought)] == [2] and game.phase is Phase.DRAW
    assert game.players[3].pennies == 10


def test_tp_4_7_the_offer_settles_as_soon_as_the_answers_in_decide_it() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    game.apply(PassBuy(1))
    events = game.apply(Buy(2))  # seat 3's answer cannot change the outcome
    assert [e.seat for e in events if isinstance(e, ev.CardBought)] == [2]
    assert game.to_act() == (0,)
    rejected(game, Buy(3), "TP-4.3")


def _refusal(game: Game, command: Command) -> str:
    with pytest.raises(RuleError) as info:
        game.apply(command)
    return str(info.value)


def test_tp_4_7_nothing_shown_differs_with_another_seats_answer_until_the_offer_settles() -> None:
    def answered(answer: type[Buy] | type[PassBuy]) -> tuple[Game, list[ev.Event]]:
        game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
        game.apply(DeclineDiscard(0))
        return game, game.apply(answer(2))

    bought, bought_events = answered(Buy)
    passed, passed_events = answered(PassBuy)
    assert bought.phase is passed.phase is Phase.BUY  # seat 1 has not answered: nothing is settled
    for seat in (1, 3, None):
        assert bought.view(seat) == passed.view(seat), f"seat {seat} can tell seat 2's answer"
        assert [e for e in bought_events if e.visible_to(seat)] == [] == \
            [e for e in passed_events if e.visible_to(seat)]
    assert bought.to_act() == passed.to_act() == (1, 3)
    for seat in (1, 3):
        assert bought.legal_commands(seat) == passed.legal_commands(seat) == [Buy(seat), PassBuy(seat)]
    for probe in (Draw(0), TakeDiscard(1), Buy(0), Discard(3, Card.parse("6C"))):
        assert _refusal(bought, probe) == _refusal(passed, probe)
    # seat 3 answers alike in both; once seat 1 passes, the seat-by-seat order decides
    for game, buyer in ((bought, 2), (passed, 3)):
        game.apply(Buy(3))
        events = game.apply(PassBuy(1))
        assert [e.seat for e in events if isinstance(e, ev.CardBought)] == [buyer]


def test_tp_4_7_answers_are_private_until_the_offer_is_settled() -> None:
    game = position(hands={0: "3C", 1: "4C", 2: "5C", 3: "6C"}, pile="KD", phase=Phase.PICK_UP)
    game.apply(DeclineDiscard(0))
    answer = game.apply(Buy(3))[0]
    assert answer.to == 3 and not answer.visible_to(1) and not answer.visible_to(None)


# --- melds ------------------------------------------------------------------------------------

def test_tp_4_8_a_set_is_three_or_more_cards_of_one_rank() -> None:
    game = position(round=4, hands={0: "5C 5D 5H 6H 9D JK"}, down=(0,))
    rejected(game, LaySet(0, cards("5C 5D")), "TP-4.8")
    rejected(game, LaySet(0, cards("5C 5D 6H")), "TP-4.8")
    game.apply(LaySet(0, cards("5C 5D 5H")))
    assert game.table[0].rank == 5


def test_tp_4_9_distinct_suits_on_forbids_two_naturals_of_one_rank_and_suit() -> None:
    game = position(hands={0: "5C 5C.1 5H 9D"}, down=(0,))
    rejected(game, LaySet(0, cards("5C 5C.1 5H")), "TP-4.9")


def test_tp_4_9_distinct_suits_off_allows_them() -> None:
    game = position(hands={0: "5C 5C.1 5H 9D"}, down=(0,), distinct_suits=False)
    game.apply(LaySet(0, cards("5C 5C.1 5H")))
    assert len(game.table[0].cards) == 3


def test_tp_4_9_at_most_four_naturals_with_four_decks() -> None:
    game = position(8, round=7, hands={0: "7C 7D 7H 7S 7C.1 7D.2 7H.3 JK AC 2D 9D"})
    rejected(game, LayContract(0, (cards("7C 7D 7H 7S 7C.1 7D.2 7H.3"),)), "TP-4.9")
    game.apply(LayContract(0, (cards("7C 7D 7H 7S JK AC 2D"),)))  # 4 naturals + the cap of 3 wilds
    rejected(game, LayOff(0, Card.parse("7C.1"), 0), "TP-4.9")


def test_tp_4_9_never_applies_to_jokers() -> None:
    game = position(preset="deuces", round=1, hands={0: "JK JK.1 JK.2 9D"}, down=(0,), seats=4)
    game.apply(LaySet(0, cards("JK JK.1 JK.2")))
    assert game.table[0].rank == JOKER


def test_tp_4_10_a_set_is_laid_with_at_most_the_rounds_wild_cap() -> None:
    game = position(round=1, hands={0: "5C 5D JK JK.1 9D"}, down=(0,))
    rejected(game, LaySet(0, cards("5C JK JK.1")), "TP-4.10")
    game = position(round=4, hands={0: "5C JK JK.1 9D"}, down=(0,))
    game.apply(LaySet(0, cards("5C JK JK.1")))  # cap 2 in round 4


def test_tp_4_10_all_wild_sets_on() -> None:
    game = position(round=5, hands={0: "AC AD 2H JK 2S 9D"}, down=(0,))
    game.apply(LaySet(0, cards("AC AD 2H JK 2S")))  # any size, beyond the cap of 2
    assert game.table[0].rank is None
    rejected(game, LayOff(0, Card.parse("9D"), 0), "TP-4.10")  # only wilds go on it


def test_tp_4_10_all_wild_sets_off() -> None:
    game = position(round=5, hands={0: "AC AD 2H 9D"}, down=(0,), all_wild_sets=False)
    rejected(game, LaySet(0, cards("AC AD 2H")), "TP-4.10")


def test_tp_4_11_nothing_is_laid_before_the_whole_contract() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H 9D"}, sets=[(1, "KC KD KH")])
    rejected(game, LaySet(0, cards("5C 5D 5H")), "TP-4.11")
    rejected(game, LayOff(0, Card.parse("9D"), 0), "TP-4.11")


def test_tp_4_11_exactly_the_number_of_sets_each_at_least_the_size() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H 9C 9D 9H KD"})
    rejected(game, LayContract(0, (cards("5C 5D 5H"),)), "TP-4.11")
    rejected(game, LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"), cards("9C 9D 9H"))), "TP-4.11")
    game3 = position(round=3, hands={0: "5C 5D 5H 5S 8C 8D 8H KD"})
    rejected(game3, LayContract(0, (cards("5C 5D 5H 5S"), cards("8C 8D 8H"))), "TP-4.11")
    laid = game.apply(LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))))[0]
    assert isinstance(laid, ev.ContractLaid) and game.players[0].down and [m.id for m in laid.melds] == [0, 1]


def test_tp_4_11_the_contract_is_laid_on_the_players_own_turn_only() -> None:
    game = position(hands={0: "3C", 1: "5C 5D 5H 8C 8D 8H 9D"})
    rejected(game, LayContract(1, (cards("5C 5D 5H"), cards("8C 8D 8H"))), "TP-4.11")


def test_tp_4_12_once_down_further_sets_and_lay_offs_on_anyones_sets() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H QC QD QH KS 9D"}, sets=[(2, "KC KD KH")])
    game.apply(LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))))
    game.apply(LaySet(0, cards("QC QD QH")))         # the same turn
    game.apply(LayOff(0, Card.parse("KS"), 0))       # on another seat's set
    assert game.table[0].cards[-1] == Card.parse("KS") and game.players[0].hand == [Card.parse("9D")]
    rejected(game, LayContract(0, (cards("9D"),)), "TP-4.12")


def test_tp_4_12_later_set_wilds_round_cap_holds_further_sets_to_the_rounds_cap() -> None:
    game = position(round=4, hands={0: "5C JK JK.1 9D"}, down=(0,))
    assert LaySet(0, cards("5C JK JK.1")) in game.legal_commands(0)
    game.apply(LaySet(0, cards("5C JK JK.1")))  # two wilds in three cards: the round's cap is 2
    game = position(round=1, hands={0: "5C 5D 5H 5S JK JK.1 9D"}, down=(0,))
    rejected(game, LaySet(0, cards("5C 5D 5H 5S JK JK.1")), "TP-4.10")  # round 1 caps every set at 1


def test_tp_4_12_later_set_wilds_one_per_three_replaces_the_cap_for_further_sets() -> None:
    game = position(round=4, hands={0: "5C JK JK.1 9D"}, down=(0,), later_set_wilds="one_per_three")
    error = rejected(game, LaySet(0, cards("5C JK JK.1")), "TP-4.12")  # 3 cards: one wild
    assert "later_set_wilds" in error.message
    assert not any(isinstance(c, LaySet) for c in game.legal_commands(0))
    game = position(round=1, hands={0: "5C 5D 5H 5S JK JK.1 9D"}, down=(0,), later_set_wilds="one_per_three")
    rejected(game, LaySet(0, cards("5C 5D 5H JK JK.1")), "TP-4.12")  # 5 cards: still one wild
    game.apply(LaySet(0, cards("5C 5D 5H 5S JK JK.1")))  # 6 cards: two, beyond round 1's cap of 1
    assert game.table[0].wilds == 2
    game = position(round=4, hands={0: "5C 5D JK JK.1 9D"}, down=(0,), later_set_wilds="one_per_three")
    assert [c for c in game.legal_commands(0) if isinstance(c, LaySet)] == [LaySet(0, cards("5C 5D JK"))]


def test_tp_4_12_later_set_wilds_one_per_three_leaves_all_wild_sets_contracts_and_lay_offs_alone() -> None:
    game = position(round=5, hands={0: "AC AD 2H 9D"}, down=(0,), later_set_wilds="one_per_three")
    game.apply(LaySet(0, cards("AC AD 2H")))  # all wild: governed by all_wild_sets
    game = position(round=4, hands={0: "5C 5D 5H JK JK.1 JK.2 9D"}, later_set_wilds="one_per_three")
    contract = LayContract(0, (cards("5C 5D 5H JK JK.1"),))  # the contract's own set: the round's cap, 2
    assert contract in game.legal_commands(0)
    game.apply(contract)
    game.apply(LayOff(0, Card.parse("JK.2"), 0))  # lay-offs are TP-4.13's: wilds uncapped by default
    assert game.table[0].wilds == 3


def test_tp_4_13_lay_off_a_natural_of_the_rank_or_a_wild() -> None:
    game = position(hands={0: "7S 8D JK 9C"}, down=(0,), sets=[(1, "7C 7D 7H")])
    rejected(game, LayOff(0, Card.parse("8D"), 0), "TP-4.13")
    game.apply(LayOff(0, Card.parse("7S"), 0))
    game.apply(LayOff(0, Card.parse("JK"), 0))
    rejected(game, LayOff(0, Card.parse("9C"), 5), "TP-4.13")  # no such set


def test_tp_4_13_wild_layoff_cap_off_lets_wilds_pile_up() -> None:
    game = position(hands={0: "JK JK.1 9C"}, down=(0,), sets=[(1, "7C 7D JK.2")])
    game.apply(LayOff(0, Card.parse("JK"), 0))
    game.apply(LayOff(0, Card.parse("JK.1"), 0))
    assert game.table[0].wilds == 3


def test_tp_4_13_wild_layoff_cap_on_keeps_the_cap() -> None:
    game = position(hands={0: "JK JK.1 9C"}, down=(0,), sets=[(1, "7C 7D JK.2"), (1, "8C 8D 8H")],
                    wild_layoff_cap=True)
    rejected(game, LayOff(0, Card.parse("JK"), 0), "TP-4.13")
    game.apply(LayOff(0, Card.parse("JK"), 1))
    rejected(game, LayOff(0, Card.parse("JK.1"), 1), "TP-4.13")


def test_tp_4_14_cards_on_the_table_never_come_back() -> None:
    game = position(hands={0: "9C 4D"}, down=(0,), sets=[(0, "7C 7D 7H")])
    on_table = {c.id for c in game.table[0].cards}
    named = {c.id for command in game.legal_commands(0) if hasattr(command, "card") for c in [command.card]}
    assert named == {c.id for c in game.players[0].hand} and not named & on_table
    rejected(game, Discard(0, Card.parse("7C")), "TP-4.15")  # not in the hand it is discarded from
    rejected(game, LayOff(0, Card.parse("7C"), 0), "TP-4.13")


def test_tp_4_15_the_discard_ends_the_turn_and_becomes_live() -> None:
    game = position(hands={0: "3C 9D", 1: "4C"}, pile="KD", live=False)
    events = game.apply(Discard(0, Card.parse("9D")))
    assert game.pile[-1] == Card.parse("9D") and game.pile_live
    assert game.turn_seat == 1 and game.phase is Phase.PICK_UP
    assert isinstance(events[-1], ev.TurnStarted) and events[-1].seat == 1


def test_tp_4_16_out_by_melding_every_card_needs_no_discard() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H", 1: "KS KH"})
    events = game.apply(LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))))
    assert any(isinstance(e, ev.WentOut) and e.seat == 0 for e in events)
    ended = next(e for e in events if isinstance(e, ev.RoundEnded))
    assert ended.out == 0 and ended.reason == "out" and ended.points == (0, 20, 0, 0)


def test_tp_4_16_out_by_discarding_the_last_card() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H 4D", 1: "KS"})
    game.apply(LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))))
    events = game.apply(Discard(0, Card.parse("4D")))
    assert next(e for e in events if isinstance(e, ev.RoundEnded)).out == 0


def test_tp_4_16_discard_to_go_out_forbids_melding_the_last_card() -> None:
    game = position(hands={0: "5C 5D 5H 8C 8D 8H"}, discard_to_go_out=True)
    rejected(game, LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))), "TP-4.16")
    game = position(hands={0: "5C 5D 5H 8C 8D 8H 8S 4D"}, discard_to_go_out=True)
    game.apply(LayContract(0, (cards("5C 5D 5H"), cards("8C 8D 8H"))))
    game.apply(LayOff(0, Card.parse("8S"), 1))  # leaves 4D
    rejected(game, LayOff(0, Card.parse("4D"), 1), "TP-4.13")
    game2 = position(hands={0: "8S"}, down=(0,), sets=[(0, "8C 8D 8H")], discard_to_go_out=True)
    rejected(game2, LayOff(0, Card.parse("8S"), 0), "TP-4.16")
    assert all(not isinstance(c, LayOff) for c in game2.legal_commands(0))
    events = game2.apply(Discard(0, Card.parse("8S")))
    assert any(isinstance(e, ev.WentOut) for e in events)


def test_tp_4_17_a_player_not_yet_down_always_discards() -> None:
    game = position(hands={0: "5C 9D KH", 1: "4C"}, sets=[(1, "5D 5H 5S")])
    kinds = {type(c) for c in game.legal_commands(0)}
    assert kinds == {Discard}
    game.apply(Discard(0, Card.parse("KH")))
    assert game.turn_seat == 1


def test_tp_4_18_the_pile_is_shuffled_into_a_new_stock_once() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="9H 8H 7H KD", stock="", phase=Phase.DRAW, live=False)
    events = game.apply(Draw(0))
    rebuilt = [e for e in events if isinstance(e, ev.StockRebuilt)]
    assert rebuilt == [ev.StockRebuilt(3, 0)]
    assert game.pile == [Card.parse("KD")] and len(game.stock) == 2
    assert set(game.stock) | set(game.players[0].hand) == set(cards("3C 9H 8H 7H"))


def test_tp_4_18_reshuffles_knob_allows_more() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="9H 8H", stock="", phase=Phase.DRAW, live=False,
                    reshuffles=2)
    game.apply(Draw(0))
    game.apply(Discard(0, Card.parse("3C")))
    assert game.reshuffles_used == 1
    game.apply(TakeDiscard(1))
    game.apply(Discard(1, Card.parse("4C")))
    game.apply(DeclineDiscard(2))
    for seat in (3, 0, 1):
        game.apply(PassBuy(seat))
    events = game.apply(Draw(2))  # stock empty again: the second reshuffle
    assert [e for e in events if isinstance(e, ev.StockRebuilt)] == [ev.StockRebuilt(1, 0)]


def test_tp_4_19_a_penalty_card_the_stock_cannot_give_is_not_taken() -> None:
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", stock="9H", phase=Phase.PICK_UP, reshuffles=0)
    game.apply(DeclineDiscard(0))
    events = game.apply(Buy(1))
    bought = next(e for e in events if isinstance(e, ev.CardBought))
    assert bought.penalty_cards == 1 and game.players[1].hand == list(cards("4C KD 9H"))


def test_tp_4_19_a_draw_from_an_empty_stock_ends_the_round_with_nobody_out() -> None:
    game = position(hands={0: "3C", 1: "4C 9S"}, pile="KD", stock="", phase=Phase.DRAW, live=False,
                    rounds=(1, 2))
    events = game.apply(Draw(0))
    ended = next(e for e in events if isinstance(e, ev.RoundEnded))
    assert ended.out is None and ended.reason == "stock" and ended.points == (5, 10, 0, 0)
    assert game.round_number == 2


def test_tp_4_19_reshuffles_zero() -> None:
    game = position(hands={0: "3C"}, pile="9H 8H KD", stock="", phase=Phase.DRAW, live=False,
                    reshuffles=0, rounds=(1,))
    events = game.apply(Draw(0))
    assert next(e for e in events if isinstance(e, ev.RoundEnded)).reason == "stock" and game.over


def test_tp_4_20_a_round_ends_after_max_turns() -> None:
    game = Game(2, HouseRules(max_turns=3, rounds=(1,)), seed=4)
    for _ in range(3):
        seat = game.turn_seat
        game.apply(TakeDiscard(seat))
        game.apply(Discard(seat, game.players[seat].hand[0]))
    assert game.over
    game2 = Game(2, HouseRules(max_turns=4, rounds=(1,)), seed=4)
    for _ in range(3):
        seat = game2.turn_seat
        game2.apply(TakeDiscard(seat))
        game2.apply(Discard(seat, game2.players[seat].hand[0]))
    assert not game2.over


# --- TP-5 scoring and money -------------------------------------------------------------------

def test_tp_5_1_card_points_whatever_is_wild() -> None:
    points = {"3C": 5, "9D": 5, "TD": 10, "JC": 10, "QH": 10, "KS": 10, "2C": 20, "AC": 20, "JK": 50}
    for text, value in points.items():
        assert Card.parse(text).points == value
    game = position(round=2, hands={0: "5C 5D 5H 5S", 1: "2C AC JK 3D TS"}, rounds=(2, 3))
    ended = next(e for e in game.apply(LayContract(0, (cards("5C 5D 5H 5S"),)))
                 if isinstance(e, ev.RoundEnded))
    assert ended.points[1] == 20 + 20 + 50 + 5 + 10 and ended.scores[1] == 105


def test_tp_5_2_a_penny_into_the_pot_for_every_card_left() -> None:
    game = position(round=2, hands={0: "5C 5D 5H 5S", 1: "2C AC JK", 2: "3D"}, rounds=(2, 3))
    pennies = [p.pennies for p in game.players]
    game.apply(LayContract(0, (cards("5C 5D 5H 5S"),)))
    assert game.pot == 4 and [p.paid for p in game.players] == [0, 3, 1, 0]
    assert [p.pennies for p in game.players] == pennies  # the buy stacks are not touched


def test_tp_5_3_ten_buy_pennies_for_the_whole_game() -> None:
    game = Game(3, seed=1)
    assert [p.pennies for p in game.players] == [10] * 3
    game = Game(3, HouseRules(buy_pennies=2), seed=1)
    assert [p.pennies for p in game.players] == [2] * 3
    game = position(hands={0: "3C", 1: "4C"}, pile="KD", phase=Phase.PICK_UP, pennies={1: 1}, rounds=(1, 2))
    game.apply(DeclineDiscard(0))
    game.apply(Buy(1))
    assert game.players[1].pennies == 0
    game.apply(Draw(0))
    # the empty stack stays empty in later rounds
    game.players[0].hand = [Card.parse("5C")]
    game.players[0].down = True
    game.apply(Discard(0, Card.parse("5C")))
    assert game.round_number == 2 and game.players[1].pennies == 0


def test_tp_5_4_the_lowest_total_wins_the_whole_pot() -> None:
    game = position(round=7, hands={0: "5C 5D 5H 5S JK AC 2D", 1: "KS", 2: "3D", 3: "4C 4D"}, rounds=(7,))
    for p, score in zip(game.players, (100, 90, 80, 100), strict=True):
        p.score = score
    game.pot = 20
    events = game.apply(LayContract(0, (cards("5C 5D 5H 5S JK AC 2D"),)))
    ended = events[-1]
    # totals: 100, 100, 85, 110 -> seat 2 wins 20 + 4 pennies from the last round
    assert isinstance(ended, ev.GameEnded) and ended.winners == (2,) and ended.shares == (0, 0, 24, 0)
    assert game.over and game.legal_commands(2) == [] and game.to_act() == ()
    rejected(game, Draw(0), "TP-5.4")


def test_tp_5_4_tied_winners_share_and_odd_pennies_go_left_of_the_last_dealer() -> None:
    game = position(round=7, hands={0: "5C 5D 5H 5S JK AC 2D", 1: "3C", 2: "3D", 3: "3H"}, rounds=(7,))
    for p, score in zip(game.players, (10, 5, 5, 5), strict=True):
        p.score = score
    game.pot = 8  # + 3 pennies for the cards left = 11 among three winners: 3 each, 2 odd pennies
    game.dealer = 2
    events = game.apply(LayContract(0, (cards("5C 5D 5H 5S JK AC 2D"),)))
    ended = events[-1]
    # totals: 10, 10, 10, 10 -> all four tie; 11 = 2 each + 3 odd to seats 3, 0, 1
    assert isinstance(ended, ev.GameEnded) and ended.winners == (0, 1, 2, 3) and ended.shares == (3, 3, 2, 3)


# --- TP-6 house rules ---------------------------------------------------------------------------

def test_tp_6_defaults_match_the_rule_book() -> None:
    rules = HouseRules()
    assert (rules.preset, rules.distinct_suits, rules.all_wild_sets, rules.wild_layoff_cap,
            rules.discard_to_go_out, rules.later_set_wilds, rules.hand_size, rules.buy_pennies,
            rules.buy_penalty_cards, rules.reshuffles, rules.max_turns, rules.rounds) == \
        ("standard", True, True, False, False, "round_cap", 11, 10, 2, 1, 300, (1, 2, 3, 4, 5, 6, 7))
    assert HouseRules.from_dict(HouseRules(later_set_wilds="one_per_three").to_dict()) == \
        HouseRules(later_set_wilds="one_per_three")


@pytest.mark.parametrize("knobs", [{"preset": "jokers"}, {"rounds": ()}, {"rounds": (2, 1)}, {"rounds": (8,)},
                                   {"hand_size": 0}, {"max_turns": 0}, {"reshuffles": -1},
                                   {"distinct_suits": 1}, {"buy_pennies": "ten"},
                                   {"later_set_wilds": "one_per_set"}, {"later_set_wilds": True}])
def test_tp_6_bad_knobs_are_refused(knobs: dict[str, Any]) -> None:
    with pytest.raises(RuleError, match="TP-6"):
        Game(4, HouseRules(**knobs))


def test_tp_6_unknown_knobs_are_refused() -> None:
    with pytest.raises(RuleError, match="TP-6: no such house rule: jokers_wild"):
        HouseRules.from_dict({"jokers_wild": True})


def test_tp_6_rounds_knob_plays_the_rounds_named() -> None:
    from tenpennies.engine.play import play_game
    from tenpennies.engine.ten_pennies.bots import GreedyBot
    seen: list[int] = []
    play_game(Game(2, HouseRules(rounds=(3, 7)), seed=1), [GreedyBot()] * 2,
              on_events=lambda es: seen.extend(e.round for e in es if isinstance(e, ev.RoundStarted)))
    assert Game(2, HouseRules(rounds=(3, 7)), seed=1).round_number == 3 and seen == [7]


def test_tp_6_knobs_from_command_line_settings() -> None:
    rules = HouseRules.from_settings(["preset=deuces", "discard-to-go-out=on", "hand_size=9", "rounds=1,2",
                                      "later_set_wilds=one_per_three", "all_wild_sets=off"])
    assert rules == HouseRules(preset="deuces", discard_to_go_out=True, hand_size=9, rounds=(1, 2),
                               later_set_wilds="one_per_three", all_wild_sets=False)
    for bad in (["rounds=1,x"], ["no_such_knob=1"]):
        with pytest.raises(RuleError, match="TP-6"):
            HouseRules.from_settings(bad)
