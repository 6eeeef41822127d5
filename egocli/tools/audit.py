"""The audit trail: every tool call (arguments, result, confirmation, error) becomes a row of the audit table.

Audit rows are not memories: they live apart from the events (egocli.store.auditlog), so a refused call
cannot plant a "fact" that search or ask would find; the table keeps the newest 1000 rows and folds calls
past 10 a second from one context into a count on its newest row."""

from __future__ import annotations

import json
from typing import Any

from egocli.store import Store
from egocli.store.auditlog import add_audit

STATUSES = ("ok", "error", "rejected", "declined", "skipped")
ARGS_LIMIT = 4000
"""Characters of a call's arguments kept in its audit event (a 5 MB argument adds 4 KB, not 10 MB)."""


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _capped(value: Any, limit: int = ARGS_LIMIT) -> Any:
    """Arguments as stored: whole when small, else their JSON cut at limit characters."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return value if len(text) <= limit else text[:limit] + "…"


def record(store: Store, at_ms: int, tool: str, args: Any, status: str, *, context: str,
           summary: str = "", error: str | None = None, confirmed: bool | None = None,
           result: Any = None, request: str | None = None) -> int:
    """Append one audit row describing a call; returns its id."""
    if status not in STATUSES:
        raise ValueError(f"unknown tool-call status {status!r}")
    outcome = summary if status == "ok" else f"{status}: {error or summary}"
    content = f"{_short(tool, 80)}({_short(args)}) -> {_short(outcome, 240)}"
    meta = {"tool": _short(tool, 80), "args": _capped(args), "status": status,
            "context": context, "confirmed": confirmed, "error": _capped(error), "summary": _capped(summary),
            "result": result, "request": request}
    meta = json.loads(json.dumps(meta, ensure_ascii=False, default=str))
    return add_audit(store, at_ms, meta["tool"], status, context, content, meta)
