"""Meals: 'what did I have for breakfast?', 'what was my tea last night?', 'what time did I have lunch?'.

A meal is found by when it is eaten, not by its name: a narration says 'a bowl of porridge with sliced banana'
and seldom 'breakfast'. The meal's hours (the lexicon's [meals] hours) on each day the question names (else the
latest day on which they have begun, back a week) are read for the lines that show a meal made or eaten ([meals]
cues: a bowl of, a plate of, eating, a sandwich ...), a frame counting over words said. Lines closer than half an
hour are one sitting; the sitting with the most shown is the meal (a snack is one line, a meal made and eaten
several), and its line that shows most, the later of equals (eaten after it was made), answers, with its time,
from the latest day with one. A day with none says so."""

from __future__ import annotations

import re

from egocli.core.lexicon import lexicon
from egocli.core.timephrases import clocks, spoken_clock
from egocli.reasoning import terms, visits
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import hours_of_days
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.store import Event, EventFilter
from egocli.store import windows as store_windows

HOURS: dict[str, tuple[int, int]] = lexicon().meals["hours"]
"""Meal -> (first hour, hour after the last) it is eaten in."""
_CUES = visits.cue(lexicon().meals["cues"])
_NOT_FOOD = visits.cue(lexicon().meals["not_food"])
SITTING_MS = 30 * 60_000
"""Lines of a meal closer than this are one sitting (made, then eaten); the sitting the most lines show is the meal,
not a slice of toast eaten standing up."""
_READ = ("text", "note")
"""Modalities that are things read or written: a menu or a note names a meal no one is eating."""


def hours(asked: Asked, name: str) -> tuple[int, int]:
    """The hours a meal is eaten in: the lexicon's, widened to the time the log's own words give it ('Dinner'll be
    half one now': in much of the North dinner is the midday meal, tea the evening one) in the HEARD_MS before
    the question."""
    lo, hi = HOURS[name]
    flt = EventFilter(since_ms=asked.scope.at_ms - HEARD_MS, until_ms=asked.scope.at_ms + 1,
                      modalities=("speech", "text", "note"), limit=200)
    for ev, _, _ in asked.store.search(name, flt):
        for sentence in re.split(r"[.!?;]", ev.content.lower()):
            if name in terms.words(sentence):
                for hour, _ in clocks(spoken_clock(sentence)):
                    said = min((h for h in (hour, hour + 12) if 5 <= h <= 23), default=None,
                               key=lambda h: 0 if lo <= h < hi else min(abs(h - lo), abs(h - hi)))
                    if said is not None:
                        lo, hi = min(lo, said - 1), max(hi, said + 2)
    return lo, hi


HEARD_MS = 7 * 86_400_000
"""How far back the log's words are read for when a meal is eaten."""


def meal_of(phrase: str) -> str | None:
    """The meal a phrase names ('my tea', 'breakfast'), else None."""
    return next((w for w in phrase.lower().replace("'", " ").split() if w in HOURS), None)


def score(ev: Event) -> int:
    """How much a line shows a meal: its cues, and one more for a frame (what is seen over what is said); words
    said with a clock time plan a meal ('Dinner'll be half one now'), no one is eating it."""
    text = _NOT_FOOD.sub(" ", ev.content.lower())
    if ev.modality == "speech" and clocks(spoken_clock(text)):
        return 0
    hits = len({m.group(0) for m in _CUES.finditer(text)})
    return hits + (1 if hits and ev.modality == "visual" else 0)


def shows_food(ev: Event) -> bool:
    """Whether a frame shows food or eating, not only a meal's name ('a text message: lunch at ours on Sunday')."""
    text = _NOT_FOOD.sub(" ", ev.content.lower())
    return ev.modality == "visual" and any(m.group(0) not in HOURS for m in _CUES.finditer(text))


def meal(asked: Asked, plan: QuestionPlan) -> Finding:
    """The latest meal of that kind in scope: the line that shows it best, and when."""
    name = meal_of(plan.action)
    found = sitting(asked, name) if name is not None else None
    if name is None or not found:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "meal", plan.action, asked.stamp)
    best = max(found, key=lambda e: (score(e), e.start_ms))
    when = asked.stamp(best.start_ms, best.source_id)
    return Finding("meal", f"You had your {name} {when}: {best.content}.", (best,), f"{name}: {when}: {best.content}")


def sitting(asked: Asked, name: str) -> list[Event]:
    """The lines of the latest sitting of a meal in scope (the stretch within its hours that shows it most), or []."""
    for lo, hi in reversed(hours_of_days(asked.scope, hours(asked, name))):
        lines = [e for e in store_windows.overlapping(asked.store, lo, hi, None, 2000)
                 if lo <= e.start_ms < hi and e.modality not in _READ and score(e) > 0]
        if lines:
            return max(visits.stretches(lines, SITTING_MS), key=lambda group: sum(score(e) for e in group))
    return []
