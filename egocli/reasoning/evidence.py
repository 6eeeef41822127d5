"""Evidence from the log inside a question's scope: events at a span, events naming a thing (FTS + embeddings),
and how relevant an event is to a text (weighted term overlap, specificity, embedding similarity)."""

from __future__ import annotations

import logging
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from egocli.models.base import Embedder
from egocli.reasoning import terms
from egocli.reasoning.choices import Span
from egocli.reasoning.retrieval import DENSE_LIMIT, units
from egocli.reasoning.scope import TIME_TAG, Scope
from egocli.core.errors import NotFound
from egocli.store import Event, Store
from egocli.store import vectors
from egocli.store import windows as store_windows

log = logging.getLogger(__name__)
TERM_WEIGHT, PRECISION_WEIGHT, COSINE_WEIGHT = 0.5, 0.15, 0.35
"""How relevance mixes weighted term recall, specificity (share of the event's terms named) and cosine."""
EDGE_MS = 1000
"""Slack around a span when collecting the events at it."""


@dataclass(frozen=True)
class Query:
    """A text to match events against: its terms, term weights and embedding."""

    text: str
    """The text (time tags removed)."""
    terms: tuple[str, ...]
    """Its content terms."""
    vec: np.ndarray | None
    """Its embedding (None without an embedder)."""
    weights: Mapping[str, float] | None = None
    """Per-term weights (None: equal)."""


def strip_tags(text: str) -> str:
    """A text without its <TIME ...> tags."""
    return " ".join(TIME_TAG.sub(" ", text).split())


POINT_MS = 120_000
"""Events this close to a single moment ('at 8:00') are looked at; closeness decays over a minute."""
LONG_MS = 1_800_000
"""A span at least this long (a day, a morning) is a period to find the event in, not a moment to match."""


def fit(ev: Event, span: Span) -> float:
    """How well an event matches a span in time: intersection over union; for a single moment, closeness
    (1 when the event covers it, 1/2 a minute away); for a long period, the share of the event inside it."""
    if span.end_ms <= span.start_ms:
        gap = max(ev.start_ms - span.start_ms, span.start_ms - ev.end_ms, 0)
        return 1.0 / (1.0 + max(gap - EDGE_MS, 0) / 60_000)
    inter = max(min(ev.end_ms, span.end_ms) - max(ev.start_ms, span.start_ms), 0)
    if span.end_ms - span.start_ms >= LONG_MS:
        return min(inter / max(ev.end_ms - ev.start_ms, 1), 1.0) if inter or span.start_ms <= ev.start_ms < span.end_ms \
            else 0.0
    union = max(ev.end_ms, span.end_ms) - min(ev.start_ms, span.start_ms)
    return inter / union if union > 0 else 0.0


class Pool:
    """The log inside one question's scope, with cached event terms, vectors and searches."""

    def __init__(self, store: Store, scope: Scope, embedder: Embedder | None) -> None:
        self.store, self.scope, self.embedder = store, scope, embedder
        self._terms: dict[int, list[str]] = {}
        self._vecs: dict[int, np.ndarray] | None = None
        self._stacked: tuple[list[int], np.ndarray] | None = None
        self._text_vecs: dict[str, np.ndarray] = {}
        self._rarity: dict[str, float] = {}
        self._total: int | None = None

    def query(self, text: str, weights: Mapping[str, float] | None = None) -> Query:
        """A Query for a text (embedded once per text)."""
        clean = strip_tags(text)
        return Query(clean, tuple(terms.terms(clean)), self.embed([clean])[0] if self.embedder else None, weights)

    def prepare(self, texts: Sequence[str]) -> None:
        """Embed the texts later queried (question, options) in one batch instead of one call each."""
        if self.embedder is not None:
            self.embed([strip_tags(t) for t in texts if t])

    def embed(self, texts: Sequence[str]) -> list[np.ndarray | None]:
        """Embeddings of texts, cached (None for each without an embedder)."""
        todo = [t for t in dict.fromkeys(texts) if t not in self._text_vecs]
        if todo and self.embedder is not None:
            for text, vec in zip(todo, self.embedder.embed(todo)):
                self._text_vecs[text] = np.asarray(vec, dtype=np.float32)
        return [self._text_vecs.get(t) for t in texts]

    def terms_of(self, ev: Event) -> list[str]:
        """An event's terms (its modality counts as a word of it)."""
        if ev.id not in self._terms:
            self._terms[ev.id] = terms.terms(f"{ev.modality} {ev.content}")
        return self._terms[ev.id]

    def _scope_vectors(self) -> dict[int, np.ndarray]:
        if self._vecs is None:
            ids, matrix = self._matrix()
            self._vecs = dict(zip(ids, matrix))  # rows are views of the one matrix
        return self._vecs

    def _matrix(self) -> tuple[list[int], np.ndarray]:
        """The scope's stored vectors as one matrix (read once per question, one C copy at most)."""
        if self._stacked is None:
            chunks: list[tuple[list[int], np.ndarray]] = []
            if self.embedder is not None:
                for lo, hi, src in units(self.scope):
                    chunks.append(vectors.in_range(self.store, self.embedder.name, self.embedder.dim, lo, hi, src,
                                                   DENSE_LIMIT))
            ids, rows, seen = [], [], set()
            for chunk_ids, matrix in chunks:  # units may overlap: an event's vector counts once
                keep = [k for k, i in enumerate(chunk_ids) if i not in seen]
                seen.update(chunk_ids)
                if keep:
                    ids += [chunk_ids[k] for k in keep]
                    rows.append(matrix if len(keep) == len(chunk_ids) else matrix[keep])
            self._stacked = (ids, np.concatenate(rows) if ids else np.zeros((0, 1), np.float32))
        return self._stacked

    def vec_of(self, ev: Event) -> np.ndarray | None:
        """An event's stored vector, else its text embedded now (None without an embedder)."""
        if self.embedder is None:
            return None
        found = self._scope_vectors().get(ev.id)
        return found if found is not None else self.embed([ev.content])[0]

    def _fetch(self, events: Sequence[Event]) -> None:
        """Make vec_of cheap for these events: stored vectors of those beyond the scope's matrix read by id
        in one query (a big scope keeps only its newest vectors), the texts of the rest embedded in one batch."""
        if self.embedder is None:
            return
        have = self._scope_vectors()
        todo = [e.id for e in events if e.id not in have]
        if todo:
            have.update(vectors.of_events(self.store, self.embedder.name, self.embedder.dim, todo))
        self.embed([e.content for e in events if e.id not in have])

    def salient(self, events: Sequence[Event]) -> dict[int, set[str]]:
        """Per event, the terms it names more often than most of the given events do. Words every event
        repeats (a recipe's name after each 'added X to ...') then do not make an event about them;
        with fewer than five events every term is salient."""
        counts = {e.id: Counter(terms.stem_all(f"{e.modality} {e.content}")) for e in events}
        distinct = list({e.content: counts[e.id] for e in events}.values())  # a text repeated counts once
        if len(distinct) < 5:
            return {i: set(c) for i, c in counts.items()}
        vocab = set().union(*distinct)
        base = {t: sorted(c[t] for c in distinct)[len(distinct) // 2] for t in vocab}
        return {i: {t for t, n in c.items() if n > base[t]} for i, c in counts.items()}

    def relevance(self, q: Query, ev: Event, salient: set[str] | None = None) -> float:
        """How relevant an event is to a query, 0..1: weighted term recall (of its salient terms, when
        given), specificity and cosine."""
        own = self.terms_of(ev)
        score = TERM_WEIGHT * terms.recall(q.terms, set(own) if salient is None else salient, q.weights)
        score += PRECISION_WEIGHT * terms.precision(set(q.terms), own)
        if q.vec is not None:
            vec = self.vec_of(ev)
            if vec is not None:
                score += COSINE_WEIGHT * max(float(np.dot(vec, q.vec)), 0.0)
        return score

    def at(self, span: Span, limit: int = 200) -> list[Event]:
        """Events overlapping a span (with a second's slack), in time order."""
        pad = POINT_MS if span.end_ms <= span.start_ms else EDGE_MS
        limit = max(limit, 2000) if span.end_ms - span.start_ms >= LONG_MS else limit
        return store_windows.overlapping(self.store, span.start_ms - pad, span.end_ms + pad, span.source_id, limit)

    def within(self, q: Query, span: Span, k: int = 30) -> list[Event]:
        """Events of a long span (a day) that name the query's words or mean much the same."""
        found = {e.id: e for e in self._fts(q, [(span.start_ms, span.end_ms, span.source_id)], k)}
        if q.vec is not None and self.embedder is not None:
            ids, matrix = vectors.in_range(self.store, self.embedder.name, self.embedder.dim, span.start_ms,
                                           span.end_ms, span.source_id, DENSE_LIMIT)
            for row in np.argsort(-(matrix @ q.vec))[:k] if ids else []:
                if ids[row] not in found:
                    found[ids[row]] = self.store.get_event(ids[row])
        return list(found.values())

    def _fts(self, q: Query, parts: list[tuple[int | None, int | None, int | None]], k: int) -> list[Event]:
        raw = [w for w in terms.words(q.text) if w not in terms.STOP and len(w) > 1]
        raw += terms.medicines_named(terms.stem(w) for w in raw)  # 'antibiotic' finds 'amoxicillin'
        if not raw:
            return []
        fts = " OR ".join('"' + w + '"' for w in dict.fromkeys(raw))
        out = []
        for lo, hi, src in parts:
            try:
                out += [ev for ev, _ in store_windows.scoped_search(self.store, fts, lo, hi, src, k)]
            except sqlite3.OperationalError as ex:
                log.debug("fts skipped: %s", ex)
        return out

    def search(self, q: Query, k: int = 30) -> list[Event]:
        """Events in scope that name the query's words (FTS, any word) or mean much the same (embeddings)."""
        found: dict[int, Event] = {e.id: e for e in self._fts(q, units(self.scope), k)}
        if q.vec is not None:
            ids, matrix = self._matrix()
            if ids:
                sims = matrix @ q.vec
                for row in np.argsort(-sims)[:k]:
                    if ids[row] not in found:
                        try:
                            found[ids[row]] = self.store.get_event(ids[row])
                        except NotFound:
                            continue
        self._fetch(list(found.values()))
        return list(found.values())

    def rarity(self, text: str) -> dict[str, float]:
        """Weights for a text's terms by how rare their words are in the whole log (inverse document
        frequency, counted by FTS on the word as written, which stems it its own way)."""
        if self._total is None:
            self._total = max(self.store.size_hint(), 1)  # the order of magnitude is what counts
        total = self._total
        out: dict[str, float] = {}
        for word in terms.words(strip_tags(text)):
            named = terms.terms(word)
            term = named[0] if named else None
            if term is None or term in out:
                continue
            if word not in self._rarity:
                n = store_windows.match_count(self.store, word, 5000)
                # a word the log never uses cannot tell events apart; a light verb barely can
                weight = float(np.log((total + 1) / (n + 1))) + 0.5 if n else 0.3
                self._rarity[word] = weight * (0.3 if term in terms.LIGHT else 1.0)
            out[term] = self._rarity[word]
        return out
