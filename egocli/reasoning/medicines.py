"""What a medicine of the wearer's is called: 'what's my insulin called?', 'what's my blood pressure tablet
called?', 'what's the name of my day drops?'. People ask by what a medicine is for or when they take it; a packet,
a note or a pharmacist names the drug.

The medicines the log names (the lexicon's table of medicines by kind) are the candidates: those of the kind the
question names, or any when it names none; when it names a part of the day ('my morning tablet', 'day drops'),
lines that name another part ('night drops - Latanoprost') are left out, and a line with no part word counts for
the part its time falls in. The medicine named most often answers, cited by its latest line."""

from __future__ import annotations

from collections import Counter

from egocli.core.lexicon import lexicon
from egocli.core.timeutil import local
from egocli.reasoning import guests, terms
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import DAY_PARTS
from egocli.reasoning.temporal import Finding
from egocli.store import Event, EventFilter

LOOKBACK_MS = 90 * 86_400_000
"""A medicine is looked for among the lines of this far back."""
_PARTS = frozenset(lexicon().words["dose_times"])
"""Words that say when a medicine is taken ('morning', 'night', 'bedtime', 'day')."""
SEARCHED = 50
"""Medicine names searched for at once (a full-text search takes at most 64 terms)."""
_KNOWN = sorted({name for names in terms.KINDS.values() for name in names})


def medicinal(thing: str) -> bool:
    """Whether a thing asked the name of is a medicine ('my insulin', 'my morning tablet', 'the day drops')."""
    return terms.medicinal(terms.stem_all(thing)) or any(terms.is_medicine(w) for w in terms.words(thing))


def name(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """The medicine the log names most of those the question's words allow, cited by its latest line; None when the
    log names none the lexicon knows (the context is read instead: a model may know the name)."""
    words = terms.words(plan.action)
    if not medicinal(plan.action):
        return guests.called(asked, plan)  # 'what's my physio called': a person's name
    kinds = set(terms.medicines_named(terms.stem(w) for w in words))  # the kind said, not those a name implies
    candidates = kinds or set(_KNOWN)
    part = next((w for w in words if w in _PARTS), None)
    flt = EventFilter(since_ms=asked.scope.at_ms - LOOKBACK_MS, until_ms=asked.scope.at_ms + 1, limit=500)
    counted: Counter[str] = Counter()
    latest: dict[str, Event] = {}
    names = sorted(candidates)
    lines = {ev.id: ev for i in range(0, len(names), SEARCHED)
             for ev, _, _ in asked.store.search(" OR ".join(f'"{n}"' for n in names[i:i + SEARCHED]), flt)}
    for ev in lines.values():
        said = terms.words(ev.content)
        if part is not None and not _when(ev, said, part):
            continue
        for medicine in {w for w in said if w in candidates}:
            counted[medicine] += 1
            if medicine not in latest or ev.start_ms > latest[medicine].start_ms:
                latest[medicine] = ev
    if not counted:  # a medicine the table does not know ('Cavilon'): the context is read instead
        return None
    best = max(counted, key=lambda m: (counted[m], latest[m].start_ms))
    ev = latest[best]
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("name", f"{best.capitalize()}: {when}: {ev.content.rstrip(' .')}.", (ev,),
                   f"{plan.action}: {best}, named {counted[best]} times; the latest at {when}: {ev.content}")


def _when(ev: Event, said: list[str], part: str) -> bool:
    """Whether a line is of the part of the day asked: it names that part, or names none and falls in its hours."""
    named = [w for w in said if w in _PARTS]
    if named:
        return part in named or (part == "day" and not {"night", "bedtime", "evening"} & set(named))
    hours = DAY_PARTS.get(part)
    return hours is None or hours[0] <= local(ev.start_ms).hour < hours[1]
