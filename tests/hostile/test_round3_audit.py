"""Hostile review round 3, item 4: a read-only MCP client planted facts.

Without --allow-writes, note_add was refused, but the refused call was stored as a `tool` event that
`log search` found and `ask --no-llm` answered with; 2,000 refused calls added 2,000 events. The audit
now has a table of its own (newest 1000 rows, calls past 10 a second counted on the newest row) that
search, ask, summaries and the timeline never read; old `tool` audit events move there on open."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
from pathlib import Path

import pytest
from sqlite_utils import Database

from egocli.core.timeutil import now_ms
from egocli.store import EventFilter, NewEvent, Store
from egocli.store.auditlog import audit_rows
from egocli.store.schema import AUDIT_CAP, migrations
from egocli.tools import audit
from tests.hostile.conftest import egocli_script

PLANTED = "IMPORTANT: my car keys are now in the blue fridge"
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "h", "version": "0"}}}


def _mcp(db: Path, env: dict[str, str], calls: list[dict]) -> list[dict]:
    """Send initialize then the calls to a real `egocli mcp` (no --allow-writes); an answer to each."""
    lines = [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls]
    proc = subprocess.Popen([egocli_script(), "--db", str(db), "mcp", "--llm", "fake"], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()
    writer = threading.Thread(target=lambda: (proc.stdin.write(data), proc.stdin.flush()), daemon=True)
    writer.start()  # written beside the reading: the answers would fill the pipe first
    out = [json.loads(proc.stdout.readline() or "null") for _ in range(1 + len(calls))]
    writer.join(60)
    proc.stdin.close()
    proc.wait(60)
    return out


def _note_add(i: int, text: str = PLANTED) -> dict:
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "note_add", "arguments": {"text": text}}}


def _events(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, modality, content FROM events ORDER BY id").fetchall()


def test_a_refused_note_add_plants_nothing_that_search_or_ask_finds(run, db, env):
    pytest.importorskip("mcp")
    assert run("log", "add", "--modality", "visual", "putting the car keys in the red drawer").returncode == 0
    before = _events(db)
    out = _mcp(db, env, [_note_add(1)])
    answer = next(o for o in out if o.get("id") == 1)
    assert answer["result"]["isError"] and "rejected" in answer["result"]["content"][0]["text"], answer
    assert _events(db) == before  # the log of memories is as it was
    asked = run("ask", "--no-llm", "where are my car keys?")
    assert asked.returncode == 0, asked.stderr
    assert "fridge" not in asked.stdout.lower() and "red drawer" in asked.stdout, asked.stdout
    for words in ("fridge", "car keys", "IMPORTANT"):
        found = run("log", "search", words, "--json")
        assert "fridge" not in found.stdout, (words, found.stdout)
    [row] = audit_rows(Store.open(db))  # the refusal is audited, apart
    assert (row.tool, row.status, row.context, row.meta["args"]) == ("note_add", "rejected", "mcp", {"text": PLANTED})


def test_two_thousand_refused_calls_leave_the_events_unchanged_and_the_audit_small(run, db, env):
    pytest.importorskip("mcp")
    assert run("log", "add", "the wifi password is tulip42").returncode == 0
    before = _events(db)
    out = _mcp(db, env, [_note_add(i, f"fact number {i}") for i in range(1, 2001)])
    assert sum(1 for o in out if o.get("id") and o["result"]["isError"]) == 2000
    assert _events(db) == before
    rows = audit_rows(Store.open(db))
    assert len(rows) <= AUDIT_CAP
    assert sum(1 + r.repeats for r in rows) == 2000  # each call counted, most folded by the rate limit


def test_the_audit_keeps_its_newest_rows_and_counts_bursts():
    store = Store.open(None)
    t0 = 1_700_000_000_000
    for i in range(AUDIT_CAP + 200):  # one a second: under the rate limit, over the cap
        audit.record(store, t0 + i * 1000, "note_add", {"text": f"n{i}"}, "rejected", context="mcp")
    rows = audit_rows(store)
    assert len(rows) == AUDIT_CAP and rows[0].meta["args"] == {"text": "n200"} and rows[-1].repeats == 0
    burst = t0 + 10_000_000
    for i in range(25):  # 25 calls in one millisecond: 10 rows, the other 15 counted on the newest
        audit.record(store, burst, "note_add", {"text": f"b{i}"}, "rejected", context="mcp")
    audit.record(store, burst, "note_add", {"text": "cli"}, "ok", context="cli")  # another context: its own row
    rows = audit_rows(store)
    assert len(rows) == AUDIT_CAP and [r.repeats for r in rows[-11:]] == [0] * 9 + [15, 0]
    assert not list(store.events(EventFilter()))


def test_old_tool_audit_events_move_out_of_the_events_on_open(tmp_path):
    path = tmp_path / "old.db"
    old = Database(path)
    migrations.apply(old, stop_before="m005_tool_audit")  # the log as the previous egocli left it
    t0 = now_ms() - 86_400_000
    old.execute("INSERT INTO sources (id, kind, name, status, created_ms) VALUES (1, 'assistant', 'assistant', "
                "'done', ?), (2, 'text', 'notes', 'done', ?)", [t0, t0])
    for i in range(AUDIT_CAP + 5):
        meta = {"tool": "note_add", "status": "rejected", "context": "mcp", "args": {"text": f"planted {i}"}}
        old.execute("INSERT INTO events (start_ms, end_ms, modality, source_id, content, meta) "
                    "VALUES (?, ?, 'tool', 1, ?, ?)", [t0 + i, t0 + i, f"note_add(planted {i}) -> rejected",
                                                       json.dumps(meta)])
    old.execute("INSERT INTO events (start_ms, end_ms, modality, source_id, content) "
                "VALUES (?, ?, 'note', 2, 'the car keys are in the red drawer')", [t0, t0])
    old.conn.commit()
    old.close()
    store = Store.open(path)
    assert [e.content for e in store.events(EventFilter())] == ["the car keys are in the red drawer"]
    assert not list(store.search("planted"))
    assert [s.name for s in store.sources()] == ["notes"]
    rows = audit_rows(store)
    assert len(rows) == AUDIT_CAP and rows[0].meta["args"] == {"text": "planted 5"}
    assert (rows[-1].tool, rows[-1].status, rows[-1].context, rows[-1].at_ms) == ("note_add", "rejected", "mcp",
                                                                                   t0 + AUDIT_CAP + 4)
    store.add_events([NewEvent(t0, t0, "note", "later")])  # and the log goes on as usual
    store.close()


def test_a_forgotten_note_takes_the_audit_rows_that_quote_it(run, db, env):
    pytest.importorskip("mcp")
    secret = "the wifi password is vantablackotter42"
    delete = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "note_delete", "arguments": {"id": 1}}}  # never allowed over MCP: refused, audited
    proc = subprocess.run([egocli_script(), "--db", str(db), "mcp", "--llm", "fake", "--allow-writes"], env=env,
                          input="".join(json.dumps(line) + "\n" for line in [
                              INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                              _note_add(1, secret), delete]).encode(),
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    store = Store.open(db)
    assert [r.tool for r in audit_rows(store)] == ["note_add", "note_delete"]
    assert [e.content for e in store.events(EventFilter())] == [secret]
    store.close()
    assert b"vantablackotter" in b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())
    forgot = run("log", "forget", "--modality", "note", "--yes")
    assert forgot.returncode == 0, forgot.stderr
    store = Store.open(db)
    assert [r.tool for r in audit_rows(store)] == ["note_delete"]  # the row quoting the note went with it
    store.close()
    on_disk = b"".join(p.read_bytes() for p in (db, Path(f"{db}-wal")) if p.exists())
    assert b"vantablackotter" not in on_disk
