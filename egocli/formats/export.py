"""Writers for exporting events: jsonl, csv, srt, vtt."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from egocli.store.records import Event
from egocli.core.timeutil import format_clock, format_local, iso_utc

FORMATS = ("jsonl", "csv", "srt", "vtt")


def event_record(ev: Event) -> dict[str, Any]:
    """The one JSON record of an event, for `log list --jsonl`, `--json` and `log export --format jsonl`:
    id, start/end (ISO 8601 UTC), time (local, as shown), modality, source, source_id, content, media, meta."""
    return {"id": ev.id, "start": iso_utc(ev.start_ms), "end": iso_utc(ev.end_ms), "time": format_local(ev.start_ms),
            "modality": ev.modality, "source": ev.source, "source_id": ev.source_id, "content": ev.content,
            "media_path": ev.media_path, "media_offset_ms": ev.media_offset_ms, "meta": ev.meta}


def write(events: Iterable[Event], fmt: str) -> Iterator[str]:
    """Yield the export text chunk by chunk (one event at a time)."""
    if fmt == "jsonl":
        for ev in events:
            yield json.dumps(event_record(ev), ensure_ascii=False) + "\n"
    elif fmt == "csv":
        yield from _csv(events)
    else:
        yield from _cues(events, vtt=fmt == "vtt")


def _csv(events: Iterable[Event]) -> Iterator[str]:
    cols = ["id", "start", "end", "modality", "source", "content"]
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(cols)
    for ev in events:
        data = ev.to_json()
        writer.writerow([data[c] for c in cols])
        yield buf.getvalue()
        buf.seek(0)
        buf.truncate()
    yield buf.getvalue()


def _cues(events: Iterable[Event], vtt: bool) -> Iterator[str]:
    """SRT / WebVTT with times relative to the first exported event."""
    sep = "." if vtt else ","
    if vtt:
        yield "WEBVTT\n\n"
    origin = None
    for n, ev in enumerate(events, start=1):
        origin = ev.start_ms if origin is None else origin
        start = format_clock(ev.start_ms - origin, sep)
        end = format_clock(max(ev.end_ms, ev.start_ms + 1000) - origin, sep)
        label = f"[{ev.modality}] {ev.content}".replace("\n", " ")
        yield (f"{n}\n" if not vtt else f"{ev.id}\n") + f"{start} --> {end}\n{label}\n\n"
