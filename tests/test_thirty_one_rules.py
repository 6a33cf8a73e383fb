"""Thirty-One's rules (docs/THIRTY-ONE.md), one test or more for each numbered rule, named by it, and one for
each ruling the source left open (``test_ruling_...``). A refusal is checked by ``rejected``: the rule
cited, the game unchanged, the command not listed."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tenpennies.engine.cards import JOKER, Card, parse_cards
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.commands import (
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
    parse_command,
)
from tenpennies.engine.thirty_one.game import DECK, Game
from tenpennies.engine.thirty_one.hands import brag_key, brag_name, card_value, hand_value, is_blitz
from tenpennies.engine.thirty_one.rules import RuleError, Rules
from tenpennies.engine.thirty_one.view import Phase

from positions import thirty_one


def rejected(game: Game, command: Command, rule: str) -> RuleError:
    """Assert the command is refused, citing ``rule``, and that nothing changed."""
    before = game.to_dict()
    with pytest.raises(RuleError) as info:
        game.apply(command)
    assert info.value.rule == rule, str(info.value)
    assert str(info.value).startswith(rule + ":")
    assert game.to_dict() == before
    assert not game.is_legal(command)
    if 0 <= command.seat < game.n:
        assert command not in game.legal_commands(command.seat)
    return info.value


def play(game: Game, *lines: str) -> list[ev.Event]:
    events: list[ev.Event] = []
    for line in lines:
        events += game.apply(parse_command(line))
    return events


def ended(events: Sequence[ev.Event]) -> ev.DealEnded:
    ends = [e for e in events if isinstance(e, ev.DealEnded)]
    assert len(ends) == 1, events
    return ends[0]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def showdown(hands: dict[int, str], knocker: int, preset: str = "classic", seats: int = 4,
             **kw: object) -> tuple[Game, ev.DealEnded]:
    """The last seat before the knocker stands: the hands are shown."""
    last = (knocker - 1) % seats
    out = kw.get("out", ())
    assert isinstance(out, tuple)
    while last in out:
        last = (last - 1) % seats
    named = " ".join([*hands.values(), str(kw.get("widow", ""))])
    pile = next(c for c in DECK if c not in parse_cards(named)).text
    game = thirty_one(seats, preset, hands=hands, pile=pile, knocker=knocker, turn_seat=last, turn=9,
                      **kw)  # type: ignore[arg-type]
    return game, ended(game.apply(Stand(last)))


def dealing_order(seed: int) -> list[Card]:
    """The deck as Game(seed) deals it: the last card first."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck[::-1]


# --- T31-1 players and cards -----------------------------------------------------------------------

@pytest.mark.parametrize("seats", [0, 1, 8])
def test_t31_1_1_a_game_has_2_to_7_seats(seats: int) -> None:
    with pytest.raises(RuleError, match="T31-1.1"):
        Game(seats)


def test_t31_1_1_two_to_seven_seats_play_and_the_turn_passes_left() -> None:
    Game(2)
    Game(7)
    game = thirty_one(3, hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH"}, pile="JS")
    assert game.to_act() == (1,)
    play(game, "1 draw")
    play(game, f"1 discard {game.players[1].hand[-1]}")
    assert game.to_act() == (2,)
    rejected(game, DrawStock(1), "T31-4.1")
    rejected(game, DrawStock(3), "T31-1.1")


def test_t31_1_2_one_deck_of_52_and_the_card_values() -> None:
    game = Game(4, seed=3)
    everywhere = [c for p in game.players for c in p.hand] + game.stock + game.pile
    assert sorted(c.id for c in everywhere) == list(range(52))
    assert all(c.rank != JOKER for c in everywhere)
    assert [card_value(c) for c in cards("AS KS QS JS TS 9S 5S 2S")] == [11, 10, 10, 10, 10, 9, 5, 2]


def test_t31_1_3_seat_0_deals_first_then_the_deal_passes_left_past_seats_out() -> None:
    assert Game(4, seed=1).dealer == 0
    game, end = showdown({0: "AS KS 9S", 2: "2C 3D 5H", 3: "KD QD 4C"}, knocker=0, out=(1,))
    assert end.lost == (0, 0, 1, 0)
    assert game.dealer == 2 and game.deal == 2 and game.to_act() == (3,)
    assert game.players[1].hand == [] and not game.legal_commands(1)
    rejected(game, Knock(1), "T31-1.3")


# --- T31-2 the deal --------------------------------------------------------------------------------

def test_t31_2_1_three_cards_each_one_at_a_time_from_left_of_the_dealer() -> None:
    game = Game(4, seed=11)
    order = dealing_order(11)
    for k, seat in enumerate((1, 2, 3, 0)):
        assert game.players[seat].hand == [order[k], order[k + 4], order[k + 8]]
    dealt = [e.seat for e in game.opening_events if isinstance(e, ev.CardsReceived)]
    assert dealt == [1, 2, 3, 0]


def test_t31_2_2_the_next_card_is_the_upcard_and_the_rest_the_stock() -> None:
    game = Game(4, seed=11)
    assert game.pile == [dealing_order(11)[12]]
    assert game.view(None).stock_size == 52 - 12 - 1 == len(game.stock)
    assert ev.UpcardTurned(game.pile[0]) in game.opening_events


def test_t31_2_3_banking_deals_a_widow_of_three_face_down_one_a_round() -> None:
    game = Game(4, Rules.of("banking"), seed=11)
    order = dealing_order(11)
    assert game.widow == [order[4], order[9], order[14]]
    for seat in (None, 0, 1, 2, 3):
        assert game.view(seat).widow == (None, None, None)
    assert ev.WidowDealt(3) in game.opening_events


def test_t31_2_4_switch_the_dealer_keeps_one_of_two_hands_the_other_goes_face_up() -> None:
    game = Game(4, Rules.of("switch"), seed=5)
    dealer = game.view(0)
    assert game.to_act() == (0,) and dealer.phase is Phase.KEEP and len(dealer.spare) == 3
    assert all(game.view(s).spare == () for s in (None, 1, 2, 3))
    assert [m.cards for m in game.view(1).middle] == [(None, None, None)] and game.pile == []
    assert dealer.legal == (KeepHand(0, 0), KeepHand(0, 1))
    rejected(game, Knock(0), "T31-2.4")
    rejected(game, KeepHand(0, 2), "T31-2.4")
    first, second = dealer.hand, dealer.spare
    events = game.apply(KeepHand(0, 1))
    assert ev.HandKept(0, 1, 1, first) in events
    assert game.view(0).hand == second and game.view(2).middle[1].cards == first
    assert game.view(2).middle[1].face_up and game.to_act() == (1,)
    rejected(game, KeepHand(1, 0), "T31-2.4")


def test_t31_2_5_stop_the_bus_turns_three_table_cards_and_no_upcard() -> None:
    game = Game(3, Rules.of("stop_the_bus"), seed=2)
    assert len(game.view(None).table_cards) == 3 and game.view(None).pile == ()
    assert game.view(None).stock_size == 52 - 9 - 3


def test_t31_2_6_the_seat_left_of_the_dealer_plays_first() -> None:
    for preset in ("classic", "banking", "stop_the_bus", "no_elimination", "cut_throat"):
        game = Game(5, Rules.of(preset), seed=4)
        assert game.to_act() == (1,) and game.turn == 1


# --- T31-3 a hand's value ----------------------------------------------------------------------------

def test_t31_3_1_a_hand_is_worth_its_best_suit_and_a_lone_card_counts_alone() -> None:
    rules = Rules()
    assert hand_value(cards("KS 5H 3H"), rules) == 10
    assert hand_value(cards("5H 3H 2C"), rules) == 8
    assert hand_value(cards("AH KH 2C"), rules) == 21
    assert hand_value(cards("9C 8D 7H"), rules) == 9


def test_t31_3_2_three_of_a_rank_is_thirty_and_a_half_all_equal_unless_off() -> None:
    assert hand_value(cards("7C 7D 7H"), Rules()) == 30.5 == hand_value(cards("2C 2D 2S"), Rules.of("cut_throat"))
    assert hand_value(cards("AC AD AH"), Rules.of("banking")) == 30.5
    assert hand_value(cards("7C 7D 7H"), Rules.of("no_elimination")) == 7
    assert hand_value(cards("7C 7D 7H"), Rules.of("classic", three_of_a_kind="off")) == 7
    _, end = showdown({0: "3C 3D 3S", 1: "AC AD AH", 2: "KS QS 9S", 3: "KH QH 8H"}, knocker=0)
    assert end.values == (30.5, 30.5, 29, 28) and end.places == (1, 1, 3, 4) and end.lost == (0, 0, 0, 1)


def test_t31_3_3_thirty_one_is_a_blitz() -> None:
    rules = Rules()
    assert is_blitz(cards("AS KS QS"), rules) and is_blitz(cards("AD TD JD"), rules)
    assert not is_blitz(cards("AS KS 9S"), rules) and not is_blitz(cards("AS KS QD"), rules)
    assert not is_blitz(cards("AS KS QS"), Rules.of("stop_the_bus"))


def test_t31_3_4_stop_the_bus_ranks_by_brag() -> None:
    rising = ["AC KD 9H", "KC KD 2H", "KH KS 3C", "2C 5C 9C", "AC 2D 3H", "2D 3H 4S", "QC KD AH", "AH 2H 3H",
              "4S 5S 6S", "QH KH AH", "2C 2D 2H", "AC AD AS", "3C 3D 3H"]
    keys = [brag_key(cards(h)) for h in rising]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert [brag_name(cards(h)) for h in ("AC KD 9H", "KC KD 2H", "2C 5C 9C", "2D 3H 4S", "AH 2H 3H", "2C 2D 2H")] \
        == ["high card", "pair", "flush", "run", "running flush", "prial"]
    assert brag_key(cards("AC KD 9H")) == brag_key(cards("AD KC 9S"))  # suits never rank: a tie


# --- T31-4 a turn ----------------------------------------------------------------------------------

def classic_turn(**kw: object) -> Game:
    kw.setdefault("pile", "AS")
    return thirty_one(4, hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH", 3: "JC QD KH"},
                      **kw)  # type: ignore[arg-type]


def test_t31_4_1_a_turn_is_a_draw_and_a_discard_or_a_knock() -> None:
    game = classic_turn()
    assert set(game.legal_commands(1)) == {DrawStock(1), TakeDiscard(1), Knock(1)}
    rejected(game, Discard(1, Card.parse("5C")), "T31-4.1")
    rejected(game, Stand(1), "T31-6.1")
    play(game, "1 draw")
    assert game.phase is Phase.DISCARD and len(game.players[1].hand) == 4
    rejected(game, DrawStock(1), "T31-4.1")
    rejected(game, Knock(1), "T31-4.1")
    rejected(game, Discard(1, Card.parse("2C")), "T31-4.1")
    rejected(game, DrawStock(2), "T31-4.1")
    assert {c for c in game.legal_commands(1)} == {Discard(1, c) for c in game.players[1].hand}
    play(game, "1 discard 5C")
    assert game.pile[-1] == Card.parse("5C") and game.to_act() == (2,)
    play(game, "2 knock")
    rejected(game, Knock(3), "T31-4.1")


def test_t31_4_2_the_card_taken_from_the_pile_stays_this_turn_unless_the_knob_says() -> None:
    game = classic_turn()
    play(game, "1 take")
    rejected(game, Discard(1, Card.parse("AS")), "T31-4.2")
    game = classic_turn(discard_taken=True)
    play(game, "1 take")
    assert Discard(1, Card.parse("AS")) in game.legal_commands(1)
    play(game, "1 discard AS")


def test_t31_4_2_with_two_seats_the_seat_after_a_knock_may_take_back_its_own_discard() -> None:
    game = thirty_one(2, hands={0: "2C 3D 4H", 1: "5C 6D 7H"}, pile="AS")
    play(game, "1 draw", f"1 discard {game.players[1].hand[0]}", "0 knock")
    assert game.to_act() == (1,) and game.pile[-1] == Card.parse("5C")
    play(game, "1 take")
    assert Card.parse("5C") in game.players[1].hand


def test_t31_4_3_no_knock_in_the_first_round_where_the_knob_is_off() -> None:
    game = classic_turn(first_turn_knock=False)
    rejected(game, Knock(1), "T31-4.3")
    game = classic_turn(first_turn_knock=False, turn=5)
    assert Knock(1) in game.legal_commands(1)
    assert Knock(1) in classic_turn().legal_commands(1)


def banking(**kw: object) -> Game:
    return thirty_one(3, "banking", hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH"}, pile="AS",
                      widow="KC QC JC", **kw)  # type: ignore[arg-type]


def test_t31_4_4_banking_exchanges_with_the_widow_which_then_lies_face_up() -> None:
    game = banking()
    legal = game.legal_commands(1)
    assert sum(isinstance(c, ExchangeWidow) for c in legal) == 9 + 9 + 1
    events = game.apply(ExchangeWidow(1, cards("5C"), (0,)))
    assert events[0] == ev.WidowExchanged(1, cards("5C"), (0,), (None,), cards("5C QC JC"))
    assert ev.CardsReceived(1, cards("KC"), "widow") in events
    assert game.view(1).hand == cards("6D 7H KC")
    for seat in (None, 0, 2):
        assert game.view(seat).widow == cards("5C QC JC") and Card.parse("KC") not in game.view(seat).hand
    events = game.apply(ExchangeWidow(2, cards("8C 9D"), (1, 2)))
    assert events[0].taken == cards("QC JC")  # type: ignore[attr-defined]
    assert not any(isinstance(e, ev.CardsReceived) for e in events)
    rejected(game, ExchangeWidow(0, cards("2C 3D"), (0,)), "T31-4.4")
    rejected(game, ExchangeWidow(0, cards("KS"), (0,)), "T31-4.4")
    rejected(game, ExchangeWidow(0, cards("2C"), (3,)), "T31-4.4")
    rejected(classic_turn(), ExchangeWidow(1, cards("5C"), (0,)), "T31-4.4")


def switch(**kw: object) -> Game:
    return thirty_one(3, "switch", hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH"},
                      middle=[("KC QC JC", False), ("KD QD JD", True)], **kw)  # type: ignore[arg-type]


def test_t31_4_5_switch_exchange_one_card_with_a_middle_hand() -> None:
    game = switch()
    events = game.apply(ExchangeMiddle(1, Card.parse("5C"), 1, 0))
    assert events[0] == ev.MiddleExchanged(1, 1, 0, Card.parse("5C"), Card.parse("KD"))
    assert game.view(0).middle[1].cards == cards("5C QD JD") and game.view(1).hand == cards("6D 7H KD")
    rejected(game, ExchangeMiddle(2, Card.parse("5C"), 1, 0), "T31-4.5")
    rejected(game, ExchangeMiddle(2, Card.parse("8C"), 2, 0), "T31-4.5")
    rejected(game, ExchangeMiddle(2, Card.parse("8C"), 1, 3), "T31-4.5")
    rejected(game, DrawStock(2), "T31-4.5")
    rejected(game, TakeDiscard(2), "T31-4.5")


def test_t31_4_5_switch_swap_the_whole_hand_which_keeps_the_places_face() -> None:
    game = switch()
    game.apply(SwapHand(1, 1))
    assert game.view(1).hand == cards("KD QD JD") and game.view(2).middle[1].cards == cards("5C 6D 7H")
    game.apply(SwapHand(2, 0))
    assert game.view(2).hand == cards("KC QC JC")
    assert game.view(2).middle[0].cards == cards("8C 9D TH")  # its giver knows them
    assert game.view(0).middle[0].cards == (None, None, None) == game.view(None).middle[0].cards



def test_t31_4_5_switch_a_hand_swapped_in_lies_card_by_card_as_the_hand_taken_lay() -> None:
    game = switch()
    game.apply(ExchangeMiddle(1, Card.parse("5C"), 0, 1))  # 5C lies face up in the face-down hand
    events = game.apply(SwapHand(2, 0))
    assert events[0] == ev.HandSwapped(2, 0, (None, Card.parse("5C"), None), (None, Card.parse("9D"), None))
    assert events[1] == ev.CardsReceived(2, cards("KC JC"), "middle")
    assert game.view(2).hand == cards("5C KC JC")
    assert game.view(0).middle[0].cards == (None, Card.parse("9D"), None)
    assert game.view(0).middle[0].up == (False, True, False) and not game.view(0).middle[0].face_up
    assert game.view(2).middle[0].cards == cards("8C 9D TH")


def test_t31_4_5_switch_renew_face_up_ends_the_turn_face_down_acts_again() -> None:
    game = switch()
    stock = game.view(None).stock_size
    events = game.apply(Renew(1, 0, True))
    assert game.to_act() == (2,) and game.view(None).stock_size == stock - 3
    assert all(c is not None for c in game.view(0).middle[0].cards)
    assert isinstance(events[0], ev.HandRenewed) and events[0].cards == game.view(0).middle[0].cards
    game.apply(Renew(2, 1, False))
    assert game.to_act() == (2,) and game.phase is Phase.AGAIN
    assert game.view(2).middle[1].cards == (None, None, None)
    rejected(game, Renew(2, 0, True), "T31-4.5")
    assert not any(isinstance(c, (Renew, Stand)) for c in game.legal_commands(2))
    assert Knock(2) in game.legal_commands(2)
    game.apply(ExchangeMiddle(2, Card.parse("8C"), 1, 2))
    assert game.to_act() == (0,)


def test_t31_4_5_switch_renew_is_not_offered_when_the_stock_cannot_renew() -> None:
    game = switch(stock="2S 3S")
    assert not any(isinstance(c, Renew) for c in game.legal_commands(1))
    rejected(game, Renew(1, 0, True), "T31-4.5")


def test_t31_4_6_stop_the_bus_swaps_one_or_all_three_with_the_table() -> None:
    game = thirty_one(3, "stop_the_bus", hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH"}, table="KS QS JS")
    assert sum(isinstance(c, TableSwap) for c in game.legal_commands(1)) == 9
    assert TableSwapAll(1) in game.legal_commands(1) and DrawStock(1) not in game.legal_commands(1)
    game.apply(TableSwap(1, Card.parse("6D"), Card.parse("QS")))
    assert game.view(None).table_cards == cards("KS 6D JS") and game.view(1).hand == cards("5C 7H QS")
    game.apply(TableSwapAll(2))
    assert game.view(2).hand == cards("KS 6D JS") and game.view(0).table_cards == cards("8C 9D TH")
    rejected(game, DrawStock(0), "T31-4.6")
    rejected(game, TableSwap(0, Card.parse("2C"), Card.parse("QS")), "T31-4.6")
    rejected(game, TableSwap(0, Card.parse("KS"), Card.parse("8C")), "T31-4.6")
    rejected(classic_turn(), TableSwapAll(1), "T31-4.6")


def test_t31_4_7_an_empty_stock_before_a_knock_is_a_dead_deal() -> None:
    game = classic_turn(stock="9S")
    events = play(game, "1 draw", "1 discard 5C")
    end = ended(events)
    assert end.how == "dead" and end.lost == (0, 0, 0, 0) and end.hands == ((),) * 4
    assert [p.lives for p in game.players] == [4, 4, 4, 4] and game.dealer == 1 and game.deal == 2


def test_t31_4_7_after_a_knock_an_empty_stock_offers_no_draw() -> None:
    game = classic_turn(stock="", knocker=0)
    rejected(game, DrawStock(1), "T31-4.7")
    assert set(game.legal_commands(1)) == {TakeDiscard(1), Stand(1)}


# --- T31-5 blitz -----------------------------------------------------------------------------------

def test_t31_5_1_a_seat_reaching_31_shows_it_and_the_others_lose_a_life() -> None:
    game = thirty_one(4, hands={0: "2C 3D 4H", 1: "AS KS 2D", 2: "8C 9D TH", 3: "JC QD KH"}, pile="QS")
    end = ended(play(game, "1 take", "1 discard 2D"))
    assert end.how == "blitz" and end.blitzer == 1 and end.lost == (1, 0, 1, 1)
    assert end.hands[1] == cards("AS KS QS") and end.values[1] == 31


def test_t31_5_2_a_blitz_after_a_knock_waits_for_the_showdown_unless_the_knob_says() -> None:
    hands = {0: "2C 3D 4H", 1: "AS KS 2D", 2: "8C 9D TH", 3: "JC QD KH"}
    game = thirty_one(4, hands=hands, pile="QS", knocker=0)
    events = play(game, "1 take", "1 discard 2D")
    assert not any(isinstance(e, ev.DealEnded) for e in events) and game.to_act() == (2,)
    end = ended(play(game, "2 stand", "3 stand"))
    assert end.how == "knock" and end.values[1] == 31 and end.lost == (2, 0, 0, 0)
    game = thirty_one(4, "no_elimination", hands=hands, pile="QS", knocker=0)
    end = ended(play(game, "1 take", "1 discard 2D"))
    assert end.how == "blitz" and end.knocker == 0 and end.scored[1] == 6


def test_t31_5_3_banking_blitz_every_other_seat_pays_one_and_the_blitzer_takes_the_centre() -> None:
    game = thirty_one(3, "banking", hands={0: "2C 3D 4H", 1: "AS KS 2D", 2: "8C 9D TH"}, pile="QS", widow="5S 6S 7S",
                      centre=3, tokens={0: 10, 1: 10, 2: 0})
    end = ended(play(game, "1 take", "1 discard 2D"))
    assert end.paid == (1, 0, 0) and end.won == (0, 4, 0) and end.centre == 0
    assert [p.tokens for p in end.players] == [9, 14, 0] and end.went_out == (2,)


def test_t31_5_3_stop_the_bus_has_no_blitz() -> None:
    game = thirty_one(3, "stop_the_bus", hands={0: "2C 3D 4H", 1: "AS KS 2D", 2: "8C 9D TH"}, table="QS 5H 6H")
    events = game.apply(TableSwap(1, Card.parse("2D"), Card.parse("QS")))
    assert not any(isinstance(e, ev.DealEnded) for e in events) and game.to_act() == (2,)


# --- T31-6 the knock and the showdown --------------------------------------------------------------

def test_t31_6_1_after_a_knock_each_other_seat_plays_once_then_the_showdown() -> None:
    game = classic_turn(turn_seat=2)
    play(game, "2 knock")
    assert game.view(None).knocker == 2 and game.view(None).final_turns == (0, 1)
    seen = []
    for _ in range(3):
        seat = game.to_act()[0]
        seen.append(seat)
        if seat == 1:
            events = play(game, "1 stand")
            break
        rejected(game, Knock(2), "T31-6.1")
        assert Stand(seat) in game.legal_commands(seat)
        play(game, f"{seat} stand")
    assert seen == [3, 0, 1]
    assert ended(events).how == "knock" and ended(events).knocker == 2


def test_t31_6_2_the_lowest_hands_each_lose_a_life() -> None:
    _, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0)
    assert end.lost == (0, 1, 0, 0) and end.places == (1, 4, 2, 3)
    _, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "5D 3C 2H", 3: "9H 8H 2S"}, knocker=0)
    assert end.lost == (0, 1, 1, 0)


def test_t31_6_3_a_knocker_strictly_lowest_loses_two_lives() -> None:
    _, end = showdown({0: "2C 3D 5H", 1: "AS KS 9S", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0)
    assert end.lost == (2, 0, 0, 0)


def test_ruling_a_knocker_tying_for_lowest_loses_one_life_in_classic_and_two_in_cut_throat() -> None:
    """T31-6.3: the others tied with the knocker lose nothing."""
    hands = {0: "2C 3D 9H", 1: "AS KS 9S", 2: "9D 3C 2H", 3: "9C 8C 2S"}
    _, end = showdown(hands, knocker=0)
    assert end.values[0] == end.values[2] == 9 and end.lost == (1, 0, 0, 0)
    _, end = showdown(hands, knocker=0, preset="switch")
    assert end.lost == (1, 0, 0, 0)
    _, end = showdown(hands, knocker=0, preset="cut_throat")
    assert end.lost == (2, 0, 0, 0)
    _, end = showdown({0: "2C 3D 9H", 1: "AS KS 9S", 2: "9D 3C 2H", 3: "9C 8S 2S"}, knocker=0,
                      preset="stop_the_bus")
    assert end.lost == (1, 0, 0, 0)


def test_t31_6_4_banking_the_highest_hand_takes_the_centre() -> None:
    _, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C"}, knocker=1, preset="banking", seats=3,
                      centre=3, widow="7S 7C 7D")
    assert end.won == (3, 0, 0) and end.centre == 0 and end.lost == (0, 0, 0)


def test_ruling_banking_seats_tied_highest_split_the_centre_and_the_odd_token_stays() -> None:
    game, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "AD KD 9D"}, knocker=1, preset="banking", seats=3,
                         centre=5, widow="7S 7C 7D", tokens={0: 10, 1: 10, 2: 10})
    assert end.won == (2, 0, 2) and end.centre == 1
    assert [p.tokens for p in end.players] == [12, 10, 12]
    assert game.centre == 1 + 3  # the next deal's antes join the odd token


# --- T31-7 lives, the free ride, the end ------------------------------------------------------------

def test_t31_7_1_lives_by_preset() -> None:
    expected = {"classic": 4, "switch": 4, "cut_throat": 3, "stop_the_bus": 3}
    for preset, lives in expected.items():
        assert [p.lives for p in Game(3, Rules.of(preset)).view(None).players] == [lives] * 3
    assert Game(3, Rules.of("classic", lives=2)).players[0].lives == 2


def test_t31_7_2_a_seat_with_no_lives_rides_free_until_its_next_loss() -> None:
    hands = {0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C", 3: "9H 8H 2S"}
    game, end = showdown(hands, knocker=0, lives={1: 1})
    assert game.players[1].lives == 0 and game.players[1].riding and not game.players[1].out
    assert end.players[1].riding and end.went_out == ()
    game, end = showdown(hands, knocker=0, lives={1: 0}, riding=(1,))
    assert game.players[1].out and end.went_out == (1,)
    game, end = showdown(hands, knocker=0, preset="cut_throat", lives={1: 1})
    assert game.players[1].out and not game.players[1].riding


def test_ruling_a_double_loss_takes_the_last_life_and_the_free_ride_together() -> None:
    game, end = showdown({0: "2C 3D 5H", 1: "AS KS 9S", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0, lives={0: 1})
    assert end.lost[0] == 2 and end.went_out == (0,)
    assert game.players[0].out and not game.players[0].riding and game.players[0].lives == 0
    game, end = showdown({0: "2C 3D 5H", 1: "AS KS 9S", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0, lives={0: 2})
    assert game.players[0].lives == 0 and game.players[0].riding and not game.players[0].out


def test_t31_7_3_the_last_seat_in_the_game_wins() -> None:
    game, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H"}, knocker=0, seats=2, lives={1: 0}, riding=(1,))
    assert end.went_out == (1,) and game.over and game.winners == (0,)
    assert game.result is not None and game.result.scores == (1, 2) and game.result.winners == (0,)
    rejected(game, Knock(0), "T31-7.3")


def test_t31_7_3_seats_out_in_the_same_deal_share_a_place() -> None:
    game, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "5D 3C 2H"}, knocker=0, seats=3,
                         lives={1: 0, 2: 0}, riding=(1, 2))
    assert end.went_out == (1, 2) and game.winners == (0,)
    assert game.result is not None and game.result.scores == (1, 2, 2)


def test_t31_7_4_banking_antes_a_token_a_deal_and_a_seat_that_cannot_is_out() -> None:
    game = Game(3, Rules.of("banking"), seed=1)
    assert game.centre == 3 and [p.tokens for p in game.players] == [19, 19, 19]
    started = next(e for e in game.opening_events if isinstance(e, ev.DealStarted))
    assert started.centre == 3 and started.players[0].tokens == 19
    game, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C"}, knocker=1, preset="banking", seats=3,
                         centre=3, widow="7S 7C 7D", tokens={0: 5, 1: 0, 2: 4})
    assert end.went_out == (1,) and game.players[1].out and game.centre == 2  # two antes
    assert [p.tokens for p in game.players] == [7, 0, 3]


def test_t31_7_4_banking_ends_after_its_deals_and_the_most_tokens_win() -> None:
    game, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "AD KD 9D"}, knocker=1, preset="banking", seats=3,
                         centre=4, widow="7S 7C 7D", tokens={0: 5, 1: 5, 2: 5}, deals=1)
    assert game.over and game.winners == (0, 2)
    assert game.result is not None and game.result.tallies["tokens"] == (7, 5, 7)


# --- T31-8 no-elimination scoring --------------------------------------------------------------------

def test_t31_8_1_nobody_is_out_and_after_twice_the_seats_deals_the_most_points_win() -> None:
    rules = Rules.of("no_elimination")
    assert rules.deals_for(3) == 6
    game = Game(3, rules, seed=9)
    while not game.over:
        seat = game.to_act()[0]
        game.apply(Knock(seat) if Knock(seat) in game.legal_commands(seat) else game.legal_commands(seat)[0])
    assert game.deal == 6 and not any(p.out for p in game.players)
    best = max(p.points for p in game.players)
    assert game.winners == tuple(s for s, p in enumerate(game.players) if p.points == best)


def test_t31_8_2_showdown_points_and_the_knockers() -> None:
    _, end = showdown({0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0,
                      preset="no_elimination")
    assert end.scored == (4, 1, 2, 2)
    _, end = showdown({0: "2C 3D 5H", 1: "AS KS 9S", 2: "KD QD 4C", 3: "9H 8H 2S"}, knocker=0,
                      preset="no_elimination")
    assert end.scored == (0, 3, 2, 2)
    assert [p.points for p in end.players] == [0, 3, 2, 2] and end.lost == (0, 0, 0, 0)


def test_ruling_no_elimination_ties_take_the_highest_place_they_share() -> None:
    _, end = showdown({0: "AS KS 9S", 1: "KH QH 7H", 2: "KD QD 7D", 3: "KC QC 7C"}, knocker=1,
                      preset="no_elimination")
    assert end.values == (30, 27, 27, 27) and end.scored == (3, 1, 2, 2)  # nobody lowest; the knocker middle
    _, end = showdown({0: "AS KS 9S", 1: "AH KH 9H"}, knocker=0, preset="no_elimination", seats=2)
    assert end.scored == (4, 3)  # two seats tied: both highest
    _, end = showdown({0: "AS KS 9S", 1: "AH KH 2C", 2: "AD KD 3C", 3: "5H 3S 2D"}, knocker=3,
                      preset="no_elimination")
    assert end.scored == (3, 2, 2, 0)


def test_t31_8_3_a_blitz_scores_6_and_the_others_rank_among_themselves() -> None:
    game = thirty_one(4, "no_elimination", hands={0: "2C 3D 4H", 1: "AS KS 2D", 2: "8C 9D 7H", 3: "JC QD KH"},
                      pile="QS")
    end = ended(play(game, "1 take", "1 discard 2D"))
    assert end.scored == (1, 6, 2, 3)
    game = thirty_one(2, "no_elimination", hands={0: "2C 3D 4H", 1: "AS KS 2D"}, pile="QS")
    assert ended(play(game, "1 take", "1 discard 2D")).scored == (3, 6)


# --- T31-9 what each seat may see ----------------------------------------------------------------------

def test_t31_9_1_public_sizes_pile_stock_knocker_and_lives() -> None:
    game = classic_turn(lives={2: 1}, knocker=0, pile="AS 9S")
    spectator = game.view(None)
    assert [p.hand_size for p in spectator.players] == [3, 3, 3, 3] and spectator.hand == ()
    assert spectator.pile == cards("AS 9S") and spectator.discard_top == Card.parse("9S")
    assert spectator.stock_size == len(game.stock) and spectator.knocker == 0
    assert spectator.players[2].lives == 1 and spectator.legal == ()


def test_t31_9_2_a_seat_sees_its_own_cards_and_no_one_elses() -> None:
    game = classic_turn()
    play(game, "1 draw")
    drawn = game.players[1].hand[-1]
    assert game.view(1).hand == tuple(game.players[1].hand)
    for seat in (None, 0, 2, 3):
        assert drawn not in game.view(seat).hand
        assert all(c not in game.view(seat).hand for c in cards("5C 6D 7H"))


def test_t31_9_3_the_showdown_and_a_blitz_show_every_hand_to_everyone() -> None:
    game = thirty_one(4, hands={0: "AS KS 9S", 1: "2C 3D 5H", 2: "KD QD 4C", 3: "9H 8H 2S"}, pile="2D",
                      knocker=0, turn_seat=3, turn=9)
    events = game.apply(Stand(3))
    end = ended(events)
    assert end.visible_to(None) and all(end.visible_to(s) for s in range(4))
    assert end.hands == (cards("AS KS 9S"), cards("2C 3D 5H"), cards("KD QD 4C"), cards("9H 8H 2S"))
    assert game.view(None).last_deal == end


def test_t31_9_4_a_dead_deal_shows_no_hands() -> None:
    game = classic_turn(stock="9S")
    end = ended(play(game, "1 draw", "1 discard 5C"))
    assert end.hands == ((),) * 4 and end.values == (0,) * 4 and end.places == (0,) * 4


# --- the rulings the source left open ----------------------------------------------------------------

def test_ruling_a_blitz_dealt_ends_the_deal_before_anyone_plays() -> None:
    """T31-5.1: checked for every seat right after the deal, the first from left of the dealer."""
    rules = Rules()
    seed = next(s for s in range(20_000)
                if any(is_blitz(dealing_order(s)[k:12:4], rules) for k in range(4)))
    game = Game(4, rules, seed)
    end = next(e for e in game.opening_events if isinstance(e, ev.DealEnded))
    order = dealing_order(seed)
    first = next(k for k in range(4) if is_blitz(order[k:12:4], rules))
    blitzer = (first + 1) % 4
    assert end.how == "blitz" and end.blitzer == blitzer and end.knocker is None
    assert end.lost == tuple(0 if s == blitzer else 1 for s in range(4))
    assert game.deal == 2 and game.dealer == 1


def test_ruling_a_dead_deal_scores_nothing_and_counts_as_a_deal() -> None:
    """T31-4.7: the deal is dead as soon as a turn would begin on an empty stock before any knock."""
    game = thirty_one(3, "no_elimination", hands={0: "2C 3D 4H", 1: "5C 6D 7H", 2: "8C 9D TH"}, pile="AS",
                      stock="9S", deals=1)
    end = ended(play(game, "1 draw", "1 discard 5C"))
    assert end.how == "dead" and end.scored == (0, 0, 0) and game.over
    assert game.winners == (0, 1, 2)
    game = banking(stock="9S", centre=3)
    end = ended(play(game, "1 draw", "1 discard 5C"))
    assert end.how == "dead" and end.won == (0, 0, 0) and game.centre == 3 + 3  # the centre stays


def test_ruling_switch_a_face_down_card_taken_is_its_takers_alone() -> None:
    game = switch()
    events = game.apply(ExchangeMiddle(1, Card.parse("5C"), 0, 1))
    assert events[0] == ev.MiddleExchanged(1, 0, 1, Card.parse("5C"), None)
    assert events[1] == ev.CardsReceived(1, cards("QC"), "middle") and events[1].to == 1
    assert Card.parse("QC") in game.view(1).hand
    for seat in (None, 0, 2):
        view = game.view(seat)
        assert view.middle[0].cards == (None, Card.parse("5C"), None) and view.middle[0].up == (False, True, False)
        assert Card.parse("QC") not in view.hand
        assert all(e.visible_to(seat) == (e is events[0]) for e in events[:2])


def test_ruling_switch_renew_face_down_then_act_on_the_renewed_hand() -> None:
    game = switch()
    game.apply(Renew(1, 0, False))
    assert game.phase is Phase.AGAIN and game.view(1).middle[0].cards == (None, None, None)
    fresh = game.middle[0].cards[0]
    events = game.apply(ExchangeMiddle(1, Card.parse("5C"), 0, 0))
    assert events[1] == ev.CardsReceived(1, (fresh,), "middle")
    assert game.to_act() == (2,) and fresh in game.view(1).hand and fresh not in game.view(2).hand
    game = switch()
    game.apply(Renew(1, 1, False))
    game.apply(Knock(1))
    assert game.view(None).knocker == 1 and game.to_act() == (2,)


def test_ruling_stop_the_bus_brag_order_a_2_3_and_three_threes() -> None:
    """T31-3.4: A-2-3 is the lowest run, below 2-3-4 but above any flush; three 3s beat three aces."""
    _, end = showdown({0: "AC 2D 3H", 1: "2S 3C 4D", 2: "KH 9H 4H", 3: "QS KD AS"}, knocker=0,
                      preset="stop_the_bus")
    assert end.places == (3, 2, 4, 1) and end.lost == (0, 0, 1, 0) and end.values == (0, 0, 0, 0)
    _, end = showdown({0: "3C 3D 3H", 1: "AS AD AH", 2: "KH QH JH", 3: "2S 2C 2D"}, knocker=1,
                      preset="stop_the_bus")
    assert end.places == (1, 2, 4, 3) and end.lost == (0, 0, 1, 0)
