"""Use-cases on the log itself: add notes or JSONL events, search, forget with media, source lookups."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from egocli.core.errors import InputError, NotFound, UsageError
from egocli.formats.jsonl import parse_line
from egocli.store import Event, EventFilter, NewEvent, Source, Store
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


# How the store's snippet marks a match and a cut (Store.search), and what FTS5's unicode61 calls a token.
_OPEN, _CLOSE, _CUT = "[", "]", "\u2026"
_TOKEN = re.compile(r"[^\W_]+")
_TAG = re.compile(r"\[([a-z][a-z_-]{1,20})\]", re.I)
_BUILTIN_MODALITIES = frozenset({"visual", "speech", "text", "note", "tool", "system", "reminder"})


@dataclass(frozen=True)
class Hit:
    """One full-text search hit."""

    event: Event
    """The event, its content exactly as stored."""
    score: float
    """BM25 relevance, higher is better."""
    spans: tuple[tuple[int, int], ...]
    """(start, end) character offsets of the matched words in event.content, in order."""


def search(store: Store, query: str, flt: EventFilter = EventFilter()) -> list[Hit]:
    """Full-text hits, best first, with where in each event's content the query matched."""
    return [Hit(ev, -score, matched_spans(ev.content, snip)) for ev, score, snip in store.search(query, flt)]


def matched_spans(content: str, snippet: str) -> tuple[tuple[int, int], ...]:
    """Every occurrence in content of the words FTS5 marked in its snippet (`[word]`, `…` where it cut).

    The snippet is aligned with the content, so brackets that are part of the text are not taken for
    marks; the marked words are then found everywhere in the content, beyond the snippet's window too."""
    marked = _align_snippet(content, snippet)
    words = {tok.group(0).lower() for a, b in marked for tok in _TOKEN.finditer(content, a, b)}
    return tuple((tok.start(), tok.end()) for tok in _TOKEN.finditer(content) if tok.group(0).lower() in words)


def _align_snippet(content: str, snippet: str) -> list[tuple[int, int]]:
    starts = [(0, 0)]
    if snippet.startswith(_CUT):  # cut at the front: it starts at some later token
        starts += [(1, tok.start()) for tok in _TOKEN.finditer(content) if tok.start() > 0]
    for i, j in starts:
        spans = _align_from(content, snippet, i, j)
        if spans is not None:
            return spans
    return []


def _align_from(content: str, snip: str, i0: int, j0: int) -> list[tuple[int, int]] | None:
    """Walk snippet (from i0) and content (from j0) together; a bracket is a mark only where it can be one
    (an opening one before a token character, a closing one after). The marked spans, or None."""
    stack: list[tuple[int, int, int, tuple[tuple[int, int], ...]]] = [(i0, j0, -1, ())]
    seen: set[tuple[int, int, int]] = set()
    while stack:
        i, j, opened, spans = stack.pop()
        if (i, j, opened) in seen:
            continue
        seen.add((i, j, opened))
        if opened < 0 and (i == len(snip) or (snip[i:] == _CUT and j < len(content))):
            return list(spans)
        if i == len(snip):
            continue
        c = snip[i]
        if j < len(content) and content[j] == c:
            stack.append((i + 1, j + 1, opened, spans))
        if c == _OPEN and opened < 0 and j < len(content) and _TOKEN.match(content[j]):
            stack.append((i + 1, j, j, spans))
        if c == _CLOSE and opened >= 0 and j > opened and _TOKEN.match(content[j - 1]):
            stack.append((i + 1, j, -1, (*spans, (opened, j))))
    return None


def modality_tags(store: Store, query: str) -> list[str]:
    """The `[modality]` tags written in a search query (modalities are not part of the indexed text)."""
    known = _BUILTIN_MODALITIES | modalities(store)
    return list(dict.fromkeys(t.lower() for t in _TAG.findall(query) if t.lower() in known))
