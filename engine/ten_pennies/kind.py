"""Ten Pennies behind the game interface (``interface.Kind``): what a server's table asks of the game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..cards import Card
from ..interface import Bot, Kind
from .bots import BOTS, safe_default
from .commands import (
    Command,
    DeclineDiscard,
    Discard,
    Draw,
    LayContract,
    LayOff,
    LaySet,
    PassBuy,
    format_command,
    parse_command,
)
from .events import Event as TenPenniesEvent
from .events import GameEnded, GameStarted
from .fold import Known, fold, opening
from .game import Game, Phase, SeatView
from .narrate import Narrator, card_text
from .rules import KNOBS, SEATS, HouseRules
from .search import HORIZON, option_rollouts
from .search import option_values as search_values
from .strategies import ranked_discards
from .worlds import SeatMemory

REVIEW_BUDGET = 96
"""The most worlds a review plays an option of a decision in by default (``option_rollouts``): a clear
decision takes its first look's (``review.first_look``), those whose place among the costliest is in
question up to this many, and those at the edge of the five costliest up to twice as many (``review.DEEPER``),
within the review's rollouts (``review.SPEND``)."""
REVIEW_DISCARDS = 4
"""A review scores the chosen command and at most this many other discards (the policy's best, one per face)."""
REVIEW_MELDS = 3
"""... and at most this many other contracts, further sets and lay-offs each (most points first)."""


class TenPenniesRules:
    """The game docs/RULES.md describes, its house rules and commands, and its timer (``interface.KindRules``)."""

    name = "ten_pennies"
    title = "Ten Pennies"
    seats = SEATS
    knobs = KNOBS
    view_type = SeatView

    def new(self, seats: int, rules: HouseRules, seed: int) -> Game:
        return Game(seats, rules, seed)

    def load(self, data: dict[str, Any]) -> Game:
        return Game.from_dict(data)

    def rules_from_dict(self, data: Mapping[str, Any]) -> HouseRules:
        return HouseRules.from_dict(dict(data))

    def rules_to_dict(self, rules: HouseRules) -> dict[str, Any]:
        return rules.to_dict()

    def rules_from_settings(self, settings: Iterable[str]) -> HouseRules:
        return HouseRules.from_settings(settings)

    def validate(self, rules: HouseRules, seats: int) -> None:
        rules.validate(seats)

    def parse_command(self, text: str) -> Command:
        return parse_command(text)

    def format_command(self, command: Command) -> str:
        return format_command(command)

    def timed_out(self, game: Game, seat: int) -> Sequence[Command]:
        """The safe default (``bots.safe_default``); declining the pick-up for the seat, the timer draws
        for it too, once the buy offer is settled."""
        command = safe_default(game.view(seat))
        return (command, Draw(seat)) if isinstance(command, DeclineDiscard) else (command,)

    def safe_default(self, view: SeatView) -> Command:
        """``bots.safe_default``: pass, decline, draw, or discard the costliest natural card."""
        return safe_default(view)

    def unlisted(self, view: SeatView, command: Command) -> bool:
        """A contract or set of the seat's own making while it may meld: the server lists a bounded choice of
        melds and accepts any legal one named (the rules judge it)."""
        return isinstance(command, LayContract | LaySet) and any(isinstance(c, Discard) for c in view.legal)

    def game_end(self, view: SeatView, winners: Sequence[int]) -> GameEnded | None:
        """The scores and each seat's share of the pot (TP-5.4), from the view of the finished game."""
        if view.phase is not Phase.GAME_OVER:
            return None
        return GameEnded(tuple(p.score for p in view.players), tuple(winners), tuple(p.won for p in view.players))

    def timer_audience(self, game: Game, command: Command) -> int | None:
        """Public, but for a pass on a buy offer still open: that stays the seat's own (TP-4.7)."""
        return command.seat if isinstance(command, PassBuy) and game.phase is Phase.BUY else None

    def knowing(self, view: SeatView) -> Known:
        return Known.of(view)

    def opening(self, seat: int | None, seats: int, rules: HouseRules) -> Known:
        return opening(seat, GameStarted(seats, rules))

    def fold(self, known: Known, event: TenPenniesEvent) -> Known:
        return fold(known, event)


class TenPenniesBots:
    """Ten Pennies' bots, and the searcher a review weighs options with (``interface.KindBots``)."""

    takeover = "greedy"

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return BOTS

    def review_options(self, game: Game, seat: int, chosen: Command) -> list[Command]:
        """``chosen``, then (see ``review_options``) the rest worth scoring."""
        return review_options(game, seat, chosen)

    def option_values(self, game: Game, seat: int, options: Sequence[Command], *, budget: int,
                      seed: int) -> list[float]:
        """The searcher's (``search.option_values``)."""
        return search_values(game, seat, options, budget=budget, seed=seed)

    horizon: int | None = HORIZON
    """The turns a review's rollout plays before the learned value takes over (None: to the round's end)."""

    def option_rollouts(self, game: Game, seat: int, seed: int,
                        memory: SeatMemory | None = None) -> Callable[[Sequence[Command], range], list[list[float]]]:
        """The searcher's world by world (``search.option_rollouts``, to ``horizon``): what a review's intervals
        are made of; ``memory``: what the seat remembers of the round (``recall``), else rebuilt from the log."""
        return option_rollouts(game, seat, seed, memory, horizon=self.horizon)

    def recall(self, seat: int) -> SeatMemory:
        """What ``seat`` remembers of the round, to be shown its every view (``SeatMemory.observe``): a review
        walking a game keeps it as it goes."""
        return SeatMemory(seat)

    @property
    def searcher(self) -> tuple[str, int]:
        return "search", REVIEW_BUDGET


class TenPenniesWords:
    """Ten Pennies told to people (``interface.KindWords``)."""

    rule_book = ("TP", "RULES.md")

    def narrator(self, rules: HouseRules, name: Callable[[int], str], *, seat: int | None = None,
                 every_hand: bool = False, card: Callable[[Card], str] | None = None) -> Narrator:
        return Narrator(rules, name, card or card_text, seat=seat, every_hand=every_hand)

    def tournament_tallies(self, rules: HouseRules) -> tuple[str, ...]:
        """A seat's penny balance (won - paid - bought with, TP-5.2 to TP-5.4) and the pennies it bought with, as
        ``Result.tallies`` names them."""
        return ("pennies", "buys")


class TenPennies(TenPenniesRules, TenPenniesBots, TenPenniesWords):
    """The kind of game docs/RULES.md describes: its rules, bots and words in one object."""


def _face(command: Command) -> object:
    """What tells two commands apart for a review: the same command with an identical card of another deck
    is the same choice."""
    match command:
        case Discard(card=card):
            return ("discard", card.rank, card.suit)
        case LayOff(card=card, set_id=set_id):
            return ("lay off", card.rank, card.suit, set_id)
        case LaySet(cards=cards):
            return ("set", tuple(sorted((c.rank, c.suit or "") for c in cards)))
        case LayContract(sets=sets):
            return ("contract", tuple(sorted(tuple(sorted((c.rank, c.suit or "") for c in s)) for s in sets)))
    return command


def _points(command: Command) -> int:
    match command:
        case LayContract(sets=sets):
            return sum(c.points for s in sets for c in s)
        case LaySet(cards=cards):
            return sum(c.points for c in cards)
        case LayOff(card=card):
            return card.points
    return 0


def review_options(game: Game, seat: int, chosen: Command) -> list[Command]:
    """The options a review compares at ``seat``'s decision: ``chosen`` first; take or decline, buy or pass
    in full; in the meld phase, where the legal commands run to dozens, one command per face (an identical
    card of another deck makes the same choice), the ``REVIEW_MELDS`` contracts, sets and lay-offs of each
    kind that lay the most points, and the ``REVIEW_DISCARDS`` discards the shared policy ranks best."""
    legal = game.legal_commands(seat)
    if game.phase is not Phase.MELD:
        return [chosen] + [c for c in legal if c != chosen]
    seen = {_face(chosen)}
    out: list[Command] = [chosen]

    def add(commands: Sequence[Command], limit: int) -> None:
        for command in commands:
            if limit <= 0:
                return
            face = _face(command)
            if face not in seen:
                seen.add(face)
                out.append(command)
                limit -= 1

    for what in (LayContract, LaySet, LayOff):
        add(sorted((c for c in legal if isinstance(c, what)), key=lambda c: -_points(c)), REVIEW_MELDS)
    player = game.players[seat]
    others_down = any(p.down for s, p in enumerate(game.players) if s != seat)
    table = [(t.rank, t.suits) for t in game.table] if others_down else []
    discards = [c for c in legal if isinstance(c, Discard)]
    add(ranked_discards(player.hand, discards, table, others_down, game.spec, game.rules), REVIEW_DISCARDS)
    return out


TEN_PENNIES: Kind[Game] = TenPennies()  # typed: the checker holds Ten Pennies to the interface
