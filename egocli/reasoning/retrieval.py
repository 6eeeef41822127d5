"""Hybrid retrieval inside a scope: FTS5 BM25 and embedding similarity, fused by reciprocal rank."""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from egocli.models.base import Embedder
from egocli.reasoning import terms
from egocli.reasoning.scope import TIME_TAG, Scope
from egocli.store import Event, EventFilter, Store
from egocli.store import vectors
from egocli.store import windows as store_windows
from egocli.core.lexicon import lexicon, words as lexicon_words
from egocli.core.words import STOPWORDS

log = logging.getLogger(__name__)
RRF_K = 60
DENSE_LIMIT = 10_000
"""Newest vectors read per scope unit; older events in a huge scope are reached through FTS only."""
COMMON_CAP = 5000
"""A word in at least this many events is too common to search for (unless nothing else is left)."""
MIN_DENSE = 0.35
"""Cosine similarity above which a dense hit alone counts as relevant."""


@dataclass(frozen=True)
class Hit:
    """A retrieved event and why."""

    event: Event
    """The event."""
    score: float
    """Fused reciprocal-rank score (higher is better)."""
    bm25: float | None
    """FTS5 BM25 (lower is better), when matched by words."""
    cosine: float | None
    """Embedding similarity, when matched by meaning."""


def units(scope: Scope) -> list[tuple[int | None, int | None, int | None]]:
    """(since, until, source_id) pieces that together make up the scope: with no window named, the log up to the
    moment of asking (a question asked `--at` a past moment never reads what came after it; bound videos are read
    whole)."""
    spans: list[tuple[int | None, int | None]] = list(scope.windows) or \
        [(None, None if scope.videos else scope.at_ms + 1)]
    sources: list[int | None] = [v.source_id for v in scope.videos] or [None]
    return [(lo, hi, src) for lo, hi in spans for src in sources]


def lines(store: Store, scope: Scope, limit: int = 20_000) -> list[Event]:
    """Every line in the scope up to the moment of asking, oldest first (at most `limit` per piece)."""
    found = {e.id: e for lo, hi, src in units(scope) for e in store.events(EventFilter(
        since_ms=lo, until_ms=min(hi, scope.at_ms + 1) if hi is not None else scope.at_ms + 1, source_id=src,
        limit=limit))}
    return sorted(found.values(), key=lambda e: (e.start_ms, e.id))


def query_text(question: str, choices: Sequence[str] = ()) -> str:
    """The words to search for: question and options without time tags."""
    text = " ".join([question, *choices])
    return re.sub(r"\s+", " ", TIME_TAG.sub(" ", text)).strip()


def informative_terms(store: Store, text: str, cap: int = COMMON_CAP, fallback: int = 2) -> list[str]:
    """The query's words minus stop words and words too common in the log to discriminate
    (when every word is common, the `fallback` rarest)."""
    words = list(dict.fromkeys(w.lower() for w in re.findall(r"[\w'-]+", text)))
    words = [w for w in words if w not in STOPWORDS and len(w) > 1]
    counted = [(store_windows.match_count(store, w, cap), w) for w in words]
    rare = [w for n, w in counted if 0 < n < cap]
    if rare:
        return rare
    return [w for n, w in sorted(counted) if n > 0][:fallback]


def _fts(store: Store, text: str, scope: Scope, k: int) -> list[tuple[Event, float]]:
    narrow = bool(scope.windows or scope.videos)
    terms = informative_terms(store, text, fallback=2 if narrow else 0)
    if not terms:
        return []
    common = store_windows.match_count(store, terms[0], COMMON_CAP) >= COMMON_CAP
    query = " OR ".join('"' + t.replace('"', "") + '"' for t in terms)
    hits: list[tuple[Event, float]] = []
    for lo, hi, src in units(scope):
        try:
            hits.extend(store_windows.scoped_search(store, query, lo, hi, src, k, narrow_ids=common))
        except sqlite3.OperationalError as ex:
            log.debug("fts skipped: %s", ex)
            return []
    hits.sort(key=lambda h: h[1])
    return hits[:k]


def _dense(store: Store, embedder: Embedder, qvec: np.ndarray, scope: Scope, k: int) -> list[tuple[int, float]]:
    best: list[tuple[int, float]] = []
    for lo, hi, src in units(scope):
        ids, matrix = vectors.in_range(store, embedder.name, embedder.dim, lo, hi, src, DENSE_LIMIT)
        if not ids:
            continue
        sims = matrix @ qvec
        top = np.argsort(-sims)[:k]
        best.extend((ids[i], float(sims[i])) for i in top)
    best.sort(key=lambda h: -h[1])
    return best[:k]


def retrieve(store: Store, question: str, scope: Scope, embedder: Embedder | None = None,
             choices: Sequence[str] = (), k: int = 20, qvec: np.ndarray | None = None) -> list[Hit]:
    """The k best events for a question inside its scope, best first (qvec: the query's embedding)."""
    text = query_text(question, choices)
    if not text:
        return []
    fts = _fts(store, text, scope, k)
    if qvec is None and embedder is not None:
        qvec = embedder.embed([text])[0]
    dense = _dense(store, embedder, qvec, scope, k) if embedder is not None and qvec is not None else []
    scores: dict[int, float] = {}
    events = {ev.id: ev for ev, _ in fts}
    bm25 = {ev.id: s for ev, s in fts}
    cosine = dict(dense)
    for rank, (ev, _) in enumerate(fts):
        scores[ev.id] = scores.get(ev.id, 0.0) + 1.0 / (RRF_K + rank)
    for rank, (event_id, _) in enumerate(dense):
        scores[event_id] = scores.get(event_id, 0.0) + 1.0 / (RRF_K + rank)
    ranked = sorted(scores, key=lambda i: -scores[i])[:k]
    hits = []
    for event_id in ranked:
        ev = events.get(event_id) or store.get_event(event_id)
        hits.append(Hit(ev, scores[event_id], bm25.get(event_id), cosine.get(event_id)))
    return hits


def relevant(hits: Sequence[Hit]) -> list[Hit]:
    """Hits that matched by words or by a clearly similar meaning."""
    return [h for h in hits if h.bm25 is not None or (h.cosine or 0.0) >= MIN_DENSE]


def answer_order(hits: Sequence[Hit], backwards: bool = False) -> list[Hit]:
    """Relevant hits, best first; for 'last time' questions the strong ones (within 80% of the best score)
    come newest first, since the most recent match answers."""
    chosen = relevant(hits)
    if not backwards or not chosen:
        return chosen
    best = chosen[0].score
    return sorted([h for h in chosen if h.score >= 0.8 * best], key=lambda h: -h.event.start_ms) + \
        [h for h in chosen if h.score < 0.8 * best]


TYPED_REACH = 3
"""How many of the best lines a question's kind of answer (a person for 'who') may choose among."""


def _opens(question: str, openings: tuple[str, ...]) -> str | None:
    """The longest of `openings` the question begins with, as whole words ('when' opens 'when's', 'whenever' is no
    'when'), else None."""
    text = " ".join(question.lower().replace("\u2019", "'").split())
    found = [o for o in openings if text == o or text.startswith(o) and not text[len(o)].isalnum()]
    return max(found, key=len, default=None)


def answer_kind(question: str) -> str | None:
    """The kind of thing the question's answer is, by how it opens (the lexicon's [answers]: person, number,
    date), else None; the longest opening decides ('what time' is a number, not a date). A date only for a thing
    to come: a line's own time answers when a thing was done."""
    kinds = [(opening, kind) for kind in ("person", "number", "date")
             if (opening := _opens(question, lexicon().answers[kind])) is not None]
    kind = max(kinds, key=lambda k: len(k[0]))[1] if kinds else None
    return None if kind == "date" and not asks_coming(question) else kind


def asks_coming(question: str) -> bool:
    """Whether the question asks about something to come ('when's the quote at Hannah's?', 'what time's Kai
    coming?'): what was said of it last stands, since a plan changes."""
    opening = _opens(question, lexicon().answers["coming"])
    return opening is not None and \
        not set(lexicon_words(question[len(opening):])) & set(lexicon().answers["not_coming"])


def newest_word(question: str, events: list[Event]) -> list[Event]:
    """Events best first, with the newest line that holds every word of the question the best line holds put first
    ('Hannah Pike quote - back to Thu 17 Dec, now 4pm' over the best 'Hannah Pike quote MOVED to Fri 18 Dec'):
    what was said of a plan last stands; when the best line holds the kind of answer asked for, so must the newest."""
    if not events:
        return events
    asked = set(terms.terms(question))
    held = asked & set(terms.terms(events[0].content))
    kind = answer_kind(question)
    typed = kind is not None and fits(kind, events[0].content)
    same = [e for e in events if held <= set(terms.terms(e.content)) and (not typed or fits(kind or "", e.content))]
    newest = max(same, key=lambda e: (e.start_ms, e.id))
    return [newest, *(e for e in events if e is not newest)]


def fits(kind: str, line: str) -> bool:
    """Whether a line holds a thing of the kind: someone speaking or named (person), a figure or a number word
    (number), a figure, a day's or a month's name (date)."""
    if kind == "person":
        return bool(terms.speaker(line) or terms.names(line))
    said = set(lexicon_words(line))
    if any(c.isdigit() for c in line) or said & _NUMBER_WORDS:
        return True
    return kind == "date" and bool(said & _DAY_WORDS)


_NUMBER_WORDS = frozenset(lexicon().numbers[1:])
_DAY_WORDS = frozenset({*lexicon().time["weekdays"], *lexicon().time["months"], "tomorrow", "tonight", "today"})


def typed_first(question: str, events: list[Event]) -> list[Event]:
    """Events best first, those of the best TYPED_REACH that hold the kind of answer the question asks for put
    first: for 'who', a line where someone other than the wearer speaks or is named; for 'how many' or 'what
    time', one with a number; for 'when', one with a number or a day."""
    kind = answer_kind(question)
    if kind is None:
        return events
    fit = [e for e in events[:TYPED_REACH] if fits(kind, e.content)]
    return fit + [e for e in events if e not in fit]


def embed_missing(store: Store, embedder: Embedder, since_ms: int | None = None,
                  until_ms: int | None = None, batch: int = 256, limit: int = 1_000_000):
    """Embed events that have no vector yet (newest first); yields how many were done per batch."""
    done = 0
    while done < limit:  # the cheap "anything missing?" count runs before the first batch only
        todo = vectors.missing(store, embedder.name, since_ms, until_ms, min(batch, limit - done),
                               **({} if done == 0 else {"count_first": None}))
        if not todo:
            return
        ids = [i for i, _ in todo]
        vectors.put(store, embedder.name, ids, embedder.embed([t for _, t in todo]))
        done += len(ids)
        yield len(ids)
