"""Someone else's visit: when a person came, when they left, how long they stayed ('what time did Irene turn
up?', 'when did Susan and Alfie go home?', 'how long did the plumber stay?').

A visit is a stretch of the events that name the person in person: a frame with them in it, or their words said
in the room, with no call, message or email about them (a phone call with Brian is no visit from him). Mentions
closer than GUEST_GAP_MS are one visit (visits.stretches). A stretch is in person when a frame names them, or when
they speak in it ('Joy: Morning, Frank!') and nothing in the minutes before their first words is a call (a phone
buzzing, 'calling Karen'): a camera rarely knows a visitor's name, a transcript does. It begins at the first
arrival narrated in it (the doorbell, 'at the door'), else at a door or arrival seen in the minutes before its
first mention, else its first mention; it ends at the last departure narrated in it, else at a departure seen
soon after its last mention ('the old man in the flat cap going out of the front door'), else at its last
mention. The cues are the lexicon's ([visits] guest_*)."""

from __future__ import annotations

from egocli.core.lexicon import lexicon
from egocli.reasoning import actions, outings, retrieval, temporal, terms, visits
from egocli.reasoning.persons import ARTICLES, JOINS, VERBS, coming, going, people
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.reasoning.voice import say_duration
from egocli.core.timeutil import local
from egocli.store import Event, EventFilter

GUEST_GAP_MS = 90 * 60_000
"""Mentions of a visitor closer than this are one visit (a dinner names its guest every hour or so)."""
CALL_BEFORE_MS = 3 * 60_000
"""A call seen this long before someone's first words makes their words a call's (the phone buzzes, then they
speak)."""
HOUSEHOLD_HOURS = 3
"""Someone heard in this many clock hours of a day before a door lives here (or spent the day here): no visitor;
someone met once earlier (a neighbour over the fence at breakfast) who comes to the door later is one."""
STILL_HERE_MS = 60 * 60_000
"""Someone heard this soon before a door is still here: the door is theirs going, or someone else's coming."""
DOOR_BEFORE_MS = 5 * 60_000
"""A door or arrival seen this long before a visitor's first mention is their arrival."""
GONE_AFTER_MS = 45 * 60_000
"""A departure seen this long after a visitor's last mention is theirs (nobody names who goes out of the door)."""
STILL_HERE_MS = 18 * 3_600_000
"""Two stretches of a visitor's mentions with no one seen leaving between them are one visit when this close
(a match watched in silence, a night on the sofa)."""
SEARCH_LIMIT = 400
"""Events naming a person read at most, per time window."""
_LEX = lexicon().visits
_CUE = {k: visits.cue(_LEX[f"guest_{k}"]) for k in ("arrive", "leave", "door", "calling", "let_in")}
_ELSEWHERE = frozenset(_LEX["dwellings"])


def visit(asked: Asked, who: list[str]) -> list[Event]:
    """The latest visit in scope by any of the people: its events in time order (with the arrival seen just
    before and the departure seen just after it), or []."""
    found: dict[int, Event] = {}
    spans = asked.scope.windows or ((-(2 ** 62), asked.scope.at_ms + 1),)
    named = [person.split() for person in who]
    for person in who:
        for lo, hi in spans:
            flt = EventFilter(since_ms=lo, until_ms=min(hi, asked.scope.at_ms + 1), modalities=("visual", "speech"),
                              limit=SEARCH_LIMIT)
            for ev, _, _ in asked.store.search(person, flt):
                text = ev.content.lower()
                own = terms.speaker(ev.content).lower() == person
                if _names(terms.words(text), person.split()) and (own or not _remote(text)) and \
                        (own or ev.modality != "speech" or _addressed(ev.content, person)):
                    found[ev.id] = ev  # (a doorbell rings, a phone rings; their own words may say 'the ring road')
    ordered = sorted(found.values(), key=lambda e: (e.start_ms, e.id))
    seen = [s for s in visits.stretches(ordered, GUEST_GAP_MS) if _in_person(asked, s, named)]
    if not seen:
        return []
    stretch = seen[-1]
    for earlier in reversed(seen[:-1]):  # quiet through a match, or asleep on the sofa, is still here
        if stretch[0].start_ms - earlier[-1].end_ms > STILL_HERE_MS or \
                _around(asked, earlier[-1].end_ms, stretch[0].start_ms, ("leave",), first=True) is not None or \
                _around(asked, stretch[0].start_ms - DOOR_BEFORE_MS, stretch[0].start_ms, ("arrive", "door"),
                        first=True) is not None:  # seen coming in again: a visit of its own
            break
        stretch = [*earlier, *stretch]
    before = _around(asked, stretch[0].start_ms - DOOR_BEFORE_MS, stretch[0].start_ms, ("arrive", "door"), first=True)
    after = None if any(_CUE["leave"].search(e.content.lower()) for e in stretch) else \
        _around(asked, stretch[-1].end_ms, min(stretch[-1].end_ms + GONE_AFTER_MS, asked.scope.at_ms + 1), ("leave",),
                first=True)
    if after is None and not any(_CUE["leave"].search(e.content.lower()) for e in stretch):
        after = _seen_leaving(asked, [*([before] if before is not None else []), *stretch], who)
    return [*([before] if before is not None else []), *stretch, *([after] if after is not None else [])]


def _addressed(line: str, person: str) -> bool:
    """Whether words spoken name the person as the one spoken to ('Thanks, Liam.', 'Liam, put the kettle on'), not
    as someone talked about ('What time's Liam coming?': he need not be here)."""
    said = line.partition(":")[2] if terms.speaker(line) else line
    name = terms.words(person)
    for stop in ".!?;":
        said = said.replace(stop, ",")
    return any((part := terms.words(piece))[-len(name):] == name and len(part) <= len(name) + 1
               for piece in said.split(","))  # 'Liam', 'Thanks, Liam', 'Hiya Liam': the name ends a short part


def _seen_leaving(asked: Asked, stretch: list[Event], who: list[str]) -> Event | None:
    """A visitor seen leaving by how they looked coming in, not by name, up to DESCRIBED_MS after their last
    mention ('the front door, a small boy in a red school jumper with a book bag' ... 'the front door closing
    behind the woman in the green fleece and the boy with the book bag'): the first frame with a leaving cue that
    shares at least DESCRIBED_WORDS of the first frame's words (the door's and the cues' words aside)."""
    seen = next((e for e in stretch if e.modality == "visual"), None)
    if seen is None:
        return None
    named = {w for person in who for w in terms.terms(person)}
    looks = set(terms.terms(seen.content)) - _CUE_TERMS - named
    hi = min(stretch[-1].end_ms + DESCRIBED_MS, asked.scope.at_ms + 1)
    for ev in asked.store.events(EventFilter(since_ms=stretch[-1].end_ms, until_ms=hi, modalities=("visual",))):
        if _CUE["leave"].search(ev.content.lower()) and len(looks & set(terms.terms(ev.content))) >= DESCRIBED_WORDS:
            return ev
    return None


def _remote(text: str) -> bool:
    """Whether a line is of a call, message or email (a doorbell's ringing is no call)."""
    return bool(actions.REMOTE_WORDS.search(_CUE["arrive"].sub(" ", text)))


def _in_person(asked: Asked, stretch: list[Event], named: list[list[str]]) -> bool:
    """Whether a stretch of mentions is the person here: a frame names them, or they speak in it and no call is
    seen in the minutes before their first words."""
    if any(e.modality == "visual" for e in stretch):
        return True
    spoken = next((e for e in stretch if e.modality == "speech" and " ".join(terms.words(terms.speaker(e.content))) in
                   [" ".join(n) for n in named]), None)
    if spoken is None:
        return False
    flt = EventFilter(since_ms=spoken.start_ms - CALL_BEFORE_MS, until_ms=spoken.start_ms)
    return not any(_remote(e.content.lower()) for e in asked.store.events(flt))


def _around(asked: Asked, lo: int, hi: int, kinds: tuple[str, ...], first: bool) -> Event | None:
    """The first (else last) event between lo and hi that a cue of these kinds reads, or None."""
    hits = [e for e in asked.store.events(EventFilter(since_ms=lo, until_ms=hi))
            if any(_CUE[k].search(e.content.lower()) for k in kinds) and not _remote(e.content.lower())]
    return (hits[0] if first else hits[-1]) if hits else None


def _names(said: list[str], person: list[str]) -> bool:
    """Whether the words say the person's name, word for word (terms.words reads 'Irene's' as 'irene')."""
    return any(said[i:i + len(person)] == person for i in range(len(said) - len(person) + 1))


def visitors(asked: Asked, counted: bool = False) -> Finding:
    """'Who's been round today?': each door seen in the scope (not the wearer's own coming and going) with who was
    there, by the name its line gives or whoever first speaks after it, and not someone who lives here or was here
    already (HOUSEHOLD_HOURS, STILL_HERE_MS). `counted`: 'how many people came to the door?', their number first."""
    lines = retrieval.lines(asked.store, asked.scope)
    came: list[tuple[str, Event]] = []
    speakers = {w for e in lines if (w := terms.speaker(e.content))}
    calls = [e.start_ms for e in lines if _remote(e.content.lower())]
    for i, ev in enumerate(lines):
        text = ev.content.lower()
        said = terms.words(text)
        if ev.modality != "visual" or not _CUE["door"].search(text) or _CUE["leave"].search(text) or _remote(text) \
                or visits.moves_in(ev) or (said and terms.gerund(said[0])):  # 'closing the front door': the wearer
            continue
        after = [e for e in lines[i + 1:i + 8] if e.start_ms - ev.start_ms <= DOOR_BEFORE_MS]
        who = next((n for n in visits.names(ev.content) if n in speakers), "") or \
            next((w for e in after if (w := terms.speaker(e.content))), "")  # a name that speaks: a person
        if not _CUE["calling"].search(text) and not visits.names(ev.content) and not outings.OTHERS & set(said):
            continue  # no one calling, named or seen: the wearer by the door ('the empty hook by the front door'),
            # whoever speaks next
        door = _CUE["door"].search(text)
        if (door and _ELSEWHERE & set(terms.words(text[:door.start()]))) or _CUE["let_in"].search(text):
            continue  # 'a bungalow with a ramp up to the front door', 'the door opened by a woman': the wearer at
            # someone's door
        day = local(ev.start_ms).date()
        heard: dict[str, set[int]] = {}  # who spoke earlier that day (not on the phone), at which hours
        for e in lines[:i]:
            if local(e.start_ms).date() == day and not any(0 <= e.start_ms - t <= CALL_BEFORE_MS for t in calls):
                heard.setdefault(terms.speaker(e.content).lower(), set()).add(local(e.start_ms).hour)
        here = {w for w, hours in heard.items() if len(hours) >= HOUSEHOLD_HOURS or
                any(0 <= ev.start_ms - e.start_ms <= STILL_HERE_MS and terms.speaker(e.content).lower() == w
                    for e in lines[max(0, i - 40):i])}
        if who and (who.lower() in here or any(who == w for w, _ in came)):
            continue
        came.append((who, ev))
    if not came:
        return Finding("guest", f"I can't see anyone coming to the door ({asked.scope.label}).", (),
                       f"no door seen with someone at it, {asked.scope.label}", False)
    told = "; ".join(f"{who + ', ' if who else ''}{asked.stamp(ev.start_ms, ev.source_id)}: {ev.content}"
                     for who, ev in came)
    if counted:
        many = f"{len(came)} {'person' if len(came) == 1 else 'people'}"
        return Finding("guest", f"{many} at the door: {told}.", tuple(ev for _, ev in came), f"{many} at the door: {told}")
    return Finding("guest", f"At the door: {told}.", tuple(ev for _, ev in came), f"at the door: {told}")


def guest(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'When did X come / leave?', 'how long did X stay?' (relation arrive, leave or stay); who came ('list')."""
    if plan.relation in ("list", "count"):
        return visitors(asked, counted=plan.relation == "count")
    who = people(plan.action)
    if not who:
        return None
    events = visit(asked, who)
    stamp, name = asked.stamp, plan.action.strip()
    called = ""
    for known in [] if events else named_for(asked, who):  # 'the boiler engineer': 'your engineer Kyle will visit'
        events = visit(asked, [known])
        if events:
            who, called = [known], f" ({known.title()})"
            break
    if not events:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "guest", name, stamp)
    came = _came(events, who)
    events = events[events.index(came):]  # 'starting dinner for Irene' before the doorbell is no visit yet
    went = next((e for e in reversed(events) if _CUE["leave"].search(e.content.lower())), events[-1])
    seen_as = " ".join(e.content for e in events)  # a name as the log writes it: 'Irene', but 'the taxi'
    told = " ".join(w.capitalize() if w not in ARTICLES | JOINS and w.capitalize() in seen_as else w
                    for w in name.split()) + called
    seen = [p.split() for p in who]
    if not any(e.modality == "visual" and any(_names(terms.words(e.content), n) for n in seen) for e in events):
        told = f"It seems {told}"  # heard in the room, the door seen unnamed: an inference, said as one
    told = told[:1].upper() + told[1:]
    if plan.relation == "leave":
        when = stamp(went.start_ms, went.source_id)
        return Finding("guest", f"{told} left {when}: {went.content}.", (went, came),
                       f"{name}: last seen in person {when} ({went.content}); came {stamp(came.start_ms, came.source_id)}")
    if plan.relation == "stay" and went.start_ms - came.start_ms < SEEN_ONCE_MS:  # one moment of the visit seen:
        return temporal.stay(asked, QuestionPlan("stay", name))  # a stay's inference from it, or no length
    if plan.relation == "stay":
        lasted = say_duration(went.start_ms - came.start_ms)
        span = f"from {stamp(came.start_ms, came.source_id)} to {stamp(went.start_ms, went.source_id)}"
        return Finding("guest", f"{told} stayed {lasted}, {span}: {came.content}; {went.content}.", (came, went),
                       f"{name}: here {span}, {lasted} ({came.content} ... {went.content})")
    when = stamp(came.start_ms, came.source_id)
    return Finding("guest", f"{told} came {when}: {came.content}.", (came,),
                   f"{name}: first seen in person {when} ({came.content})")


DESCRIBED_MS = 3 * 3_600_000
"""How long after a visitor's last mention a frame describing them may show them leaving."""
DESCRIBED_WORDS = 2
"""Words of how a visitor looked coming in that a frame of them leaving shares."""
_CUE_TERMS = frozenset(terms.terms(" ".join(w for k in ("arrive", "leave", "door") for w in _LEX[f"guest_{k}"])))

SEEN_ONCE_MS = 60_000
"""A visit whose coming and going are seen closer than this is one moment of it, which says no length."""

ROLE_LIMIT = 50
"""Events naming a visitor's role read at most."""


def named_for(asked: Asked, who: list[str], signs: bool = True) -> list[str]:
    """The names the log gives people a question calls by what they do ('the boiler engineer': 'your engineer Kyle
    will visit', 'Kyle from Warmhome, here for the boiler service'): the names said in a clause with the role's last
    word, the most often first; none for a name."""
    counts: dict[str, int] = {}
    for person in who:
        role = person.split()
        flt = EventFilter(until_ms=asked.scope.at_ms + 1, limit=ROLE_LIMIT)
        for ev, _, _ in asked.store.search(role[-1], flt):
            if not signs and visits.signed(ev):
                continue  # 'sign - Chorlton Physio - 212 Barlow Moor Road' names the place, not the physio
            for clause in _clauses(ev.content):
                if role[-1] in terms.words(clause):
                    for n in terms.names(clause):
                        if not set(terms.words(n)) & set(role):
                            counts[n.lower()] = counts.get(n.lower(), 0) + 1
    return sorted(counts, key=lambda n: -counts[n])


_PLACE_WORDS = frozenset(w for p in (*lexicon().outings["buildings"], *lexicon().outings["outdoors"]) for w in p.split())
"""Words that make a name a place's ('Park Lane Surgery'), not a person's."""


def called(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'What's my physio called?', 'who is my dentist?': the name said most often in a clause with the role
    (`named_for`), cited by the latest line that says both; None when no line names one."""
    role = terms.words(plan.action)
    if not role:
        return None
    names = [n for n in named_for(asked, [" ".join(role)], signs=False) if not set(n.split()) & _PLACE_WORDS]
    if not names:
        return None
    flt = EventFilter(until_ms=asked.scope.at_ms + 1, limit=ROLE_LIMIT)
    lines = [ev for ev, _, _ in asked.store.search(f"{role[-1]} {names[0]}", flt)
             if names[0] in " ".join(terms.words(ev.content)) and role[-1] in terms.words(ev.content)]
    if not lines:
        return None
    ev = max(lines, key=lambda e: e.start_ms)
    when = asked.stamp(ev.start_ms, ev.source_id)
    told = " ".join(w.capitalize() for w in names[0].split())
    return Finding("name", f"{told}: {when}: {ev.content.rstrip(' .')}.", (ev,),
                   f"{plan.action}: {told}, the name said with it; the latest at {when}: {ev.content}")


_MEETING = lexicon().verbs["meeting"]
"""Verbs of 'who did I see at the eye clinic?': the people heard there."""


def met(asked: Asked, phrase: str) -> Finding | None:
    """'Who did I see (talk to) at the eye clinic?': the people heard speaking through the latest visit there, in
    the order they first spoke, each cited by their first line; None for any other question."""
    said = terms.words(phrase)
    if terms.words(asked.question)[:1] != ["who"] or not said or said[0] not in _MEETING:
        return None
    rest = said[1:]
    while rest and rest[0] in ("to", "with", "at", "in"):
        rest = rest[1:]
    place = " ".join(visits.bare(rest))
    if not place:
        return None
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    seen = visits.visits(asked, place, lambda p: matcher.matches(p, verb_first=False))
    if not seen:
        return None
    begin, end = seen[-1].begin, seen[-1].end
    hi = end.start_ms if end is not None else min(begin.start_ms + DESCRIBED_MS, asked.scope.at_ms + 1)
    heard: dict[str, Event] = {}
    for ev in asked.store.events(EventFilter(since_ms=begin.start_ms, until_ms=hi + 1, modalities=("speech",))):
        who = terms.speaker(ev.content)
        if who and who not in heard:  # terms.speaker names no one for the wearer's own 'Me:'
            heard[who] = ev
    if not heard:
        return None
    told = "; ".join(f"{who} ({asked.stamp(ev.start_ms, ev.source_id)}: {ev.content})" for who, ev in heard.items())
    return Finding("list", f"At the {place}: {told}.", tuple(heard.values()), f"heard at the {place}: {told}")


def _clauses(text: str) -> list[str]:
    """A line's clauses, a number or a clock cut at its point or colon whole again ('Thu 28 Jan 8.15 with Gemma')."""
    out: list[str] = []
    for clause in terms.clauses(text):
        if out and out[-1][-1:].isdigit() and clause[:1].isdigit():
            out[-1] = f"{out[-1]}.{clause}"
        else:
            out.append(clause)
    return out


def _came(events: list[Event], who: list[str]) -> Event:
    """The event of a visit that says the visitor came: seen at the door, else the first arrival, else the first;
    from the first frame of the visit or their own first words on (words said about them before are talk of their
    coming: 'the taxi's coming', 'have you any rhubarb yet?')."""
    named = [" ".join(terms.words(p)) for p in who]
    here = next((i for i, e in enumerate(events) if e.modality == "visual" or
                 " ".join(terms.words(terms.speaker(e.content))) in named), 0)
    events = events[here:]
    seen_at_door = _CUE["door"].search(events[0].content.lower()) and not _CUE["leave"].search(events[0].content.lower())
    return events[0] if seen_at_door else next((e for e in events if _CUE["arrive"].search(e.content.lower())), events[0])


def departure(asked: Asked, phrase: str) -> Event | None:
    """When a phrase says someone went (`going`): the event of their latest visit that says they left, else its
    last; None for any other phrase, or when no visit of theirs is seen."""
    who = going(phrase)
    events = visit(asked, who) if who else []
    if not events:
        return None
    return next((e for e in reversed(events) if _CUE["leave"].search(e.content.lower())), events[-1])


def arrival(asked: Asked, phrase: str, anywhere: bool = False) -> list[Event] | None:
    """When a phrase says someone came (`coming`): the event of their latest visit that says they came; None for
    any other phrase, or when no visit of theirs is seen ('did removing the pan come before ...' is no one's
    visit)."""
    who = coming(phrase, anywhere)
    events = visit(asked, who) if who else []
    return [_came(events, who)] if events else None
