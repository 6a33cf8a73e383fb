"""Hand-built positions: a real Game, dealt as usual, then set to the cards a test names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tenpennies.engine.cards import Card, decks_for, shoe
from tenpennies.engine.ten_pennies import Game, HouseRules, parse_cards
from tenpennies.engine.ten_pennies.game import Phase
from tenpennies.engine.ten_pennies.melds import TableSet
from tenpennies.engine.thirty_one.game import DECK as T31_DECK
from tenpennies.engine.thirty_one.game import Game as ThirtyOneGame
from tenpennies.engine.thirty_one.game import Place
from tenpennies.engine.thirty_one.rules import Rules
from tenpennies.engine.thirty_one.view import Phase as T31Phase


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


def thirty_one(seats: int = 4, preset: str = "classic", *, hands: dict[int, str] | None = None,
               stock: str | None = None, pile: str = "", dealer: int = 0, turn_seat: int | None = None,
               phase: T31Phase = T31Phase.TURN, turn: int = 1, knocker: int | None = None,
               lives: dict[int, int] | None = None, riding: Sequence[int] = (), out: Sequence[int] = (),
               tokens: dict[int, int] | None = None, centre: int = 0, widow: str = "", widow_up: bool = False,
               middle: Sequence[tuple[str, bool]] = (), table: str = "", **knobs: Any) -> ThirtyOneGame:
    """A game of Thirty-One (``Rules.of(preset, **knobs)``), dealt as usual, then set so that:

    * ``hands[seat]`` is that seat's hand (a seat not named keeps an empty hand);
    * ``stock`` is the stock, **top card first**; None puts every card not named elsewhere in it (a named
      stock leaves the rest out of play); ``pile`` the discard pile, bottom first;
    * it is ``turn_seat``'s turn (default: left of the dealer), in ``phase``, turn ``turn``; ``knocker``
      knocked (the seats after it, up to the knocker, still to play their last turn);
    * ``widow`` (banking), ``middle`` hands (switch: cards and whether face up), ``table`` cards (stop_the_bus).
    """
    game = ThirtyOneGame(seats, Rules.of(preset, **knobs), seed=0)
    named: set[int] = set()

    def cards(text: str) -> list[Card]:
        found = parse_cards(text)
        for card in found:
            assert card.id not in named, f"{card} is named twice in this position"
            named.add(card.id)
        return found

    hands = hands or {}
    for seat, player in enumerate(game.players):
        player.hand = cards(hands.get(seat, ""))
        player.lives = (lives or {}).get(seat, player.lives)
        player.tokens = (tokens or {}).get(seat, player.tokens)
        player.riding = seat in riding
        player.out = seat in out
    game.centre = centre
    game.pile = cards(pile)
    game.widow, game.widow_up = cards(widow), widow_up
    game.middle = [Place(cards(text), up) for text, up in middle]
    game.spare = []
    game.table_cards = cards(table)
    rest = [c for c in T31_DECK if c.id not in named]
    if stock is None:
        game.stock, game.out_of_play = rest, []
    else:
        game.stock = list(reversed(cards(stock)))
        game.out_of_play = [c for c in T31_DECK if c.id not in named]
    game.dealer = dealer
    game.turn_seat = game._left_of(dealer) if turn_seat is None else turn_seat
    game.phase, game.turn, game.taken = phase, turn, None
    game.knocker = knocker
    game.final_turns = [] if knocker is None else _after_knock(game, knocker)
    game._seen = None  # the seats were set by hand
    return game


def _after_knock(game: ThirtyOneGame, knocker: int) -> list[int]:
    """The seats still to play their last turn once ``game.turn_seat`` has played its own."""
    order = [s for s in game._from_left_of(knocker) if s != knocker]
    return order[order.index(game.turn_seat) + 1:] if game.turn_seat in order else order
