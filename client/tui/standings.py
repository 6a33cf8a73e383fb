"""A server's tournament standings (``serve --tournament``), shown from the lobby with ``t``: each bot's games,
wins, mean score (or place) and rating, and the game's own columns (``ScreenGame.standings``: Ten Pennies'
pennies and buys, Thirty-One's lives left, tokens or points a game).

The standings come from ``GetStandings``, a unary call: the screen asks again every couple of seconds
while it is open (the tournament's games end a few a minute; a stream would buy nothing).
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tenpennies.engine.games import DEFAULT_GAME
from tenpennies.engine.tournament import wins_text
from tenpennies.v2 import tenpennies_pb2 as pb

from ..connection import Connection, ServerError
from ..games import CLIENT_GAMES, ClientGame
from .cards import clip
from .footer import KeysFooter
from .game import tally_note
from .games import screen_game

REFRESH_SECONDS = 2.0
BOT_WIDTH = 12  # a longer bot's name is cut with …


def scored(standings: pb.GetStandingsResponse) -> ClientGame:
    """The client's entry of the tournament's game: what its scores are (a score, a place) and their decimals
    (a game without one: scores, as ``Result.scores`` are)."""
    game = standings.game or DEFAULT_GAME
    return CLIENT_GAMES.get(game) or ClientGame(game)


def mean_head(standings: pb.GetStandingsResponse) -> str:
    """The mean column's head: ``Mean`` of scores, or what the game's scores are (``Place``)."""
    word = scored(standings).score_word
    return "Mean" if word == "score" else word.capitalize()


def columns(standings: pb.GetStandingsResponse) -> tuple[str, ...]:
    """The screen's columns: what every game's standings have, the mean of the game's scores and its own
    (``ScreenGame.standings``). Short heads (the note says what they mean), so that the window fits 80 columns:
    each column takes a space either side, and the window a border and a space either side."""
    own = screen_game(standings.game).standings
    return ("#", "Bot", "Games", "Wins", mean_head(standings), *own.heads(standings), "Ill.", "T/o", "Rating")


def note(standings: pb.GetStandingsResponse) -> str:
    own = screen_game(standings.game).standings
    if own.note is not None:
        return own.note(standings)
    entry = scored(standings)
    why = f" ({entry.score_note})" if entry.score_note else ""
    return tally_note(standings, f"{mean_head(standings)}: mean {entry.score_word} a game ± its margin{why}")


def progress(standings: pb.GetStandingsResponse) -> str:
    """One line on how far the tournament is: the lobby's status line and the screen's head say it."""
    playing = f", {standings.games_playing} being played" if standings.games_playing else ""
    over = " (over)" if standings.games_played >= standings.games_total else ""
    return (f"tournament {standings.tournament!r}: {standings.games_played} of {standings.games_total} "
            f"games played{playing}{over}")




def standing_row(place: int, standing: pb.Standing, standings: pb.GetStandingsResponse) -> tuple[str | Text, ...]:
    """One bot's row, with the columns of the game of ``standings``."""
    own = screen_game(standings.game).standings
    digits = scored(standings).digits
    if standing.HasField("mean_score"):
        margin = f"±{standing.mean_score_margin:.{digits}f}" if standing.games > 1 else ""
        mean = f"{standing.mean_score:.{digits}f}{margin}"
    else:
        mean = "-"
    name = clip(standing.name, BOT_WIDTH)
    return (str(place), Text(name), str(standing.games), wins_text(standing.shared_wins), Text(mean, justify="right"),
            *own.cells(standing, standings), str(standing.illegal), str(standing.timed_out),
            f"{standing.rating_mu:.1f}±{standing.rating_sigma:.1f}")


class StandingsScreen(ModalScreen[None]):
    """The standings, best first (as the server orders them: rating less three deviations)."""

    BINDINGS = [Binding("escape,t,q", "close", "Close")]

    def __init__(self, connection: Connection, standings: pb.GetStandingsResponse) -> None:
        super().__init__()
        self.connection = connection
        self.standings = standings

    def compose(self) -> ComposeResult:
        with Vertical(id="standings", classes="lobby-modal"):
            yield Static(id="standings-head")
            table: DataTable[str | Text] = DataTable(id="standings-table", cursor_type="row", zebra_stripes=True)
            for label in columns(self.standings):
                table.add_column(label, key=label)
            yield table
            yield Static(note(self.standings), id="standings-note", markup=False)
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self.show(self.standings)
        self.set_interval(REFRESH_SECONDS, self.refresh_standings)

    @work(exclusive=True, group="standings", exit_on_error=False)
    async def refresh_standings(self) -> None:
        try:
            standings = await self.connection.standings()
        except ServerError as error:
            self.query_one("#standings-head", Static).update(
                f"[b]{progress(self.standings)}[/b] [dim](not refreshed: {error.words})[/dim]")
            return
        if standings is not None:
            self.show(standings)

    def show(self, standings: pb.GetStandingsResponse) -> None:
        self.standings = standings
        self.query_one("#standings-head", Static).update(f"[b]{progress(standings)}[/b]")
        table = self.query_one("#standings-table", DataTable)
        cursor = table.cursor_row
        table.clear()
        for place, standing in enumerate(standings.standings, 1):
            table.add_row(*standing_row(place, standing, standings), key=standing.name)
        if standings.standings:
            table.move_cursor(row=min(cursor, len(standings.standings) - 1))

    def action_close(self) -> None:
        self.dismiss(None)
