"""Retention: how long each modality is kept, and removing what has expired (events, their media,
and every summary that covered them)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from egocli.core.bounds import duration_ms
from egocli.core.errors import UsageError
from egocli.store import Store
from egocli.store import retentionsql as sql
from egocli.store.retentionsql import ALL, Expired, RetentionRule
from egocli.core.timeutil import now_ms

log = logging.getLogger(__name__)
_UNITS = {"h": 3_600_000, "d": 86_400_000, "w": 7 * 86_400_000, "m": 30 * 86_400_000, "y": 365 * 86_400_000}


def parse_age(text: str) -> int:
    """'12h', '30d', '6w', '3m' (30-day months), '1y' -> milliseconds."""
    m = re.fullmatch(r"\s*(\d+)\s*([hdwmy])\s*", text.lower())
    if not m or int(m.group(1)) == 0:
        raise UsageError(f"not an age: {text!r} (use e.g. 12h, 30d, 6w, 3m, 1y)")
    return duration_ms(int(m.group(1)) * _UNITS[m.group(2)], f"the age {text.strip()!r}")


def format_age(ms: int) -> str:
    """Milliseconds as the largest whole unit: 2592000000 -> '30d'."""
    for unit in ("y", "w", "d", "h"):
        if ms % _UNITS[unit] == 0:
            return f"{ms // _UNITS[unit]}{unit}"
    return f"{ms / _UNITS['h']:.1f}h"


def set_rule(store: Store, age: str, modality: str | None = None) -> RetentionRule:
    """Keep events of a modality (all when None) for at most age."""
    return sql.set_rule(store, modality or ALL, parse_age(age))


def would_expire(store: Store, age: str, modality: str | None = None, at_ms: int | None = None) -> int:
    """How many events a rule keeping `age` (of one modality, all when None) would remove now."""
    from egocli.store import EventFilter

    until = (now_ms() if at_ms is None else at_ms) - parse_age(age)
    return store.count(EventFilter(until_ms=until, modalities=(modality,) if modality else ()))


def clear_rule(store: Store, modality: str | None = None) -> bool:
    """Remove a modality's rule (the '*' rule when None); False when there was none."""
    return sql.clear_rule(store, modality or ALL)


def rules(store: Store) -> list[RetentionRule]:
    """The rules in force."""
    return sql.rules(store)


def apply(store: Store, media_dir: Path, at_ms: int | None = None) -> Expired:
    """Remove expired events, their summaries and their unreferenced media files."""
    rule_set = sql.rules(store)
    if not rule_set:
        return Expired(0, 0, [])
    result = sql.expire(store, rule_set, now_ms() if at_ms is None else at_ms)
    for rel in result.media:
        path = Path(rel) if Path(rel).is_absolute() else media_dir / rel
        if path.is_file() and media_dir.resolve() in path.resolve().parents:
            path.unlink()
    if result.events:
        log.info("retention removed %d events, %d summaries, %d media files",
                 result.events, result.summaries, len(result.media))
    return result


def pending(store: Store, at_ms: int | None = None) -> int:
    """How many events `apply` would remove now."""
    rule_set = sql.rules(store)
    return sql.expired_count(store, rule_set, now_ms() if at_ms is None else at_ms) if rule_set else 0
