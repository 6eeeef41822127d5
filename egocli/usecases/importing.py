"""Use-case: narration/transcript files and annotation folders into the event log."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from egocli.core.errors import EgoError, InputError, NotFound
from egocli.formats import DIR_FORMATS, ImportedSource, dir_importer, read_cues
from egocli.store import NewEvent, Source, Store
from egocli.store.connect import db_errors
from egocli.core.timeutil import format_local, now_ms


# Extensions `egocli import` reads, and those that belong to `egocli ingest` instead.
TRANSCRIPT_SUFFIXES = frozenset({".srt", ".vtt", ".webvtt", ".csv", ".jsonl", ".ndjson", ".json"})
MEDIA_SUFFIXES = frozenset({".mp4", ".mov", ".mkv", ".webm", ".avi", ".m4v", ".wav", ".mp3", ".flac", ".m4a",
                            ".opus", ".ogg", ".oga", ".aac", ".jpg", ".jpeg", ".png"})


@dataclass(frozen=True)
class ImportResult:
    """What happened to one input."""

    path: str
    """The file or folder."""
    status: str
    """imported, replaced (an earlier import of it removed first), skipped (already there) or failed."""
    events: int = 0
    """Events added."""
    source_id: int | None = None
    """The source row."""
    source: str | None = None
    """The source name."""
    error: str | None = None
    """The one-line error when it failed."""
    note: str | None = None
    """Why it was skipped, or a warning about what was imported (e.g. events in the future)."""


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def expand_folders(paths: list[Path], fmt: str | None = None) -> list[Path]:
    """Folders become the transcript files in them (by name); folder formats (hd-epic) keep them whole."""
    if fmt in DIR_FORMATS:
        return list(paths)
    expanded: list[Path] = []
    for path in paths:
        files = sorted(f for f in path.iterdir() if f.is_file() and f.suffix.lower() in TRANSCRIPT_SUFFIXES) \
            if path.is_dir() else []
        expanded.extend(files or [path])
    return expanded


def _check_importable(path: Path) -> None:
    if path.is_dir():
        if any(f.suffix.lower() in MEDIA_SUFFIXES for f in path.iterdir()):
            raise InputError(f"{path}: a folder of recordings, not transcripts: use `egocli ingest {path}`")
        raise InputError(f"{path}: a folder without .srt, .vtt, .csv or .jsonl files "
                         "(HD-EPIC annotations: --format hd-epic)")
    if not path.is_file():
        raise NotFound(f"{path}: no such file")
    if path.suffix.lower() in MEDIA_SUFFIXES:
        raise InputError(f"{path}: a recording, not a transcript: use `egocli ingest {path}`")


def _earlier_imports(store: Store, path: Path, digest: str) -> list[Source]:
    """Sources from earlier imports of this content or of this path."""
    found = [store.find_source(kind="import", sha256=digest),
             store.find_source(kind="import", path=str(path.resolve()))]
    return list({s.id: s for s in found if s is not None}.values())


def _future_note(events: list[NewEvent], anchored_at_mtime: bool) -> str | None:
    ahead = [e for e in events if e.start_ms > now_ms()]
    if not ahead:
        return None
    why = " (anchored at the file's modification time: give --start)" if anchored_at_mtime else ""
    latest = format_local(max(e.start_ms for e in ahead))
    return f"{len(ahead)} of {len(events)} events lie in the future, up to {latest}{why}"


def import_file(store: Store, path: Path, fmt: str | None = None, start_ms: int | None = None,
                source_name: str | None = None, replace: bool = False) -> ImportResult:
    """Import one file as one source, in one transaction. A file already imported is skipped (with the
    reason), unless `replace`: then earlier imports of the same content or path are removed first."""
    _check_importable(path)
    digest = sha256_file(path)
    earlier = _earlier_imports(store, path, digest)
    same = next((s for s in earlier if s.sha256 == digest and s.status == "done"), None)
    if same is not None and not replace:
        return ImportResult(str(path), "skipped", 0, same.id, same.name,
                            note=f"already imported as source #{same.id} ({same.name}); --replace imports it again")
    cues = read_cues(path, fmt)
    if not cues:
        raise InputError(f"{path}: no cues or events in the file")
    anchor = start_ms if start_ms is not None else int(path.stat().st_mtime * 1000)
    events = [c.to_event(anchor) for c in cues]
    first = min(e.start_ms for e in events)
    last = max(e.end_ms for e in events)
    stale = [s for s in earlier if replace or s.status != "done"]
    with store.transaction():
        again = store.find_source(kind="import", sha256=digest)  # another process may have won the race
        if again is not None and again.status == "done" and all(s.id != again.id for s in earlier):
            return ImportResult(str(path), "skipped", 0, again.id, again.name,
                                note=f"already imported as source #{again.id} ({again.name}) by another process")
        for src in stale:
            store.forget_source(src.id)
        src = store.add_source("import", source_name or path.name, path=str(path.resolve()),
                               sha256=digest, start_ms=anchor if start_ms is not None else first,
                               duration_ms=last - first, status="done", meta={"format": fmt})
        ids = store.add_events(events, source_id=src.id)
    status = "replaced" if any(s.status == "done" for s in stale) else "imported"
    return ImportResult(str(path), status, len(ids), src.id, src.name,
                        note=_future_note(events, start_ms is None))


def import_dir(store: Store, path: Path, fmt: str) -> Iterator[ImportResult]:
    """Import a folder through a directory importer: one result per source it yields."""
    if not path.is_dir():
        raise NotFound(f"{path}: no such folder (--format {fmt} takes a folder)")
    for item in dir_importer(fmt)(path):
        yield _store_imported(store, path, item)


def _store_imported(store: Store, path: Path, item: ImportedSource) -> ImportResult:
    where = f"{path}:{item.name}"
    done = store.find_source(kind=item.kind, sha256=item.fingerprint)
    if done is not None and done.status == "done":
        return ImportResult(where, "skipped", 0, done.id, done.name,
                            note=f"already imported as source #{done.id} ({done.name})")
    with store.transaction():
        if done is not None:
            store.forget_source(done.id)
        src = store.add_source(item.kind, item.name, path=str(path.resolve()), sha256=item.fingerprint,
                               start_ms=item.start_ms, duration_ms=item.duration_ms, status="done",
                               meta=item.meta)
        ids = store.add_events(item.events, source_id=src.id)
    return ImportResult(where, "imported", len(ids), src.id, src.name)


def import_paths(store: Store, paths: list[Path], fmt: str | None = None, start_ms: int | None = None,
                 source_name: str | None = None, replace: bool = False) -> Iterator[ImportResult]:
    """Import each path, continuing past failures (a failed one leaves the log untouched)."""
    for path in paths:
        try:
            if fmt in DIR_FORMATS:
                yield from import_dir(store, path, fmt)
            else:
                yield import_file(store, path, fmt, start_ms, source_name, replace)
        except EgoError as ex:
            yield ImportResult(str(path), "failed", error=str(ex))
        except (ValueError, ArithmeticError, RecursionError, MemoryError, OSError) + db_errors() as ex:
            # a reader's unforeseen failure ends this file only; the message names it
            yield ImportResult(str(path), "failed", error=f"{path}: {type(ex).__name__}: {ex}"[:500])
