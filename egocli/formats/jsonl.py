"""JSONL events: one object per line with start (ISO time, or seconds from --start), content, ..."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from egocli.core.errors import InputError, UsageError
from egocli.formats import Cue
from egocli.core.timeutil import parse_time, to_ms

MAX_SECONDS = 1e11
"""Relative or epoch seconds beyond this are no time at all (year ~5000); the range check follows."""
MAX_LINE_CHARS = 2_000_000
"""Longest JSONL line (an event's text is capped at a million characters)."""


def _when(value: Any) -> tuple[int, bool]:
    if isinstance(value, bool) or value is None:
        raise ValueError("missing time")
    if isinstance(value, (int, float)):
        if not math.isfinite(value) or abs(value) > MAX_SECONDS:
            raise ValueError(f"{value!r} seconds is out of range")
        return int(round(value * 1000)), False
    return to_ms(parse_time(str(value))), True


def parse_line(line: str, where: str) -> Cue | None:
    """One JSON object -> a Cue (None for blank lines); errors name `where`."""
    if not line.strip():
        return None
    if len(line) > MAX_LINE_CHARS:
        raise InputError(f"{where}: line of {len(line)} characters (limit {MAX_LINE_CHARS})")
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as ex:
        raise InputError(f"{where}: not JSON: {ex.msg}") from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply") from None
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected a JSON object")
    content = obj.get("content", obj.get("text"))
    if not isinstance(content, str) or not content.strip():
        raise InputError(f"{where}: needs a non-empty 'content' (or 'text') string")
    try:
        start, absolute = _when(obj.get("start", obj.get("time")))
        end, end_abs = _when(obj["end"]) if obj.get("end") is not None else (start, absolute)
    except (ValueError, UsageError, OverflowError) as ex:
        raise InputError(f"{where}: bad or missing 'start'/'end' time: {ex}") from None
    if end_abs != absolute:
        raise InputError(f"{where}: 'start' and 'end' must both be times or both be seconds")
    modality = obj.get("modality", "text")
    if not isinstance(modality, str):
        raise InputError(f"{where}: 'modality' must be a string, not {type(modality).__name__}")
    found = obj.get("meta")
    meta: dict[str, Any] = found if isinstance(found, dict) else {}
    return Cue(start, max(end, start), content.strip(), modality=modality.strip(), absolute=absolute,
               meta=meta, where=where)


def read(text: str, path: Path) -> list[Cue]:
    """Cues of a JSONL file."""
    cues = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        cue = parse_line(line, f"{path}:{lineno}")
        if cue is not None:
            cues.append(cue)
    return cues
