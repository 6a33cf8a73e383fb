"""Thirty-One's wire (protos/wire/thirty_one.py) both ways: its rules, every command, every event and a seat's
view go onto the wire and come back the same engine value, hand-made ones of every kind and every one that
seeded games of every preset make; the enum <-> word tables come from the engine's declarations."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tenpennies.engine.cards import Card
from tenpennies.engine.thirty_one import commands as cm
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.game import Game
from tenpennies.engine.thirty_one.rules import KNOBS, PLAYED_BY, PRESET_NAMES, Rules
from tenpennies.engine.thirty_one.view import MiddleHand, Phase, SeatView
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import games as wire_games
from tenpennies.wire import ten_pennies as mapping
from tenpennies.wire import thirty_one as wire
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.thirty_one import KNOB_ENUMS as THIRTY_ONE_KNOB_ENUMS
from tenpennies.wire.thirty_one import KNOB_WORDS as THIRTY_ONE_KNOB_WORDS
from tenpennies.wire.whose import owner

C = Card.parse


def crossed(message: Any) -> Any:
    """The message as the other side reads it: serialised and parsed again."""
    return type(message).FromString(message.SerializeToString())


# --- rules ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_comes_back_from_the_wire_as_it_went(preset: str) -> None:
    rules = Rules.of(preset)
    assert wire.rules_from_pb(crossed(wire.rules_to_pb(rules))) == rules


def test_every_value_of_every_knob_comes_back_under_every_preset_it_applies_to_and_an_unset_knob_is_the_presets(
        ) -> None:
    for knob in KNOBS[1:]:
        values = knob.words if knob.choices else (True, False) if knob.kind is bool else (knob.low or 0, 7)
        for preset in PLAYED_BY[knob.name]:
            for value in values:
                rules = Rules.of(preset, **{knob.name: value})
                assert wire.rules_from_pb(crossed(wire.rules_to_pb(rules))) == rules, (knob.name, preset, value)
    # a client that names the preset alone gets the preset's knobs (cut_throat: 3 lives, no free ride, T31-7)
    only = pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_CUT_THROAT))
    assert wire.rules_from_pb(only) == Rules.of("cut_throat")
    assert wire.rules_from_pb(pb.HouseRules()) == Rules()  # nothing at all: classic
    both = pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_CUT_THROAT, lives=5))
    assert wire.rules_from_pb(both) == Rules.of("cut_throat", lives=5)


# Which knobs each preset plays (THIRTY-ONE.md): lives, free_ride and knocker_tie where seats have lives
# (T31-6.3, T31-7), tokens in banking (T31-7.4), deals in banking and no_elimination (T31-8.1), discard_taken
# where a turn draws (T31-4.2), blitz_after_knock where there is a blitz and three_of_a_kind where hands have a
# value (not stop_the_bus: T31-3.4, T31-5.3); first_turn_knock everywhere.
PLAYED = {
    "classic": {"three_of_a_kind", "discard_taken", "first_turn_knock", "blitz_after_knock", "knocker_tie", "lives",
                "free_ride"},
    "cut_throat": {"three_of_a_kind", "discard_taken", "first_turn_knock", "blitz_after_knock", "knocker_tie",
                   "lives", "free_ride"},
    "no_elimination": {"three_of_a_kind", "discard_taken", "first_turn_knock", "blitz_after_knock", "deals"},
    "banking": {"three_of_a_kind", "discard_taken", "first_turn_knock", "blitz_after_knock", "tokens", "deals"},
    "switch": {"three_of_a_kind", "first_turn_knock", "blitz_after_knock", "knocker_tie", "lives", "free_ride"},
    "stop_the_bus": {"first_turn_knock", "knocker_tie", "lives", "free_ride"},
}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_wire_shows_the_preset_and_only_the_knobs_it_plays(preset: str) -> None:
    message = wire.rules_to_pb(Rules.of(preset))
    assert [f.name for f, _ in message.ListFields()] == ["thirty_one"]  # nothing of Ten Pennies'
    assert {f.name for f, _ in message.thirty_one.ListFields()} - {"preset"} == PLAYED[preset]
    assert {name for name, presets in PLAYED_BY.items() if preset in presets} - {"preset"} == PLAYED[preset]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_knob_the_preset_does_not_play_is_refused_naming_the_presets_it_applies_to(preset: str) -> None:
    for knob in KNOBS[1:]:
        if knob.name in PLAYED[preset]:
            continue
        message = pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=getattr(pb, f"THIRTY_ONE_PRESET_{preset.upper()}")))
        setattr(message.thirty_one, knob.name, 1 if knob.choices else knob.default)
        words = rf"^rules\.thirty_one\.{knob.name} applies to the .* only \({knob.rule}\)$"
        with pytest.raises(BadRequest, match=words):
            wire.rules_from_pb(message)
    banking_tokens = pb.HouseRules(thirty_one=pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_CLASSIC, tokens=5))
    with pytest.raises(BadRequest) as refused:
        wire.rules_from_pb(banking_tokens)
    assert str(refused.value) == "rules.thirty_one.tokens applies to the banking preset only (T31-7.4)"
    banking_tokens.thirty_one.preset = pb.THIRTY_ONE_PRESET_BANKING
    assert wire.rules_from_pb(banking_tokens) == Rules.of("banking", tokens=5)


TEN_PENNIES_REFUSED = "rules.ten_pennies is Ten Pennies': this table plays thirty_one"


# HouseRules holds one game's rules: each of Ten Pennies' knobs, and its rules with none set, are refused whole
@pytest.mark.parametrize("message", [
    pb.HouseRules(ten_pennies=pb.TenPenniesRules(hand_size=5)),
    pb.HouseRules(ten_pennies=pb.TenPenniesRules(rounds=[1, 2])),
    pb.HouseRules(ten_pennies=pb.TenPenniesRules(preset=pb.PRESET_DEUCES)),
    pb.HouseRules(ten_pennies=pb.TenPenniesRules(later_set_wilds=pb.LATER_SET_WILDS_ONE_PER_THREE)),
    pb.HouseRules(ten_pennies=pb.TenPenniesRules()),
])
def test_ten_pennies_rules_at_a_thirty_one_table_are_refused_naming_whose_they_are(message: pb.HouseRules) -> None:
    with pytest.raises(BadRequest) as refused:
        wire.rules_from_pb(message)
    assert str(refused.value) == TEN_PENNIES_REFUSED


def test_thirty_one_rules_at_a_ten_pennies_table_are_refused() -> None:
    # Thirty-One's rules with no knob set are another game's as much as with one
    for message in (pb.HouseRules(thirty_one=pb.ThirtyOneRules(lives=2)),
                    pb.HouseRules(thirty_one=pb.ThirtyOneRules())):
        with pytest.raises(BadRequest) as refused:
            mapping.rules_from_pb(message)
        assert str(refused.value) == "rules.thirty_one is Thirty-One's: this table plays ten_pennies"


def test_a_command_of_the_other_game_is_refused_the_same_way_both_ways() -> None:
    with pytest.raises(BadRequest) as refused:
        mapping.command_from_pb(0, pb.Command(thirty_one_knock=pb.ThirtyOneKnock()))
    assert str(refused.value) == "thirty_one_knock is a Thirty-One command: this table plays ten_pennies"
    with pytest.raises(BadRequest) as refused:
        wire.command_from_pb(0, pb.Command(lay_off=pb.LayOff(card_id=1, set_id=0)))
    assert str(refused.value) == "lay_off is a Ten Pennies command: this table plays thirty_one"
    for name, game in wire_games.WIRE.items():  # every game's every command, at every other game's table
        for field in pb.Command.DESCRIPTOR.oneofs_by_name["kind"].fields:
            whose = owner(field.name)
            if whose != name:
                message = pb.Command()
                getattr(message, field.name).SetInParent()
                with pytest.raises(BadRequest, match=f"^{field.name} is a .* command: this table plays {name}$"):
                    game.command_from_pb(0, message)


def test_a_game_started_of_a_server_that_wrote_every_knob_is_read_with_the_knobs_its_preset_plays() -> None:
    """A server from before the refusal stored every knob in its GameStarted events, and sends them again from its
    store: a client reads them, leaving out what the preset does not play (it changes nothing)."""
    every = pb.ThirtyOneRules(preset=pb.THIRTY_ONE_PRESET_CLASSIC, lives=2, tokens=20, deals=0)
    started = pb.Event(game_started=pb.GameStarted(seats=3, rules=pb.HouseRules(thirty_one=every)))
    assert wire.event_from_pb(crossed(started), Rules()) == ev.GameStarted(3, Rules.of("classic", lives=2))
    with pytest.raises(BadRequest, match="tokens"):  # asked for, as a table's rules, it is refused
        wire.rules_from_pb(started.game_started.rules)


def test_the_knobs_enum_tables_are_the_engines_declared_words() -> None:
    for knob in KNOBS:
        if knob.choices:
            assert set(THIRTY_ONE_KNOB_ENUMS[knob.name]) == set(knob.words)
            assert len(set(THIRTY_ONE_KNOB_ENUMS[knob.name].values())) == len(knob.words)
            assert 0 not in THIRTY_ONE_KNOB_WORDS[knob.name]  # unset: the preset's, no word of its own
        else:
            assert hasattr(pb.ThirtyOneRules(), knob.name), knob.name  # the proto names each knob as the engine
    assert THIRTY_ONE_KNOB_ENUMS["three_of_a_kind"]["30.5"] == pb.THIRTY_ONE_THREE_OF_A_KIND_30_5


def test_an_unknown_knob_value_is_a_bad_request() -> None:
    message = pb.HouseRules()
    message.thirty_one.knocker_tie = 9  # type: ignore[assignment]  # as a newer or broken client may send
    with pytest.raises(BadRequest, match="knocker_tie"):
        wire.rules_from_pb(message)


# --- commands -------------------------------------------------------------------------------------

COMMANDS: list[cm.Command] = [
    cm.DrawStock(2), cm.TakeDiscard(0), cm.Discard(1, C("KH")), cm.Knock(3), cm.Stand(0),
    cm.ExchangeWidow(1, (C("7H"), C("KS")), (2, 0)), cm.ExchangeWidow(0, (C("AS"),), (1,)),
    cm.KeepHand(0, 1), cm.ExchangeMiddle(2, C("9C"), 1, 0), cm.SwapHand(1, 0), cm.Renew(1, 1, False),
    cm.Renew(0, 0, True), cm.TableSwap(2, C("2D"), C("QH")), cm.TableSwapAll(1),
]


def test_every_kind_of_command_comes_back_from_the_wire_as_it_went() -> None:
    assert {type(c) for c in COMMANDS} == set(cm.COMMAND_TYPES)
    for command in COMMANDS:
        message = crossed(wire.command_to_pb(command))
        assert message.WhichOneof("kind").startswith("thirty_one_")  # a grpcurl user tells it from Ten Pennies'
        assert wire.command_from_pb(command.seat, message) == command


@pytest.mark.parametrize("message", [
    pb.Command(), pb.Command(draw=pb.Draw()), pb.Command(thirty_one_discard=pb.ThirtyOneDiscard()),
    pb.Command(thirty_one_keep_hand=pb.ThirtyOneKeepHand()),
    pb.Command(thirty_one_exchange_middle=pb.ThirtyOneExchangeMiddle(card_id=3, place=0)),
    pb.Command(thirty_one_swap_hand=pb.ThirtyOneSwapHand()), pb.Command(thirty_one_renew=pb.ThirtyOneRenew()),
    pb.Command(thirty_one_table_swap=pb.ThirtyOneTableSwap(give_id=1)),
    pb.Command(thirty_one_discard=pb.ThirtyOneDiscard(card_id=10_000)),
    pb.Command(thirty_one_exchange_widow=pb.ThirtyOneExchangeWidow(give_ids=[1, 2, 3, 4], take_positions=[0])),
], ids=lambda m: str(m).replace("\n", " ") or "empty")
def test_a_command_that_cannot_be_one_is_a_bad_request(message: pb.Command) -> None:
    with pytest.raises(BadRequest):
        wire.command_from_pb(0, message)


# --- events ---------------------------------------------------------------------------------------

P = (ev.PlayerInfo(0, 3, 2, False, False, 19, 0), ev.PlayerInfo(1, 3, 0, True, False, 0, 7),
     ev.PlayerInfo(2, 0, 0, False, True, 0, 0))
ENDED = ev.DealEnded(4, "knock", 1, None, ((C("AS"), C("KS"), C("2H")), (C("3C"), C("3D"), C("3H")), ()),
                     (21.0, 30.5, 0.0), (2, 1, 0), (2, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0,), P, 0)
EVENTS: list[ev.Event] = [
    ev.GameStarted(3, Rules.of("switch")),
    ev.DealStarted(1, 2, P, 3, 42),
    ev.CardsReceived(1, (C("AS"), C("KS"), C("QS")), "deal"), ev.CardsReceived(0, (C("2C"),), "middle"),
    ev.UpcardTurned(C("7D")), ev.WidowDealt(3), ev.MiddleDealt(1, 3),
    ev.HandKept(2, 1, 0, (C("5H"), C("6H"), C("7H"))), ev.TableCardsTurned((C("9S"), C("TS"), C("JD"))),
    ev.TurnStarted(0, 5, True), ev.StockDrawn(1), ev.DiscardTaken(2, C("8C")), ev.Discarded(0, C("8C")),
    ev.Knocked(1), ev.Stood(2),
    ev.WidowExchanged(0, (C("2S"), C("3S")), (0, 2), (None, C("AH")), (C("2S"), C("KH"), C("3S"))),
    ev.MiddleExchanged(1, 0, 2, C("4D"), None), ev.MiddleExchanged(1, 1, 0, C("4C"), C("9H")),
    ev.HandSwapped(0, 1, (C("AD"), None, C("KD")), (None, None, None)),
    ev.HandRenewed(2, 0, False, (None, None, None)), ev.HandRenewed(2, 1, True, (C("2H"), C("3H"), C("4H"))),
    ev.TableSwapped(1, (C("2D"),), (C("QH"),)),
    ENDED, ev.DealEnded(5, "dead", None, None, ((), (), ()), (0.0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3, (0,) * 3,
                        (0,) * 3, (), P, 0),
    ev.DealEnded(6, "blitz", None, 0, ((C("AS"), C("KS"), C("QS")), (C("2C"), C("3C"), C("9D")), ()),
                 (31.0, 5.0, 0.0), (1, 2, 0), (0, 1, 0), (6, 0, 0), (1, 1, 0), (5, 0, 0), (), P, 1),
    ev.GameEnded((0, 1), P),
]


def test_every_kind_of_event_comes_back_from_the_wire_as_it_went() -> None:
    every = {cls for cls in vars(ev).values() if isinstance(cls, type) and issubclass(cls, ev.Event)} - {ev.Event}
    assert {type(e) for e in EVENTS} == every
    rules = Rules.of("switch")
    for event in EVENTS:
        message = crossed(wire.event_to_pb(event, rules))
        assert wire.event_from_pb(message, rules) == event, event


def test_the_tables_own_events_and_ten_pennies_own_are_no_thirty_one_event() -> None:
    rules = Rules()
    for message in (pb.Event(seat_changed=pb.SeatChanged(seat=pb.SeatInfo(seat=1))),
                    pb.Event(chat_posted=pb.ChatPosted(text="hi")), pb.Event(timer_expired=pb.TimerExpired(seat=0)),
                    pb.Event(decision_request=pb.DecisionRequest(seat=0)), pb.Event(),
                    pb.Event(round_started=pb.RoundStarted(round=1)), pb.Event(went_out=pb.WentOut(seat=1))):
        assert wire.event_from_pb(message, rules) is None


def test_a_face_down_card_goes_on_the_wire_as_no_card_at_all() -> None:
    exchanged = wire.event_to_pb(ev.MiddleExchanged(1, 0, 2, C("4D"), None), Rules.of("switch"))
    assert not exchanged.thirty_one_middle_exchanged.taken.HasField("card")
    swapped = wire.event_to_pb(ev.HandSwapped(0, 1, (C("AD"), None, None), (None, None, None)), Rules.of("switch"))
    assert [s.HasField("card") for s in swapped.thirty_one_hand_swapped.taken] == [True, False, False]
    assert "card" not in str(swapped.thirty_one_hand_swapped.given)


# --- the view -------------------------------------------------------------------------------------


def test_a_seat_view_with_every_part_filled_comes_back_from_the_wire_as_it_went() -> None:
    view = SeatView(
        seat=1, seats=3, rules=Rules.of("switch"), deal=4, dealer=0, turn_seat=1, turn=7, phase=Phase.AGAIN,
        to_act=(1,), hand=(C("AS"), C("KS"), C("2H")), spare=(C("3C"),), players=P, pile=(C("4H"), C("5H")),
        stock_size=30, knocker=2, final_turns=(0, 1), taken=C("5H"), widow=(None, C("9D"), None),
        middle=(MiddleHand(0, False, (False, True, False), (None, C("QC"), C("JC"))),
                MiddleHand(1, True, (True, True, True), (C("2S"), C("3S"), C("4S")))),
        table_cards=(C("9S"), C("TS"), C("JD")), centre=5, value=21.0, last_deal=ENDED, winners=(),
        legal=(cm.ExchangeMiddle(1, C("AS"), 0, 1), cm.SwapHand(1, 1), cm.Knock(1)))
    message = crossed(wire.view_to_pb(view))
    assert message.discard_top.text == "5H" and message.pile_size == 2 and message.seat == 1
    assert wire.view_from_pb(message, view.rules) == view
    watcher = SeatView(**{**{f: getattr(view, f) for f in view.__slots__}, "seat": None, "hand": (), "spare": (),
                          "legal": (), "taken": None, "knocker": None, "last_deal": None, "pile": ()})
    assert wire.view_from_pb(crossed(wire.view_to_pb(watcher)), view.rules) == watcher


# --- real games -----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_event_view_and_legal_command_of_seeded_games_comes_back_from_the_wire(preset: str) -> None:
    entry = wire_games.WIRE[wire_games.THIRTY_ONE]
    rng = random.Random(preset)
    kinds: Counter[str] = Counter()
    for seed in range(6):
        seats = rng.randint(2, 5)
        rules = Rules.of(preset)
        game = Game(seats, rules, seed)
        events = list(game.opening_events)
        while not game.over:
            for seat in (*range(seats), None):
                view = game.view(seat)
                assert entry.view_from_pb(crossed(entry.game_view(game, seat)), rules) == view
            seat = game.to_act()[0]
            legal = game.legal_commands(seat)
            for command in legal:
                assert entry.command_from_pb(seat, crossed(entry.command_to_pb(command))) == command
            events += game.apply(rng.choice(legal))
        for event in events:
            assert entry.event_from_pb(crossed(entry.event_to_pb(event, rules)), rules) == event, event
            kinds[type(event).__name__] += 1
    assert {"DealStarted", "CardsReceived", "TurnStarted", "DealEnded", "GameEnded"} <= set(kinds)
