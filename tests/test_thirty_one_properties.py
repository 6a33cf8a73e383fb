"""Properties of Thirty-One over many seeded games of every preset with random knobs: cards conserved,
tokens conserved, no view shows a card it may not, every listed command applies, every refused command
leaves the game unchanged citing a rule of the book, each seat's fold equals its view, replay from seed
and log reproduces the game, and storage round-trips.

The default run is short; ``T31_GAMES=2000`` (say) plays that many more games, every preset in turn."""

from __future__ import annotations

import dataclasses
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenpennies.engine.cards import Card
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot
from tenpennies.engine.thirty_one import events as ev
from tenpennies.engine.thirty_one.bots import HeuristicBot
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
)
from tenpennies.engine.thirty_one.fold import Known, fold, opening
from tenpennies.engine.thirty_one.game import DECK, Game
from tenpennies.engine.thirty_one.rules import PRESET_NAMES, RuleError, Rules
from tenpennies.engine.thirty_one.view import Phase, SeatView

BOOK = Path(__file__).resolve().parent.parent / "docs" / "THIRTY-ONE.md"
RULE_IDS = set(re.findall(r"^- (T31-\d+\.\d+)", BOOK.read_text(), re.M)) | {"T31"}


@st.composite
def tables(draw: st.DrawFn, preset: str | None = None) -> tuple[int, Rules, int]:
    preset = preset or draw(st.sampled_from(PRESET_NAMES))
    knobs = {}
    if draw(st.booleans()):  # half the games keep the preset's knobs
        knobs = dict(
            three_of_a_kind=draw(st.sampled_from(["30.5", "off"])), discard_taken=draw(st.booleans()),
            first_turn_knock=draw(st.booleans()), blitz_after_knock=draw(st.booleans()),
            knocker_tie=draw(st.sampled_from(["one", "two"])), lives=draw(st.integers(1, 4)),
            free_ride=draw(st.booleans()), tokens=draw(st.integers(1, 6)), deals=draw(st.integers(0, 4)))
    return draw(st.integers(2, 7)), Rules.of(preset, **knobs), draw(st.integers(0, 2**32))


def check_cards(game: Game) -> None:
    """Every card of the deck is in exactly one place."""
    places = [c for p in game.players for c in p.hand] + game.stock + game.pile + game.widow + game.spare + \
        [c for m in game.middle for c in m.cards] + game.table_cards + game.out_of_play
    assert sorted(c.id for c in places) == list(range(52))
    assert all(len(p.hand) == 3 for p in game.players if not p.out) or game.phase is Phase.DISCARD or game.over


def check_counts(game: Game) -> None:
    rules = game.rules
    if rules.scoring == "tokens":
        assert sum(p.tokens for p in game.players) + game.centre == game.n * rules.tokens
        assert all(p.tokens >= 0 for p in game.players)
    for p in game.players:
        assert p.lives >= 0 and (not p.riding or p.lives == 0)


def hidden_from(game: Game, seat: int | None) -> set[int]:
    """The cards ``seat`` may not see now: other hands, the stock, cards out of play, the face-down widow,
    face-down middle cards it did not put there, the switch dealer's second hand (but to the dealer)."""
    hidden = {c.id for s, p in enumerate(game.players) if s != seat for c in p.hand}
    hidden |= {c.id for c in game.stock + game.out_of_play}
    if not game.widow_up:
        hidden |= {c.id for c in game.widow}
    for m in game.middle:
        hidden |= {c.id for c, up, knower in zip(m.cards, m.up, m.knower, strict=True)
                   if not up and (seat is None or knower != seat)}
    if seat != game.dealer:
        hidden |= {c.id for c in game.spare}
    return hidden


def shown_by(view: SeatView) -> set[int]:
    """Every card the view shows where it lies now (left out: the last deal's shown hands, of a deal gone, and
    ``taken``, the card the turn took from the pile in everyone's sight)."""
    shown = list(view.hand) + list(view.spare) + list(view.pile) + list(view.table_cards) + \
        [c for c in view.widow if c is not None] + [c for m in view.middle for c in m.cards if c is not None]
    return {c.id for c in shown}


def random_commands(game: Game, rng: random.Random, count: int) -> Iterator[Command]:
    """Commands of every kind from every seat, mostly nonsense."""
    seats = range(-1, game.n + 1)
    hand_cards = [c for p in game.players for c in p.hand] or list(DECK)

    def card() -> Card:
        return rng.choice(hand_cards) if rng.random() < 0.8 else rng.choice(DECK)

    for _ in range(count):
        seat = rng.choice(seats)
        kind = rng.randrange(12)
        simple = (DrawStock, TakeDiscard, Knock, Stand, TableSwapAll)
        if kind < len(simple):
            yield simple[kind](seat)
        elif kind == 5:
            yield Discard(seat, card())
        elif kind == 6:
            k = rng.randint(0, 4)
            yield ExchangeWidow(seat, tuple({card() for _ in range(k)}),
                                tuple(rng.randrange(-1, 4) for _ in range(rng.choice((k, k, k + 1)))))
        elif kind == 7:
            yield KeepHand(seat, rng.randrange(-1, 3))
        elif kind == 8:
            yield ExchangeMiddle(seat, card(), rng.randrange(-1, 3), rng.randrange(-1, 4))
        elif kind == 9:
            yield SwapHand(seat, rng.randrange(-1, 3))
        elif kind == 10:
            yield Renew(seat, rng.randrange(-1, 3), rng.random() < 0.5)
        else:
            yield TableSwap(seat, card(), rng.choice(game.table_cards or list(DECK)))


def strip(view: SeatView) -> SeatView:
    return dataclasses.replace(view, legal=())


def play_checked(seats: int, rules: Rules, seed: int, deep: bool = True) -> Game:
    rng = random.Random(seed)
    game = Game(seats, rules, seed)
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 else HeuristicBot() for s in range(seats)]
    readers: list[int | None] = [None, *range(seats)]
    known: dict[int | None, Known] = {s: opening(s, seats, rules) for s in readers}

    def tell(events: list[ev.Event]) -> None:
        for event in events:
            if isinstance(event, ev.CardsReceived):
                assert event.to == event.seat
            for s in readers:
                if event.visible_to(s):
                    known[s] = fold(known[s], event)

    tell(game.opening_events)
    steps = 0
    while True:
        check_cards(game)
        check_counts(game)
        for s in readers:
            view = game.view(s)
            assert strip(known[s].view) == strip(view), f"seat {s}'s fold differs after {steps} commands"
            assert not shown_by(view) & hidden_from(game, s), f"seat {s} is shown a card it may not see"
        if game.over:
            break
        steps += 1
        assert steps < 20_000, "the game did not end"
        (seat,) = game.to_act()
        legal = {s: game.legal_commands(s) for s in range(seats)}
        assert legal[seat] and not any(legal[s] for s in range(seats) if s != seat)
        assert len(set(legal[seat])) == len(legal[seat])
        if deep:
            before = game.to_dict()
            for command in rng.sample(legal[seat], min(4, len(legal[seat]))):
                game.copy().apply(command)  # every listed command applies
            for command in random_commands(game, rng, 6):
                listed = 0 <= command.seat < seats and command in legal[command.seat]
                assert game.is_legal(command) == listed, command
                if not listed:
                    with pytest.raises(RuleError) as refused:
                        game.apply(command)
                    assert refused.value.rule in RULE_IDS, refused.value
            assert game.to_dict() == before, "a refused command changed the game"
        tell(game.apply(bots[seat].choose(game.view(seat))))
    assert game.result is not None and game.result.winners == game.winners and game.winners
    assert min(game.result.scores) == 1
    assert all(game.result.scores[s] == 1 for s in game.winners)
    replayed = Game.replay(seats, rules, seed, game.log)
    assert replayed.state() == game.state() and replayed.log == game.log
    assert Game.from_dict(game.to_dict()).state() == game.state()
    return game


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_properties_of_seeded_games_of_every_preset(table: tuple[int, Rules, int]) -> None:
    play_checked(*table)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_plays_to_its_end_with_every_check(preset: str) -> None:
    play_checked(3, Rules.of(preset), 1)


@pytest.mark.skipif(not os.environ.get("T31_GAMES"), reason="set T31_GAMES=N for N more games")
def test_properties_over_thousands_of_games() -> None:
    count = int(os.environ["T31_GAMES"])
    for seed in range(count):
        preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
        play_checked(2 + seed % 6, Rules.of(preset), seed, deep=seed % 10 == 0)


def test_copy_is_independent_and_plays_the_same() -> None:
    for preset in PRESET_NAMES:
        game = Game(4, Rules.of(preset), 8)
        rng = random.Random(1)
        for _ in range(15):
            if game.over:
                break
            game.apply(rng.choice(game.legal_commands(game.to_act()[0])))
        twin = game.copy()
        assert twin.state() == game.state()
        a, b = game.copy(), game.copy()
        for _ in range(40):
            if a.over:
                break
            command = rng.choice(a.legal_commands(a.to_act()[0]))
            assert a.apply(command) == b.apply(command)
        assert twin.state() == game.state()  # playing the copies left both the game and the twin alone
        assert a.state() == b.state()


def test_a_fold_may_start_from_a_snapshot_mid_game() -> None:
    for preset in PRESET_NAMES:
        game = Game(3, Rules.of(preset), 21)
        rng = random.Random(2)
        for _ in range(10):
            game.apply(rng.choice(game.legal_commands(game.to_act()[0])))
        known = {s: Known.of(game.view(s)) for s in (None, 0, 1, 2)}
        for _ in range(60):
            if game.over:
                break
            events = game.apply(rng.choice(game.legal_commands(game.to_act()[0])))
            for s in known:
                for event in events:
                    if event.visible_to(s):
                        known[s] = fold(known[s], event)
                assert strip(known[s].view) == strip(game.view(s))
