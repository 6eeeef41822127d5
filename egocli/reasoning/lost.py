"""Where a lost thing turned up: 'where did I find my badge in the end?', 'where did my hearing aid case turn up?'.
People who forget lose things and find them again; the answer is where it was found, not where it was last put.

The thing's latest search (a line asking where it is, or saying it is lost or cannot be found) opens the hunt; the
first line after it that names the thing, is no more of the hunt and does not say it was not there ('the armchair,
no magnifier') is where it turned up: a frame of it ('the lanyard lying on the floor behind the tint machine'), a
note ('float bag found under driver's seat') or words ('Joy: Is this your magnifier? It was in your raincoat
pocket'). Without a hunt seen, the thing's place is the last one it was put (temporal.where). 'Where did I look for
it?' is answered by the hunt's own lines."""

from __future__ import annotations

from collections import Counter

from egocli.core.lexicon import any_of, apostrophes
from egocli.reasoning import actions, temporal, terms
from egocli.reasoning.prompts import asks_whether
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.reasoning.visits import stretches
from egocli.store import Event
from egocli.store import windows as store_windows

HUNT_MS = 2 * 86_400_000
"""A thing found this long after its search is no longer the same hunt's find."""
SIGHT_MS = 30 * 60_000
"""A thing of the kind looked for, seen this soon after the search ('the bunch of keys under the bananas' for the
van keys), is the thing found; later, only a line naming it as the search did."""
_SEARCHING = any_of("searching")
"""A line of the hunt ('where's my case?', "I can't find my badge", 'lost my keys')."""
_FINDING = any_of("finding")
"""A line that shows the thing where it was found, not only names it."""


_SIGHTED = ("visual", "note")
"""Lines that name the thing by its head noun alone and still show where it is: seen, or noted (a word said about
'the bag' is no sight of the float bag)."""


def found(asked: Asked, plan: QuestionPlan) -> Finding:
    """Where the thing turned up after its latest search; without one, where it was last put or seen."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    named = matcher.matches(plan.action, verb_first=False)
    if not named:
        return nothing(matcher, "found", plan.action, asked.stamp)
    head = actions.parse(plan.action, verb_first=False).head or plan.action.split()[-1]
    hunts = [e for e in named if hunting(e)]
    if not hunts:
        return temporal.where(asked, QuestionPlan("where", plan.action))
    hunt = hunts[-1]
    hi = min(hunt.start_ms + HUNT_MS, asked.scope.at_ms + 1)
    near = store_windows.overlapping(asked.store, hunt.start_ms + 1, min(hi, hunt.start_ms + SIGHT_MS), None, 500)
    stem = terms.stem(head)  # 'the bunch of keys under the bananas' is the van keys looked for, seen
    after = sorted({e.id: e for e in [*named, *(e for e in near if e.modality in _SIGHTED and any(
                        terms.stem(w) == stem for w in terms.words(e.content)))]
                    if hunt.start_ms < e.start_ms < hi and not hunting(e) and not actions.absent(e.content, head)}.values(),
                   key=lambda e: (e.start_ms, e.id))
    when = asked.stamp(hunt.start_ms, hunt.source_id)
    whether = asks_whether(asked.question)
    if not after:
        return Finding("found", f"{'Not that I saw: ' if whether else ''}I didn't see it turn up after you looked for it {when}: "
                       f"{hunt.content.rstrip(' .')}.", (hunt,), f"looked for at {when}; not seen found after", False)
    ev = after[0]
    at = asked.stamp(ev.start_ms, ev.source_id)
    if not _FINDING.search(apostrophes(ev.content.lower())):  # named, not shown found: what it seems
        return Finding("found", f"{'Yes, it seems' if whether else 'It seems it'} turned up {at}: "
                       f"{ev.content.rstrip(' .')} (after you looked for it {when}).", (ev, hunt),
                       f"{plan.action}: looked for at {when}; next named at {at}: {ev.content}", False)
    return Finding("found", f"{'Yes, it' if whether else 'It'} turned up {at}: {ev.content.rstrip(' .')} (after you looked for it {when}).",
                   (ev, hunt), f"{plan.action}: looked for at {when}; found at {at}: {ev.content}")


def hunting(ev: Event) -> bool:
    """Whether a line is one of a hunt for something, said or seen ('where's that blessed magnifier got to?',
    'rummaging through the coat pockets')."""
    return bool(_SEARCHING.search(apostrophes(ev.content.lower())))


LOOKED_MS = 45 * 60_000
"""Lines of looking for a thing closer than this are one hunt."""
SCENERY_MS = 3 * 3_600_000
"""A frame seen again this close is scenery ('a pair of slippers side by side on the rug'), not a place looked in."""
LOOKED_BEFORE_MS = 15 * 60_000
"""A frame of looking this soon before the first line naming the thing is of its hunt ('rummaging through the kitchen
drawers' before 'where's that blessed magnifier got to?')."""


def looked(asked: Asked, plan: QuestionPlan) -> Finding:
    """'Where did I look for the magnifier?': the places of its latest hunt, each a line of it in time order: one
    naming the thing that hunts for it or says it was not there ('the armchair, crumbs and a biro down the side, no
    magnifier'), a frame of looking just before ('rummaging through the kitchen drawers'), or a frame seen between them
    that is no scenery seen again within SCENERY_MS ('kitchen, pulling the drawers open one by one')."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    matcher.absent_too = True
    named = matcher.matches(plan.action, verb_first=False)
    head = actions.parse(plan.action, verb_first=False).head or plan.action.split()[-1]
    hunts = [e for e in named if hunting(e) or actions.absent(e.content, head)]
    if not hunts:
        return nothing(matcher, "looked", plan.action, asked.stamp)
    hunt = stretches(hunts, LOOKED_MS)[-1]
    lo, hi = hunt[0].start_ms - LOOKED_BEFORE_MS, hunt[-1].start_ms
    around = store_windows.overlapping(asked.store, lo - SCENERY_MS, hi + SCENERY_MS, None, 4000)
    again = Counter(e.content.strip().lower() for e in around if e.modality == "visual")
    seen = [e for e in around if lo <= e.start_ms <= hi and e.modality == "visual" and (hunting(e) or (
        e.start_ms >= hunt[0].start_ms and again[e.content.strip().lower()] == 1))]
    lines = sorted({e.id: e for e in [*hunt, *seen]}.values(), key=lambda e: (e.start_ms, e.id))
    said = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {e.content.rstrip(' .')}" for e in lines)
    return Finding("looked", f"You looked for it: {said}.", tuple(lines),
                   f"{plan.action}: looked for at {len(lines)} moments: {said}")
