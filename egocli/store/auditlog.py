"""The tool-call audit table: what the assistant's tools were asked to do, kept apart from the events."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from egocli.store.records import clean_text
from egocli.store.schema import AUDIT_CAP

if TYPE_CHECKING:
    from egocli.store.db import Store

RATE_PER_S = 10
"""Audit rows a context may add in any one second; calls past that are counted on its newest row."""


@dataclass(frozen=True)
class AuditRow:
    """One audited tool call."""

    id: int
    """Row id (grows with time)."""
    at_ms: int
    """When the call was made."""
    tool: str
    """The tool named (cut to 80 characters)."""
    status: str
    """ok, error, rejected, declined or skipped."""
    context: str
    """Where the call came from: cli, serve or mcp."""
    content: str
    """One line: tool(args) -> outcome."""
    meta: dict[str, Any]
    """Arguments (capped), confirmation, error, summary, result and request."""
    repeats: int
    """Later calls from the same context folded into this row by the rate limit."""


def add_audit(store: Store, at_ms: int, tool: str, status: str, context: str, content: str,
              meta: dict[str, Any]) -> int:
    """Append one audit row (or, past RATE_PER_S rows a second from the context, count it on the newest);
    keeps the newest AUDIT_CAP rows. Returns the row's id."""
    with store.transaction() as conn:
        recent = conn.execute("SELECT id FROM tool_audit WHERE context = ? AND at_ms > ? ORDER BY id DESC",
                              [context, at_ms - 1000]).fetchall()
        if len(recent) >= RATE_PER_S:
            conn.execute("UPDATE tool_audit SET repeats = repeats + 1 WHERE id = ?", [recent[0][0]])
            return int(recent[0][0])
        row = conn.execute("INSERT INTO tool_audit (at_ms, tool, status, context, content, meta) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           [at_ms, clean_text(tool), status, clean_text(context), clean_text(content),
                            clean_text(json.dumps(meta, ensure_ascii=False))])
        conn.execute("DELETE FROM tool_audit WHERE id <= (SELECT id FROM tool_audit ORDER BY id DESC "
                     "LIMIT 1 OFFSET ?)", [AUDIT_CAP])
        return int(row.lastrowid or 0)


def audit_rows(store: Store) -> list[AuditRow]:
    """Every kept audit row, oldest first."""
    rows = store.db.execute("SELECT id, at_ms, tool, status, context, content, meta, repeats FROM tool_audit "
                            "ORDER BY id").fetchall()
    return [AuditRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7]) for r in rows]
