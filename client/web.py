"""``tenpennies web``: the terminal client served to browsers with textual-serve, one client process per
visitor (per web socket).

Who a visitor is: each browser gets a cookie (a random id) and a client home of its own, a directory under
one temporary directory that ``tenpennies web`` makes when it starts and removes when it stops. The home
holds what ``tenpennies play`` keeps in ``client.json`` (the name last used, the seats and host tokens
held on the server), so a page reloaded, or opened again from the same browser while ``tenpennies web``
runs, is the same player: the name is offered again and the lobby marks that player's seats ``>``.
Another browser is another player. Nothing outlives ``tenpennies web`` (the seats themselves wait on the
game server, as for a terminal client that quit).

The first screen asks the visitor's name (a page cannot pass ``--name``), offering the remembered one,
else a ``guest-XXXX`` name.

A TLS game server is trusted by whoever runs ``tenpennies web``, once, as ``tenpennies bot`` does: the
servers in its ``known_servers`` and ``--fingerprint`` (else it stops, saying how); each visitor's home
gets that certificate, so no visitor is asked about it.

The page's links: textual-serve writes absolute URLs (the page's web socket) from one public URL. By
default they are made from the address the browser asked for (its Host header), so the page works by IP
address, by name and on every interface; ``--public-url`` fixes them (behind a reverse proxy).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import secrets
import shlex
import signal
import socket
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from tenpennies.wire.common import HOME_VARIABLE, VISITOR_VARIABLE, pem_to_der

from .arguments import address, player_name
from .settings import ClientConfig
from .trust import KnownServers, Pinned, TrustError, settle
from .tui.app import Launch, TenPenniesApp

log = logging.getLogger("tenpennies.web")

COOKIE = "tenpennies-visitor"
# textual-serve's page asks an outside font service for its font: a LAN without the internet waits on it,
# and the visitor's browser tells a third party it is playing. The same font ships with textual-serve, and
# the page takes it from this server instead.
FONT_SERVICE = re.compile(r'<link\s[^>]*href="https?://fonts\.googleapis\.com/[^"]*"[^>]*>')
LOCAL_FONT = ('<style>@font-face {{ font-family: "Roboto Mono"; font-style: normal; '
              'src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }} '
              '@font-face {{ font-family: "Roboto Mono"; font-style: italic; '
              'src: url("{static}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }}</style>')
VISITOR_ID = re.compile(r"[0-9a-f]{32}")
DEFAULT_PORT = 8000
DEFAULT_VISITORS = 12
TUI = Path(__file__).parent / "tui"
# The terminal size a page may ask for, when it opens and when it resizes (textual-serve takes any number).
COLUMNS, ROWS = (20, 400), (10, 200)


def visitor_command(server: str, home: Path, tls_ca: str | None, pid_file: Path | None = None) -> str:
    """The shell command textual-serve runs for one visitor: this module's client, with the same
    interpreter. ``exec`` so that the client is the web server's own child (it notices when that goes);
    ``pid_file``: where the shell writes its process id first, which ``exec`` keeps for the client (the web
    server's way to wait for it: textual-serve's ``AppService`` gives no handle on its process)."""
    words = [sys.executable, "-m", "tenpennies.client.web", "--server", server, "--home", str(home)]
    if tls_ca:
        words += ["--tls-ca", tls_ca]
    first = f"echo $$ > {shlex.quote(str(pid_file))}; " if pid_file is not None else ""
    return first + "exec " + shlex.join(words)


def _clamp(text: str | int, bounds: tuple[int, int], default: int) -> int:
    try:
        value = int(text)
    except (TypeError, ValueError):  # (TypeError: a resize message may hold any JSON value)
        return default
    return min(max(value, bounds[0]), bounds[1])


class SizedAppService(AppService):
    """textual-serve's client process, whose terminal stays within COLUMNS and ROWS: the size asked for
    when the page opens (the web socket's query) and on every resize (a message from the page)."""

    async def start(self, width: int, height: int) -> None:
        await super().start(_clamp(width, COLUMNS, 80), _clamp(height, ROWS, 24))

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(_clamp(width, COLUMNS, 80), _clamp(height, ROWS, 24))


def _gone(pid: int) -> bool:
    """The process is no more (ended and reaped: asyncio reaps the children it started)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another's: the pid was reused, ours is gone
        return True
    return False


async def _ended(pid_file: Path, grace: float = 5.0) -> None:
    """Wait for a visitor's client (its process id in ``pid_file``) to exit and be reaped (killed after
    ``grace`` s), so that none outlives its page and none is left for the event loop to reap after it
    closed. (textual-serve waits for its output alone.)"""
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        return  # never started
    finally:
        pid_file.unlink(missing_ok=True)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + grace
    while not _gone(pid):
        if loop.time() > give_up:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            give_up = loop.time() + grace
        await asyncio.sleep(0.02)


async def relay(websocket: web.WebSocketResponse, app_service: AppService) -> None:
    """The page's messages to its client, until the page goes: keys (``stdin``), the terminal's size,
    focus; a ``ping`` answered. (textual-serve's own loop, through ``AppService``'s public methods.)"""
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        envelope = message.json()
        if not isinstance(envelope, list) or not envelope:
            continue
        match envelope[0]:
            case "stdin":
                await app_service.send_bytes(str(envelope[1]).encode("utf-8"))
            case "resize":
                size = envelope[1]
                await app_service.set_terminal_size(size["width"], size["height"])
            case "ping":
                await websocket.send_json(["pong", envelope[1]])
            case "blur":
                await app_service.blur()
            case "focus":
                await app_service.focus()


class WebSeats(Server):
    """textual-serve's server, with a client home per browser (``COOKIE``), page links made from the
    address the browser used, and at most ``visitors`` client processes at once."""

    def __init__(self, server: str, homes: Path, *, tls_ca: str | None = None, pinned: Pinned | None = None,
                 host: str = "127.0.0.1", port: int = DEFAULT_PORT, public_url: str | None = None,
                 visitors: int = DEFAULT_VISITORS) -> None:
        super().__init__(visitor_command(server, homes, tls_ca), host=host, port=port, title="Ten Pennies",
                         public_url=public_url)
        self.server = server
        self.tls_ca = tls_ca
        self.pinned = pinned
        self.homes = homes
        self.fixed_url = public_url
        self.visitors = visitors
        self.pages: set[web.WebSocketResponse] = set()  # the open web sockets, one a visitor

    def origin(self, request: web.Request) -> str:
        return (self.fixed_url or f"{request.scheme}://{request.host}").rstrip("/")

    async def handle_index(self, request: web.Request) -> web.Response:
        """The page (textual-serve's template), linking to the address the browser used, its font served
        from here (``LOCAL_FONT``); gives a browser without a visitor cookie one."""
        origin = self.origin(request)
        socket_url = re.sub(r"^http", "ws", origin) + str(request.app.router["websocket"].url_for())
        static_url = origin + str(request.app.router["static"].url_for(filename="/")).rstrip("/") + "/"
        context = {"font_size": _clamp(request.query.get("fontsize", "16"), (6, 64), 16),
                   "app_websocket_url": socket_url, "config": {"static": {"url": static_url}},
                   "application": {"name": self.title}}
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        assert response.text is not None
        response.text = FONT_SERVICE.sub(lambda _: LOCAL_FONT.format(static=static_url), response.text)
        if not VISITOR_ID.fullmatch(request.cookies.get(COOKIE, "")):
            response.set_cookie(COOKIE, secrets.token_hex(16), httponly=True, samesite="Strict", path="/")
        return response

    def visitor_home(self, request: web.Request) -> Path:
        """The client home of the browser behind this request (a fresh one without a valid cookie)."""
        visitor = request.cookies.get(COOKIE, "")
        if not VISITOR_ID.fullmatch(visitor):
            visitor = secrets.token_hex(16)
        home = self.homes / visitor
        home.mkdir(mode=0o700, exist_ok=True)
        known = KnownServers.at(home)
        if self.pinned is not None and known.get(self.server) is None:
            known.remember(self.server, pem_to_der(self.pinned.pem))  # trusted by whoever runs tenpennies web
        return home

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One visitor: a client process for as long as the web socket stays open (textual-serve's own
        handler, with the visitor's home in the command and a cap on visitors at once)."""
        websocket = web.WebSocketResponse(heartbeat=15)
        if not websocket.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="This is the page's web socket: open / in a browser.")
        if len(self.pages) >= self.visitors:
            raise web.HTTPServiceUnavailable(text=f"{self.visitors} visitors are playing already: try later.")
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        home = self.visitor_home(request)
        pid_file = home / f"page-{secrets.token_hex(8)}.pid"  # one a page: a browser may open several
        command = visitor_command(self.server, home, self.tls_ca, pid_file)
        app_service: AppService | None = None
        self.pages.add(websocket)
        try:
            await websocket.prepare(request)

            async def close() -> None:
                await websocket.close()
            app_service = SizedAppService(command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                     close=close, download_manager=self.download_manager)
            await app_service.start(width, height)
            await relay(websocket, app_service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            self.pages.discard(websocket)
            if app_service is not None:
                await app_service.stop()  # asks the client to quit and waits until its output ends
                await _ended(pid_file)
        return websocket

    def make_app(self) -> web.Application:
        """The web application: the page, its web socket, downloads and the static files (textual-serve's
        routes, by the names its page's template asks for), from the server's public parts."""
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([web.get("/", self.handle_index, name="index"),
                        web.get("/ws", self.handle_websocket, name="websocket"),
                        web.get("/download/{key}", self.handle_download, name="download"),
                        web.static("/static", self.statics_path, show_index=False, name="static")])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """(textual-serve prints a banner here; ``serve_pages`` says where to point a browser instead.)"""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every page's socket (the page says the session ended): each visitor's client is asked to
        quit at once, rather than when aiohttp gives up waiting."""
        await asyncio.gather(*(page.close(code=WSCloseCode.GOING_AWAY, message=b"tenpennies web stopped")
                               for page in list(self.pages)))


async def serve_pages(seats: WebSeats) -> None:
    """Serve until SIGINT or SIGTERM; say where to point a browser (with the port bound, for --port 0)."""
    runner = web.AppRunner(seats.make_app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, seats.host, seats.port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise SystemExit(f"cannot serve on {seats.host}:{seats.port}: {error.strerror or error}") from None
    port = runner.addresses[0][1]
    if seats.host in ("0.0.0.0", "::", ""):
        where = f"http://{socket.gethostname()}:{port}/ (or this machine's address on the LAN)"
    else:
        where = f"http://{seats.host}:{port}/"
        if seats.host in ("127.0.0.1", "localhost", "::1"):
            where += " (this machine only: --host 0.0.0.0 lets the LAN in)"
    tls = f" (TLS, certificate {seats.pinned.fingerprint})" if seats.pinned else " (TLS)" if seats.tls_ca else ""
    print(f"Ten Pennies for browsers at {where}; each visitor plays on {seats.server}{tls}. Ctrl+C stops.",
          flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()  # closes the web sockets: each visitor's client is asked to quit


def run(args: argparse.Namespace) -> int:
    """``tenpennies web``."""
    if not 0 <= args.port < 65536:
        print(f"--port {args.port} is not a port (0 to 65535)", file=sys.stderr)
        return 2
    if args.visitors < 1:
        print("--visitors is at least 1", file=sys.stderr)
        return 2
    if args.tls_ca and not os.path.isfile(args.tls_ca):
        print(f"--tls-ca {args.tls_ca}: no such file", file=sys.stderr)
        return 2
    if args.public_url and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", args.public_url):
        print(f"--public-url {args.public_url!r} is not http(s)://HOST[:PORT][/PATH]", file=sys.stderr)
        return 2
    tls_ca = os.path.abspath(args.tls_ca) if args.tls_ca else None
    try:
        pinned = None if tls_ca else settle(args.server, args.fingerprint)
    except TrustError as error:
        print(error, file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="tenpennies-web-") as homes:
        seats = WebSeats(args.server, Path(homes), tls_ca=tls_ca, pinned=pinned, host=args.host, port=args.port,
                         public_url=args.public_url, visitors=args.visitors)
        asyncio.run(serve_pages(seats))
    return 0


# --- one visitor's client (this module run with -m, by textual-serve) -----------------------------------

class NameScreen(ModalScreen[str]):
    """A browser seat's first screen: the name to play under (a web page cannot pass ``--name``). The name
    offered is a placeholder, taken by enter alone: typing always starts a new name (a value would be
    appended to by a visitor who clicked into the field first)."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    #name-box { width: 60; height: auto; padding: 1 2; border: round $primary; background: $panel; }
    #name-error { color: $error; }
    #name-box .hint { color: $text-muted; }
    """
    AUTO_FOCUS = "#name"

    def __init__(self, server: str, suggested: str) -> None:
        super().__init__()
        self.server = server
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box"):
            yield Label(f"Ten Pennies · {self.server}")
            yield Label("Your name at the tables:")
            yield Input(placeholder=self.suggested, id="name", max_length=40)
            yield Label("", id="name-error")
            yield Label(f"type a name, or enter alone to play as {self.suggested}", classes="hint")

    @on(Input.Submitted)
    def chosen(self, event: Input.Submitted) -> None:
        try:
            name = player_name(event.value or self.suggested)
        except argparse.ArgumentTypeError as error:
            self.query_one("#name-error", Label).update(str(error))
            return
        self.dismiss(name)


class BrowserSeatApp(TenPenniesApp):
    """The terminal client for one visitor: the name screen, then the server's lobby (as ``tenpennies play
    --server``), the seats it holds remembered in the visitor's home."""

    CSS_PATH = [TUI / "lobby.tcss", TUI / "table.tcss"]  # the client's own (a relative path would be ours)

    @on(events.Mount)
    def name_first(self, event: events.Mount) -> None:
        """Instead of TenPenniesApp.on_mount (stopped here): the name, then the lobby (``open_server``)."""
        event.prevent_default()
        self.parent_pid = os.getppid()
        self.set_interval(1.0, self.check_parent)
        self.ask_name()

    def check_parent(self) -> None:
        """The web server went without closing the socket (killed): nobody is watching any more, so quit."""
        if os.getppid() != self.parent_pid:
            self.exit()

    @work(exclusive=True, group="name")
    async def ask_name(self) -> None:
        home, server = self.launch.home, self.launch.address
        config = ClientConfig.load(home)
        name = await self.push_screen_wait(NameScreen(server, config.name or f"guest-{secrets.token_hex(2)}"))
        try:
            ClientConfig(server, name, self.launch.tls_ca).save(home)
        except OSError as error:
            self.notify(f"Could not remember your name: {error}", severity="warning")
        self.launch = replace(self.launch, name=name)
        await TenPenniesApp.on_mount(self)  # it settles how to reach the server (trust on first use) first


def visit(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tenpennies.client.web",
                                     description="one browser visitor's client (textual-serve runs this)")
    parser.add_argument("--server", type=address, required=True)
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--tls-ca")
    args = parser.parse_args(argv)
    os.environ[HOME_VARIABLE] = str(args.home)  # anything else the client keeps goes there too
    os.environ[VISITOR_VARIABLE] = args.home.name  # the server gives each visitor its own share of this address's
    app = BrowserSeatApp(Launch("server", address=args.server, tls_ca=args.tls_ca, home=args.home))
    app.run()
    return int(app.return_code or 0)


if __name__ == "__main__":
    sys.exit(visit())
