"""Worlds: whole games consistent with what one seat knows, for bots that search (``sampler``).

A seat sees its ``SeatView``: its own hand, the table, the pile's top card, every seat's hand size,
pennies and score, the phase and whose decision it is. Over a round it can also remember what it saw
happen: which seat took the live discard or bought it (a card that then sits in that hand until it shows
up on the table or the pile), and every card that went onto the pile (so it knows the pile below the
top). ``SeatMemory`` keeps exactly that, from the seat's successive views alone; ``sample_world`` deals
every card the seat has not seen, at random, to the other hands, the unknown part of the pile and the
stock, and returns a full ``Game`` that the seat could not tell from the real one.

The memory reads one view after another. It learns from a step between two views only when that step
is one command it can recognise (a take, a decline, an answer to a buy offer, a draw, a meld or a
discard): a driver that shows it the seat's view after every command (``engine.play.play_game`` does, through a
bot's optional ``observe``) gives it the full memory. Views further apart (a bot that is only shown the
views it decides on, or one that joins late) are never misread: the memory then forgets what it cannot
be sure of and keeps what any view shows (the pile's top; the rest of the pile becomes unknown, and a
world deals it from the unseen cards like the rest).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card, decks_for, shoe
from .game import Game, Phase, SeatState, SeatView
from .melds import TableSet


class SeatMemory:
    """What one seat remembers of the current round beyond its present view: ``known[s]``, cards known to
    be in seat ``s``'s hand (only other seats'), and ``pile``, the discard pile bottom first with None for
    a card it never saw there (always ``pile_size`` long, the top always known). Both describe the state
    of ``last``, the last view observed."""

    __slots__ = ("seat", "known", "pile", "last")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.known: list[set[Card]] = []
        self.pile: list[Card | None] = []
        self.last: SeatView | None = None

    def copy(self) -> SeatMemory:
        """What this memory holds now, to keep while it observes on."""
        other = SeatMemory(self.seat)
        other.known = [set(cards) for cards in self.known]
        other.pile = list(self.pile)
        other.last = self.last
        return other

    def observe(self, view: SeatView) -> None:
        """Fold in the seat's next view (the same view twice is harmless)."""
        if view.seat != self.seat:
            raise ValueError(f"this memory is seat {self.seat}'s, not seat {view.seat}'s")
        prev = self.last
        if prev is view:
            return
        self.last = view
        if view.phase is Phase.GAME_OVER:
            self.known, self.pile = [set() for _ in range(view.seats)], []
            return
        if prev is None or prev.phase is Phase.GAME_OVER or prev.round != view.round \
                or prev.dealer != view.dealer or not self._step(prev, view):
            self._forget(view)
            return
        pile = self.pile
        if pile and pile[-1] is None:  # the card under a taken or bought one shows now
            pile[-1] = view.discard_top
        public = {c for meld in view.table for c in meld.cards}
        public.update(c for c in self.pile if c is not None)
        for seat, cards in enumerate(self.known):
            cards -= public
            if len(cards) > view.players[seat].hand_size:  # cannot happen after a recognised step
                cards.clear()
        if len(self.pile) != view.pile_size or not self.pile or self.pile[-1] is not view.discard_top:
            self._forget(view)

    def _forget(self, view: SeatView) -> None:
        """Keep only what this view shows."""
        self.known = [set() for _ in range(view.seats)]
        self.pile = _unknown_pile(view)

    def _step(self, prev: SeatView, view: SeatView) -> bool:
        """Apply the one command between ``prev`` and ``view`` to the memory; False if the step is not one
        command this memory can recognise."""
        turn_seat, same_turn = prev.turn_seat, view.turn == prev.turn and view.turn_seat == prev.turn_seat
        rebuilt = view.reshuffles_left < prev.reshuffles_left
        pile = self.pile
        match prev.phase:
            case Phase.PICK_UP:
                if not same_turn:
                    return False
                if view.phase is Phase.MELD:  # took the live card
                    if view.stock_size != prev.stock_size or view.pile_size != prev.pile_size - 1:
                        return False
                    card = pile.pop()
                    if card is None:
                        return False
                    self._add(turn_seat, card)
                    return True
                return view.phase in (Phase.BUY, Phase.DRAW) and view.pile_size == prev.pile_size  # declined
            case Phase.BUY:
                if not same_turn:
                    return False
                if view.phase is Phase.BUY:
                    return view.pile_size == prev.pile_size
                if view.phase is not Phase.DRAW:
                    return False
                buyers = [s for s in range(view.seats)
                          if view.players[s].pennies == prev.players[s].pennies - 1]
                if len(buyers) > 1:
                    return False
                if buyers:
                    card = pile.pop()
                    if card is None:
                        return False
                    if buyers[0] != self.seat:
                        self._add(buyers[0], card)
                if rebuilt:
                    del pile[:-1]
                return True
            case Phase.DRAW:
                if not same_turn or view.phase is not Phase.MELD:
                    return False
                if rebuilt:
                    del pile[:-1]
                return True
            case Phase.MELD:
                if same_turn and view.phase is Phase.MELD:
                    return view.pile_size == prev.pile_size  # a meld: the table grew
                if view.phase is Phase.PICK_UP and view.turn == prev.turn + 1 and view.discard_top is not None:
                    pile.append(view.discard_top)  # the discard
                    return True
                return False
        return False

    def _add(self, seat: int, card: Card) -> None:
        if seat != self.seat:
            self.known[seat].add(card)


class Remembering:
    """A searching bot's memory: a ``SeatMemory`` per seat it plays, fed by ``observe(view)`` (a driver calls it
    after every command, as ``engine.play.play_game`` does) and by the views it decides on."""

    def __init__(self) -> None:
        self.memories: dict[int, SeatMemory] = {}

    def observe(self, view: SeatView) -> None:
        if view.seat is None:
            return
        memory = self.memories.get(view.seat)
        if memory is None:
            memory = self.memories[view.seat] = SeatMemory(view.seat)
        memory.observe(view)


def sample_world(view: SeatView, rng: random.Random, memory: SeatMemory | None = None) -> Game:
    """A whole game consistent with ``view`` (and with ``memory``, which must have observed ``view`` last):
    the seat's own hand, the table, the pile's top and every public number are the view's; the cards the
    memory knows are in another hand are there, the pile cards it saw are where it saw them, and every other
    card is dealt at random (from ``rng``) to the other hands, to the pile below what is known and to the
    stock. ``world.view(view.seat) == view``, field for field.

    What the view cannot tell is chosen so: other seats' answers to an open buy offer (this seat's own
    too, if it has answered) are passes, as every seat nearer than the first one still to answer must have
    passed; the world's random generator (reshuffles, later rounds) is seeded from ``rng``; the world has
    no command log (it cannot be replayed) and its ``seed`` is that generator's seed."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator has no hand: sample a world for a seat")
    if view.phase is Phase.GAME_OVER:
        raise ValueError("the game is over: there is nothing hidden left to sample")
    if memory is not None and memory.last is not view and memory.last != view:
        raise ValueError("the memory has not observed this view last")
    n = view.seats
    if memory is not None:
        known: Sequence[set[Card]] = memory.known
        pile_known: list[Card | None] = list(memory.pile)
    else:
        known = [set() for _ in range(n)]
        pile_known = _unknown_pile(view)
    used: set[int] = {c.id for c in view.hand}
    used.update(c.id for meld in view.table for c in meld.cards)
    used.update(c.id for c in pile_known if c is not None)
    for s, cards in enumerate(known):
        if s != seat:
            used.update(c.id for c in cards)
    unseen = [c for c in shoe(decks_for(n)) if c.id not in used]
    rng.shuffle(unseen)

    game = Game.__new__(Game)
    game.n = n
    game.rules = rules = view.rules
    game.seed = rng.getrandbits(64)
    game.rng = random.Random(game.seed)
    game.log = []
    players = []
    for s, info in enumerate(view.players):
        player = SeatState.__new__(SeatState)
        if s == seat:
            player.hand = list(view.hand)
        else:
            hand = list(known[s]) if s < len(known) else []
            hand.sort(key=_card_id)
            missing = info.hand_size - len(hand)
            if missing < 0:
                raise ValueError(f"the memory holds more cards in seat {s}'s hand than it has")
            hand.extend(unseen[len(unseen) - missing:] if missing else ())
            del unseen[len(unseen) - missing:]
            player.hand = hand
        player.down, player.pennies, player.score = info.down, info.pennies, info.score
        player.paid, player.won = info.paid, info.won
        players.append(player)
    game.players = players
    pile: list[Card] = []
    for card in pile_known:
        pile.append(card if card is not None else unseen.pop())
    if len(unseen) != view.stock_size:
        raise ValueError(f"the view and the memory do not add up: {len(unseen)} unseen cards for a stock of "
                         f"{view.stock_size}")
    game.stock = unseen
    game.pile = pile
    game.pile_live = view.discard_live
    game.pot = view.pot
    game.round_index = rules.rounds.index(view.round)
    game.spec = view.spec
    game.dealer, game.turn_seat, game.turn, game.phase = view.dealer, view.turn_seat, view.turn, view.phase
    game.buy_order = list(view.buy_offer)
    waiting = set(view.to_act)
    game.buy_answers = {s: False for s in view.buy_offer if s not in waiting} if view.phase is Phase.BUY else {}
    game.reshuffles_used = rules.reshuffles - view.reshuffles_left
    game.table = [TableSet(m.id, m.owner, m.cards, view.spec.wild_ranks) for m in view.table]
    game._meld_cache = None
    game.winners = ()
    game.opening_events = []
    return game


def _unknown_pile(view: SeatView) -> list[Card | None]:
    """The pile as the view alone shows it: its top card, and unknown cards below."""
    pile: list[Card | None] = [None] * view.pile_size
    if pile:
        pile[-1] = view.discard_top
    return pile


def _card_id(card: Card) -> int:
    return card.id
