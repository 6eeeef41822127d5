"""SQL for HCC summaries and the per-hour event fingerprints that decide when one is stale."""

from __future__ import annotations

from dataclasses import dataclass

from egocli.store.db import Store

HOUR_MS = 3_600_000


@dataclass(frozen=True)
class Summary:
    """A stored summary of one chunk of the log."""

    level: str
    """hour, day or week."""
    start_ms: int
    """Chunk start, UTC epoch ms."""
    end_ms: int
    """Chunk end (exclusive)."""
    text: str
    """The summary."""
    model: str
    """Name of the summarizer that wrote it."""
    built_ms: int
    """When it was written."""
    events_hash: str
    """Fingerprint of the events it covers; a different fingerprint means stale."""
    event_count: int
    """How many events it covers."""
    vec: bytes | None = None
    """Its int8 embedding, when computed."""


def hour_fingerprints(store: Store, since_ms: int | None = None,
                      until_ms: int | None = None) -> dict[int, tuple[int, str]]:
    """{UTC hour start: (event count, fingerprint)} for every hour holding events in the range."""
    sql = ("SELECT start_ms / ? AS h, count(*), sum(id), max(id), sum(start_ms % 1000003)"
           " FROM events WHERE start_ms >= ? AND start_ms < ? GROUP BY h")
    lo = since_ms if since_ms is not None else -(2 ** 62)
    hi = until_ms if until_ms is not None else 2 ** 62
    out: dict[int, tuple[int, str]] = {}
    for hour, count, id_sum, id_max, start_sum in store.conn.execute(sql, (HOUR_MS, lo, hi)):
        out[hour * HOUR_MS] = (count, f"{count}:{id_sum}:{id_max}:{start_sum}")
    return out


def get_summaries(store: Store, level: str | None = None, since_ms: int | None = None,
                  until_ms: int | None = None) -> list[Summary]:
    """Summaries overlapping [since, until), oldest first (all levels when level is None)."""
    clauses: list[str] = ["1=1"]
    params: list[str | int] = []
    if level is not None:
        clauses.append("level = ?")
        params.append(level)
    if since_ms is not None:
        clauses.append("end_ms > ?")
        params.append(since_ms)
    if until_ms is not None:
        clauses.append("start_ms < ?")
        params.append(until_ms)
    sql = ("SELECT level, start_ms, end_ms, text, model, built_ms, events_hash, event_count, vec"
           f" FROM summaries WHERE {' AND '.join(clauses)} ORDER BY start_ms, level")
    return [Summary(*row) for row in store.conn.execute(sql, params)]


def put_summary(store: Store, summary: Summary) -> None:
    """Insert or replace the summary of (level, start)."""
    with store.transaction() as conn:
        conn.execute(
            "INSERT INTO summaries(level, start_ms, end_ms, text, model, built_ms, events_hash,"
            " event_count, vec) VALUES (?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(level, start_ms) DO UPDATE SET end_ms=excluded.end_ms, text=excluded.text,"
            " model=excluded.model, built_ms=excluded.built_ms, events_hash=excluded.events_hash,"
            " event_count=excluded.event_count, vec=excluded.vec",
            (summary.level, summary.start_ms, summary.end_ms, summary.text, summary.model,
             summary.built_ms, summary.events_hash, summary.event_count, summary.vec))


def delete_summaries(store: Store, level: str, starts: list[int]) -> int:
    """Drop summaries of chunks that no longer hold events; returns how many."""
    with store.transaction() as conn:
        count = 0
        for start in starts:
            count += conn.execute("DELETE FROM summaries WHERE level = ? AND start_ms = ?",
                                  (level, start)).rowcount
    return count


def summary_count(store: Store) -> dict[str, int]:
    """How many summaries per level."""
    return dict(store.conn.execute("SELECT level, count(*) FROM summaries GROUP BY level").fetchall())
