"""The server's own TLS certificate, for ``tenpennies serve --tls`` without a certificate of its own.

A self-signed certificate (EC P-256) is made on the first start and kept beside the database, in
``<db>.tls/`` (``cert.pem``, and ``key.pem`` readable by its owner alone), so that every later start
serves the same one: clients that trusted its fingerprint once (trust on first use, ``client.trust``)
keep trusting it. Its names (SANs) are the host's names, ``localhost``, the loopback addresses, the
address served and the host's LAN addresses when it serves them all; clients that pin the certificate
check the name against the certificate's own, so an address that changed later does not matter.

A fingerprint is ``SHA256:`` and the unpadded base64 of the SHA-256 of the certificate's DER bytes, as
OpenSSH writes them (``SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU``): the same text everywhere
(the server prints it, clients show and remember it, ``--fingerprint`` takes it).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from tenpennies.wire.common import ALL_ADDRESSES, fingerprint, lan_addresses, pem_to_der

CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"
COMMON_NAME = "Ten Pennies server"
# RFC 5280 4.1.2.5: a certificate with no well-defined end. A pinned certificate has no reason to expire.
NO_END = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class ServerCertificate:
    """A certificate and its key (PEM), where they are kept, and whether this start made them."""

    cert: bytes
    key: bytes
    directory: Path
    made: bool

    @property
    def fingerprint(self) -> str:
        return fingerprint(pem_to_der(self.cert))


def tls_directory(db: str) -> Path:
    """Where the certificate of the server whose games are in ``db`` is kept: ``<db>.tls/``."""
    return Path(f"{db}.tls")


def _names(host: str) -> tuple[list[str], list[str]]:
    """The DNS names and IP addresses the certificate of a server at ``host`` is made out to."""
    names = ["localhost"]
    hostname = socket.gethostname()
    for name in (hostname, f"{hostname.split('.')[0]}.local", socket.getfqdn()):
        if name and name not in names:
            names.append(name)
    addresses = ["127.0.0.1", "::1"]
    # the host read as the advertiser reads it ([::] serves every address; [v6] is an address), and the
    # interfaces' addresses as it announces them
    if host in ALL_ADDRESSES:
        addresses += lan_addresses()
    else:
        try:
            addresses.append(str(ipaddress.ip_address(host.strip("[]"))))
        except ValueError:
            names.append(host)
    return [n for n in dict.fromkeys(names) if _dns_name(n)], list(dict.fromkeys(addresses))


def _dns_name(name: str) -> bool:
    try:
        x509.DNSName(name)
    except ValueError:
        return False
    return all(c.isalnum() or c in "-." for c in name)


def make_certificate(host: str) -> tuple[bytes, bytes]:
    """A new self-signed certificate for a server at ``host``, and its key: (cert PEM, key PEM)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, COMMON_NAME)])
    names, addresses = _names(host)
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))  # a client whose clock is a little behind
        .not_valid_after(NO_END)
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]),
            critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


def server_certificate(directory: Path, host: str) -> ServerCertificate:
    """The certificate kept in ``directory``, or a new one made and kept there (the key 0600, the
    directory 0700). ValueError, saying what to do, when what is kept cannot be used (a key others may
    read is refused, as ssh does)."""
    cert_path, key_path = directory / CERT_FILE, directory / KEY_FILE
    if cert_path.exists() and key_path.exists():
        if os.name == "posix" and key_path.stat().st_mode & 0o077:
            raise ValueError(f"{key_path} may be read by others on this machine, who could then pose as this "
                             f"server: chmod 600 {key_path} (or remove {directory} to make a new certificate; "
                             f"clients will then have to trust it again)")
        try:
            cert, key = cert_path.read_bytes(), key_path.read_bytes()
            public = x509.load_pem_x509_certificate(cert).public_key()
            private = serialization.load_pem_private_key(key, password=None)
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(f"cannot use the TLS certificate kept in {directory}: {error} (remove that "
                             f"directory to make a new one; clients will then have to trust it again)") from None
        if public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo) != \
                private.public_key().public_bytes(serialization.Encoding.DER,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo):
            raise ValueError(f"{key_path} is not the key of {cert_path} (remove {directory} to make a new "
                             f"certificate; clients will then have to trust it again)")
        return ServerCertificate(cert, key, directory, made=False)
    if cert_path.exists() or key_path.exists():
        present, missing = (cert_path, key_path) if cert_path.exists() else (key_path, cert_path)
        raise ValueError(f"{present} is there but {missing} is not (remove {directory} to make a new "
                         f"certificate; clients will then have to trust it again)")
    cert, key = make_certificate(host)
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
        cert_path.write_bytes(cert)
    except OSError as error:
        raise ValueError(f"cannot keep a TLS certificate in {directory}: {error}") from None
    return ServerCertificate(cert, key, directory, made=True)
