"""How the wearer got somewhere: 'how did I get to the hospital?', 'how did we get home from the pub?', 'did I
walk or get the bus to the post office?'.

The trip is found from its end: the arrival at the place (visits.py: an arrival narrated, else the first frame of
the place; for home, the arrival home, after leaving the place the question names when it names one). The trip
began at the last departure seen in the TRIP_MS before it. Its events are read for the ways of getting about the
lexicon lists ([travel]: a bus, a lift, a bike, on foot ...): any way other than walking wins over walking (one
walks to the bus stop and from it), and of those the one seen nearest the arrival. An arrival with nothing about
its trip says so and names the arrival; a place never reached is a 'not that I can see'."""

from __future__ import annotations

import re

from egocli.core.lexicon import lexicon, words
from egocli.reasoning import away, edges, homemoves, retrieval, staying, temporal, terms, visits
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.reasoning.voice import say_duration
from egocli.store import Event
from egocli.store import windows as store_windows

TRIP_MS = 75 * 60_000
"""How long before an arrival its trip may have begun."""
HOME_AFTER_MS = 3 * 3_600_000
"""How long after the last line about a place an arrival home may end the trip back from it."""
ARRANGED_MS = 3 * 3_600_000
"""How long before a lift the offer of it may have been made."""
AFTER_ARRIVAL_MS = 3 * 60_000
"""Events this soon after an arrival still tell the trip ('stepping off the bus' after 'the hospital entrance')."""
WALKING = "on foot"
"""The way that yields to any other seen on the same trip."""
WAYS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (said, visits.cue(phrases)) for said, phrases in lexicon().travel.items())
"""How an answer says a way of getting about -> what shows it in a line, in order of precedence."""
_LEADING = frozenset(lexicon().visits["leading"])


def ways_in(text: str) -> list[str]:
    """The ways of getting about a line shows, in precedence order ('walking to the bus stop': by bus, on foot)."""
    lowered = text.lower()
    return [said for said, pattern in WAYS if pattern.search(lowered)]


def asks_way(phrase: str) -> bool:
    """Whether a phrase names a way of getting about ('walk', 'get the bus', 'take a taxi')."""
    return bool(ways_in(phrase))


def destination(phrase: str) -> tuple[str, str]:
    """(place, from where) a trip phrase names: 'to the hospital' -> ('hospital', ''), 'home from the garage' ->
    ('', 'garage'), 'back from town' -> ('', 'town'); '' is home."""
    tokens = words(phrase)
    cut = tokens.index("from") if "from" in tokens else len(tokens)
    place, origin = tokens[:cut], tokens[cut + 1:]
    while place and place[0] in _LEADING and place[0] not in ("home",):
        place = place[1:]
    while origin and origin[0] in _LEADING:
        origin = origin[1:]
    home = not place or place[0] in ("home", "back", "in")
    return ("" if home else " ".join(place)), " ".join(origin)


def trip(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How did I get to X?': the way of getting about seen on the latest trip that ended at an arrival there
    (or, home from a place, that began where its lines end)."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    place, origin = destination(plan.action)
    trips = _trips(asked, matcher, place, origin)
    if not trips:
        return nothing(matcher, "travel", plan.action.strip(), asked.stamp)
    first, _, rest = plan.action.strip().partition(" ")
    stamp, told = asked.stamp, f"to {rest}" if first in ("at", "into", "in") and rest else plan.action.strip()
    for lo, hi, end in reversed(trips):
        shown = _shown(asked, lo, hi, end)
        if shown is None:
            continue
        way, ev, people = shown
        when = stamp(ev.start_ms, ev.source_id)
        arrived = f"; arrived {stamp(end.start_ms, end.source_id)}: {end.content}" if end is not None else ""
        way = f"{way} ({' and '.join(people)})" if people else way
        cites = tuple(e for e in (ev, end) if e is not None and (e is ev or e.id != ev.id))
        return Finding("travel", f"{way[:1].upper() + way[1:]}: {when}: {ev.content}.", cites,
                       f"got {told} {way} ({when}: {ev.content}){arrived}")
    end = next((e for _, _, e in reversed(trips) if e is not None), None)
    if end is None:
        return nothing(matcher, "travel", plan.action.strip(), asked.stamp)
    arrived = f"{stamp(end.start_ms, end.source_id)}: {end.content}"
    return Finding("travel", f"I can't tell how you got {told}: I only see you arrive, {arrived}.", (end,),
                   f"arrived {arrived}; no way of travelling seen before it", False)


Trip = tuple[int, int, "Event | None"]
"""A trip's first and last moments, and the arrival that ends it (None: not seen)."""


def _trips(asked: Asked, matcher: Matcher, place: str, origin: str) -> list[Trip]:
    """The trips to a place in scope, in time order. To a place: up to the start of each visit there that follows
    a departure from the one before (a second stretch of the hospital's lines is the same stay), else up to the
    first line of each stretch of lines about the place that is not a thing read (a calendar or a bank app names a
    place one is not at). Home from a place: from each leaving of it (homemoves.departure), else from the last line of
    each stretch there, to the first arrival home after it, else for the TRIP_MS after it. Home: up to each arrival
    home."""
    find = lambda p: matcher.matches(p, verb_first=False)  # noqa: E731
    if place:
        ends, before = [], None
        for stay in visits.visits(asked, place, find):
            if before is None or (before.end is not None and before.end.start_ms <= stay.begin.start_ms):
                ends.append(stay.begin)
            before = stay
        found = [e for e in ends if e.modality in ("visual", "speech") or visits.signed(e)] or \
            [g[0] for g in visits.stretches([e for e in find(place) if e.modality in ("visual", "speech")])]
        return [(e.start_ms - TRIP_MS, e.start_ms, e) for e in found]
    home = homemoves.moves(asked, "get home", find) or []
    if not origin:
        return [(e.start_ms - TRIP_MS, e.start_ms, e) for e in home]
    out: list[Trip] = []
    ended = [e.start_ms for v in visits.visits(asked, origin, find) if (e := homemoves.departure(asked, v)) is not None]
    for left in ended or [s[-1].start_ms for s in visits.stretches([e for e in find(origin)
                                                                     if e.modality in ("visual", "speech")])]:
        after = next((h for h in home if left < h.start_ms <= left + HOME_AFTER_MS), None)
        out.append((left, after.start_ms if after is not None else min(left + TRIP_MS, asked.scope.at_ms), after))
    return out


def _shown(asked: Asked, lo: int, hi: int, end: Event | None) -> tuple[str, Event, list[str]] | None:
    """The way of getting about a trip shows, the line that shows it and who spoke on it when it was a lift (None:
    no way seen). Looking back from an arrival, the trip begins at the last departure or other arrival seen."""
    around = [e for e in store_windows.overlapping(asked.store, lo, hi + AFTER_ARRIVAL_MS, None, 2000)
              if e.start_ms <= asked.scope.at_ms]
    if end is not None:
        left = next((e for e in reversed(around) if e.start_ms < hi - 60_000 and (visits.leaves(e) or visits.arrives(e))),
                    None)  # the trip began on leaving somewhere, or after arriving at the place before
        around = [e for e in around if left is None or e.start_ms >= left.start_ms]
    seen = [(way, e) for e in around if not _message(e) for way in ways_in(e.content)[:1]]
    if not seen:
        return None
    ridden = [(way, e) for way, e in seen if way != WALKING]
    way, ev = min(ridden or seen, key=lambda p: (abs(p[1].start_ms - hi), p[1].start_ms > hi))
    return way, ev, _drivers(asked, ev, around) if way == LIFT else []


def _drivers(asked: Asked, ev: Event, trip: list[Event]) -> list[str]:
    """Who gave the lift: whoever says the line that shows it ('Owen: I'll pick you up'), else who speaks on the
    trip after it, else who offered one before it."""
    said = terms.speaker(ev.content)
    if said:
        return [said]
    on_it = [who for e in trip if e.start_ms > ev.start_ms and (who := terms.speaker(e.content))]
    if on_it:
        return list(dict.fromkeys(on_it))
    return _arranged(asked, ev)


def _arranged(asked: Asked, ev: Event) -> list[str]:
    """Who offered a lift in the hours before one was seen ('Owen: I'll pick you up at one'), else nobody."""
    lo = ev.start_ms - ARRANGED_MS
    offers = [who for e in store_windows.overlapping(asked.store, lo, ev.start_ms, None, 2000)
              if LIFT in ways_in(e.content) and (who := terms.speaker(e.content))]
    return offers[-1:]




def _message(ev: Event) -> bool:
    """Whether a line is a message read ('Tasha: still ok for me to run you to the garage at 3?'): it may offer a
    trip; it shows none (a sign or a bus's card reader read on the way does)."""
    return ev.modality in ("text", "note") and bool(terms.speaker(ev.content))


LIFT = "with a lift"
"""The way that is someone else driving: who spoke on the trip is said with it."""

_RIDES = lexicon().kinds["rides"]
_VEHICLE_WORDS = {way: tuple(v) for way, v in _RIDES.items() if way in lexicon().travel}
_VEHICLES = {way: visits.cue(v) for way, v in _VEHICLE_WORDS.items()}
"""A way of getting about -> its vehicles' words ('by bus': bus, double-decker)."""
_NOT_RIDING = visits.cue(tuple(_RIDES["not_riding"]))
_READERS = tuple(tuple(words(r)) for r in _RIDES["readers"])
"""What a ticket or card reader's line opens with ('bus reader - ACCEPTED', 'reader - Metrolink - Touched in')."""
_RIDE_WORDS = frozenset(_RIDES["asking"].split())
_BOARDING, _ABOARD = visits.cue(tuple(_RIDES["boarding"])), visits.cue(tuple(_RIDES["aboard"]))
_RIDING, _ARTICLES = frozenset(_RIDES["riding"].split()), frozenset(_RIDES["articles"].split())
_VEHICLE_TOKENS = {way: tuple(tuple(words(v)) for v in vs) for way, vs in _VEHICLE_WORDS.items()}
RIDE_GAP_MS = 30 * 60_000
"""Lines of riding closer than this are one ride (boarding, the view from the window, touching out)."""
BOARDED_MS = 5 * 60_000
"""A ride whose lines all fall this close to its first is seen only as it began."""
_HEADING = frozenset({"to", "into", "home", "back", "towards", "from"})
"""Words after which a ride phrase says where it went ('bus ride to kingsmead', 'the tram into town')."""


def count(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How many buses did I catch?': the rides (`rides`); any other count is an act's (temporal.count)."""
    found = rides(asked, plan.action)
    if found is None:
        return temporal.count(asked, plan)
    if not found:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "count", plan.action, asked.stamp)
    return temporal.tally(found, plan.action, asked.stamp)


def last(asked: Asked, plan: QuestionPlan) -> Finding:
    """'When was I last on a bus?': the latest ride's first line (`_rides`: any frame of the vehicle, 'tram 4 home');
    any other act's as edges.last."""
    asked_ride = _ride(plan.action)
    found = _rides(asked, asked_ride[0]) if asked_ride is not None and not asked_ride[1] else []
    if not found:
        return edges.last(asked, plan)
    ev = found[-1][0]
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("last", f"Your last ride: {when}: {ev.content.rstrip(' .')}.", (ev,),
                   f"{plan.action}: the last ride began {when}: {ev.content}")


def duration(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long was the bus ride to Kingsmead?': the ride's (`ride_time`); 'how long was I out?': the outing's
    (away.py); any other act's as temporal.duration."""
    return ride_time(asked, plan.action) or away.outing(asked, plan.action) or temporal.duration(asked, plan)


def stay(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long was the tram into town?': the ride's (`ride_time`); any other stay's as temporal.stay."""
    return ride_time(asked, plan.action) or temporal.stay(asked, plan)


def ride_time(asked: Asked, phrase: str) -> Finding | None:
    """How long the latest ride a phrase names lasted ('bus ride to kingsmead', 'on the tram'): the latest ride in
    scope, of those followed within RIDE_GAP_MS by a line naming where it went when the phrase says; from its first
    line to its last, or, when the ride is seen only as it began, to the first arrival or sign read after it, said
    as a reading. None when the phrase names no ride."""
    asked_ride = _ride(phrase)
    if asked_ride is None:
        return None
    way, where = asked_ride
    found = _rides(asked, way)
    if not found:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "duration", phrase, asked.stamp)
    if where:
        leaving = "from" in words(phrase)  # 'the train back from ely': where it set out from
        went = [r for r in found if any(_names_end(e.content, where, leaving) for e in
                                        store_windows.overlapping(asked.store, r[0].start_ms, r[-1].end_ms + RIDE_GAP_MS,
                                                                  None, 500))]
        found = went or found
    ride = found[-1]
    first, last, inferred = ride[0], ride[-1], False
    if last.start_ms - first.start_ms < BOARDED_MS:
        later = store_windows.overlapping(asked.store, last.end_ms, last.end_ms + RIDE_GAP_MS, None, 500)
        end = next((e for e in later if e.start_ms > last.start_ms and
                    (visits.signed(e) or (e.modality == "visual" and visits.arrives(e)))), None)
        last, inferred = (end, True) if end is not None else (last, False)
    if last.start_ms <= first.start_ms:  # one moment of it and nothing after: when, not how long
        return staying.no_length(asked.stamp(first.start_ms, first.source_id), first, phrase, "it begin,")
    lasted = say_duration(last.start_ms - first.start_ms)
    span = f"from {asked.stamp(first.start_ms, first.source_id)} ({first.content}) to " \
        f"{asked.stamp(last.start_ms, last.source_id)} ({last.content})"
    text = f"It seems about {lasted}, {span}, the first arrival seen after it." if inferred else f"{lasted}, {span}."
    return Finding("duration", text, (first, last), f"{phrase}: the ride {span}: {lasted}" +
                   (", inferred from the arrival after it" if inferred else ""), not inferred)


def _names_end(text: str, where: set[str], leaving: bool) -> bool:
    """Whether a line names a ride's place as the question asks it: where it went ('boarding the 11:42 train to
    Ely', 'Ely - alight here'), or with `leaving` where it set out from ('the 16:35 train back from Ely'). A place
    named just after 'from' is an origin, anywhere else a destination."""
    said = words(text)
    stems = [terms.stem(t) for t in said]
    if not where <= set(stems):
        return False
    at = min(stems.index(w) for w in where)
    heading = next((t for t in reversed(said[max(at - 3, 0):at]) if t in _HEADING), "")
    return (heading == "from") == leaving


def _ride(phrase: str) -> tuple[str, set[str]] | None:
    """(the way, the stemmed words of where to) of a phrase that asks about riding a vehicle ('catch buses', 'bus
    ride to kingsmead', 'been on the tram'), else None ('miss the bus', 'the bus pass')."""
    said = words(phrase)
    way = next((w for w, cue in _VEHICLES.items() if cue.search(" ".join(said))), None)
    if way is None or _NOT_RIDING.search(" ".join(said)):
        return None
    cut = next((i for i, t in enumerate(said) if t in _HEADING), len(said))
    if any(t not in _RIDE_WORDS and not _VEHICLES[way].search(t) for t in said[:cut]):
        return None
    return way, {terms.stem(t) for t in said[cut:] if t not in _HEADING and t not in _LEADING and t not in _RIDE_WORDS}


def rides(asked: Asked, phrase: str) -> list[list[Event]] | None:
    """'How many buses did I catch?': the rides in the scope (`_rides`); None when the phrase asks about something
    other than riding a vehicle."""
    asked_ride = _ride(phrase)
    if asked_ride is None or asked_ride[1]:
        return None
    out: list[list[Event]] = []
    for ride in _rides(asked, asked_ride[0], aboard=True):  # each getting on is a ride: a change of trams is two
        cut = [i for i, e in enumerate(ride) if i and e.modality == "visual" and _BOARDING.search(e.content.lower())]
        out += [ride[i:j] for i, j in zip([0, *cut], [*cut, len(ride)])]
    return out


def _rides(asked: Asked, way: str, aboard: bool = False) -> list[list[Event]]:
    """The rides of a way in the scope, each the lines of one ride together (a frame of the vehicle, or its ticket
    or card reader read; with `aboard`, a frame only when it shows getting on, being in or getting off it), in time
    order. A vehicle named only as a stop or a pass, a message about it, or words said about it are no ride."""
    riding = [e for e in retrieval.lines(asked.store, asked.scope) if _rides_in(e, way, aboard)]
    return visits.stretches(riding, RIDE_GAP_MS)


def _rides_in(ev: Event, way: str, aboard: bool) -> bool:
    """Whether a line shows a ride of that way: a frame naming the vehicle, not only its stop or a pass (with
    `aboard`, getting on, in or off it), or a reader or ticket line naming it."""
    text = _NOT_RIDING.sub(" ", ev.content.lower())
    if not _VEHICLES[way].search(text):
        return False
    if ev.modality == "visual":
        return not aboard or bool(_BOARDING.search(text) or _ABOARD.search(text)) or _on_one(text, way)
    said = tuple(words(ev.content))
    return ev.modality == "text" and any(said[:len(r)] == r for r in _READERS)


def _on_one(text: str, way: str) -> bool:
    """Whether a frame has one on, in, off or getting a vehicle of that way ('on the number 9 bus', 'in a black cab',
    'catching the 8:10 train'): a word of riding, an article, at most two words, the vehicle."""
    said = words(text)
    for vehicle in _VEHICLE_TOKENS[way]:
        for i in range(len(said) - len(vehicle) + 1):
            if tuple(said[i:i + len(vehicle)]) == vehicle and any(
                    said[j] in _ARTICLES and j and said[j - 1] in _RIDING for j in range(max(i - 3, 0), i)):
                return True
    return False
