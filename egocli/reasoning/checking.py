"""Whether what the wearer believes still holds: 'is the MOT still at half eight tomorrow?', 'is my physio next
week?', 'is Lily coming with Karen?', 'am I picking Kai up from school?'. Plans change (a garage moves a booking,
a daughter can't do Saturday now), and a person who forgets asks about the plan as first made.

The question is read as a claim: its subject (what the plan is about: the MOT, Karen) and the details it states
(a clock time, a day, the other words). The latest line said, read or noted about the subject that states a
detail of the kind asked decides: a time or day it states that the question's is not, or one it says 'not' to, is
a no; the question's own is a yes. A claim of words only is a yes when the latest line about the subject holds
them all and says no 'not' to any of them, a no when it says 'not' to one or calls the thing off. Anything else is
said as the latest line, not as a yes or no."""

from __future__ import annotations

import re
from dataclasses import dataclass

from egocli.core.lexicon import any_of, apostrophes, lexicon, phrases
from egocli.core.timephrases import clocks, spoken_clock, without_clocks
from egocli.reasoning import coming, terms
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.store import Event, EventFilter

SPOKEN = ("speech", "text", "note")
"""Plans are said, read or noted (a frame seen states no plan)."""
LOOKBACK_MS = 90 * 86_400_000
"""A plan is looked for among the lines said this far back."""

_WORDS = lexicon().words
_TIME = lexicon().time
_DENIED = re.compile(any_of("denial").pattern + r"\s+((?:[\w.:'\u00a3]+\s*){1,3})")
"""'not Saturday', '(not 8.30)', "can't do Saturday now", "don't go to school": the words a line says no to
(up to three after the denial, within its clause)."""
_CALLED_OFF = any_of("called_off")
"""A line that calls the thing off ('cancelled', 'closed 25 & 26 December')."""
_CHANGED = any_of("changed")
"""A line that says the plan changed without saying what to ('change of plan', 'instead'): its words alone are
no yes."""
_CUED = any_of("change_cues", "changed")
"""A line that says it changes a plan, not only states part of it."""
SAME_CHANGE_MS = 15 * 60_000
"""Lines of one change (the call that moves it, the note written after) are this close."""
_DAYISH = frozenset(terms.terms(" ".join([*_TIME["weekdays"], *_TIME["months"], *_TIME["ordinals"],
                                          *_WORDS["coming"], "tonight", "tomorrow", "today", "next", "weekend"])))
"""Terms that state a day, not what the plan is about."""
_LIGHT = frozenset(terms.terms(" ".join([*_WORDS["plan_light"], *_WORDS["filler"]])))
"""Terms of a plan question that say it is a plan ('coming', 'booked'), not what it is about."""
_CHANGING = frozenset(terms.terms(" ".join(phrases("changing"))))
"""Terms of the verbs of changing a plan ('moved', 'rearranged'): how it was changed, not what."""
_PLAN_NOUNS = frozenset(terms.terms(" ".join(_WORDS["plan_nouns"])))
"""Terms that name a plan as a plan ('appointment'): what it is about is the rest, when there is a rest."""


@dataclass(frozen=True)
class Stated:
    """The details a text states: clock times (hour on a 12-hour dial, minute), days, and the words it says no
    to."""

    clocks: frozenset[tuple[int, int]]
    days: tuple[coming.Span, ...]
    denied_clocks: frozenset[tuple[int, int]]
    denied_days: tuple[coming.Span, ...]
    denied_terms: frozenset[str]


def stated(text: str, said_ms: int) -> Stated:
    """The clock times and days a text states, apart from those it says no to ('Thu 1pm (not 8.30)')."""
    lowered = spoken_clock(apostrophes(text.lower()))
    denied = [m.group(1) for m in _DENIED.finditer(lowered)]
    kept = _DENIED.sub(" ; ", lowered)
    return Stated(clocks(kept), tuple(coming.said_days(kept, said_ms)),
                  frozenset().union(*(clocks(d) for d in denied)) if denied else frozenset(),
                  tuple(span for d in denied for span in coming.said_days(d, said_ms)),
                  frozenset(t for d in denied for t in terms.terms(d)))


def subject(asked: Asked, plan: QuestionPlan) -> list[str]:
    """What the claim is about: its terms less those that state a day or a time or say it is a plan."""
    clockless = without_clocks(spoken_clock(plan.action.lower()))
    about = [t for t in terms.terms(clockless) if t not in _DAYISH and t not in _LIGHT and not t.isdigit()]
    return [t for t in about if t not in _PLAN_NOUNS] or about


def check(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """Yes or no from the latest line about the claim's subject that states what the question states, or that
    line as it stands; None when the claim names nothing to look for."""
    about = subject(asked, plan)
    if not about:
        return None
    claim = stated(asked.question, asked.scope.at_ms)
    lines = lines_about(asked, plan.action, about)[::-1]
    if not lines:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "check", plan.action, asked.stamp)
    if claim.clocks or claim.days:
        return _by_details(asked, claim, about, lines, plan.action)
    return _by_words(asked, about, lines[0])


def lines_about(asked: Asked, action: str, about: list[str]) -> list[Event]:
    """The lines said, read or noted before the question (within LOOKBACK_MS) that name the subject (all its terms,
    or two thirds of three or more), oldest first."""
    need = 1.0 if len(about) <= 2 else 2 / 3
    flt = EventFilter(since_ms=asked.scope.at_ms - LOOKBACK_MS, until_ms=asked.scope.at_ms + 1, modalities=SPOKEN,
                      limit=300)
    return sorted((ev for ev, _, _ in asked.store.search(_query(action, about), flt)
                   if terms.recall(about, set(terms.terms(ev.content))) >= need), key=lambda e: (e.start_ms, e.id))


def changes(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'How many times did Jo change the plan?', 'how many times has Hannah moved the quote?': in the lines about
    the subject, oldest first, each time one states a time or a day that is not the one stated before it (the
    earlier one no longer among those it states) is a change. None when no line about it states either: the count
    form reads the question instead."""
    about = [t for t in subject(asked, plan) if t not in _CHANGING]
    if not about:
        return None
    clocks: frozenset[tuple[int, int]] = frozenset()
    days: tuple[coming.Span, ...] = ()
    first: Event | None = None
    moved: list[Event] = []
    for ev in lines_about(asked, plan.action, about):
        line = stated(ev.content, ev.start_ms)
        if not line.clocks and not line.days:
            continue
        if first is None:
            first = ev
        elif ((clocks and line.clocks and not clocks & line.clocks) or (days and line.days and not _meets(days, line.days))) \
                and _CUED.search(apostrophes(ev.content.lower())) and \
                not (moved and ev.start_ms - moved[-1].start_ms <= SAME_CHANGE_MS):
            moved.append(ev)
        clocks = (clocks & line.clocks or line.clocks) if line.clocks else clocks
        days = (tuple(d for d in days if _meets((d,), line.days)) or line.days) if line.days else days
    if first is None:
        return None
    said = "; then ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content.rstrip(' .')}" for e in moved)
    opened = f"first {asked.stamp(first.start_ms, first.source_id)}: {first.content.rstrip(' .')}"
    n = len(moved)
    text = f"{n} time{'s' if n != 1 else ''}: {opened}" + (f"; then {said}." if moved else "; it has not moved since.")
    return Finding("changes", text, (*moved, first), f"{plan.action}: {n} changes of its time or day; {opened}"
                   + (f"; then {said}" if moved else ""))


def why(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'Why can't Karen come on Saturday?', 'why's Jo moved it again?': of the lines about it that give a reason or
    say a change or a no (the reason is said with it: 'I can't do Saturday now, Ben's been called in to work'), the
    one that names most of the question (its day too), the person's own words, one giving a reason, the latest
    (the first when the question asks about the first time); None when no line is about it (the context is read
    instead)."""
    first = bool(_FIRST.search(asked.question.lower()))
    about = [t for t in subject(asked, plan) if t not in _CHANGING and t not in _NOT_WHAT]
    if not about:
        return None
    lines = lines_about(asked, plan.action, about)
    told = [e for e in lines if any(cue.search(apostrophes(e.content.lower())) for cue in (_BECAUSE, _CUED, _DENIED))]
    if not told:
        return None
    asked_terms = [t for t in terms.terms(asked.question) if t not in _CHANGING and t not in _NOT_WHAT
                   and t not in _LIGHT]  # its day too: 'why can't Karen come on Saturday' is about Saturday

    day_words = [w for w in terms.words(asked.question) if w in _DAY_WORDS]  # stop words to terms(), not here

    asker_words = set(terms.words(asked.question))

    def rank(e: Event) -> tuple[float, bool, bool, int]:
        said = set(terms.words(e.content))
        own = bool(set(terms.words(terms.speaker(e.content))) & asker_words)  # their own words give their reason
        return (terms.recall(asked_terms, set(terms.terms(e.content))) + sum(w in said for w in day_words), own,
                bool(_BECAUSE.search(apostrophes(e.content.lower()))), -e.start_ms if first else e.start_ms)
    ev = max(told, key=rank)
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("why", f"{when}: {ev.content.rstrip(' .')}.", (ev,), f"why {plan.action}: as said at {when}: "
                   f"{ev.content}")


_DAY_WORDS = frozenset([*_TIME["weekdays"], *_TIME["months"], "today", "tonight", "tomorrow", "yesterday", "weekend"])
_FIRST = any_of("originally")
_BECAUSE = any_of("because")
"""A line that gives a reason ('because', 'so', "'cause")."""
_NOT_WHAT = frozenset(terms.terms(" ".join([*phrases("denial", "called_off"), "cancel", "come", "go", "make"])))
"""Terms of a why-question that say what went wrong with the plan, not what the plan is ('can't', 'cancel')."""


def _query(action: str, about: list[str]) -> str:
    """The words to search the log for: the claim's own and those the lexicon takes to mean the same ('doctor'
    finds 'GP')."""
    said = [w for w in terms.words(action) if set(terms.terms(w)) & set(about)]
    return " ".join(dict.fromkeys([*said, *about, *(w for t in about for w in _SAME.get(t, ()))]))


_SAME: dict[str, list[str]] = {}
for _word, _meant in terms.SYNONYMS.items():
    _SAME.setdefault(_meant, []).append(_word)


def _by_details(asked: Asked, claim: Stated, about: list[str], lines: list[Event], action: str) -> Finding:
    """The latest line that states a time or a day of the kinds the question does decides; none: no plan of it was
    said that I can see (a line about the subject that states no time is no plan for one: 'a cold start')."""
    for ev in lines:
        line = stated(ev.content, ev.start_ms)
        verdicts = []
        if claim.clocks and (line.clocks or line.denied_clocks):
            verdicts.append(bool(claim.clocks & line.clocks) and not claim.clocks & line.denied_clocks)
        if claim.days and (line.days or line.denied_days):
            verdicts.append(_meets(claim.days, line.days) and not _meets(claim.days, line.denied_days))
        if verdicts:
            yes = all(verdicts) and not (set(about) & line.denied_terms) and not _CALLED_OFF.search(ev.content.lower())
            return _said(asked, ev, "Yes" if yes else "No")
    return nothing(Matcher(asked.store, asked.scope, asked.embedder), "check", action, asked.stamp)


def _by_words(asked: Asked, about: list[str], ev: Event) -> Finding:
    """A claim of words only: the latest line about them."""
    text = ev.content.lower()
    line = stated(ev.content, ev.start_ms)
    if set(about) & line.denied_terms or _CALLED_OFF.search(text):
        return _said(asked, ev, "No")
    whole = terms.recall(about, set(terms.terms(ev.content))) == 1.0
    return _said(asked, ev, "Yes" if whole and not _CHANGED.search(text) else "")


def _meets(asked: tuple[coming.Span, ...], said: tuple[coming.Span, ...]) -> bool:
    return any(coming.overlaps(a, s) for a in asked for s in said)


def _said(asked: Asked, ev: Event, verdict: str) -> Finding:
    when = asked.stamp(ev.start_ms, ev.source_id)
    line = ev.content.rstrip(" .")
    if verdict:
        return Finding("check", f"{verdict}: the latest I have, {when}: {line}.", (ev,),
                       f"{verdict.lower()}, by the latest line about it: {when}: {line}")
    return Finding("check", f"I can't tell for sure; the latest I have is {when}: {line}.", (ev,),
                   f"the latest line about it, which neither says yes nor no: {when}: {line}", False)
