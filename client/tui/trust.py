"""Who may come in, in the terminal client: a server's certificate on the first connection, a refusal when
it changed, and a private table's password. What these screens show of the outside (addresses, paths, a
table's name) is text, never markup.

``verdict_for`` is how the app decides how to connect to a server: it probes the address
(``client.trust``); a TLS server not trusted yet is shown to the player (``confirm``, ``TrustScreen``); a
``TrustError`` means not to connect, and ``refuse`` shows why (in red when the certificate changed) and quits.
"""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ..trust import KnownServers, Pinned, TrustError, TrustRefused, Verdict, decide, probe
from .footer import KeysFooter


class TrustScreen(ModalScreen[bool]):
    """A TLS server seen for the first time: its fingerprint, and whether to trust it (True)."""

    DEFAULT_CSS = """
    TrustScreen { align: center middle; }
    #trust-box { width: 76; height: auto; padding: 1 2; border: round $warning; background: $panel; }
    #trust-title { text-style: bold; }
    #trust-fingerprint { margin: 1 0; text-style: bold; color: $warning; }
    #trust-buttons { height: auto; margin-top: 1; }
    #trust-buttons Button { margin-right: 2; }
    """
    BINDINGS = [Binding("y", "answer(True)", "Trust it"), Binding("n,escape", "answer(False)", "Do not connect")]
    AUTO_FOCUS = "#no"

    def __init__(self, address: str, fingerprint: str, known: KnownServers) -> None:
        super().__init__()
        self.address, self.fingerprint, self.known = address, fingerprint, known

    def compose(self) -> ComposeResult:
        with Vertical(id="trust-box"):
            yield Label(f"First connection to {self.address}", id="trust-title", markup=False)
            yield Static("It speaks TLS with a certificate of its own, which nobody has vouched for. "
                         "Its fingerprint:")
            yield Static(self.fingerprint, id="trust-fingerprint")
            yield Static("The server printed its fingerprint when it started (certificate fingerprint "
                         "SHA256:...): ask its owner. Is it the same? Then trust it: it is remembered in "
                         f"{self.known.path}, and you are not asked again.", markup=False)
            with Horizontal(id="trust-buttons"):
                yield Button("Yes, trust it (y)", id="yes", variant="primary")
                yield Button("No, do not connect (n)", id="no")
        yield KeysFooter()  # its own keys (a modal hides those of the screen under it)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, trust: bool) -> None:
        self.dismiss(trust)


class RefusedScreen(ModalScreen[None]):
    """Why this client will not connect, in red; any of enter, escape or q closes it (``hint`` says what then)."""

    DEFAULT_CSS = """
    RefusedScreen { align: center middle; }
    #refused-box { width: 76; height: auto; padding: 1 2; border: heavy $error; background: $panel; }
    #refused-title { text-style: bold; color: $error; }
    #refused-text { margin-top: 1; color: $error; }
    #refused-hint { margin-top: 1; color: $text-muted; }
    """
    BINDINGS = [Binding("enter,escape,q", "close", "Close")]

    def __init__(self, title: str, text: str, *, hint: str = "Not connected. Enter quits.") -> None:
        super().__init__()
        self.title_text, self.text, self.hint = title, text, hint

    def compose(self) -> ComposeResult:
        with Vertical(id="refused-box"):
            yield Label(self.title_text, id="refused-title", markup=False)
            yield Static(self.text, id="refused-text", markup=False)
            yield Static(self.hint, id="refused-hint")
        yield KeysFooter()

    def action_close(self) -> None:
        self.dismiss(None)


class PasswordScreen(ModalScreen[str | None]):
    """A private table's password, to join or watch it (None: never mind). ``wrong``: the last one given
    was not it, and the screen says so."""

    DEFAULT_CSS = """
    PasswordScreen { align: center middle; }
    #password-box { width: 60; height: auto; padding: 1 2; border: round $primary; background: $panel; }
    #password { margin-top: 1; }
    #password-error { color: $error; text-style: bold; height: auto; }
    #password-hint { color: $text-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    AUTO_FOCUS = "#password"

    def __init__(self, table: str, doing: str, *, wrong: bool = False) -> None:
        super().__init__()
        self.table, self.doing, self.wrong = table, doing, wrong

    def compose(self) -> ComposeResult:
        with Vertical(id="password-box"):
            yield Label(f"{self.table} is private: its password, to {self.doing} it", markup=False)
            # bordered, with a placeholder: a compact field on the panel shows nothing until typed in
            yield Input(id="password", password=True, max_length=128, placeholder="the table's password")
            yield Static("Wrong password" if self.wrong else "", id="password-error")
            yield Static("enter: go on · escape: cancel (the table's host knows the password)",
                         id="password-hint")
        yield KeysFooter()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if event.value:
            self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


async def verdict_for(address: str, tls_ca: str | None, known: KnownServers) -> Verdict:
    """How to connect to ``address`` (probed in a thread): plaintext, a pinned certificate, or one to ask
    the player about (``Verdict.ask``: then ``confirm``). TrustRefused when the client must not connect."""
    if tls_ca:
        return Verdict(None)  # a CA vouches for the server: nothing to ask
    return decide(address, await asyncio.to_thread(probe, address), known)


async def confirm(app: App[None], address: str, verdict: Verdict, known: KnownServers) -> Pinned:
    """Show the player a TLS server not trusted yet; on yes, remember it in ``known`` and return the
    certificate to pin; TrustError on no. Call it from a worker (it waits for the player)."""
    assert verdict.pinned is not None and verdict.certificate is not None
    if not await app.push_screen_wait(TrustScreen(address, verdict.pinned.fingerprint, known)):
        raise TrustError(f"Not connected to {address}: you did not trust its certificate "
                         f"({verdict.pinned.fingerprint}).")
    try:
        known.remember(address, verdict.certificate)
    except OSError as error:
        app.notify(f"Trusted for this run only: {known.path} could not be written ({error})",
                   severity="warning", timeout=8)
    return verdict.pinned


async def refuse(app: App[None], error: TrustError) -> None:
    """Show why the client will not connect (red, for a certificate that changed), then quit with
    status 1, leaving the words in the terminal. Call it from a worker."""
    if isinstance(error, TrustRefused):
        await app.push_screen_wait(RefusedScreen("Not the server you trusted", str(error)))
        app.exit(return_code=1, message=Text(str(error), style="bold red"))
    else:
        app.exit(return_code=1, message=str(error))
