"""Where the wearer was at work, read from the log: 'work' names no place ('when did I leave work?', 'how long was I
at work yesterday?'), so a stay at work is the stretch of a day among the signs of working (lexicon [words]
at_work: a staff car park, a lanyard, a desk, a shift clocked out), away from home when the day shows leaving and
getting home."""

from __future__ import annotations

from collections.abc import Callable

from egocli.core.lexicon import lexicon, words
from egocli.core.timeutil import local
from egocli.reasoning import outings
from egocli.reasoning.plan import Asked
from egocli.store import Event
from egocli.store import windows as store_windows

CUES = frozenset(lexicon().words["at_work"])
GAP_MS = 3 * 3_600_000
"""Signs of working closer than this are one stay (a lunch out, a quiet hour at the desk)."""
MIN_CUES, MIN_MS = 3, 3_600_000
"""A stay at work shows at least this many signs over at least this long (a meeting with a friend is none)."""
RESUME_MS = 15 * 60_000
"""A sign of work this soon after the wearer was seen on the move goes on with the stay (the staff car park at
lunch); later, it begins another."""
REACH_MS = 16 * 3_600_000
"""How far around the question's windows a stay may begin or end (a night shift crosses midnight)."""
DAYS_BACK = 7
"""Days back looked at when the question names no time."""


def at_work(ev: Event) -> bool:
    """Whether a frame or a line read shows the wearer at work."""
    return ev.modality in ("visual", "text") and not CUES.isdisjoint(words(ev.content))


def stays(asked: Asked, moving: Callable[[Event], str]) -> list[tuple[Event, Event]]:
    """(first sign, last sign) of the stay at work of each day the question's windows touch, in time order: the
    signs of working cut where GAP_MS passes without one, where the wearer leaves or gets home, or where they are
    seen on the move (`moving`: 'home', 'travel' or ''; a sign of work seen on the move, 'pulling into the staff car
    park', ends an open stretch or begins one); of a day's stretches, the one with the most signs (the work done
    at home before setting out is not the stay at work)."""
    at = asked.scope.at_ms
    spans = asked.scope.windows or ((at - DAYS_BACK * 86_400_000, at + 1),)
    lo, hi = min(a for a, _ in spans) - REACH_MS, min(max(b for _, b in spans) + REACH_MS, at + 1)
    stretches: list[list[Event]] = []
    state = "closed"  # 'open', 'paused' (seen on the move: it goes on if a sign follows within RESUME_MS), 'closed'
    for ev in store_windows.overlapping(asked.store, lo, hi, None, 50_000):
        if ev.start_ms > at:
            break
        how, sign = moving(ev), at_work(ev)
        if sign and how == "travel" and state != "open" and outings.TRANSIT.search(ev.content.lower()):
            sign = False  # 'stepping down onto the platform, glass office blocks': the ride's end, not work
        if sign and stretches and ev.start_ms - stretches[-1][-1].start_ms <= \
                {"open": GAP_MS, "paused": RESUME_MS}.get(state, -1):
            stretches[-1].append(ev)
        elif sign:
            stretches.append([ev])
            state = "open"
        if how:
            state = "closed" if how == "home" or not stretches else \
                "paused" if sign or state == "open" else state
        elif sign:
            state = "open"
    best: dict[object, list[Event]] = {}
    for s in stretches:
        day = local(s[0].start_ms).date()
        if len(s) >= MIN_CUES and s[-1].start_ms - s[0].start_ms >= MIN_MS and len(s) > len(best.get(day, ())):
            best[day] = s
    return [(s[0], s[-1]) for _, s in sorted(best.items(), key=lambda kv: kv[1][0].start_ms)
            if any(s[0].start_ms < b and s[-1].start_ms >= a for a, b in spans)]
