"""One move of several, each in words, chosen in a list over the table (any game's: Thirty-One's exchanges, a
game with no table widget of its own)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tenpennies.engine.interface import Command

from .footer import KeysFooter


class ChooseScreen(ModalScreen[Command | None]):
    """One move of several, each in words: enter makes it, esc makes none."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, choices: list[tuple[Text, Command]]) -> None:
        super().__init__()
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text("Which move? (↑ ↓ and enter; esc: none)", style="bold"))
            yield OptionList(*(Option(text, id=str(i)) for i, (text, _) in enumerate(self.choices)), id="choices")
        yield KeysFooter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
