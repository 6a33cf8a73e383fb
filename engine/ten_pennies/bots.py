"""Ten Pennies' bots: they play from a seat's view alone (``engine.play`` plays a whole game with them).

A bot is any object with ``choose(view: SeatView) -> Command``; it sees only what its seat may know
and picks from ``view.legal``. The network bot SDK wraps the same interface.

A bot may keep state across calls. One that wants to remember what its seat saw between its own
decisions (which seat took or bought which card, what went onto the pile: see ``worlds.SeatMemory``) may
also have ``observe(view: SeatView) -> None``: a driver that calls it with the seat's view after every
command gives it everything its seat saw (``engine.play.play_game`` does; ``observe`` is optional, and a bot must
still play correctly when only ``choose`` is called).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from .. import play
from ..cards import Card
from ..interface import Bot
from .commands import Buy, Command, DeclineDiscard, Discard, Draw, LayContract, LayOff, LaySet, PassBuy, TakeDiscard
from .game import Phase, SeatView


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
        "random": play.RandomBot,
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
