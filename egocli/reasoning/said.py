"""What was said, and what was planned aloud, computed in code: 'what did Helen say at the stand-up?', 'what
did the receptionist say?', and plans for a coming day ('when am I seeing Anna?', 'what's happening next
Tuesday?'), which are found by what was said about them, never by a past window of that weekday."""

from __future__ import annotations

import re
from datetime import date

from egocli.core.lexicon import lexicon
from egocli.core.timephrases import says_clock
from egocli.core.timeutil import local
from egocli.reasoning import coming, digest, kinds, terms
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.store import Event, EventFilter
from egocli.store import windows as store_windows

SPOKEN = ("speech", "text", "note")
"""Modalities that carry words said, read or written (a frame description says nothing anyone said)."""
NEAR_MS = 15 * 60_000
"""Speech this close to a mention of a role ('the receptionist') is taken as theirs."""
SHOWN = 3
"""Lines a 'what did X say' answer gives at most."""
_SPEAKER = re.compile(r"^\s*([A-Z][\w'-]+(?: [A-Z][\w'-]+)?)\s*:")
"""'Helen: we're over budget' names its speaker."""


def said(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'What did X say (about Y)?': X's lines (named as speaker or in the line), else the lines said near the
    last time X (a role: 'the receptionist') is mentioned; Y, when asked, ranks them. None when nothing names
    X or Y: the context is read instead (the speaker may be named otherwise)."""
    of_kind = kinds.events(asked.store, asked.scope, plan.action)  # 'what did Ravi's email say?'
    if of_kind:
        shown = of_kind[-SHOWN:] if not plan.other else \
            [e for e in of_kind if terms.recall(terms.terms(plan.other), set(terms.terms(e.content)))][-SHOWN:]
        if shown:
            text = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
            return Finding("said", f"{text}.", tuple(shown), f"{plan.action}: {text}")
    speaker = _strip(plan.action)
    first, _, rest = plan.other.partition(" ")
    occasion = digest.stretch(asked, rest, -(2 ** 62), asked.scope.at_ms + 1) if first in _AT and rest else None
    if first == "after" and occasion is not None:  # 'after the game': from its end on
        occasion = (occasion[1], occasion[1] + NEAR_MS)
    topic = terms.terms(plan.other) if plan.other and occasion is None and first not in _WHEN else []
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    lines = _spoken_by(asked, speaker) if speaker and speaker not in ("i", "me", "you") else []
    if occasion is not None:
        lines = [e for e in lines if occasion[0] <= e.start_ms <= occasion[1]]
    if not lines and speaker:
        mentions = matcher.matches(speaker, verb_first=False)
        if mentions:
            last = mentions[-1]
            near = store_windows.overlapping(asked.store, last.start_ms - 2 * 60_000, last.start_ms + NEAR_MS,
                                             None, 200)
            lines = [e for e in near if e.modality == "speech" and e.start_ms <= asked.scope.at_ms]
    by_speaker = bool(lines)
    if not lines and (topic or not speaker):
        lines = [e for e in matcher.matches(plan.other or plan.action, verb_first=False) if e.modality in SPOKEN]
    if topic and lines:  # the speaker's lines about the topic first; without the speaker, only those about it
        about = [e for e in lines if terms.recall(topic, set(terms.terms(e.content)))]
        lines = sorted(about, key=lambda e: -terms.recall(topic, set(terms.terms(e.content))))[:SHOWN] if about \
            else (lines[-SHOWN:] if by_speaker else [])
    if not lines:
        return None
    shown = sorted(lines[-SHOWN:] if not topic else lines, key=lambda e: (e.start_ms, e.id))
    text = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
    verdict = _whether(topic, shown) if plan.relation == "whether" and by_speaker else ""
    return Finding("said", f"{verdict}{text}.", tuple(shown), f"what was said ({speaker or plan.other}): {text}")


_AT = frozenset({"at", "in", "during", "after"})
"""Words before an occasion some words were said at ('what did Helen say in the team meeting?'): her words while
it went on (digest.stretch), not her words that name it; 'after the game', those after its end."""
_WHEN = frozenset({"when", "while"})
"""Words before a time that is the speaker's own doing ('what did Gordon say when he came round?'): their latest
words, no topic."""


def _whether(topic: list[str], lines: list[Event]) -> str:
    """The yes or no of 'did X say Y?' from X's lines: a line about Y (most of its words) that says no is a
    no, one that does not is a yes; none about Y is 'not that I heard'; a line about a part of Y says neither."""
    about = [e for e in lines if terms.recall(topic, set(terms.terms(e.content))) >= 0.5]
    if not about:
        return "Not that I heard: "
    if any(_NEGATION & set(re.findall(r"[\w']+", e.content.lower())) for e in about):
        return "No: "
    whole = [e for e in about if terms.recall(topic, set(terms.terms(e.content))) == 1.0]
    return "Yes: " if whole else ""


def _strip(phrase: str) -> str:
    words = [w for w in phrase.lower().split() if w not in ("the", "my", "a", "an", "our", "your")]
    return " ".join(words).removesuffix("'s")


def _spoken_by(asked: Asked, speaker: str) -> list[Event]:
    """Lines in scope that name the speaker as theirs ('Helen: ...') or are said with the name in them."""
    name = speaker.split()[-1]
    spans = asked.scope.windows or ((None, asked.scope.at_ms + 1),)
    found: dict[int, Event] = {}
    for lo, hi in spans:
        for ev, _, _ in asked.store.search(name, EventFilter(since_ms=lo, until_ms=min(hi or asked.scope.at_ms + 1,
                                                                                       asked.scope.at_ms + 1),
                                                             modalities=SPOKEN, limit=200)):
            m = _SPEAKER.match(ev.content)
            if (m and m.group(1).lower().endswith(name)) or ev.modality == "speech":
                found[ev.id] = ev
    return sorted(found.values(), key=lambda e: (e.start_ms, e.id))


def planned(asked: Asked, plan: QuestionPlan) -> Finding:
    """'When am I seeing Anna?', 'what's happening next Tuesday?': the line that said the plan, the latest
    that names what is asked (and the day, when one is named), a line saying when counting most."""
    words = [w for w in terms.words(plan.action) if w not in lexicon().words["filler"]]
    days = list(dict.fromkeys(w for w in [*words, *terms.words(asked.question)] if w in _DAY_WORDS))
    content = terms.terms(" ".join(w for w in words if w not in _DAY_WORDS and w not in _PLAN_LIGHT))
    query = " ".join(dict.fromkeys([*days, *(w for w in words if w not in _DAY_WORDS and w not in terms.STOP
                                            and w not in _PLAN_LIGHT)]))
    span = coming.asked_span(asked.question, asked.scope.at_ms)
    if span is not None and not [w for w in content if w not in _COMING_WORDS]:  # 'what's on next week?
        return _plans_for(asked, span)
    if not query:
        return Finding("planned", "Nothing planned that I can see.", (), "no plan named")
    hits = {ev.id: ev for ev, _, _ in asked.store.search(query, EventFilter(until_ms=asked.scope.at_ms + 1, limit=200))}
    naming = [ev for ev in _naming(asked, span) if ev.modality in SPOKEN] if span is not None else []
    on_day = {ev.id for ev in naming}  # said or written for that day ('Thu 17 Dec shift 10-6'), not a frame seen
    hits |= {ev.id: ev for ev in naming}
    scored = []
    for ev in hits.values():
        text = ev.content.lower()
        own = set(terms.terms(ev.content))
        named = terms.recall(content, own) if content else 0.0
        day = 1.0 if ev.id in on_day else 0.0 if span is not None or not days else sum(d in text for d in days) / len(days)
        if (content and named < 0.5 and not (ev.id in on_day and says_clock(text))) or \
                (days and not day and not named):
            continue  # a line naming the day but not the thing tells its plan only with a time ('Thu shift 10-6')
        when = 1.0 if _WHEN_SAID.search(text) or says_clock(text) else 0.0
        scored.append((named + day + 0.5 * when + (0.3 if ev.modality in SPOKEN else 0.0), ev.start_ms, ev, day))
    if span is not None and any(s[3] for s in scored):  # the day asked about, when lines name it: a line that
        scored = [s for s in scored if s[3]]            # names only the thing may be of any day ('a cold start')
    if not scored:
        matcher = Matcher(asked.store, asked.scope, asked.embedder)
        return nothing(matcher, "planned", plan.action, asked.stamp)
    best = max(scored, key=lambda s: s[:2])[2]
    talk = [e for e in store_windows.overlapping(asked.store, best.start_ms - 3 * 60_000, best.start_ms + 60_000,
                                                 best.source_id, 50)
            if e.modality in SPOKEN and e.id != best.id][-2:]  # the conversation it was said in
    shown = sorted([best, *talk], key=lambda e: (e.start_ms, e.id))
    lines = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
    return Finding("planned", f"{lines}.", (best, *(e for e in shown if e.id != best.id)),
                   f"the plan, as said or written: {lines}")


def _plans_for(asked: Asked, span: coming.Span) -> Finding:
    """The plans said or noted for the coming days `span` (read relative to when each line was said), one
    line a plan: per day, the line that says most (a note first), and others that day only if they name other
    things."""
    by_day: dict[date, list[Event]] = {}
    for ev in _naming(asked, span):
        days = [d for d in coming.said_days(ev.content, ev.start_ms) if coming.overlaps(d, span)]
        by_day.setdefault(days[0][0], []).append(ev)
    shown: list[tuple[date, Event]] = []
    for day in sorted(by_day):
        kept: list[Event] = []
        for ev in sorted(by_day[day], key=lambda e: (e.modality != "note", -len(terms.terms(e.content)))):
            if all(terms.recall(terms.terms(ev.content), set(terms.terms(k.content))) < 0.3 for k in kept):
                kept.append(ev)
        shown += [(day, ev) for ev in sorted(kept[:PER_DAY], key=lambda e: e.start_ms)]
    if not shown:
        return Finding("planned", "Nothing planned for those days that I can see.", (),
                       f"no line said before now names a day from {span[0]} to {span[1]}")
    lines = ". ".join(f"{local_day(day)}: " + "; ".join(
        f"{ev.content.rstrip(' .;')} ({_HOW.get(ev.modality, 'seen')} {asked.stamp(ev.start_ms, ev.source_id)})"
        for d, ev in shown if d == day) for day in dict.fromkeys(d for d, _ in shown))
    return Finding("planned", f"{lines}.", tuple(ev for _, ev in shown),
                   f"plans for {span[0]} to {span[1]}, by the days their lines name: {lines}")


def _naming(asked: Asked, span: coming.Span) -> list[Event]:
    """The lines said, read or seen before the question (newest first) that name a coming day of `span`, read
    relative to when each was said, from the day of asking on."""
    at_ms = asked.scope.at_ms
    flt = EventFilter(since_ms=at_ms - LOOKBACK_MS, until_ms=at_ms + 1, modalities=(*SPOKEN, "visual"), limit=MAX_READ)
    today = local(at_ms).date()
    return [ev for ev in asked.store.events(flt, newest_first=True)
            if any(coming.overlaps(d, span) and d[0] >= today for d in coming.said_days(ev.content, ev.start_ms))]


def local_day(day: date) -> str:
    """'Tuesday 8 December' for a date."""
    return f"{day:%A} {day.day} {day:%B}"


LOOKBACK_MS = 90 * 86_400_000
"""A plan for a coming day is looked for among the lines said this far back."""
MAX_READ = 5000
"""Lines read at most when looking for the plans of coming days."""
PER_DAY = 3
"""Plans a day shows at most."""
_HOW = {"note": "noted", "text": "read", "speech": "said"}
_DAY_WORDS = frozenset([*lexicon().time["weekdays"], "tomorrow", "weekend"])
_PLAN_LIGHT = lexicon().words["plan_light"]
_NEGATION = lexicon().words["negation"] | {"no"}
"""Words by which a line says no ('no more overtime this month')."""
_COMING_WORDS = frozenset(terms.terms(" ".join([*lexicon().words["coming"], *lexicon().time["months"],
                                                *lexicon().time["ordinals"]])))
"""Words of a plan question that say it is a plan, not what the plan is."""
_WHEN_SAID = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next|at \d|"
                        r"\d{1,2}(?::\d\d)?\s?(?:am|pm)|o'clock|booked|appointment|coming|will|going to)\b")
