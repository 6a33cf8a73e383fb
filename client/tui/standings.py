"""A server's tournament standings (``serve --tournament``), shown from the lobby with ``t``.

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

REFRESH_SECONDS = 2.0
# Short headers (the note says what they mean), so that the window fits 80 columns: each column takes a
# space either side, and the window a border and a space either side.
COLUMNS = ("#", "Bot", "Games", "Wins", "Mean", "Pen.", "Buys", "Ill.", "T/o", "Rating")
BOT_WIDTH = 12  # a longer bot's name is cut with …
NOTE = ("Wins: tied winners share one; Mean: mean score a game ± its margin (lower is better); Pen.: pennies "
        "won or lost; Ill.: commands the rules refused; T/o: decisions the timer or the takeover bot made. "
        "Escape closes.")


def progress(standings: pb.GetStandingsResponse) -> str:
    """One line on how far the tournament is: the lobby's status line and the screen's head say it."""
    playing = f", {standings.games_playing} being played" if standings.games_playing else ""
    over = " (over)" if standings.games_played >= standings.games_total else ""
    return (f"tournament {standings.tournament!r}: {standings.games_played} of {standings.games_total} "
            f"games played{playing}{over}")




def standing_row(place: int, standing: pb.Standing) -> tuple[str | Text, ...]:
    if standing.HasField("mean_score"):
        margin = f"±{standing.mean_score_margin:.1f}" if standing.games > 1 else ""
        mean = f"{standing.mean_score:.1f}{margin}"
    else:
        mean = "-"
    name = clip(standing.name, BOT_WIDTH)
    return (str(place), Text(name), str(standing.games), wins_text(standing.shared_wins), Text(mean, justify="right"),
            f"{standing.pennies:+d}", str(standing.buys), str(standing.illegal), str(standing.timed_out),
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
            for label in COLUMNS:
                table.add_column(label, key=label)
            yield table
            yield Static(NOTE, id="standings-note", markup=False)

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
            table.add_row(*standing_row(place, standing), key=standing.name)
        if standings.standings:
            table.move_cursor(row=min(cursor, len(standings.standings) - 1))

    def action_close(self) -> None:
        self.dismiss(None)
