"""Nothing leaves the machine: a full ingest + ask + chess run opens no socket beyond loopback."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from egocli.privacy.netguard import NetworkBlocked, NetworkGuard

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "glasses.mp4"
SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").is_file() else None)


def test_guard_blocks_and_records_outside_addresses():
    """The guard itself works, so the test below can fail."""
    with NetworkGuard() as guard:
        with pytest.raises(NetworkBlocked):
            socket.create_connection(("192.0.2.1", 443), timeout=1)
        with pytest.raises(NetworkBlocked):
            socket.getaddrinfo("pypi.org", 443)
        probe = socket.socket()
        with pytest.raises(OSError):  # allowed through; nothing listens on port 9
            probe.connect(("127.0.0.1", 9))
        probe.close()
    assert [call for call, _ in guard.blocked] == ["getaddrinfo", "getaddrinfo"]
    assert ("connect", "('127.0.0.1', 9)") in guard.attempts


@pytest.mark.slow
@pytest.mark.skipif(STOCKFISH is None, reason="stockfish not installed (apt-get install stockfish)")
def test_ingest_ask_chess_open_no_socket_beyond_loopback(cli, monkeypatch):
    monkeypatch.setenv("EGOCLI_LLM", "fake")  # real ingest models and Stockfish; the answerer is the fake LLM
    monkeypatch.setenv("EGOCLI_SUMMARIZER", "fake")
    with NetworkGuard() as guard:
        res = cli("ingest", EXAMPLE, "--keep-frames", "--json")
        assert res.exit_code == 0, res.stderr
        res = cli("ask", "What did the sign say?", "--at", "2026-11-28T10:05:00Z", "--votes", "1", "--json")
        assert res.exit_code == 0, res.stderr
        res = cli("chess", "--fen", SCHOLARS, "--time", "0.1", "--json")
        assert res.exit_code == 0, res.stderr
        assert json.loads(res.stdout)["lines"][0]["san"][0] == "Qxf7#"
        assert cli("privacy", "report").exit_code == 0
    assert guard.blocked == []
    assert all(call != "getaddrinfo" for call, _ in guard.attempts)


@pytest.mark.slow
@pytest.mark.skipif(STOCKFISH is None or shutil.which("unshare") is None, reason="needs stockfish and unshare")
def test_runs_in_a_network_namespace_with_only_loopback(tmp_path):
    """Subprocesses too (Stockfish): the same commands succeed in `unshare -rn`, where no network exists."""
    if subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode != 0:
        pytest.skip("unprivileged network namespaces are not available here")
    env = {**os.environ, "EGOCLI_HOME": str(tmp_path / "home"), "EGOCLI_LLM": "fake"}
    base = ["unshare", "-rn", sys.executable, "-m", "egocli", "--quiet", "--db", str(tmp_path / "n.db")]
    outputs = []
    for args in (["log", "add", "call 555-123-4567 about the bus"], ["chess", "--fen", SCHOLARS, "--time", "0.1"],
                 ["privacy", "report"]):
        done = subprocess.run(base + args, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (args, done.stderr)
        outputs.append(done.stdout)
    assert "Qxf7#" in outputs[1] and "no outgoing connections" in outputs[2]
