"""One conformance suite over every registered game (``engine.games.GAMES``, and the fixture game "high card" of
test_game_boundary.py, registered the way that file does): a new game gets it by its registry line.

For each game and each of its presets (the words of its ``preset`` knob; a game without one: its defaults),
a few seeded games, each seat played by a random bot or the game's takeover bot, and at every step:

* **fold = view**: every seat and a spectator, folding the events it may see from ``kind.opening`` and from
  ``kind.knowing`` of its first view, knows what ``game.view`` shows it, but for what a fold cannot know: the
  legal commands, and who has answered a decision several seats face at once (the others' answers are theirs).
* **hidden information**: every event goes to the audience its ``to`` names; two moves of a seat that show
  another reader the same events leave that reader the same view; no view shows a card another seat's view
  holds as its own, and, but where a round ends, no event a reader sees names a card another seat then holds
  as its own that the reader had not seen where it was.
* **save/load**: ``kind.load(game.to_dict())`` is the same game: the same data, views, commands to play, and
  the same events as play goes on.
* **refusals change nothing**: another seat's commands, commands of other moments, seats off the table and text
  that is no command are refused (RuleError citing a rule of the game's book, or ValueError from the notation)
  and the game's data stays as it was.
* **replay determinism**: a new game of the same seats, rules and seed, given the log, tells the same events
  and ends the same (checked and trusted).

And every numbered rule of a rule book in docs/ is cited by a test (as ``TP-4.7``, or in a test's name as
``tp_4_7_``)."""

from __future__ import annotations

import dataclasses
import operator
import random
import re
from collections.abc import Callable, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from tenpennies.engine import games
from tenpennies.engine.cards import Card
from tenpennies.engine.interface import Kind, RuleError
from tenpennies.engine.play import RandomBot
from tenpennies.wire import games as wire_games

from test_game_boundary import HIGH_CARD, HIGH_CARD_WIRE

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"

KINDS: dict[str, Kind[Any]] = {**games.GAMES, HIGH_CARD.name: HIGH_CARD}
FIXTURES = {HIGH_CARD.name: HIGH_CARD_WIRE}  # games registered only while a test runs, with their wire entries


def presets(kind: Kind[Any]) -> tuple[str | None, ...]:
    """The words of the game's ``preset`` knob; (None,) for a game that has none (its defaults)."""
    for knob in kind.knobs:
        if knob.name == "preset":
            return knob.words
    return (None,)


CASES = [pytest.param(name, preset, id=f"{name}-{preset or 'defaults'}")
         for name, kind in KINDS.items() for preset in presets(kind)]

GAMES_PER_CASE = 4
CHECK_EVERY = 8
"""The costlier checks (load, refusals, two moves compared) are made on each of the first so many steps, then every
so many, the gaps growing with the game (a tenth of the steps so far) as their cost does with its log."""


@pytest.fixture
def registered(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Kind[Any]:
    """The game of the case, asked of the registry; a fixture game is registered for the test alone, one entry in
    the engine's registry and one on the wire, as test_game_boundary.py does."""
    name = request.node.callspec.params["name"]
    if name in FIXTURES:
        monkeypatch.setitem(games.GAMES, name, KINDS[name])
        monkeypatch.setitem(wire_games.WIRE, name, FIXTURES[name])
    return games.kind(name)


def rules_of(kind: Kind[Any], preset: str | None) -> Any:
    return kind.rules_from_settings([] if preset is None else [f"preset={preset}"])


# --- the rule books -------------------------------------------------------------------------------------------

NUMBERED = re.compile(r"^- ([A-Z][A-Z0-9]*-\d+\.\d+)\b", re.M)
CHAPTER = re.compile(r"^## ([A-Z][A-Z0-9]*-\d+)\b", re.M)


def books() -> dict[str, set[str]]:
    """Every rule book in docs/, by its rules' prefix (``TP``, ``T31``): its numbered rules and its chapters."""
    found: dict[str, set[str]] = {}
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for rule in NUMBERED.findall(text) + CHAPTER.findall(text):
            found.setdefault(rule.split("-")[0], set()).add(rule)
    return found


def prefix(kind: Kind[Any]) -> str:
    """The prefix of the game's rule numbers, as its knobs cite them."""
    prefixes = {knob.rule.split("-")[0] for knob in kind.knobs}
    assert len(prefixes) == 1, f"{kind.name}'s knobs cite rules of several books: {sorted(prefixes)}"
    return prefixes.pop()


def cites_its_book(kind: Kind[Any], rule: str, book: dict[str, set[str]]) -> bool:
    """Whether ``rule`` is one of the game's book (a game with no book in docs/, the fixture, its own prefix)."""
    own = prefix(kind)
    return rule in book[own] if own in book else rule.startswith(f"{own}-")


def test_every_numbered_rule_of_every_book_is_cited_by_a_test() -> None:
    """Each rule ``X-a.b`` of a book in docs/ appears in a file under tests/ (not this one, which reads the books):
    as ``X-a.b`` (not the start of ``X-a.bc``) or in a name as ``x_a_b_``."""
    book = books()
    assert {"TP", "T31"} <= set(book) and all(prefix(kind) in book for kind in games.GAMES.values())
    texts = "\n".join(path.read_text(encoding="utf-8") for path in sorted(TESTS.rglob("*"))
                      if path.suffix in (".py", ".mjs") and "node_modules" not in path.parts
                      and path.resolve() != Path(__file__).resolve())
    missing = []
    for own, rules in sorted(book.items()):
        for rule in sorted(r for r in rules if "." in r):
            chapter, number = rule.split("-")[1].split(".")
            if not re.search(rf"{re.escape(rule)}(?!\d)", texts) and f"{own.lower()}_{chapter}_{number}_" not in texts:
                missing.append(rule)
    assert not missing, f"no test cites {', '.join(missing)}"


# --- what a seat sees -----------------------------------------------------------------------------------------


def cards_in(value: object, seen: dict[int, frozenset[Card]] | None = None) -> frozenset[Card]:
    """Every card reachable from a view, event or command (``seen``: what is known of the values met already, by
    their id, while they are all alive: a view's rules are every view's)."""
    if isinstance(value, Card):
        return frozenset((value,))
    if isinstance(value, (str, int, float, bool, Enum)) or value is None:
        return frozenset()
    if seen is None:
        seen = {}
    found = seen.get(id(value))
    if found is not None:
        return found
    if isinstance(value, (tuple, list, set, frozenset)):
        found = frozenset().union(*(cards_in(x, seen) for x in value))
    elif isinstance(value, dict):
        found = frozenset().union(*(cards_in(x, seen) for x in value.values()))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        found = frozenset().union(*(cards_in(getattr(value, f.name), seen) for f in dataclasses.fields(value)))
    else:
        found = frozenset()
    seen[id(value)] = found
    return found


_KNOWN_PARTS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def known_part(view: Any) -> tuple[Any, ...]:
    """A view but for ``legal`` and ``to_act`` (every game's view is a dataclass with both)."""
    parts = _KNOWN_PARTS.get(type(view))
    if parts is None:
        names = [f.name for f in dataclasses.fields(view) if f.name not in ("legal", "to_act")]
        parts = _KNOWN_PARTS[type(view)] = operator.attrgetter(*names)
    return parts(view)


def check_fold(known: Any, truth: Any, where: str, truth_known: tuple[Any, ...] | None = None) -> None:
    """A fold's view against the game's: equal but for ``legal`` (the server's) and, while several seats face one
    decision, those of them that have answered (their answers are their own): the fold may still wait for them."""
    view = known.view
    assert known_part(view) == (known_part(truth) if truth_known is None else truth_known), where
    if view.to_act != truth.to_act:
        waiting = set(truth.to_act)
        assert len(view.to_act) > 1 and waiting <= set(view.to_act), f"{where}: {view.to_act} for {truth.to_act}"
        assert [s for s in view.to_act if s in waiting] == list(truth.to_act), where
        assert (view.seat in view.to_act) == (view.seat in waiting), f"{where}: the seat knows its own answer"


def check_audience(events: Sequence[Any], seats: int) -> None:
    for event in events:
        assert event.to is None or 0 <= event.to < seats, event
        for reader in [*range(seats), None]:
            assert event.visible_to(reader) == (event.to is None or event.to == reader), (event, reader)


def check_cards_hidden(before: dict[int | None, Any], after: dict[int | None, Any], events: Sequence[Any],
                       ends_a_round: bool) -> None:
    """No view shows a card that another seat's view holds and the spectator's does not (a card of its own); no
    event a reader sees names such a card of another seat, unless the reader saw it where it was before (the
    spectator's view or its own showed it), or the step ends a round (or the game), when the hands may be shown."""
    memo: dict[int, frozenset[Card]] = {}
    public_before, public_after = cards_in(before[None], memo), cards_in(after[None], memo)
    own = {s: cards_in(view, memo) - public_after for s, view in after.items() if s is not None}
    for reader, view in after.items():
        shown = cards_in(view, memo)
        for seat, cards in own.items():
            seen = shown & cards if seat != reader else set()
            assert not seen, f"seat {reader}'s view shows seat {seat}'s {sorted(c.text for c in seen)}"
    if ends_a_round:
        return
    for event in events:
        for reader in after:
            if event.visible_to(reader):
                named = cards_in(event, memo) - public_before - cards_in(before[reader], memo)
                for seat, cards in own.items():
                    leaked = named & cards if seat != reader else set()
                    assert not leaked, f"{event} shows {reader} seat {seat}'s {sorted(c.text for c in leaked)}"


def check_two_moves(kind: Kind[Any], game: Any, seat: int, rng: random.Random) -> None:
    """Two moves of ``seat`` that show a reader the same events leave it the same view (commands and all): what
    differs between them is hidden from it."""
    legal = list(game.legal_commands(seat))
    readers = [s for s in [*range(game.seats), None] if s != seat]
    seen: dict[int | None, list[tuple[list[Any], Any]]] = {s: [] for s in readers}
    for command in rng.sample(legal, min(4, len(legal))):
        twin = game.copy()
        events = list(twin.apply(command))
        for reader in readers:
            told = [e for e in events if e.visible_to(reader)]
            view = twin.view(reader)
            for other_told, other_view in seen[reader]:
                assert other_told != told or other_view == view, \
                    f"seat {reader}'s view tells which of two moves of seat {seat} was made"
            seen[reader].append((told, view))


# --- refusals -------------------------------------------------------------------------------------------------

NOT_COMMANDS = ("", "nonsense", "0", "0 0 0 0", "-1 x", "99", "0 nonsense 1")


def check_refusals(kind: Kind[Any], game: Any, before: dict[str, Any], rng: random.Random,
                   book: dict[str, set[str]]) -> None:
    """Commands of other seats, of other moments (of its log) and of seats off the table are refused citing the
    game's book, and text that is no command is refused by the notation; the game's data stays ``before``."""
    waiting = game.to_act()
    for seat in range(game.seats):
        if seat not in waiting:
            assert not game.legal_commands(seat), f"seat {seat} has commands while the game does not wait for it"
    tried: list[Any] = []
    for seat in waiting:
        for command in rng.sample(list(game.legal_commands(seat)), min(3, len(game.legal_commands(seat)))):
            assert game.is_legal(command), command
            tried += [dataclasses.replace(command, seat=s) for s in (*range(game.seats), -1, game.seats) if s != seat]
    tried += rng.sample(list(game.log), min(8, len(game.log)))
    for text in NOT_COMMANDS:
        try:
            tried.append(kind.parse_command(text))
        except ValueError:
            pass
    for command in tried:
        if 0 <= command.seat < game.seats and game.is_legal(command):
            continue
        with pytest.raises(RuleError) as refused:
            game.apply(command)
        assert cites_its_book(kind, refused.value.rule, book), f"{command} refused citing {refused.value.rule}"
        assert not game.is_legal(command), command
    assert game.to_dict() == before, "a refused command changed the game"


# --- the games ------------------------------------------------------------------------------------------------


def tables(kind: Kind[Any], rules: Any) -> Iterator[tuple[int, int]]:
    """(seats, seed) for the case's games: the fewest seats the rules allow, the most, and one between."""
    allowed = []
    for seats in kind.seats:
        try:
            kind.validate(rules, seats)
        except RuleError:
            continue
        allowed.append(seats)
    assert allowed, f"{kind.name} allows no table under {rules}"
    counts = [allowed[0], allowed[-1], allowed[len(allowed) // 2]]
    for game in range(GAMES_PER_CASE):
        yield counts[game % len(counts)], 1000 * game + 7


def bots_for(kind: Kind[Any], seats: int, seed: int) -> list[Any]:
    """The game's takeover bot and random ones, alternating (which seats play which, by the seed)."""
    return [kind.bots[kind.takeover](seed + s) if (s + seed) % 2 else RandomBot(seed + s) for s in range(seats)]


@pytest.mark.parametrize("name,preset", CASES)
def test_seeded_games_keep_every_promise_of_the_interface(registered: Kind[Any], name: str,
                                                          preset: str | None) -> None:
    kind = registered
    rules = rules_of(kind, preset)
    book = books()
    for seats, seed in tables(kind, rules):
        play_checked(kind, rules, seats, seed, book)


def play_checked(kind: Kind[Any], rules: Any, seats: int, seed: int, book: dict[str, set[str]]) -> None:
    rng = random.Random(seed)
    game = kind.new(seats, rules, seed)
    assert game.seats == seats and game.seed == seed and not game.log and not game.over and game.result is None
    readers: list[int | None] = [*range(seats), None]
    opening = list(game.opening_events)
    check_audience(opening, seats)
    from_start = {r: kind.opening(r, seats, rules) for r in readers}
    for r in readers:
        for event in opening:
            if event.visible_to(r):
                from_start[r] = kind.fold(from_start[r], event)
    from_view = {r: kind.knowing(game.view(r)) for r in readers}
    for r in readers:
        assert from_view[r].view == game.view(r)
        check_fold(from_start[r], game.view(r), f"seat {r} from the opening")
    assert not game.view(None).legal
    bots = bots_for(kind, seats, seed)
    watchers = [(s, bot.observe) for s, bot in enumerate(bots) if callable(getattr(bot, "observe", None))]
    for s, observe in watchers:
        observe(game.view(s))
    told: list[list[Any]] = []
    twin = kind.load(game.to_dict())
    step = next_check = 0
    where = f"{kind.name} {rules} with {seats} seats, seed {seed}"
    while not game.over:
        assert step < 50_000, f"{where}: the game did not end"
        waiting = game.to_act()
        assert waiting, f"{where}: the game waits for nobody"
        seat = rng.choice(waiting)
        checked = step == next_check
        if checked:
            next_check = step + (1 if step < CHECK_EVERY else max(CHECK_EVERY, step // 10))
            data = game.to_dict()
            check_refusals(kind, game, data, rng, book)
            check_two_moves(kind, game, seat, rng)
            twin = kind.load(data)
            assert twin.to_dict() == data == game.to_dict(), f"{where}: load (or a copy played) changed, step {step}"
            assert twin.log == game.log
            assert twin.to_act() == waiting and twin.round_number == game.round_number
            for r in readers:
                assert twin.view(r) == game.view(r), f"{where}: the loaded game shows seat {r} another view"
            for s in range(seats):
                assert list(twin.legal_commands(s)) == list(game.legal_commands(s))
            before = {r: game.view(r) for r in readers}
            round_before = game.round_number
        command = bots[seat].choose(game.view(seat))
        assert kind.parse_command(kind.format_command(command)) == command, command
        events = list(game.apply(command))
        assert list(twin.apply(command)) == events, f"{where}: the loaded game told other events at step {step}"
        told.append(events)
        step += 1
        assert game.log[-1] == command and len(game.log) == step
        check_audience(events, seats)
        for s, observe in watchers:
            observe(game.view(s))
        after = {r: game.view(r) for r in readers}
        assert not after[None].legal, f"{where}: a spectator has commands"
        for r in readers:
            truth = known_part(after[r])
            for folds in (from_start, from_view):
                for event in events:
                    if event.visible_to(r):
                        folds[r] = kind.fold(folds[r], event)
                check_fold(folds[r], after[r], f"{where}: seat {r} after {command}, step {step}", truth)
        if checked:
            check_cards_hidden(before, after, events, game.over or game.round_number != round_before)
    result = game.result
    assert result is not None and len(result.scores) == seats, where
    assert result.winners and set(result.winners) <= set(range(seats)), where
    assert not any(game.legal_commands(s) for s in range(seats)) and not game.to_act()
    assert twin.to_dict() == game.to_dict() and twin.result == result

    replayed = kind.new(seats, rules, seed)
    assert list(replayed.opening_events) == opening, where
    for command, events in zip(game.log, told, strict=True):
        assert list(replayed.apply(command)) == events, f"{where}: the replay told other events for {command}"
    assert replayed.over and replayed.result == result and replayed.to_dict() == game.to_dict(), where
    trusted = kind.new(seats, rules, seed)
    for command in game.log:
        trusted.apply(command, trusted=True)
    assert trusted.result == result and trusted.to_dict() == game.to_dict(), where
