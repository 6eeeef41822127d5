"""A stay told from its moments of being there when no arrival and departure close it: a place seen or its sign
read now and then ('sign - Millbrook Surgery' ... 'a waiting room with a fish tank'), begun at the sign or arrival
just before and ended at the departure seen after, or when the wearer was next seen on the move or at another
place's sign (visits.py finds the visits that arriving and leaving bound)."""

from __future__ import annotations

from collections.abc import Sequence

from egocli.core.lexicon import words
from egocli.reasoning.signs import inside
from egocli.reasoning.visits import (ARRIVAL_REACH_MS, DEPARTURE_REACH_MS, MOVING, NEAR_ARRIVAL_MS, Visit, apart,
                                     arrives, bare, leaves, names, signed, stretches)
from egocli.reasoning.plan import Asked, Finding
from egocli.reasoning.voice import say_duration
from egocli.store import Event
from egocli.store import windows as store_windows

MOVED_ON_MS = 3 * 3_600_000
"""How long after its last moment a stay may be seen to end."""
SEEN_GAP_MS = 2 * 3_600_000
"""Moments of being at a place (seen there, or its sign read) closer than this are one stay."""
RECORDING_GAP_MS = 10 * 60_000
"""Lines of one source closer than this are one recording."""


def seen_stay(asked: Asked, found: list[Event], place: str = "") -> tuple[list[Event], Event | None] | None:
    """The latest stay among a place's mentions: its moments of being there (a frame, a sign read; a letter read or a
    word said about the place is no being there) less than SEEN_GAP_MS apart, then how it ended: the first departure
    seen from its last moment on, else the first time one was next seen on the move or at another place's sign
    (`moved_on`), else None. It began at the sign naming the `place` read, or the arrival seen, in the minutes
    before its first moment, with no departure between. (the stay's moments, its end); None without such moments."""
    there = [e for e in found if e.modality == "visual" or signed(e)]
    if not there:
        return None
    stay = apart(asked, stretches(there, SEEN_GAP_MS))[-1]  # a note written at home before setting out: no stay
    named = set(bare(words(place)))  # 'the market': market
    for ev in reversed(store_windows.overlapping(asked.store, stay[0].start_ms - ARRIVAL_REACH_MS, stay[0].start_ms,
                                                 None, 2000)):
        if ev.start_ms >= stay[0].start_ms:
            continue
        if ev.modality == "visual" and leaves(ev):
            break
        if (named and signed(ev) and named <= set(words(ev.content))) or \
                (ev.modality == "visual" and arrives(ev) and stay[0].start_ms - ev.start_ms <= NEAR_ARRIVAL_MS):
            stay = [ev, *stay]
            break
    after = store_windows.overlapping(asked.store, stay[-1].start_ms, min(stay[-1].start_ms + DEPARTURE_REACH_MS,
                                                                          asked.scope.at_ms + 1), None, 2000)
    left = next((e for e in after if e.modality == "visual" and leaves(e) and e.start_ms >= stay[-1].start_ms), None)
    return stay, left or moved_on(asked, stay[0], stay[-1].start_ms)


def one_moment(asked: Asked, ev: Event, phrase: str, seen: list[Visit], found: Sequence[Event] = ()) -> Finding:
    """A stay with no departure seen among the visits `seen`, its last mention `ev` one moment: when its visit began
    with a sign read or an arrival seen ('sign - Millbrook Surgery'), it lasted, it seems, until one was next seen
    on the move or read the sign of another place after that moment; else, when the place's mentions `found` hold
    moments of being there, from the first of the latest stay to how it ended (`seen_stay`); else that moment and
    no length (its clip's few seconds are not the stay's)."""
    opened = [v for v in seen if v.end is None]
    begin = opened[-1].begin if opened and opened[-1].begin.start_ms <= ev.start_ms else ev
    end = moved_on(asked, begin, max(begin.start_ms, ev.start_ms)) \
        if signed(begin) or (begin.modality == "visual" and arrives(begin)) else None
    stay = seen_stay(asked, list(found), phrase) if end is None else None
    if stay is not None and stay[1] is not None and stay[1].start_ms > stay[0][0].start_ms:
        (begin, *_), end = stay
    elif stay is not None and stay[0][-1].start_ms - stay[0][0].start_ms >= SEEN_SPAN_MS:
        return _seen_through(asked, stay[0], phrase)  # no leaving seen: at least from its first sight to its last
    if end is not None:
        when, until = asked.stamp(begin.start_ms, begin.source_id), asked.stamp(end.start_ms, end.source_id)
        lasted = say_duration(end.start_ms - begin.start_ms)
        how = "seen leaving" if end.modality == "visual" and leaves(end) else "next seen on the move or somewhere else"
        return Finding("duration", f"It seems about {lasted}: from {when} ({begin.content}) until {until}, when you "
                       f"were {how} ({end.content}).", (begin, end),
                       f"{phrase}: from {when} ({begin.content}); {how} at {until} ({end.content}): about {lasted}, "
                       f"inferred", False)
    return no_length(asked.stamp(ev.start_ms, ev.source_id), ev, phrase)


SEEN_SPAN_MS = 15 * 60_000
"""A stay seen over at least this long, no leaving of it nor being elsewhere seen after, is told as lasting at least
from its first sight to its last ('a stone chapel' at 10:25 ... 'a chapel door pushed open into daylight' at 11:42,
then nothing more of the day)."""


def _seen_through(asked: Asked, moments: list[Event], phrase: str) -> Finding:
    """A stay told by its first and last sights, its leaving not seen: at least that long, said as such."""
    first, last = moments[0], moments[-1]
    when, until = asked.stamp(first.start_ms, first.source_id), asked.stamp(last.start_ms, last.source_id)
    lasted = say_duration(last.start_ms - first.start_ms)
    return Finding("duration", f"It seems at least {lasted}: you were there from {when} ({first.content.rstrip('. ')}) "
                   f"until {until} ({last.content.rstrip('. ')}); I didn't see you leave.", (first, last),
                   f"{phrase}: seen there from {when} to {until}: at least {lasted}, inferred", False)


def no_length(when: str, ev: Event, phrase: str, seen: str = "one moment of it,") -> Finding:
    """'I can't tell how long: I only see one moment of it, today at 15:00: ...': a thing whose log holds no
    length, said so and cited (`seen`: what of it the log holds, 'it begin,' or 'moments of it, the last')."""
    return Finding("duration", f"I can't tell how long: I only see {seen} {when}: {ev.content}.", (ev,),
                   f"{phrase}: {seen} {when}: {ev.content}; how long is not in the log", False)


def moved_on(asked: Asked, begin: Event, after_ms: int) -> Event | None:
    """The first frame after `after_ms` showing a way of getting about, or a sign read of another place than the
    stay's beginning names (a notice read there, 'chalkboard - Live Music', is inside it)."""
    own = {w for n in names(begin.content) for w in words(n)}
    later = store_windows.overlapping(asked.store, after_ms + 1, min(after_ms + MOVED_ON_MS, asked.scope.at_ms),
                                      begin.source_id, 2000)
    for nxt in later:
        if nxt.start_ms <= after_ms:
            continue
        if (nxt.modality == "visual" and MOVING.search(nxt.content.lower())) or \
                (signed(nxt) and not inside(nxt, later) and not own & set(words(nxt.content))):
            return nxt
    return None


def recorded(asked: Asked, mentions: list[Event]) -> tuple[Event, Event] | None:
    """A stay told by the recording that holds its mentions ('put board on kitchen counter' ... 'rinse table'
    through a 34-minute kitchen video): (its first line, its last) when nothing in it shows another place's sign or
    a way of getting about and the mentions run through at least half of it; else None (a day-long log holds other
    places, and a mention or two says little of a recording's length)."""
    source = mentions[0].source_id
    if any(e.source_id != source for e in mentions):
        return None
    lo, hi = mentions[0].start_ms, mentions[-1].start_ms
    lines = [e for e in store_windows.overlapping(asked.store, lo - MOVED_ON_MS, min(hi + MOVED_ON_MS,
                                                                                       asked.scope.at_ms + 1),
                                                  source, 5000) if e.start_ms <= asked.scope.at_ms]
    held = next((run for run in stretches(lines, RECORDING_GAP_MS) if any(e.id == mentions[0].id for e in run)), None)
    if held is None or held[-1].start_ms < hi or 2 * (hi - lo) < held[-1].end_ms - held[0].start_ms:
        return None
    elsewhere = any(signed(e) or (e.modality == "visual" and MOVING.search(e.content.lower())) for e in held)
    return None if elsewhere else (held[0], held[-1])
