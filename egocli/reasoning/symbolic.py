"""The symbolic scorer: every multiple-choice option scored from its own evidence in the log.

Options are parsed (options.py) and scored by what they claim:
- time spans: the events at each span, by relevance to the question (term overlap weighted towards terms
  found at few options' spans, specificity, embedding similarity) times how well the event fits the span
  (intersection over union); a multi-span option scores the mean of its spans, and when the question
  quotes as many phrases as each option has spans, span i is checked against phrase i;
- things/actions, inside the question's own time span ('between X and Y, which ...'): the events there
  that name the option, also weighted by their relevance to the question;
- things/actions related to an anchor ('while / after / before <something>'): the option's matches in
  scope, weighted by their time relation to the best matches of the anchor;
- things/actions otherwise: how much of the option (rare words weigh more) is found in scope, and how
  well its best match fits;
- sequences: the first time each item is found in scope; Kendall's tau between the option's order and
  those times.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from egocli.models.base import Embedder
from egocli.reasoning import choices as opts
from egocli.reasoning import terms
from egocli.reasoning.answer import letters_for
from egocli.reasoning.evidence import LONG_MS, Pool, Query, fit, strip_tags
from egocli.reasoning.choices import Option, Span
from egocli.reasoning.scope import Scope
from egocli.store import Event, Store

_RELATION = re.compile(r"\b(while|during|after|before)\b\s+(.+)", re.I)
_TRAILER = re.compile(r"\s*\b(?:in|of|from)\s+(?:this|the|these)\s+videos?\b.*$|\?\s*$", re.I)


@dataclass(frozen=True)
class OptionScore:
    """One option's symbolic score and the events it rests on."""

    letter: str
    """A-E."""
    kind: str
    """spans, item, sequence or none."""
    score: float
    """0..1 (0: no evidence)."""
    events: tuple[Event, ...] = ()
    """The best evidence, best first (for the first found item first, in a sequence)."""
    detail: str = ""
    """How the score came about, for --explain."""


@dataclass(frozen=True)
class Judgement:
    """The scorer's view of a question's options."""

    mode: str
    """How the options were checked: spans, within, relation, exists, sequence or none."""
    scores: tuple[OptionScore, ...]
    """Per option, in order."""
    options: tuple[Option, ...] = ()
    """The options as parsed."""

    @property
    def best(self) -> int | None:
        """Index of the top option (None when nothing has evidence)."""
        top = max(range(len(self.scores)), key=lambda i: self.scores[i].score, default=None)
        return top if top is not None and self.scores[top].score > 0 else None

    @property
    def margin(self) -> float:
        """(top - runner-up) / top: how clearly the evidence prefers one option (0 when none)."""
        ranked = sorted((s.score for s in self.scores), reverse=True)
        if not ranked or ranked[0] <= 0:
            return 0.0
        return (ranked[0] - (ranked[1] if len(ranked) > 1 else 0.0)) / ranked[0]

    def shares(self) -> list[float]:
        """Scores normalised to sum 1 (all 0 when nothing has evidence)."""
        total = sum(s.score for s in self.scores)
        return [s.score / total if total > 0 else 0.0 for s in self.scores]


def judge(store: Store, scope: Scope, question: str, choices: Sequence[str],
          embedder: Embedder | None) -> Judgement:
    """Score every option from the log inside the question's scope (no model call)."""
    parsed = opts.parse_options(choices, scope)
    pool = Pool(store, scope, embedder)
    kinds = {o.kind for o in parsed} - {opts.NONE}
    mode, scores = "none", [_empty(o) for o in parsed]
    qspans = _question_spans(question, scope) if kinds else []
    relation = _relation(question) if kinds else None
    if kinds == {opts.SPANS}:
        mode, scores = "spans", _spans(pool, question, parsed)
    elif kinds == {opts.SEQUENCE}:
        mode, scores = "sequence", _sequences(pool, question, parsed)
    elif kinds and qspans:
        mode, scores = "within", _within(pool, question, qspans, parsed)
    elif kinds and relation is not None:
        mode, scores = "relation", _related(pool, question, relation, parsed)
    elif kinds:
        mode, scores = "exists", _exists(pool, parsed, question)
    return Judgement(mode, tuple(scores), tuple(parsed))


def _empty(o: Option, detail: str = "") -> OptionScore:
    return OptionScore(letters_for(5)[o.index], o.kind, 0.0, (), detail or o.note or "nothing to check")


def _question_spans(question: str, scope: Scope) -> list[Span]:
    probe = opts.parse_options([question], scope)[0]
    return list(probe.spans) if probe.kind == opts.SPANS else []


def _relation(question: str) -> tuple[str, str] | None:
    """('while' | 'after' | 'before', the anchor's words) for 'which ... while / after / before X?'."""
    m = _RELATION.search(strip_tags(question))
    if m is None:
        return None
    word = m.group(1).lower()
    anchor = _TRAILER.sub("", m.group(2)).strip()
    if not terms.terms(anchor):
        return None
    return ("while" if word in ("while", "during") else word), anchor


# --- time spans -------------------------------------------------------------------------------------------

def _spans(pool: Pool, question: str, parsed: list[Option]) -> list[OptionScore]:
    plain = pool.query(question)
    at = {(o.index, i): pool.within(plain, span) if span.end_ms - span.start_ms >= LONG_MS else pool.at(span)
          for o in parsed for i, span in enumerate(o.spans)}
    found = [set().union(*(set(pool.terms_of(e)) for i in range(len(o.spans)) for e in at[(o.index, i)]))
             for o in parsed if o.kind == opts.SPANS]
    phrases = opts.quoted(question)
    aligned = bool(phrases) and all(len(o.spans) == len(phrases) for o in parsed if o.kind == opts.SPANS)
    texts = phrases if aligned else [question]
    vocab = {t for text in texts for t in terms.terms(strip_tags(text))}
    weights = terms.weights_by_spread(found, vocab)
    queries = [pool.query(t, weights) for t in texts]
    out = []
    for o in parsed:
        if o.kind != opts.SPANS:
            out.append(_empty(o))
            continue
        per_span = []
        for i, span in enumerate(o.spans):
            q = queries[i if aligned else 0]
            scored = [(pool.relevance(q, e) * (0.4 + 0.6 * fit(e, span)), e) for e in at[(o.index, i)]]
            per_span.append(max(scored, key=lambda p: p[0], default=(0.0, None)))
        score = sum(s for s, _ in per_span) / len(per_span)
        best = tuple(e for _, e in sorted(per_span, key=lambda p: -p[0]) if e is not None)
        out.append(OptionScore(letters_for(5)[o.index], o.kind, score, best[:3],
                               f"{len(per_span)} span(s), {sum(e is not None for _, e in per_span)} with events"))
    return _newest_first(pool, parsed, out) if pool.scope.backwards else out


def _newest_first(pool: Pool, parsed: list[Option], scored: list[OptionScore]) -> list[OptionScore]:
    """For 'when did I last ...': of the options whose evidence is nearly as strong as the best (80%),
    the latest gets a bonus of 0.1, since the most recent time answers."""
    top = max((s.score for s in scored), default=0.0)
    close = [o for o, s in zip(parsed, scored) if top > 0 and s.score >= 0.8 * top and o.spans]
    if len(close) < 2:
        return scored
    latest = max(close, key=lambda o: max(sp.start_ms for sp in o.spans)).index
    return [OptionScore(s.letter, s.kind, min(s.score + 0.1, 1.0), s.events, s.detail + ", the latest")
            if i == latest else s for i, s in enumerate(scored)]


# --- things and actions -----------------------------------------------------------------------------------

def _within(pool: Pool, question: str, qspans: list[Span], parsed: list[Option]) -> list[OptionScore]:
    """Options found among the events of the question's own span(s)."""
    events = {e.id: e for span in qspans for e in pool.at(span)}
    q = pool.query(question)
    out = []
    for o in parsed:
        if o.kind == opts.NONE:
            out.append(_empty(o))
            continue
        oq = pool.query(o.text)
        scored = []
        for e in events.values():
            timing = max(fit(e, span) for span in qspans)
            scored.append((pool.relevance(oq, e) * (0.5 + 0.5 * timing) * (0.5 + pool.relevance(q, e)) / 1.5, e))
        scored.sort(key=lambda p: -p[0])
        score = scored[0][0] if scored else 0.0
        out.append(OptionScore(letters_for(5)[o.index], o.kind, score, tuple(e for _, e in scored[:2]),
                               f"best of {len(scored)} events in the question's span"))
    return out


def _timing(ev: Event, anchors: list[Event], relation: str) -> float:
    """0..1: how well an event stands in the relation to the anchor events."""
    best = 0.0
    for a in anchors:
        if relation == "while":
            inter = min(ev.end_ms, a.end_ms) - max(ev.start_ms, a.start_ms)
            shorter = max(min(ev.end_ms - ev.start_ms, a.end_ms - a.start_ms), 1000)
            best = max(best, min(max(inter, 0) / shorter, 1.0))
        else:
            gap = ev.start_ms - a.end_ms if relation == "after" else a.start_ms - ev.end_ms
            if gap >= -2000:
                best = max(best, 1.0 / (1.0 + max(gap, 0) / 120_000))
    return best


def _anchors(pool: Pool, anchor: str) -> list[Event]:
    aq = pool.query(anchor, pool.rarity(anchor))
    ranked = sorted(((pool.relevance(aq, e), e) for e in pool.search(aq)), key=lambda p: -p[0])
    if not ranked:
        return []
    return [e for s, e in ranked[:5] if s >= 0.85 * ranked[0][0]]


def _related(pool: Pool, question: str, relation: tuple[str, str], parsed: list[Option]) -> list[OptionScore]:
    """Options whose matches stand in the asked relation ('while', 'after', 'before') to the anchor."""
    kind, anchor = relation
    anchors = _anchors(pool, anchor)
    exists = _exists(pool, parsed)
    out = []
    for o, plain in zip(parsed, exists):
        if o.kind == opts.NONE or not anchors:
            out.append(plain)
            continue
        oq = pool.query(o.text)
        anchor_ids = {a.id for a in anchors}
        scored = [(pool.relevance(oq, e) * _timing(e, anchors, kind), e) for e in pool.search(oq)
                  if e.id not in anchor_ids]
        best = max(scored, key=lambda p: p[0], default=(0.0, None))
        score = 0.75 * best[0] + 0.25 * plain.score
        events = (best[1], *anchors[:1]) if best[1] is not None else plain.events
        out.append(OptionScore(plain.letter, o.kind, score, events, f"{kind} the anchor: {best[0]:.2f}"))
    return out


def _exists(pool: Pool, parsed: list[Option], question: str = "") -> list[OptionScore]:
    """Options by how much of them the scope holds (rare words weigh more), and by their best match, which
    counts more when the same event also bears on the question ('who told me the deadline moved?': the
    person named beside the deadline, not any person in the log)."""
    pool.prepare([question, *(o.text for o in parsed if o.kind != opts.NONE)])
    q = pool.query(question) if question else None
    out = []
    for o in parsed:
        if o.kind == opts.NONE:
            out.append(_empty(o))
            continue
        oq = pool.query(o.text, pool.rarity(o.text))
        found = pool.search(oq)
        held = set().union(*(set(pool.terms_of(e)) for e in found)) if found else set()
        coverage = terms.recall(oq.terms, held, oq.weights)
        joint = sorted(((pool.relevance(oq, e) * (0.5 + 0.5 * pool.relevance(q, e) if q else 1.0), e)
                        for e in found), key=lambda p: -p[0])
        best = joint[0][0] if joint else 0.0
        out.append(OptionScore(letters_for(5)[o.index], o.kind, 0.5 * coverage + 0.5 * best,
                               tuple(e for _, e in joint[:2]), f"found {coverage:.0%} of its words"))
    return out


# --- sequences --------------------------------------------------------------------------------------------

def attribute(pool: Pool, items: Sequence[str], events: Sequence[Event],
              salient: dict[int, set[str]]) -> dict[str, list[Event]]:
    """The events about each item: an event naming several items belongs to the one it names most (by its
    salient terms, then how often), else the one it names first ('added butter to Cheese Baguette' is
    about butter)."""
    queries = {item: pool.query(item) for item in items}
    out: dict[str, list[Event]] = {item: [] for item in items}
    for ev in events:
        seq = terms.stem_all(f"{ev.modality} {ev.content}")
        ranked = []
        for item, iq in queries.items():
            share = terms.recall(iq.terms, salient[ev.id])
            if share >= 0.5:
                first = min((seq.index(t) for t in iq.terms if t in seq), default=len(seq))
                ranked.append((share, sum(seq.count(t) for t in iq.terms), -first, item))
        if ranked:
            out[max(ranked)[3]].append(ev)
    return out


def first_time(pool: Pool, named: list[Event], context: Query) -> Event | None:
    """The first of an item's events that fit the question best (within 90% of the best relevance to the
    question: 'added' events for an order of adding)."""
    if not named:
        return None
    fits = [(pool.relevance(context, e), e) for e in named]
    top = max(s for s, _ in fits)
    return min((e for s, e in fits if s >= 0.9 * top), key=lambda e: (e.start_ms, e.id))


def kendall_tau(order: Sequence[int]) -> float:
    """Kendall's tau between positions 0..n-1 and the given ranks (1: same order, -1: reversed)."""
    pairs = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))]
    if not pairs:
        return 0.0
    agree = sum(1 if order[i] < order[j] else -1 if order[i] > order[j] else 0 for i, j in pairs)
    return agree / len(pairs)


def _sequences(pool: Pool, question: str, parsed: list[Option]) -> list[OptionScore]:
    context = pool.query(question)
    items = list(dict.fromkeys(item.lower() for o in parsed for item in o.items))
    candidates = list({e.id: e for item in items for e in pool.search(pool.query(item))}.values())
    about = attribute(pool, items, candidates, pool.salient(candidates))
    times = {item: first_time(pool, about[item], context) for item in items}
    out = []
    for o in parsed:
        if o.kind != opts.SEQUENCE:
            out.append(_empty(o))
            continue
        found = [(i, ev) for i, item in enumerate(o.items) if (ev := times[item.lower()]) is not None]
        if len(found) < 2:
            out.append(_empty(o, "fewer than two items found"))
            continue
        ranks = [e.start_ms for _, e in found]
        tau = kendall_tau(ranks)
        share = len(found) / len(o.items)
        score = (tau + 1) / 2 * share
        out.append(OptionScore(letters_for(5)[o.index], o.kind, score, tuple(e for _, e in found),
                               f"order agreement tau={tau:+.2f}, {len(found)}/{len(o.items)} items found"))
    return out


def softmax(values: Sequence[float], temperature: float = 0.1) -> list[float]:
    """Softmax of values (for presenting scores as a prior)."""
    if not values:
        return []
    top = max(values)
    exps = [math.exp((v - top) / temperature) for v in values]
    total = sum(exps)
    return [x / total for x in exps]
