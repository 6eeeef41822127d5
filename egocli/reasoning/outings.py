"""Setting out from home and getting back, read from where the frames show the wearer when none says it.

Narrations seldom say 'leaving the house': they show the hallway ('hallway, zipping up the work fleece, taking the
car keys'), then the street ('driveway of 22 Carr Lane, scraping frost off the windscreen'). A frame that opens
with a room of home, or names one of its own as where something is ('the keys dropped in the bowl on the hall
shelf'), is at home; one out of doors (a road it names first: 'the Rainworth road in the dark'), inside a car ('the
windscreen misting'), on the way somewhere (a [travel] word), arriving at another place
or showing the home's door from outside is out ([outings] in the lexicon). Setting out is the first frame out after
one at home, getting back the first at home after one out; a single frame out between two at home (a neighbour
walking past the window) or at home between two out is neither. Frames that show neither count for nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence

from egocli.core.lexicon import lexicon, words
from egocli.reasoning import terms
from egocli.store import Event


def cue(phrases: Sequence[str]) -> re.Pattern[str]:
    """A pattern for any of the phrases as whole words, the longest first."""
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)) + r")\b")


_LEX = lexicon().outings
_ROOMS = [words(p) for p in _LEX["home_rooms"]]
_OUTDOORS = cue(_LEX["outdoors"])
_FROM_OUTSIDE = cue(_LEX["from_outside"])
TRAVEL = cue(tuple(p for phrases in lexicon().travel.values() for p in phrases))
"""A way of getting about ('walking', 'the bus', 'driver's seat'; the lexicon's [travel])."""
_VEHICLE = cue(_LEX["vehicles"])
"""A vehicle named by one word ('single-decker', 'tram'): a frame naming one in its first phrase is on the way."""
TRANSIT = cue(tuple(p for way in ("by bus", "by tram", "by train", "by taxi") for p in lexicon().travel[way]))
"""A ride's words ('stepping down onto the platform', 'off the tram at the stop'): an arrival or a sign of
work that names them is the ride's end, not the place first named after it (visits.py, workplace.py)."""
_ARRIVE = cue(lexicon().visits["arrive"])
_HOME = cue(lexicon().visits["home"])
_PLACES = cue(tuple(p.replace("_", " ") for places in lexicon().kinds["places"].values() for p in places.split()))
"""Kinds of place one goes to ([kinds.places]: the pharmacy, the cobbler, the dentist)."""
_OWN_ROOMS = cue(tuple(f"{own} {' '.join(room)}" for room in _ROOMS if not _PLACES.search(" ".join(room))
                      for own in ("the", "my", "our")))
"""A room of home named as where something is ('in the bathroom cabinet'; not 'hall', which a church has too)."""
OTHERS = frozenset(lexicon().visits["others_seen"])
"""Words for someone else seen ('the man in the grey fleece going out of the front door')."""
OTHERS_WORDS = 4
"""Someone else named in a frame's first this many words: the frame is about them (what they do, not where the
wearer is)."""
_HOME_SAID = [words(p) for p in _LEX["home_said"]]
_LEADING = frozenset(_LEX["leading"])
"""Words a frame may open with before what it shows ('back in the kitchen', 'out on the drive')."""
REACH_MS = 30 * 60_000
"""How far apart a frame at home and a frame out may be for the one to follow the other."""
LONE_MS = 60 * 60_000
"""A frame alone out (or at home) with frames of the other place this close on both sides is no outing."""


def scene(ev: Event) -> str:
    """'home' for a frame in a room of home, 'out' for one out of doors or on the way, else ''."""
    if ev.modality != "visual":
        return ""
    text = ev.content.lower()
    cased = terms.clauses(ev.content)[0].split(",")[0]
    first = cased.lower()
    if _FROM_OUTSIDE.search(text):
        return "out"  # 'the flat door from outside, locking it'
    said = words(first)
    unknown = bool(said) and said[0] in ("a", "an")  # 'a hall with a circle of chairs': a room not one's own
    while said and said[0] in _LEADING:
        said = said[1:]
    if any(said[:len(room)] == room for room in _ROOMS) and not terms.names(cased) \
            and not any(w.isdigit() for w in said):
        return "" if unknown else "home"  # not 'front door of 14 Linden Avenue', someone else's
    lead = " ".join(said)
    if TRAVEL.match(lead) or _OUTDOORS.match(lead) or (_ARRIVE.match(lead) and not _HOME.search(first)):
        return "out"  # 'walking along Tennyson Road', 'driveway of 22 Carr Lane', 'walking into Clip & Curl'
    named = next((w for w in cased.split() if w.lower() not in _LEADING), "")[:1].isupper()  # 'the Rainworth road'
    if (named or said[:1] and said[0].endswith("ing")) and (_OUTDOORS.search(first) or TRAVEL.search(first)):
        return "out"  # 'Tennyson Road, a wet pavement', 'the Rainworth road in the dark', 'getting onto a single-decker'
    if (_VEHICLE.search(first) or _PLACES.search(first)) and not own_room(first):
        return "out"  # 'the green single-decker, holding the bus pass', 'the windscreen misting', 'a pharmacy
        # counter': on the way, or at a place not home
    if said in _HOME_SAID:
        return "home"  # 'home again, putting the hyacinth on the windowsill'
    if terms.names(cased) or OTHERS & set(said[:OTHERS_WORDS]):
        return ""
    if own_room(first) and not unknown:
        return "home"  # 'the car keys dropped in the bowl on the hall shelf', 'the pharmacy bag in the bathroom cabinet'
    if any(own_room(part) for part in ev.content.split(",")[1:]):
        return "home"  # 'sausages, mash and gravy on two plates at the kitchen table'
    return ""



def own_room(text: str) -> bool:
    """Whether a phrase names a room of home as where something is ('putting the pharmacy bag in the bathroom
    cabinet'): a kind of place named beside it is a thing's (the bag from the pharmacy), not where one is."""
    return bool(_OWN_ROOMS.search(" ".join(words(text))))


def stays_put(frames: Sequence[Event], ev: Event, where: str) -> bool:
    """Whether the next frame after `ev` that shows home or out, within STAYED_MS, shows `where` (a departure from
    home seen, 'the carer going out of the front door', and the hallway after it: someone else left)."""
    later = ((e, w) for e in frames if e.start_ms > ev.start_ms and (w := scene(e)))
    nxt = next(later, None)
    return nxt is not None and nxt[1] == where and nxt[0].start_ms - ev.start_ms <= STAYED_MS


STAYED_MS = 10 * 60_000
"""How soon after a departure seen the next frame at home shows the wearer stayed (someone else left); later, they
went and came back."""


def transitions(frames: Sequence[Event], kind: str) -> list[Event]:
    """The settings out ('leave') or gettings back ('arrive') the frames show, in time order: the first frame of
    a run out after a run at home (or the reverse) that ended within REACH_MS. A run of one frame between two of the
    other place is none (a neighbour walking past the window, seen from home), unless it shows home's door from
    outside ('the front door locked from outside'): that is going out."""
    runs: list[tuple[str, list[Event]]] = []
    for ev in frames:
        where = scene(ev)
        if where and runs and runs[-1][0] == where and ev.start_ms - runs[-1][1][-1].start_ms <= REACH_MS:
            runs[-1][1].append(ev)
        elif where:
            runs.append((where, [ev]))
    kept: list[tuple[str, list[Event]]] = []
    for i, (where, seen) in enumerate(runs):
        before, after = runs[i - 1] if i else None, runs[i + 1] if i + 1 < len(runs) else None
        if len(seen) == 1 and before is not None and after is not None and before[0] == after[0] != where and \
                not _FROM_OUTSIDE.search(seen[0].content.lower()) and \
                seen[0].start_ms - before[1][-1].start_ms <= LONE_MS and after[1][0].start_ms - seen[0].start_ms <= LONE_MS:
            continue
        if kept and kept[-1][0] == where:
            kept[-1][1].extend(seen)
        else:
            kept.append((where, list(seen)))
    was, now = ("home", "out") if kind == "leave" else ("out", "home")
    return [b[1][0] for a, b in zip(kept, kept[1:])
            if a[0] == was and b[0] == now and b[1][0].start_ms - a[1][-1].start_ms <= REACH_MS]
