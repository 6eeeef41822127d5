"""HTTPS (--cert/--key): the page, WebRTC signalling and the WebSocket over TLS with a real certificate."""

from __future__ import annotations

import asyncio
import os
import signal
import ssl
import subprocess
import sys
import time

import aiohttp
import pytest

from egocli.stream import tls
from egocli.stream.client import RtcClient, WsClient


def test_page_offer_and_websocket_over_https(live_server, tmp_path):
    cert, key = tls.self_signed(tmp_path, ["127.0.0.1", "localhost"])
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
    cert, _ = tls.self_signed(tmp_path, ["127.0.0.1"])
    with pytest.raises(Exception, match="--cert and --key go together"):
        live_server(cert=cert)


def test_self_signed_certificate_is_reused_while_it_fits(tmp_path):
    cert, key = tls.self_signed(tmp_path, ["127.0.0.1", "localhost"])
    first = cert.read_bytes()
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    assert tls.self_signed(tmp_path, ["localhost"])[0].read_bytes() == first  # covered: kept
    assert tls.self_signed(tmp_path, ["127.0.0.1", "10.1.2.3"])[0].read_bytes() != first  # new name: remade
    assert len(tls.fingerprint(cert.read_bytes()).split(":")) == 32


def test_serve_self_signed_flag_serves_https(tmp_path):
    env = {**os.environ, "EGOCLI_HOME": str(tmp_path), "EGOCLI_LLM": "fake", "EGOCLI_ASR": "fake",
           "EGOCLI_TTS": "fake", "EGOCLI_LABELER": "fake", "EGOCLI_OCR": "fake", "EGOCLI_EMBEDDER": "fake"}
    proc = subprocess.Popen([sys.executable, "-m", "egocli", "serve", "--self-signed", "--port", "0"],
                            env=env, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        lines, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline and not any("serving https://" in ln for ln in lines):
            lines.append(proc.stderr.readline())
        url = next(ln for ln in lines if "serving https://" in ln).split("serving ", 1)[1].split()[0]
        assert any("SHA-256" in ln for ln in lines), lines
        trust = ssl.create_default_context(cafile=str(tmp_path / "tls" / "cert.pem"))

        async def get() -> int:
            async with aiohttp.ClientSession() as http, http.get(url, ssl=trust) as resp:
                return resp.status

        assert asyncio.run(get()) == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)
