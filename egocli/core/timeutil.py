"""Time handling: UTC milliseconds in the store, local time on screen, friendly inputs."""

from __future__ import annotations

import math
import re
from datetime import datetime, timezone

from egocli.core.errors import UsageError
from egocli.core.lexicon import lexicon

UNITS_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_UNIT_WORDS = {
    "ms": "ms", "millisecond": "ms", "milliseconds": "ms",
    "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
    "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "d": "d", "day": "d", "days": "d", "w": "w", "week": "w", "weeks": "w",
}
WEEKDAYS = list(lexicon().time["weekdays"])
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*([a-z]+)$", re.I)


def now_ms() -> int:
    """The current time as UTC epoch milliseconds."""
    return int(datetime.now(timezone.utc).timestamp() * 1000)


def to_ms(dt: datetime) -> int:
    """Epoch milliseconds of a datetime (naive values are taken as local time)."""
    if dt.tzinfo is None:
        dt = dt.astimezone()
    return int(round(dt.timestamp() * 1000))


_FIRST = datetime(1, 1, 2, tzinfo=timezone.utc)
_LAST = datetime(9999, 12, 30, tzinfo=timezone.utc)


def from_ms(ms: int) -> datetime:
    """A timezone-aware UTC datetime from epoch milliseconds (clamped to what datetime can show,
    so one damaged row cannot break every listing)."""
    try:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    except (OverflowError, OSError, ValueError):
        return _FIRST if ms < 0 else _LAST


def local(ms: int) -> datetime:
    """The local-time datetime of epoch milliseconds."""
    return from_ms(ms).astimezone()


def format_local(ms: int, with_ms: bool = False) -> str:
    """'YYYY-MM-DD HH:MM:SS' in local time."""
    dt = local(ms)
    text = dt.strftime("%Y-%m-%d %H:%M:%S")
    return f"{text}.{dt.microsecond // 1000:03d}" if with_ms else text


def iso_utc(ms: int) -> str:
    """ISO 8601 UTC with milliseconds, e.g. 2026-11-30T09:15:00.250Z."""
    return from_ms(ms).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def parse_clock(text: str) -> int:
    """A clock offset 'H:MM:SS.fff' / 'MM:SS' / 'HH:MM:SS,fff' into milliseconds."""
    parts = text.strip().replace(",", ".").split(":")
    if not 2 <= len(parts) <= 3 or not all(parts):
        raise ValueError(f"not a clock time: {text!r}")
    try:
        secs = float(parts[-1])
        mins = int(parts[-2])
        hours = int(parts[0]) if len(parts) == 3 else 0
    except ValueError as ex:
        raise ValueError(f"not a clock time: {text!r}") from ex
    if not math.isfinite(secs) or secs < 0 or mins < 0 or hours < 0:
        raise ValueError(f"not a clock time: {text!r}")
    if secs >= 60 or (len(parts) == 3 and mins >= 60):
        raise ValueError(f"not a clock time: {text!r} (minutes and seconds go up to 59)")
    return int(round(((hours * 60 + mins) * 60 + secs) * 1000))


def format_clock(ms: int, sep: str = ".") -> str:
    """Milliseconds as 'HH:MM:SS.fff' (sep ',' for SRT)."""
    ms = max(0, int(ms))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, milli = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{milli:03d}"


def short_clock(ms: int) -> str:
    """An offset as few digits as reads clearly: '6:40', '31:17', '1:02:03' (seconds truncated).

    Digits are one token each for the Qwen tokenizer, so '00:06:40' costs twice what '6:40' does."""
    secs = max(0, int(ms)) // 1000
    h, rest = divmod(secs, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def parse_duration(text: str) -> int:
    """A duration like '30d', '2h', '90 minutes' into milliseconds."""
    m = _DURATION.match(text.strip())
    unit = _UNIT_WORDS.get(m.group(2).lower()) if m else None
    if not m or unit is None:
        raise UsageError(f"not a duration: {text!r} (try 30d, 12h, 90m)")
    from egocli.core import bounds

    amount = bounds.finite(m.group(1), f"the duration {text.strip()!r}")
    return bounds.duration_ms(int(amount * UNITS_MS[unit]), f"the duration {text.strip()!r}")


_ISO_START = re.compile(r"^\d{4}-\d{2}")


def parse_time(text: str, now: datetime | None = None) -> datetime:
    """Parse ISO 8601 or a phrase people type ('14:05', 'yesterday 15:00', '2h ago', 'an hour ago',
    'this morning', 'tuesday at 3', 'last weekend', 'noon', 'nov 28') into an aware datetime; a
    phrase naming a period gives its start. Naive input is local time."""
    from egocli.core.timephrases import parse_phrase

    now = (now or datetime.now(timezone.utc)).astimezone()
    raw = text.strip()
    if not raw:
        raise UsageError("empty time")
    if _ISO_START.match(raw):
        try:
            dt = datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            raise UsageError(f"cannot read the time {text!r} (ISO 8601 is YYYY-MM-DDTHH:MM)") from None
        try:
            return dt if dt.tzinfo else dt.astimezone()
        except (OverflowError, ValueError):  # 0001-01-01 in a zone east of UTC is year 0
            raise UsageError(f"{raw!r} is out of range (times go from year 1 to 9999)") from None
    try:
        found = parse_phrase(raw, now)
    except (OverflowError, ValueError):  # '9999999999999 days ago' and the like
        raise UsageError(f"{raw!r} is further back than a date can go") from None
    if found is None:
        raise UsageError(f"cannot read the time {text!r} (try 2026-11-30T14:05, 14:05, '2h ago', "
                         "'this morning', 'yesterday 15:00', 'tuesday at 3')")
    return found


def parse_time_ms(text: str | None, now: datetime | None = None) -> int | None:
    """parse_time as epoch milliseconds within years 1..9999 (bounds.MIN_MS..MAX_MS); None passes through."""
    from egocli.core import bounds

    return None if text is None else bounds.datetime_ms(parse_time(text, now), f"the time {text.strip()!r}")
