"""The screens' own entry for a game with none of its own in ``games.SCREENS``: a game the engine and the wire
have is played at the terminal all the same. Its table lists the seat's moves, each in the game's narrator's
words (``Narrator.move``), and ``enter`` chooses one; the log tells the game in the narrator's words, as for
every game; its end shows each seat's score and the winners (the wire's ``GameEnded``); the replay viewer's
board shows whose turn it is and each seat's moves. Nothing here knows any game: all of it comes from the
game's ``Kind``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tenpennies.engine.games import GAMES, kind
from tenpennies.engine.interface import Command, Game, Narrator, Rules
from tenpennies.v2 import tenpennies_pb2 as pb
from tenpennies.wire.record import GameRecord

from .cards import CardStyle
from .choose import ChooseScreen
from .footer import KeysFooter
from .game import Frame, GameTable, ScreenGame
from .grid import Row, grid, names
from .help import GameEnd, KeysHelp
from .help import names as end_names
from .line import Line
from .seats import SeatLine, SeatsHead

KEYS = (("enter", "choose your move: the moves listed, each in the game's words"), ("c / ?", "chat / this help"))
WATCHER_KEYS = (("c / ?", "chat / this help"), ("enter", "the result, once the game is over"))


def title(game: str) -> str:
    played = GAMES.get(game)
    return played.title if played is not None else game


def moves_text(moves: Sequence[str]) -> Text:
    """The seat's moves in words on one line (cut with ``…`` where the line ends)."""
    return Text("Your moves: " + " · ".join(moves), no_wrap=True, overflow="ellipsis") if moves else Text()


class AnyGameTable(GameTable):
    """A game's table from its ``Kind`` alone: the seat's moves in the narrator's words, chosen with enter."""

    DEFAULT_CSS = """
    AnyGameTable { height: auto; }
    AnyGameTable #moves { height: auto; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "choose", "Move")]

    def __init__(self, frame: Frame, *, id: str | None = None) -> None:
        super().__init__(frame, id=id)
        self.moves = Line(id="moves")
        self._narrator: tuple[object, Narrator] | None = None  # the table's rules, and the narrator of them

    def compose(self) -> ComposeResult:
        yield self.moves

    @property
    def title(self) -> str:
        return title(self.tv.game)

    def narrator(self) -> Narrator:
        """The game's narrator for this seat (made again if the table's rules changed: a new snapshot)."""
        rules = self.tv.rules
        if self._narrator is None or self._narrator[0] is not rules:
            made = kind(self.tv.game).narrator(rules, self.frame.who, seat=self.seat, card=self.frame.card_style.text)
            self._narrator = (rules, made)
        return self._narrator[1]

    def words(self, command: Command) -> str:
        return self.narrator().move(command)

    @property
    def over(self) -> bool:
        return self.tv.game_end is not None

    def folded(self, event: Any, before: Any) -> None:
        if self.ends(event):
            self.show_end()

    def ends(self, event: Any) -> bool:
        """``event`` is the game's end (the one the table view took as the wire's GameEnded)."""
        return event is self.tv.game_ended

    def line_style(self, event: Any) -> str:
        return "bold" if self.ends(event) else ""

    def redraw(self) -> None:
        self.moves.show(moves_text([self.words(c) for c in self.legal]))

    def header(self, width: int) -> Text:
        info = self.tv.info
        name = info.name if info is not None and info.name else "Table"
        return Text(f"{name} {self.frame.card_style.dot} {self.title}", style="bold", no_wrap=True,
                    overflow="ellipsis")

    def seat_lines(self, lines: tuple[SeatLine, ...], width: int) -> tuple[tuple[SeatLine, ...], SeatsHead]:
        """The seats as the frame found them; at the game's end, each one's score and the winners marked."""
        end = self.tv.game_end
        if end is None:
            return lines, SeatsHead("", "")
        return tuple(SeatLine(line.name, line.flags, "*" if s in end.winners else " ", s in end.winners,
                              str(end.scores[s]) if s < len(end.scores) else "")
                     for s, line in enumerate(lines)), SeatsHead("Score", "")

    def where(self) -> str:
        return f": {self.title}, the game is over" if self.over else f": {self.title}"

    def prompt(self, clock: str) -> Text:
        dot = f" {self.frame.card_style.dot} "
        if self.over:
            won = " and ".join(self.frame.who(s) for s in self.tv.winners) or "?"
            return Text(f"Game over: {won} won{dot}enter shows the result", style="bold")
        if self.seat is not None and self.legal:
            count = len(self.legal)
            return Text(f"Your move: enter chooses {'it' if count == 1 else f'one of {count}'}{clock}", style="bold")
        return Text("Waiting for the other seats" if self.seat is not None else f"Watching {self.title}", style="dim")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.over or bool(self.legal)
        return True

    def action_choose(self) -> None:
        """The seat's moves in a list, each in the game's words: the one chosen is sent (at the game's end: the
        result again)."""
        if self.over:
            self.show_end()
            return
        legal = self.legal
        if not legal:
            return

        def chosen(command: Command | None) -> None:
            if command is not None:
                self.send(command)
        self.app.push_screen(ChooseScreen([(Text(self.words(c)), c) for c in legal]), chosen)

    def show_end(self) -> None:
        end = self.tv.game_end
        info = self.tv.info
        if end is None or info is None:
            return
        mine = self.seat is not None
        self.show_over_table(AnyGameEnd(end, self.frame.who, self.seat, info.seats,
                                        review=self.frame.open_review if mine else None,
                                        history=self.frame.your_games))

    def help_screen(self, extra: list[tuple[str, str]], watching: bool) -> Screen[Any]:
        note = Text(f"{self.title}: its moves are listed in the game's own words; the log tells what each seat "
                    "did.")
        return KeysHelp((*(WATCHER_KEYS if watching else KEYS), *extra), (note,))


class AnyGameEnd(GameEnd):
    """The game's end: each seat's score, the winners first."""

    def __init__(self, ended: pb.GameEnded, name: Callable[[int], str], seat: int | None, seats: int, *,
                 review: Callable[[], object] | None = None, history: Callable[[], object] | None = None) -> None:
        super().__init__(review, history)
        self.ended = ended
        self.seat_name = name
        self.seat = seat
        self.seats = seats

    def compose(self) -> ComposeResult:
        named = end_names(self.seat_name, self.seat, self.seats)
        winners = set(self.ended.winners)
        scores = list(self.ended.scores)
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Score", justify="right")
        for s in sorted(range(self.seats), key=lambda s: (s not in winners, s)):
            table.add_row("winner" if s in winners else "", named[s], str(scores[s]) if s < len(scores) else "-",
                          style="bold" if s in winners else "")
        won = " and ".join(named[s] for s in sorted(winners)) or "nobody"
        with VerticalScroll(id="dialog", can_focus=False):
            yield Static(Text("Game over", style="bold"))
            yield Static(Text(f"{won} won."))
            yield Static(table)
            yield self.closing_hint()
        yield KeysFooter()


def board(game: Game, record: GameRecord, style: CardStyle, width: int) -> Text:
    """Whose turn it is and each seat's moves there, in the narrator's words (every hand is the seat's to
    know: the moves say what it may play); at the end, the scores."""
    narrator = kind(record.game).narrator(record.rules, record.seat_name, every_hand=True, card=style.text)
    result = game.result
    rows: list[Row] = []
    for s, name in enumerate(names(record)):
        turn = style.turn_mark if not game.over and s in game.to_act() else " "
        score = str(result.scores[s]) if result is not None else ""
        moves = [Text(narrator.move(c)) for c in game.legal_commands(s)] or [Text("-", style="dim")]
        rows.append(([Text(turn), Text(name), Text(score)], moves))
    return grid(["", "Player", "Score", "Moves"], rows, width, frozenset({2}))


def label_of(game: str) -> Callable[[Rules], str]:
    def label(rules: Rules) -> str:
        """The table's preset, if its game has one, else the game's title."""
        preset = kind(game).rules_to_dict(rules).get("preset") if game in GAMES else None
        return str(preset) if preset else title(game)
    return label


@functools.cache
def any_game(game: str) -> ScreenGame:
    """The screens' own entry for ``game`` (one with none of its own)."""
    return ScreenGame(table=AnyGameTable, board=board, label=label_of(game))
