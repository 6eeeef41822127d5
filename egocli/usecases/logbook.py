"""Use-cases on the log itself: add notes or JSONL events, forget with media, source lookups."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from egocli.core.errors import InputError, NotFound, UsageError
from egocli.formats.jsonl import parse_line
from egocli.store import EventFilter, NewEvent, Source, Store
from egocli.store.sourcesql import has_source, modalities, source_counts
from egocli.core.timeutil import now_ms


def manual_source(store: Store) -> int:
    """The source that hand-added events belong to (created on first use)."""
    src = store.find_source(kind="manual", name="manual")
    return src.id if src else store.add_source("manual", "manual", status="done").id


def add_text(store: Store, text: str, modality: str = "note", at_ms: int | None = None) -> int:
    """Add one hand-written event; returns its id."""
    if not text.strip():
        raise UsageError("nothing to add: the text is empty")
    at = at_ms if at_ms is not None else now_ms()
    with store.transaction():
        sid = manual_source(store)
        return store.add_events([NewEvent(at, at, modality, text.strip())], source_id=sid)[0]


def add_jsonl(store: Store, lines: Iterable[str], where: str = "<stdin>",
              anchor_ms: int | None = None) -> list[int]:
    """Add JSONL events (all or nothing); relative 'start' seconds count from anchor (default now)."""
    anchor = anchor_ms if anchor_ms is not None else now_ms()
    events: list[NewEvent] = []
    numbered = enumerate(lines, start=1)
    lineno = 0
    while True:
        try:
            lineno, line = next(numbered)
        except StopIteration:
            break
        except UnicodeDecodeError:
            raise InputError(f"{where}:{lineno + 1}: not UTF-8 text") from None
        cue = parse_line(line, f"{where}:{lineno}")
        if cue is not None:
            events.append(cue.to_event(anchor))
    if not events:
        raise InputError(f"{where}: no events on input")
    with store.transaction():
        return store.add_events(events, source_id=manual_source(store))


def forget(store: Store, flt: EventFilter, media_dir: Path) -> int:
    """Delete matching events for good, then their media files; returns how many went."""
    count, media = store.forget(flt)
    for rel in media:
        path = (media_dir / rel) if not Path(rel).is_absolute() else Path(rel)
        if path.is_file() and media_dir in path.resolve().parents:
            path.unlink()
    return count


def check_filter(store: Store, flt: EventFilter) -> None:
    """NotFound (exit 1) for a source or modality the log has never had, instead of an empty listing."""
    if flt.source is not None and not has_source(store, flt.source):
        raise NotFound(f"no source {flt.source!r} (`egocli sources list` shows them)")
    known = modalities(store) if flt.modalities else set()
    unknown = [m for m in flt.modalities if m not in known]
    if unknown:
        raise NotFound(f"no events of modality {', '.join(map(repr, unknown))} "
                       f"(the log has: {', '.join(sorted(known)) or 'no events'})")


def sources_with_counts(store: Store) -> list[tuple[Source, int]]:
    """Every source, oldest first, with how many events it has."""
    counts = source_counts(store)
    return [(src, counts.get(src.id, 0)) for src in store.sources()]


def find_source(store: Store, name_or_id: str) -> Source:
    """A source by numeric id or name (NotFound otherwise; the newest when names repeat)."""
    src = store.find_source(name=name_or_id)
    if src is None and name_or_id.isdigit():
        src = next((s for s in store.sources() if s.id == int(name_or_id)), None)
    if src is None:
        raise NotFound(f"no source {name_or_id!r} (`egocli sources list` shows them)")
    return src


def remove_source(store: Store, name_or_id: str, media_dir: Path) -> tuple[Source, int]:
    """Delete a source, its events and their media for good; returns it and how many events went."""
    src = find_source(store, name_or_id)
    count = source_counts(store).get(src.id, 0)
    for rel in store.forget_source(src.id):
        path = (media_dir / rel) if not Path(rel).is_absolute() else Path(rel)
        if path.is_file() and media_dir in path.resolve().parents:
            path.unlink()
    return src, count
