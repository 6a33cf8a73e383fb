"""``tenpennies web``: a real game server, ``tenpennies web`` in a process of its own on a free loopback port,
and a web-socket client that does what textual-serve's page does (fetch the page, open its web socket, send
the terminal's size, type) and reads the screens the visitor's client process draws."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from tenpennies.client.cli import main
from tenpennies.client.connection import Connection
from tenpennies.server.app import Options, Server

# Terminal control sequences (cursor moves, colours, modes): what is left is the text on the screen.
CONTROL = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-B]|[=>78])")
TIMEOUT = 30.0  # generous: each visitor is a Python process starting Textual, on a busy machine


@dataclass
class Web:
    """A running ``tenpennies web`` and what it printed."""

    process: asyncio.subprocess.Process
    port: int
    homes: Path
    output: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"


def visitor_processes(parent: int) -> set[int]:
    """The live processes whose parent is ``parent`` (each visitor's client is the web server's child)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, ppid = stat.read_text().rsplit(")", 1)[1].split()[:2]
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(ppid) == parent and state != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


async def until(condition: object, what: str, timeout: float = TIMEOUT) -> None:
    """Wait (bounded) until ``condition()`` holds."""
    assert callable(condition)
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while not condition():
        assert loop.time() < give_up, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)


def web_command(server: Server, tmp_path: Path, *extra: str) -> tuple[list[str], dict[str, str]]:
    """``tenpennies web`` on a free port, its temporary files under tmp_path/tmp and the home of whoever
    runs it (its known_servers) tmp_path/operator."""
    (tmp_path / "tmp").mkdir(exist_ok=True)
    return ([sys.executable, "-m", "tenpennies.client.cli", "web", "--server", f"127.0.0.1:{server.port}",
             "--port", "0", *extra],
            {**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path / "tmp"),
             "TENPENNIES_HOME": str(tmp_path / "operator")})


async def start_web(server: Server, tmp_path: Path, *extra: str) -> Web:
    command, env = web_command(server, tmp_path, *extra)
    homes = tmp_path / "tmp"
    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT, env=env)
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), TIMEOUT)).decode()
    found = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
    assert found, f"tenpennies web did not start: {line!r}"
    web = Web(process, int(found.group(1)), homes, [line])

    async def drain() -> None:  # keep reading, so the server never blocks on a full pipe
        assert process.stdout is not None
        while chunk := await process.stdout.readline():
            web.output.append(chunk.decode(errors="replace"))
    web.reader = asyncio.get_running_loop().create_task(drain())
    return web


async def stop_web(web: Web) -> None:
    if web.process.returncode is None:
        web.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(web.process.wait(), TIMEOUT)
    if web.reader is not None:
        await asyncio.wait_for(web.reader, TIMEOUT)  # all it printed


@pytest.fixture
async def web(server: Server, tmp_path: Path) -> AsyncIterator[Web]:
    running = await start_web(server, tmp_path)
    yield running
    await stop_web(running)


class Page:
    """One browser page: its web socket, and the text the visitor's client has drawn on it so far."""

    def __init__(self, websocket: aiohttp.ClientWebSocketResponse) -> None:
        self.websocket = websocket
        self.text = ""

    async def screen_with(self, *words: str, timeout: float = TIMEOUT) -> str:
        """Read the frames the client sends until, together, they show every one of ``words``."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        self.text = ""
        while not all(word in self.text for word in words):
            left = give_up - loop.time()
            missing = [word for word in words if word not in self.text]
            assert left > 0, f"not on the screen within {timeout} s: {missing}; the screen read: {self.text[-3000:]!r}"
            try:
                message = await asyncio.wait_for(self.websocket.receive(), left)
            except TimeoutError:
                continue
            assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), \
                f"the page's socket ended ({message.type}) before {words} showed: {self.text[-2000:]}"
            if message.type == aiohttp.WSMsgType.BINARY:
                self.text += CONTROL.sub("", message.data.decode("utf-8", errors="replace"))
        return self.text

    async def type(self, keys: str) -> None:
        """Keys as the page sends them: one message a keystroke (xterm.js's onData)."""
        for key in keys:
            await self.websocket.send_str(json.dumps(["stdin", key]))


async def open_page(session: aiohttp.ClientSession, web: Web) -> Page:
    """What a browser does: fetch the page, open the web socket it names with the terminal's size, send
    the size again once open (as textual.js does)."""
    async with session.get(web.url) as response:
        assert response.status == 200
        page = await response.text()
    assert 'class="textual-terminal"' in page and "Ten Pennies" in page
    socket_url = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert socket_url, page
    assert socket_url.group(1) == f"ws://127.0.0.1:{web.port}/ws"  # the address the browser asked for
    websocket = await session.ws_connect(socket_url.group(1) + "?width=100&height=30")
    await websocket.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
    return Page(websocket)


def browser() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # unsafe: keep cookies of an IP


async def test_a_browser_names_itself_and_gets_the_lobby(web: Web, server: Server, connection: Connection) -> None:
    await connection.create_table("Porch table", 3)
    address = f"127.0.0.1:{server.port}"
    async with browser() as session:
        async with session.get(web.url + "ws") as plain:  # the socket's address opened as a page
            assert plain.status == 400 and "open / in a browser" in await plain.text()
        page = await open_page(session, web)
        first = await page.screen_with("Your name at the tables", address)
        assert "guest-" in first  # a name is offered; the visitor may keep it or type another
        assert len(visitor_processes(web.process.pid)) == 1
        await page.type("Ann\r")
        await page.screen_with("playing as Ann", "Porch table")  # the lobby, live from the game server
        await page.type("\r")  # join the table
        await page.screen_with("Waiting for players: 1/3 seated")
        await page.websocket.close()
        await until(lambda: not visitor_processes(web.process.pid), "the visitor's client ends with its page")

        again = await open_page(session, web)  # the same browser (its cookie): the same player
        assert "guest-" not in await again.screen_with("Your name at the tables", "Ann")
        await again.type("\r")
        await again.screen_with("playing as Ann", ">Ann")  # the seat it holds, remembered in its home
        await again.websocket.close()

    async with browser() as other:  # another browser: another player, offered a guest name
        page = await open_page(other, web)
        await page.screen_with("Your name at the tables", "guest-")
        await page.type("   \r")
        await page.screen_with("a name is 1 to 40 printable characters")  # and the screen stays
        await page.type("Bea\r")  # after the spaces: a name is taken without the blanks round it
        await page.screen_with("playing as Bea")
        await page.websocket.close()
    await until(lambda: not visitor_processes(web.process.pid), "every visitor's client ends with its page")


async def test_stopping_the_web_server_ends_every_visitor(server: Server, tmp_path: Path) -> None:
    web = await start_web(server, tmp_path, "--visitors", "1")
    try:
        async with browser() as session:
            page = await open_page(session, web)
            await page.screen_with("Your name at the tables")
            (client,) = visitor_processes(web.process.pid)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_page(session, web)  # over --visitors: refused, and the first page goes on
            assert refused.value.status == 503
            await stop_web(web)
            assert web.process.returncode == 0
            said = "".join(web.output)
            assert "Traceback" not in said and "asyncio" not in said, said  # (a client left to reap, say)
            assert not alive(client)  # web waited for its visitors' clients to end before it did
            assert list(web.homes.iterdir()) == []  # the visitors' homes go with it
    finally:
        await stop_web(web)


async def test_a_killed_web_server_leaves_no_client_behind(server: Server, tmp_path: Path) -> None:
    """Killed, the web server closes nothing: each visitor's client sees its parent gone and quits."""
    web = await start_web(server, tmp_path)
    clients: set[int] = set()
    try:
        async with browser() as session:
            page = await open_page(session, web)
            await page.screen_with("Your name at the tables")
            clients = visitor_processes(web.process.pid)
            assert len(clients) == 1
            web.process.kill()
            await asyncio.wait_for(web.process.wait(), TIMEOUT)
            await until(lambda: not any(map(alive, clients)), "the visitor's client ends once the web server is gone")
    finally:
        await stop_web(web)
        for orphan in filter(alive, clients):  # (only when the test failed)
            os.kill(orphan, signal.SIGKILL)


async def test_a_tls_server_is_trusted_by_whoever_runs_web_and_no_visitor_is_asked(tmp_path: Path) -> None:
    secure = Server(Options(port=0, db=str(tmp_path / "games.db"), tls=True, advertise=False))
    await secure.start()
    try:
        command, env = web_command(secure, tmp_path)
        refused = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT, env=env)
        output = (await asyncio.wait_for(refused.communicate(), TIMEOUT))[0].decode()
        assert refused.returncode == 1 and f"pass --fingerprint {secure.fingerprint}" in output, output

        assert secure.fingerprint is not None
        web = await start_web(secure, tmp_path, "--fingerprint", secure.fingerprint)
        assert f"TLS, certificate {secure.fingerprint}" in web.output[0]
        try:
            async with browser() as session:
                page = await open_page(session, web)
                await page.screen_with("Your name at the tables")
                await page.type("Ann\r")
                await page.screen_with("playing as Ann", "live")  # the lobby over TLS, nothing asked
                await page.websocket.close()
        finally:
            await stop_web(web)
    finally:
        await secure.stop(0)


@pytest.mark.parametrize("flags, says", [
    (["--port", "70000"], "not a port"),
    (["--visitors", "0"], "at least 1"),
    (["--tls-ca", "/nonexistent/ca.pem"], "no such file"),
    (["--public-url", "ftp://x"], "is not http(s)://"),
])
def test_bad_flags_are_named(flags: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["web", "--server", "127.0.0.1:50051", *flags]) == 2
    assert says in capsys.readouterr().err


async def test_a_page_cannot_resize_its_terminal_past_the_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The size a page asks for is kept within COLUMNS and ROWS on a resize as when it opens."""
    from textual_serve.app_service import AppService

    from tenpennies.client.web import COLUMNS, ROWS, SizedAppService

    told: list[tuple[int, int]] = []

    async def record(self: AppService, width: int, height: int) -> None:
        told.append((width, height))

    monkeypatch.setattr(AppService, "set_terminal_size", record)
    monkeypatch.setattr(AppService, "start", record)

    async def nothing(*args: object) -> None:
        return None

    service = SizedAppService("true", write_bytes=nothing, write_str=nothing, close=nothing,
                              download_manager=None)  # type: ignore[arg-type]
    await service.start(10**6, 0)
    await service.set_terminal_size(10**6, 10**6)
    await service.set_terminal_size("wide", 30)  # type: ignore[arg-type]
    assert told == [(COLUMNS[1], ROWS[0]), (COLUMNS[1], ROWS[1]), (80, 30)]


async def test_the_page_asks_nothing_of_any_other_server(web: Web) -> None:
    """Everything the page loads (its style, its script, its font) comes from the web seat itself: a LAN
    without the internet does not wait on a font service, and no third party learns a visitor plays."""
    async with browser() as session:
        async with session.get(web.url) as response:
            page = await response.text()
        loaded = re.findall(r'(?:href|src)="([^"]+)"|url\("?([^")]+)"?\)', page)
        addresses = [a or b for a, b in loaded]
        assert addresses and all(a.startswith(web.url) for a in addresses if "://" in a), addresses
        assert "googleapis" not in page and "Roboto Mono" in page
        fonts = [a for a in addresses if a.endswith(".ttf")]
        assert fonts, page
        for font in fonts:
            async with session.get(font) as response:
                assert response.status == 200 and len(await response.read()) > 10_000, font
