"""Use-case: narration/transcript files and annotation folders into the event log."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from egocli.errors import EgoError, InputError, NotFound
from egocli.formats import DIR_FORMATS, ImportedSource, dir_importer, read_cues
from egocli.store import Store
from egocli.store.db import db_errors


@dataclass(frozen=True)
class ImportResult:
    """What happened to one input."""

    path: str
    """The file or folder."""
    status: str
    """imported, skipped (already there) or failed."""
    events: int = 0
    """Events added."""
    source_id: int | None = None
    """The source row."""
    source: str | None = None
    """The source name."""
    error: str | None = None
    """The one-line error when it failed."""


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def import_file(store: Store, path: Path, fmt: str | None = None, start_ms: int | None = None,
                source_name: str | None = None) -> ImportResult:
    """Import one file as one source, in one transaction; a file already imported is skipped."""
    if not path.is_file():
        raise NotFound(f"{path}: no such file")
    digest = sha256_file(path)
    done = store.find_source(kind="import", sha256=digest)
    if done is not None and done.status == "done":
        return ImportResult(str(path), "skipped", 0, done.id, done.name)
    cues = read_cues(path, fmt)
    if not cues:
        raise InputError(f"{path}: no cues or events in the file")
    anchor = start_ms if start_ms is not None else int(path.stat().st_mtime * 1000)
    events = [c.to_event(anchor) for c in cues]
    first = min(e.start_ms for e in events)
    last = max(e.end_ms for e in events)
    with store.transaction():
        again = store.find_source(kind="import", sha256=digest)  # another process may have won the race
        if again is not None and again.status == "done":
            return ImportResult(str(path), "skipped", 0, again.id, again.name)
        if done is not None:
            store.forget_source(done.id)
        src = store.add_source("import", source_name or path.name, path=str(path.resolve()),
                               sha256=digest, start_ms=anchor if start_ms is not None else first,
                               duration_ms=last - first, status="done", meta={"format": fmt})
        ids = store.add_events(events, source_id=src.id)
    return ImportResult(str(path), "imported", len(ids), src.id, src.name)


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
        return ImportResult(where, "skipped", 0, done.id, done.name)
    with store.transaction():
        if done is not None:
            store.forget_source(done.id)
        src = store.add_source(item.kind, item.name, path=str(path.resolve()), sha256=item.fingerprint,
                               start_ms=item.start_ms, duration_ms=item.duration_ms, status="done",
                               meta=item.meta)
        ids = store.add_events(item.events, source_id=src.id)
    return ImportResult(where, "imported", len(ids), src.id, src.name)


def import_paths(store: Store, paths: list[Path], fmt: str | None = None, start_ms: int | None = None,
                 source_name: str | None = None) -> Iterator[ImportResult]:
    """Import each path, continuing past failures (a failed one leaves the log untouched)."""
    for path in paths:
        try:
            if fmt in DIR_FORMATS:
                yield from import_dir(store, path, fmt)
            else:
                yield import_file(store, path, fmt, start_ms, source_name)
        except EgoError as ex:
            yield ImportResult(str(path), "failed", error=str(ex))
        except (ValueError, ArithmeticError, RecursionError, MemoryError, OSError, *db_errors()) as ex:
            # a reader's unforeseen failure ends this file only; the message names it
            yield ImportResult(str(path), "failed", error=f"{path}: {type(ex).__name__}: {ex}"[:500])
