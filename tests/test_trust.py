"""TLS without a certificate of one's own: ``serve --tls`` makes and keeps a self-signed one, clients trust it
on first use (asked once, remembered, refused loudly when it changes), and connection failures are said in
plain words. Real servers on loopback (in this process, or ``tenpennies serve`` in a process of its own)."""

from __future__ import annotations

import asyncio
import base64
import datetime
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
import trustme
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID, ObjectIdentifier
from grpc_health.v1 import health_pb2, health_pb2_grpc
from textual.widgets import Input, Static

from tenpennies.client.connection import Connection, ServerError
from tenpennies.client.settings import ClientConfig
from tenpennies.client.trust import (
    KnownServers,
    Pinned,
    Probe,
    TrustError,
    TrustRefused,
    Untrusted,
    check_fingerprint,
    decide,
    explain,
    probe,
    settle,
)
from tenpennies.client.tui.app import Launch, TenPenniesApp
from tenpennies.client.tui.lobby import LobbyScreen
from tenpennies.client.tui.servers import ServersScreen
from tenpennies.client.tui.trust import RefusedScreen, TrustScreen
from tenpennies.server import certs
from tenpennies.server.app import Options, Server
from tenpennies.server.certs import CERT_FILE, KEY_FILE, tls_directory
from tenpennies.v2 import tenpennies_pb2 as pb

from serverkit import start_server_process
from tuikit import until

SIZE = (80, 24)


def free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return int(probe_socket.getsockname()[1])


async def tls_server(db: Path, port: int = 0) -> Server:
    server = Server(Options(port=port, db=str(db), tls=True, advertise=False))
    await server.start()
    return server


@pytest.fixture
async def secure(tmp_path: Path) -> AsyncIterator[Server]:
    server = await tls_server(tmp_path / "games.db")
    yield server
    await server.stop(0)


async def failure(connection: Connection) -> ServerError:
    try:
        with pytest.raises(ServerError) as caught:
            await connection.tables()
    finally:
        await connection.close()
    return caught.value


# --- the server's certificate -----------------------------------------------------------------------------

async def test_serve_tls_makes_a_certificate_once_keeps_its_key_private_and_serves_it_again(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = await tls_server(db)
    fingerprint = first.fingerprint
    await first.stop(0)
    directory = tls_directory(str(db))
    assert stat.S_IMODE((directory / KEY_FILE).stat().st_mode) == 0o600
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    certificate = x509.load_pem_x509_certificate((directory / CERT_FILE).read_bytes())
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "localhost" in names.get_values_for_type(x509.DNSName)
    assert "127.0.0.1" in [str(ip) for ip in names.get_values_for_type(x509.IPAddress)]
    again = await tls_server(db)
    try:
        assert again.fingerprint == fingerprint and again.certificate is not None and not again.certificate.made
        # What the server prints is what a client sees.
        assert settle(f"127.0.0.1:{again.port}", fingerprint) is not None
    finally:
        await again.stop(0)


async def test_the_server_process_prints_the_fingerprint_clients_see(tmp_path: Path) -> None:
    process, port = start_server_process(tmp_path / "games.db", "--tls", "--no-advertise")
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("certificate fingerprint SHA256:"), line
        printed = line.split()[2].rstrip(",:")
        seen = await asyncio.to_thread(probe, f"127.0.0.1:{port}")
        assert seen.certificate is not None and Pinned.of(seen.certificate).fingerprint == printed
        assert check_fingerprint(printed) == printed
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_server_console_shows_no_grpc_log_lines_when_a_plaintext_client_knocks(tmp_path: Path) -> None:
    """gRPC's C core logs each failed handshake at INFO; the command keeps its console to its own lines."""
    env = {k: v for k, v in os.environ.items() if k != "GRPC_VERBOSITY"}  # as a user's shell has it
    process = subprocess.Popen(
        [sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db", str(tmp_path / "g.db"),
         "--tls", "--no-advertise"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**env, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        match = re.search(r"listening on [\d.]+:(\d+)", process.stdout.readline())
        assert match
        with grpc.insecure_channel(f"127.0.0.1:{match.group(1)}") as channel:
            with pytest.raises(grpc.RpcError):
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=10)
    assert "shutting down" in output and "Handshake failed" not in output, output


def test_a_server_stopped_the_moment_it_says_where_it_listens_still_stops_in_order(tmp_path: Path) -> None:
    """A client that reads the listening line and ends the server at once (a script, a supervisor) gets its
    orderly stop: the signal is heard from before that line is written."""
    for attempt in range(3):
        process = subprocess.Popen(
            [sys.executable, "-m", "tenpennies.client.cli", "serve", "--port", "0", "--db",
             str(tmp_path / f"g{attempt}.db"), "--tls", "--no-advertise"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert process.stdout is not None
        assert "listening on" in process.stdout.readline()
        process.terminate()
        output, _ = process.communicate(timeout=10)
        assert "shutting down" in output and process.returncode == 0, (attempt, output, process.returncode)


def test_a_fingerprint_in_another_form_is_refused_with_an_example() -> None:
    with pytest.raises(ValueError, match="SHA256:47DEQ"):
        check_fingerprint("AB:CD:EF")
    with pytest.raises(ValueError):
        check_fingerprint("SHA256:tooshort")


def test_a_certificate_names_the_addresses_the_server_is_announced_at_however_the_host_is_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--host [::] serves every address, as :: does, and [2001:db8::5] is that address (the advertiser
    reads the host so): the certificate names what the LAN is told."""
    monkeypatch.setattr(certs, "lan_addresses", lambda: ["192.0.2.7"])
    for host in ("0.0.0.0", "::", "[::]"):
        assert "192.0.2.7" in certs._names(host)[1], host
    assert "2001:db8::5" in certs._names("[2001:db8::5]")[1]
    assert "192.0.2.9" in certs._names("192.0.2.9")[1]


async def test_a_kept_certificate_without_its_key_stops_the_server_saying_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    await (await tls_server(db)).stop(0)
    (tls_directory(str(db)) / KEY_FILE).unlink()
    with pytest.raises(ValueError, match="remove .* to make a new certificate"):
        Server(Options(port=0, db=str(db), tls=True, advertise=False))


# --- trust on first use: the trust module ---------------------------------------------------------------

async def test_the_first_connection_asks_and_a_yes_is_remembered_so_the_second_does_not(
        secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{secure.port}"
    known = KnownServers(tmp_path / "home" / "known_servers")
    first = decide(address, await asyncio.to_thread(probe, address), known)
    assert first.ask and first.pinned is not None and first.pinned.fingerprint == secure.fingerprint
    with pytest.raises(Untrusted, match=re.escape(f"--fingerprint {secure.fingerprint}")):
        settle(address, known=known)  # a bot cannot be asked: it says how to trust
    assert first.certificate is not None
    known.remember(address, first.certificate)
    assert f"{address} {secure.fingerprint} " in known.path.read_text()
    second = decide(address, await asyncio.to_thread(probe, address), known)
    assert not second.ask and second.pinned == first.pinned
    connection = Connection(address, pinned=second.pinned)
    try:
        made = await connection.create_table("Over TLS", 2)
        assert [t.table_id for t in await connection.tables()] == [made.table_id]
        session = await connection.join(made.table_id, "ann")
        await connection.add_bot(made.table_id, made.host_token)
        await connection.start(made.table_id, made.host_token)
        assert (await session.snapshot()).game.ten_pennies.phase != pb.PHASE_UNSPECIFIED
    finally:
        await connection.close()


async def test_a_changed_certificate_is_refused_loudly_and_the_old_pin_sends_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    known = KnownServers(tmp_path / "known_servers")
    first = await tls_server(db)
    port, address = first.port, f"127.0.0.1:{first.port}"
    trusted = decide(address, await asyncio.to_thread(probe, address), known)
    assert trusted.certificate is not None
    known.remember(address, trusted.certificate)
    await first.stop(0)
    shutil.rmtree(tls_directory(str(db)))  # the owner makes a new certificate (or someone else answers)
    second = await tls_server(db, port)
    try:
        assert second.fingerprint != first.fingerprint
        with pytest.raises(TrustRefused) as refused:
            decide(address, await asyncio.to_thread(probe, address), known)
        words = str(refused.value)
        assert f"The certificate of {address} has CHANGED since you trusted it" in words
        assert str(known.path) in words and "remove the line" in words
        # A channel pinned to the old certificate does not get through: not one request reaches the server.
        error = await failure(Connection(address, pinned=trusted.pinned))
        assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert "is not one this client trusts" in (explain(error, address) or "")
        assert not second.lobby.tables
    finally:
        await second.stop(0)


async def test_a_server_trusted_over_tls_that_answers_plaintext_is_refused(tmp_path: Path) -> None:
    known = KnownServers(tmp_path / "known_servers")
    first = await tls_server(tmp_path / "games.db")
    port, address = first.port, f"127.0.0.1:{first.port}"
    trusted = decide(address, await asyncio.to_thread(probe, address), known)
    assert trusted.certificate is not None
    known.remember(address, trusted.certificate)
    await first.stop(0)
    plain = Server(Options(port=port, db=str(tmp_path / "other.db"), advertise=False))
    await plain.start()
    try:
        with pytest.raises(TrustRefused, match="WITHOUT TLS"):
            decide(address, await asyncio.to_thread(probe, address), known)
    finally:
        await plain.stop(0)


# --- trust on first use: the terminal client ------------------------------------------------------------

def lobby_live(app: TenPenniesApp) -> bool:
    screen = app.screen
    return isinstance(screen, LobbyScreen) and "live" in str(screen.query_one("#lobby-status", Static).render())


async def test_the_terminal_client_asks_once_shows_the_fingerprint_and_connects(
        secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{secure.port}"
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TrustScreen), "the question")
        assert str(app.screen.query_one("#trust-fingerprint", Static).render()) == secure.fingerprint
        await pilot.press("y")
        await until(pilot, lambda: lobby_live(app), "the lobby over TLS")
    assert secure.fingerprint in (tmp_path / "known_servers").read_text()
    again = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    async with again.run_test(size=SIZE) as pilot:
        # No question this time: nothing is pressed, and the lobby comes up by itself.
        await until(pilot, lambda: lobby_live(again), "the lobby, without a question")


async def test_a_no_connects_to_nothing_and_remembers_nothing(secure: Server, tmp_path: Path) -> None:
    app = TenPenniesApp(Launch("server", address=f"127.0.0.1:{secure.port}", name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TrustScreen), "the question")
        await pilot.press("n")
        await until(pilot, lambda: app.return_code == 1, "the app to quit")
    assert app.connection is None and not (tmp_path / "known_servers").exists()


async def test_the_terminal_client_refuses_a_changed_certificate_in_red_and_never_connects(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = await tls_server(db)
    port, address = first.port, f"127.0.0.1:{first.port}"
    seen = await asyncio.to_thread(probe, address)
    assert seen.certificate is not None
    KnownServers.at(tmp_path).remember(address, seen.certificate)
    await first.stop(0)
    shutil.rmtree(tls_directory(str(db)))
    second = await tls_server(db, port)
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, RefusedScreen), "the refusal")
            text = str(app.screen.query_one("#refused-text", Static).render())
            assert "has CHANGED since you trusted it" in text and "known_servers" in text
            await pilot.press("enter")
            await until(pilot, lambda: app.return_code == 1, "the app to quit")
        assert app.connection is None
    finally:
        await second.stop(0)


# --- a real CA still works, and skips all this -----------------------------------------------------------

async def test_a_server_with_a_ca_signed_certificate_is_reached_with_tls_ca_and_nothing_is_asked(
        tmp_path: Path) -> None:
    ca = trustme.CA()
    leaf = ca.issue_cert("127.0.0.1", "localhost")
    cert, key, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    leaf.cert_chain_pems[0].write_to_path(str(cert))
    leaf.private_key_pem.write_to_path(str(key))
    ca.cert_pem.write_to_path(str(ca_file))
    server = Server(Options(port=0, db=str(tmp_path / "games.db"), tls_cert=str(cert), tls_key=str(key),
                            advertise=False))
    await server.start()
    address = f"127.0.0.1:{server.port}"
    try:
        connection = Connection(address, str(ca_file))
        try:
            assert await connection.tables() == []
        finally:
            await connection.close()
        app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path, tls_ca=str(ca_file)))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: lobby_live(app), "the lobby, without a question")
        assert not (tmp_path / "known_servers").exists()
    finally:
        await server.stop(0)


# --- failures in plain words ------------------------------------------------------------------------------

async def test_nothing_listening_is_said_plainly() -> None:
    port = free_port()
    address = f"127.0.0.1:{port}"
    error = await failure(Connection(address))
    assert explain(error, address) == (f"Nothing answers at {address}: is the server running, and is port {port} "
                                       f"open in its firewall?")


async def test_a_plaintext_client_at_a_tls_server_is_told_it_speaks_tls(secure: Server) -> None:
    address = f"127.0.0.1:{secure.port}"
    error = await failure(Connection(address))
    assert (explain(error, address) or "").startswith(f"{address} speaks TLS")


async def test_a_tls_client_at_a_plaintext_server_is_told_it_speaks_plaintext(
        server: Server, secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{server.port}"
    seen = await asyncio.to_thread(probe, f"127.0.0.1:{secure.port}")
    assert seen.certificate is not None
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    for connection in (Connection(address, pinned=Pinned.of(seen.certificate)),
                       Connection(address, str(tmp_path / "ca.pem"))):
        error = await failure(connection)
        assert (explain(error, address) or "").startswith(f"{address} speaks plaintext, not TLS"), error.details()


async def test_an_unknown_host_name_is_said_plainly() -> None:
    address = "no-such-host.invalid:50051"
    error = await failure(Connection(address))
    assert (explain(error, address) or "").startswith("No machine called no-such-host.invalid is known here")


async def test_the_lobby_says_plainly_why_it_cannot_reach_the_server(tmp_path: Path) -> None:
    """Nothing there yet: the lobby says so in plain words; the server then comes up with TLS, which this
    client (having met no server there, so talking plaintext) cannot speak: it says that too."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    app = TenPenniesApp(Launch("server", address=address, name="ann", home=tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        def hint() -> str:
            screen = app.screen
            return str(screen.query_one("#lobby-empty", Static).render()) if isinstance(screen, LobbyScreen) else ""

        await until(pilot, lambda: f"Nothing answers at {address}: is the server running" in hint(), "the hint")
        server = await tls_server(tmp_path / "games.db", port)
        try:
            await until(pilot, lambda: f"{address} speaks TLS" in hint(), "the TLS hint")
            assert "failed to connect" not in hint()
        finally:
            await server.stop(0)


# --- clients that cannot ask ------------------------------------------------------------------------------

async def run_cli(*args: str, home: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tenpennies.client.cli", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, env={**os.environ, "TENPENNIES_HOME": str(home)})
    output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    return process.returncode or 0, output.decode()


async def test_a_bot_trusts_an_unknown_tls_server_only_by_its_fingerprint(secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{secure.port}"
    code, output = await run_cli("bot", "--server", address, "--table", "nosuch", "--strategy", "greedy",
                                 home=tmp_path)
    assert code == 1 and f"pass --fingerprint {secure.fingerprint}" in output, output
    assert secure.fingerprint is not None
    # With the fingerprint it connects over TLS, and the server answers (here: no such table).
    code, output = await run_cli("bot", "--server", address, "--table", "nosuch", "--strategy", "greedy",
                                 "--fingerprint", secure.fingerprint, home=tmp_path)
    assert code == 1 and "no table 'nosuch'" in output, output
    code, output = await run_cli("bot", "--server", address, "--table", "nosuch", "--strategy", "greedy",
                                 "--fingerprint", "SHA256:" + "A" * 43, home=tmp_path)
    assert code == 1 and "not the SHA256:AAAA" in output, output


async def test_a_tournament_against_an_unknown_tls_server_says_how_to_trust_it(secure: Server, tmp_path: Path) -> None:
    code, output = await run_cli("tournament", "--server", f"127.0.0.1:{secure.port}", "--bots", "greedy,random",
                                 "--seats", "2", "--games", "2", home=tmp_path)
    assert code == 1 and "--fingerprint SHA256:" in output, output


NO_ROUTE_CHECK = """
import asyncio
import base64
from tenpennies.client.connection import Connection, ServerError
from tenpennies.client.trust import explain, probe, unreachable_text
async def main():
    connection = Connection("10.9.9.9:50051")
    try:
        await connection.tables()
    except ServerError as error:
        print(explain(error, "10.9.9.9:50051"))
    await connection.close()
    print(unreachable_text("10.9.9.9:50051", probe("10.9.9.9:50051", 2).unreachable))
asyncio.run(main())
"""


async def test_no_route_to_the_server_is_said_plainly() -> None:
    """In a network namespace of its own (nothing outside it is touched), where 10.9.9.9 is unreachable."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs unshare and ip")
    script = f"ip link set lo up && ip route add unreachable 10.9.9.9 && exec {sys.executable} -c '{NO_ROUTE_CHECK}'"
    process = await asyncio.create_subprocess_exec("unshare", "-n", "sh", "-c", script,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    output, errors = await asyncio.wait_for(process.communicate(), timeout=60)
    if process.returncode and b"Operation not permitted" in errors:
        pytest.skip("no permission for a network namespace here")
    lines = output.decode().splitlines()
    expected = "No route to 10.9.9.9: are you on the same network as the server?"
    assert len(lines) == 2 and all(line.startswith(expected) for line in lines), (output, errors)


async def test_a_damaged_known_servers_file_trusts_nothing_it_cannot_read_and_does_not_crash(
        secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{secure.port}"
    seen = await asyncio.to_thread(probe, address)
    assert seen.certificate is not None
    known = KnownServers(tmp_path / "known_servers")
    der = base64.b64encode(seen.certificate)
    known.path.write_bytes(b"\xff\xfe not text\n" + f"{address} SHA256:\u00e9t\u00e9 ".encode() + der + b"\n")
    assert known.get(address) is None  # a line whose fingerprint is not even ASCII trusts nothing
    assert decide(address, seen, known).ask  # so the player is asked, as for a server never met
    known.remember(address, seen.certificate)
    assert known.get(address) is not None and not decide(address, seen, known).ask


async def test_a_kept_key_others_can_read_stops_the_server_saying_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    await (await tls_server(db)).stop(0)
    key = tls_directory(str(db)) / KEY_FILE
    key.chmod(0o644)  # copied about, say: anyone on the machine could pose as this server
    with pytest.raises(ValueError, match=re.escape(f"chmod 600 {key}")):
        Server(Options(port=0, db=str(db), tls=True, advertise=False))
    key.chmod(0o600)
    await (await tls_server(db)).stop(0)


async def test_a_no_from_the_servers_screen_goes_back_to_it_and_remembers_no_server(
        secure: Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{secure.port}"
    app = TenPenniesApp(Launch("browse", name="ann", home=tmp_path, data=tmp_path, interface="127.0.0.1"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen")
        app.screen.query_one("#address", Input).value = address
        await pilot.press("a", "enter")
        await until(pilot, lambda: isinstance(app.screen, TrustScreen), "the question")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ServersScreen), "the servers screen again")
        assert app.return_code is None and app.connection is None
        assert ClientConfig.load(tmp_path).server is None  # a server not trusted is not offered as the last one
        app.screen.query_one("#address", Input).value = address
        await pilot.press("a", "enter")
        await until(pilot, lambda: isinstance(app.screen, TrustScreen), "the question again")
        await pilot.press("y")
        await until(pilot, lambda: lobby_live(app), "the lobby over TLS")
    assert ClientConfig.load(tmp_path).server == address


def test_a_certificate_this_client_cannot_read_is_refused_in_words_not_a_crash(tmp_path: Path) -> None:
    """A TLS stack other than OpenSSL may send any bytes as its certificate (the probe verifies nothing):
    a duplicated extension, or no certificate at all."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "x")])
    names = x509.SubjectAlternativeName([x509.DNSName("localhost")])
    now = datetime.datetime.now(datetime.UTC)
    der = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
           .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
           .add_extension(names, critical=False)
           .add_extension(x509.UnrecognizedExtension(ObjectIdentifier("2.5.29.18"), names.public_bytes()),
                          critical=False)
           .sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.DER))
    at = der.index(bytes([0x06, 0x03, 0x55, 0x1D, 0x12]))  # issuerAltName's OID -> subjectAltName's: two SANs
    twice = der[:at + 4] + b"\x11" + der[at + 5:]
    known = KnownServers(tmp_path / "known_servers")
    for certificate in (twice, b"not a certificate"):
        with pytest.raises(TrustError, match="a certificate this client cannot read"):
            decide("10.0.0.5:50051", Probe(certificate=certificate), known)
    assert not known.path.exists()
