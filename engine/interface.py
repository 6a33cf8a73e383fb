"""The game interface: all that a server's table, its store, timers and takeover know of a game.

A game *kind* (``Kind``) makes, loads and speaks for the games of one kind, in three parts: its rules, the
text of its commands and what a timer does for a late seat (``KindRules``), its bots and searcher
(``KindBots``), its words (``KindWords``). A *game* (``Game``) is one game being played: whose
turn, what each seat may do, applying a command, what each seat may know. ``games.GAMES`` lists the kinds
by name (each game's package has its ``kind``).

A game's commands, views and rules are its own values: whoever drives a game only passes them along (and
reads a command's ``seat``). Every game is reproducible from its seats, rules, seed and command log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .cards import Card
from .errors import RuleError as RuleError  # every game's error, here with the rest of the interface
from .knobs import Knob

Command = Any  # a game's command: an immutable value, equal to any other command that does the same, with its seat
View = Any     # what one seat (None: a spectator) may know of a game
Rules = Any    # a game's rules: its house-rule settings
Known = Any    # what one seat knows, folded from the events it saw (its ``.view`` is the seat's view)


class Event(Protocol):
    """Something that happened, with its audience: ``to`` is None for everybody, or the one seat that
    may see it. Whoever fans events out needs nothing else to keep hidden cards hidden."""

    @property
    def to(self) -> int | None: ...

    def visible_to(self, seat: int | None) -> bool: ...


@dataclass(frozen=True)
class Result:
    """How a finished game came out, by seat: ``scores``, the ``winners`` (seat numbers; tied winners
    all win) and the game's own per-seat ``tallies`` a tournament keeps (Ten Pennies: pennies, buys)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tallies: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


class Narrator(Protocol):
    """A game's events in words, for one reader."""

    def line(self, event: Any) -> str | None:  # Any: each game narrates its own events
        """The event in words; None for one that another event's words already tell."""
        ...

    def move(self, command: Any) -> str:  # Any: each game words its own commands
        """A command in words, as its seat would say it before making it ("discard the K♥"), cards written as
        the narrator writes them: a review's choice and the options it was weighed against."""
        ...


class Bot(Protocol):
    """Plays a seat from its view alone. It may also have ``observe(view)``, shown its seat's view after
    every command."""

    def choose(self, view: View) -> Command: ...


class Game(Protocol):
    """One game. ``apply`` applies a legal command and returns its events, or raises RuleError and
    leaves the game untouched; ``trusted`` skips the checks, for a log the game accepted once already."""

    @property
    def seats(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def log(self) -> Sequence[Command]: ...

    @property
    def opening_events(self) -> Sequence[Event]:
        """What happened as the game was made (the deal): empty for a game loaded from storage."""
        ...

    @property
    def round_number(self) -> int:
        """The round (Thirty-One: the deal) being played, as the players count them."""
        ...

    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision the game waits for."""
        ...

    def legal_commands(self, seat: int) -> Sequence[Command]:
        """What ``seat`` may do now (nothing if the game does not wait for it)."""
        ...

    def is_legal(self, command: Command) -> bool: ...

    def apply(self, command: Command, *, trusted: bool = False) -> Sequence[Event]: ...

    def view(self, seat: int | None) -> View:
        """All ``seat`` may know (None: a spectator): never another seat's hidden cards."""
        ...

    @property
    def over(self) -> bool: ...

    @property
    def result(self) -> Result | None:
        """How the game came out; None until it is over."""
        ...

    def copy(self) -> Game: ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data (it holds the hidden cards: for the server's storage only)."""
        ...


G = TypeVar("G", bound=Game)
G_contra = TypeVar("G_contra", bound=Game, contravariant=True)  # KindBots only takes games, never makes one


class KindRules(Protocol[G]):
    """A kind of game's rules: ``name`` as the store and the registry know it (snake case); making,
    loading and checking its games, its rules and commands as plain data and text, what its timer plays for a
    late seat, and the fold of its events into what a seat knows."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str:
        """The game as people name it (``Ten Pennies``, ``Thirty-One``); ``name`` is the one programs use."""
        ...

    @property
    def seats(self) -> range:
        """The numbers of seats a table of this game may have (``validate`` refuses any other)."""
        ...

    @property
    def knobs(self) -> tuple[Knob, ...]:
        """The game's house rules, each declared once (``engine.knobs``): what a form or a command line offers.
        A knob may apply only under some of its other knobs' values (``Knob.applies_to``: a preset's)."""
        ...

    def new(self, seats: int, rules: Rules, seed: int) -> G:
        """A new game (RuleError for seats or rules the game does not allow)."""
        ...

    def load(self, data: dict[str, Any]) -> G:
        """A game from its ``to_dict``."""
        ...

    def rules_from_dict(self, data: Mapping[str, Any]) -> Rules:
        """Rules from plain data (RuleError for an unknown setting); missing settings take the defaults."""
        ...

    def rules_to_dict(self, rules: Rules) -> dict[str, Any]: ...

    def rules_from_settings(self, settings: Iterable[str]) -> Rules:
        """Rules from ``NAME=VALUE`` texts, as a command line writes them (``-`` may stand for ``_``); RuleError
        naming the knob, and what it takes, for a bad one."""
        ...

    def validate(self, rules: Rules, seats: int) -> None:
        """RuleError if a game of ``seats`` cannot be played with ``rules``."""
        ...

    def parse_command(self, text: str) -> Command:
        """The command ``format_command`` wrote as ``text``; ValueError for text that is no command of the game
        (whether the command is legal is the rules' to say)."""
        ...

    def format_command(self, command: Command) -> str:
        """A command in one line of text, as the store keeps it (``parse_command`` reads it back)."""
        ...

    @property
    def view_type(self) -> type:
        """The class of a seat's view: how a view met alone (a bot's ``choose``) tells its game
        (``games.kind_of``)."""
        ...

    def timed_out(self, game: G, seat: int) -> Sequence[Command]:
        """The safe default when ``seat``'s decision timer runs out (the game waits for the seat): the first
        command is made at once; each next one as soon as the game waits for the seat and it is legal (Ten
        Pennies: decline the pick-up, then draw once the buy offer is settled), unless the player acts first."""
        ...

    def safe_default(self, view: View) -> Command:
        """What the timer plays for the seat of ``view`` (one the game waits for), from its view alone: what a
        bot client sends in place of a late, failing or illegal answer (``timed_out`` starts with it)."""
        ...

    def unlisted(self, view: View, command: Command) -> bool:
        """Whether ``command`` of the view's seat, one that ``view.legal`` does not list, is worth sending all
        the same, for the rules to judge (Ten Pennies: a meld of the seat's own making while it may meld, as
        the server lists a bounded choice of melds; Thirty-One lists every command: never)."""
        ...

    def game_end(self, view: View, winners: Sequence[int]) -> Event | None:
        """The game's end (the event that tells it) as a seat's view of the finished game shows it, the
        ``winners`` as the table names them; None while the game goes on. What a client that finds the game
        over when it comes back (a snapshot, not the event) is told."""
        ...

    def timer_audience(self, game: G, command: Command) -> int | None:
        """Who may see that the timer made ``command`` for its seat (asked once it is applied): None for
        everybody, or the seat alone."""
        ...

    def knowing(self, view: View) -> Known:
        """What a seat knows, starting from ``view`` (a snapshot's, or the game's own ``view``)."""
        ...

    def opening(self, seat: int | None, seats: int, rules: Rules) -> Known:
        """What ``seat`` (None: a spectator) knows of a new game of ``seats`` under ``rules`` before any of
        its events: where the fold starts for a reader that follows the game from its beginning."""
        ...

    def fold(self, known: Known, event: Any) -> Known:  # Any: each game folds its own events
        """What the seat knows once it has seen ``event`` (one it may see): the one fold of events into a
        seat's view, for clients and bots alike. ``known.view`` is the seat's view."""
        ...


class KindBots(Protocol[G_contra]):
    """A kind of game's players that are programs: its built-in bots, the one that takes a gone player's seat,
    and the searcher a review weighs a decision's options with."""

    @property
    def bots(self) -> Mapping[str, Callable[[int], Bot]]:
        """The built-in bots by strategy name, each made from a seed."""
        ...

    @property
    def takeover(self) -> str:
        """The strategy of the bot that plays a seat whose player is gone."""
        ...

    def review_options(self, game: G_contra, seat: int, chosen: Command) -> Sequence[Command]:
        """The options of ``seat``'s decision now (the game waits for it) that a review compares: ``chosen``
        first, then the other legal commands worth scoring, grouped and bounded by the game (Ten Pennies: one
        discard per face, a few of the meld phase's many contracts, sets and lay-offs). One command alone:
        nothing to review."""
        ...

    def option_values(self, game: G_contra, seat: int, options: Sequence[Command], *, budget: int,
                      seed: int) -> list[float]:
        """``seat``'s expected points for the rest of the round (Thirty-One: the deal) after each of
        ``options`` (lower is better, as a score), judged only from what ``seat`` knows (worlds sampled from
        its view, never the hidden cards), reproducible from ``seed``; ``budget`` in the game's searcher's
        own unit (``searcher`` names it and a review's default)."""
        ...

    @property
    def searcher(self) -> tuple[str, int]:
        """The searcher ``option_values`` uses, by name, and the budget a review gives it by default."""
        ...


class KindWords(Protocol):
    """A kind of game told to people: its events in words, its rule book, and the tallies a tournament's
    standings add up."""

    @property
    def rule_book(self) -> tuple[str, str]:
        """The prefix of the game's rule numbers (``RuleError.rule`` starts with it and ``-``) and its rule book's
        file among the rule books (docs/), where a client finds a cited rule's text ("": the game has none there)."""
        ...

    def narrator(self, rules: Rules, name: Callable[[int], str], *, seat: int | None = None,
                 every_hand: bool = False, card: Callable[[Card], str] | None = None) -> Narrator:
        """Who puts this game's events into words for one reader (``seat``; None: a spectator), seats called
        by ``name``; ``every_hand``: the reader sees every card (a replay); ``card`` writes a card (None: the
        game's own notation; a screen may write it in its own style)."""
        ...

    def tournament_tallies(self, rules: Rules) -> tuple[str, ...]:
        """The game's own tallies of ``Result.tallies`` a tournament's standings add up under ``rules``, in
        the order the standings show them (Ten Pennies: ``pennies`` and ``buys``; Thirty-One: the one its
        preset keeps, ``lives``, ``tokens`` or ``points``)."""
        ...


class Kind(KindRules[G], KindBots[G], KindWords, Protocol[G]):
    """A kind of game: its rules (``KindRules``), its bots and searcher (``KindBots``) and its words
    (``KindWords``), in the one object the registry (``games.GAMES``) lists a game by."""
