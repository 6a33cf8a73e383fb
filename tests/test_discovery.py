"""LAN discovery for real: servers on a non-loopback address of this machine advertise over mDNS
(python-zeroconf, real multicast on the host's interface), ``client.discovery`` finds them, and the first
screen of ``tenpennies play`` lists them and opens their lobby. Every server has a name of its own, so that
other servers on the same network (other tests, other people) do not disturb the checks."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Static
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from tenpennies.client import cli
from tenpennies.client.connection import Connection
from tenpennies.client.discovery import Browser, Change, FoundServer
from tenpennies.client.settings import ClientConfig, TablePrefs
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.servers import REMEMBERED, ServersScreen, row_key
from tenpennies.client.tui.table import TableScreen
from tenpennies.server.advertise import Plan, clean_lan_name, package_version, plan
from tenpennies.server.app import Options, Server
from tenpennies.wire.common import SERVICE_TYPE, interface_addresses, lan_addresses

from tuikit import until

SIZE = (80, 24)
FIND = 15.0  # seconds: probing takes about one; the rest is room for a busy machine


def host_address() -> str:
    addresses = lan_addresses()
    if not addresses:
        pytest.skip("this machine has no IPv4 address but loopback: nothing to advertise on")
    return addresses[0]


@pytest.fixture
def lan_ip() -> str:
    return host_address()


def unique(what: str) -> str:
    return f"{what} {secrets.token_hex(3)}"


async def started(tmp_path: Path, host: str, name: str, **options: object) -> Server:
    server = Server(Options(host=host, port=0, db=str(tmp_path / f"{secrets.token_hex(4)}.db"), name=name,
                            **options))  # type: ignore[arg-type]
    await server.start()
    return server


@pytest.fixture
async def lan_server(tmp_path: Path, lan_ip: str) -> AsyncIterator[Server]:
    server = await started(tmp_path, lan_ip, unique("Kitchen table"))
    yield server
    await server.stop(0)


@pytest.fixture
async def browser(lan_ip: str) -> AsyncIterator[Browser]:
    async with Browser(interface=lan_ip) as browsing:
        yield browsing


def named(server: Server) -> Callable[[FoundServer], bool]:
    return lambda found: found.name == server.lan_name


# --- the server's record ------------------------------------------------------------------------------------

async def test_a_lan_server_answers_at_once_and_is_found_with_its_record(lan_server: Server, lan_ip: str,
                                                                         browser: Browser) -> None:
    assert lan_server.advertiser is not None
    connection = Connection(f"{lan_ip}:{lan_server.port}")
    try:
        assert await connection.tables() == []  # the port answers while the record is still being probed
        assert not lan_server.advertiser.announced.is_set()
    finally:
        await connection.close()
    found = await browser.until(named(lan_server), FIND)
    assert found.address == f"{lan_ip}:{lan_server.port}"
    assert (found.version, found.tables, found.seats_free, found.tls) == (package_version(), 0, 0, False)
    assert found.key == lan_server.advertiser.name_on_lan


async def test_the_record_follows_the_tables(lan_server: Server, lan_ip: str, browser: Browser) -> None:
    await browser.until(named(lan_server), FIND)
    connection = Connection(f"{lan_ip}:{lan_server.port}")
    try:
        hosted = await connection.create_table("evening", 4)
        found = await browser.until(lambda s: named(lan_server)(s) and s.tables == 1, FIND)
        assert found.seats_free == 4
        for _ in range(3):
            await connection.add_bot(hosted.table_id, hosted.host_token)
        await connection.create_table("late", 3)
        # changes within a second go out as one record: never more than one announcement a second
        found = await browser.until(lambda s: named(lan_server)(s) and s.tables == 2, FIND)
        await browser.until(lambda s: named(lan_server)(s) and s.seats_free == 1 + 3, FIND)
        await connection.join(hosted.table_id, "ann")
        await connection.start(hosted.table_id, hosted.host_token)  # playing: open, but no seat free
        found = await browser.until(lambda s: named(lan_server)(s) and s.seats_free == 3, FIND)
        assert found.tables == 2
    finally:
        await connection.close()


async def test_a_stopped_server_says_goodbye(tmp_path: Path, lan_ip: str, browser: Browser) -> None:
    server = await started(tmp_path, lan_ip, unique("Leaving"))
    changes = browser.changes(timeout=FIND)
    found = await browser.until(named(server), FIND)
    begun = time.monotonic()
    await server.stop(0)
    assert time.monotonic() - begun < 3  # the goodbye is bounded in time
    gone: list[Change] = []
    async for change in changes:
        if change.kind == "gone" and change.server.key == found.key:
            gone.append(change)
            break
    assert gone, "the server's goodbye never came"
    assert found.key not in browser.servers


async def test_a_server_stopped_while_it_probes_stops_at_once(tmp_path: Path, lan_ip: str) -> None:
    server = await started(tmp_path, lan_ip, unique("Brief"))
    assert server.advertiser is not None and not server.advertiser.announced.is_set()
    begun = time.monotonic()
    await server.stop(0)
    assert time.monotonic() - begun < 3
    assert server.advertiser.task is not None and server.advertiser.task.done()
    assert not server.lobby.watchers  # the announcer's lobby watcher went with it


async def test_no_advertise_and_loopback_servers_are_not_found(tmp_path: Path, lan_ip: str,
                                                               browser: Browser) -> None:
    quiet = await started(tmp_path, lan_ip, unique("Quiet"), advertise=False)
    private = await started(tmp_path, "127.0.0.1", unique("Private"))
    control = await started(tmp_path, lan_ip, unique("Control"))
    try:
        assert quiet.advertiser is None and private.advertiser is None
        assert quiet.lan == "not advertised"
        assert isinstance(private.lan, str) and "loopback" in private.lan
        seen: set[str] = set()
        async for change in browser.changes(timeout=FIND):
            seen.add(change.server.name)
            if control.lan_name in seen:
                break
        assert control.lan_name in seen  # browsing works: the others had as long to show up
        async for change in browser.changes(timeout=2):  # and a while longer (bounded)
            seen.add(change.server.name)
        assert quiet.lan_name not in seen and private.lan_name not in seen
    finally:
        for server in (quiet, private, control):
            await server.stop(0)


def test_where_a_server_is_announced(lan_ip: str) -> None:
    assert isinstance(plan("127.0.0.1"), str) and isinstance(plan("localhost"), str)
    assert plan(lan_ip) == Plan((lan_ip,), (lan_ip,))
    everywhere = plan("0.0.0.0")
    assert isinstance(everywhere, Plan) and lan_ip in everywhere.addresses
    assert "127.0.0.1" not in everywhere.addresses
    assert plan("0.0.0.0", lan_ip) == Plan((lan_ip,), (lan_ip,))
    assert plan("::") == everywhere  # every address: IPv4's are announced
    assert isinstance(plan("::1"), str)
    with pytest.raises(ValueError, match="no such interface"):
        plan("0.0.0.0", "no-such-interface0")
    with pytest.raises(ValueError, match="no interface of this machine has that address"):
        interface_addresses("203.0.113.254")
    with pytest.raises(ValueError, match="does not have the address"):
        plan(lan_ip, "127.0.0.1")
    assert clean_lan_name("  Kitchen table ") == "Kitchen table"
    for bad in ("", "tab\there", "x" * 64):
        with pytest.raises(ValueError, match="--name"):
            clean_lan_name(bad)


def test_serve_refuses_a_bad_interface_and_opens_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--host", "0.0.0.0", "--port", "0", "--db", str(db), "--interface", "no-such-interface0"])
    assert stopped.value.code == 2
    assert "--interface no-such-interface0: this machine has no such interface" in capsys.readouterr().err
    assert not db.exists()
    with pytest.raises(SystemExit):
        cli.main(["serve", "--port", "0", "--db", str(db), "--name", "x" * 64])
    assert not db.exists()


# --- the first screen of tenpennies play -----------------------------------------------------------------------

def browse_app(tmp_path: Path, lan_ip: str, name: str = "ann") -> TenPenniesApp:
    return TenPenniesApp(Launch("browse", name=name, home=tmp_path, data=tmp_path, interface=lan_ip))


def servers_of(app: TenPenniesApp) -> ServersScreen:
    assert isinstance(app.screen, ServersScreen), app.screen
    return app.screen


async def test_the_browse_screen_lists_a_found_server_and_opens_its_lobby(lan_server: Server, lan_ip: str,
                                                                        tmp_path: Path) -> None:
    app = browse_app(tmp_path, lan_ip)
    key = ""
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        screen = servers_of(app)
        await until(pilot, lambda: any(s.name == lan_server.lan_name for s in screen.found.values()), "the server")
        key = row_key(next(s for s in screen.found.values() if s.name == lan_server.lan_name))
        table = screen.query_one("#servers", DataTable)
        cells = [str(cell) for cell in table.get_row(key)]
        assert cells == [lan_server.lan_name, f"{lan_ip}:{lan_server.port}", "0", "0", "off"]
        assert "found" in str(screen.query_one("#servers-status", Static).render())
        table.move_cursor(row=table.get_row_index(key))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.connection is not None and app.connection.address == f"{lan_ip}:{lan_server.port}"
        assert app.launch.mode == "server"
    assert ClientConfig.load(tmp_path).server == f"{lan_ip}:{lan_server.port}"  # remembered for next time


async def test_connect_to_an_address_and_the_remembered_server(server: Server, tmp_path: Path, lan_ip: str) -> None:
    address = f"127.0.0.1:{server.port}"
    app = browse_app(tmp_path, lan_ip)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        screen = servers_of(app)
        assert REMEMBERED not in [key.value for key in screen.query_one("#servers", DataTable).rows]  # none yet
        await pilot.press("a")
        assert isinstance(app.focused, Input) and app.focused.id == "address"
        await pilot.press(*"nohost", "enter")
        error = screen.query_one("#servers-error", Static)
        assert "'nohost' is not HOST:PORT" in str(error.render()) and error.has_class("shown")
        assert app.screen is screen  # nothing opened, nothing remembered
        assert ClientConfig.load(tmp_path).server is None
        screen.query_one("#address", Input).value = ""
        await pilot.press(*address, "enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.connection is not None and app.connection.address == address
    assert ClientConfig.load(tmp_path) == ClientConfig(address, "ann", None)

    again = browse_app(tmp_path, lan_ip)  # the next start offers that server on the first row
    async with again.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(again.screen, ServersScreen), "the servers screen")
        table = servers_of(again).query_one("#servers", DataTable)
        assert [str(cell) for cell in table.get_row(REMEMBERED)][:2] == ["*last played", address]
        table.move_cursor(row=table.get_row_index(REMEMBERED))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(again.screen, LobbyScreen), "the lobby")
        assert again.connection is not None and again.connection.address == address


async def test_the_last_played_server_found_on_the_lan_is_one_row_and_its_lobby_says_its_name(
        tmp_path: Path, lan_ip: str) -> None:
    server = await started(tmp_path, lan_ip, unique("Kitchen table"))
    address = f"{lan_ip}:{server.port}"
    ClientConfig(address, "ann", None).save(tmp_path)
    app = browse_app(tmp_path, lan_ip)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
            screen = servers_of(app)
            table = screen.query_one("#servers", DataTable)
            assert [str(cell) for cell in table.get_row_at(0)][:2] == ["*last played", address]  # not found yet
            await until(pilot, lambda: any(s.name == server.lan_name for s in screen.found.values()), "the server")
            found = next(s for s in screen.found.values() if s.name == server.lan_name)
            await pilot.pause()
            rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
            assert [row for row in rows if address in row] == [[f"*{server.lan_name}", address, "0", "0", "off"]]
            assert REMEMBERED not in [key.value for key in table.rows] and table.get_row_index(row_key(found)) == 0
            assert table.cursor_row == 0
            await server.stop(0)  # gone from the LAN: the remembered row is back, first
            await until(pilot, lambda: REMEMBERED in [key.value for key in table.rows], "the remembered row",
                        timeout=FIND)
            assert table.get_row_index(REMEMBERED) == 0 and row_key(found) not in [k.value for k in table.rows]
            server = Server(Options(host=lan_ip, port=server.port, db=str(tmp_path / "again.db"),
                                    name=server.lan_name))  # and back again
            await server.start()
            await until(pilot, lambda: REMEMBERED not in [key.value for key in table.rows], "one row again",
                        timeout=FIND)
            found = next(s for s in screen.found.values() if s.address == address)
            table.move_cursor(row=table.get_row_index(row_key(found)))
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            title = str(app.screen.query_one("#lobby-title", Static).render())
            assert title == f"Ten Pennies · {server.lan_name} · {address} · playing as ann"
    finally:
        await server.stop(0)


async def test_the_browse_screen_plays_locally(tmp_path: Path, lan_ip: str) -> None:
    TablePrefs(guide_seen=True).save(tmp_path)  # (the first game's guide: tests/test_tui_table.py)
    app = browse_app(tmp_path, lan_ip)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        await pilot.press("question_mark")
        await until(pilot, lambda: "Servers on the LAN" in str(app.screen.query_one(Static).render()), "the help")
        await pilot.press("escape")
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the local table")
        assert app.local is not None and app.launch.mode == "local"
    assert (tmp_path / "local.db").exists()
    assert ClientConfig.load(tmp_path).server is None  # a local game remembers no server


# --- what a hostile (or careless) record on the LAN cannot do ------------------------------------------------

@pytest.fixture
async def hostile(lan_ip: str) -> AsyncIterator[Callable[..., Awaitable[None]]]:
    """Announce records of one's own making, as anyone on the LAN may; withdrawn at the end."""
    zeroconf = AsyncZeroconf(interfaces=[lan_ip], ip_version=IPVersion.V4Only)

    async def announce(instance: str, properties: dict[bytes, bytes], addresses: list[str], port: int = 50051) -> None:
        info = AsyncServiceInfo(SERVICE_TYPE, f"{instance}.{SERVICE_TYPE}", port=port, properties=properties,
                                server=f"hostile-{secrets.token_hex(4)}.local.", parsed_addresses=addresses)
        await (await zeroconf.async_register_service(info))

    try:
        yield announce
    finally:
        await zeroconf.async_close()


JUNK = {b"name": b"\x1b[2J\x1b]0;owned\x07[bold red]Evil[/]\n\xff\xfe table", b"tables": b"9" * 200,
        b"seats": b"-3", b"tls": b"\xff"}


async def test_a_record_of_junk_is_listed_plainly_and_one_pointing_nowhere_is_not(
        hostile: Callable[..., Awaitable[None]], lan_ip: str, browser: Browser, tmp_path: Path) -> None:
    junk, nowhere = unique("junk"), unique("nowhere")
    await hostile(junk, JUNK, [lan_ip])
    await hostile(nowhere, {b"name": b"nowhere"}, ["0.0.0.0", "127.0.0.1", "224.0.0.251"])
    found = await browser.until(lambda s: s.key == junk, FIND)
    assert found.name.isprintable() and "\x1b" not in found.name and "Evil" in found.name
    assert (found.tables, found.seats_free, found.tls) == (0, 0, False)  # no number: none said
    assert nowhere not in browser.servers  # had as long as the junk one: a server at no address of a LAN
    # A record named like the screen's own row of the server played last must not take that row's place.
    await hostile(REMEMBERED, {b"name": b"last"}, [lan_ip], port=50052)
    app = TenPenniesApp(Launch("browse", name="ann", home=tmp_path, data=tmp_path, interface=lan_ip))
    ClientConfig("[fd00::5]:50051", "ann", None).save(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        screen = servers_of(app)
        table = screen.query_one("#servers", DataTable)
        await until(pilot, lambda: {junk, REMEMBERED} <= set(screen.found), "both records")
        cells = [str(cell) for row in range(table.row_count) for cell in table.get_row_at(row)]
        assert "[fd00::5]:50051" in cells  # the remembered address as it is, not read as markup
        assert str(table.get_row(row_key(found))[0]).startswith("[2J ]0;owned [bold red]")  # shown as it came
        assert all(cell.isprintable() for cell in cells)
        keys = {key.value for key in table.rows}  # other servers on this LAN may be listed too
        assert {REMEMBERED, row_key(found), row_key(screen.found[REMEMBERED])} <= keys  # all three rows


async def test_a_record_heard_while_the_browser_closes_starts_no_lookup(lan_server: Server, lan_ip: str) -> None:
    browser = Browser(interface=lan_ip)
    await browser.start()
    found = await browser.until(named(lan_server), FIND)
    assert browser.zeroconf is not None
    zeroconf = browser.zeroconf.zeroconf
    closing = asyncio.ensure_future(browser.close())
    await asyncio.sleep(0)  # close() is under way (waiting on the browser's end): a record comes in now
    browser._on_change(zeroconf, SERVICE_TYPE, f"{found.key}.{SERVICE_TYPE}", ServiceStateChange.Updated)
    await closing
    assert not browser.resolving, "a lookup was left running after close"


async def test_a_flood_of_records_is_listed_no_further_than_the_browsers_bound(
        lan_server: Server, hostile: Callable[..., Awaitable[None]], lan_ip: str) -> None:
    async with Browser(interface=lan_ip) as browser:
        await browser.until(named(lan_server), FIND)
        browser.MAX_SERVERS = len(browser.servers)  # full (other servers on this LAN may be listed too)
        flood = [unique("flood") for _ in range(3)]
        for instance in flood:
            await hostile(instance, {b"name": instance.encode()}, [lan_ip])
        async for _ in browser.changes(timeout=3):  # as long as a record takes to be found, and more
            pass
        assert not set(flood) & set(browser.servers)
        assert any(named(lan_server)(s) for s in browser.servers.values())


async def test_an_address_typed_like_markup_is_refused_in_words(tmp_path: Path) -> None:
    app = TenPenniesApp(Launch("browse", name="ann", home=tmp_path, data=tmp_path, interface="127.0.0.1"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        screen = servers_of(app)
        await pilot.press("a", *"[/]", "enter")
        error = screen.query_one("#servers-error", Static)
        await until(pilot, lambda: error.has_class("shown"), "the error")
        await pilot.pause()
        assert "'[/]' is not HOST:PORT" in str(error.render())
    assert app.return_code in (None, 0)
