"""The one seat loop (engine/seats.py): a bot's answer checked and counted, and a buy offer put to every
offered seat at once, its answers applied nearest seat first until it settles."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from tenpennies.engine import seats
from tenpennies.engine.seats import Fault
from tenpennies.engine.ten_pennies import Buy, Command, Draw, Game, HouseRules, PassBuy, Phase, SeatView
from tenpennies.engine.ten_pennies.bots import GreedyBot, safe_default
from tenpennies.engine.ten_pennies.commands import LaySet, TakeDiscard


class Answers:
    """Answers what it is told; remembers every view it was shown."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.seen: list[SeatView] = []

    def choose(self, view: SeatView) -> Command:
        self.seen.append(view)
        if isinstance(self.answer, Exception):
            raise self.answer
        return cast(Command, self.answer(view) if callable(self.answer) else self.answer)


def a_buy_offer(offered: int = 3) -> Game:
    """A four-seat game at a buy offer to ``offered`` seats, reached by greedy play."""
    for seed in range(200):
        game = Game(4, HouseRules(rounds=(1,)), seed)
        while not game.over:
            if game.phase is Phase.BUY and len(game.to_act()) == offered:
                return game
            seat = game.to_act()[0]
            view = game.view(seat)
            command = GreedyBot().choose(view)
            if game.phase is Phase.PICK_UP:
                command = view.legal[1]  # decline: offers come often
            game.apply(command)
    raise AssertionError("no such offer in 200 deals")


def test_a_legal_answer_is_played_and_a_wrong_one_is_the_safe_default_counted() -> None:
    game = Game(4, HouseRules(rounds=(1,)), 3)
    seat = game.to_act()[0]
    view = game.view(seat)
    tally = seats.Tally()
    good = seats.ask(Answers(view.legal[0]), view, safe_default, game.is_legal)
    assert (good.command, good.fault) == (view.legal[0], None)
    raised = seats.ask(Answers(RuntimeError("boom")), view, safe_default, game.is_legal)
    assert (raised.command, raised.fault, raised.why) == (safe_default(view), Fault.ERROR, "RuntimeError: boom")
    assert view.phase is Phase.PICK_UP
    for wrong in (Draw(seat), TakeDiscard((seat + 1) % 4), "take it", None):  # not now, not mine, nonsense
        answer = seats.ask(Answers(wrong), view, safe_default, game.is_legal)
        assert (answer.command, answer.fault) == (safe_default(view), Fault.ILLEGAL), wrong
        tally.count(answer)
    tally.count(good)
    tally.count(raised)
    tally.count(seats.late(view, safe_default))
    assert (tally.decisions, tally.illegal, tally.timeouts) == (7, 5, 1)


def test_a_legal_meld_the_view_does_not_list_is_played_when_the_rules_accept_it() -> None:
    game = Game(3, HouseRules(rounds=(1,)), 0)
    while not (game.phase is Phase.MELD and any(isinstance(c, LaySet) for c in game.legal_commands(game.to_act()[0]))):
        seat = game.to_act()[0]
        game.apply(GreedyBot().choose(game.view(seat)))
        assert not game.over
    seat = game.to_act()[0]
    meld = next(c for c in game.legal_commands(seat) if isinstance(c, LaySet))
    view = game.view(seat)
    trimmed = replace(view, legal=tuple(c for c in view.legal if c != meld))  # as a server lists a bounded few
    assert seats.ask(Answers(meld), trimmed, safe_default).fault is Fault.ILLEGAL  # no judge: listed only
    assert seats.ask(Answers(meld), trimmed, safe_default, game.is_legal).command == meld


def test_a_buy_offer_asks_every_offered_seat_at_once_and_settles_nearest_first() -> None:
    game = a_buy_offer()
    nearest, middle, farthest = game.to_act()
    bots = {nearest: Answers(lambda v: PassBuy(v.seat)), middle: Answers(lambda v: Buy(v.seat)),
            farthest: Answers(lambda v: Buy(v.seat))}
    before = len(game.log)
    seats.play_decision(game, lambda seat, view: bots[seat].choose(view))
    assert all(len(bot.seen) == 1 for bot in bots.values())  # all three asked, once each...
    assert all(bot.seen[0].phase is Phase.BUY for bot in bots.values())  # ...while the offer was open
    assert game.log[before:] == [PassBuy(nearest), Buy(middle)]  # the farthest's answer came too late
    assert game.phase is Phase.DRAW and game.players[middle].pennies == game.rules.buy_pennies - 1


def test_every_pass_settles_the_offer_with_every_answer() -> None:
    game = a_buy_offer()
    offered = game.to_act()
    before = len(game.log)
    seats.play_decision(game, lambda seat, view: PassBuy(seat), trusted=True)
    assert game.log[before:] == [PassBuy(seat) for seat in offered] and game.phase is Phase.DRAW
