"""SQL for event embeddings: int8-quantised L2-normalised vectors, searched with numpy in scope."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from egocli.store.db import Store

SCALE = 127.0


def quantise(matrix: np.ndarray) -> list[bytes]:
    """Rows of an L2-normalised float matrix as int8 blobs."""
    q = np.clip(np.rint(np.asarray(matrix, dtype=np.float32) * SCALE), -127, 127).astype(np.int8)
    return [row.tobytes() for row in q]


def dequantise(blobs: Sequence[bytes], dim: int) -> np.ndarray:
    """int8 blobs back into a float32 matrix (len(blobs), dim)."""
    if not blobs:
        return np.zeros((0, dim), dtype=np.float32)
    raw = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), dim)
    return raw.astype(np.float32) / SCALE


def missing(store: Store, model: str, since_ms: int | None = None, until_ms: int | None = None,
            limit: int = 10_000, count_first: int | None = 50_000) -> list[tuple[int, str]]:
    """(event id, content) of events in range without a vector from this model, newest first.

    A range of more than `count_first` events is first checked by counting (events by their time index,
    vectors by the covering event index): when every event has its vector, as after `ingest` or `import`,
    that costs ~0.1 s on a million events instead of ~0.35 s for the anti-join. None skips the check
    (a caller fetching batch after batch needs it once, not per batch)."""
    lo = since_ms if since_ms is not None else -(2 ** 62)
    hi = until_ms if until_ms is not None else 2 ** 62
    if count_first is not None:
        n_events = store.conn.execute("SELECT count(*) FROM events WHERE start_ms >= ? AND start_ms < ?",
                                      (lo, hi)).fetchone()[0]
        if n_events == 0:
            return []
    if count_first is not None and n_events > count_first:
        have = store.conn.execute("SELECT count(*) FROM event_vectors INDEXED BY event_vectors_event"
                                  " WHERE model = ? AND start_ms >= ? AND start_ms < ?", (model, lo, hi))
        if have.fetchone()[0] >= n_events:  # vectors die with their events (ON DELETE CASCADE)
            return []
    sql = ("SELECT e.id, e.content FROM events e WHERE e.start_ms >= ? AND e.start_ms < ? AND NOT EXISTS"
           " (SELECT 1 FROM event_vectors v WHERE v.event_id = e.id AND v.model = ?)"
           " ORDER BY e.start_ms DESC LIMIT ?")
    return [(r[0], r[1]) for r in store.conn.execute(sql, (lo, hi, model, limit))]


def put(store: Store, model: str, ids: Sequence[int], matrix: np.ndarray) -> None:
    """Store (or replace) the vectors of these events."""
    blobs = dict(zip(ids, quantise(matrix)))
    marks = ",".join("?" * len(blobs))
    rows = store.conn.execute(f"SELECT id, start_ms, source_id FROM events WHERE id IN ({marks})",
                              list(blobs)).fetchall()
    put_blobs(store, [(model, start, event_id, source, blobs[event_id]) for event_id, start, source in rows])


def put_blobs(store: Store, rows: Sequence[tuple[str, int, int, int | None, bytes]]) -> None:
    """Fast path: (model, event start_ms, event id, source id, int8 blob) rows."""
    with store.transaction() as conn:
        conn.executemany("INSERT OR REPLACE INTO event_vectors(model, start_ms, event_id, source_id, vec)"
                         " VALUES (?,?,?,?,?)", rows)


def in_range(store: Store, model: str, dim: int, since_ms: int | None, until_ms: int | None,
             source_id: int | None = None, limit: int = 50_000) -> tuple[list[int], np.ndarray]:
    """Ids and vectors of the newest `limit` events in range (optionally one source): one clustered scan."""
    lo = since_ms if since_ms is not None else -(2 ** 62)
    hi = until_ms if until_ms is not None else 2 ** 62
    sql = "SELECT event_id, vec FROM event_vectors WHERE model = ? AND start_ms >= ? AND start_ms < ?"
    params: list[Any] = [model, lo, hi]
    if source_id is not None:
        sql += " AND source_id = ?"
        params.append(source_id)
    sql += " ORDER BY start_ms DESC LIMIT ?"
    params.append(limit)
    rows = store.conn.execute(sql, params).fetchall()
    return [r[0] for r in rows], dequantise([r[1] for r in rows], dim)


def of_events(store: Store, model: str, dim: int, ids: Sequence[int]) -> dict[int, np.ndarray]:
    """The stored vectors of these events (those that have one), by event id."""
    out: dict[int, np.ndarray] = {}
    ids = list(dict.fromkeys(ids))
    for at in range(0, len(ids), 500):
        chunk = ids[at:at + 500]
        rows = store.conn.execute(f"SELECT event_id, vec FROM event_vectors INDEXED BY event_vectors_event"
                                  f" WHERE model = ? AND event_id IN "
                                  f"({','.join('?' * len(chunk))})", [model, *chunk]).fetchall()
        out.update(zip((r[0] for r in rows), dequantise([r[1] for r in rows], dim)))
    return out


def count(store: Store, model: str | None = None) -> int:
    """How many stored vectors (of one model, or all)."""
    if model is None:
        return int(store.conn.execute("SELECT count(*) FROM event_vectors").fetchone()[0])
    return int(store.conn.execute("SELECT count(*) FROM event_vectors WHERE model = ?", (model,)).fetchone()[0])
