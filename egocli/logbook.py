"""Use-cases on the log itself: add notes or JSONL events, forget with media, source lookups."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from egocli.errors import InputError, UsageError
from egocli.formats.jsonl import parse_line
from egocli.store import EventFilter, NewEvent, Store
from egocli.timeutil import now_ms


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
