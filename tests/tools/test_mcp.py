"""`egocli mcp` over stdio, driven by the official MCP SDK client in a real subprocess."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from egocli.store import EventFilter, NewEvent, Store
from egocli.core.timeutil import now_ms

pytest.importorskip("mcp")

READ_ONLY = {"now", "memory_search", "memory_ask", "note_list", "reminder_list", "chess_analyse"}


def _session(db: Path, *flags: str):  # noqa: ANN202 - returns an async context manager
    import anyio  # noqa: F401 - the SDK's event loop
    from contextlib import asynccontextmanager

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "egocli", "--db", str(db), "mcp", *flags,
                                                                 "--llm", "fake"])

    @asynccontextmanager
    async def session():  # noqa: ANN202
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                await s.initialize()
                yield s
    return session()


def _run(coro_fn):  # noqa: ANN001, ANN202
    import anyio

    return anyio.run(coro_fn)


def _log(db: Path) -> None:
    store = Store.open(db)
    t = now_ms() - 60_000
    store.add_events([NewEvent(t, t, "visual", "putting the car keys in the red drawer"),
                      NewEvent(t, t, "note", "the wifi password is tulip42")])
    store.close()


def _tool_events(db: Path) -> list:
    from egocli.store.auditlog import audit_rows

    return audit_rows(Store.open(db))


def test_read_only_by_default_and_outside_calls_refused(db):
    _log(db)

    async def scenario():  # noqa: ANN202
        async with _session(db) as s:
            names = {t.name for t in (await s.list_tools()).tools}
            found = await s.call_tool("memory_search", {"query": "car keys"})
            write = await s.call_tool("note_add", {"text": "injected"})
            delete = await s.call_tool("note_delete", {"note_id": 2})
            unknown = await s.call_tool("shell", {"cmd": "ls"})
            wrong = await s.call_tool("memory_search", {"query": "keys", "limit": "5"})
            return names, found, write, delete, unknown, wrong

    names, found, write, delete, unknown, wrong = _run(scenario)
    assert names == READ_ONLY
    assert not found.is_error
    assert found.structured_content["data"][0]["content"] == "putting the car keys in the red drawer"
    assert write.is_error and "disabled here" in write.content[0].text
    assert delete.is_error and "not allowed here" in delete.content[0].text
    assert unknown.is_error and "unknown tool" in unknown.content[0].text
    assert wrong.is_error and "'limit' must be integer, got str" in wrong.content[0].text
    store = Store.open(db)
    assert [e.content for e in store.events(EventFilter(modalities=("note",)))] == ["the wifi password is tulip42"]
    audit = [(e.meta["tool"], e.meta["status"], e.meta["context"]) for e in _tool_events(db)]
    assert audit == [("note_add", "rejected", "mcp"), ("note_delete", "rejected", "mcp")]  # write attempts only


def _footprint(db: Path) -> tuple[int, int]:
    """(events in the log, bytes of the log file plus its WAL)."""
    store = Store.open(db)
    count = store.count()
    store.close()
    return count, sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


def test_read_only_calls_leave_the_log_as_it_was(db):
    _log(db)
    before = _footprint(db)
    big = "k" * 5_000_000  # a 5 MB argument: audited in full once, then at 4 KB a call

    async def scenario():  # noqa: ANN202
        async with _session(db) as s:
            out = []
            for _ in range(6):
                out += [await s.call_tool("memory_search", {"query": "car keys " + big}),
                        await s.call_tool("memory_ask", {"question": "where are my keys?"}),
                        await s.call_tool("note_list", {}), await s.call_tool("reminder_list", {}),
                        await s.call_tool("now", {})]
            refused = [await s.call_tool("memory_search", {"query": "keys", "limit": big}),
                       await s.call_tool("memory_ask", {"question": big})]
            return out, refused

    answers, refused = _run(scenario)
    assert not any(a.is_error for a in answers), [a.content[0].text[:200] for a in answers if a.is_error]
    assert answers[0].structured_content["data"][0]["content"] == "putting the car keys in the red drawer"
    assert refused[0].is_error and "'limit' must be integer" in refused[0].content[0].text
    assert refused[1].is_error and "at most 2000 fit" in refused[1].content[0].text
    assert _footprint(db) == before
    assert _tool_events(db) == []


def test_allow_writes_exposes_notes_and_reminders_but_never_delete(db):
    async def scenario():  # noqa: ANN202
        async with _session(db, "--allow-writes") as s:
            tools = {t.name: t for t in (await s.list_tools()).tools}
            added = await s.call_tool("note_add", {"text": "call the plumber"})
            listed = await s.call_tool("note_list", {})
            long = await s.call_tool("note_add", {"text": "x" * 100_000})
            return tools, added, listed, long

    tools, added, listed, long = _run(scenario)
    assert "note_add" in tools and "reminder_add" in tools and "note_delete" not in tools
    assert tools["note_add"].annotations.destructive_hint is True
    assert tools["memory_search"].annotations.read_only_hint is True
    assert tools["reminder_add"].input_schema["required"] == ["text", "due"]
    assert not added.is_error
    assert json.loads(listed.content[0].text)["data"][0]["text"] == "call the plumber"
    assert not long.is_error
    audit = _tool_events(db)  # the two writes, not the listing; a long argument kept to its first 4 KB
    assert [(e.meta["tool"], e.meta["status"], e.meta["confirmed"]) for e in audit] == [
        ("note_add", "ok", True), ("note_add", "ok", True)]
    assert audit[0].meta["args"] == {"text": "call the plumber"}
    assert 4000 <= len(audit[1].meta["args"]) < 4100
