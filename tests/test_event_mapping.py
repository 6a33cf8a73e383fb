"""The wire's event mapping both ways (protos/wire/mapping.py): every engine event of many real games goes
onto the wire and comes back the same event; the table's own wire events are no game event."""

from __future__ import annotations

import random
from collections import Counter

from test_fold import played, random_table

from tenpennies.engine.ten_pennies import Game
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import ten_pennies as mapping


def test_every_event_of_real_games_comes_back_from_the_wire_as_it_went() -> None:
    rng = random.Random(5)
    kinds: Counter[str] = Counter()
    for _ in range(40):
        seats, rules, seed = random_table(rng)
        events = list(Game(seats, rules, seed).opening_events)
        for _, _, after in played(seats, rules, seed):
            events += after
        for event in events:
            message = mapping.event_to_pb(event, rules)
            wired = pb.Event.FromString(message.SerializeToString())  # as it crosses the wire
            assert mapping.event_from_pb(wired, rules) == event, event
            kinds[type(event).__name__] += 1
    every = {cls.__name__ for cls in vars(ev).values() if isinstance(cls, type) and issubclass(cls, ev.Event)}
    assert set(kinds) == every - {"Event"}, every - set(kinds)


def test_the_tables_own_events_are_no_game_event() -> None:
    rules = mapping.rules_from_pb(pb.HouseRules())
    for message in (pb.Event(seat_changed=pb.SeatChanged(seat=pb.SeatInfo(seat=1))),
                    pb.Event(chat_posted=pb.ChatPosted(text="hi")),
                    pb.Event(timer_expired=pb.TimerExpired(seat=0)),
                    pb.Event(decision_request=pb.DecisionRequest(seat=0)), pb.Event()):
        assert mapping.event_from_pb(message, rules) is None


def test_a_round_end_reason_this_side_does_not_know_is_told_as_an_end() -> None:
    newer = pb.RoundEnded(round=1)
    newer.reason = 99  # type: ignore[assignment]  # a reason a newer server may send
    end = mapping.event_from_pb(pb.Event(round_ended=newer), mapping.rules_from_pb(pb.HouseRules()))
    assert isinstance(end, ev.RoundEnded) and end.reason == "" and end.out is None
