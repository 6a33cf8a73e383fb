"""``tenpennies replay GAME_ID``: a stored game, move by move, with every hand revealed.

The server's SQLite file keeps each table's row (seats, rules, seed), its seats and every accepted
command; the engine rebuilds the game from the seed and that log (``Game.replay``'s way, a command at
a time), so the replay shows what no seat saw: every deal, every card drawn or bought, every hand left at
a round's end. The file is opened read-only, so a running server's file may be read.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Iterator

from tenpennies.engine.cards import sort_key
from tenpennies.engine.ten_pennies import (
    Buy,
    Card,
    Command,
    Game,
    PassBuy,
    RuleError,
)
from tenpennies.engine.ten_pennies import events as ev
from tenpennies.engine.ten_pennies.results import pennies_bought_with, penny_balance

from .local import NoSuchGame, StoredGame, read_game

_WHY = {"stock": "the stock ran out (TP-4.19)", "max_turns": "the turns ran out (TP-4.20)"}


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.text for c in sorted(cards, key=sort_key)) or "-"


def narrate(stored: StoredGame, *, hands: bool = False) -> Iterator[str]:
    """The game in lines: the deal of each round (every hand), each command in words with what it
    revealed, each round's end with points and totals, the final standings. With ``hands``, every hand
    after each turn. Raises RuleError if the stored log does not replay (a damaged file)."""
    name = stored.seat_name
    rules = stored.rules
    if stored.status in ("waiting", "expired") and not stored.commands:
        yield f"Table {stored.table_id} ({stored.name!r}): the game never started (the table is {stored.status})."
        return
    yield (f"Table {stored.table_id} ({stored.name!r}): {stored.seats} seats, preset {rules.preset}, "
           f"seed {stored.seed}, {len(stored.commands)} commands")
    yield "Seats: " + ", ".join(f"{s} {name(s)}" for s in range(stored.seats))
    game = Game(stored.seats, rules, stored.seed)
    state = _Narrator(stored, game)
    yield from state.events(game.opening_events)
    for command in stored.commands:
        where = f"[r{game.spec.number} t{game.turn}]"
        events = game.apply(command)
        yield from state.command(where, command, events)
        if hands and not game.over and any(isinstance(e, ev.TurnStarted) for e in events):
            yield from ("      " + line for line in state.hands())
    if game.over:
        return
    yield ""
    yield (f"This game is not finished (the table is {stored.status}): {len(stored.commands)} commands so far, "
           f"round {game.spec.number} ({game.round_index + 1} of {len(rules.rounds)}), turn {game.turn}.")
    yield "Hands now:"
    yield from ("  " + line for line in state.hands())


class _Narrator:
    """Engine events to words, with the seats' names."""

    def __init__(self, stored: StoredGame, game: Game) -> None:
        self.stored = stored
        self.game = game
        self.name = stored.seat_name
        self.deal: dict[int, tuple[Card, ...]] = {}

    def hands(self) -> list[str]:
        return [f"{self.name(s):<20} {_cards(self.game.view(s).hand)}" for s in range(self.game.n)]

    def command(self, where: str, command: Command, events: list[ev.Event]) -> Iterator[str]:
        """The command in words (its effect told by its events), then what else it caused."""
        if isinstance(command, PassBuy | Buy):  # an answer to a buy offer: its outcome comes when it settles
            yield f"{where} {self.name(command.seat)} {'asks to buy' if isinstance(command, Buy) else 'passes'}"
        for line in self.events(events):
            yield line if not line or line.startswith(("Round ", "  ", "Final standings")) else f"{where} {line}"

    def events(self, events: list[ev.Event]) -> Iterator[str]:
        name = self.name
        for event in events:
            match event:
                case ev.GameStarted():
                    pass
                case ev.DealerDraw(seat=seat, card=card, tie_break=tie):
                    yield f"{name(seat)} draws {card.text}{' again' if tie else ''} for the first deal"
                case ev.RoundStarted(round=number, dealer=dealer, hand_size=size, stock_size=stock):
                    spec = self.stored.rules.round(number)
                    wilds = " ".join(_rank_text(r) for r in sorted(spec.wild_ranks))
                    yield ""
                    yield (f"Round {number}: {spec.contract}, wild {wilds} (at most {spec.wild_cap} a set); "
                           f"{name(dealer)} deals {size} cards each; stock {stock}")
                case ev.CardsReceived(seat=seat, cards=cards, reason="deal"):
                    yield f"  {name(seat):<20} {_cards(cards)}"
                case ev.CardsReceived(seat=seat, cards=cards, reason="draw"):
                    yield f"{name(seat)} draws the {_cards(cards)}"
                case ev.CardsReceived(seat=seat, cards=cards):  # penalty cards of a buy
                    yield f"{name(seat)} takes the penalty card{'s' if len(cards) != 1 else ''} {_cards(cards)}"
                case ev.UpcardTurned(card=card):
                    yield f"The upcard is the {card.text}"
                case ev.TurnStarted():
                    pass
                case ev.DiscardTaken(seat=seat, card=card):
                    yield f"{name(seat)} takes the {card.text}"
                case ev.DiscardDeclined(seat=seat, card=card, offered_to=offered):
                    to = ", ".join(name(s) for s in offered) or "nobody (no pennies left)"
                    yield f"{name(seat)} declines the {card.text}: offered to {to}"
                case ev.BuyAnswered():
                    pass  # told with the command
                case ev.CardBought(seat=seat, card=card, penalty_cards=extra, pennies_left=left):
                    yield (f"{name(seat)} buys the {card.text} for a penny ({left} left)"
                           + (f" and {extra} penalty card{'s' if extra != 1 else ''}" if extra else ""))
                case ev.CardDead(card=card):
                    yield f"Nobody buys the {card.text}: it is dead"
                case ev.StockDrawn():
                    pass  # the card is told by its CardsReceived
                case ev.StockRebuilt(size=size, reshuffles_left=left):
                    yield f"The pile is turned into the stock: {size} cards, {left} reshuffles left"
                case ev.ContractLaid(seat=seat, melds=melds):
                    sets = " / ".join(f"[{m.id}] {_cards(m.cards)}" for m in melds)
                    yield f"{name(seat)} lays the contract: {sets}"
                case ev.SetLaid(seat=seat, meld=meld):
                    yield f"{name(seat)} lays set [{meld.id}] {_cards(meld.cards)}"
                case ev.LaidOff(seat=seat, card=card, set_id=set_id):
                    yield f"{name(seat)} lays off the {card.text} on set [{set_id}]"
                case ev.Discarded(seat=seat, card=card):
                    yield f"{name(seat)} discards the {card.text}"
                case ev.WentOut(seat=seat):
                    yield f"{name(seat)} goes out"
                case ev.RoundEnded():
                    yield from self._round_end(event)
                case ev.GameEnded():
                    yield from self._standings(event)

    def _round_end(self, end: ev.RoundEnded) -> Iterator[str]:
        name = self.name
        why = f"{name(end.out)} went out" if end.out is not None else _WHY.get(end.reason, end.reason)
        yield f"Round {end.round} ends: {why}. Pot {end.pot}."
        for seat in range(len(end.points)):
            yield (f"  {name(seat):<20} {end.points[seat]:>4} points (total {end.scores[seat]:>4})  "
                   f"held {_cards(end.hands[seat])}")

    def _standings(self, end: ev.GameEnded) -> Iterator[str]:
        name = self.name
        rules = self.stored.rules
        yield ""
        yield "Final standings:"
        for place, seat in enumerate(sorted(range(len(end.scores)), key=lambda s: (end.scores[s], s)), 1):
            player = self.game.players[seat]
            bought = pennies_bought_with(player, rules)
            net = penny_balance(player, rules)
            mark = "  winner" if seat in end.winners else ""
            yield (f"  {place}. {name(seat):<20} score {end.scores[seat]:>4}  won {end.shares[seat]:>3}  "
                   f"paid {player.paid:>3}  bought {bought:>2}  pennies {net:>+4}{mark}")


def _rank_text(rank: int) -> str:
    return {15: "JK", 14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}.get(rank, str(rank))


# --- tenpennies replay -----------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", metavar="GAME_ID", help="the game's table id (or its first characters)")
    parser.add_argument("--db", default="tenpennies.db", help="the server's SQLite file (default: tenpennies.db)")
    parser.add_argument("--hands", action="store_true", help="also every hand at the start of each turn")


def run(args: argparse.Namespace) -> int:
    """0: printed (finished or not); 1: no such game, or a file that is not a store."""
    try:
        stored = read_game(args.db, args.game_id)
    except NoSuchGame as error:
        print(error, file=sys.stderr)
        return 1
    except sqlite3.Error as error:
        print(f"cannot read {args.db}: {error}", file=sys.stderr)
        return 1
    try:
        for line in narrate(stored, hands=args.hands):
            print(line)
    except RuleError as error:
        print(f"the stored log does not replay: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # | head
        return 0
    return 0
