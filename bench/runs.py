"""What the resumable accuracy benches share: rows already written, a stop time, Wilson intervals."""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from pathlib import Path


def done(out: Path, group: str) -> set[tuple[str, str, str, str]]:
    """(version, config, row[group], id) of the rows already written to a JSONL file."""
    if not out.exists():
        return set()
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return {(r["version"], r["config"], r[group], r["id"]) for r in rows}


def deadline(text: str | None) -> float | None:
    """Epoch seconds of today's UTC HH:MM, or None."""
    if not text:
        return None
    hh, mm = (int(x) for x in text.split(":"))
    return datetime.now(timezone.utc).replace(hour=hh, minute=mm, second=0, microsecond=0).timestamp()


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
