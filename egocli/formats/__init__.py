"""Readers for narration and transcript formats (one module per format) and their registry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egocli.core.errors import InputError, UsageError
from egocli.store.records import NewEvent, check_event


@dataclass(frozen=True)
class Cue:
    """A timed piece of text read from a file; times relative or absolute."""

    start_ms: int
    """Start: offset from the anchor, or absolute epoch ms when absolute is True."""
    end_ms: int
    """End, same convention as start_ms."""
    text: str
    """The text."""
    modality: str = "text"
    """Modality of the resulting event."""
    absolute: bool = False
    """True when the times are already UTC epoch milliseconds."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Extra metadata carried to the event."""
    where: str = ""
    """FILE:LINE it was read from, named by errors."""

    def to_event(self, anchor_ms: int) -> NewEvent:
        """The stored event, anchoring relative times at anchor_ms; InputError (naming where) when
        its time falls outside 1970-2200, its modality is not a name or its text is too long."""
        base = 0 if self.absolute else anchor_ms
        event = NewEvent(start_ms=base + self.start_ms, end_ms=base + self.end_ms,
                         modality=self.modality, content=self.text, meta=self.meta)
        try:
            return check_event(event)
        except InputError as ex:
            raise InputError(f"{self.where}: {ex}" if self.where else str(ex)) from None


@dataclass(frozen=True)
class ImportedSource:
    """One source produced by a directory-level importer (e.g. one video id)."""

    name: str
    """Source name ('video N' in questions binds to it)."""
    kind: str
    """Source kind (e.g. 'hd-epic')."""
    start_ms: int
    """Wall-clock start, UTC epoch ms."""
    duration_ms: int | None
    """Length, when known."""
    fingerprint: str
    """A stable hash so re-importing adds nothing."""
    events: list[NewEvent]
    """Its events, absolute times."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Extra metadata for the source row."""


CueReader = Callable[[str, Path], list[Cue]]
DirImporter = Callable[[Path], list[ImportedSource]]


def file_readers() -> dict[str, CueReader]:
    """Per-file formats by name."""
    from egocli.formats import csvfmt, jsonl, srt, vtt

    return {"srt": srt.read, "vtt": vtt.read, "csv": csvfmt.read, "jsonl": jsonl.read}


DIR_FORMATS = {"hd-epic": "egocli.formats.hdepic"}
"""Directory-level importers by name -> module with read_dir(path) (each folder: many sources)."""


def dir_importer(fmt: str) -> DirImporter:
    """The read_dir function of a directory-level format."""
    import importlib

    read_dir: DirImporter = importlib.import_module(DIR_FORMATS[fmt]).read_dir
    return read_dir


def detect_format(path: Path) -> str:
    """Guess a file format from its extension."""
    ext = path.suffix.lower().lstrip(".")
    mapping = {"srt": "srt", "vtt": "vtt", "webvtt": "vtt", "csv": "csv", "jsonl": "jsonl",
               "ndjson": "jsonl", "json": "jsonl"}
    if ext not in mapping:
        raise InputError(f"{path}: unknown format '.{ext}' (use --format srt|vtt|csv|jsonl|hd-epic)")
    return mapping[ext]


def read_cues(path: Path, fmt: str | None) -> list[Cue]:
    """Read a file's cues in the given (or detected) format."""
    fmt = fmt or detect_format(path)
    readers = file_readers()
    if fmt not in readers:
        raise UsageError(f"unknown format {fmt!r} (one of: {', '.join([*readers, *DIR_FORMATS])})")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as ex:
        line = path.read_bytes()[:ex.start].count(b"\n") + 1
        raise InputError(f"{path}:{line}: not UTF-8 text") from None
    except OSError as ex:
        raise InputError(f"{path}: cannot read: {ex.strerror or ex}") from None
    return readers[fmt](text, path)
