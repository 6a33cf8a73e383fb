"""Private tables: a password set by the host; joining and watching need it, a seat's token does not; the
store keeps only a salted hash, across restarts. Real servers on loopback, real SQLite files."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

import grpc
import pytest
from textual.widgets import DataTable, Input, Label

from tenpennies.client.connection import Connection, ServerError
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.cards import CardStyle
from tenpennies.client.tui.lobby import CreateTableScreen, LobbyScreen, table_row
from tenpennies.client.tui.table import TableScreen
from tenpennies.client.tui.trust import PasswordScreen
from tenpennies.server.app import Options, Server
from tenpennies.v2 import tenpennies_pb2 as pb

from tuikit import until

SIZE = (80, 24)

PASSWORD = "kitchen table 7"


async def refused(call: object) -> ServerError:
    with pytest.raises(ServerError) as caught:
        await call  # type: ignore[misc]
    return caught.value


def seats_taken(info: pb.TableInfo) -> int:
    return sum(1 for s in info.seat_info if s.kind != pb.SEAT_KIND_EMPTY)


async def listed(connection: Connection, table_id: str) -> pb.TableInfo:
    return next(t for t in await connection.tables() if t.table_id == table_id)


async def test_a_private_table_is_listed_locked_and_joined_only_with_its_password(connection: Connection) -> None:
    private = await connection.create_table("Secret", 3, password=PASSWORD)
    public = await connection.create_table("Open", 3)
    assert private.info.locked and not public.info.locked
    assert (await listed(connection, private.table_id)).locked
    assert not (await listed(connection, public.table_id)).locked

    missing = await refused(connection.join(private.table_id, "eve"))
    assert missing.code() == grpc.StatusCode.PERMISSION_DENIED and "needs its password" in missing.message
    wrong = await refused(connection.join(private.table_id, "eve", password="kitchen table 8"))
    assert wrong.code() == grpc.StatusCode.PERMISSION_DENIED
    assert wrong.message == "wrong password for this private table"
    assert seats_taken(await listed(connection, private.table_id)) == 0  # nothing changed

    ann = await connection.join(private.table_id, "ann", password=PASSWORD)
    assert ann.seat == 0 and seats_taken(await listed(connection, private.table_id)) == 1
    # A public table takes no password, and a stray one does no harm.
    assert (await connection.join(public.table_id, "bob", password="whatever")).seat == 0
    # The host fills the rest with bots without the password, and starts.
    await connection.add_bot(private.table_id, private.host_token)
    await connection.add_bot(private.table_id, private.host_token)
    await connection.start(private.table_id, private.host_token)
    # The seat's token alone takes the seat up again (a reconnect), by snapshot and by stream.
    again = connection.seat(private.table_id, ann.seat, ann.token)
    assert (await again.snapshot()).game.seat == 0
    async for message in again.stream():
        assert isinstance(message, pb.Snapshot) and message.table.locked
        break


async def test_watching_a_private_table_needs_its_password(connection: Connection) -> None:
    private = await connection.create_table("Secret", 2, password=PASSWORD)
    for password in ("", "nope"):
        watcher = connection.spectate(private.table_id, password)
        error = await refused(watcher.snapshot())
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in error.message
        with pytest.raises(ServerError) as streamed:
            async for _ in watcher.stream():
                pass
        assert streamed.value.code() == grpc.StatusCode.PERMISSION_DENIED
    watcher = connection.spectate(private.table_id, PASSWORD)
    assert (await watcher.snapshot()).table.table_id == private.table_id
    async for message in watcher.stream():
        assert isinstance(message, pb.Snapshot)
        break
    # A watcher chats with the password it watches with; without it, nothing is said.
    assert await watcher.chat("hello", name="eve") > 0
    before = (await watcher.snapshot()).sequence
    for password in ("", "nope"):
        chat = await refused(connection.spectate(private.table_id, password).chat("psst", name="mallory"))
        assert chat.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in chat.message
    assert (await watcher.snapshot()).sequence == before
    # A public table is watched as before.
    public = await connection.create_table("Open", 2)
    assert (await connection.spectate(public.table_id).snapshot()).table.table_id == public.table_id


async def test_a_password_too_long_is_refused_and_no_table_is_made(connection: Connection) -> None:
    error = await refused(connection.create_table("Long", 2, password="x" * 129))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "at most 128" in error.message
    assert await connection.tables() == []


def stored_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())


async def test_the_store_keeps_only_a_salted_hash_and_a_restart_keeps_the_table_private(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = Server(Options(port=0, db=str(db)))
    await server.start()
    address = f"127.0.0.1:{server.port}"
    connection = Connection(address)
    try:
        first = await connection.create_table("One", 2, password=PASSWORD)
        second = await connection.create_table("Two", 2, password=PASSWORD)
    finally:
        await connection.close()
        await server.stop(0)
    assert PASSWORD.encode() not in stored_bytes(db)
    with sqlite3.connect(db) as sql:
        hashes = [json.loads(s)["password_hash"] for (s,) in sql.execute("SELECT settings FROM tables ORDER BY id")]
    assert all(h.startswith("scrypt$") for h in hashes) and hashes[0] != hashes[1]  # salted: same password
    server = Server(Options(port=0, db=str(db)))
    await server.start()
    connection = Connection(f"127.0.0.1:{server.port}")
    try:
        assert (await listed(connection, first.table_id)).locked
        wrong = await refused(connection.join(first.table_id, "eve", password="no"))
        assert wrong.code() == grpc.StatusCode.PERMISSION_DENIED
        assert (await connection.join(second.table_id, "ann", password=PASSWORD)).seat == 0
    finally:
        await connection.close()
        await server.stop(0)


async def test_a_database_from_before_passwords_opens_with_its_tables_public(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    server = Server(Options(port=0, db=str(db)))
    await server.start()
    connection = Connection(f"127.0.0.1:{server.port}")
    try:
        made = await connection.create_table("Old", 2)
    finally:
        await connection.close()
        await server.stop(0)
    with sqlite3.connect(db) as sql:  # the settings as an older server wrote them: no password_hash at all
        (settings,) = sql.execute("SELECT settings FROM tables").fetchone()
        old = {k: v for k, v in json.loads(settings).items() if k != "password_hash"}
        sql.execute("UPDATE tables SET settings = ?", (json.dumps(old),))
    server = Server(Options(port=0, db=str(db)))
    await server.start()
    connection = Connection(f"127.0.0.1:{server.port}")
    try:
        assert not (await listed(connection, made.table_id)).locked
        assert (await connection.join(made.table_id, "ann")).seat == 0
    finally:
        await connection.close()
        await server.stop(0)


# --- the terminal client ---------------------------------------------------------------------------------

def test_the_lobby_marks_a_locked_table_with_a_lock_or_a_hash_under_ascii() -> None:
    info = pb.TableInfo(table_id="t1", name="Secret", seats=2, locked=True)
    assert str(table_row(info, False, None)[0]).startswith("🔒")
    assert str(table_row(info, False, None, ascii=True)[0]).startswith("#")
    assert str(table_row(pb.TableInfo(table_id="t2", name="Open", seats=2), False, None)[0]) == "Open"


async def test_the_lobby_asks_for_a_private_tables_password_and_says_when_it_is_wrong(
        server: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    other = Connection(address)
    private = await other.create_table("Secret", 2, password=PASSWORD)
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path,
                               style=CardStyle(ascii=True)))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables), "the list")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            rows = lobby.query_one("#tables", DataTable)
            await until(pilot, lambda: "#Secret" in str(rows.get_row_at(0)[0]), "the lock mark")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PasswordScreen), "the password prompt")
            # the field shows before anything is typed: a border round it, and what to type in it
            field = app.screen.query_one("#password", Input)
            assert field.has_focus and field.value == "" and field.placeholder
            assert field.styles.border_top[0] not in ("", "none", "hidden") and field.region.height == 3
            await pilot.press(*"wrong", "enter")
            await until(pilot, lambda: isinstance(app.screen, PasswordScreen) and app.screen.wrong
                        and bool(app.screen.query("#password-error")),  # composed: its words are there
                        "the prompt again, saying the password was wrong")
            assert "Wrong password" in str(app.screen.query_one("#password-error").render())
            assert seats_taken(await listed(other, private.table_id)) == 0
            await pilot.press(*PASSWORD, "enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, joined")
            assert seats_taken(await listed(other, private.table_id)) == 1
    finally:
        await other.close()


async def test_the_create_form_makes_a_private_table_and_its_host_joins_without_being_asked(
        server: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    other = Connection(address)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and "live" in str(
                app.screen.query_one("#lobby-status").render()), "the lobby")
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, CreateTableScreen), "the form")
            app.screen.query_one("#password").value = PASSWORD  # type: ignore[attr-defined]
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables), "the table")
            (info,) = await other.tables()
            assert info.locked
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, joined without a prompt")
            # Someone else without the password is still kept out.
            error = await refused(other.spectate(info.table_id).snapshot())
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        await other.close()


async def test_a_bot_joins_a_private_table_only_with_its_password(connection: Connection, tmp_path: Path) -> None:
    private = await connection.create_table("Secret", 2, password=PASSWORD)

    async def bot(*extra: str) -> tuple[int, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tenpennies.client.cli", "bot", "--server", connection.address, "--table",
            private.table_id, "--strategy", "greedy", *extra, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, env={**os.environ, "TENPENNIES_HOME": str(tmp_path)})
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
        return process.returncode or 0, output.decode()

    code, output = await bot()
    assert code == 1 and "needs its password" in output, output
    code, output = await bot("--password", "nope")
    assert code == 1 and "wrong password for this private table" in output, output
    assert seats_taken(await listed(connection, private.table_id)) == 0
    # With it, the bot sits down; the host then empties its seat, and the bot ends.
    seated = asyncio.ensure_future(bot("--password", PASSWORD))
    async with asyncio.timeout(60):
        # seated and following its seat: emptied before its stream opened, the bot would be told its token
        # holds no seat (an error), not that its seat was emptied
        while not any(s.connected for s in (await listed(connection, private.table_id)).seat_info):
            assert not seated.done(), seated.result()
            await asyncio.sleep(0.05)  # polling the lobby, bounded by the timeout
    await connection.remove_seat(private.table_id, private.host_token, 0)
    code, output = await seated
    assert code == 0 and f"joined table {private.table_id} as seat 0" in output, output


async def test_play_spectate_asks_for_a_private_tables_password_and_a_public_one_opens_at_once(
        server: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    other = Connection(address)
    try:
        private = await other.create_table("Secret", 2, password=PASSWORD)
        public = await other.create_table("Open", 2)
        app = TenPenniesApp(Launch("spectate", address=address, name="ann", home=tmp_path,
                                   table_id=private.table_id))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, PasswordScreen), "the password prompt")
            prompt = app.screen
            assert isinstance(prompt, PasswordScreen) and not prompt.wrong  # none given yet: nothing was wrong
            await pilot.press(*PASSWORD, "enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, watched")
        app = TenPenniesApp(Launch("spectate", address=address, name="ann", home=tmp_path, table_id=public.table_id))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table, watched without a prompt")
    finally:
        await other.close()


async def test_a_flood_of_guesses_is_turned_away_at_once_and_the_right_password_still_joins(
        connection: Connection) -> None:
    """Each guess costs the server a deliberately slow hash: guesses at one table are checked one at a time,
    and those beyond a few waiting are refused at once (RESOURCE_EXHAUSTED), not queued to eat the server."""
    private = await connection.create_table("Secret", 2, password=PASSWORD)
    guesses = await asyncio.gather(*(connection.join(private.table_id, "eve", password=f"guess {n}")
                                     for n in range(40)), return_exceptions=True)
    assert all(isinstance(g, ServerError) for g in guesses)
    codes = [g.code() for g in guesses if isinstance(g, ServerError)]
    assert codes.count(grpc.StatusCode.PERMISSION_DENIED) <= 8, codes
    assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) >= 30, codes
    busy = next(g for g in guesses if isinstance(g, ServerError) and g.code() == grpc.StatusCode.RESOURCE_EXHAUSTED)
    assert "try again in a moment" in busy.message
    assert (await connection.join(private.table_id, "ann", password=PASSWORD)).seat == 0
    # Those who know it are not turned away together: a crowd of watchers coming back at once (a restart).
    watchers = [connection.spectate(private.table_id, PASSWORD) for _ in range(20)]
    snapshots = await asyncio.gather(*(w.snapshot() for w in watchers))
    assert all(s.table.table_id == private.table_id for s in snapshots)


async def test_a_client_over_its_share_of_tables_is_refused_before_any_password_work(tmp_path: Path) -> None:
    """A password's hash is slow on purpose: a client with no room for another table must not make the
    server hash (a password too long, which the hashing refuses, shows which check comes first)."""
    server = Server(Options(port=0, db=str(tmp_path / "games.db"), tables_per_address=1, advertise=False))
    await server.start()
    connection = Connection(f"127.0.0.1:{server.port}")
    try:
        await connection.create_table("Mine", 2)
        error = await refused(connection.create_table("Another", 2, password="x" * 129))
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "open tables" in error.message, error.message
        error = await refused(connection.create_table("Another", 2, password=PASSWORD))
        assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert len(await connection.tables()) == 1
    finally:
        await connection.close()
        await server.stop(0)


async def test_a_request_refused_anyway_is_refused_before_any_password_work(connection: Connection) -> None:
    """Bad rules or timers, or a name that is no name, cost no slow hash: they are refused
    first (a password too long, which the hashing refuses, shows which check comes first)."""
    too_long = "x" * 129
    error = await refused(connection.create_table("Another", 9, password=too_long))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "password" not in error.message, error.message
    error = await refused(connection.create_table("Another", 2, decision_seconds=86401, password=too_long))
    assert "decision_seconds" in error.message, error.message
    error = await refused(connection.create_table("\x07", 2, password=too_long))
    assert "a name is" in error.message, error.message
    assert not await connection.tables()


async def test_a_private_table_named_like_markup_is_asked_about_by_its_name(server: Server, tmp_path: Path) -> None:
    """Anyone names a table: a name such as ``[/]`` is text, not markup (as markup it stopped the client)."""
    address = f"127.0.0.1:{server.port}"
    other = Connection(address)
    try:
        await other.create_table("[/] [b]odd", 2, password=PASSWORD)
        app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and bool(app.screen.tables), "the list")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, PasswordScreen), "the password prompt")
            await pilot.pause()
            assert str(app.screen.query_one(Label).render()).startswith("[/] [b]odd is private")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
        assert app.return_code in (None, 0)
    finally:
        await other.close()
