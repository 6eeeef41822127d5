"""SQL for retention rules, expiry of old events, and small privacy settings."""

from __future__ import annotations

from dataclasses import dataclass

from egocli.store.db import Store
from egocli.core.timeutil import now_ms

ALL = "*"
"""The modality name of a rule that applies to every modality."""


@dataclass(frozen=True)
class RetentionRule:
    """Events of a modality older than max_age_ms are removed."""

    modality: str
    """A modality, or '*' for all."""
    max_age_ms: int
    """Maximum age, measured from an event's start."""
    set_ms: int
    """When the rule was set."""


@dataclass(frozen=True)
class Expired:
    """What one expiry pass removed."""

    events: int
    """Events deleted (with their search rows and vectors)."""
    summaries: int
    """Summaries dropped because they covered deleted events."""
    media: list[str]
    """Media paths no longer referenced by any event (the caller deletes the files)."""


def set_rule(store: Store, modality: str, max_age_ms: int) -> RetentionRule:
    """Create or replace the rule for a modality."""
    rule = RetentionRule(modality, max_age_ms, now_ms())
    with store.transaction() as conn:
        conn.execute("INSERT INTO retention_rules(modality, max_age_ms, set_ms) VALUES (?,?,?)"
                     " ON CONFLICT(modality) DO UPDATE SET max_age_ms=excluded.max_age_ms,"
                     " set_ms=excluded.set_ms", (rule.modality, rule.max_age_ms, rule.set_ms))
    return rule


def clear_rule(store: Store, modality: str) -> bool:
    """Remove the rule for a modality; False when there was none."""
    with store.transaction() as conn:
        return conn.execute("DELETE FROM retention_rules WHERE modality = ?", (modality,)).rowcount > 0


def rules(store: Store) -> list[RetentionRule]:
    """All rules, '*' first."""
    rows = store.conn.execute("SELECT modality, max_age_ms, set_ms FROM retention_rules"
                              " ORDER BY modality != '*', modality").fetchall()
    return [RetentionRule(*row) for row in rows]


def _where(rule_set: list[RetentionRule], at_ms: int) -> tuple[str, list[object]]:
    """WHERE clause over events matching any rule's expiry (an event's own-modality rule wins)."""
    named = [r for r in rule_set if r.modality != ALL]
    clauses, params = [], []
    for r in named:
        clauses.append("(modality = ? AND start_ms < ?)")
        params += [r.modality, at_ms - r.max_age_ms]
    for r in rule_set:
        if r.modality == ALL:
            skip = f" AND modality NOT IN ({','.join('?' * len(named))})" if named else ""
            clauses.append(f"(start_ms < ?{skip})")
            params += [at_ms - r.max_age_ms, *(n.modality for n in named)]
    return " OR ".join(clauses) or "0", params


def expired_count(store: Store, rule_set: list[RetentionRule], at_ms: int) -> int:
    """How many events the rules would remove at time at_ms."""
    where, params = _where(rule_set, at_ms)
    return int(store.conn.execute(f"SELECT count(*) FROM events WHERE {where}", params).fetchone()[0])


def expire(store: Store, rule_set: list[RetentionRule], at_ms: int) -> Expired:
    """Delete events expired at at_ms, and every summary covering them, in one transaction."""
    where, params = _where(rule_set, at_ms)
    if store.conn.execute(f"SELECT 1 FROM events WHERE {where} LIMIT 1", params).fetchone() is None:
        return Expired(0, 0, [])  # the common case costs one indexed read and takes no write lock
    if store.readonly:
        return Expired(0, 0, [])  # a read-only log is shown as it is; expiry waits for a writable open
    with store.transaction() as conn:
        media = [r[0] for r in conn.execute(
            f"SELECT DISTINCT media_path FROM events WHERE ({where}) AND media_path IS NOT NULL", params)]
        before = conn.execute("SELECT count(*) FROM summaries").fetchone()[0]
        count = conn.execute(f"DELETE FROM events WHERE {where}", params).rowcount
        after = conn.execute("SELECT count(*) FROM summaries").fetchone()[0]
        still = {r[0] for r in conn.execute(
            "SELECT DISTINCT media_path FROM events WHERE media_path IS NOT NULL")}
    if count:
        store.scrub()  # expired words must not stay readable in the file
    return Expired(count, before - after, [m for m in media if m not in still])


def get_setting(store: Store, key: str) -> str | None:
    """A privacy setting (e.g. the media salt), or None."""
    row = store.conn.execute("SELECT value FROM privacy_settings WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def put_setting(store: Store, key: str, value: str) -> None:
    """Set a privacy setting."""
    with store.transaction() as conn:
        conn.execute("INSERT INTO privacy_settings(key, value) VALUES (?, ?)"
                     " ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


def age_counts(store: Store, at_ms: int, bounds_ms: list[int]) -> dict[str, list[int]]:
    """{modality: [events younger than bounds_ms[0], ..., older than the last bound]}."""
    cases = " ".join(f"WHEN start_ms >= {at_ms - b} THEN {i}" for i, b in enumerate(bounds_ms))
    sql = (f"SELECT modality, CASE {cases} ELSE {len(bounds_ms)} END AS bucket, count(*)"
           " FROM events GROUP BY modality, bucket")
    out: dict[str, list[int]] = {}
    for modality, bucket, n in store.conn.execute(sql):
        out.setdefault(modality, [0] * (len(bounds_ms) + 1))[bucket] = n
    return out
