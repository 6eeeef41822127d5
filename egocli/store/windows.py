"""SQL for T-CoT windows (events overlapping a span, even samples, recent events) and FTS term counts."""

from __future__ import annotations

from typing import Any
from egocli.store.db import _EVENT_COLS, _FROM, Store
from egocli.store.records import Event

LOOKBACK_MS = 3 * 3_600_000
"""Events longer than this that start before a window are not found by overlapping()."""


def overlapping(store: Store, start_ms: int, end_ms: int, source_id: int | None = None,
                limit: int = 400) -> list[Event]:
    """Events whose [start, end] overlaps [start_ms, end_ms), in time order."""
    sql = (f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE e.start_ms >= ? AND e.start_ms < ?"
           " AND e.end_ms >= ?")
    params: list[Any] = [start_ms - LOOKBACK_MS, end_ms, start_ms]
    if source_id is not None:
        sql += " AND e.source_id = ?"
        params.append(source_id)
    sql += " ORDER BY e.start_ms, e.id LIMIT ?"
    params.append(limit)
    return [Event.from_row(r) for r in store.db.query(sql, params)]


def sample_evenly(store: Store, start_ms: int | None, end_ms: int | None, source_id: int | None,
                  count: int) -> list[Event]:
    """About `count` events spread evenly over a range, in time order."""
    lo = start_ms if start_ms is not None else -(2 ** 62)
    hi = end_ms if end_ms is not None else 2 ** 62
    where = "e.start_ms >= ? AND e.start_ms < ?" + (" AND e.source_id = ?" if source_id is not None else "")
    params: list[Any] = [lo, hi] + ([source_id] if source_id is not None else [])
    total = store.conn.execute(f"SELECT count(*) FROM events e WHERE {where}", params).fetchone()[0]
    if total == 0 or count <= 0:
        return []
    step = max(1, total // count)
    sql = (f"SELECT * FROM (SELECT {_EVENT_COLS}, row_number() OVER (ORDER BY e.start_ms, e.id) AS rn"
           f" FROM {_FROM} WHERE {where}) WHERE (rn - 1) % ? = 0 LIMIT ?")
    return [Event.from_row(r) for r in store.db.query(sql, [*params, step, count])]


def recent(store: Store, until_ms: int | None, count: int) -> list[Event]:
    """The `count` most recent events before until_ms, in time order (the stuffing baseline)."""
    hi = until_ms if until_ms is not None else 2 ** 62
    rows = store.db.query(f"SELECT {_EVENT_COLS} FROM {_FROM} WHERE e.start_ms < ?"
                          " ORDER BY e.start_ms DESC, e.id DESC LIMIT ?", [hi, count])
    return list(reversed([Event.from_row(r) for r in rows]))


def match_count(store: Store, term: str, cap: int) -> int:
    """How many events contain a word (FTS5, stemmed), counting at most `cap`."""
    quoted = '"' + term.replace('"', "") + '"'
    sql = "SELECT count(*) FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ? LIMIT ?)"
    return int(store.conn.execute(sql, (quoted, cap)).fetchone()[0])


def scoped_search(store: Store, query: str, since_ms: int | None, until_ms: int | None,
                  source_id: int | None, limit: int, narrow_ids: bool = False) -> list[tuple[Event, float]]:
    """FTS5 BM25 search inside a time range; narrow_ids first limits the match to the range's id span
    (worth it for common words in a short range of a huge log)."""
    lo = since_ms if since_ms is not None else -(2 ** 62)
    hi = until_ms if until_ms is not None else 2 ** 62
    span = (-(2 ** 62), 2 ** 62)
    if narrow_ids and since_ms is not None and until_ms is not None:
        span = store.conn.execute("SELECT min(id), max(id) FROM events WHERE start_ms >= ? AND start_ms < ?",
                                  (lo, hi)).fetchone()
        if span[0] is None:
            return []
    sql = (f"SELECT {_EVENT_COLS}, bm25(events_fts) AS score FROM events_fts"
           " JOIN events e ON e.id = events_fts.rowid LEFT JOIN sources s ON s.id = e.source_id"
           " WHERE events_fts MATCH ? AND events_fts.rowid >= ? AND events_fts.rowid <= ?"
           " AND e.start_ms >= ? AND e.start_ms < ?")
    params: list[Any] = [query, span[0], span[1], lo, hi]
    if source_id is not None:
        sql += " AND e.source_id = ?"
        params.append(source_id)
    sql += " ORDER BY score LIMIT ?"
    params.append(limit)
    return [(Event.from_row(r), r["score"]) for r in store.db.query(sql, params)]
