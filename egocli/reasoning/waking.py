"""The wearer's nights, read from the quiet hours of the log: a morning begins when they got up and a night ends
when they went to bed (a stallholder up at 03:30, a porter home from a night shift at 08:00), not at the clock's
fixed hours (lexicon [time] parts)."""

from __future__ import annotations

from egocli.core.lexicon import lexicon, words
from egocli.core.timeutil import local
from egocli.store import Store

HOUR_MS = 3_600_000
SLEEP_MS = (3 * HOUR_MS, 16 * HOUR_MS)
"""How long a gap in recording is when it is a night's sleep (shorter: a nap or the glasses off; longer: days
away)."""
EARLIEST_WAKE_H = 2
"""A morning begins at the wearer's getting up from this hour on (before it, the night is still going)."""
LATEST_BED_H = 12
"""A night runs on to the wearer's going to bed up to this hour of the next day (a night shift ends at 08:00)."""
DAYS_BACK = 9
"""How many days of nights are read before the moment of asking (a week and its edges)."""
_MOVED = frozenset({"morning", "mornings", "night", "nights", "tonight"})
"""Words of a question naming a part of the day that a wearer's nights move (lexicon [time] parts)."""
_MORNING = lexicon().time["parts"]["morning"][0]


def nights(store: Store, at_ms: int, question: str) -> tuple[tuple[int, int], ...]:
    """(went to bed, got up) of each night in the days before `at_ms`: the gaps in recording of a night's length;
    none when the question names no morning or night (nothing to move)."""
    if _MOVED.isdisjoint(words(question)):
        return ()
    times = store.times(at_ms - DAYS_BACK * 24 * HOUR_MS, at_ms + 1)
    first = times[0][0] if times else None
    out = [(first, first)] if first is not None and not store.times(first - SLEEP_MS[1], first) else []
    last_end = None  # a log that begins after a quiet night begins at a getting up (no going to bed seen)
    for start, end in times:
        if last_end is not None and SLEEP_MS[0] <= start - last_end <= SLEEP_MS[1]:
            out.append((last_end, start))
        last_end = end if last_end is None else max(last_end, end)
    return tuple(out)


def part(span: tuple[int, int], name: str | None, slept: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """A part of one day as the wearer lived it: a morning from their getting up when that was before the
    morning's first hour (but not before EARLIEST_WAKE_H); a night until their going to bed when that was after
    its last hour (but not after LATEST_BED_H the next day)."""
    lo, hi = span
    if name == "morning":
        woke = [up for _, up in slept if lo - (_MORNING - EARLIEST_WAKE_H) * HOUR_MS <= up < lo]
        return (min(woke), hi) if woke else span
    if name == "night":
        bed = [down for down, up in slept if hi < down < up and local(down).hour < LATEST_BED_H
               and down - hi < 24 * HOUR_MS]
        return (lo, min(bed)) if bed else span
    return span
