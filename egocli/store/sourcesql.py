"""SQL about sources beyond the Store basics: which exist, their event counts, and the clean-up that
removes a finished source once its last event is forgotten (so its file can be imported again)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from egocli.store.cleanup import drop_emptied_sources

if TYPE_CHECKING:
    from egocli.store.db import Store


def has_source(store: Store, name_or_id: str) -> bool:
    """Whether a source with this name (or numeric id) exists."""
    ident = int(name_or_id) if name_or_id.isdigit() else -1
    return store.conn.execute("SELECT 1 FROM sources WHERE name = ? OR id = ? LIMIT 1",
                              [name_or_id, ident]).fetchone() is not None


def modalities(store: Store) -> set[str]:
    """Every modality the log holds events of."""
    return {r[0] for r in store.conn.execute("SELECT DISTINCT modality FROM events")}


def source_counts(store: Store) -> dict[int, int]:
    """Events per source id."""
    return dict(store.conn.execute(
        "SELECT source_id, count(*) FROM events WHERE source_id IS NOT NULL GROUP BY source_id").fetchall())


def forget_events(store: Store, ids: list[int]) -> int:
    """Delete these events for good (a finished source left empty goes too); returns how many went."""
    if not ids:
        return 0
    marks = ",".join("?" * len(ids))
    with store.transaction() as conn:
        touched = [r[0] for r in conn.execute(
            f"SELECT DISTINCT source_id FROM events WHERE id IN ({marks}) AND source_id IS NOT NULL", ids)]
        count = conn.execute(f"DELETE FROM events WHERE id IN ({marks})", ids).rowcount
        drop_emptied_sources(conn, touched)
    return count


def close_stale_live(store: Store) -> int:
    """Mark live sources still 'pending' as 'interrupted' (their server was killed, e.g. with -9, before
    it could finish them); call when a server starts. Returns how many."""
    with store.transaction() as conn:
        return conn.execute("UPDATE sources SET status = 'interrupted' "
                            "WHERE kind = 'live' AND status = 'pending'").rowcount


def drop_if_empty(store: Store, source_id: int) -> bool:
    """Delete a source no event points at (a live session that logged nothing); False when it has events."""
    with store.transaction() as conn:
        return conn.execute("DELETE FROM sources WHERE id = ? AND NOT EXISTS "
                            "(SELECT 1 FROM events WHERE source_id = ?)", [source_id, source_id]).rowcount > 0
