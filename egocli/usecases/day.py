"""A day of the log as a digest: its hours, what each held, and what stood out, without a model.

`day_digest(store, day)` reads the day's events once and tells each hour from its salient events
(`reasoning.digest.salient`, the same choice `ask` makes for "how was my day?"), beside the hour and day
summaries `egocli summarize` built (when it has). With no day summary, the digest line is extractive: a few
sentences from the day's salient events. Nothing here loads a model, so a day of 5,000 events is told in
well under a second.

`DayDigest.to_json()` is the document `egocli day --json` prints and the timeline page's diary view reads.
Its shape (stable; fields are only ever added):

    {
      "day": "2026-11-28",                  # the local calendar day
      "start_ms": 1795824000000,            # its bounds, UTC epoch ms, [start, end)
      "end_ms": 1795910400000,
      "events": 26,                         # events that day (read at most MAX_EVENTS)
      "truncated": false,                   # true when the day held more than MAX_EVENTS
      "counts": {"visual": 20, "speech": 6},  # events per modality, most first
      "digest": "Okay, lunch is done. ...", # the day in a line: its summary, else extractive; "" for no events
      "digest_from": "extractive",          # "summary" | "extractive" | "none" (nothing to tell)
      "summary": null,                      # the day summary: {"text", "model", "stale"} or null
      "hours": [                            # hours holding events, oldest first
        {"start_ms": ..., "end_ms": ...,    # the hour, UTC epoch ms (the buckets summaries use)
         "label": "13:00-14:00",            # local clock times
         "events": 6, "counts": {"speech": 2, "visual": 4},
         "summary": {"text": "...", "model": "extractive", "stale": false} | null,
         "salient": [                       # what the hour held, in time order
           {"id": 1, "start_ms": ..., "end_ms": ..., "time": "13:00", "local": "2026-11-28 13:00:00",
            "modality": "speech", "content": "Okay, lunch is done. ...", "media": false}]}]
    }

`media` says the event names a kept frame (`/api/timeline/media/<id>` on the timeline page, `log show`);
a recording an event names (speech from a video) is no frame.
A day with no events is an empty digest (events 0, hours []), not an error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from datetime import date, datetime
from typing import Any

from egocli.core import bounds
from egocli.core.errors import UsageError
from egocli.core.timeutil import format_local, local, parse_time
from egocli.reasoning import hcc
from egocli.reasoning.digest import salient
from egocli.store import Event, EventFilter, Store
from egocli.store import summaries as sql

MAX_EVENTS = 50_000
"""Events of one day read at most; a denser day is told from its first MAX_EVENTS (`truncated` says so)."""
PER_HOUR = 6
"""Salient events told per hour."""
DIGEST_SENTENCES = 4
"""Sentences of an extractive day digest."""
SENTENCE_CHARS = 160
"""An extractive sentence is clipped to this many characters."""


@dataclass(frozen=True)
class Moment:
    """One salient event as the digest tells it."""

    id: int
    """The event's id (`egocli log show ID`)."""
    start_ms: int
    """Start, UTC epoch ms."""
    end_ms: int
    """End, UTC epoch ms."""
    modality: str
    """visual, speech, text, note, tool, ..."""
    content: str
    """The event's text, whole."""
    media: bool
    """Whether the event names a kept frame."""

    def to_json(self) -> dict[str, Any]:
        """The event as the digest's JSON has it (local clock time added)."""
        return {"id": self.id, "start_ms": self.start_ms, "end_ms": self.end_ms,
                "time": local(self.start_ms).strftime("%H:%M"), "local": format_local(self.start_ms),
                "modality": self.modality, "content": self.content, "media": self.media}


@dataclass(frozen=True)
class Told:
    """A summary `egocli summarize` built for an hour or the day."""

    text: str
    """The summary."""
    model: str
    """Who wrote it: a model's name, or 'extractive' (no model)."""
    stale: bool
    """Whether the events it covers changed since it was built (`egocli summarize` rebuilds it)."""

    def to_json(self) -> dict[str, Any]:
        """{"text", "model", "stale"}."""
        return {"text": self.text, "model": self.model, "stale": self.stale}


@dataclass(frozen=True)
class Hour:
    """One hour of the day that holds events."""

    start_ms: int
    """Start, UTC epoch ms (a whole UTC hour: the bucket hour summaries use)."""
    end_ms: int
    """End (exclusive)."""
    events: int
    """Events starting in the hour."""
    counts: dict[str, int]
    """Events per modality, most first."""
    summary: Told | None
    """The hour's summary, when built."""
    salient: tuple[Moment, ...]
    """What the hour held that tells it, in time order."""

    @property
    def label(self) -> str:
        """'14:00-15:00' in local time."""
        return f"{local(self.start_ms).strftime('%H:%M')}-{local(self.end_ms).strftime('%H:%M')}"

    def to_json(self) -> dict[str, Any]:
        """The hour as the digest's JSON has it."""
        return {"start_ms": self.start_ms, "end_ms": self.end_ms, "label": self.label, "events": self.events,
                "counts": self.counts, "summary": self.summary.to_json() if self.summary else None,
                "salient": [m.to_json() for m in self.salient]}


@dataclass(frozen=True)
class DayDigest:
    """A local calendar day of the log, told."""

    day: date
    """The day."""
    start_ms: int
    """Local midnight at its start, UTC epoch ms."""
    end_ms: int
    """Local midnight at its end (exclusive)."""
    events: int
    """Events that day (at most MAX_EVENTS are read)."""
    truncated: bool
    """Whether the day held more than MAX_EVENTS events (the rest are not told)."""
    counts: dict[str, int]
    """Events per modality, most first."""
    digest: str
    """The day in a line: its summary when built, else a few sentences from its salient events."""
    digest_from: str
    """'summary', 'extractive', or 'none' (nothing to tell: no events, or only system ones)."""
    summary: Told | None
    """The day summary, when built."""
    hours: tuple[Hour, ...]
    """The hours holding events, oldest first."""

    def to_json(self) -> dict[str, Any]:
        """The document described in this module's docstring."""
        return {"day": self.day.isoformat(), "start_ms": self.start_ms, "end_ms": self.end_ms,
                "events": self.events, "truncated": self.truncated, "counts": self.counts,
                "digest": self.digest, "digest_from": self.digest_from,
                "summary": self.summary.to_json() if self.summary else None,
                "hours": [h.to_json() for h in self.hours]}


def day_digest(store: Store, day: date, per_hour: int = PER_HOUR, max_events: int = MAX_EVENTS) -> DayDigest:
    """The digest of a local day: counts, its hours with their salient events and summaries, a digest line."""
    lo, hi = bounds.day_start_ms(day), bounds.day_end_ms(day)
    events = list(store.events(EventFilter(since_ms=lo, until_ms=hi, limit=max_events + 1)))
    truncated = len(events) > max_events
    events = events[:max_events]
    told = _summaries(store, lo, hi)
    by_hour: dict[int, list[Event]] = {}
    for ev in events:
        by_hour.setdefault(ev.start_ms // sql.HOUR_MS * sql.HOUR_MS, []).append(ev)
    picked = {start: salient(group, per_hour) for start, group in sorted(by_hour.items())}
    hours = tuple(Hour(start, start + sql.HOUR_MS, len(by_hour[start]), _counts(by_hour[start]),
                       told.get(("hour", start)), tuple(_moment(e) for e in shown))
                  for start, shown in picked.items())
    summary = told.get(("day", lo))
    if summary is not None and summary.text.strip():
        line, origin = summary.text.strip(), "summary"
    else:  # from what the hours showed: the day's scenery is already left out, and it is ~100 events, not 5,000
        line = extractive_line([e for shown in picked.values() for e in shown])
        origin = "extractive" if line else "none"
    return DayDigest(day, lo, hi, len(events), truncated, _counts(events), line, origin, summary, hours)


def extractive_line(events: list[Event], sentences: int = DIGEST_SENTENCES) -> str:
    """A few sentences from the salient events of a span, in time order ('' when nothing tells it)."""
    out = []
    for ev in salient(events, sentences):
        text = " ".join(ev.content.split())
        if len(text) > SENTENCE_CHARS:
            text = text[:SENTENCE_CHARS].rsplit(" ", 1)[0] + "..."
        out.append(text if text.endswith((".", "!", "?", "...")) else text + ".")
    return " ".join(out)


def _summaries(store: Store, lo: int, hi: int) -> dict[tuple[str, int], Told]:
    """The day's hour and day summaries by (level, start), each marked stale when its events changed."""
    now = {(c.level, c.start_ms): c.events_hash for c in hcc.current_chunks(store, lo, hi) if c.level != "week"}
    out = {}
    for s in sql.get_summaries(store, None, lo, hi):
        if s.level in ("hour", "day") and lo <= s.start_ms < hi:
            out[(s.level, s.start_ms)] = Told(s.text, s.model, now.get((s.level, s.start_ms)) != s.events_hash)
    return out


def _counts(events: list[Event]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for ev in events:
        counts[ev.modality] = counts.get(ev.modality, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _moment(ev: Event) -> Moment:
    return Moment(ev.id, ev.start_ms, ev.end_ms, ev.modality, ev.content, bool(frame_type(ev.media_path)))


def parse_day(text: str, now: datetime | None = None) -> date:
    """The day a text names: YYYY-MM-DD, 'today', 'yesterday', a weekday ('monday': the latest), 'nov 28',
    'last friday'; UsageError (exit 2) for anything else or a day outside years 1..9999."""
    raw = text.strip()
    if raw[:4].isdigit() and raw[4:5] == "-":
        return bounds.day(raw, "DAY")
    try:
        found = parse_time(raw, now).date()
    except UsageError:
        raise UsageError(f"cannot read the day {text!r} (try 2026-11-28, today, yesterday, monday, "
                         "'last friday', 'nov 28')") from None
    if not bounds.FIRST_DAY <= found <= bounds.LAST_DAY:
        raise UsageError(f"DAY is out of range (days go from {bounds.FIRST_DAY} to {bounds.LAST_DAY})")
    return found


def log_days(store: Store) -> tuple[date, date] | None:
    """The local days of the log's first and latest events, or None for an empty log."""
    first = next(iter(store.events(EventFilter(limit=1))), None)
    last = next(iter(store.events(EventFilter(limit=1), newest_first=True)), None)
    if first is None or last is None:
        return None
    return local(first.start_ms).date(), local(last.start_ms).date()


FRAME_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}
"""Kept frames, by suffix (an encrypted log's NAME.jpg.enc counts as its .jpg)."""


def frame_type(media_path: str | None) -> str | None:
    """The MIME type of a kept frame in the media folder; None for no media, or a recording it names."""
    from egocli.privacy.crypto import SUFFIX

    if not media_path or Path(media_path).is_absolute():
        return None
    return FRAME_TYPES.get(Path(media_path.removesuffix(SUFFIX)).suffix.lower())
