"""Temporal operators for open questions, computed in code from matched events: last time, how long,
what came after/before, whether one thing came before another, how many times, where something is.

The model (if any) only phrases the finding; the template phrasing here is the answer with --no-llm.
An answer's time is always the time of the first event it cites."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from egocli.models.base import Embedder
from egocli.reasoning import terms
from egocli.reasoning.evidence import Pool, Query
from egocli.reasoning.scope import Scope
from egocli.reasoning.tcot import Renderer
from egocli.store import Event, Store
from egocli.store import windows as store_windows
from egocli.timeutil import local

OCCURRENCE_GAP_MS = 120_000
"""Matching events closer than this are one occurrence (one bout of watering, not twelve narrations)."""
SEARCH_K = 200
"""Candidates read per scope unit when counting."""

_WHEN = (r"(?:today|yesterday|tonight|earlier(?: today)?|this (?:morning|afternoon|evening|week)|last (?:night|week)|"
         r"(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day(?: (?:morning|afternoon|evening|night))?|"
         r"in the (?:last|past) [\w ]+?|during the week|so far|recently|lately|most recently|in total|all week|"
         r"the last time)")
_TAIL = rf"(?:,?\s+{_WHEN})*\s*[?.!]*$"
_LEAD = re.compile(rf"^(?:{_WHEN}\s*,?\s*)+")
"""Time words before or after the question proper: the scope reads them; the form ignores them."""
_FORMS = [
    ("order", re.compile(r"^(?:did|have|had) i (.+?) (before|after) (?:i |my |the )?(.+?)" + _TAIL)),
    ("first", re.compile(r"^(?:when (?:did|have) i first|when was the first time (?:that )?i|"
                         r"(?:the )?first time (?:that )?i) (.+?)" + _TAIL)),
    ("first", re.compile(r"^what (?:is|was|were) (?:my|the) (?:very )?first (.+?)" + _TAIL)),
    ("last", re.compile(r"^(?:when (?:did|have) i(?: most recently| last)?|when was the last time (?:that )?i|"
                        r"what time did i(?: last)?|(?:the )?last time (?:that )?i|when last did i) (.+?)"
                        r"(?: last| most recently)?" + _TAIL)),
    ("last", re.compile(r"^what (?:is|was|were) (?:my|the) (?:latest|last|most recent) (.+?)" + _TAIL)),
    ("count", re.compile(r"^(?:count )?(?:how many times|how often) (?:did |have |had |do )?i (.+?)" + _TAIL)),
    ("count", re.compile(r"^how many (.+?) (?:did|have|had|do) i (\w+)" + _TAIL)),
    ("duration", re.compile(r"^(?:for )?(?:how long (?:did|was|were|have|had) i(?: been| spend| spent)?|"
                            r"how much time did i spend) (.+?)(?: for)?" + _TAIL)),
    ("duration", re.compile(r"^how long (?:did|was) (?:the |my )?(.+?)(?: take| last)?" + _TAIL)),
    ("next", re.compile(r"^(?:what|where) (?:did i do|did i go|happened|was i doing|came) (?:right |just |straight )?"
                        r"(after|before) (?:i )?(.+?)" + _TAIL)),
    ("next", re.compile(r"^(after|before) (?:i )?(.+?),? (?:what|where) (?:did i do|did i go|happened)" + _TAIL)),
    ("where", re.compile(r"^where (?:is|are|was|were|did i (?:put|leave|place|keep|store|last see)|"
                         r"have i (?:put|left)) (?:my |the |our |a |an )?(.+?)" + _TAIL)),
]


def _phrases(form: str, groups: tuple[str, ...]) -> tuple[str, ...]:
    """A form's phrases from its match ('how many capsules did I take' -> 'take capsules')."""
    if form == "count" and len(groups) == 2:
        return (f"{groups[1]} {groups[0]}",)
    return tuple(g.strip(" ?.,") for g in groups)


@dataclass(frozen=True)
class Finding:
    """What the log says to an open question of a known form."""

    form: str
    """last, count, duration, next, order or where."""
    text: str
    """The answer as a template sentence (used when no model phrases it)."""
    events: tuple[Event, ...]
    """Events cited, the one whose time the answer gives first; empty when nothing matched."""
    facts: str
    """The computed facts, for the model to phrase."""


def parse_form(question: str) -> tuple[str, tuple[str, ...]] | None:
    """(form, its phrases) for a question of a known form, else None."""
    text = _LEAD.sub("", re.sub(r"\s+", " ", question.strip().lower()))
    for form, pattern in _FORMS:
        m = pattern.match(text)
        if m:
            return form, _phrases(form, m.groups())
    return None


class Matcher:
    """Events in scope that are about a phrase: its rare words (stemmed, synonyms folded) or its meaning."""

    def __init__(self, store: Store, scope: Scope, embedder: Embedder | None) -> None:
        self.pool = Pool(store, scope, embedder)
        self.scope = scope

    def matches(self, phrase: str) -> list[Event]:
        """Events about the phrase, before the moment of asking, in time order."""
        q = self.pool.query(phrase, self.pool.rarity(phrase))
        if not q.terms:
            return []
        found = [(self._about(q, e), e) for e in self.pool.search(q, SEARCH_K) if e.start_ms <= self.scope.at_ms]
        best = max((tier for tier, _ in found), default=0)
        return sorted((e for tier, e in found if tier and tier == best), key=lambda e: (e.start_ms, e.id))

    def between(self, a: Event, b: Event) -> int:
        """How many events of a's source start strictly between two events (at most 2 counted)."""
        inside = store_windows.overlapping(self.pool.store, a.start_ms + 1, b.start_ms, a.source_id, 8)
        return sum(1 for e in inside if a.start_ms < e.start_ms < b.start_ms and e.id not in (a.id, b.id))

    def _about(self, q: Query, ev: Event) -> int:
        """0: not about the phrase; 2: names every content word; 1: close in meaning. Only the strongest
        tier found is kept ('scrub the pan' does not fall back on 'cleaning the pan' when it is logged)."""
        own = set(self.pool.terms_of(ev))
        heavy = [t for t in q.terms if t not in terms.LIGHT] or list(q.terms)
        plain = terms.recall(heavy, own)
        cosine = 0.0
        if q.vec is not None:
            vec = self.pool.vec_of(ev)
            cosine = float(vec @ q.vec) if vec is not None else 0.0
        # every content word of the phrase (light verbs aside), most of them with a close meaning, or a very
        # close meaning alone: 'turn on the kettle' is not 'take the kettle'
        return 2 if plain >= 0.99 else 1 if (plain >= 0.5 and cosine >= 0.6) or cosine >= 0.72 else 0


def occurrences(events: list[Event], gap_ms: int = OCCURRENCE_GAP_MS,
                between: Callable[[Event, Event], int] | None = None) -> list[list[Event]]:
    """Events in time order grouped into occurrences: one goes on while the next match follows within
    gap_ms with at most one other event between (a glance at the phone during a walk); narrated actions
    repeated between other actions ('slice the chicken' five times) count each time."""
    out: list[list[Event]] = []
    for ev in events:
        last = out[-1][-1] if out else None
        if last is not None and ev.start_ms - max(e.end_ms for e in out[-1]) <= gap_ms and \
                (between is None or between(last, ev) <= 1):
            out[-1].append(ev)
        else:
            out.append([ev])
    return out


def _duration(ms: int) -> str:
    minutes, seconds = divmod(max(ms, 0) // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def find(store: Store, scope: Scope, question: str, embedder: Embedder | None) -> Finding | None:
    """The finding for an open question of a known form (None: not a form computed here)."""
    parsed = parse_form(question)
    if parsed is None:
        return None
    form, phrases = parsed
    matcher = Matcher(store, scope, embedder)
    stamp = Renderer(scope.videos, scope.at_ms).stamp
    if form == "order":
        return _order(matcher, phrases, stamp)
    if form == "next":
        return _next(store, matcher, phrases, stamp)
    phrase = phrases[0]
    found = _of_modality(store, scope, phrase)
    if found is None:
        found = matcher.matches(phrase)
    if not found:
        return Finding(form, f"Nothing in the log about \"{phrase}\".", (), f"no event about {phrase}")
    groups = occurrences(found, between=matcher.between)
    if form == "count":
        shown = [g[0] for g in groups[-5:]]  # the latest five, cited in the order the answer gives them
        times = ", ".join(stamp(e.start_ms, e.source_id) for e in shown)
        text = f"{len(groups)} time{'s' if len(groups) != 1 else ''} ({'the last five: ' if len(groups) > 5 else ''}{times})."
        return Finding(form, text, tuple(shown), f"{phrase}: {len(groups)} occurrences, at {times}")
    if form == "duration":
        last = groups[-1]
        took = max(e.end_ms for e in last) - last[0].start_ms
        total = sum(max(e.end_ms for e in g) - g[0].start_ms for g in groups)
        text = (f"{_duration(took)}, from {stamp(last[0].start_ms, last[0].source_id)} to "
                f"{stamp(max(e.end_ms for e in last), last[0].source_id)}"
                + (f" (the last of {len(groups)} times, {_duration(total)} in all)." if len(groups) > 1 else "."))
        return Finding(form, text, (last[0],), f"{phrase}: the last time took {_duration(took)}"
                       + (f"; {len(groups)} times, {_duration(total)} in all" if len(groups) > 1 else ""))
    if form == "first":
        first = groups[0][0]
        when = stamp(first.start_ms, first.source_id)
        return Finding(form, f"First time: {when}: {first.content}", (first,),
                       f"{phrase}: first at {when}: {first.content}")
    last = groups[-1][-1]
    when = stamp(last.start_ms, last.source_id)
    lead = "Last seen" if form == "where" else "Last time"
    return Finding(form, f"{lead}: {when}: {last.content}", (last,), f"{phrase}: last at {when}: {last.content}")


MODALITY_NOUNS = {"note": "note", "notes": "note", "reminder": "tool", "transcript": "speech"}
"""Nouns that name a kind of event rather than its content ('my first note' is the oldest note)."""


def _of_modality(store: Store, scope: Scope, phrase: str) -> list[Event] | None:
    """The events of the modality a phrase names, oldest first, inside the scope; None for other phrases."""
    from egocli.store import EventFilter

    modality = MODALITY_NOUNS.get(phrase.strip())
    if modality is None:
        return None
    spans = scope.windows or ((None, scope.at_ms + 1),)
    found = {ev.id: ev for lo, hi in spans
             for ev in store.events(EventFilter(since_ms=lo, until_ms=hi, modalities=(modality,), limit=5000))}
    return sorted(found.values(), key=lambda ev: (ev.start_ms, ev.id))


def _order(matcher: Matcher, phrases: tuple[str, ...], stamp) -> Finding:
    first, relation, second = phrases
    a, b = matcher.matches(first), matcher.matches(second)
    if not a or not b:
        missing = first if not a else second
        return Finding("order", f"Nothing in the log about \"{missing}\".", tuple((a or b)[:1]),
                       f"no event about {missing}")
    eb = b[-1]  # the latest time of the reference; the asked action that day, on the asked side of it
    day = [e for e in a if local(e.start_ms).date() == local(eb.start_ms).date()] or a
    side = [e for e in day if (e.start_ms < eb.start_ms if relation == "before" else e.start_ms > eb.start_ms)]
    ea = (side[0] if relation == "before" else side[-1]) if side else \
        min(day, key=lambda e: abs(e.start_ms - eb.start_ms))
    holds = bool(side)
    ta, tb = stamp(ea.start_ms, ea.source_id), stamp(eb.start_ms, eb.source_id)
    text = f"{'Yes' if holds else 'No'}: {ta}: {ea.content}; {tb}: {eb.content}."
    return Finding("order", text, (ea, eb), f"{first} first at {ta}; {second} first at {tb}; "
                   f"so {first} {relation} {second}: {'yes' if holds else 'no'}")


def _next(store: Store, matcher: Matcher, phrases: tuple[str, ...], stamp) -> Finding:
    relation, phrase = phrases
    found = matcher.matches(phrase)
    if not found:
        return Finding("next", f"Nothing in the log about \"{phrase}\".", (), f"no event about {phrase}")
    group = occurrences(found, between=matcher.between)[-1]
    about = {e.id for e in found}
    if relation == "after":
        end = max(e.end_ms for e in group)
        near = store_windows.overlapping(store, end, end + 3_600_000, group[0].source_id, 60)
        near = [e for e in near if e.start_ms >= group[-1].start_ms and e.id not in about
                and e.start_ms <= matcher.scope.at_ms]
        other = near[0] if near else None
    else:
        start = group[0].start_ms
        near = store_windows.overlapping(store, start - 3_600_000, start, group[0].source_id, 400)
        near = [e for e in near if e.start_ms < start and e.id not in about]
        other = near[-1] if near else None
    anchor = group[-1] if relation == "after" else group[0]
    if other is None:
        return Finding("next", f"Nothing in the log {relation} {stamp(anchor.start_ms, anchor.source_id)}.",
                       (anchor,), f"{phrase} at {stamp(anchor.start_ms, anchor.source_id)}; nothing logged {relation}")
    when = stamp(other.start_ms, other.source_id)
    text = f"{when}: {other.content} ({relation} {anchor.content} at {stamp(anchor.start_ms, anchor.source_id)})."
    return Finding("next", text, (other, anchor), f"{phrase} at {stamp(anchor.start_ms, anchor.source_id)}; "
                   f"{relation} it, at {when}: {other.content}")
