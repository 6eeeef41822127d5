"""Issue #30, probed: `serve --self-signed` against hostile TLS clients. Plain HTTP on the TLS port, random
bytes, a TLS 1.0-only client and 200 connections that never finish a handshake leave an honest HTTPS client
served, and the server's descriptors come back when they close."""

from __future__ import annotations

import os
import re
import socket
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

from tests import console


def _serve(home: Path) -> tuple[subprocess.Popen, int, str]:
    env = {**os.environ, "EGOCLI_HOME": str(home)}
    proc = subprocess.Popen([console.egocli(), "serve", "--self-signed", "--port", "0"], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if m := re.search(r"https://[^/\s]+:(\d+)/(?:\?token=(\S+))?", line):
            return proc, int(m.group(1)), m.group(2) or ""
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("serve --self-signed printed no URL")


def test_hostile_tls_clients_leave_honest_ones_served(tmp_path: Path) -> None:
    proc, port, token = _serve(tmp_path / "home")
    insecure = ssl.create_default_context()
    insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE

    def health() -> int:
        req = urllib.request.Request(f"https://127.0.0.1:{port}/api/health",
                                     headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, context=insecure, timeout=10) as resp:
            return resp.status
    try:
        assert health() == 200  # warmed up: what a served client leaves open is the baseline
        fds_before = len(os.listdir(f"/proc/{proc.pid}/fd"))
        for hostile in (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", os.urandom(4096)):  # closed, however slowly the
            with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:  # models loading let it run
                raw.sendall(hostile)
                assert raw.recv(100) == b""  # closed, nothing served in the clear
        old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        old.check_hostname, old.verify_mode = False, ssl.CERT_NONE
        old.minimum_version = old.maximum_version = ssl.TLSVersion.TLSv1_1
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            try:
                old.wrap_socket(raw)
                raise AssertionError("a TLS 1.1 handshake was accepted")
            except ssl.SSLError:
                pass
        stalled = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(200)]
        assert health() == 200
        for conn in stalled:
            conn.close()
        assert health() == 200
        deadline = time.monotonic() + 20  # the server notices the closed sockets
        while len(os.listdir(f"/proc/{proc.pid}/fd")) > fds_before + 16 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(os.listdir(f"/proc/{proc.pid}/fd")) <= fds_before + 16  # models loading may open a few; 200 leaked would not pass
    finally:
        proc.terminate()
        proc.wait(20)
