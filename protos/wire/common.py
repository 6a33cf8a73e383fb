"""What server and client both need, and neither may take from the other: where the program keeps its files,
a certificate's fingerprint, and the name and addresses of the LAN service.

A fingerprint is ``SHA256:`` and the unpadded base64 of the SHA-256 of the certificate's DER bytes, as
OpenSSH writes them (``SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU``): the same text everywhere
(the server prints it, clients show and remember it, ``--fingerprint`` takes it).
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import os
from pathlib import Path

import ifaddr
import platformdirs
from cryptography import x509
from cryptography.hazmat.primitives import serialization

HOME_VARIABLE = "TENPENNIES_HOME"
# A client that speaks for one visitor among many at one address (``tenpennies web``'s client processes) says
# which, in this request metadata (the value is this variable's, at most 64 letters, digits, _ or -): the
# server gives each visitor its own share of what one address may hold (lobby streams, open tables), up to
# VISITORS_PER_ADDRESS shares for the address as a whole.
VISITOR_VARIABLE = "TENPENNIES_VISITOR"
VISITOR_METADATA = "tp-visitor"
VISITORS_PER_ADDRESS = 16
# A server of several worker processes (serve --workers) names, in the trailing metadata of the answers that
# bring a client to a table (CreateTable, JoinTable, GetSnapshot), the port of the worker that holds it, at the
# host the client reached: a client may take that table's requests there directly, skipping the front's hop.
WORKER_PORT_METADATA = "tp-worker-port"
# A server of several machines (serve --cluster) names instead, for a table another machine holds, that
# machine's address and the port there of the process that holds it ("10.0.0.7:50052").
WORKER_ADDRESS_METADATA = "tp-worker-address"
APP_NAME = "tenpennies"

SERVICE_TYPE = "_tenpennies._tcp.local."  # DNS-SD: what a server announces and a client browses for
ALL_ADDRESSES = ("0.0.0.0", "::", "[::]", "")  # a --host that means every interface


def data_dir() -> Path:
    """Where local games are kept: $TENPENNIES_HOME, else the user's data directory (never the work tree)."""
    home = os.environ.get(HOME_VARIABLE)
    return Path(home) if home else Path(platformdirs.user_data_dir(APP_NAME))


def config_dir() -> Path:
    """Where the client's settings (the last server and name, known servers) are kept: $TENPENNIES_HOME,
    else the user's config directory."""
    home = os.environ.get(HOME_VARIABLE)
    return Path(home) if home else Path(platformdirs.user_config_dir(APP_NAME))


def fingerprint(der: bytes) -> str:
    """The fingerprint of a certificate (its DER bytes): ``SHA256:`` and unpadded base64, as OpenSSH."""
    return "SHA256:" + base64.b64encode(hashlib.sha256(der).digest()).decode().rstrip("=")


def pem_to_der(pem: bytes) -> bytes:
    return x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)


def certificate_name(der: bytes) -> str:
    """A name the certificate (DER) holds: its first DNS name or address, else its common name, else
    "localhost". A channel that trusts one certificate alone gives it to gRPC's host-name check, which the
    pin makes moot (an address that is not in the certificate must not stop the connection)."""
    certificate = x509.load_der_x509_certificate(der)
    names: list[str] = []
    try:
        alternative = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names += alternative.get_values_for_type(x509.DNSName)
        names += [str(ip) for ip in alternative.get_values_for_type(x509.IPAddress)]
    except x509.ExtensionNotFound:
        pass
    names += [str(a.value) for a in certificate.subject.get_attributes_for_oid(x509.oid.NameOID.COMMON_NAME)]
    return names[0] if names else "localhost"


def _ipv4(ip: ifaddr.IP) -> str | None:
    return ip.ip if isinstance(ip.ip, str) else None


def interface_addresses(choice: str) -> list[str]:
    """The IPv4 addresses of the interface ``choice`` names (``eth0``) or has (``192.168.1.5``);
    ValueError naming what is wrong, with the interfaces this machine has."""
    adapters = ifaddr.get_adapters()
    known = ", ".join(f"{a.nice_name} ({', '.join(filter(None, map(_ipv4, a.ips))) or 'no IPv4'})"
                      for a in adapters)
    try:
        wanted = ipaddress.ip_address(choice)
    except ValueError:
        wanted = None
    if wanted is not None:
        if wanted.version != 4:
            raise ValueError(f"--interface {choice}: discovery is IPv4; name an IPv4 address or an interface")
        if any(_ipv4(ip) == str(wanted) for a in adapters for ip in a.ips):
            return [str(wanted)]
        raise ValueError(f"--interface {choice}: no interface of this machine has that address (it has {known})")
    for adapter in adapters:
        if choice in (adapter.nice_name, adapter.name):
            found = [address for ip in adapter.ips if (address := _ipv4(ip))]
            if not found:
                raise ValueError(f"--interface {choice}: that interface has no IPv4 address")
            return found
    raise ValueError(f"--interface {choice}: this machine has no such interface (it has {known})")


def lan_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces but loopback."""
    return [address for adapter in ifaddr.get_adapters() for ip in adapter.ips
            if (address := _ipv4(ip)) and not ipaddress.ip_address(address).is_loopback]
