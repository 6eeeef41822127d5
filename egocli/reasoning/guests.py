"""Someone else's visit: when a person came, when they left, how long they stayed ('what time did Irene turn
up?', 'when did Susan and Alfie go home?', 'how long did the plumber stay?').

A visit is a stretch of the events that name the person in person: a frame with them in it, or their words said
in the room, with no call, message or email about them (a phone call with Brian is no visit from him); words
alone, with no frame of them, are no visit either (what a caller says comes through the phone). Mentions closer
than GUEST_GAP_MS are one visit (visits.stretches); it begins at the first arrival narrated in it (the doorbell,
'at the door'), else its first mention, and ends at the last departure narrated in it, else at its last mention. The cues are the lexicon's ([visits] guest_*)."""

from __future__ import annotations

from egocli.core.lexicon import lexicon
from egocli.reasoning import actions, terms, visits
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import Finding, Matcher, nothing
from egocli.reasoning.voice import say_duration
from egocli.store import Event, EventFilter

GUEST_GAP_MS = 90 * 60_000
"""Mentions of a visitor closer than this are one visit (a dinner names its guest every hour or so)."""
SEARCH_LIMIT = 400
"""Events naming a person read at most, per time window."""
_LEX = lexicon().visits
_CUE = {k: visits.cue(_LEX[f"guest_{k}"]) for k in ("arrive", "leave")}
VERBS = {kind: frozenset(v.replace("_", " ") for v in _LEX[f"guest_{kind}_verbs"]) for kind in ("arrive", "leave", "stay")}
"""A question's verb -> what it asks of the visit ('turn up': arrive)."""
_ARTICLES, _JOINS = lexicon().words["person_articles"], lexicon().words["person_joins"]


def people(phrase: str) -> list[str]:
    """The people a phrase names ('susan and alfie' -> susan, alfie; 'the plumber' -> plumber)."""
    out: list[str] = []
    said: list[str] = []
    for w in [*terms.words(phrase.replace(",", " and ").replace("&", " and ")), "and"]:
        if w in _JOINS:
            out += [" ".join(said)] if said else []
            said = []
        elif w not in _ARTICLES:
            said.append(w)
    return out


def visit(asked: Asked, who: list[str]) -> list[Event]:
    """The latest visit in scope by any of the people: its events in time order, or []."""
    found: dict[int, Event] = {}
    spans = asked.scope.windows or ((-(2 ** 62), asked.scope.at_ms + 1),)
    for person in who:
        named = person.split()
        for lo, hi in spans:
            flt = EventFilter(since_ms=lo, until_ms=min(hi, asked.scope.at_ms + 1), modalities=("visual", "speech"),
                              limit=SEARCH_LIMIT)
            for ev, _, _ in asked.store.search(person, flt):
                text = ev.content.lower()
                if _names(terms.words(text), named) and not actions.REMOTE_WORDS.search(_CUE["arrive"].sub(" ", text)):
                    found[ev.id] = ev  # (a doorbell rings, a phone rings)
    ordered = sorted(found.values(), key=lambda e: (e.start_ms, e.id))
    seen = [s for s in visits.stretches(ordered, GUEST_GAP_MS) if any(e.modality == "visual" for e in s)]
    return seen[-1] if seen else []


def _names(said: list[str], person: list[str]) -> bool:
    """Whether the words say the person's name, word for word (terms.words reads 'Irene's' as 'irene')."""
    return any(said[i:i + len(person)] == person for i in range(len(said) - len(person) + 1))


def guest(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'When did X come / leave?', 'how long did X stay?' (relation arrive, leave or stay)."""
    who = people(plan.action)
    if not who:
        return None
    events = visit(asked, who)
    stamp, name = asked.stamp, plan.action.strip()
    if not events:
        return nothing(Matcher(asked.store, asked.scope, asked.embedder), "guest", name, stamp)
    came = next((e for e in events if _CUE["arrive"].search(e.content.lower())), events[0])
    events = events[events.index(came):]  # 'starting dinner for Irene' before the doorbell is no visit yet
    went = next((e for e in reversed(events) if _CUE["leave"].search(e.content.lower())), events[-1])
    told = " ".join(w if w in _ARTICLES | _JOINS else w.capitalize() for w in name.split())
    told = told[:1].upper() + told[1:]
    if plan.relation == "leave":
        when = stamp(went.start_ms, went.source_id)
        return Finding("guest", f"{told} left {when}: {went.content}.", (went, came),
                       f"{name}: last seen in person {when} ({went.content}); came {stamp(came.start_ms, came.source_id)}")
    if plan.relation == "stay":
        lasted = say_duration(went.start_ms - came.start_ms)
        span = f"from {stamp(came.start_ms, came.source_id)} to {stamp(went.start_ms, went.source_id)}"
        return Finding("guest", f"{told} stayed {lasted}, {span}: {came.content}; {went.content}.", (came, went),
                       f"{name}: here {span}, {lasted} ({came.content} ... {went.content})")
    when = stamp(came.start_ms, came.source_id)
    return Finding("guest", f"{told} came {when}: {came.content}.", (came,),
                   f"{name}: first seen in person {when} ({came.content})")
