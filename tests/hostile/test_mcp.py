"""Issue 17.9, MCP part: raw JSON-RPC lines into a real `egocli mcp` process.

On main a line that was not JSON got no answer at all (JSON-RPC wants -32700), a lone
surrogate in an argument crashed the call when it was audited, and a 5 MB argument to a
read-only tool added 10 MB to the log (later 4 KB a call; now read-only calls write nothing)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.hostile.conftest import egocli_script

pytest.importorskip("mcp")


def _exchange(db: Path, env: dict[str, str], lines: list[str], answers: int) -> list[dict]:
    proc = subprocess.Popen([egocli_script(), "--db", str(db), "mcp", "--llm", "fake"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(line + "\n" for line in lines).encode())
    proc.stdin.flush()
    out = [json.loads(proc.stdout.readline()) for _ in range(answers)]
    proc.stdin.close()
    proc.wait(60)
    return out


def test_bad_lines_get_json_rpc_errors_and_odd_arguments_no_crash_or_bloat(run, db, env):
    assert run("log", "add", "the car keys are in the red drawer").returncode == 0
    size = sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "hostile", "version": "0"}}}
    call = {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "memory_search"}}
    lines = ["this is not json", '{"jsonrpc": "2.0", "id": 7}', json.dumps(init),
             json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             json.dumps({**call, "id": 2, "params": {**call["params"], "arguments": {"query": "\ud800 keys"}}}),
             json.dumps({**call, "id": 3, "params": {**call["params"], "arguments": {"query": "k" * 5_000_000}}})]
    out = _exchange(db, env, lines, 5)
    assert out[0] == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    assert out[1]["error"]["code"] == -32600
    by_id = {o.get("id"): o for o in out[2:]}
    assert "result" in by_id[1] and "result" in by_id[3], out[2:]
    surrogate = by_id.get(2) or by_id.get(None)  # a lone surrogate escape: answered, or refused as not JSON
    assert "result" in surrogate or surrogate["error"]["code"] == -32700, surrogate
    assert sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists()) == size
    listed = run("log", "list", "--jsonl")
    assert [json.loads(line)["modality"] for line in listed.stdout.splitlines()] == ["note"], listed.stderr
