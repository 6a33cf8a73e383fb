"""Hand-built positions: a real Game, dealt as usual, then set to the cards a test names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpennies.engine.cards import Card, decks_for, shoe
from tenpennies.engine.ten_pennies import Game, HouseRules, parse_cards
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.melds import TableSet


def position(seats: int = 4, *, round: int = 1, hands: dict[int, str] | None = None,
             stock: str | None = None, pile: str = "", live: bool = True, turn_seat: int = 0,
             phase: Phase = Phase.MELD, down: tuple[int, ...] = (), sets: Sequence[tuple[int, str]] = (),
             pennies: dict[int, int] | None = None, **knobs: Any) -> Game:
    """A game in round ``round`` (the table plays that round and any after it) where:

    * ``hands[seat]`` is that seat's hand (seats not named get an empty hand unless ``stock`` is None);
    * ``stock`` is the stock, **top card first**; None puts every card not named elsewhere in it;
    * ``pile`` is the discard pile, bottom first (the last card is the top, ``live`` says if it is live);
    * ``sets`` are (owner, cards) on the table, numbered in order; ``down`` are the seats that are down.
    """
    rounds = knobs.pop("rounds", tuple(r for r in range(1, 8) if r >= round))
    rules = HouseRules(rounds=rounds, **knobs)
    game = Game(seats, rules, seed=0)
    game.round_index = rules.rounds.index(round)
    game.spec = rules.round(round)
    hands = hands or {}
    named: set[int] = set()

    def cards(text: str) -> list[Card]:
        found = parse_cards(text)
        for card in found:
            assert card.id not in named, f"{card} is named twice in this position"
            named.add(card.id)
        return found

    for seat, player in enumerate(game.players):
        player.hand = cards(hands.get(seat, ""))
        player.down = seat in down
        if pennies and seat in pennies:
            player.pennies = pennies[seat]
    game.table = []
    for owner, text in sets:
        set_cards = cards(text)
        game.table.append(TableSet(len(game.table), owner, set_cards, game.spec.wild_ranks))
    game._meld_cache = None
    game.pile = cards(pile)
    game.pile_live = live and bool(game.pile)
    if stock is None:
        game.stock = [c for c in shoe(decks_for(seats)) if c.id not in named]
    else:
        game.stock = list(reversed(cards(stock)))
    game.turn_seat = turn_seat
    game.turn = 1
    game.phase = phase
    game.buy_order, game.buy_answers = [], {}
    return game


def snapshot(game: Game) -> dict[str, Any]:
    """Everything about a game, to check that a rejected command changed nothing."""
    return game.to_dict()
