"""A self-signed TLS certificate for `egocli serve --self-signed`: phone and glasses browsers only
give a page the camera over HTTPS, and a LAN address has no public certificate."""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import socket
from pathlib import Path

from egocli.core.errors import UsageError

VALID_DAYS = 365


def names_for(host: str) -> list[str]:
    """The names a certificate for a server bound to `host` should cover."""
    names = ["localhost", "127.0.0.1", "::1"]
    try:
        names.append(socket.gethostname())
        names += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None)]
    except OSError:
        pass
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    return list(dict.fromkeys(n for n in names if n))


def fingerprint(cert_pem: bytes) -> str:
    """SHA-256 fingerprint of a PEM certificate (what a device shows when asked to trust it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    der = x509.load_pem_x509_certificate(cert_pem).public_bytes(serialization.Encoding.DER)
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def _covers(cert_path: Path, names: list[str]) -> bool:
    from cryptography import x509

    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    have = {str(v) for v in alt.get_values_for_type(x509.IPAddress)} | set(alt.get_values_for_type(x509.DNSName))
    soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    return set(names) <= have and cert.not_valid_after_utc > soon


def self_signed(folder: Path, names: list[str]) -> tuple[Path, Path]:
    """(cert, key) PEM files in folder covering `names`; an existing pair that still fits is reused,
    so a device that trusted it once keeps trusting it."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    if cert_path.is_file() and key_path.is_file() and _covers(cert_path, names):
        return cert_path, key_path
    alt: list[x509.GeneralName] = []
    for name in names:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "egocli serve")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
            .add_extension(x509.SubjectAlternativeName(alt), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        key_path.touch(mode=0o600)
        key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.NoEncryption()))
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    except OSError as ex:
        raise UsageError(f"cannot write a certificate in {folder}: {ex.strerror or ex}") from ex
    return cert_path, key_path
