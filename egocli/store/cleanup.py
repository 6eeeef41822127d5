"""Clean-up inside a deleting transaction, shared by Store.forget and the source queries."""

from __future__ import annotations

import sqlite3


def drop_emptied_sources(conn: sqlite3.Connection, source_ids: list[int]) -> None:
    """Inside the caller's transaction: delete the finished sources among these that have no events left
    (an unfinished ingest or a running live session keeps its row: it is still writing to it)."""
    for sid in source_ids:
        conn.execute("DELETE FROM sources WHERE id = ? AND status = 'done'"
                     " AND NOT EXISTS (SELECT 1 FROM events WHERE source_id = ?)", [sid, sid])
