"""The audit trail: every tool call (arguments, result, confirmation, error) becomes a `tool` event."""

from __future__ import annotations

import json
from typing import Any

from egocli.store import NewEvent, Store

MODALITY = "tool"
STATUSES = ("ok", "error", "rejected", "declined", "skipped")
ARGS_LIMIT = 4000
"""Characters of a call's arguments kept in its audit event (a 5 MB argument adds 4 KB, not 10 MB)."""


def _source(store: Store) -> int:
    src = store.find_source(kind="assistant", name="assistant")
    return src.id if src else store.add_source("assistant", "assistant", status="done").id


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
    """Append one `tool` event describing a call; returns its id."""
    if status not in STATUSES:
        raise ValueError(f"unknown tool-call status {status!r}")
    outcome = summary if status == "ok" else f"{status}: {error or summary}"
    content = f"{_short(tool, 80)}({_short(args)}) -> {_short(outcome, 240)}"
    meta = {"tool": _short(tool, 80), "args": _capped(args), "status": status,
            "context": context, "confirmed": confirmed, "error": _capped(error), "summary": _capped(summary),
            "result": result, "request": request}
    meta = json.loads(json.dumps(meta, ensure_ascii=False, default=str))
    with store.transaction():
        return store.add_events([NewEvent(at_ms, at_ms, MODALITY, content, meta=meta)], source_id=_source(store))[0]
