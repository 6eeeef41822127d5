"""Temporal operators for open questions, computed in code from matched events: last and first time, how long
(and how much time in all, and how long a stay), how many times, where something is; each public function
computes one form of the registry (forms.py) from a plan. What came after/before and whether one thing came
before another are sequence.py's, with this module's Matcher.

The model (if any) only phrases the finding; the template phrasing here is the answer with --no-llm.
An answer's time is always the time of the first event it cites."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from egocli.core.lexicon import lexicon
from egocli.models.base import Embedder
from egocli.reasoning import actions, exchange, homemoves, kinds, placekinds, staying, terms, visits, voice
from egocli.reasoning.voice import say_duration
from egocli.reasoning.evidence import Pool, Query
from egocli.reasoning.plan import Asked, Finding, QuestionPlan, tidy  # noqa: F401 (Finding, tidy: callers import them from here)
from egocli.reasoning.scope import Scope
from egocli.store import Event, Store
from egocli.store import windows as store_windows

OCCURRENCE_GAP_MS = 120_000
"""Matching events closer than this are one occurrence (one bout of watering, not twelve narrations)."""
STAY_GAP_MS = 30 * 60_000
"""Mentions of a place or a thing this close are one stay ('at the dentist' from reception to paying)."""
SEARCH_K = 200
"""Candidates read per scope unit when counting."""
SENSED_ACTS = frozenset(actions.SENSED.values())
"""The acts an event's modality is (seeing, speaking): an event with no other act names no act of its own."""

class Matcher:
    """Events in scope that are about a phrase: its rare words (stemmed, synonyms folded), its verb and the
    thing it acts on (actions.py), or its meaning."""

    def __init__(self, store: Store, scope: Scope, embedder: Embedder | None) -> None:
        self.pool = Pool(store, scope, embedder)
        self.scope = scope
        self.tier = 0
        """The tier of the last phrase's matches (see `_about`): 1 is a likeness of meaning only."""
        self.bare: set[int] = set()
        """Events of the last phrase matched that name its things and no act ('Lisinopril tablet with water')."""
        self._lacking = False
        self._mine = False
        self.absent_too = False
        """Whether a line saying the thing was not there ('no magnifier') is about it: for a hunt, it is a place
        looked in; for where the thing is, or whether it was done, it is not."""
        self.related: set[int] = set()
        """Events of the last phrase matched that name all its words, in whatever tier ('car parked level 2'
        goes on with 'parked at the furniture store': not what came after it)."""

    def matches(self, phrase: str, verb_first: bool = True, any_verb: bool = False) -> list[Event]:
        """Events about the phrase, before the moment of asking, in time order (only the strongest tier
        found: 'get the carafe' does not fall back on 'set down carafe' when getting it is logged; with
        `any_verb`, a verb of the class counts as much as the very verb: 'what did I cut' is sliced too)."""
        phrase = actions.whole(phrase)  # 'one of my tablets' is about the tablets
        q = self.pool.query(phrase, self.pool.rarity(phrase))
        self.tier = 0
        if not q.terms:
            return []
        act = actions.parse(phrase, verb_first)
        # lines saying the thing was not there are dropped, once decided: not for a hunt, nor when the phrase says it
        self._lacking = bool(act.head) and not self.absent_too and not actions.absent(phrase, str(act.head))
        self._mine = bool(act.head) and actions.owned(phrase, str(act.head))
        found = [e for e in self.pool.search(q, SEARCH_K) if e.start_ms <= self.scope.at_ms]
        compound = actions.compounds((e.content for e in found), act.head) - set(q.terms) if act.head else set()
        things = self._things(q, act)
        self.bare = {e.id for e in found if act.verb is not None and e.modality != "speech"
                     and _names_only(e.content, things)}  # 'Jean: do you want your tickets?' is Jean speaking
        tiered = [(self._about(q, e, act, compound, things), e) for e in found]
        self.related = {e.id for tier, e in tiered if tier >= 2}
        best = self.tier = max((tier for tier, _ in tiered), default=0)
        floor = best - 1 if any_verb and best in (4, 6) else best
        return sorted((e for tier, e in tiered if tier and tier >= floor), key=lambda e: (e.start_ms, e.id))

    def closest(self, phrase: str, floor: float = 0.3) -> Event | None:
        """The event in scope most like the phrase by words and meaning (at least `floor` relevant), even when
        none is about it: what an honest 'no' names beside itself."""
        q = self.pool.query(phrase, self.pool.rarity(phrase))
        if not q.terms:
            return None
        found = [e for e in self.pool.search(q, 20) if e.start_ms <= self.scope.at_ms]
        scored = [(self.pool.relevance(q, e), -e.start_ms, e) for e in found]
        best = max(scored, key=lambda s: s[:2], default=None)
        return best[2] if best is not None and best[0] >= floor else None

    def between(self, a: Event, b: Event) -> int:
        """How many events of a's source start strictly between two events (at most 2 counted)."""
        inside = store_windows.overlapping(self.pool.store, a.start_ms + 1, b.start_ms, a.source_id, 8)
        return sum(1 for e in inside if a.start_ms < e.start_ms < b.start_ms and e.id not in (a.id, b.id))

    @staticmethod
    def _things(q: Query, act: actions.Action) -> list[str]:
        """The things acted on, less words the verb already says ('ride my bike' is cycling)."""
        return [t for t in q.terms if t != act.word and t not in terms.LIGHT
                and (t not in actions.PARTICLES or t == act.particle)
                and (act.verb is None or actions.CLASS.get(t) != act.verb)]

    def _about(self, q: Query, ev: Event, act: actions.Action, compound: set[str], things: list[str]) -> int:
        """0: not about the phrase; 1: close in meaning; 2: names every content word; 3-6: names the thing
        acted on and a verb of the phrase's class ('cut the chicken' for 'slice the chicken'), two more when
        it names the thing itself, not only as part of another ('remove onion', not 'remove onion skin'),
        one more when it names the very verb ('scrub the pan' before 'cleaning the pan')."""
        own = set(self.pool.terms_of(ev))
        heavy = [t for t in q.terms if t not in terms.LIGHT] or list(q.terms)
        plain = terms.recall(heavy, own)
        if plain and _QUOTED.search(ev.content) and not terms.recall(heavy, set(terms.terms(_QUOTED.sub(" ", ev.content)))):
            return 1  # named only inside a quotation ('a message: "lunch at ours on Sunday"'): a mention, not the act
        if plain and ev.modality in ("speech", "text") and _PLAN_DAY.search(ev.content) and not _PLAN_DAY.search(q.text) \
                and not visits.signed(ev):  # a sign's days are its opening hours ('every Saturday 11-4'), no plan
            # said of a coming day ('about Sunday lunch', 'tomorrow morning'): a plan, not the act; the saying of it
            return 1 if {act.verb, act.head} & _SAYING else 0
        tier = self._tier(q, ev, act, compound, things, own, plain)
        if tier and (act.verb or act.head) and not actions.NOT.search(q.text) and (
                actions.not_done(ev, heavy, act.verb is not None)
                or (self._lacking and actions.absent(ev.content, str(act.head)))):
            return 0  # 'the evening compartment still closed', 'I'll take it later', 'no charger on the desk'
        if tier and act.head and self._mine and actions.theirs(ev.content, str(act.head)):
            return 0  # 'my mum' is not 'the girl and her mum'
        return tier

    def _tier(self, q: Query, ev: Event, act: actions.Action, compound: set[str], things: list[str],
              own: set[str], plain: float) -> int:
        literal = act.word is not None and act.word in own and (act.particle is None or act.particle in own) \
            and ev.modality != "speech"  # 'keep taking the tablet', said, is not taking it
        named = bool(things) and terms.recall(things, own) >= 0.99
        verbs = actions.verbs_of(ev.content, ev.modality) if act.verb is not None else set()
        if act.verb == "take" and actions.dosed(verbs, things):  # 'take my tablets': 'a yellow tablet swallowed'
            literal = True  # is the very act, as 'took' is
        bare = named and ev.id in self.bare
        if (things or act.verb) and (not things or named) and \
                (act.verb is None or literal or act.verb in verbs or bare):
            # an event that opens with the thing and says no act ('amoxicillin capsule with dinner') may be
            # the act asked about as much as one saying the verb: it ranks as if it said it
            head = act.head is None or actions.names_head(ev.content, act.head, compound)
            return 3 + 2 * head + (literal or bare)
        cosine = 0.0
        if q.vec is not None:
            vec = self.pool.vec_of(ev)
            cosine = float(vec @ q.vec) if vec is not None else 0.0
        # every content word of the phrase (light verbs aside), most of them with a close meaning, or a very
        # close meaning alone: 'turn on the kettle' is not 'take the kettle'
        return 2 if plain >= 0.99 else 1 if (plain >= 0.5 and cosine >= 0.6) or cosine >= 0.72 else 0


_QUOTED = re.compile(r"(?<!\w)'[^']+'(?!\w)|\"[^\"]+\"|\u2018[^\u2019]+\u2019|\u201c[^\u201d]+\u201d")
"""A quotation inside an event's text: a message read, a sign, words someone said."""
_SAYING = frozenset(terms.stem(w) for w in lexicon().words["saying"]) | \
    frozenset(w for w, c in actions.CLASS.items() if c == "speak")
"""Verbs of saying (stemmed), whose act a line planning something is."""
_PLAN_DAY = re.compile(r"\b(?:tomorrow|tonight|next (?:week|month)|(?:on |this |next )?(?:mon|tues|wednes|thurs|fri|satur|"
                       r"sun)day|(?:at|to|for|until|by|from) \d{1,2}[:.]\d{2})\b", re.I)
"""A day or a clock time named in something said or read ('moved to 14:00'): what it says is planned for then."""

def _names_only(text: str, things: list[str]) -> bool:
    """Whether a text opens with one of the things and has no word of an act ('Lisinopril tablet with water';
    not 'toast bread', whose first word is no thing, nor 'taking a tablet')."""
    words = terms.words(text)
    if not words or not set(terms.terms(words[0])) & set(things):
        return False
    return not any(w.endswith(("ing", "ed")) or w in terms.IRREGULAR for w in words) and \
        not actions.verbs_of(text) - SENSED_ACTS


def occurrences(events: list[Event], gap_ms: int = OCCURRENCE_GAP_MS,
                between: Callable[[Event, Event], int] | None = None,
                single: Callable[[Event], bool] | None = None) -> list[list[Event]]:
    """Events in time order grouped into occurrences: one goes on while the next match follows within
    gap_ms with at most one other event between (a glance at the phone during a walk). An event that
    narrates one discrete action ('slice chicken', by `single`) is an occurrence of its own, however close
    the next: five narrated slices are five times."""
    out: list[list[Event]] = []
    for ev in events:
        last = out[-1][-1] if out else None
        alone = single is not None and (single(ev) or (last is not None and single(last))) and \
            (last is None or last.modality == ev.modality)  # a note of the act seen a minute before is that act
        if last is not None and not alone and ev.start_ms - max(e.end_ms for e in out[-1]) <= gap_ms and \
                (between is None or between(last, ev) <= 1):
            out[-1].append(ev)
        else:
            out.append([ev])
    return out


def found_for(asked: Asked, phrase: str, verb_first: bool = True) -> tuple[Matcher, list[Event]]:
    """The events about a phrase (a kind of event when it names one: 'my first note'; the arrivals or the
    departures when it asks about one: 'get home', 'leave the pub')."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    found = kinds.of_modality(asked.store, asked.scope, phrase)
    if found is None:
        found = homemoves.moves(asked, phrase, lambda place: matcher.matches(place, verb_first=False)) or None  # no arrival seen: the words of the phrase, as said
    if found is not None:
        matcher.tier = 0  # a kind of event or a move found them, not the phrase's words: no tier of theirs
        return matcher, found
    return matcher, matcher.matches(phrase, verb_first)


def nothing(matcher: Matcher, form: str, phrase: str, stamp: Callable[[int, int | None], str]) -> Finding:
    """Nothing is about the phrase: said so, with the closest event beside it when one is close enough
    ('Not that I can see; the closest is ...'), so that a 'no' is never said over something similar."""
    close = matcher.closest(phrase)
    if close is None:
        return Finding(form, f"Nothing in the log about \"{phrase}\".", (), f"no event about {phrase}")
    when = stamp(close.start_ms, close.source_id)
    return Finding(form, f"Not that I can see: nothing about \"{phrase}\"; the closest is {when}: {close.content}.",
                   (close,), f"no event about {phrase}; the closest, not the same: {when}: {close.content}", False)


def times_of(matcher: Matcher, found: list[Event], phrase: str, verb_first: bool = True) -> list[list[Event]]:
    """The occurrences of an act (a narrated discrete act, 'slice chicken', is one of its own; an arrival or a
    departure too)."""
    if (kind := kinds.asked(phrase)) is not None and kind.kind == "call":
        return visits.stretches(found, kinds.CALL_GAP_MS)  # the phone ringing, then 'incoming call - Jan': one call
    if visits.move(phrase) is not None or kind is not None:
        return [[e] for e in found]
    verb = actions.parse(phrase, verb_first).verb
    return occurrences(found, between=matcher.between, single=lambda e: actions.opens_with_verb(e.content, verb))


def count(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How many times did I X?': its occurrences ('how many appointments': the visits to places of that kind)."""
    matcher, found = found_for(asked, plan.action)
    def find(place: str) -> list[Event]:
        return matcher.matches(place, verb_first=False)
    if places := placekinds.of_kind(plan.action):
        groups = placekinds.kind_visits(places, find)
    elif (place := placekinds.going(plan.action)) and (went := visits.visits(asked, place, find)):
        groups = [[v.begin] for v in went]  # 'go down to dobson's': each visit
    elif (moved := homemoves.moves(asked, plan.action, find)) is not None:
        groups = [[e] for e in moved]  # 'go out', 'leave the house': each setting out seen
    elif (mine := exchange.own_questions(asked, plan.action)) is not None:
        groups = [[e] for e in mine]  # 'ask what time Liam was coming': each time the wearer asked it
    else:
        groups = visits.closed(times_of(matcher, actions.own_doing(found), plan.action)) if found else []
    if not groups:
        return nothing(matcher, "count", plan.action, asked.stamp)
    return tally(groups, plan.action, asked.stamp)


def duration(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long did I X?': the last time, and all of them beside it."""
    return _duration(asked, plan.action, verb_first=True, spent=False)


def spent(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How much time did I spend X?': all its times together, the last beside it."""
    return _duration(asked, plan.action, verb_first=True, spent=True)


MOMENT_MS = 10 * 60_000
"""Mentions of a stay with no departure seen, all within this long, are a moment of it ('Driver: St Cuthbert's,
there you go' and its sign read four minutes later say nothing of how long one stayed)."""


def stay(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long was the plumber here?': a thing named, not an act ('how long did cooking take' is one)."""
    return _duration(asked, plan.action, verb_first=terms.gerund(plan.action.split()[0]), spent=False)


def _duration(asked: Asked, phrase: str, verb_first: bool, spent: bool) -> Finding:
    matcher, found = found_for(asked, phrase, verb_first)
    act = actions.parse(phrase, verb_first)
    if not found and act.verb is None:
        return _recorded(asked.store, asked.scope, phrase, asked.stamp)
    if not found:
        return nothing(matcher, "duration", phrase, asked.stamp)
    if (kind := kinds.asked(phrase)) is not None and kind.kind == "call":  # a call lasts while it is talked on
        return _took([kinds.conversation(asked.store, ev) for ev in found], phrase, asked.stamp, spent)
    if act.verb is None:  # a stay ('at the dentist'): its visit, else its mentions over a while
        stays = visits.stays(asked, phrase, lambda place: matcher.matches(place, verb_first=False))
        if (visit := visits.last_closed(stays)) is not None and visit.end is not None:  # arriving to leaving
            return _took([[visit.begin, replace(visit.end, end_ms=visit.end.start_ms)]], phrase, asked.stamp)
        groups = occurrences(found, STAY_GAP_MS)
        if groups[-1][-1].start_ms - groups[-1][0].start_ms < MOMENT_MS:  # a moment of a stay (or two, minutes
            return staying.one_moment(asked, groups[-1][-1], phrase, stays, found)  # apart) says when, not how long
        groups = [list(whole) if (whole := staying.recorded(asked, g)) is not None else g for g in groups]
    else:
        groups = times_of(matcher, found, phrase, verb_first)
    return _took(groups, phrase, asked.stamp, spent)


def where(asked: Asked, plan: QuestionPlan) -> Finding:
    """'Where did I put X?': the last placement, else the last sighting."""
    phrase = plan.action
    verb_first = terms.gerund(phrase.split()[0]) if phrase else False
    matcher, found = found_for(asked, phrase, verb_first)
    if found:
        last = times_of(matcher, found, phrase, verb_first)[-1][-1]
        return _where([*found, *_put_next(asked, phrase, last)], last, phrase, asked.stamp)
    none = nothing(matcher, "where", phrase, asked.stamp)
    for loose in voice.looser(phrase):  # 'irene's flowers' is seen as 'flowers'
        looser, found = found_for(asked, loose, verb_first)
        if found:
            seen = _where(found, times_of(looser, found, loose, verb_first)[-1][-1], loose, asked.stamp)
            close = [e for e in none.events if e.id not in {s.id for s in seen.events}]
            also = f" The closest to all of it, {asked.stamp(close[0].start_ms, close[0].source_id)}: " \
                f"{close[0].content.rstrip('. ')}." if close else ""
            return replace(seen, text=f"I can't see \"{phrase}\" as such. The nearest, {voice.thing(loose)}: "
                           f"{seen.text}{also}", events=(*seen.events, *close[:1]),
                           facts=f"nothing names {phrase}; for {loose}: {seen.facts}", found=False)
    return none


def tally(groups: list[list[Event]], phrase: str, stamp) -> Finding:
    """A count's answer: how many groups, the latest five cited."""
    shown = [g[0] for g in groups[-5:]]  # the latest five, cited in the order the answer gives them
    times = ", ".join(stamp(e.start_ms, e.source_id) for e in shown)
    text = f"{len(groups)} time{'s' if len(groups) != 1 else ''} ({'the last five: ' if len(groups) > 5 else ''}{times})."
    return Finding("count", text, tuple(shown), f"{phrase}: {len(groups)} occurrences, at {times}")


def _took(groups: list[list[Event]], phrase: str, stamp, spent: bool = False) -> Finding:
    lasting = [g for g in groups if max(e.end_ms for e in g) - g[0].start_ms >= MOMENT_GAP_MS]
    if not lasting:  # only moments of it: a clip's few seconds are not how long it took
        ev = groups[-1][-1]
        return staying.no_length(stamp(ev.start_ms, ev.source_id), ev, phrase,
                                 "moments of it, the last" if len(groups) > 1 else "one moment of it, the last")
    last = groups[-1] if spent else lasting[-1]
    took = max(e.end_ms for e in last) - last[0].start_ms
    total = sum(max(e.end_ms for e in g) - g[0].start_ms for g in groups)
    more = len(groups) > 1 and say_duration(total) != say_duration(took)
    if spent and more:
        return Finding("duration", f"{say_duration(total)} in all, over {len(groups)} times (the last: "
                       f"{say_duration(took)}, from {stamp(last[0].start_ms, last[0].source_id)}).", (last[0],),
                       f"{phrase}: {len(groups)} times, {say_duration(total)} in all; the last took {say_duration(took)}")
    text = (f"{say_duration(took)}, from {stamp(last[0].start_ms, last[0].source_id)} to "
            f"{stamp(max(e.end_ms for e in last), last[0].source_id)}"
            + (f" (the last of {len(groups)} times; {say_duration(total)} in all)." if more else "."))
    return Finding("duration", text, (last[0],), f"{phrase}: the last time took {say_duration(took)}"
                   + (f"; {len(groups)} times, {say_duration(total)} in all" if len(groups) > 1 else ""))


MOMENT_GAP_MS = 10_000
"""Lines of a thing done closer than this are one moment of it (a frame and its caption), which says no length."""

FOLLOW_MS = 60 * 60_000
"""How long after a thing's last mention a thing of the same kind put somewhere is taken to be it."""


def _put_next(asked: Asked, phrase: str, last: Event) -> list[Event]:
    """A thing named in full, then put away by its head noun alone: 'float bag found under the van seat', then
    'laying the blue cash bag in the dresser drawer' within FOLLOW_MS. The first frame after the last mention that
    places a thing of the same head there, or none."""
    head = actions.parse(phrase, verb_first=False).head
    if not head:
        return []
    later = store_windows.overlapping(asked.store, last.start_ms + 1, min(last.start_ms + FOLLOW_MS, asked.scope.at_ms),
                                      None, 500)
    put = [e for e in later if e.start_ms > last.start_ms and e.modality == "visual" and actions.places(e.content, head)]
    return put[:1]


def _where(found: list[Event], last: Event, phrase: str, stamp) -> Finding:
    """The last event that leaves the thing somewhere named ('put glass into cupboard'), else the last
    sighting; a later sighting is said beside the placement."""
    head = actions.parse(phrase, verb_first=False).head
    placed = [e for e in found if head and actions.places(e.content, head)]
    when = stamp(last.start_ms, last.source_id)
    if not placed and last.modality in ("speech", "text"):  # said or read about: no sight of where it is
        said = f"last mentioned {when}: {last.content.rstrip('. ')}"
        return Finding("where", f"I didn't see where your {voice.thing(phrase)} went; {said}.", (last,), said, False)
    if not placed:
        return Finding("where", voice.sentence(f"Your {voice.thing(phrase)} {voice.was(voice.thing(phrase))} last seen {when}: {last.content}"), (last,),
                       f"{phrase}: last seen at {when}: {last.content}")
    put = placed[-1]
    put_when = stamp(put.start_ms, put.source_id)
    later = f"; last seen {when}: {last.content}" if last.id != put.id and last.start_ms >= put.start_ms else ""
    text = voice.sentence(f"You left your {voice.thing(phrase)} {put_when}: {put.content.rstrip('. ')}{later}")
    return Finding("where", text, (put, last) if later else (put,),
                   f"{phrase}: last put somewhere at {put_when}: {put.content}{later}")


def _recorded(store: Store, scope: Scope, phrase: str, stamp) -> Finding:
    """For a stay the log never names ('in the kitchen'), the time recorded in the question's days, said as
    such; without a bounded scope, nothing."""
    spans = [(lo, min(hi, scope.at_ms)) for lo, hi in scope.windows if hi - lo <= 2 * 86_400_000]
    by_source: dict[int | None, list[Event]] = {}
    for lo, hi in spans:
        for ev in store_windows.overlapping(store, lo, hi, None, 20_000):
            by_source.setdefault(ev.source_id, []).append(ev)
    if not by_source:
        return Finding("duration", f"Nothing in the log about \"{phrase}\".", (), f"no event about {phrase}")
    parts = sorted((min(e.start_ms for e in evs), max(e.end_ms for e in evs), min(evs, key=lambda e: e.start_ms))
                   for evs in by_source.values())
    total = sum(end - start for start, end, _ in parts)
    first = parts[0][2]
    text = (f"Nothing in the log names \"{phrase}\"; you recorded {say_duration(total)} then, from "
            f"{stamp(parts[0][0], first.source_id)} to {stamp(parts[-1][1], parts[-1][2].source_id)}.")
    return Finding("duration", text, (first,), f"no event names {phrase}; recordings of that time: "
                   f"{say_duration(total)} in all")
