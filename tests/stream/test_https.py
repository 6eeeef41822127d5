"""HTTPS (--cert/--key): the page, WebRTC signalling and the WebSocket over TLS with a real certificate."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
from pathlib import Path

import aiohttp
import pytest

from egocli.stream.client import RtcClient, WsClient


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as PEM files."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "egocli test")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def test_page_offer_and_websocket_over_https(live_server, tmp_path):
    cert, key = self_signed(tmp_path)
    server = live_server(cert=cert, key=key)
    assert server.url.startswith("https://127.0.0.1:")
    trust = ssl.create_default_context(cafile=str(cert))

    async def session() -> tuple[str, dict, dict, str]:
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/", ssl=trust) as resp:
                page = await resp.text()
            try:  # a client that does not trust the certificate is refused by TLS itself
                async with http.get(server.url + "/", ssl=ssl.create_default_context()):
                    untrusted = "connected"
            except aiohttp.ClientConnectorCertificateError:
                untrusted = "refused"
        ws = WsClient(tls=trust)
        welcome = await ws.connect(server.url, video=False)
        await ws.send({"type": "ping", "t": 1})
        pong = await ws.wait_for("pong", timeout=10)
        await ws.close()
        rtc = RtcClient(tls=trust)
        body = await rtc.connect(server.url, video=False)
        await rtc.close()
        return page, welcome, {"pong": pong, "offer": body}, untrusted

    page, welcome, got, untrusted = asyncio.run(session())
    assert "<html" in page.lower() and welcome["type"] == "welcome"
    assert got["pong"]["t"] == 1 and got["offer"]["type"] == "answer"
    assert untrusted == "refused"


def test_cert_without_key_is_a_usage_error(live_server, tmp_path):
    cert, _ = self_signed(tmp_path)
    with pytest.raises(Exception, match="--cert and --key go together"):
        live_server(cert=cert)
