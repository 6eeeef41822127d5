"""HCC: hour, day and week summaries built incrementally, cached in the log, picked per question."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

import numpy as np

from egocli.models.base import Embedder, TextModel
from egocli.reasoning.retrieval import units
from egocli.reasoning.scope import Scope
from egocli.reasoning.tcot import approx_tokens
from egocli.store import EventFilter, Store
from egocli.store import summaries as sql
from egocli.store import vectors
from egocli.store import windows as store_windows
from egocli.core.timeutil import local, now_ms, to_ms

LEVELS = ("hour", "day", "week")
MAX_INPUT_LINES = 40
UNBOUNDED = 2 ** 61
"""Scope bounds beyond this many ms from the epoch mean 'no bound'."""
_WORD = re.compile(r"[a-z0-9]+")


class Summarizer(Protocol):
    """Turns lines (events or finer summaries) into a short summary of one span."""

    name: str

    def summarize(self, lines: Sequence[str], span: str) -> str:
        """A few sentences about the span."""
        ...


class LlmSummarizer:
    """A summarizer backed by a local text model (the 'summarizer' role)."""

    def __init__(self, model: TextModel, max_tokens: int = 90) -> None:
        self.model = model
        self.name = model.name
        self.max_tokens = max_tokens

    def summarize(self, lines: Sequence[str], span: str) -> str:
        """Ask the model for 2-3 factual sentences."""
        messages = [
            {"role": "system", "content": "You summarise a personal activity log. Be factual and brief."},
            {"role": "user", "content": f"Log for {span}:\n" + "\n".join(lines) +
             "\n\nSummarise what happened in at most 3 short sentences. Keep names, objects and times."}]
        text = "".join(self.model.generate(messages, max_tokens=self.max_tokens, temperature=0.0)).strip()
        return text or "; ".join(lines[:3])


class ExtractiveSummarizer:
    """A model-free summarizer: the most frequent distinct lines, for huge logs and benchmarks."""

    name = "extractive"

    def __init__(self, keep: int = 5, width: int = 90) -> None:
        self.keep = keep
        self.width = width

    def summarize(self, lines: Sequence[str], span: str) -> str:
        """The `keep` most frequent distinct lines (first seen order), clipped."""
        counts = Counter(re.sub(r"^\[[^\]]*\]\s*", "", line) for line in lines)
        top = {text for text, _ in counts.most_common(self.keep)}
        picked, seen = [], set()
        for line in lines:
            text = re.sub(r"^\[[^\]]*\]\s*", "", line)
            if text in top and text not in seen:
                seen.add(text)
                picked.append(text[: self.width])
        return "; ".join(picked) + f" ({len(lines)} entries)"


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


def _span_label(chunk: Chunk) -> str:
    start = local(chunk.start_ms)
    if chunk.level == "hour":
        return start.strftime("%a %d %b %Y %H:00") + "-" + local(chunk.end_ms).strftime("%H:00")
    if chunk.level == "day":
        return start.strftime("%a %d %b %Y")
    return "the week of " + start.strftime("%a %d %b %Y")


def _inputs(store: Store, chunk: Chunk) -> list[str]:
    if chunk.level == "hour":
        events = store_windows.sample_evenly(store, chunk.start_ms, chunk.end_ms, None, MAX_INPUT_LINES)
        return [f"[{local(e.start_ms).strftime('%H:%M')}] {e.content}" for e in events]
    finer = "hour" if chunk.level == "day" else "day"
    parts = [s for s in sql.get_summaries(store, finer, chunk.start_ms, chunk.end_ms)
             if s.start_ms >= chunk.start_ms]
    if len(parts) > MAX_INPUT_LINES:
        parts = sorted(sorted(parts, key=lambda s: -s.event_count)[:MAX_INPUT_LINES], key=lambda s: s.start_ms)
    fmt = "%H:%M" if finer == "hour" else "%a %d %b"
    return [f"[{local(s.start_ms).strftime(fmt)}] {s.text}" for s in parts]


def build_chunk(store: Store, chunk: Chunk, summarizer: Summarizer, embedder: Embedder | None = None) -> sql.Summary:
    """Summarise one chunk and store it (replacing a stale summary)."""
    text = summarizer.summarize(_inputs(store, chunk), _span_label(chunk))
    vec = vectors.quantise(embedder.embed([text]))[0] if embedder is not None else None
    summary = sql.Summary(chunk.level, chunk.start_ms, chunk.end_ms, text, summarizer.name, now_ms(),
                          chunk.events_hash, chunk.event_count, vec)
    sql.put_summary(store, summary)
    return summary


def build(store: Store, summarizer: Summarizer, embedder: Embedder | None = None, since_ms: int | None = None,
          until_ms: int | None = None, todo: list[Chunk] | None = None) -> Iterator[sql.Summary]:
    """Build every missing or stale summary in the range; yields each one as it is stored."""
    for chunk in todo if todo is not None else plan(store, since_ms, until_ms):
        yield build_chunk(store, chunk, summarizer, embedder)
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
    if with_vec:
        cosines[with_vec] = vectors.dequantise([candidates[i].vec for i in with_vec], len(qvec)) @ qvec
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

