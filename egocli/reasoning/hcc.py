"""HCC: hour, day and week summaries built incrementally, cached in the log, picked per question.

Cost on CPU is the model reading and writing tokens (~95 read and ~24 written a second for the 1.5B model on
two cores), so each summary is kept small by method: an hour is told from a compact input (each distinct
text once, with its count; the day's scenery, seen hour after hour, reduced to what filled the hour), an
hour with nothing new that day (scenery only) or an input already as short as a summary is kept verbatim
without the model, days are written from the hour summaries and weeks from the day summaries, hour summaries
are one sentence, and the fixed system turn comes first so that llama.cpp's KV cache keeps it between calls
(the summarizers themselves: egocli.reasoning.summarizers).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta

import numpy as np

from egocli.core.timeutil import local, now_ms, to_ms
from egocli.models.base import Embedder
from egocli.reasoning.retrieval import units
from egocli.reasoning.scope import Scope
from egocli.reasoning.summarizers import LABEL, VERBATIM, Summarizer, verbatim
# re-exported: callers reach the summarizers as hcc.LlmSummarizer and so on
from egocli.reasoning.summarizers import ExtractiveSummarizer as ExtractiveSummarizer
from egocli.reasoning.summarizers import Interrupted as Interrupted
from egocli.reasoning.summarizers import LlmSummarizer as LlmSummarizer
from egocli.reasoning.tcot import approx_tokens
from egocli.store import Event, EventFilter, Store
from egocli.store import summaries as sql
from egocli.store import vectors
from egocli.store import windows as store_windows

LEVELS = ("hour", "day", "week")
MAX_INPUT_LINES = 40
"""Finer summaries a day or week summary reads at most."""
HOUR_LINES = 10
"""Lines of an hour's compact input at most."""
HOUR_EVENTS = 400
"""Events of an hour read at most (spread evenly over it)."""
DAY_EVENTS = 4000
"""Events of a day read at most to find its scenery."""
SCENERY_HOURS = 3
"""A text seen in this many hours of its day is scenery (the desk, the water cooler), not a happening."""
FILLERS = 2
"""Scenery lines an hour with happenings keeps (its most frequent: what filled the hour)."""
LINE_CHARS = 110
"""An input line is clipped to this many characters."""
UNBOUNDED = 2 ** 61
"""Scope bounds beyond this many ms from the epoch mean 'no bound'."""
SHORT = {"hour": 40, "day": 90, "week": 90}
"""Input of at most this many tokens (an hour's: its happenings) is its own summary: a model would write as
much."""
MOSTLY = "mostly: "
"""How an hour's input starts the line of the scenery that filled it."""
_WORD = re.compile(r"[a-z0-9]+")
_WEIGHT = {"note": 2.0, "speech": 1.5, "text": 1.3, "tool": 1.2, "visual": 1.0, "system": 0.3}
"""How much an event of a modality tells of what was done."""


@dataclass(frozen=True)
class Chunk:
    """A span of the log at one level whose summary is missing or stale."""

    level: str
    """hour, day or week."""
    start_ms: int
    """Start, UTC epoch ms."""
    end_ms: int
    """End (exclusive)."""
    events_hash: str
    """Fingerprint of the events it covers now."""
    event_count: int
    """Events it covers."""


def _day_start(ms: int) -> int:
    return to_ms(local(ms).replace(hour=0, minute=0, second=0, microsecond=0))


def _week_start(ms: int) -> int:
    day = local(_day_start(ms))
    return to_ms(day - timedelta(days=day.weekday()))


def _next(level: str, start: int) -> int:
    if level == "hour":
        return start + sql.HOUR_MS
    return to_ms(local(start) + timedelta(days=1 if level == "day" else 7))


def current_chunks(store: Store, since_ms: int | None = None, until_ms: int | None = None) -> list[Chunk]:
    """Every chunk (all levels) holding events in the range, with its fingerprint now."""
    hours = sql.hour_fingerprints(store, since_ms, until_ms)
    chunks = [Chunk("hour", h, h + sql.HOUR_MS, fp, n) for h, (n, fp) in sorted(hours.items())]
    for level, key in (("day", _day_start), ("week", _week_start)):
        groups: dict[int, list[tuple[int, str]]] = {}
        for h, (n, fp) in sorted(hours.items()):
            groups.setdefault(key(h), []).append((n, fp))
        for start, parts in groups.items():
            digest = hashlib.sha1("|".join(fp for _, fp in parts).encode()).hexdigest()[:16]
            chunks.append(Chunk(level, start, _next(level, start), digest, sum(n for n, _ in parts)))
    return chunks


def whole_weeks(since_ms: int | None, until_ms: int | None) -> tuple[int | None, int | None]:
    """A range widened to whole weeks, so day and week fingerprints cover all their hours."""
    lo = _week_start(since_ms) if since_ms is not None and since_ms > -UNBOUNDED else None
    hi = _next("week", _week_start(until_ms - 1)) if until_ms is not None and until_ms < UNBOUNDED else None
    return lo, hi


def plan(store: Store, since_ms: int | None = None, until_ms: int | None = None) -> list[Chunk]:
    """Chunks whose summary is missing or stale, hours first (days and weeks build on them)."""
    since_ms, until_ms = whole_weeks(since_ms, until_ms)
    have = {(s.level, s.start_ms): s.events_hash for s in sql.get_summaries(store, None, since_ms, until_ms)}
    todo = [c for c in current_chunks(store, since_ms, until_ms) if have.get((c.level, c.start_ms)) != c.events_hash]
    return sorted(todo, key=lambda c: (LEVELS.index(c.level), c.start_ms))


def finished(store: Store, at_ms: int, days: int = 2) -> list[Chunk]:
    """What to build beside a live log, of its last `days` days: each hour over by `at_ms` whose summary is
    missing or stale, in time order; then each stale day one of whose hour summaries is newer than the day's,
    once none of its finished hours waits (the hour still going on changes the day's fingerprint, not its
    summary). Weeks are left to `egocli summarize`."""
    since = _day_start(at_ms - (days - 1) * 86_400_000)
    todo = plan(store, since, at_ms)
    hours = [c for c in todo if c.level == "hour" and c.start_ms >= since and c.end_ms <= at_ms]
    waiting = {_day_start(c.start_ms) for c in hours}
    newest: dict[int, int] = {}
    for s in sql.get_summaries(store, "hour", since, at_ms):
        day = _day_start(s.start_ms)
        newest[day] = max(newest.get(day, s.built_ms), s.built_ms)
    written = {s.start_ms: s.built_ms for s in sql.get_summaries(store, "day", since, at_ms)}
    days_due = [c for c in todo if c.level == "day" and c.start_ms >= since and c.start_ms not in waiting
                and newest.get(c.start_ms, -1) > written.get(c.start_ms, -1)]
    return hours + days_due


def _span_label(chunk: Chunk) -> str:
    start = local(chunk.start_ms)
    if chunk.level == "hour":
        return start.strftime("%a %d %b %Y %H:00") + "-" + local(chunk.end_ms).strftime("%H:00")
    if chunk.level == "day":
        return start.strftime("%a %d %b %Y")
    return "the week of " + start.strftime("%a %d %b %Y")


def _prompt_label(chunk: Chunk) -> str:
    """The span as a summarizer is told it: '14:00-15:00', 'Mon 30 Nov', 'the week of Mon 30 Nov'."""
    start = local(chunk.start_ms)
    if chunk.level == "hour":
        return start.strftime("%H:00-") + local(chunk.end_ms).strftime("%H:00")
    return ("" if chunk.level == "day" else "the week of ") + start.strftime("%a %d %b")


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def scenery(store: Store, day_start_ms: int) -> frozenset[str]:
    """Texts (lower-cased) seen in SCENERY_HOURS or more hours of a day: its background, not its happenings."""
    events = store_windows.sample_evenly(store, day_start_ms, _next("day", day_start_ms), None, DAY_EVENTS)
    hours: dict[str, set[int]] = {}
    for ev in events:
        hours.setdefault(_key(ev.content), set()).add(ev.start_ms // sql.HOUR_MS)
    return frozenset(text for text, seen in hours.items() if len(seen) >= SCENERY_HOURS)


def hour_lines(events: Sequence[Event], background: frozenset[str] = frozenset()) -> tuple[list[str], int]:
    """An hour's compact input: its happenings (each distinct text once, '(xN)' when said or seen N times),
    at most HOUR_LINES - 1 of them, those that say most, in time order; then one 'mostly: ' line of the
    day's scenery that filled the hour (its most frequent texts).
    Returns the lines and how many are happenings (0: nothing new that day)."""
    groups: dict[str, list[Event]] = {}
    for ev in events:
        if ev.content.strip():
            groups.setdefault(_key(ev.content), []).append(ev)
    happen = [g for text, g in groups.items() if text not in background]
    fill = sorted((g for text, g in groups.items() if text in background), key=len, reverse=True)
    if len(happen) > HOUR_LINES - 1:
        happen = sorted(happen, key=_says, reverse=True)[:HOUR_LINES - 1]
    lines = [_text(g) for g in sorted(happen, key=lambda g: (g[0].start_ms, g[0].id))]
    if fill:
        lines.append(MOSTLY + "; ".join(_text(g) for g in fill[:FILLERS if happen else FILLERS + 1]))
    return lines, len(happen)


def _says(group: list[Event]) -> float:
    """How much a distinct text tells of the hour: its modality, its longer words, less for repeats."""
    ev = group[0]
    words = {w for w in _WORD.findall(ev.content.lower()) if len(w) > 3}
    return _WEIGHT.get(ev.modality, 1.0) * (1 + min(len(words), 10) / 3) / len(group)


def _text(group: list[Event]) -> str:
    text = " ".join(group[0].content.split())
    if len(text) > LINE_CHARS:
        text = text[:LINE_CHARS].rsplit(" ", 1)[0] + "..."
    return text + (f" (x{len(group)})" if len(group) > 1 else "")


def _inputs(store: Store, chunk: Chunk, backgrounds: dict[int, frozenset[str]]) -> tuple[list[str], int]:
    """A chunk's input lines and how many of them are new (for a day or week: all of them)."""
    if chunk.level == "hour":
        day = _day_start(chunk.start_ms)
        if day not in backgrounds:
            backgrounds[day] = scenery(store, day)
        events = store_windows.sample_evenly(store, chunk.start_ms, chunk.end_ms, None, HOUR_EVENTS)
        return hour_lines(events, backgrounds[day])
    finer = "hour" if chunk.level == "day" else "day"
    parts = [s for s in sql.get_summaries(store, finer, chunk.start_ms, chunk.end_ms)
             if s.start_ms >= chunk.start_ms and s.text.strip()]
    if any(not s.text.startswith(MOSTLY) for s in parts):  # hours of scenery alone tell the day nothing
        parts = [s for s in parts if not s.text.startswith(MOSTLY)]
    if len(parts) > MAX_INPUT_LINES:
        parts = sorted(sorted(parts, key=lambda s: -s.event_count)[:MAX_INPUT_LINES], key=lambda s: s.start_ms)
    fmt = "%H:%M" if finer == "hour" else "%a %d %b"
    return [f"[{local(s.start_ms).strftime(fmt)}] {s.text}" for s in parts], len(parts)


def build_chunk(store: Store, chunk: Chunk, summarizer: Summarizer, embedder: Embedder | None = None,
                backgrounds: dict[int, frozenset[str]] | None = None) -> sql.Summary:
    """Summarise one chunk and store it (replacing a stale summary). An hour with nothing new that day, or an
    input as short as a summary, is kept verbatim. `backgrounds` caches each day's scenery across a build."""
    lines, new = _inputs(store, chunk, {} if backgrounds is None else backgrounds)
    told = sum(approx_tokens(LABEL.sub("", line)) for line in lines if not line.startswith(MOSTLY))
    if new == 0 or len(lines) == 1 or told <= SHORT[chunk.level]:  # a week of one day is that day
        text, by = verbatim(lines), VERBATIM
    else:
        text, by = summarizer.summarize(lines, _prompt_label(chunk), chunk.level), summarizer.name
    vec = vectors.quantise(embedder.embed([text]))[0] if embedder is not None else None
    summary = sql.Summary(chunk.level, chunk.start_ms, chunk.end_ms, text, by, now_ms(),
                          chunk.events_hash, chunk.event_count, vec)
    sql.put_summary(store, summary)
    return summary


def build(store: Store, summarizer: Summarizer, embedder: Embedder | None = None, since_ms: int | None = None,
          until_ms: int | None = None, todo: list[Chunk] | None = None) -> Iterator[sql.Summary]:
    """Build every missing or stale summary in the range; yields each one as it is stored."""
    backgrounds: dict[int, frozenset[str]] = {}
    for chunk in todo if todo is not None else plan(store, since_ms, until_ms):
        yield build_chunk(store, chunk, summarizer, embedder, backgrounds)
    _drop_empty(store, since_ms, until_ms)


def _drop_empty(store: Store, since_ms: int | None, until_ms: int | None) -> None:
    since_ms, until_ms = whole_weeks(since_ms, until_ms)
    live = {(c.level, c.start_ms) for c in current_chunks(store, since_ms, until_ms)}
    for level in LEVELS:
        gone = [s.start_ms for s in sql.get_summaries(store, level, since_ms, until_ms)
                if (level, s.start_ms) not in live and (since_ms is None or s.start_ms >= since_ms)
                and (until_ms is None or s.end_ms <= until_ms)]
        sql.delete_summaries(store, level, gone)


def scope_range(store: Store, scope: Scope) -> tuple[int | None, int | None]:
    """The overall [since, until) a scope covers (bound videos: their events' span)."""
    if scope.videos:
        spans = []
        for v in scope.videos:
            evs = list(store.events(EventFilter(source_id=v.source_id)))
            if evs:
                spans += [evs[0].start_ms, max(e.end_ms for e in evs) + 1]
        return (min(spans), max(spans)) if spans else (None, None)
    if not scope.windows:
        return None, None
    return min(w[0] for w in scope.windows), max(w[1] for w in scope.windows)


def _overlaps(s: sql.Summary, scope: Scope, lo: int | None, hi: int | None) -> bool:
    if scope.videos:
        return (lo is None or s.end_ms > lo) and (hi is None or s.start_ms < hi)
    spans = [(a, b) for a, b, _ in units(scope)]
    return any((a is None or s.end_ms > a) and (b is None or s.start_ms < b) for a, b in spans)


def select(store: Store, scope: Scope, question: str, budget: int, embedder: Embedder | None = None,
           qvec: np.ndarray | None = None) -> list[sql.Summary]:
    """The summaries most relevant to the question inside its scope, within budget, in time order."""
    lo, hi = scope_range(store, scope)
    candidates = [s for s in sql.get_summaries(store, None, lo, hi) if _overlaps(s, scope, lo, hi)]
    if not candidates or budget <= 0:
        return []
    words = set(_WORD.findall(question.lower()))
    if qvec is None and embedder is not None:
        qvec = embedder.embed([question])[0]
    cosines = np.zeros(len(candidates), dtype=np.float32)
    with_vec = [i for i, s in enumerate(candidates) if qvec is not None and s.vec is not None and len(s.vec) == len(qvec)]
    if with_vec and qvec is not None:
        blobs = [v for i in with_vec if (v := candidates[i].vec) is not None]
        cosines[with_vec] = vectors.dequantise(blobs, len(qvec)) @ qvec
    bonus = {"week": 0.05, "day": 0.03, "hour": 0.0}
    scores = {id(s): len(words & set(_WORD.findall(s.text.lower()))) / (len(words) or 1) + float(cosines[i])
              + bonus[s.level] for i, s in enumerate(candidates)}

    def score(s: sql.Summary) -> float:
        return scores[id(s)]

    picked, used = [], 0
    for s in sorted(candidates, key=score, reverse=True):
        cost = approx_tokens(s.text) + 8
        if used + cost <= budget:
            picked.append(s)
            used += cost
    return sorted(picked, key=lambda s: (s.start_ms, LEVELS.index(s.level)))


def render(picked: Sequence[sql.Summary]) -> str:
    """Summaries as context lines."""
    out = []
    for s in picked:
        label = _span_label(Chunk(s.level, s.start_ms, s.end_ms, "", 0))
        out.append(f"[{label}] {s.text}")
    return "\n".join(out)

