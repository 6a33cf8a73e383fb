"""Properties over many seeded random games of 2-8 seats with random house rules."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tenpennies.engine.cards import decks_for
from tenpennies.engine.interface import Bot
from tenpennies.engine.play import RandomBot
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
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
)
from tenpennies.engine.ten_pennies.bots import GreedyBot, safe_default
from tenpennies.engine.ten_pennies.commands import Command
from tenpennies.engine.ten_pennies.game import Phase

from positions import position

SIMPLE = (TakeDiscard, DeclineDiscard, Buy, PassBuy, Draw)


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, HouseRules, int]:
    seats = draw(st.integers(2, 8))
    rounds = tuple(sorted(draw(st.sets(st.integers(1, 7), min_size=1, max_size=3))))
    max_hand = min(11, (decks_for(seats) * 54 - 1) // seats)
    rules = HouseRules(
        preset=draw(st.sampled_from(["standard", "deuces"])),
        distinct_suits=draw(st.booleans()), all_wild_sets=draw(st.booleans()),
        wild_layoff_cap=draw(st.booleans()), discard_to_go_out=draw(st.booleans()),
        later_set_wilds=draw(st.sampled_from(["round_cap", "one_per_three"])),
        hand_size=draw(st.integers(3, max_hand)), buy_pennies=draw(st.integers(0, 10)),
        buy_penalty_cards=draw(st.integers(0, 3)), reshuffles=draw(st.integers(0, 2)),
        max_turns=draw(st.integers(1, 40)), rounds=rounds)
    return seats, rules, draw(st.integers(0, 2**32))


def check_cards(game: Game) -> None:
    """Every physical card is in exactly one place."""
    places = [c.id for p in game.players for c in p.hand] + [c.id for c in game.stock] + \
        [c.id for c in game.pile] + [c.id for t in game.table for c in t.cards]
    assert sorted(places) == list(range(decks_for(game.n) * 54))


def check_pennies(game: Game) -> None:
    """Pennies are neither made nor lost: buy stacks + pot + winnings = stakes + card payments."""
    players = game.players
    assert all(p.pennies >= 0 for p in players)
    held = sum(p.pennies for p in players) + game.pot + sum(p.won for p in players)
    if game.over:
        held -= game.pot  # the pot has been paid out to the winners
    assert held == game.n * game.rules.buy_pennies + sum(p.paid for p in players)


def reference_set_ok(cards: list[Card], game: Game, further: bool) -> bool:
    """An independent reading of TP-4.8 to TP-4.10 and TP-4.12 for a set being laid (``further``: after
    the contract)."""
    spec, rules = game.spec, game.rules
    if len(cards) < 3 or len({c.id for c in cards}) != len(cards):
        return False
    naturals = [c for c in cards if c.rank not in spec.wild_ranks]
    if not naturals:
        return rules.all_wild_sets
    if len({c.rank for c in naturals}) != 1:
        return False
    suited = [c.suit for c in naturals if c.suit is not None]
    if rules.distinct_suits and len(set(suited)) != len(suited):
        return False
    wilds = len(cards) - len(naturals)
    if further and rules.later_set_wilds == "one_per_three":
        return 3 * wilds <= len(cards)  # one wild for every three cards
    return wilds <= spec.wild_cap


def reference_meld_ok(game: Game, command: Command) -> bool | None:
    """An independent reading of TP-4.11, 4.12 and 4.16 for a meld command (None: not a meld)."""
    if not isinstance(command, (LaySet, LayContract)):
        return None
    seat = command.seat
    if game.phase is not Phase.MELD or seat != game.turn_seat:
        return False
    me = game.players[seat]
    sets = [command.cards] if isinstance(command, LaySet) else list(command.sets)
    laid = [c for s in sets for c in s]
    if len({c.id for c in laid}) != len(laid) or any(c not in me.hand for c in laid):
        return False
    if len(me.hand) - len(laid) < (1 if game.rules.discard_to_go_out else 0):
        return False
    if isinstance(command, LaySet):
        if not me.down:
            return False
    elif me.down or len(sets) != game.spec.contract.sets or \
            any(len(s) < game.spec.contract.size for s in sets):
        return False
    return all(reference_set_ok(list(s), game, isinstance(command, LaySet)) for s in sets)


def random_commands(game: Game, rng: random.Random, count: int,
                    legal: dict[int, list[Command]]) -> Iterator[Command]:
    """Commands of every kind from every seat, mostly nonsense, and listed melds changed by a card."""
    melds = [c for cs in legal.values() for c in cs if isinstance(c, (LaySet, LayContract))]
    for command in rng.sample(melds, min(3, len(melds))):
        hand = [c for c in game.players[command.seat].hand]
        sets = [list(command.cards)] if isinstance(command, LaySet) else [list(s) for s in command.sets]
        target = rng.choice(sets)
        change = rng.randrange(5)
        used = {c.id for s in sets for c in s}
        if change >= 3 and target:  # another card of the same rank, or another wild: often still legal
            i = rng.randrange(len(target))
            wild = game.spec.wild_ranks
            alike = [c for c in hand if c.id not in used and
                     (c.rank == target[i].rank or (c.rank in wild and target[i].rank in wild))]
            if alike:
                target[i] = rng.choice(alike)
            elif change == 4 and len(target) > 3:
                target.pop(i)
        elif change == 0 and target:
            target.remove(rng.choice(target))
        elif change == 1:
            target.append(rng.choice(hand))
        elif target:
            target[rng.randrange(len(target))] = rng.choice(hand)
        if isinstance(command, LaySet):
            yield LaySet(command.seat, tuple(sets[0]))
        else:
            yield LayContract(command.seat, tuple(tuple(s) for s in sets))
    seats = range(-1, game.n + 1)
    hand_cards = [c for p in game.players for c in p.hand]

    def any_card() -> Card:
        if hand_cards and rng.random() < 0.8:
            return rng.choice(hand_cards)
        return Card.from_id(rng.randrange(decks_for(game.n) * 54))

    for _ in range(count):
        seat = rng.choice(seats)
        kind = rng.randrange(9)
        if kind < 5:
            yield SIMPLE[kind](seat)
        elif kind == 5:
            yield Discard(seat, any_card())
        elif kind == 6:
            yield LayOff(seat, any_card(), rng.randrange(-1, len(game.table) + 2))
        elif kind == 7:
            hand = game.players[seat].hand if 0 <= seat < game.n else hand_cards
            yield LaySet(seat, tuple(rng.sample(hand, min(len(hand), rng.randint(1, 7)))) if hand else ())
        else:
            hand = game.players[seat].hand if 0 <= seat < game.n else hand_cards
            k = game.spec.contract.sets + rng.choice((0, 0, 0, -1, 1))
            picked = rng.sample(hand, min(len(hand), rng.randint(0, 14))) if hand else []
            yield LayContract(seat, tuple(tuple(picked[i::max(k, 1)]) for i in range(max(k, 0))))


def check_buy_answers_private(game: Game) -> None:
    """TP-4.7, read on its own: while the offer is open, each answering seat answers both ways on a copy;
    until the offer settles every other seat and a spectator are shown the same (view, whose decision it
    is, legal commands, the events they see)."""
    state = game.to_dict()
    for seat in game.to_act():
        said_buy, said_pass = Game.from_dict(state), Game.from_dict(state)
        buy_events, pass_events = said_buy.apply(Buy(seat)), said_pass.apply(PassBuy(seat))
        if said_buy.phase is not Phase.BUY or said_pass.phase is not Phase.BUY:
            continue  # the answer settled the offer: the outcome is public
        for other in [s for s in range(game.n) if s != seat] + [None]:
            assert said_buy.view(other) == said_pass.view(other), f"seat {other} can tell seat {seat}'s answer"
            assert [e for e in buy_events if e.visible_to(other)] == [e for e in pass_events if e.visible_to(other)]


RULE_NUMBER = re.compile(r"TP-\d+\.\d+")


def play_checked(seats: int, rules: HouseRules, seed: int, deep: bool) -> Game:
    rng = random.Random(seed)
    game = Game(seats, rules, seed)
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 else GreedyBot() for s in range(seats)]
    steps = 0
    while not game.over:
        steps += 1
        assert steps < 50_000, "the game did not end"
        check_cards(game)
        check_pennies(game)
        to_act = game.to_act()
        assert to_act
        legal = {s: game.legal_commands(s) for s in range(seats)}
        assert all(legal[s] for s in to_act) and not any(legal[s] for s in range(seats) if s not in to_act)
        if game.phase is Phase.BUY and (deep or steps % 25 == 0):  # costly: all offers when deep, else a sample
            check_buy_answers_private(game)
        if deep:
            before = game.to_dict()
            for command in random_commands(game, rng, 6, legal):
                listed = command in legal.get(command.seat, ())
                oracle = reference_meld_ok(game, command)
                try:
                    game.apply(command)
                    accepted = True
                except RuleError as refusal:
                    accepted = False
                    assert RULE_NUMBER.fullmatch(refusal.rule), f"{command}: cites {refusal.rule}, not a numbered rule"
                    assert game.to_dict() == before, f"refused {command} but the game changed"
                if oracle is None:
                    assert accepted == listed, f"{command}: listed {listed}, accepted {accepted}"
                else:
                    assert accepted == oracle, f"{command}: legal by the rule book {oracle}, accepted {accepted}"
                    assert accepted or not listed
                if accepted:
                    game = Game.from_dict(before)  # undo the probe
            if steps % 7 == 0:  # every listed command is accepted
                for seat in to_act:
                    for command in legal[seat]:
                        probe = Game.from_dict(before)
                        probe.apply(command)
        seat = to_act[0]
        view = game.view(seat)
        assert safe_default(view) in view.legal
        command = bots[seat].choose(view)
        assert command in legal[seat]
        game.apply(command)
    check_cards(game)
    check_pennies(game)
    assert game.round_index == len(rules.rounds) - 1
    replayed = Game.replay(seats, rules, seed, game.log)
    assert replayed.to_dict() == game.to_dict()
    assert Game.replay(seats, rules, seed, game.log, trusted=True).to_dict() == game.to_dict()
    return game


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_listed_commands_are_accepted_and_others_refused_unchanged(table: tuple[int, HouseRules, int]) -> None:
    seats, rules, seed = table
    play_checked(seats, rules, seed, deep=True)


def test_thousands_of_seeded_games_keep_cards_and_pennies_and_replay() -> None:
    rng = random.Random(2026)
    for _ in range(1500):
        seats, rules, seed = _random_table(rng)
        play_checked(seats, rules, seed, deep=False)


def _random_table(rng: random.Random) -> tuple[int, HouseRules, int]:
    seats = rng.randint(2, 8)
    max_hand = min(11, (decks_for(seats) * 54 - 1) // seats)
    rounds = tuple(sorted(rng.sample(range(1, 8), rng.randint(1, 2))))
    rules = HouseRules(
        preset=rng.choice(["standard", "deuces"]), distinct_suits=rng.random() < 0.7,
        all_wild_sets=rng.random() < 0.7, wild_layoff_cap=rng.random() < 0.3,
        discard_to_go_out=rng.random() < 0.3,
        later_set_wilds="one_per_three" if rng.random() < 0.3 else "round_cap", hand_size=rng.randint(3, max_hand),
        buy_pennies=rng.randint(0, 10), buy_penalty_cards=rng.randint(0, 3), reshuffles=rng.randint(0, 2),
        max_turns=rng.randint(1, 30), rounds=rounds)
    return seats, rules, rng.randrange(2**32)


def test_full_games_of_every_size_end_after_seven_rounds() -> None:
    for seats in range(2, 9):
        game = play_checked(seats, HouseRules(), seed=seats, deep=False)
        assert game.over and game.winners


def test_safe_default_passes_declines_draws_and_discards_the_highest_point_natural() -> None:
    game = position(hands={0: "3C KD KH.1 9D", 1: "4C", 2: "5C", 3: "6C"}, pile="QS", stock="5S 5H",
                    phase=Phase.PICK_UP)
    assert safe_default(game.view(0)) == DeclineDiscard(0)
    game.apply(DeclineDiscard(0))
    assert [safe_default(game.view(s)) for s in game.to_act()] == [PassBuy(1), PassBuy(2), PassBuy(3)]
    for seat in (1, 2, 3):
        game.apply(PassBuy(seat))
    assert safe_default(game.view(0)) == Draw(0)
    game.apply(Draw(0))
    # KD and KH.1 are worth 10 each: the highest card id of the two
    assert safe_default(game.view(0)) == Discard(0, max(Card.parse("KD"), Card.parse("KH.1")))
    # from round 5 jokers, aces and deuces are wild (TP-2.1): worth the most, they are kept
    game = position(round=5, hands={0: "AC KD JK 9D 2S"}, down=(0,))
    assert safe_default(game.view(0)) == Discard(0, Card.parse("KD"))
    game = position(round=5, hands={0: "AC JK 2S"}, down=(0,))
    assert safe_default(game.view(0)) == Discard(0, Card.parse("JK"))  # nothing but wilds: the highest
