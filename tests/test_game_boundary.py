"""The game boundary: the server's lobby, table, store, timers and takeover know a game
only through the game interface (engine/interface.py), so a second game sits at a real server table without
a line of the server naming it.

The same holds for the client: its connection makes a table of the game a request names
(``CreateTableRequest.game``), and its ``TableView`` follows whatever game the table's info names, through
that game's fold and narrator (``engine.games``) and wire entry (``wire.games``).

The second game is defined here and registered only while a test runs: "high card", two seats, each dealt
a few cards; both play a card face down at once, the higher takes the trick. It has private cards, a
simultaneous decision whose answers stay hidden until both are in (as Ten Pennies' buy offer, TP-4.7), a
timer default, bots, a fold and a narrator. Its game object has nothing but the interface's members, so
anything Ten Pennies' own that the server or the client still asked for would fail here.

The wire has no messages of its own for it, so its wire entry reuses others (Command.discard, CardsReceived,
Discarded, RoundEnded, GameEnded; in its view, discard_top; and Ten Pennies' own: its players' hand_size and its
hand_size knob, for want of a view and rules of the game's own). Some tests
drive the server's Table and Lobby directly; the last ones play it over gRPC, a real server on loopback and
real clients (``client.connection``, ``client.view``)."""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import grpc
import pytest

from tenpennies.client.connection import Connection, SeatSession, ServerError
from tenpennies.client.view import TableView
from tenpennies.engine import games
from tenpennies.engine.cards import Card
from tenpennies.engine.interface import Bot, Kind, Narrator, Result, RuleError
from tenpennies.engine.knobs import declared, knob
from tenpennies.engine.play import play_game
from tenpennies.engine.ten_pennies import DeclineDiscard, Draw, Game, HouseRules, PassBuy, Phase
from tenpennies.engine.ten_pennies.bots import GreedyBot
from tenpennies.engine.ten_pennies.kind import TEN_PENNIES
from tenpennies.server.app import Server
from tenpennies.server.lobby import Lobby
from tenpennies.server.store import NoSuchGame, Store, read_game
from tenpennies.server.table import Settings, Subscriber, Table
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire import games as wire_games
from tenpennies.wire.errors import BadRequest
from tenpennies.wire.frames import batch_events

SERVER = Path(__file__).resolve().parent.parent / "server"
CLIENT = SERVER.parent / "client"

# --- the second game ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HighRules:
    hands: int = knob(3, "HC-2", "Hands", "cards dealt to each seat, one trick each", low=1, high=5)


HIGH_KNOBS = declared(HighRules)


@dataclass(frozen=True)
class Play:
    seat: int
    card: int


@dataclass(frozen=True)
class Dealt:
    seat: int
    cards: tuple[int, ...]

    @property
    def to(self) -> int | None:
        return self.seat

    def visible_to(self, seat: int | None) -> bool:
        return seat == self.seat


@dataclass(frozen=True)
class Played:
    """A seat's own card, face down: the other seat sees it only when the trick is shown."""
    seat: int
    card: int

    @property
    def to(self) -> int | None:
        return self.seat

    def visible_to(self, seat: int | None) -> bool:
        return seat == self.seat


@dataclass(frozen=True)
class Shown:
    cards: tuple[int, ...]  # by seat
    winner: int | None      # None: a tie

    @property
    def to(self) -> int | None:
        return None

    def visible_to(self, seat: int | None) -> bool:
        return True


@dataclass(frozen=True)
class Over:
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @property
    def to(self) -> int | None:
        return None

    def visible_to(self, seat: int | None) -> bool:
        return True


@dataclass(frozen=True)
class HighView:
    seat: int | None
    hand: tuple[int, ...]
    face_down: int | None  # the seat's own card of the open trick
    scores: tuple[int, ...]
    to_act: tuple[int, ...]
    legal: tuple[Play, ...]
    cards_left: tuple[int, ...]  # by seat, the cards not yet shown (its hand, and a card played face down): public


@dataclass(frozen=True)
class HighKnown:
    """What a seat knows, folded from the events it saw. What the fold cannot know: while a trick is open,
    whether the other seat has played (its card is face down), so ``to_act`` keeps it until the trick is
    shown; and ``legal``, which is the server's."""
    view: HighView


def high_fold(known: HighKnown, event: Any) -> HighKnown:
    view = known.view
    match event:
        case Dealt(seat=seat, cards=cards) if seat == view.seat:
            return HighKnown(dataclasses.replace(view, hand=cards, legal=()))
        case Played(seat=seat, card=card) if seat == view.seat:
            return HighKnown(dataclasses.replace(view, hand=tuple(c for c in view.hand if c != card), face_down=card,
                                                 to_act=tuple(s for s in view.to_act if s != seat), legal=()))
        case Shown(winner=winner):
            scores = tuple(score + (s == winner) for s, score in enumerate(view.scores))
            left = tuple(n - 1 for n in view.cards_left)
            return HighKnown(dataclasses.replace(view, face_down=None, scores=scores, cards_left=left,
                                                 to_act=tuple(s for s, n in enumerate(left) if n), legal=()))
        case Over(scores=scores):
            return HighKnown(dataclasses.replace(view, scores=scores, to_act=(), legal=()))
    return known


def check(rules: HighRules, seats: int) -> None:
    if seats != 2:
        raise RuleError("HC-1", f"high card is for two seats, not {seats}")
    if not 1 <= rules.hands <= 5:
        raise RuleError("HC-2", f"a hand is 1 to 5 cards, not {rules.hands}")


class HighCard:
    """Only the interface's members are public."""

    def __init__(self, seats: int, rules: HighRules, seed: int) -> None:
        check(rules, seats)
        self.seed = seed
        self.log: list[Play] = []
        deck = list(range(1, 11))
        random.Random(seed).shuffle(deck)
        self._rules = rules
        self._hands = [sorted(deck[:rules.hands]), sorted(deck[rules.hands:2 * rules.hands])]
        self._down: dict[int, int] = {}
        self._scores = [0, 0]
        self.opening_events: list[Dealt] = [Dealt(s, tuple(self._hands[s])) for s in (0, 1)]

    @property
    def seats(self) -> int:
        return 2

    @property
    def round_number(self) -> int:
        return 1

    def to_act(self) -> tuple[int, ...]:
        return tuple(s for s in (0, 1) if self._hands[s] and s not in self._down)

    def legal_commands(self, seat: int) -> list[Play]:
        return [Play(seat, card) for card in self._hands[seat]] if seat in self.to_act() else []

    def is_legal(self, command: Any) -> bool:
        return isinstance(command, Play) and command in self.legal_commands(command.seat)

    def apply(self, command: Play, *, trusted: bool = False) -> list[Any]:
        if not trusted and not self.is_legal(command):
            raise RuleError("HC-3", f"seat {command.seat} cannot play {command.card} now")
        self._hands[command.seat].remove(command.card)
        self._down[command.seat] = command.card
        self.log.append(command)
        events: list[Any] = [Played(command.seat, command.card)]
        if len(self._down) == 2:
            a, b = self._down[0], self._down[1]
            winner = 0 if a > b else 1 if b > a else None
            if winner is not None:
                self._scores[winner] += 1
            self._down = {}
            events.append(Shown((a, b), winner))
            if self.over:
                result = self.result
                assert result is not None
                events.append(Over(result.scores, result.winners))
        return events

    def view(self, seat: int | None) -> HighView:
        return HighView(seat, tuple(self._hands[seat]) if seat is not None else (),
                        self._down.get(seat) if seat is not None else None, tuple(self._scores), self.to_act(),
                        tuple(self.legal_commands(seat)) if seat is not None else (),
                        tuple(len(self._hands[s]) + (s in self._down) for s in (0, 1)))

    @property
    def over(self) -> bool:
        return not self._hands[0] and not self._hands[1] and not self._down

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        best = max(self._scores)
        return Result(tuple(self._scores), tuple(s for s in (0, 1) if self._scores[s] == best))

    def copy(self) -> HighCard:
        return HIGH_CARD.load(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        return {"rules": asdict(self._rules), "seed": self.seed, "log": [HIGH_CARD.format_command(c) for c in self.log],
                "hands": self._hands, "down": sorted(self._down.items()), "scores": self._scores}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HighCard:
        game = cls.__new__(cls)
        game.seed, game._rules = data["seed"], HighRules(**data["rules"])
        game.log = [HIGH_CARD.parse_command(text) for text in data["log"]]
        game._hands = [list(h) for h in data["hands"]]
        game._down = {s: c for s, c in data["down"]}
        game._scores = list(data["scores"])
        game.opening_events = []
        return game


class Lowest:
    def choose(self, view: HighView) -> Play:
        return view.legal[0]


class Highest:
    def choose(self, view: HighView) -> Play:
        return view.legal[-1]


class HighCardKind:
    name = "high_card"
    title = "High Card"
    takeover = "low"
    seats = range(2, 3)
    knobs = HIGH_KNOBS
    rule_book = ("HC", "")  # its rules are this file's

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        return {"low": lambda seed: Lowest(), "high": lambda seed: Highest()}

    def new(self, seats: int, rules: HighRules, seed: int) -> HighCard:
        return HighCard(seats, rules, seed)

    def load(self, data: dict[str, Any]) -> HighCard:
        return HighCard.from_dict(data)

    def rules_from_dict(self, data: Mapping[str, Any]) -> HighRules:
        unknown = set(data) - {f.name for f in fields(HighRules)}
        if unknown:
            raise RuleError("HC-2", f"no such rule: {', '.join(sorted(unknown))}")
        return HighRules(**data)

    def rules_to_dict(self, rules: HighRules) -> dict[str, Any]:
        return asdict(rules)

    def rules_from_settings(self, settings: Iterable[str]) -> HighRules:
        values: dict[str, Any] = {}
        for setting in settings:
            name, _, text = setting.partition("=")
            declared = {k.name: k for k in HIGH_KNOBS}.get(name.strip().replace("-", "_"))
            if declared is None:
                raise RuleError("HC-2", f"no such rule: {name}")
            values[declared.name] = declared.parse(text)
        return HighRules(**values)

    def validate(self, rules: HighRules, seats: int) -> None:
        check(rules, seats)

    def parse_command(self, text: str) -> Play:
        seat, verb, card = text.split()
        if verb != "play":
            raise ValueError(f"not a command of high card: {text!r}")
        return Play(int(seat), int(card))

    def format_command(self, command: Play) -> str:
        return f"{command.seat} play {command.card}"

    def tournament_tallies(self, rules: HighRules) -> tuple[str, ...]:
        return ()

    def timed_out(self, game: HighCard, seat: int) -> Sequence[Play]:
        return (game.legal_commands(seat)[0],)  # the lowest card

    def safe_default(self, view: HighView) -> Play:
        return view.legal[0]  # the lowest card, as the timer plays it

    def unlisted(self, view: HighView, command: Play) -> bool:
        return False

    def game_end(self, view: HighView, winners: Sequence[int]) -> Over | None:
        return None if any(view.cards_left) else Over(view.scores, tuple(winners))

    view_type = HighView

    def timer_audience(self, game: HighCard, command: Play) -> int | None:
        """A card played face down by the timer stays the seat's own until the trick is shown."""
        return command.seat if game.view(command.seat).face_down is not None else None

    def review_options(self, game: HighCard, seat: int, chosen: Play) -> list[Play]:
        return [chosen] + [c for c in game.legal_commands(seat) if c != chosen]

    def option_values(self, game: HighCard, seat: int, options: Sequence[Play], *, budget: int,
                      seed: int) -> list[float]:
        """Tricks lost by the card alone (a higher card loses fewer): enough for a game the review walks."""
        return [float(-option.card) for option in options]

    @property
    def searcher(self) -> tuple[str, int]:
        return "card", 1

    def knowing(self, view: HighView) -> HighKnown:
        return HighKnown(view)

    def opening(self, seat: int | None, seats: int, rules: HighRules) -> HighKnown:
        """Before the deal: every seat is to be dealt ``rules.hands`` cards (which ones, its Dealt says)."""
        return HighKnown(HighView(seat, (), None, (0,) * seats, tuple(range(seats)), (), (rules.hands,) * seats))

    def fold(self, known: HighKnown, event: Any) -> HighKnown:
        return high_fold(known, event)

    def narrator(self, rules: Any, name: Callable[[int], str], *, seat: int | None = None,
                 every_hand: bool = False, card: Callable[[Card], str] | None = None) -> Narrator:
        return HighCardNarrator(name)


@dataclass(frozen=True)
class HighCardNarrator:
    name: Callable[[int], str]

    def line(self, event: Any) -> str | None:
        name = self.name
        match event:
            case Dealt(seat=seat, cards=cards):
                return f"Dealt to {name(seat)}: {' '.join(map(str, cards))}"
            case Played(seat=seat, card=card):
                return f"{name(seat)} played {card} face down"
            case Shown(cards=(first, second), winner=winner):
                taken = "a tie" if winner is None else f"{name(winner)} took the trick"
                return f"{name(0)} showed {first}, {name(1)} {second}: {taken}"
            case Over(winners=winners):
                return f"Game over: {' and '.join(name(s) for s in winners)} won"
        raise TypeError(event)

    def move(self, command: Play) -> str:
        return f"play {command.card}"


HIGH_CARD: Kind[HighCard] = HighCardKind()


def _card(card: int) -> pb.Card:
    return pb.Card(id=card, rank=card, text=str(card))


def _event_to_pb(event: Any, rules: HighRules) -> pb.Event:
    match event:
        case Dealt(seat=seat, cards=cards):
            return pb.Event(cards_received=pb.CardsReceived(seat=seat, cards=[_card(c) for c in cards]))
        case Played(seat=seat, card=card):
            return pb.Event(discarded=pb.Discarded(seat=seat, card=_card(card)))
        case Shown(cards=cards, winner=winner):
            shown = pb.RoundEnded(hands=[pb.Hand(cards=[_card(c)]) for c in cards])
            if winner is not None:
                shown.out = winner
            return pb.Event(round_ended=shown)
        case Over(scores=scores, winners=winners):
            return pb.Event(game_ended=pb.GameEnded(scores=scores, winners=winners))
    raise TypeError(event)


def _event_from_pb(message: pb.Event, rules: HighRules) -> Any | None:
    match message.WhichOneof("kind"):
        case "cards_received":
            return Dealt(message.cards_received.seat, tuple(c.id for c in message.cards_received.cards))
        case "discarded":
            return Played(message.discarded.seat, message.discarded.card.id)
        case "round_ended":
            shown = message.round_ended
            return Shown(tuple(h.cards[0].id for h in shown.hands), shown.out if shown.HasField("out") else None)
        case "game_ended":
            return Over(tuple(message.game_ended.scores), tuple(message.game_ended.winners))
    return None  # the table's own


def _command_from_pb(seat: int, message: pb.Command) -> Play:
    if message.WhichOneof("kind") != "discard" or not message.discard.HasField("card_id"):
        raise BadRequest("high card: play a card (discard.card_id)")
    return Play(seat, message.discard.card_id)


def _game_view(game: HighCard, seat: int | None) -> pb.GameView:
    view = game.view(seat)
    result = game.result
    players = [pb.Player(seat=s, score=score, hand_size=left)
               for s, (score, left) in enumerate(zip(view.scores, view.cards_left, strict=True))]
    message = pb.GameView(hand=[_card(c) for c in view.hand], to_act=view.to_act,
                          ten_pennies=pb.TenPenniesView(players=players),
                          legal_commands=[pb.Command(discard=pb.Discard(card_id=c.card)) for c in view.legal],
                          winners=result.winners if result else ())
    if seat is not None:
        message.seat = seat
    if view.face_down is not None:
        message.discard_top.CopyFrom(_card(view.face_down))
    return message


def _view_from_pb(message: pb.GameView, rules: HighRules) -> HighView:
    seat = message.seat if message.HasField("seat") else None
    return HighView(seat, tuple(c.id for c in message.hand),
                    message.discard_top.id if message.HasField("discard_top") else None,
                    tuple(p.score for p in message.ten_pennies.players), tuple(message.to_act),
                    tuple(_command_from_pb(seat, c) for c in message.legal_commands) if seat is not None else (),
                    tuple(p.hand_size for p in message.ten_pennies.players))


HIGH_CARD_WIRE = wire_games.WireGame(
    rules_to_pb=lambda rules: pb.HouseRules(ten_pennies=pb.TenPenniesRules(hand_size=rules.hands)),
    rules_from_pb=lambda message: HighRules(
        message.ten_pennies.hand_size if message.ten_pennies.HasField("hand_size") else 3),
    command_to_pb=lambda command: pb.Command(discard=pb.Discard(card_id=command.card)),
    command_from_pb=_command_from_pb, event_to_pb=_event_to_pb, event_from_pb=_event_from_pb, game_view=_game_view,
    view_from_pb=_view_from_pb)


@pytest.fixture
def high_card(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The second game, registered for one test: one entry in the engine's registry, one on the wire."""
    monkeypatch.setitem(games.GAMES, HIGH_CARD.name, HIGH_CARD)
    monkeypatch.setitem(wire_games.WIRE, HIGH_CARD.name, HIGH_CARD_WIRE)
    yield


@pytest.fixture
async def lobby(tmp_path: Path) -> Any:
    store = Store(str(tmp_path / "games.db"))
    made = Lobby(store, allow_seeds=True)
    yield made
    await made.close()
    store.close()


async def events_until_over(subscriber: Subscriber, answer: Callable[[pb.Event], Any] | None = None
                            ) -> list[pb.Event]:
    """Every event a stream carries until the game ends; ``answer`` is awaited with each one (as a client
    would answer its decision requests)."""
    seen: list[pb.Event] = []
    while not any(e.HasField("game_ended") for e in seen):
        batch = await asyncio.wait_for(subscriber.queue.get(), 10)
        assert isinstance(batch, bytes), batch
        for event in batch_events(batch):
            seen.append(event)
            if answer is not None:
                await answer(event)
    return seen


def timer_seats(events: list[pb.Event]) -> list[int]:
    return [e.timer_expired.seat for e in events if e.HasField("timer_expired")]


# --- the tests --------------------------------------------------------------------------------------------


async def test_a_second_game_is_played_to_the_end_at_a_server_table_and_read_back_from_the_store(
        high_card: None, lobby: Lobby, tmp_path: Path) -> None:
    table, host = await lobby.create("high", 2, HighRules(hands=3), Settings(0, 0), 11, "test", game="high_card")
    await table.add_bot(host, 1, "high")
    seat, token = await table.join("Ann", 0)
    _, mine = await table.subscribe(token)
    _, watching = await table.subscribe("")
    await table.start(host)

    async def play_lowest(event: pb.Event) -> None:
        if event.HasField("decision_request"):
            lowest = min(event.decision_request.legal_commands, key=lambda c: c.discard.card_id)
            await table.command(token, lowest)

    seen = await events_until_over(mine, play_lowest)
    watched = await events_until_over(watching)

    game = table.game
    assert table.status == "finished" and game is not None and game.over
    dealt = [e.cards_received for e in seen if e.HasField("cards_received")]
    assert [d.seat for d in dealt] == [0]  # only its own hand
    expected = HighCard(2, HighRules(3), 11)
    for command in game.log:
        expected.apply(command)
    assert game.to_dict() == expected.to_dict() and game.result == expected.result
    assert [c.card for c in game.log if c.seat == 0] == [c.id for c in dealt[0].cards]  # Ann: the lowest first
    assert [c.card for c in game.log if c.seat == 1] == sorted((c.card for c in game.log if c.seat == 1),
                                                               reverse=True)  # the high bot from the highest down
    # the spectator sees every trick shown and the end, and no card before it is shown
    assert not any(e.HasField("cards_received") or e.HasField("discarded") or e.HasField("decision_request")
                   for e in watched)
    assert sum(e.HasField("round_ended") for e in watched) == 3
    ended = next(e.game_ended for e in watched if e.HasField("game_ended"))
    assert game.result is not None and tuple(ended.winners) == game.result.winners
    assert table.info().rules.ten_pennies.hand_size == 3

    # the store keeps which game the table plays: read back cold, it is the same game
    stored = await lobby.store.load_table(table.id)
    assert stored is not None and stored.game == "high_card" and stored.status == "finished"
    again = Table(stored, lobby.store)
    assert again.game is not None and again.game.to_dict() == game.to_dict()
    assert again.info().rules == table.info().rules and again.info().status == pb.TABLE_STATUS_FINISHED


async def test_a_second_games_timer_plays_its_default_and_its_audience_is_the_games_to_say(
        high_card: None, lobby: Lobby) -> None:
    table, host = await lobby.create("high", 2, HighRules(hands=1), Settings(decision_seconds=1, takeover_seconds=0),
                                     5, "test", game="high_card")
    tokens = [(await table.join(name, None))[1] for name in ("Ann", "Bob")]
    streams = [(await table.subscribe(token))[1] for token in tokens]
    _, watching = await table.subscribe("")
    await table.start(host)
    seen = [await events_until_over(stream) for stream in streams]
    watched = await events_until_over(watching)
    # both stay silent: the timer plays each seat's card; the first stays its seat's own until the trick is
    # shown by the second (the game's timer_audience), which everybody sees
    assert timer_seats(seen[0]) == [0, 1] and timer_seats(seen[1]) == [1] and timer_seats(watched) == [1]
    assert table.defaulted == [1, 1] and table.game is not None and table.game.over


async def test_a_gone_player_of_a_second_game_is_played_by_that_games_takeover_bot(
        high_card: None, lobby: Lobby) -> None:
    table, host = await lobby.create("high", 2, HighRules(hands=4), Settings(decision_seconds=0, takeover_seconds=1),
                                     8, "test", game="high_card")
    await table.join("Ann", 0)  # and never comes to the table
    await table.add_bot(host, 1, "high")
    _, watching = await table.subscribe("")
    await table.start(host)
    await events_until_over(watching)
    assert table.game is not None
    ann = [c.card for c in table.game.log if c.seat == 0]
    assert ann == sorted(ann) and len(ann) == 4  # the game's takeover bot ("low"), from the lowest up
    assert table.defaulted[0] == 4 and table.seats[0].taken_over


async def test_a_game_the_engine_does_not_have_is_refused_by_name(lobby: Lobby) -> None:
    with pytest.raises(games.UnknownGame, match="no game 'high_card'"):
        games.kind("high_card")
    with pytest.raises(BadRequest, match="no game 'high_card'"):
        wire_games.wire("high_card")
    with pytest.raises(BadRequest, match="no game 'high_card'"):
        await lobby.create("high", 2, HighRules(), Settings(), None, "test", game="high_card")
    assert not lobby.tables


async def test_a_second_games_rules_are_judged_by_that_game(high_card: None, lobby: Lobby) -> None:
    with pytest.raises(RuleError, match="HC-1"):
        await lobby.create("high", 3, HighRules(), Settings(), None, "test", game="high_card")
    with pytest.raises(RuleError, match="HC-2"):
        await lobby.create("high", 2, HighRules(hands=9), Settings(), None, "test", game="high_card")
    table, host = await lobby.create("high", 2, HighRules(), Settings(), None, "test", game="high_card")
    with pytest.raises(BadRequest, match="no greedy bot"):
        await table.add_bot(host, 1, "greedy")  # Ten Pennies' bot, not this game's


def test_ten_pennies_timer_declines_then_draws_and_keeps_a_pass_private_until_the_offer_settles() -> None:
    game = Game(3, HouseRules(), 4)
    seat = game.to_act()[0]
    assert game.phase is Phase.PICK_UP
    assert tuple(TEN_PENNIES.timed_out(game, seat)) == (DeclineDiscard(seat), Draw(seat))
    game.apply(DeclineDiscard(seat))
    first, second = game.to_act()
    game.apply(PassBuy(first))
    assert TEN_PENNIES.timer_audience(game, PassBuy(first)) == first  # the offer is still open (TP-4.7)
    game.apply(PassBuy(second))
    assert TEN_PENNIES.timer_audience(game, PassBuy(second)) is None
    assert TEN_PENNIES.timer_audience(game, Draw(seat)) is None
    assert TEN_PENNIES.timed_out(game, seat) == (Draw(seat),)


def test_the_servers_game_side_names_no_game() -> None:
    """The table, the store, the lobby, the service and the app import no game's package (the tournament
    is rewritten beside this; the game it plays will come through the registry too)."""
    for name in ("table", "store", "lobby", "service", "app"):
        tree = ast.parse((SERVER / f"{name}.py").read_text())
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        assert not [m for m in imported if "ten_pennies" in m], name


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    return found + [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]


def test_the_clients_connection_and_view_name_no_game() -> None:
    """The client's connection and its view of a table reach the game through the registries alone."""
    assert not [m for m in imports(CLIENT / "connection.py") if "ten_pennies" in m]
    assert not [m for m in imports(CLIENT / "view.py") if "ten_pennies" in m]


async def test_a_stored_table_of_a_game_this_server_lacks_is_left_in_the_store_and_the_others_open(
        high_card: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "games.db")
    store = Store(db)
    lobby = Lobby(store, allow_seeds=True)
    high, _ = await lobby.create("high", 2, HighRules(), Settings(), 1, "test", game="high_card")
    other, _ = await lobby.create("tp", 2, HouseRules(), Settings(), 2, "test")
    await lobby.close()
    store.close()

    monkeypatch.delitem(games.GAMES, HIGH_CARD.name)  # a server without high card opens the same file
    store = Store(db)
    restarted = Lobby(store)
    try:
        await restarted.load()
        assert set(restarted.tables) == {other.id}
        row = await store.load_table(high.id)
        assert row is not None and row.game == "high_card" and row.status == "waiting"
        with pytest.raises(NoSuchGame, match="'high_card', a game this program does not have"):
            read_game(db, high.id)
    finally:
        await restarted.close()
        store.close()


def test_ten_pennies_result_is_none_until_the_end_then_its_pennies_add_up_to_nothing() -> None:
    game = Game(3, HouseRules(max_turns=30, rounds=(1, 2)), 9)
    assert game.result is None and game.seats == 3
    play_game(game, [GreedyBot() for _ in range(3)])
    result = game.result
    assert result is not None
    assert result.scores == tuple(p.score for p in game.players) and result.winners == game.winners
    assert result.tallies["buys"] == tuple(game.rules.buy_pennies - p.pennies for p in game.players)
    assert sum(result.tallies["pennies"]) == 0  # what one seat wins the others lost


# --- over the wire: a real server on loopback, real clients -------------------------------------------------


async def follow(session: SeatSession, table: TableView, ready: asyncio.Event, bot: Bot | None = None,
                 truth: Callable[[int], HighView] | None = None) -> list[HighView]:
    """Follow a seat's stream with ``table`` until the game ends, as a client does; with ``bot``, answer each
    decision with the bot's choice from the folded view alone, first checking it against the server's own
    view of the seat (``truth``): all of it but ``to_act``, the other seat's card being face down. Returns
    the views it decided from."""
    decided: list[HighView] = []
    async for message in session.stream():
        if isinstance(message, pb.Snapshot):
            table.apply_snapshot(message)
            ready.set()
            continue
        table.apply_event(message)
        if bot is not None and message.HasField("decision_request") and table.view is not None and table.view.legal:
            view: HighView = table.view
            assert session.seat is not None and truth is not None
            assert dataclasses.replace(view, to_act=truth(session.seat).to_act) == truth(session.seat)
            decided.append(view)
            await session.send(wire_games.wire(table.game).command_to_pb(bot.choose(view)))
        if table.game_end is not None:
            return decided
    raise AssertionError("the stream ended before the game did")


async def test_a_second_game_is_made_joined_watched_and_played_to_the_end_over_grpc(
        high_card: None, server: Server) -> None:
    """High card, asked for by name over gRPC, joined by two clients and watched by a third, each following
    the game with the client's own TableView: nothing in the server's table, the store or the client's
    connection knows the game."""
    address = f"127.0.0.1:{server.port}"
    host, ann, bob, watcher = (Connection(address) for _ in range(4))
    try:
        rules = wire_games.wire("high_card").rules_to_pb(HighRules(hands=3))
        hosted = await host.create_table("high", 2, rules, decision_seconds=0, takeover_seconds=0, seed=11,
                                         game="high_card")
        assert hosted.info.game == "high_card" and hosted.info.rules.ten_pennies.hand_size == 3
        assert [(t.table_id, t.game) for t in await watcher.tables()] == [(hosted.table_id, "high_card")]
        sessions = [await ann.join(hosted.table_id, "Ann"), await bob.join(hosted.table_id, "Bob"),
                    watcher.spectate(hosted.table_id)]
        tables = [TableView(0, you="You"), TableView(1), TableView(None)]
        ready = [asyncio.Event() for _ in tables]
        bots = [HIGH_CARD.bots["low"](0), HIGH_CARD.bots["high"](0), None]
        table = server.lobby.tables[hosted.table_id]

        def truth(seat: int) -> HighView:
            view: HighView = table.game.view(seat)
            return view

        following = [asyncio.ensure_future(follow(s, t, r, b, truth))
                     for s, t, r, b in zip(sessions, tables, ready, bots, strict=True)]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 10)
        assert all(t.game == "high_card" and t.view is None and t.rules == HighRules(3) for t in tables)
        await host.start(hosted.table_id, hosted.host_token)
        decided = await asyncio.wait_for(asyncio.gather(*following), 30)

        game = table.game
        assert game is not None and game.over and game.result is not None
        assert [len(d) for d in decided] == [3, 3, 0]
        ann_cards = [c.card for c in game.log if c.seat == 0]
        assert ann_cards == sorted(ann_cards) and ann_cards == list(decided[0][0].hand)  # the low bot, lowest first
        bob_cards = [c.card for c in game.log if c.seat == 1]
        assert bob_cards == sorted(bob_cards, reverse=True)  # the high bot, from the highest down
        for seat, (session, view) in enumerate(zip(sessions, tables, strict=True)):
            assert view.info is not None and view.info.status == pb.TABLE_STATUS_FINISHED
            assert view.winners == game.result.winners and view.game_end is not None
            assert tuple(view.game_end.scores) == game.result.scores
            who = seat if seat < 2 else None
            assert view.view == game.view(who)  # at the end nothing is left hidden: the fold is the whole truth
            fresh = (await session.snapshot()).game
            assert wire_games.wire("high_card").view_from_pb(fresh, view.rules) == view.view
            assert view.pile == []  # a game whose seats keep no pile
        # the log is the game's narrator's words, each seat told only its own cards before they are shown
        ann_log, bob_log, watched_log = (list(view.log) for view in tables)
        assert ann_log[-1] == bob_log[-1] == watched_log[-1] and ann_log[-1].startswith("Game over: ")
        assert f"Dealt to You: {' '.join(map(str, decided[0][0].hand))}" in ann_log
        assert [line for line in ann_log if " face down" in line] == [f"You played {c} face down" for c in ann_cards]
        assert not [line for line in ann_log if line.startswith(("Bob played", "Dealt to Bob"))]
        assert not [line for line in bob_log if line.startswith(("Ann played", "Dealt to Ann", "Dealt to You"))]
        assert not [line for line in watched_log if "face down" in line or line.startswith("Dealt")]
        assert sum(" showed " in line for line in watched_log) == 3
    finally:
        for connection in (host, ann, bob, watcher):
            await connection.close()


async def test_a_table_of_a_game_the_server_lacks_is_refused_by_name_and_nothing_is_made(
        server: Server, connection: Connection) -> None:
    with pytest.raises(ServerError) as refused:
        await connection.create_table("high", 2, game="high_card")
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert refused.value.message == "no game 'high_card' here (there are ten_pennies, thirty_one)"
    assert await connection.tables() == [] and not server.lobby.tables and await server.store.list_tables() == []
    # a client shown a table of a game it lacks says so, by name, rather than misread it as Ten Pennies
    with pytest.raises(BadRequest, match="no game 'high_card' here"):
        TableView(None).apply_snapshot(pb.Snapshot(table=pb.TableInfo(seats=2, game="high_card")))


async def test_a_client_that_names_no_game_plays_ten_pennies(server: Server, connection: Connection) -> None:
    """An older client (its CreateTableRequest has no game) gets a Ten Pennies table, as before; and a view of
    a table whose info names no game (an older server's) follows Ten Pennies."""
    request = pb.CreateTableRequest(name="old", seats=2,
                                    rules=pb.HouseRules(ten_pennies=pb.TenPenniesRules(max_turns=30, rounds=[1])))
    assert not request.game
    created: pb.CreateTableResponse = await connection.service.CreateTable(request)
    assert created.table.game == "ten_pennies"
    row = await server.store.load_table(created.table.table_id)
    assert row is not None and row.game == "ten_pennies"
    table_id = created.table.table_id
    for _ in range(2):
        await connection.add_bot(table_id, created.host_token)
    watching = connection.spectate(table_id)
    view = TableView(None)
    async for message in watching.stream():
        if isinstance(message, pb.Snapshot):
            message.table.ClearField("game")  # as an older server sends it
            view.apply_snapshot(message)
            assert view.game == "ten_pennies" and view.rules == HouseRules(max_turns=30, rounds=(1,))
            await connection.start(table_id, created.host_token)
            continue
        view.apply_event(message)
        if view.game_end is not None:
            break
    game = server.lobby.tables[table_id].game
    assert game is not None and game.over and view.winners == game.winners
    assert view.log[0] == "The game starts: 2 seats" and view.log[-1].startswith("Game over: ")


async def test_the_bot_sdk_plays_a_second_game_it_was_never_told_of(high_card: None, server: Server) -> None:
    """The SDK (client/bot.py) knows games only through the interface: its ``play_seat`` plays a high-card seat
    with the game's own bot, a bot that fails gets the game's safe default, and a seat that comes back to the
    game after its end is told the end the game's kind reads from the view, through the game's wire."""
    from tenpennies.client.bot import GameBot, SeatStats, play_seat

    class Failing:
        def choose(self, view: HighView) -> Play:
            raise RuntimeError("no idea")

    address = f"127.0.0.1:{server.port}"
    host, ann, bob = (Connection(address) for _ in range(3))
    try:
        rules = wire_games.wire("high_card").rules_to_pb(HighRules(hands=3))
        hosted = await host.create_table("high", 2, rules, decision_seconds=0, takeover_seconds=0, seed=11,
                                         game="high_card")
        sessions = [await ann.join(hosted.table_id, "Ann"), await bob.join(hosted.table_id, "Bob")]
        stats = [SeatStats(), SeatStats()]
        playing = [asyncio.ensure_future(play_seat(GameBot("high", 0), sessions[0], stats=stats[0])),
                   asyncio.ensure_future(play_seat(Failing(), sessions[1], stats=stats[1]))]
        await host.start(hosted.table_id, hosted.host_token)
        ends = await asyncio.wait_for(asyncio.gather(*playing), 30)
        game = server.lobby.tables[hosted.table_id].game
        assert game is not None and game.over and game.result is not None
        assert all(end is not None and tuple(end.scores) == game.result.scores for end in ends)
        ann_cards = [c.card for c in game.log if c.seat == 0]
        bob_cards = [c.card for c in game.log if c.seat == 1]
        assert ann_cards == sorted(ann_cards, reverse=True)  # the game's own "high" bot, from the highest down
        assert bob_cards == sorted(bob_cards)  # the game's safe default for the failing bot: the lowest card
        assert stats[0].played == 3 and stats[0].defaults == 0
        assert stats[1].defaults == stats[1].errors == 3 and "no idea" in stats[1].last_error
        # back after the end: the snapshot's view of a finished game, read by the game's kind
        again = await play_seat(Failing(), ann.seat(hosted.table_id, 0, sessions[0].token))
        assert again is not None and tuple(again.scores) == game.result.scores
        assert tuple(again.winners) == game.result.winners
    finally:
        for connection in (host, ann, bob):
            await connection.close()
