"""Visits: a stretch of time spent at a place, from arriving there (or its first mention) to leaving it.

Narrations rarely name a place the way a question does: 'how long was I at the hairdresser's?' rests on
'walking into Clip & Curl' ... 'hairdresser's chair' ... 'leaving Clip & Curl'. A visit is found from the
events about the place, widened to the arrival just before them and closed by the departure after them (one
that names the place or a name read during the visit, else the first one after it); home is found by its
words. The cues are the lexicon's ([visits]). What it answers: how long a stay lasted, when one arrived at or
left a place ('when did I get home from work?', 'when did I leave the pub?') and how many times one went out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from egocli.core.lexicon import lexicon, stem, verb_keys, words
from egocli.reasoning import actions, kinds, outings, terms, workplace
from egocli.reasoning.outings import cue
from egocli.reasoning.plan import Asked, Finding
from egocli.reasoning.signs import inside, on_the_way_sign, said_place, signed
from egocli.reasoning.voice import say_duration
from egocli.store import Event, Store
from egocli.store import windows as store_windows

ARRIVAL_REACH_MS = 45 * 60_000
"""How long before the first mention of a place an arrival naming it may be its arrival."""
NEAR_ARRIVAL_MS = 15 * 60_000
"""How long before the first mention of a place an arrival that does not name it may be its arrival."""
DEPARTURE_REACH_MS = 4 * 3_600_000
"""How long after the last mention of a place its departure may be."""
MENTION_GAP_MS = 45 * 60_000
"""Mentions of a place closer than this are one visit."""
HOME_LOOKBACK_MS = 7 * 86_400_000
"""How far back arrivals home and departures from home are read when the question names no time."""


_LEX = lexicon().visits
_ARRIVE, _LEAVE, _HOMEWARD, _HOME = (cue(_LEX[k]) for k in ("arrive", "leave", "homeward", "home"))
_LOCATIVE = lexicon().verbs["locative"] - {"at", "back", "by"}
"""Words after a left thing that say where it was left ('leave my keys on the table' is no departure)."""
_BACK = frozenset({"back", "home", "in"})
"""What names home as the place of a move ('get back', 'get in', 'get home')."""
_LEADING, _NOT_PLACES, _HOME_WORDS, _WAYS_OUT, _HEADING, _OTHERS = (frozenset(_LEX[k]) for k in (
    "leading", "not_places", "home_words", "ways_out_of", "heading", "others_seen"))
names = terms.names
"""The proper names a narration holds past its first word ('the Crown pub, Ravi waving': Crown, Ravi)."""


@dataclass(frozen=True)
class Move:
    """A question's phrase that asks about arriving or leaving."""

    kind: str
    """'arrive' or 'leave'."""
    place: str
    """The place, in the question's words; '' for home."""
    after: str = ""
    """Where one came from ('work' in 'get home from work'): the arrival right after leaving it."""
    to: str = ""
    """Where one set out for ('the eye clinic' in 'leave the flat for the eye clinic'): the departure before it."""
    company: str = ""
    """Who or what went along ('the dog' in 'go out with the dog'): of the moves home, those whose outing names it."""


@dataclass(frozen=True)
class Visit:
    """A stretch spent at a place."""

    begin: Event
    """Its arrival, else its first mention."""
    end: Event | None
    """Its departure (None: none seen)."""


_VERBS = {key: verb_keys(_LEX[key]) for key in ("arrive_verbs", "leave_verbs", "arrive_work_verbs", "leave_work_verbs")}
"""The verbs of moving, their first word stemmed as a question's is ('come_home' is 'com_home')."""


def move(phrase: str) -> Move | None:
    """The move a phrase asks about ('arrive home from work', 'leave the hairdresser's', 'go out', 'clock off',
    'set off to the post office', 'leave the flat for the clinic', 'set off on the bike'), else None."""
    tokens = words(phrase)
    if not tokens:
        return None
    first = stem(tokens[0])
    two = f"{first}_{tokens[1]}" if len(tokens) > 1 else ""
    for way in ("arrive", "leave"):
        if two in _VERBS[f"{way}_work_verbs"] or first in _VERBS[f"{way}_work_verbs"]:
            return Move(way, "work")  # 'clock off': work is the place
    kind = next((k for k in ("arrive", "leave") if two in _VERBS[f"{k}_verbs"] or first in _VERBS[f"{k}_verbs"]),
                None)
    if kind is None:
        return None
    rest = tokens[2:] if two in _VERBS[f"{kind}_verbs"] else tokens[1:]
    if two in _VERBS[f"{kind}_verbs"] and tokens[1] in _BACK:
        rest = ["home", *rest]
    if kind == "leave" and set(rest[1:]) & _LOCATIVE:
        return None  # 'leave my keys on the table' puts something somewhere
    company: list[str] = []
    if "with" in rest:  # 'go out with the dog', 'leave the pub with Stan': company, no place
        i = rest.index("with")
        j = next((j for j in range(i + 1, len(rest)) if rest[j] in _ONWARD), len(rest))
        rest, company = rest[:i] + rest[j:], bare(rest[i + 1:j])
    cut = next((i for i, w in enumerate(rest) if w in ("from", "after")), len(rest))
    rest, after = rest[:cut], bare(rest[cut + 1:])
    aim = next((i for i, w in enumerate(rest) if w in ("for", "to") and kind == "leave"), len(rest))
    place, to = bare(rest[:aim]), bare(rest[aim + 1:])
    if place and outings.TRAVEL.fullmatch(" ".join(place)):
        place = []  # 'set off on the bike': a way of going, no place
    home = not place or place[0] in _HOME_WORDS
    return Move(kind, "" if home else " ".join(place), " ".join(after), " ".join(to) if home else "",
                " ".join(company))


_ONWARD = ("from", "after", "for", "to")
"""Words that go on from the company a move is made with to its places ('with the dog from the park')."""


def bare(tokens: list[str]) -> list[str]:
    """A place's words without the prepositions and articles before them ('at the office' -> 'office')."""
    while tokens and tokens[0] in _LEADING and not (len(tokens) == 1 and tokens[0] in _HOME_WORDS):
        tokens = tokens[1:]
    return tokens


def home_word(text: str) -> bool:
    """Whether a line names home (not on the way home: 'walking home' names no home reached or left)."""
    return bool(_HOME.search(_HOMEWARD.sub(" ", text.lower())))


def arrives(ev: Event) -> bool:
    """Whether a line narrates arriving somewhere."""
    return bool(_ARRIVE.search(_HOMEWARD.sub(" ", ev.content.lower())))


def leaves(ev: Event) -> bool:
    """Whether a line narrates leaving somewhere or heading home."""
    text = ev.content.lower()
    return bool(_LEAVE.search(text) or _HOMEWARD.search(text))


def home_arrival(ev: Event) -> bool:
    return ev.modality == "visual" and arrives(ev) and home_word(ev.content) and not someone_seen(ev)


def home_departure(ev: Event) -> bool:
    return ev.modality == "visual" and bool(_LEAVE.search(ev.content.lower())) and home_word(ev.content) and \
        not someone_seen(ev)


def someone_seen(ev: Event) -> bool:
    """Whether a frame opens on a person ('the man in the grey fleece going out of the front door'), or the clause
    that says its move does ('the front door opening, a woman in a purple fleece coming in'): their move, not the
    wearer's (not 'a woman's hand', a part of someone)."""
    said = terms.clauses(ev.content.lower().replace("\u2019", "'"))
    moving = next((c for c in said if _ARRIVE.search(c) or _LEAVE.search(c)), said[0])
    return any(w.strip(",.;:") in _OTHERS for c in {said[0], moving} for w in c.split()[:3])  # 'woman's': no 'woman'


def _moving(ev: Event) -> str:
    """'home' for a getting home or setting out from home seen, 'travel' for a way of getting about seen, else ''."""
    return "home" if home_departure(ev) or home_arrival(ev) else \
        "travel" if ev.modality == "visual" and MOVING.search(ev.content.lower()) else ""


Find = Callable[[str], list[Event]]
"""The events in scope about a place, in time order (temporal.Matcher's matches of it as a thing)."""


def visits(asked: Asked, place: str, find: Find) -> list[Visit]:
    """The visits to a place in the question's scope, in time order ('work' names none: its stays at work). A
    person's place ('Mrs Okafor's') is being where they speak; mentions with no departure seen between them are
    one visit however far apart (the hospital entrance at 10:04, its coffee shop at 11:41)."""
    if bare(words(place)) in WORK and (worked := workplace.stays(asked, _moving)):
        return [Visit(begin, end) for begin, end in worked]
    who = set(words(place))
    mentions = [e for e in find(place) if (e.modality in ("visual", "text", "note") and not _remote(e, who)
                                           and not _on_the_way(e))
                or (e.modality == "speech" and bool(who) and set(words(terms.speaker(e.content))) >= who)]
    groups = _joined(asked, stretches(mentions))
    someones = any(e.modality == "speech" for e in mentions)  # a person's place: they speak there
    seen = [g for g in groups if any(e.modality in ("visual", "speech") for e in g)]
    groups = seen or groups  # a letter read or a note written names the place without one being there
    out: dict[int | None, Visit] = {}
    for group in groups:
        visit = _visit(asked, group, {e.id for e in mentions}, someones)
        end_id = visit.end.id if visit.end is not None else None
        if end_id is None or end_id not in out:
            out[end_id if end_id is not None else -visit.begin.id] = visit
    return sorted(out.values(), key=lambda v: v.begin.start_ms)


def _on_the_way(ev: Event) -> bool:
    """Whether a sign read is one of the way there, or a frame shows travelling and no arriving or leaving ('the
    drive in the dark, a white van with CALDERFORD MARKET painted on the side'): a place named on the way, or on a
    vehicle, is not yet reached."""
    return on_the_way_sign(ev) or \
        (ev.modality == "visual" and bool(MOVING.search(ev.content.lower())) and not arrives(ev) and not leaves(ev))


def _remote(ev: Event, place: set[str]) -> bool:
    """Whether a line names the place over a phone, a message or a letter ('the phone ringing on the kitchen
    worktop, DOBSON'S GARAGE on the screen', 'Shanice: I'm at Ray's already'): no being there."""
    return bool(actions.REMOTE_WORDS.search(" ".join(w for w in words(ev.content) if w not in place))) or \
        kinds.message_in(ev)


WORK = [words(w) for w in _LEX["work_names"]]
"""What a question calls the wearer's work ('the office')."""
JOIN_MS = 4 * 3_600_000
"""Stretches of a place's mentions this close with no departure between are one visit."""


def _joined(asked: Asked, groups: list[list[Event]]) -> list[list[Event]]:
    """Stretches of mentions joined where no departure, getting home nor a room of home is seen between them within
    JOIN_MS."""
    out: list[list[Event]] = []
    for group in groups:
        if out and group[0].start_ms - out[-1][-1].start_ms <= JOIN_MS and \
                not _moved(asked, out[-1][-1].start_ms, group[0].start_ms):
            out[-1] = [*out[-1], *group]
            continue
        out.append(group)
    return out


def apart(asked: Asked, groups: list[list[Event]]) -> list[list[Event]]:
    """Stretches of mentions cut where one moved between two of them ('PHYSIO 12' written on a sticky note at home,
    the flat door pulled shut, then the physio's sign: the note is no being there)."""
    out: list[list[Event]] = []
    for group in groups:
        out.append([group[0]])
        for before, ev in zip(group, group[1:]):
            if _moved(asked, before.start_ms, ev.start_ms):
                out.append([ev])
            else:
                out[-1].append(ev)
    return out


def _moved(asked: Asked, lo: int, hi: int) -> bool:
    """Whether a departure, a getting home or a room of home is seen between two moments."""
    return any(e.modality == "visual" and (leaves(e) or home_arrival(e) or outings.scene(e) == "home")
               for e in store_windows.overlapping(asked.store, lo + 1, hi, None, 2000) if lo < e.start_ms < hi)


def _visit(asked: Asked, group: list[Event], mentioned: set[int], someones: bool = False) -> Visit:
    """A group of mentions widened to its arrival and closed by its departure; at someone's place ('Joan's'), a
    home seen from outside just before is getting there ('a bungalow at number 6, a key safe under the porch light')."""
    lo, hi = group[0].start_ms, group[-1].start_ms
    around = store_windows.overlapping(asked.store, lo - ARRIVAL_REACH_MS, hi + DEPARTURE_REACH_MS, None, 2000)
    around = [e for e in around if e.start_ms <= asked.scope.at_ms and e.modality == "visual"]
    known = {n for e in group for n in names(e.content)}
    before = [e for e in around if e.start_ms <= lo and (arrives(e) or (someones and dwelling_seen(e))) and
              not home_arrival(e) and
              (e.id in mentioned or any(n in e.content for n in known) or
               (lo - e.start_ms <= NEAR_ARRIVAL_MS and not outings.TRANSIT.search(e.content.lower())))]
    begin = before[-1] if before and not any(leaves(e) for e in around if before[-1].start_ms < e.start_ms < lo) \
        else group[0]
    known |= names(begin.content)
    later = [e for e in around if e.start_ms >= lo and leaves(e) and not home_departure(e)]
    named = [e for e in later if _names_it(e, known, mentioned)]
    if named:
        return Visit(begin, named[0])
    own = {t for e in group for t in words(e.content)} | {w for n in known for w in words(n)}
    after = [e for e in later if e.start_ms >= hi and not _leaves_elsewhere(e, own)]
    arrival = next((e for e in around if e.start_ms > hi and (arrives(e) or (someones and dwelling_seen(e)))), None)
    end = after[0] if after and (arrival is None or after[0].start_ms <= arrival.start_ms) else None
    return Visit(begin, end if end is not None else _far_departure(asked, hi, known, mentioned))


_DWELLINGS = frozenset(_LEX["dwellings"])
DWELLING_WORDS = 5
"""A home named in a frame's first this many words is what it opens on ('a pebble-dashed semi, a brass number')."""


def dwelling_seen(ev: Event) -> bool:
    """Whether a frame opens on a home seen from outside ('a terraced house in Forest Town'), not leaving it."""
    first = words(terms.clauses(ev.content.lower())[0].split(",")[0])
    return ev.modality == "visual" and bool(set(first[:DWELLING_WORDS]) & _DWELLINGS) and not leaves(ev)


def _names_it(ev: Event, known: set[str], mentioned: set[int]) -> bool:
    """Whether an event is about the visit's place: one of its mentions, or naming a name read during it."""
    return ev.id in mentioned or any(n in ev.content for n in known)


LONG_STAY_MS = 16 * 3_600_000
"""How long after its last mention a stay may end with a departure naming its place (a night shift at the
hospital, seen at its arrival and its leaving only)."""


def _far_departure(asked: Asked, hi: int, known: set[str], mentioned: set[int]) -> Event | None:
    """The first departure that mentions the place (`mentioned`) or one of its `known` names within LONG_STAY_MS
    after `hi`, with no going home or setting out from home seen before it; else None."""
    until = min(hi + LONG_STAY_MS, asked.scope.at_ms + 1)
    later = store_windows.overlapping(asked.store, hi + DEPARTURE_REACH_MS, until, None, 4000)
    for ev in (e for e in later if e.modality == "visual" and e.start_ms > hi):
        if home_arrival(ev) or home_departure(ev):
            return None
        if leaves(ev) and _names_it(ev, known, mentioned):
            return ev
    return None


def _leaves_elsewhere(ev: Event, own: set[str]) -> bool:
    """Whether a departure names a place the visit never did ('leaving the cafe' after the pharmacy)."""
    text = _HOMEWARD.sub(" ", ev.content.lower())
    m = _LEAVE.search(text)
    if m is None:
        return False
    left = words(terms.clauses(text[m.end():])[0])
    left = left[:next((i for i, w in enumerate(left) if w in _HEADING), len(left))]  # 'to the car park': where to
    said = [w for w in left if w not in _LEADING and w not in _WAYS_OUT][:3]
    return bool(said) and not set(said) & own and said[0] not in _NOT_PLACES


def stays(asked: Asked, place: str, find: Find) -> list[Visit]:
    """The visits to a place as a question names it ('at the dentist'), for 'how long was I at ...?'."""
    return visits(asked, " ".join(bare(words(place))) or place, find)


def last_closed(seen: list[Visit]) -> Visit | None:
    """The latest of the visits that has a departure."""
    closed = [v for v in seen if v.end is not None and v.end.start_ms > v.begin.start_ms]
    return closed[-1] if closed else None


def stretches(mentions: list[Event], gap_ms: int = MENTION_GAP_MS) -> list[list[Event]]:
    """Mentions in time order cut where gap_ms passes without one."""
    groups: list[list[Event]] = []
    for ev in mentions:
        if groups and ev.start_ms - groups[-1][-1].start_ms <= gap_ms:
            groups[-1].append(ev)
        else:
            groups.append([ev])
    return groups


def closed(occasions: list[list[Event]]) -> list[list[Event]]:
    """Occurrences of an occasion with each departure from it joined to the one it ends ('meeting room 3,
    stand-up' ... 'leaving meeting room 3 after the stand-up' is one meeting, not two)."""
    out: list[list[Event]] = []
    for group in occasions:
        if out and all(leaves(e) for e in group) and group[0].start_ms - out[-1][-1].start_ms <= DEPARTURE_REACH_MS \
                and not all(leaves(e) for e in out[-1]):
            out[-1] = [*out[-1], *group]
        else:
            out.append(group)
    return out




def moves_in(ev: Event) -> int:
    """1 when an event says an arrival somewhere or a departure from somewhere, else 0."""
    return int(ev.modality == "visual" and (arrives(ev) or leaves(ev)))


PLACE_REACH_MS = 3 * 3_600_000
"""How long before a moment the place one was at may have been named."""


def place_at(store: Store, at_ms: int) -> Event | None:
    """The event naming where one was at a moment: the latest sign read or arrival seen before it with no departure
    between (a notice read there, 'chalkboard - Live Music', only when no other is), else the latest frame naming a
    proper name that is no one's, else None. Whoever speaks in the log around then is a person, not a place ('Ellie
    scoring' names no place; 'Hollins Park' does)."""
    around = store_windows.overlapping(store, at_ms - PLACE_REACH_MS, at_ms + PLACE_REACH_MS, None, 4000)
    people = {w for e in around if e.modality == "speech" for w in words(terms.speaker(e.content))}
    before = [e for e in around if (e.modality == "visual" or signed(e)) and e.start_ms <= at_ms]
    named = None
    for ev in reversed(before):
        if ev.modality == "visual" and leaves(ev):
            return named
        if inside(ev, around):
            named = ev  # what is on where one is, unless a sign or an arrival before it says which place
        elif signed(ev) or (ev.modality == "visual" and arrives(ev)):
            return ev  # a sign read or an arrival seen since the last departure says where
        if named is None and any(not set(words(n)) <= people for n in names(ev.content)):
            named = ev  # a name in a frame ('Christmas trees', 'Westfield 1-0 up') only when nothing says more
    return named


MOVING = outings.TRAVEL
"""A way of getting about seen in a frame ('walking across a parade of shops', 'the bus kneeling at the kerb')."""


def moves(ev: Event) -> bool:
    """Whether a frame shows a way of getting about (MOVING)."""
    return ev.modality == "visual" and bool(MOVING.search(ev.content.lower()))
