"""One validation layer for what users and clients type: times, days, ids, counts and numbers.

The CLI and every HTTP/WebSocket API call these, so a value out of range gives the same clear
`UsageError` (exit 2 in the CLI, 400 in the APIs) everywhere instead of an OverflowError, a
'year 0 is out of range' or a 'datatype mismatch' from deeper down. Each function names the
option or field it checks in its message."""

from __future__ import annotations

import json
import math
import re
from datetime import date, datetime, timedelta, timezone
from typing import Any

from egocli.core.errors import UsageError

INT64_MAX = 2**63 - 1
"""The largest integer SQLite stores (ids, counts, epoch milliseconds)."""

FIRST_DAY = date(1, 1, 2)
LAST_DAY = date(9999, 12, 30)
"""The days every time zone can show: a day off each end of datetime's range, so local-time
conversions (up to +-14 h) of any stored time never overflow."""

MIN_MS = int(datetime(1, 1, 2, tzinfo=timezone.utc).timestamp() * 1000)
MAX_MS = int(datetime(9999, 12, 31, tzinfo=timezone.utc).timestamp() * 1000) - 1
"""Epoch milliseconds from FIRST_DAY 00:00 UTC to the end of LAST_DAY (UTC)."""

MAX_DURATION_MS = MAX_MS - MIN_MS
"""The longest span two storable times can be apart."""

MAX_JSON_DEPTH = 32
"""How deeply a client's JSON may nest (arrays and objects) before it is refused unparsed."""

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INT = re.compile(r"^[+-]?\d+$")


def _name(name: str) -> str:
    return name if name.startswith("-") or " " in name else f"{name!r}"


def epoch_ms(value: Any, name: str) -> int:
    """An epoch-milliseconds value (int, integral float, or digits as text) within MIN_MS..MAX_MS."""
    if isinstance(value, bool) or value is None:
        raise UsageError(f"{_name(name)} must be a time in epoch milliseconds, not {value!r}")
    if isinstance(value, str):
        if not _INT.match(value.strip()) or len(value.strip()) > 24:
            raise UsageError(f"{_name(name)} must be a time in epoch milliseconds, not {value[:40]!r}")
        value = int(value.strip())
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise UsageError(f"{_name(name)} must be a whole number of milliseconds, not {value!r}")
        value = int(value)
    if not isinstance(value, int):
        raise UsageError(f"{_name(name)} must be a time in epoch milliseconds, not {type(value).__name__}")
    if not MIN_MS <= value <= MAX_MS:
        raise UsageError(f"{_name(name)} is out of range (times go from year 1 to 9999)")
    return value


def datetime_ms(dt: datetime, name: str) -> int:
    """Epoch milliseconds of a datetime (naive is local time), refused when outside years 1..9999."""
    try:
        aware = dt if dt.tzinfo else dt.astimezone()
        ms = int(round(aware.timestamp() * 1000))
    except (OverflowError, OSError, ValueError):
        raise UsageError(f"{_name(name)} is out of range (times go from year 1 to 9999)") from None
    if not MIN_MS <= ms <= MAX_MS:
        raise UsageError(f"{_name(name)} is out of range (times go from year 1 to 9999)")
    return ms


def shift_ms(base: int, delta: int, name: str) -> int:
    """base + delta milliseconds, refused when the result leaves the storable range."""
    out = base + delta
    if not MIN_MS <= out <= MAX_MS:
        raise UsageError(f"{_name(name)} is out of range (times go from year 1 to 9999)")
    return out


def day(text: Any, name: str) -> date:
    """A calendar day 'YYYY-MM-DD' within FIRST_DAY..LAST_DAY."""
    if not isinstance(text, str) or not _DAY.match(text.strip()):
        raise UsageError(f"{_name(name)} must be a day as YYYY-MM-DD, not {str(text)[:40]!r}")
    try:
        out = date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"{_name(name)} is not a calendar day: {text.strip()!r}") from None
    if not FIRST_DAY <= out <= LAST_DAY:
        raise UsageError(f"{_name(name)} is out of range (days go from {FIRST_DAY} to {LAST_DAY})")
    return out


def day_span(first: date, last: date, name: str, max_days: int = 366 * 10) -> int:
    """The number of days first..last inclusive, refused when reversed or longer than max_days."""
    days = (last - first).days + 1
    if days < 1:
        raise UsageError(f"{_name(name)}: the last day comes before the first")
    if days > max_days:
        raise UsageError(f"{_name(name)}: at most {max_days} days at once")
    return days


def day_start_ms(d: date) -> int:
    """Local midnight at the start of a day, as epoch milliseconds (d within FIRST_DAY..LAST_DAY)."""
    return datetime_ms(datetime(d.year, d.month, d.day), "day")


def day_end_ms(d: date) -> int:
    """Local midnight at the end of a day (exclusive), as epoch milliseconds."""
    if d >= LAST_DAY:
        return MAX_MS
    return datetime_ms(datetime(d.year, d.month, d.day) + timedelta(days=1), "day")


def row_id(value: Any, name: str) -> int:
    """A stored row's id: a whole number 1..INT64_MAX (int or digits as text)."""
    if isinstance(value, str):
        raw = value.strip()
        if not raw.isdigit() or len(raw) > 19:
            raise UsageError(f"{_name(name)} must be an id (a whole number from 1), not {value[:40]!r}")
        value = int(raw)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{_name(name)} must be an id (a whole number from 1), not {value!r}")
    if not 1 <= value <= INT64_MAX:
        raise UsageError(f"{_name(name)} must be an id from 1 to {INT64_MAX}")
    return value


def count(value: Any, name: str, low: int = 0, high: int = INT64_MAX) -> int:
    """A whole number low..high (int or digits as text), e.g. a limit or a context size."""
    if isinstance(value, str):
        raw = value.strip()
        if not _INT.match(raw) or len(raw) > 20:
            raise UsageError(f"{_name(name)} must be a whole number, not {value[:40]!r}")
        value = int(raw)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{_name(name)} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise UsageError(f"{_name(name)} must be from {low} to {high}, not {value}")
    return value


def finite(value: Any, name: str, low: float | None = None, high: float | None = None,
           above: float | None = None) -> float:
    """A finite number, optionally low <= value <= high (and > above); NaN and infinities refused."""
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise UsageError(f"{_name(name)} must be a number, not {value[:40]!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UsageError(f"{_name(name)} must be a number, not {value!r}")
    try:
        out = float(value)
    except OverflowError:
        raise UsageError(f"{_name(name)} is too large") from None
    if not math.isfinite(out):
        raise UsageError(f"{_name(name)} must be a finite number, not {value}")
    if above is not None and not out > above:
        raise UsageError(f"{_name(name)} must be above {above:g}, not {value}")
    if (low is not None and out < low) or (high is not None and out > high):
        span = f"from {low:g}" if high is None else f"up to {high:g}" if low is None else f"from {low:g} to {high:g}"
        raise UsageError(f"{_name(name)} must be {span}, not {value}")
    return out


def duration_ms(value: int, name: str) -> int:
    """A span in milliseconds no longer than storable times can be apart."""
    if not 0 <= value <= MAX_DURATION_MS:
        raise UsageError(f"{_name(name)} is longer than any stored time span (years 1..9999)")
    return value


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a number JSON allows")


def json_depth_ok(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests no deeper than max_depth, checked by a linear scan (no parsing,
    no recursion), so '[' * 15000 is refused before json.loads would recurse on it."""
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    depth, in_string, escaped = 0, False, False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > max_depth:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


def loads_json(text: str | bytes, name: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """json.loads for untrusted input: refuses nesting deeper than max_depth (before parsing)
    and the non-standard NaN/Infinity/-Infinity, which JSON.parse would later reject."""
    if not json_depth_ok(text, max_depth):
        raise UsageError(f"{_name(name)} nests deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise UsageError(f"{_name(name)} nests too deeply") from None
    except ValueError as ex:  # JSONDecodeError and the constants above
        raise UsageError(f"{_name(name)} is not valid JSON: {ex}") from None


def finite_json(value: Any, name: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """value unchanged when every number in it is finite and it nests no deeper than max_depth."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            raise UsageError(f"{_name(name)} nests deeper than {max_depth} levels")
        if isinstance(item, float) and not math.isfinite(item):
            raise UsageError(f"{_name(name)} holds {item}, which JSON does not allow (finite numbers only)")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return value
