"""The narrator (engine/ten_pennies/narrate.py): every event of real games in words, for a seat, a spectator
and a reader who sees every hand; why a round ended, worded once."""

from __future__ import annotations

import random
import re

from test_fold import played, random_table

from tenpennies.engine.ten_pennies import Game, HouseRules, Narrator
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.narrate import round_end_why

# A verb after "You" that reads for a name only (the narrator's one tense, the past, has none).
NOT_FOR_YOU = re.compile(r"\bYou (was|is|has|does|deals|draws|takes|buys|passes|discards|goes|lays|asks)\b")


def test_every_event_of_real_games_is_told_once_and_reads_right_for_you() -> None:
    rng = random.Random(8)
    silent: set[str] = set()
    for _ in range(25):
        seats, rules, seed = random_table(rng)
        events = list(Game(seats, rules, seed).opening_events)
        for _, _, after in played(seats, rules, seed):
            events += after
        you = Narrator(rules, lambda s: "You" if s == 0 else f"p{s}", seat=0)
        everyone = Narrator(rules, lambda s: f"p{s}", every_hand=True)
        for event in events:
            told = everyone.line(event)
            if told is None:
                silent.add(type(event).__name__)
            if event.visible_to(0):
                line = you.line(event)
                assert line is None or not NOT_FOR_YOU.search(line), line
                if isinstance(event, ev.StockDrawn):  # the seat's own draw is told by the card it drew
                    assert (line is None) == (event.seat == 0)
            if isinstance(event, ev.RoundEnded):
                assert told is not None and told.startswith(f"Round {event.round} over, {everyone.why(event)}: ")
                assert len(everyone.hands(event)) == seats
    assert silent == {"TurnStarted", "StockDrawn"}  # a turn's first move says it; the card drawn says a draw


def test_why_a_round_ended() -> None:
    name = {0: "You", 1: "Ann"}.__getitem__
    assert round_end_why(1, "out", name) == "Ann went out" and round_end_why(0, "out", name) == "You went out"
    assert round_end_why(None, "stock", name) == "the stock ran out"
    assert round_end_why(None, "max_turns", name) == "the turns ran out"
    assert round_end_why(None, "", name) == "it ended"  # a reason this side does not know
    end = ev.RoundEnded(2, None, "max_turns", ((), ()), (0, 5), (10, 20), 4)
    assert Narrator(HouseRules(), name).line(end) == "Round 2 over, the turns ran out: You 0 (10), Ann 5 (20)"


def test_a_review_entry_tells_the_hand_and_the_card_on_offer() -> None:
    """``Narrator.moment``: what a seat had before it at a decision, for a review's entry."""
    from tenpennies.engine.games import kind as game_kind

    for name in ("ten_pennies", "thirty_one"):
        played = game_kind(name)
        rules = played.rules_from_dict({})
        game = played.new(4, rules, 3)
        seat = game.to_act()[0]
        words = played.narrator(rules, str, card=lambda c: f"<{c.text}>").moment(game.view(seat))  # type: ignore[attr-defined]
        hand = game.view(seat).hand
        assert words.startswith("holding <") and all(f"<{c.text}>" in words for c in hand), words
        top = game.view(seat).discard_top if name == "ten_pennies" else game.view(seat).pile[-1]
        assert words.endswith(f"the <{top.text}>"), words
