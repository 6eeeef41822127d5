"""Plain value objects read from and written to the event log."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from egocli.core.errors import InputError
from egocli.core.timeutil import format_local, iso_utc

MIN_MS = 0
"""Earliest time an event may have: 1970-01-01T00:00:00Z."""
MAX_MS = 7_258_118_400_000
"""Latest time an event may have: 2200-01-01T00:00:00Z."""
MAX_CONTENT_CHARS = 1_000_000
"""Longest event text (a long transcript fits many times over; a 20 MB paste does not)."""
MODALITY = re.compile(r"[a-z][a-z0-9_-]{0,31}")
"""What a modality name looks like: lower-case letters, digits, '_' and '-', at most 32."""


def check_time(ms: Any, what: str = "time") -> int:
    """ms as an int if it is a time between 1970 and 2200 (UTC), else InputError."""
    if isinstance(ms, bool) or not isinstance(ms, int):
        raise InputError(f"{what} {ms!r} is not a whole number of milliseconds")
    if not MIN_MS <= ms <= MAX_MS:
        raise InputError(f"{what} {ms} ms is outside 1970-2200")
    return ms


def check_modality(modality: Any) -> str:
    """modality if it is a valid name, else InputError."""
    if not isinstance(modality, str) or not MODALITY.fullmatch(modality):
        shown = modality if not isinstance(modality, str) else modality[:40]
        raise InputError(f"modality {shown!r} is not a name (a-z, 0-9, '_', '-'; at most 32 characters)")
    return modality


def clean_text(text: str) -> str:
    """text with lone surrogates (undecodable input) replaced, so it can be stored as UTF-8."""
    return text.encode("utf-8", "replace").decode("utf-8") if not text.isascii() else text


def check_event(ev: NewEvent) -> NewEvent:
    """The event, its text cleaned, when its times, modality and size are acceptable; else InputError."""
    check_time(ev.start_ms, "start")
    check_time(ev.end_ms, "end")
    check_modality(ev.modality)
    if not isinstance(ev.content, str):
        raise InputError("event content must be text")
    if len(ev.content) > MAX_CONTENT_CHARS:
        raise InputError(f"event text of {len(ev.content)} characters (limit {MAX_CONTENT_CHARS})")
    content = clean_text(ev.content)
    return ev if content is ev.content else NewEvent(ev.start_ms, ev.end_ms, ev.modality, content,
                                                     ev.media_path, ev.media_offset_ms, ev.meta)


@dataclass(frozen=True)
class NewEvent:
    """An event not yet stored."""

    start_ms: int
    """Start, UTC epoch milliseconds."""
    end_ms: int
    """End, UTC epoch milliseconds (== start for instants)."""
    modality: str
    """visual, speech, text, note, tool, system, ... (extensible)."""
    content: str
    """What was seen, said or written, as readable text."""
    media_path: str | None = None
    """A stored file (relative to the media folder) or the source file."""
    media_offset_ms: int | None = None
    """Offset into media_path where this event begins."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Free-form JSON metadata (scores, labels, redaction counts...)."""


@dataclass(frozen=True)
class Event:
    """A stored event."""

    id: int
    """Row id; `egocli log show ID` opens it."""
    start_ms: int
    """Start, UTC epoch milliseconds."""
    end_ms: int
    """End, UTC epoch milliseconds."""
    modality: str
    """visual, speech, text, note, tool, system, ..."""
    source_id: int | None
    """The source (recording, import, session) it came from."""
    content: str
    """The event's text."""
    media_path: str | None = None
    """A stored media file, when there is one."""
    media_offset_ms: int | None = None
    """Offset into the media file."""
    meta: dict[str, Any] = field(default_factory=dict)
    """JSON metadata."""
    source: str | None = None
    """The source's name, when joined."""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Event:
        """Build from a database row (meta as JSON text)."""
        meta = row.get("meta") or "{}"
        return cls(
            id=row["id"], start_ms=row["start_ms"], end_ms=row["end_ms"], modality=row["modality"],
            source_id=row.get("source_id"), content=row["content"], media_path=row.get("media_path"),
            media_offset_ms=row.get("media_offset_ms"),
            meta=json.loads(meta) if isinstance(meta, str) else meta, source=row.get("source_name"),
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict with ISO UTC and local times."""
        data = asdict(self)
        data["start"] = iso_utc(self.start_ms)
        data["end"] = iso_utc(self.end_ms)
        data["local"] = format_local(self.start_ms)
        return data


@dataclass(frozen=True)
class Source:
    """A recording, import or live session that events came from."""

    id: int
    """Row id."""
    kind: str
    """video, audio, import, live, hd-epic, ..."""
    name: str
    """Human name (file name, video id, session name)."""
    path: str | None
    """The file it came from, when there is one."""
    sha256: str | None
    """Content hash: the same file is never imported twice."""
    start_ms: int | None
    """Wall-clock start, UTC epoch ms."""
    duration_ms: int | None
    """Length of the recording."""
    status: str
    """pending, done or failed."""
    progress_ms: int
    """How far (media time) an interrupted ingest got."""
    created_ms: int
    """When the source row was created."""
    meta: dict[str, Any] = field(default_factory=dict)
    """JSON metadata."""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Source:
        """Build from a database row."""
        data = dict(row)
        data["meta"] = json.loads(data.get("meta") or "{}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data = asdict(self)
        data["start"] = iso_utc(self.start_ms) if self.start_ms is not None else None
        return data


def insert_row(ev: NewEvent, source_id: int | None) -> tuple[Any, ...]:
    """The INSERT parameters of a checked event (its metadata counts toward the size limit)."""
    meta = clean_text(meta_json(ev.meta))
    if len(meta) + len(ev.content) > MAX_CONTENT_CHARS:
        raise InputError(f"event of {len(meta) + len(ev.content)} characters with its metadata "
                         f"(limit {MAX_CONTENT_CHARS})")
    return (ev.start_ms, max(ev.end_ms, ev.start_ms), ev.modality, source_id, ev.content,
            ev.media_path, ev.media_offset_ms, meta)


def meta_json(meta: Any) -> str:
    """Metadata as JSON; NaN and infinities are refused (JSON.parse and other readers reject them)."""
    from egocli.core.bounds import finite_json

    return json.dumps(finite_json(meta, "meta"), ensure_ascii=False)
