"""What came right after or before something, and whether one thing came before another, computed in code
from matched events (the registry's `next` and `order` forms; temporal.py's Matcher finds the events)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from egocli.reasoning import actions, digest, guests, homemoves, kinds, meals, outings, persons, staying, terms, visits
from egocli.reasoning.moments import occasions
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.temporal import OCCURRENCE_GAP_MS, Finding, Matcher, occurrences
from egocli.store import Event, Store
from egocli.store import windows as store_windows
from egocli.core.lexicon import lexicon, words
from egocli.core.timeutil import local


def order(asked: Asked, plan: QuestionPlan) -> Finding:
    """'Did I X before (after) Y?'."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    return _order(partial(occasions, asked, matcher), (plan.action, plan.relation or "before", plan.other), asked.stamp)


def after(asked: Asked, plan: QuestionPlan) -> Finding:
    """'What did I do right after (before) X?': the place gone to next (or been at before) when X is a stay at a
    place, else the event right after (before) X."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    relation = plan.relation or "after"
    if (someone := _someones(asked, plan.action)) is not None:  # 'before Hannah phoned': her call, not a stay
        return _by_moment(asked, matcher, relation, plan.action, someone) or \
            _next(asked.store, matcher, (relation, plan.action), asked.stamp)
    return _next_place(asked, matcher, relation, plan.action, "where" in terms.words(asked.question)) or \
        _by_moment(asked, matcher, relation, plan.action) or \
        _next(asked.store, matcher, (relation, plan.action), asked.stamp)


_PHONING = tuple(opening for opening, kind in kinds.SENDING.items() if kind == "call")
"""How the words of someone phoning open ('Leanne rang', 'Dad phoned')."""


def _someones(asked: Asked, phrase: str) -> Event | None:
    """The moment someone else's coming, going or call began ('kwame came': the door their visit opens with; 'tony
    went home': its leaving; 'leanne rang': their latest call's first line), else None."""
    if (came := guests.arrival(asked, phrase, anywhere=True)) is not None:
        return came[0]
    if (went := guests.departure(asked, phrase)) is not None:
        return went
    said = words(phrase)
    at = next((i for i, w in enumerate(said[:persons.WHO_WORDS + 2]) if w.startswith(_PHONING)
               and (i == 0 or said[i - 1] not in persons.ARTICLES)), None)  # 'rang', not 'the phone'
    if at is None:
        return None
    who = [w for w in said[:at] if w not in _AUXILIARY]
    if not who or who in (["i"], ["we"]):  # 'after I rang the tyre place': the wearer's own call to it
        return _own_call(asked, said[at + 1:])
    calls = kinds.events(asked.store, asked.scope, f"call from {' '.join(who)}")  # 'dean rang about the van'
    return calls[-1] if calls else None


_AUXILIARY = lexicon().words["auxiliary"]
_GENERIC = lexicon().words["generic_places"]


def _own_call(asked: Asked, callee: list[str]) -> Event | None:
    """The latest call the wearer made in scope to whom the words name ('the tyre place': 'phone, calling Tyre
    Depot'), by the callee's words less the generic ones ('place', 'people'); None when none is seen."""
    want = set(terms.terms(" ".join(w for w in callee if w not in _GENERIC)))
    if not want:
        return None
    made = [e for e in kinds.events(asked.store, asked.scope, "outgoing call") or []
            if want & set(terms.terms(e.content))]
    return made[-1] if made else None


MEAL_WORDS = 3
"""At most this many words name a meal and nothing more ('breakfast', 'my lunch', 'having my tea')."""


def _moment(asked: Asked, matcher: Matcher, phrase: str, before: bool) -> Event | None:
    """The moment a phrase names that its words alone do not find, once `after` has found it names no one's coming,
    going or call (`_someones`): asked what came before it, leaving or getting home (the latest such move seen) or a
    meal (the first line of its latest sitting); asked what came after it, a meal (its last line) or getting home;
    else None. (Where one went after a move home is the place gone to next, `_next_place`: taken from the move here,
    a fresh 'after' question went from a hedge to a wrong answer.)"""
    if not before:  # after a meal: from its sitting's last line ('after dinner': the crumble, not the word of it)
        name = meals.meal_of(phrase)
        sat = meals.sitting(asked, name) if name is not None and len(words(phrase)) <= MEAL_WORDS else []
        if name is not None:
            return sat[-1] if any(meals.shows_food(e) for e in sat) else None  # else the words ('lunch is done')
    move = visits.move(phrase)
    if move is not None and not move.place and (before or move.kind == "arrive"):
        moved = homemoves.moves(asked, phrase, lambda place: matcher.matches(place, verb_first=False))
        return moved[-1] if moved else None
    if not before:
        return None
    if (name := meals.meal_of(phrase)) is not None and len(words(phrase)) <= MEAL_WORDS:
        sat = meals.sitting(asked, name)
        return sat[0] if sat else None
    return None


def _doing(ev: Event) -> bool:
    """Whether a line shows the wearer doing something: a note or their own words, a frame of food (eating: 'a
    bowl of muesli and a mug of coffee'), or a frame with a part that opens on what is being done ('kitchen, chopping
    onions') or on the wearer's body doing it ('eyes closing'), not a scene ('a car up on a lift', 'a draught
    stirring the blind') nor someone else seen ('the tall man holding up a brass key')."""
    if ev.modality != "visual":
        return True
    parts = [words(part) for part in ev.content.split(",")]
    if any(said and not terms.gerund(said[0]) and set(said[:outings.OTHERS_WORDS]) & outings.OTHERS and
           any(terms.gerund(w) for w in said[1:]) for said in parts):  # 'the tall man ... holding up a key'; not
        # 'a woman at the wheel, a seat belt pulled across': there, the wearer's lift
        return any(said and terms.gerund(said[0]) for said in parts)  # someone else in view: theirs, unless said
    return meals.shows_food(ev) or any(said and (
        terms.gerund(said[0]) or _done_to(said) or (len(said) > 1 and said[0] in _BODY and terms.gerund(said[1])))
        for said in parts)


_BODY = lexicon().words["body"]
"""The wearer's body as a frame names it ('eyes closing', 'hands shaking'): what it does, the wearer does."""
_READY = outings.cue(lexicon().outings["getting_ready"])
"""What a frame shows of getting ready to go out ('putting on a green parka', 'the house keys in the coat pocket')."""
READY_MS = 15 * 60_000
"""Getting ready this soon before leaving is part of leaving: what one was doing before it came earlier."""


def _readying(ev: Event, leaving: Event) -> bool:
    """Whether a frame shows getting ready to leave (`_READY`) within READY_MS before the leaving."""
    return ev.modality == "visual" and 0 <= leaving.start_ms - ev.start_ms <= READY_MS and \
        bool(_READY.search(" ".join(words(ev.content))))


_THEIRS = lexicon().words["others_possessives"]
"""Whose a thing is when it is not the wearer's ('its paint chipped', 'his hand raised')."""
_DETERMINERS = lexicon().words["determiners"]


def _done_to(said: list[str]) -> bool:
    """Whether a part of a frame opens on a thing and what was done to it ('the battery pushed into the hearing
    aid', 'the tablets swallowed', 'hearing aids taken from a glass dish'): a verb's past form right after a short
    noun, not after a determiner ('a polished cabinet', a thing as it looks)."""
    if said[0] in _THEIRS:
        return False  # 'its paint chipped at one corner': how a thing (or someone else) is, not what the wearer did
    head = said[1:4] if said[0] in _DETERMINERS else said[:3]
    return any((w.endswith("ed") and len(w) > 4 or w in terms.IRREGULAR) and i > 0 and head[i - 1] not in
               _DETERMINERS for i, w in enumerate(head))


def _acts_first(lines: list[Event]) -> list[Event]:
    """The lines that show the wearer doing something: an act seen or noted, else their own words, else all."""
    return [e for e in lines if e.modality != "speech" and _doing(e)] or [e for e in lines if _doing(e)] or lines


def _by_moment(asked: Asked, matcher: Matcher, relation: str, phrase: str,
               anchor: Event | None = None) -> Finding | None:
    """'What was I doing just before Kwame came / Leanne rang / I left the house / breakfast?': from the moment
    (`_moment`), not from words said of it later; what the wearer was doing is the nearest act seen, noted or read
    (a headline read is reading) before (after) it, else their own words, not someone else's words, a sound heard
    nor scenery."""
    before = relation == "before"
    anchor = anchor or _moment(asked, matcher, phrase, before)
    if anchor is None:
        return None
    lo, hi = (anchor.start_ms - 3_600_000, anchor.start_ms) if before else (anchor.end_ms, anchor.end_ms + 3_600_000)
    near = [e for e in store_windows.overlapping(asked.store, lo, min(hi, asked.scope.at_ms + 1), None, 400)
            if (e.start_ms < anchor.start_ms if before else e.start_ms > anchor.start_ms) and e.id != anchor.id
            and (e.modality in ("visual", "note", "text") or (e.modality == "speech" and not _heard(e)
                                                     and not terms.speaker(e.content)))]
    kept = _unscenic(near, asked.store, anchor.start_ms)
    if before and visits.leaves(anchor):  # 'before I left for work': not putting the coat on
        kept = [e for e in kept if not _readying(e, anchor)] or kept
    kept = _acts_first(kept)
    told = _told(phrase, relation, anchor, (kept[-1] if before else kept[0]) if kept else None, asked.stamp)
    went = [] if before or not kept else [(e, name) for e, name in digest.places(
        store_windows.overlapping(asked.store, kept[0].start_ms, min(kept[0].start_ms + PLACE_AFTER_MS,
                                                                       asked.scope.at_ms + 1), None, 400))
                                        if e.start_ms > kept[0].start_ms]
    if not went:
        return told
    ev, name = went[0]  # 'after dinner': the car at the kerb, then the garden centre
    when = asked.stamp(ev.start_ms, ev.source_id)
    return replace(told, text=f"{told.text.rstrip('.')}; then {name} ({when}: {ev.content.rstrip(' .')}).",
                   events=(*told.events, ev), facts=f"{told.facts}; then {name} at {when}")


PLACE_AFTER_MS = 60 * 60_000
"""A place reached this soon after what was done next is said with it ('then the garden centre')."""


def _told(phrase: str, relation: str, anchor: Event, other: Event | None, stamp) -> Finding:
    """What came `relation` the anchor, said with it ('Today at 13:06: float bag found ... (before the phone
    buzzing ... at 13:21)'), or that nothing is logged then."""
    at = stamp(anchor.start_ms, anchor.source_id)
    if other is None:
        return Finding("next", f"Nothing in the log {relation} {at}.", (anchor,), f"{phrase} at {at}; nothing "
                       f"logged {relation}")
    when = stamp(other.start_ms, other.source_id)
    return Finding("next", f"{when}: {other.content} ({relation} {anchor.content} at {at}).", (other, anchor),
                   f"{phrase} at {at}; {relation} it, at {when}: {other.content}")


_MEETING = lexicon().verbs["meeting"]
"""Verbs of seeing someone ('after seeing the GP'): what follows them is whom, and where they were seen."""
NEXT_PLACE_MS = 3 * 3_600_000
"""A place reached this long after leaving one (or left this long before reaching it) is the next (or the one
before)."""
PLACES_SHOWN = 2
"""Places an answer names after a stay ('the tyre place, then the chemist')."""


def _next_place(asked: Asked, matcher: Matcher, relation: str, phrase: str, where: bool = False) -> Finding | None:
    """'What did I do straight after physio?', 'where did I go after the pharmacy?', 'what was I doing before I went
    to the surgery?': when the phrase names a stay at a place, seen there or its sign read, that was seen to end
    (staying.seen_stay), the places reached within NEXT_PLACE_MS after it left (or the
    last one left before it began; asked 'where', a place seen between its last moment and the end seen counts); None
    when it names no such stay or no other place is seen: the event right after (before) answers."""
    opening, asked_as = words(phrase), phrase
    if opening and not opening[0].endswith("ing") and (opening[0] in terms.IRREGULAR or opening[0].endswith("ed")):
        asked_as = f"you {phrase}"  # 'Before you went to the surgery', not 'Before went to the surgery'
    if len(opening) > 1 and (opening[0] in _MEETING or opening[0].removesuffix("ing") in _MEETING):
        phrase = " ".join(opening[1:])  # 'seeing the GP', 'saw Dr Okafor': the stay with them
    found = matcher.matches(phrase, verb_first=False)
    seen = staying.seen_stay(asked, found, phrase) if found else None
    if visits.bare(words(phrase)) in visits.WORK:  # 'after work': the stay at work, not 'the work fleece'
        worked = visits.visits(asked, phrase, lambda place: matcher.matches(place, verb_first=False))
        seen = ([worked[-1].begin], worked[-1].end) if worked else seen
    elif (move := visits.move(phrase)) is not None and not move.place:  # 'before going home': getting home
        if move.kind == "leave" and relation == "before" and not where:
            return None  # 'what was I doing before we set off for chapel': done at home, not where one was before
        if move.kind == "arrive" and relation == "after" and not where:
            return None  # 'what did I do when I got home': done at home (_by_moment), not where one went next
        moved = homemoves.moves(asked, phrase, lambda place: matcher.matches(place, verb_first=False))
        seen = ([moved[-1]], moved[-1]) if moved else seen
        phrase = asked_as = ("getting home" if move.kind == "arrive" else "leaving home") if moved else phrase
    if (seen is None or seen[1] is None) and relation == "after" and found:
        seen = _enclosing(asked, occurrences(found)[-1])
    if seen is None or (seen[1] is None and relation == "after"):  # before a stay, its end is not needed
        return None
    stay, end = seen[0], seen[1] if seen[1] is not None else seen[0][-1]
    begin = stay[0]
    own = {name.lower() for _, name in digest.places(stay)}  # the stay's own place is no other
    if relation == "after":
        lo = min(end.start_ms, stay[-1].start_ms + 1) if where else end.start_ms  # 'where did I go after': a place
        hi = min(lo + NEXT_PLACE_MS, asked.scope.at_ms + 1)  # seen before the end seen was gone to after the stay
    else:
        lo, hi = begin.start_ms - NEXT_PLACE_MS, begin.start_ms
    around = [e for e in store_windows.overlapping(asked.store, lo, hi, None, 2000) if lo <= e.start_ms < hi]
    own_words = {w for name in own for w in words(name)}
    went = [(e, name) for e, name in digest.places(around)
            if name.lower() not in own and not set(visits.bare(words(name))) <= own_words]  # 'the clinic' is its own
    if not went:
        return _left_before(asked, asked_as, begin, around) if relation == "before" else None
    went = went[:PLACES_SHOWN] if relation == "after" else went[-1:]
    anchor = (end if went[0][0].start_ms >= end.start_ms else stay[-1]) if relation == "after" else begin
    said = "; then ".join(f"{name} ({asked.stamp(e.start_ms, e.source_id)}: {e.content.rstrip(' .')})"
                          for e, name in went)
    was = asked.stamp(anchor.start_ms, anchor.source_id)
    left = "you left" if anchor is end else "last seen there"
    head = f"After {asked_as} ({left} {was})" if relation == "after" else f"Before {asked_as} (you got there {was})"
    verb = "you went to" if relation == "after" else "you were at"
    return Finding("next", f"{head}, {verb} {said}.", (went[0][0], anchor, *(e for e, _ in went[1:])),
                   f"{phrase}: {'left' if relation == 'after' else 'reached'} at {was}; {relation} it, the places "
                   f"seen: {said}")


def _left_before(asked: Asked, phrase: str, begin: Event, around: list[Event]) -> Finding | None:
    """Before a stay when no other place is named before it: the last leaving seen ('driving out of the market
    square'), where one was; else None."""
    left = [e for e in around if e.modality == "visual" and visits.leaves(e)]
    if not left:
        return None
    ev, was = left[-1], asked.stamp(begin.start_ms, begin.source_id)
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("next", f"Before {phrase} (you got there {was}), you were last seen leaving somewhere, {when}: "
                   f"{ev.content.rstrip(' .')}.", (ev, begin), f"{phrase}: reached at {was}; before it, the last "
                   f"leaving seen: {when}: {ev.content}")


ENDS_STAY_MS = 20 * 60_000
"""Something that went on until this close to the end of the stay it happened in is what the stay was for ('straight
after the nurse': the surgery left ten minutes after she finished)."""


def _enclosing(asked: Asked, group: list[Event]) -> tuple[list[Event], Event | None] | None:
    """The stay a moment happened in, when it names no place ('the nurse', 'seeing the consultant'): begun at the sign
    read or the arrival seen before it (visits.place_at; not home), ended at the first departure seen after it, else
    when one was next on the move or at another place's sign; None when it ended more than ENDS_STAY_MS after the
    moment (what came next was done there: the next event answers) or no such stay is seen."""
    begin = visits.place_at(asked.store, group[0].start_ms)
    if begin is None or not (visits.signed(begin) or (visits.arrives(begin) and not visits.home_arrival(begin))):
        return None
    last = group[-1].start_ms
    later = store_windows.overlapping(asked.store, last, min(last + ENDS_STAY_MS, asked.scope.at_ms + 1), None, 400)
    end = next((e for e in later if e.modality == "visual" and visits.leaves(e) and e.start_ms > last), None) or \
        staying.moved_on(asked, begin, last)
    if end is None or end.start_ms - last > ENDS_STAY_MS:
        return None
    return [begin, *group], end


def _order(find: Callable[[str], list[Event]], phrases: tuple[str, ...], stamp) -> Finding:
    first, relation, second = phrases
    a, b = find(first), find(second)
    if not a or not b:
        missing = first if not a else second
        return Finding("order", f"Nothing in the log about \"{missing}\".", tuple((a or b)[:1]),
                       f"no event about {missing}")
    eb = b[-1]  # the latest time of the reference; the asked action that day, on the asked side of it
    day = [e for e in a if local(e.start_ms).date() == local(eb.start_ms).date()] or a
    side = [e for e in day if (e.start_ms < eb.start_ms if relation == "before" else e.start_ms > eb.start_ms)]
    ea = (side[0] if relation == "before" else side[-1]) if side else \
        min(day, key=lambda e: abs(e.start_ms - eb.start_ms))
    holds = bool(side)
    ta, tb = stamp(ea.start_ms, ea.source_id), stamp(eb.start_ms, eb.source_id)
    text = f"{'Yes' if holds else 'No'}: {ta}: {ea.content}; {tb}: {eb.content}."
    return Finding("order", text, (ea, eb), f"{first} first at {ta}; {second} first at {tb}; "
                   f"so {first} {relation} {second}: {'yes' if holds else 'no'}")


def _restates(own: list[str], said: set[str], ev: Event, end_ms: int) -> bool:
    """Whether an event just after X says X again ('car parked level 2, row D' after 'parking on level 2, row
    D'): most of its words are X's, within an occurrence's gap."""
    return ev.start_ms - end_ms <= OCCURRENCE_GAP_MS and len(own) >= 2 and terms.recall(own, said) >= 0.75


def _unscenic(events: list[Event], store: Store, at_ms: int) -> list[Event]:
    """The events less scenery: a frame description seen again within the day either side of `at_ms` ('a
    poster on the wall', 'a rug with a fringe, one corner flipped over': the same words twice are a scene, not an
    act), or a line naming no act seen three times within six hours of it (a network's name, a sign at home), is
    what the camera
    keeps seeing, not something done; all when all are."""
    if not any(e.modality in _SEEN for e in events):
        return events
    around = [e for e in store_windows.overlapping(store, at_ms - _SCENE_AROUND_MS, at_ms + _SCENE_AROUND_MS, None,
                                                   20000) if e.modality in _SEEN]  # one read for both counts
    day = Counter(e.content.strip().lower() for e in around if abs(e.start_ms - at_ms) <= _DAY_AROUND_MS)
    seen = Counter(e.content.strip().lower() for e in around if e.modality == "visual")
    kept = [e for e in events if e.modality not in _SEEN or not (
        (e.modality == "visual" and seen[e.content.strip().lower()] >= 2)
        or (day[e.content.strip().lower()] >= 3 and not actions.verbs_of(e.content)))]
    return kept or events


def _heard(ev: Event) -> bool:
    """Whether a line is a sound heard around ('(radio) traffic update', '(background) mind your backs'): nothing done."""
    return ev.modality == "speech" and ev.content.lstrip().startswith("(")


_SEEN = ("visual", "text")
"""Modalities of what the camera sees (scenery may repeat in them), unlike what is said or noted."""
_DAY_AROUND_MS = 6 * 3_600_000
_SCENE_AROUND_MS = 24 * 3_600_000
"""A frame described in the same words twice this near is a scene the camera keeps seeing."""


def _next(store: Store, matcher: Matcher, phrases: tuple[str, ...], stamp) -> Finding:
    relation, phrase = phrases
    found = matcher.matches(phrase)
    if not found:
        return Finding("next", f"Nothing in the log about \"{phrase}\".", (), f"no event about {phrase}")
    acted = [e for e in found if e.id not in matcher.bare] or found  # the act itself, not its mentions
    group = occurrences(acted, between=matcher.between)[-1]
    about = {e.id for e in found} | matcher.related
    if relation == "after":
        end = max(e.end_ms for e in group)
        about -= matcher.bare - {e.id for e in group}  # later mentions of X may be what came next
        said = set().union(*(matcher.pool.terms_of(e) for e in group))
        near = store_windows.overlapping(store, end, end + 3_600_000, group[0].source_id, 60)
        near = [e for e in near if e.start_ms >= group[-1].start_ms and e.id not in about and not _heard(e)
                and e.start_ms <= matcher.scope.at_ms and not _restates(matcher.pool.terms_of(e), said, e, end)]
        other = next(iter(_unscenic(near, store, end)), None)
    else:
        start = group[0].start_ms
        near = store_windows.overlapping(store, start - 3_600_000, start, group[0].source_id, 400)
        near = [e for e in near if e.start_ms < start and e.id not in about and not _heard(e)]
        kept = _unscenic(near, store, start)
        other = next(reversed(_acts_first(kept)), None)
    return _told(phrase, relation, group[-1] if relation == "after" else group[0], other, stamp)
