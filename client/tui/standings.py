"""A server's tournament standings (``serve --tournament``), shown from the lobby with ``t``: a Ten Pennies
tournament's mean score, pennies and buys; another game's (Thirty-One) mean place and its own tallies a
game (lives left, tokens or points) in their place.

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

from tenpennies.engine.tournament import wins_text
from tenpennies.v1 import tenpennies_pb2 as pb

from ..connection import Connection, ServerError
from .cards import clip
from .footer import KeysFooter

REFRESH_SECONDS = 2.0
# Short headers (the note says what they mean), so that the window fits 80 columns: each column takes a
# space either side, and the window a border and a space either side.
COLUMNS = ("#", "Bot", "Games", "Wins", "Mean", "Pen.", "Buys", "Ill.", "T/o", "Rating")
BOT_WIDTH = 12  # a longer bot's name is cut with …
NOTE = ("Wins: tied winners share one; Mean: mean score a game ± its margin (lower is better); Pen.: pennies "
        "won or lost; Ill.: commands the rules refused; T/o: decisions the timer or the takeover bot made. "
        "Escape closes.")
PLACE_NOTE = ("Wins: tied winners share one; Place: mean finishing place ± its margin (1 the best); {tallies}: "
              "a game's, as the game ended; Ill.: commands the rules refused; T/o: decisions the timer or the "
              "takeover bot made. Escape closes.")


def by_place(standings: pb.GetStandingsResponse) -> bool:
    """A game whose scores are places, with tallies of its own (Thirty-One), not Ten Pennies."""
    return standings.game not in ("", "ten_pennies")


def columns(standings: pb.GetStandingsResponse) -> tuple[str, ...]:
    """The screen's columns: Ten Pennies' ``COLUMNS``, or the mean place and the game's tallies for pennies
    and buys."""
    if not by_place(standings):
        return COLUMNS
    return ("#", "Bot", "Games", "Wins", "Place", *(t.capitalize() for t in standings.tallies), "Ill.", "T/o",
            "Rating")


def note(standings: pb.GetStandingsResponse) -> str:
    if not by_place(standings):
        return NOTE
    return PLACE_NOTE.format(tallies=", ".join(t.capitalize() for t in standings.tallies) or "Tallies")


def progress(standings: pb.GetStandingsResponse) -> str:
    """One line on how far the tournament is: the lobby's status line and the screen's head say it."""
    playing = f", {standings.games_playing} being played" if standings.games_playing else ""
    over = " (over)" if standings.games_played >= standings.games_total else ""
    return (f"tournament {standings.tournament!r}: {standings.games_played} of {standings.games_total} "
            f"games played{playing}{over}")




def standing_row(place: int, standing: pb.Standing, tallies: tuple[str, ...] | None = None
                 ) -> tuple[str | Text, ...]:
    """One bot's row: Ten Pennies' (``tallies`` None), or by place with ``tallies`` a game."""
    digits = 1 if tallies is None else 2  # a mean place (1 to 8) wants a second decimal
    if standing.HasField("mean_score"):
        margin = f"±{standing.mean_score_margin:.{digits}f}" if standing.games > 1 else ""
        mean = f"{standing.mean_score:.{digits}f}{margin}"
    else:
        mean = "-"
    name = clip(standing.name, BOT_WIDTH)
    own = (f"{standing.pennies:+d}", str(standing.buys)) if tallies is None else \
        tuple(f"{standing.tallies.get(t, 0) / standing.games:.1f}" if standing.games else "-" for t in tallies)
    return (str(place), Text(name), str(standing.games), wins_text(standing.shared_wins), Text(mean, justify="right"),
            *own, str(standing.illegal), str(standing.timed_out),
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
        tallies = tuple(standings.tallies) if by_place(standings) else None
        for place, standing in enumerate(standings.standings, 1):
            table.add_row(*standing_row(place, standing, tallies), key=standing.name)
        if standings.standings:
            table.move_cursor(row=min(cursor, len(standings.standings) - 1))

    def action_close(self) -> None:
        self.dismiss(None)
