"""Open questions about moments and comparisons, computed in code beside temporal.py's forms: whether
something happened at all ('did I take my pills today?'), which of two things came first, how long between
two things or since one, what was going on at a clock time or when something was done, the first or last
thing of a stretch of time, and what was done with a verb ('what did I measure this morning?').

Each public function computes one form of the registry (forms.py) from a plan, whose phrases never hold the
time words the scope has already read ('at 07:48', 'yesterday')."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from egocli.core.lexicon import lexicon
from egocli.reasoning import actions, affirmed, digest, guests, happened, kinds, meals, returns, settled, visits
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import Scope
from egocli.reasoning.temporal import Finding, Matcher, nothing, occurrences
from egocli.reasoning.voice import say_duration
from egocli.store import Event, EventFilter, Store
from egocli.store import windows as store_windows
from egocli.core.timeutil import local, to_ms

POINT_NEAR_MS = 2 * 60_000
"""'What was I doing at 07:48?': the events this close to the time answer it."""
SHOWN = 6
"""Events a listing answer names at most."""
_FROM_PLACE = re.compile(r"^(\w+(?: out)?) (out of|from|in|into|inside) (?:the |my |a )?(\w+)$")
"""'take out of the fridge', 'put in the drawer': an act and the container it went out of or into."""
_INTO_ACTS = {"out of": ("take", "take_out"), "from": ("take", "take_out"), "in": ("put", "put_in", "put_away"),
              "into": ("put", "put_in", "put_away"), "inside": ("put", "put_in", "put_away")}
_WHAT_INTO = re.compile(r"^(\w+) (?:in|into|on|onto|inside|out of|from|off) (?=\w)")
"""'What did I put in the jug': the words after the verb name where, not what (the question asks what)."""


def _matcher(asked: Asked) -> Matcher:
    return Matcher(asked.store, asked.scope, asked.embedder)


def at(asked: Asked, plan: QuestionPlan) -> Finding:
    """'What was I doing at 07:48 / between 9 and 10?'; 'where was I at 8?' leads with the place then."""
    found = _at(asked.store, asked.scope, asked.stamp)
    place = visits.place_at(asked.store, asked.scope.moments[0][0]) if asked.scope.moments and \
        asked.question.lower().lstrip().startswith("where") else None
    if place is None or place in found.events:
        return found
    when = asked.stamp(place.start_ms, place.source_id)
    where, known = visits.said_place(place)
    return Finding("at", f"At {where} ({known} {when}). {found.text}", (place, *found.events),
                   f"where: {when}: {place.content}; {found.facts}")


def edge(asked: Asked, plan: QuestionPlan) -> Finding:
    """'What was the first / last thing I did (this morning)?'."""
    return _edge(asked.store, asked.scope, plan.relation or "last", asked.stamp)


def during(asked: Asked, plan: QuestionPlan) -> Finding:
    """'What was I doing when I turned on the tap?'."""
    return _during(asked.store, _matcher(asked), plan.action, asked.stamp)


def exists(asked: Asked, plan: QuestionPlan) -> Finding:
    """'Did I X?'; 'did Dad text me?' is whether a message from Dad is in the scope (kinds.py); 'did the plumber
    come?' whether a visit of his is (guests.py)."""
    want = kinds.asked(plan.action)
    sent = kinds.events(asked.store, asked.scope, plan.action) if want is not None and want.sender else None
    if sent:
        return happened.yes("Yes", plan.action, [[e] for e in sent], happened.within(asked.scope), asked.stamp)
    if came := guests.arrival(asked, plan.action):  # 'did the plumber come?': a visit of his seen
        return happened.yes("Yes", plan.action, [came], happened.within(asked.scope), asked.stamp)
    if (result := settled.settled(asked, plan.action)) is not None:  # 'did the van pass its MOT?': its result line
        return result
    if (back := returns.returned(asked, plan.action)) is not None:  # 'did Tony bring the ladder back?'
        return back
    found = happened.verdict(_matcher(asked), plan.action, asked.stamp)  # else its words ('did the tesco order come?')
    near = found.events[-1] if found.events and not found.answered else None
    return (affirmed.seen(asked, plan.action, near) if near is not None else None) or found


def which(asked: Asked, plan: QuestionPlan) -> Finding:
    """'Which did I do first (last), A or B?'."""
    matcher = _matcher(asked)
    return _which(matcher, (plan.relation or "first", plan.action, plan.other), asked.stamp,
                  partial(occasions, asked, matcher))


def occasions(asked: Asked, matcher: Matcher, phrase: str) -> list[Event]:
    """The events of a phrase one of two compared things is ('kwame turning up': his arrival, 'maureen went off to the
    shop': her leaving, by the visit guests.py finds; others: the matcher's events, a call from someone only where a
    call is seen, not their words in the room)."""
    came = guests.arrival(asked, phrase, anywhere=True)
    if came is None and (went := guests.departure(asked, phrase)) is not None:
        return [went]  # 'before maureen went off to the shop': her leaving
    return came if came is not None else [e for e in matcher.matches(phrase) if happened.with_person(phrase, e)]


def ago(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long ago did I X?'."""
    matcher = _matcher(asked)
    groups = [g for g in ([e for e in group if happened.with_person(plan.action, e)]
                          for group in happened.bouts(matcher, plan.action))
              if g]  # 'ring from brian' is no call to him
    if not groups:
        return nothing(matcher, "ago", plan.action, asked.stamp)
    last = groups[-1][-1]
    ago, when = say_duration(asked.scope.at_ms - last.start_ms), asked.stamp(last.start_ms, last.source_id)
    return Finding("ago", f"{ago} ago, at {when}: {last.content}.", (last,),
                   f"{plan.action}: last at {when} ({last.content}), {ago} before now")


def gap(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How long after X did I Y?', 'how long between X and Y?'."""
    return _gap(_matcher(asked), (plan.relation or "between", plan.action, plan.other), asked.stamp)


_GETTING = lexicon().words["getting"]
"""Verbs of getting something at a place: what the stay there held answers 'what did I buy at the market?'."""


def listing(asked: Asked, plan: QuestionPlan) -> Finding | None:
    """'What did I buy?', 'what was the last thing I cut?', 'which emails came in?'."""
    of_kind = kinds.events(asked.store, asked.scope, plan.action)
    want = kinds.asked(plan.action)
    if of_kind and want is not None:
        shown = of_kind[-SHOWN:]
        calls = want.kind == "call"
        lines = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {_with_caller(asked, e) if calls else e.content}"
                          for e in shown)
        more = f" ({len(of_kind)} in all, the last {SHOWN} shown)" if len(of_kind) > SHOWN else ""
        return Finding("list", f"{lines}{more}.", tuple(shown), f"{plan.action}: {lines}{more}")
    if (heard := guests.met(asked, plan.action)) is not None:  # 'who did I see at the eye clinic?'
        return heard
    said = plan.action.split()
    if not plan.relation and len(said) > 1 and (said[0] == "at" or (said[0] in _EATING and said[1] == "at")) and \
            (ate := _eaten_at(asked, " ".join(said[1:] if said[0] == "at" else said[2:]))) is not None:
        return ate  # 'what did I have at the garden centre cafe'
    if not plan.relation and len(said) > 2 and said[1] in ("at", "from") and said[0] in _GETTING:
        bought = digest.digest(asked, QuestionPlan("digest", " ".join(said[2:]), relation="bought"))
        if bought.answered:  # 'buy at the market': the stay told, what was bought first
            return bought
    return _list(_matcher(asked), plan.action, asked.stamp, plan.relation)


_EATING = lexicon().words["eating"]


def _eaten_at(asked: Asked, place: str) -> Finding | None:
    """What was eaten or drunk at a place: the line of the stay there that shows a meal best (meals.score), or
    None (no stay seen, or nothing eaten in it)."""
    lo, hi, _ = digest.span_of(asked)
    if (stay := digest.occasion(asked, place, lo, hi)) is None:
        return None
    lines = [e for e in store_windows.overlapping(asked.store, stay[0], stay[1] + 1, None, 2000)
             if e.modality in ("visual", "speech") and meals.score(e) > 0]
    if not lines:
        return None
    best = max(lines, key=lambda e: (meals.score(e), e.start_ms))
    when = asked.stamp(best.start_ms, best.source_id)
    return Finding("list", f"At {place}, {when}: {best.content}.", (best,), f"eaten at {place}: {when}: {best.content}")


def _with_caller(asked: Asked, ev: Event) -> str:
    """A call's line with who was on it when the line does not say ('Marie, the landline phone ringing')."""
    who = kinds.caller(asked.store, ev)
    return f"{who}, {ev.content}" if who and who.lower() not in ev.content.lower() else ev.content


def _which(matcher: Matcher, phrases: tuple[str, ...], stamp: Callable[[int, int | None], str],
           find: Callable[[str], list[Event]]) -> Finding:
    """'Which did I do first (last), A or B?': the first time of each on the latest day both happen."""
    order, a, b = phrases
    found_a, found_b = find(a), find(b)
    if not found_a or not found_b:
        return nothing(matcher, "which", a if not found_a else b, stamp)
    both = sorted({local(e.start_ms).date() for e in found_a} & {local(e.start_ms).date() for e in found_b})
    if both:
        found_a = [e for e in found_a if local(e.start_ms).date() == both[-1]]
        found_b = [e for e in found_b if local(e.start_ms).date() == both[-1]]
    (first, ef), (then, et) = sorted([(a, found_a[0]), (b, found_b[0])], key=lambda p: (p[1].start_ms, p[1].id))
    tf, tt = stamp(ef.start_ms, ef.source_id), stamp(et.start_ms, et.source_id)
    facts = f"{first} first, at {tf} ({ef.content}); {then} later, at {tt} ({et.content})"
    if order == "first":
        return Finding("which", f"{first.capitalize()} first: {tf}: {ef.content}; then {then}: {tt}: {et.content}.",
                       (ef, et), facts)
    return Finding("which", f"{then.capitalize()} later: {tt}: {et.content}; {first} before it: {tf}: "
                   f"{ef.content}.", (et, ef), facts)


def _gap(matcher: Matcher, phrases: tuple[str, ...], stamp: Callable[[int, int | None], str]) -> Finding:
    """'How long after X did I Y?', 'how long between X and Y?'."""
    relation, x, y = phrases
    xs, ys = matcher.matches(x), matcher.matches(y)
    if not xs or not ys:
        return nothing(matcher, "gap", x if not xs else y, stamp)
    pairs = _pairs(xs, ys, relation)
    if not pairs:
        return Finding("gap", f"No \"{y}\" {relation} \"{x}\" in the log.", (xs[-1],), f"no {y} {relation} {x}")
    ex, ey = pairs[-1]
    took, tx, ty = say_duration(abs(ey.start_ms - ex.start_ms)), stamp(ex.start_ms, ex.source_id), \
        stamp(ey.start_ms, ey.source_id)
    return Finding("gap", f"{took}: {tx}: {ex.content}; {ty}: {ey.content}.", (ex, ey),
                   f"{x} at {tx} ({ex.content}); {y} at {ty} ({ey.content}); {took} apart")


def _pairs(xs: list[Event], ys: list[Event], relation: str) -> list[tuple[Event, Event]]:
    """For each x, its y: the first y after it ('after'), the last before it ('before'), or the nearest
    ('between'); only pairs on one day, in the order of the x."""
    out = []
    for ex in xs:
        day = [e for e in ys if local(e.start_ms).date() == local(ex.start_ms).date() and e.id != ex.id]
        later = [e for e in day if e.start_ms > ex.start_ms]
        earlier = [e for e in day if e.start_ms < ex.start_ms]
        if relation == "after" and later:
            out.append((ex, later[0]))
        elif relation == "before" and earlier:
            out.append((ex, earlier[-1]))
        elif relation == "between" and day:
            out.append((ex, min(day, key=lambda e: abs(e.start_ms - ex.start_ms))))
    if relation == "after":  # the x closest before its y: 'turned off the hob' the last time before the ginger
        out = [(ex, ey) for ex, ey in out if not any(ex.start_ms < o.start_ms < ey.start_ms for o, _ in out)]
    return out


def _at(store: Store, scope: Scope, stamp: Callable[[int, int | None], str]) -> Finding:
    """'What was I doing at 07:48 / between 9 and 10?': the events at that time, the nearest for a point."""
    shown: list[Event] = []
    for lo, hi in scope.moments:
        if lo == hi:
            near = _around(store, lo, lo)
        else:  # a stretch: what tells it (digest.salient), not every sight of it
            within = store_windows.overlapping(store, lo, hi + 60_000, None, 2000)
            near = digest.salient(within, SHOWN, acts=True) or _spread(within)
        shown += sorted(near, key=lambda e: (e.start_ms, e.id))
    when = ", ".join(stamp(lo, None) if lo == hi else f"{stamp(lo, None)}-{stamp(hi, None)}" for lo, hi in scope.moments)
    if not shown:
        return Finding("at", f"Nothing recorded around {when}.", (), f"nothing recorded around {when}")
    lines = "; ".join(f"{stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
    return Finding("at", f"Around {when}: {lines}.", tuple(shown), f"events around {when}: {lines}")


def _during(store: Store, matcher: Matcher, phrase: str, stamp: Callable[[int, int | None], str]) -> Finding:
    """'What was I doing when I turned on the tap?': the other events nearest the last time of X."""
    found = matcher.matches(phrase)
    if not found:
        return nothing(matcher, "during", phrase, stamp)
    bout = occurrences(found, between=matcher.between)[-1]
    lo, hi = bout[0].start_ms, max(e.end_ms for e in bout)
    ids, texts = {e.id for e in found}, {e.content.strip().lower() for e in bout}
    shown = _around(store, lo, hi, lambda e: e.id in ids or e.content.strip().lower() in texts)
    when = stamp(lo, bout[0].source_id)
    if not shown:
        return Finding("during", f"Only that: {when}: {bout[0].content}; nothing else recorded within 30 min.",
                       (bout[0],), f"{phrase} at {when}; nothing else near it")
    lines = "; ".join(f"{stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
    return Finding("during", f"Around {when} ({bout[0].content}): {lines}.", (bout[0], *shown),
                   f"{phrase} at {when} ({bout[0].content}); around it: {lines}")


def _around(store: Store, lo: int, hi: int, skip: Callable[[Event], bool] = lambda e: False) -> list[Event]:
    """Up to SHOWN events (distinct texts, in time order) nearest a moment or span, within POINT_NEAR_MS of it;
    when none is, the nearest one before and the nearest one after within 30 min (a sparse log)."""

    near = [e for e in store_windows.overlapping(store, lo - POINT_NEAR_MS, hi + POINT_NEAR_MS, None, 200)
            if not skip(e)]
    if not near:
        reach = 15 * POINT_NEAR_MS
        before = store.events(EventFilter(since_ms=lo - reach, until_ms=lo, limit=50), newest_first=True)
        after = store.events(EventFilter(since_ms=hi, until_ms=hi + reach, limit=50))
        picks = [next((e for e in side if not skip(e)), None) for side in (before, after)]
        return [e for e in picks if e is not None]
    closest: dict[str, Event] = {}  # each text once, at its time nearest the moment
    for ev in sorted(near, key=lambda e: max(lo - e.end_ms, e.start_ms - hi, 0)):
        closest.setdefault(ev.content.strip().lower(), ev)
    return sorted(list(closest.values())[:SHOWN], key=lambda e: (e.start_ms, e.id))


def _spread(events: list[Event], count: int = SHOWN) -> list[Event]:
    """Up to `count` events with distinct texts, spread over a stretch of time."""
    seen: dict[str, Event] = {}
    for ev in events:
        seen.setdefault(ev.content.strip().lower(), ev)
    distinct = list(seen.values())
    if len(distinct) <= count:
        return distinct
    step = len(distinct) / count
    return [distinct[int(i * step)] for i in range(count)]


def _edge(store: Store, scope: Scope, which: str, stamp: Callable[[int, int | None], str]) -> Finding:
    """'What was the first / last thing I did (this morning)?': the scope's first or last event, today's
    without a named time."""
    spans = scope.windows or ((to_ms(local(scope.at_ms).replace(hour=0, minute=0, second=0, microsecond=0)),
                               scope.at_ms + 1),)
    lo, hi = min(s for s, _ in spans), min(max(e for _, e in spans), scope.at_ms + 1)
    newest = which != "first"
    found = list(store.events(EventFilter(since_ms=lo, until_ms=hi, limit=1), newest_first=newest))
    if not found:
        return Finding("edge", f"Nothing recorded {scope.label if scope.windows else 'today'}.", (),
                       "nothing recorded then")
    ev = found[0]
    when = stamp(ev.start_ms, ev.source_id)
    return Finding("edge", f"{which.capitalize()}: {when}: {ev.content}.", (ev,),
                   f"the {which} event {scope.label if scope.windows else 'today'}: {when}: {ev.content}")


def _list(matcher: Matcher, phrase: str, stamp: Callable[[int, int | None], str], edge: str = "") -> Finding | None:
    """'What did I measure / buy at the market / take out of the fridge?': the distinct events of that action,
    in time order, or the first or last of them ('what was the last thing I cut'); None when the log never
    names the act ('what did I have for lunch' is then the model's to read)."""
    found = _in_container(matcher, phrase)
    if not found:
        phrase = _WHAT_INTO.sub(r"\1 ", phrase)  # 'put in the jug': what was put, the jug being where
        found = matcher.matches(phrase, any_verb=True)
        if not found or matcher.tier <= (2 if actions.parse(phrase).verb else 1):
            return None  # the act is not found as such: the model reads the context instead
    if edge:
        ev = found[0] if edge == "first" else found[-1]
        when = stamp(ev.start_ms, ev.source_id)
        return Finding("list", f"{edge.capitalize()}: {when}: {ev.content}.", (ev,),
                       f"{phrase}: the {edge} at {when}: {ev.content}")
    shown = _spread(found)
    lines = "; ".join(f"{stamp(e.start_ms, e.source_id)}: {e.content}" for e in shown)
    more = len({e.content.strip().lower() for e in found})
    count = f" ({more} different, {SHOWN} shown)" if more > len(shown) else ""
    return Finding("list", f"{lines}{count}.", tuple(shown), f"{phrase}: {lines}{count}")


def _in_container(matcher: Matcher, phrase: str) -> list[Event]:
    """'Take out of the fridge': the takings while the fridge stood open (from an 'open fridge' to a 'close
    fridge' at most 2 min later), for logs that narrate 'open fridge, take milk, close fridge'."""
    m = _FROM_PLACE.match(phrase)
    acts = _INTO_ACTS.get(m.group(2), ()) if m else ()
    if not m or actions.parse(m.group(1)).verb not in acts:
        return []
    place = m.group(3)
    opens = [e for e in matcher.matches(f"open the {place}") if actions.parse(e.content).verb == "open"]
    closes = [e for e in matcher.matches(f"close the {place}") if actions.parse(e.content).verb == "close"]
    store, out = matcher.pool.store, []
    for ev in opens:
        shut = [c.start_ms for c in closes if c.source_id == ev.source_id and ev.start_ms < c.start_ms]
        if not shut or shut[0] - ev.start_ms > 2 * 60_000:
            continue  # no 'close fridge' soon after: what was taken then need not have been inside
        end = shut[0]
        out += [e for e in store_windows.overlapping(store, ev.start_ms + 1, end, ev.source_id, 50)
                if ev.start_ms < e.start_ms < end and actions.verbs_of(e.content) & set(acts)
                and place not in e.content.lower()]
    return sorted({e.id: e for e in out}.values(), key=lambda e: (e.start_ms, e.id))
