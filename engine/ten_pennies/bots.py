"""Bots that play from a seat's view alone, and a loop that plays a whole game with them.

A bot is any object with ``choose(view: SeatView) -> Command``; it sees only what its seat may know
and picks from ``view.legal``. The network bot SDK wraps the same interface.

A bot may keep state across calls. One that wants to remember what its seat saw between its own
decisions (which seat took or bought which card, what went onto the pile: see ``worlds.SeatMemory``) may
also have ``observe(view: SeatView) -> None``: a driver that calls it with the seat's view after every
command gives it everything its seat saw (``play_game`` does; ``observe`` is optional, and a bot must
still play correctly when only ``choose`` is called).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from ..cards import Card
from ..seats import play_decision
from ..tournament import seated
from .commands import Buy, Command, DeclineDiscard, Discard, Draw, LayContract, LayOff, LaySet, PassBuy, TakeDiscard
from .events import Event
from .game import Game, Phase, SeatView
from .rules import HouseRules


class Bot(Protocol):
    def choose(self, view: SeatView) -> Command: ...


class RandomBot:
    """Picks uniformly among the legal commands listed for its seat."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Command:
        return self.rng.choice(view.legal)


class GreedyBot:
    """Goes down as soon as it can, lays off everything it can, buys a card that completes or nearly
    completes its contract, and discards its highest-point deadwood."""

    def choose(self, view: SeatView) -> Command:
        seat = view.seat
        assert seat is not None, "a spectator does not play"
        me = view.players[seat]
        if view.phase is Phase.PICK_UP:
            return TakeDiscard(seat) if self._wants(view, view.discard_top) else DeclineDiscard(seat)
        if view.phase is Phase.BUY:
            return Buy(seat) if (not me.down and self._completes(view, view.discard_top)) else PassBuy(seat)
        if view.phase is Phase.DRAW:
            return Draw(seat)
        return self._meld_or_discard(view)

    # --- pick up and buy ---

    def _wants(self, view: SeatView, card: Card | None) -> bool:
        if card is None:
            return False
        spec = view.spec
        if card.rank in spec.wild_ranks:
            return True
        if view.seat is not None and view.players[view.seat].down:
            return any(m.rank == card.rank and not self._suit_taken(view, m.cards, card) for m in view.table)
        return any(c.rank == card.rank and not self._same_suit(view, c, card) for c in view.hand)

    def _completes(self, view: SeatView, card: Card | None) -> bool:
        """The card is wild, or joins two or more naturals of its rank already in hand."""
        if card is None:
            return False
        if card.rank in view.spec.wild_ranks:
            return True
        suits = {c.suit for c in view.hand if c.rank == card.rank}
        if view.rules.distinct_suits and card.suit is not None and card.suit in suits:
            return False
        return sum(1 for c in view.hand if c.rank == card.rank) >= 2

    @staticmethod
    def _same_suit(view: SeatView, a: Card, b: Card) -> bool:
        return view.rules.distinct_suits and a.suit is not None and a.suit == b.suit

    def _suit_taken(self, view: SeatView, cards: Sequence[Card], card: Card) -> bool:
        return any(self._same_suit(view, c, card) for c in cards if c.rank not in view.spec.wild_ranks)

    # --- meld phase ---

    def _meld_or_discard(self, view: SeatView) -> Command:
        contracts = [c for c in view.legal if isinstance(c, LayContract)]
        if contracts:
            return max(contracts, key=lambda c: (sum(x.points for s in c.sets for x in s),
                                                 -sum(x.id for s in c.sets for x in s)))
        new_sets = [c for c in view.legal if isinstance(c, LaySet)]
        if new_sets:
            return max(new_sets, key=lambda c: (sum(x.points for x in c.cards), -sum(x.id for x in c.cards)))
        layoffs = [c for c in view.legal if isinstance(c, LayOff)]
        if layoffs:
            return max(layoffs, key=lambda c: (c.card.points, -c.card.id, -c.set_id))
        # the best discard: naturals before wilds, lone ranks before pairs, high points first
        wild_ranks = view.spec.wild_ranks
        ranks = Counter(c.rank for c in view.hand if c.rank not in wild_ranks)
        discards = [c for c in view.legal if isinstance(c, Discard)]
        return max(discards, key=lambda c: (c.card.rank not in wild_ranks, -ranks.get(c.card.rank, 0),
                                            c.card.points, -c.card.id))


def safe_default(view: SeatView) -> Command:
    """What the server does for a seat whose decision timer ran out (``view`` is of a seat the game waits
    for): pass on a buy, decline the discard, draw, and in the meld phase discard the highest-point natural
    card (the highest card id among equals; a wild only when the hand holds nothing else: no player would
    throw one away). It never melds, so it is always legal and ends the decision."""
    seat = view.seat
    assert seat is not None, "a spectator has no decisions"
    match view.phase:
        case Phase.BUY:
            return PassBuy(seat)
        case Phase.PICK_UP:
            return DeclineDiscard(seat)
        case Phase.DRAW:
            return Draw(seat)
        case Phase.MELD:
            wild = view.spec.wild_ranks
            return Discard(seat, max(view.hand, key=lambda card: (card.rank not in wild, card.points, card.id)))
    raise ValueError(f"seat {seat} has no decision in phase {view.phase.value}")


def _builtin() -> dict[str, Callable[[int], Bot]]:
    from .search import SearchBot
    from .strategies import PlanBot, SamplerBot

    return {
        "greedy": lambda seed: GreedyBot(),
        "random": RandomBot,
        "averaging": lambda seed: PlanBot("averaging", seed),
        "early": lambda seed: PlanBot("early", seed),
        "holdout": lambda seed: PlanBot("holdout", seed),
        "sampler": lambda seed: SamplerBot(seed),
        "searcher": lambda seed: SearchBot(seed),
    }


BOTS: dict[str, Callable[[int], Bot]] = _builtin()
"""The built-in bots by name, each made from a seed (the greedy and plan bots make no random choice):
``random``, ``greedy``, the penny plans ``averaging``, ``early``, ``holdout``, the searching
``sampler`` (see ``strategies``) and ``searcher`` (see ``search``)."""


def play_game(game: Game, bots: Sequence[Bot], max_commands: int = 1_000_000,
              on_events: Callable[[list[Event]], object] | None = None) -> Game:
    """Let ``bots[seat]`` play every seat until the game ends; ``on_events`` sees each command's events.
    Decisions are played by the one seat loop (``engine.seats.play_decision``: a buy offer asks every
    offered seat at once), strictly: a bot that raises or answers something illegal stops the game with
    its error (tests and benches want to know). A bot with ``observe`` is shown its seat's view after
    every command (and once before the first)."""
    watchers: list[tuple[int, Callable[[SeatView], object]]] = []
    for seat, bot in enumerate(bots):
        observe = getattr(bot, "observe", None)
        if callable(observe):
            watchers.append((seat, observe))
    for seat, observe in watchers:
        observe(game.view(seat))

    def watched(events: list[Event]) -> None:
        for watcher, observe in watchers:
            observe(game.view(watcher))
        if on_events is not None:
            on_events(events)

    def decide(seat: int, view: SeatView) -> Command:
        return bots[seat].choose(view)

    seen = watched if watchers or on_events is not None else None
    for _ in range(max_commands):
        if game.over:
            return game
        play_decision(game, decide, applied=seen)
    raise RuntimeError("the game did not end")


def play_duplicate_deal(make_x: Callable[[int], Bot], make_y: Callable[[int], Bot], rules: HouseRules,
                        seed: int, deal: int) -> tuple[float, float]:
    """Deal ``deal`` (dealt from ``seed + deal``) played twice at 4 seats, seatings X Y X Y and Y X Y X,
    the bot at seat ``s`` made with seed ``10 * deal + s``: (X's mean score, Y's mean score) over their
    four seat-games. ``bench/strength.py`` and the strength tests measure bots with it."""
    x_total = y_total = 0.0
    for rotation in (0, 1):
        is_x = [entry == "x" for entry in seated(("x", "y", "x", "y"), rotation)]
        bots = [make_x(deal * 10 + s) if is_x[s] else make_y(deal * 10 + s) for s in range(4)]
        game = play_game(Game(4, rules, seed + deal), bots)
        for s, player in enumerate(game.players):
            if is_x[s]:
                x_total += player.score / 4
            else:
                y_total += player.score / 4
    return x_total, y_total
