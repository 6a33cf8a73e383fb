"""How a client reaches a server: plaintext or TLS, whose certificate it trusts, and failures in plain words.

A server started with ``tenpennies serve --tls`` has a self-signed certificate that no CA vouches for.
The client trusts it on first use, as SSH does: a plain TLS handshake (no verification) fetches the
certificate (``probe``), its fingerprint (``server.certs.fingerprint``: ``SHA256:`` and base64) is
looked up in ``known_servers`` in the client's config directory, by HOST:PORT (``KnownServers``):

* unknown: the player is asked (``Verdict.ask``); yes remembers it;
* known and the same: the channel trusts that certificate alone (``Pinned``) and connects silently;
* known but changed, or known as TLS and now plaintext: refused (``TrustRefused``), never connected.

What answers decides plaintext or TLS: a plaintext gRPC server answers a TLS ClientHello with bytes that
are no TLS record. ``--tls-ca FILE`` (a real CA) skips all this. A client that cannot ask (a bot, a
tournament) trusts known servers and ``--fingerprint`` only (``settle``).

``explain`` turns gRPC's words for a failed connection (errno text, TLS alerts) into what to try.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import os
import socket
import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from tenpennies.wire.common import certificate_name, config_dir, fingerprint

KNOWN_FILE = "known_servers"
PROBE_SECONDS = 3.0
HEADER = ("# Servers whose TLS certificates this client trusts (tenpennies play asks on the first connection).\n"
          "# One a line: HOST:PORT FINGERPRINT CERTIFICATE. Remove a server's line to trust it afresh.\n")


class TrustError(ConnectionError):
    """This client will not connect to the server; the message says why and what to do."""


class TrustRefused(TrustError):
    """The server is not the one trusted before (its certificate changed, or it dropped TLS)."""


class Untrusted(TrustError):
    """A TLS server nobody has trusted yet, and nobody here to ask."""


def split_address(address: str) -> tuple[str, int]:
    """HOST:PORT (``[::1]:50051`` too) as (host, port)."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), int(port)


@dataclass(frozen=True)
class Probe:
    """What answered at an address: a TLS server (``certificate``, DER), a plaintext one (neither set),
    or nothing (``unreachable``: why)."""

    certificate: bytes | None = None
    unreachable: OSError | None = None


def probe(address: str, timeout: float = PROBE_SECONDS) -> Probe:
    """Open a TLS handshake to ``address`` without verifying anything, offering ALPN ``h2`` (gRPC's),
    and keep the certificate the server shows. Blocking: run it in a thread from an event loop."""
    host, port = split_address(address)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # no CA bundle to load: nothing is verified here
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    try:
        raw = socket.create_connection((host, port), timeout=timeout)
    except OSError as error:
        return Probe(unreachable=error)
    with raw:
        try:
            with context.wrap_socket(raw, server_hostname=host if not _is_ip(host) else None) as tls:
                der = tls.getpeercert(binary_form=True)
        except (ssl.SSLError, ConnectionError):
            return Probe()  # no TLS record came back, or the server hung up on the hello: plaintext
        except OSError as error:  # a timeout: something listens, but answers nothing
            return Probe(unreachable=error)
    return Probe(certificate=der) if der else Probe()


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Pinned:
    """One server's own certificate, trusted by its fingerprint: the channel trusts that certificate
    alone. ``name``: a name the certificate holds, given to gRPC's host-name check (which the pin makes
    moot: an address that is not in the certificate must not stop the connection)."""

    pem: bytes
    name: str
    fingerprint: str

    @classmethod
    def of(cls, der: bytes) -> Pinned:
        certificate = x509.load_der_x509_certificate(der)
        return cls(certificate.public_bytes(serialization.Encoding.PEM), certificate_name(der), fingerprint(der))


@dataclass(frozen=True)
class KnownServer:
    fingerprint: str
    certificate: bytes  # DER


class KnownServers:
    """``known_servers``: per HOST:PORT the fingerprint and the certificate trusted. The certificate is
    kept so that a client can connect to a known server it cannot probe (it is away, and comes back)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def at(cls, directory: Path | None = None) -> KnownServers:
        return cls((directory or config_dir()) / KNOWN_FILE)

    def _lines(self) -> list[str]:
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").splitlines()  # a damaged line trusts nothing
        except FileNotFoundError:
            return []

    def get(self, address: str) -> KnownServer | None:
        for line in self._lines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == address:
                try:
                    der = base64.b64decode(parts[2], validate=True)
                except (binascii.Error, ValueError):
                    continue  # a damaged line trusts nothing
                if hmac.compare_digest(fingerprint(der).encode(), parts[1].encode()):  # bytes: any text compares
                    return KnownServer(parts[1], der)
        return None

    def remember(self, address: str, der: bytes) -> None:
        """Trust ``der`` for ``address`` from now on (any line the address had goes)."""
        kept = [line for line in self._lines()
                if line.strip() and not line.startswith("#") and line.split()[0] != address]
        lines = kept + [f"{address} {fingerprint(der)} {base64.b64encode(der).decode()}"]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        scratch = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(HEADER + "".join(line + "\n" for line in lines))
        os.replace(scratch, self.path)


@dataclass(frozen=True)
class Verdict:
    """How to connect: ``pinned`` (None: plaintext). ``ask``: a TLS server not trusted yet, whose
    certificate ``pinned`` is; connect only if the player says yes (then ``KnownServers.remember``)."""

    pinned: Pinned | None
    ask: bool = False
    certificate: bytes | None = None  # DER, to remember on a yes


def changed_message(address: str, seen: str, trusted: str, path: Path) -> str:
    return (f"The certificate of {address} has CHANGED since you trusted it: it shows {seen}, you trusted "
            f"{trusted}. Someone may be pretending to be that server, so this client will not connect. If the "
            f"server's owner made a new certificate, remove the line of {address} from {path} and connect "
            f"again to trust the new one.")


def decide(address: str, probed: Probe, known: KnownServers, fingerprint_given: str | None = None) -> Verdict:
    """How to connect to ``address`` after ``probed``; TrustRefused when it must not be."""
    trusted = known.get(address)
    if probed.certificate is not None:
        seen = fingerprint(probed.certificate)
        try:
            pinned = Pinned.of(probed.certificate)
        except (ValueError, x509.DuplicateExtension, x509.UnsupportedGeneralNameType) as error:
            raise TrustError(f"{address} shows a certificate this client cannot read ({error}), so it will not "
                             f"connect: is it a Ten Pennies server?") from None
        expected = fingerprint_given or (trusted.fingerprint if trusted else None)
        if expected is None:
            return Verdict(pinned, ask=True, certificate=probed.certificate)
        if not hmac.compare_digest(seen, expected):
            if fingerprint_given:
                raise TrustRefused(f"{address} shows the certificate {seen}, not the {fingerprint_given} you gave: "
                                   f"this client will not connect (ask the server's owner which it prints)")
            raise TrustRefused(changed_message(address, seen, expected, known.path))
        return Verdict(pinned)
    if probed.unreachable is None:  # plaintext
        if trusted is not None or fingerprint_given:
            raise TrustRefused(f"{address} now answers WITHOUT TLS, but it served TLS when you trusted it: "
                               f"someone may be pretending to be that server, so this client will not connect. "
                               f"If its owner turned TLS off, remove the line of {address} from {known.path}."
                               if trusted is not None else
                               f"{address} answers without TLS, but --fingerprint expects a TLS server: this "
                               f"client will not connect (leave out --fingerprint for a plaintext server)")
        return Verdict(None)
    # Nothing answers: a known server's certificate is kept, so the channel can wait for it to come back.
    if trusted is not None:
        return Verdict(Pinned.of(trusted.certificate))
    if fingerprint_given:
        raise TrustError(unreachable_text(address, probed.unreachable))
    return Verdict(None)


def settle(address: str, fingerprint_given: str | None = None, *, known: KnownServers | None = None,
           timeout: float = PROBE_SECONDS) -> Pinned | None:
    """For a client that cannot ask (a bot, a tournament): the certificate to pin (None: plaintext).
    It trusts known servers and ``fingerprint_given``; TrustError otherwise, saying how to trust."""
    known = known or KnownServers.at()
    verdict = decide(address, probe(address, timeout), known, fingerprint_given)
    if verdict.ask:
        assert verdict.pinned is not None
        raise Untrusted(f"{address} serves TLS with a certificate this client has not trusted yet; its fingerprint "
                        f"is {verdict.pinned.fingerprint}. If that is the fingerprint the server printed when it "
                        f"started, pass --fingerprint {verdict.pinned.fingerprint}, or connect once with "
                        f"tenpennies play --server {address} and answer yes.")
    return verdict.pinned


def check_fingerprint(text: str) -> str:
    """A ``--fingerprint`` value: ``SHA256:`` and 43 base64 characters (ValueError otherwise)."""
    text = text.strip()
    body = text.removeprefix("SHA256:")
    try:
        ok = text.startswith("SHA256:") and len(base64.b64decode(body + "=", validate=True)) == 32
    except (binascii.Error, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{text!r} is not a fingerprint like SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU "
                         f"(the server prints its own when it starts)")
    return text


def fingerprint_argument(text: str) -> str:
    """``--fingerprint``'s argparse type."""
    import argparse
    try:
        return check_fingerprint(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --- failures in plain words --------------------------------------------------------------------------

def unreachable_text(address: str, error: OSError) -> str:
    """Why a socket could not reach ``address``, and what to try."""
    return _classify(address, f"{error.__class__.__name__} {error}") or f"Cannot reach {address}: {error}"


def _classify(address: str, words: str) -> str | None:
    host, port = split_address(address)
    text = words.lower()
    if "connection refused" in text:
        return f"Nothing answers at {address}: is the server running, and is port {port} open in its firewall?"
    if "no route to host" in text or "host is unreachable" in text or "network is unreachable" in text:
        return (f"No route to {host}: are you on the same network as the server? (A firewall that rejects "
                f"port {port} says this too.)")
    if "domain name not found" in text or "gaierror" in text or "name or service not known" in text \
            or "address lookup failed" in text:
        return f"No machine called {host} is known here: check the name, or use the server's address"
    if "timed out" in text or "timeout" in text or "deadline" in text:
        return (f"{address} does not answer (the connection timed out): is the address right, and is port "
                f"{port} open in the server's firewall?")
    if "wrong_version_number" in text:
        return (f"{address} speaks plaintext, not TLS: leave out --tls-ca (or ask its owner to start it with "
                f"--tls)")
    if "certificate_verify_failed" in text:
        return (f"The certificate of {address} is not one this client trusts (not the one trusted before, or "
                f"not signed by the --tls-ca CA): do not go on unless the server's owner says it changed")
    if "hostname verification" in text:
        return f"The certificate of {address} is not made out to {host}: connect by a name it holds"
    if "failed to connect" in text and ("socket closed" in text or "connection reset" in text):
        return (f"{address} speaks TLS, and this client talked plaintext: start the client again to check "
                f"the server's certificate (or give --tls-ca)")
    return None


def explain(error: grpc.aio.AioRpcError, address: str) -> str | None:
    """A failed call's connection trouble in plain words, with what to try; None when the server
    answered (a refusal is the server's to word) or when gRPC's words say nothing more."""
    if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
        return None
    words = f"{error.details() or ''} {error.code().name}"
    if error.code() == grpc.StatusCode.UNAVAILABLE and "failed to connect" not in words.lower() \
            and "lookup" not in words.lower():
        return None  # a connection that broke while open (the server stopped, say): nothing to add
    return _classify(address, words)


def certificate_refused(error: grpc.aio.AioRpcError) -> bool:
    """The connection failed because the server's certificate is not the one this client trusts (it changed
    since, or a CA did not sign it)."""
    return error.code() == grpc.StatusCode.UNAVAILABLE and \
        "certificate_verify_failed" in str(error.details() or "").lower()


def changed_advice(address: str, timeout: float = PROBE_SECONDS) -> str:
    """For a client that cannot ask (a bot) whose server's certificate changed while it played: what it shows
    now, and the exact flag that trusts it, to pass only if the server's owner says so. Blocking (it probes)."""
    probed = probe(address, timeout)
    if probed.certificate is None:
        return (f"The certificate of {address} is no longer the one this client trusted, and the server cannot "
                f"be reached now to see its new one: do not go on unless the server's owner says it changed")
    seen = fingerprint(probed.certificate)
    return (f"The certificate of {address} has CHANGED since this client trusted it: it now shows {seen}. "
            f"Someone may be pretending to be that server, so this client stops. If the server's owner made a "
            f"new certificate (the server prints its fingerprint when it starts), start again with "
            f"--fingerprint {seen}")


def wrong_password(error: grpc.aio.AioRpcError) -> bool:
    """The server refused a private table's password (or its absence)."""
    return error.code() == grpc.StatusCode.PERMISSION_DENIED and "password" in (error.details() or "")
