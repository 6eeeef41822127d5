"""Span questions and amounts, computed in code: what a stretch of time held ('what did I do this afternoon?',
'summarize my morning', 'how was my day?') and how much was paid ('how much did I pay at the pharmacy?').

A span is answered from its salient events, spread over the span so that the whole of it is told, with the
hour/day summaries of that span beside them when `egocli summarize` has built them; without summaries the
extractive digest alone answers at once. Every line cites its event."""

from __future__ import annotations

import re
from datetime import timedelta

from egocli.core.lexicon import lexicon, words
from egocli.core.timeutil import local, to_ms
from egocli.reasoning import actions, meals, outings, placekinds, signs, staying, terms, visits, voice
from egocli.reasoning.plan import Asked, QuestionPlan
from egocli.reasoning.scope import DAY_PARTS
from egocli.reasoning.temporal import SENSED_ACTS, Finding, Matcher, nothing, occurrences
from egocli.store import Event
from egocli.store import summaries as sql
from egocli.store import windows as store_windows

SHOWN = 8
"""Events a digest names at least (when the span holds that many)."""
PER_HOUR = 2.5
"""Events a digest names per hour of its span, between SHOWN and MOST_SHOWN."""
MOST_SHOWN = 14
"""Events a digest names at most."""
LINE_CHARS = 240
"""A digest line's text is cut at a word before this many characters (the event cited holds the rest)."""
MAX_EVENTS = 5000
"""Events of a span read at most."""
_WEIGHT = {"note": 3.0, "speech": 2.5, "text": 1.6, "tool": 1.2, "visual": 1.0}
"""How much an event of a modality tells of what was done: a note or a sentence said more than a frame seen."""
AMBIENT = 0.3
"""How much a sound heard around ('(radio) ...', '(background) it's always like this') tells of a span, against the
words of someone there."""
_UNTOLD = {"system"}
"""Modalities that say nothing of the day (sessions opening and closing)."""
_PART = re.compile(r"\b(morning|afternoon|evening|night|week|weekend)\b")
_NUMBER = (r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
           r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a)"
           r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?\b")
_MONEY = re.compile(r"(?:[€£$]\s?\d+(?:[.,]\d{1,2})?|\b\d+(?:[.,]\d{1,2})?\s?(?:euros?|eur|pounds?|gbp|dollars?|usd|"
                    r"pence|cents?|quid)\b|\b(?:" + _NUMBER + r"\s+(?:and\s+)?)+(?:pounds?|euros?|dollars?|quid)"
                    r"(?:\s+(?:and\s+)?" + _NUMBER + r"(?:\s+(?:pence|p|cents?))?)?)", re.I)
_PRICE = re.compile(r"\b\d{1,4}[.,]\d{2}\b")
"""A price-like number ('9.90'), money only beside a word of paying ('total 9.90')."""
_PAID = re.compile(r"\b(?:total|paid|pay|receipt|card|cash|charged|cost|price|change)\b", re.I)
_PRICING = lexicon().words["pricing"]
"""Verbs a question about a thing's price is asked with."""
NEAR_MS = 30 * 60_000
"""An amount this close to a visit counts as paid there (a receipt read a few minutes after arriving)."""


def span_of(asked: Asked) -> tuple[int, int, str]:
    """(start, end, label) of the span a question names: its scope's, else the part of the day or week its
    words name ('my morning': this morning, or yesterday's when this one has not begun), else today so far."""
    at_ms = asked.scope.at_ms
    if asked.scope.windows:
        lo = min(s for s, _ in asked.scope.windows)
        hi = min(max(e for _, e in asked.scope.windows), at_ms + 1)
        return lo, hi, asked.scope.label
    now = local(at_ms)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    m = _PART.search(asked.question.lower())
    part = m.group(1) if m else None
    if part in ("week", "weekend"):
        days = 7 if part == "week" else (now.weekday() - 5) % 7 + 2
        start = midnight - timedelta(days=days - 1 if part == "week" else days - 2)
        return to_ms(start), at_ms + 1, f"the {part}" if part == "weekend" else "the last 7 days"
    if part in DAY_PARTS:
        lo_h, hi_h = DAY_PARTS[part]
        day = midnight if now.hour >= lo_h else midnight - timedelta(days=1)
        label = f"this {part}" if day == midnight else f"yesterday {part}"
        return to_ms(day + timedelta(hours=lo_h)), min(to_ms(day + timedelta(hours=hi_h)), at_ms + 1), label
    return to_ms(midnight), at_ms + 1, "today"


def salient(events: list[Event], count: int = SHOWN, acts: bool = False, buying: bool = False) -> list[Event]:
    """Up to `count` events that tell a span, chosen one by one: each time the event that says most (its modality's
    weight, its words not yet told, who and where; with `acts`, what it says was done) for how far it lies from
    those already chosen (a stretch of the span each: the whole of the span is told, and a longer digest keeps a
    shorter one's events); with `buying`, a line naming money or a quantity of something ('two boxes of oranges')
    says most; scenery seen again and again is left out."""
    told = [e for e in events if e.modality not in _UNTOLD and e.content.strip()]
    if not told:
        return []
    seen: dict[str, int] = {}
    for ev in told:
        key = ev.content.strip().lower()
        seen[key] = seen.get(key, 0) + 1
    distinct = {ev.content.strip().lower(): ev for ev in reversed(told)}  # each text at its first time
    pool = sorted(distinct.values(), key=lambda e: (e.start_ms, e.id))
    if len(pool) <= count:
        return pool
    share = max((pool[-1].start_ms - pool[0].start_ms) / count, 1.0)
    own = {e.id: set(terms.terms(e.content)) for e in pool}
    weight = {e.id: _weight(e, seen, acts, buying) for e in pool}  # all but the words not yet told, once
    picked: list[Event] = []
    chosen: set[int] = set()
    told_words: set[str] = set()
    while len(picked) < count:
        def worth(ev: Event) -> float:
            near = min((abs(ev.start_ms - p.start_ms) for p in picked), default=share)
            fresh = len(own[ev.id] - told_words)
            return weight[ev.id] * (1 + min(fresh, 8) / 4) * min(1.0, near / share)
        best = max((e for e in pool if e.id not in chosen), key=worth)
        picked.append(best)
        chosen.add(best.id)
        told_words |= own[best.id]
    return sorted(picked, key=lambda e: (e.start_ms, e.id))


BOUGHT = 3.0
"""How much more a line naming money or a quantity says of what was bought than any other line."""
_COUNTS = frozenset((*lexicon().numbers, "a", "an", "dozen", "half"))
_MEASURES = frozenset({"kg", "g", "ml", "l"})


def _quantity(text: str) -> bool:
    """Whether a text names a quantity of something ('two boxes of oranges', 'a bunch of coriander', 'chickpeas x2',
    '1kg'): a number word or figure with 'of' one or two words on, 'x' and a figure, a figure and a unit."""
    said = words(text)
    for i, w in enumerate(said):
        nxt = said[i + 1:i + 3]
        if (w.isdigit() or w in _COUNTS) and "of" in nxt:
            return True
        if (w[:1] == "x" and w[1:].isdigit()) or (w == "x" and nxt[:1] and nxt[0].isdigit()):
            return True
        figure = w.rstrip("abcdefghijklmnopqrstuvwxyz")
        if (w.isdigit() and nxt[:1] and nxt[0] in _MEASURES) or (figure.isdigit() and w[len(figure):] in _MEASURES):
            return True
    return False


def _weight(ev: Event, seen: dict[str, int], acts: bool = False, buying: bool = False) -> float:
    """How much an event tells of a span before the words it shares with those already told: its modality's weight,
    who and where it names, with `acts` what it says was done, less for a sound heard around or a text seen again;
    with `buying`, more for money or a quantity named."""
    repeated = seen.get(ev.content.strip().lower(), 1)
    named = len(visits.names(ev.content)) + visits.moves_in(ev)  # who and where: what tells a day
    done = len(actions.verbs_of(ev.content, ev.modality) - SENSED_ACTS) if acts else 0  # done, not seen or said
    ambient = AMBIENT if ev.content.lstrip().startswith("(") else 1.0  # '(tannoy) ...', '(background) ...'
    if buying and (amounts(ev.content) or _quantity(ev.content)):
        ambient *= BOUGHT
    return ambient * _WEIGHT.get(ev.modality, 1.0) * (1 + min(named, 2) / 2) * (1 + min(done, 2) / 2) / repeated


def digest(asked: Asked, plan: QuestionPlan) -> Finding:
    """What a span held: its salient events in time order, and its summaries when built; with relation 'bought'
    ('what did I buy at the market?'), what was bought there first."""
    lo, hi, label = span_of(asked)
    if plan.action and plan.relation in ("after", "before"):  # 'what have I done since lunch?': from its end on
        anchor = occasion(asked, plan.action, lo, hi)
        if anchor is None:
            return nothing(Matcher(asked.store, asked.scope, asked.embedder), "digest", plan.action, asked.stamp)
        lo, hi = (anchor[1], hi) if plan.relation == "after" else (lo, anchor[0])
        said = "since" if "since" in terms.words(asked.question) else plan.relation
        label = f"{said} {plan.action}"
    elif plan.action:  # 'what did I do at work yesterday': the stretch spent there, that day
        if not asked.scope.windows:  # 'what happened in the budget review?': its latest time, whenever
            lo, label = -(2 ** 62), "today"
        spent = occasion(asked, plan.action, lo, hi)  # at work: the day's stay there; at lunch: its sitting
        if spent is None:
            return nothing(Matcher(asked.store, asked.scope, asked.embedder), "digest", plan.action, asked.stamp)
        lo, hi = spent
        label = f"{label} at {plan.action}" if label != "today" else f"at {plan.action}"
    events = [e for e in store_windows.overlapping(asked.store, lo, hi, None, MAX_EVENTS) if e.start_ms <= hi]
    count = min(MOST_SHOWN, max(SHOWN, round((hi - lo) / 3_600_000 * PER_HOUR)))
    shown = salient(events, count, acts=True, buying=plan.relation == "bought")  # what was done counts
    if not shown:
        return Finding("digest", f"Nothing recorded {label}.", (), f"nothing recorded {label}")
    lines = "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}: {_cut(e.content)}" for e in shown)
    summaries = [s.text.strip() for s in sql.get_summaries(asked.store, "hour", lo, hi)
                 if s.text.strip() and not s.text.startswith("mostly: ")]  # scenery-only hours tell nothing
    gist = f" In short: {' '.join(summaries[:3])}" if summaries else ""
    went = [] if plan.action and plan.relation in ("", "bought") else places(events)
    where = "where you were: " + "; ".join(f"{asked.stamp(e.start_ms, e.source_id)}, {name}" for e, name in went) + \
        ". What stood out: " if len(went) > 1 else ""
    cited = tuple({e.id: e for e in [*shown, *(e for e, _ in went)]}.values())
    return Finding("digest", f"{label[:1].upper()}{label[1:]}: {where}{lines}.", cited,
                   f"{label}: {where}the main events: {lines}.{gist}")


def _cut(text: str, limit: int = LINE_CHARS) -> str:
    """A text cut at the last word before `limit` characters, with an ellipsis; a short one as it is."""
    text = text.strip().rstrip(".")
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0].rstrip(" ,;:—-") + "…"


PLACES = 6
"""Places a digest names at most."""


def places(events: list[Event]) -> list[tuple[Event, str]]:
    """The places a span went to, in order, each once: a frame that opens with one's name ('the Co-op on Carr Lane,
    a basket'; no one who speaks in the span), a sign read where one was ('sign - Chorlton Physio - 212 Barlow Moor
    Road': Chorlton Physio), else an arrival seen that names one or a kind of place seen; home is not among them."""
    out: list[tuple[Event, str]] = []
    people = {w for e in events if e.modality == "speech" for w in words(terms.speaker(e.content))}
    there = False  # at a place named, with no move seen since: a notice read is inside it
    for ev in events:
        there = there and not (ev.modality == "visual" and (visits.leaves(ev) or visits.moves(ev)))
        if ev.modality == "visual" and (opened := opens_with_place(ev)) and not set(words(opened)) & people:
            name = opened  # 'Tyre Depot on Mill Road, the Skoda up on the ramp': Tyre Depot
        elif visits.signed(ev) and not (there and signs.inside(ev, events)):
            name = re.split(r"\s+[\u2014\u2013-]\s+", visits.said_place(ev)[0])[0]
        elif ev.modality == "visual" and visits.arrives(ev) and not visits.home_arrival(ev) and \
                (named := sorted(visits.names(ev.content), key=len, reverse=True)):
            name = named[0]  # 'walking into Clip & Curl, a woman sweeping up': Clip & Curl
        elif ev.modality == "visual" and (kind := placekinds.kind_seen(ev)):
            name = f"the {kind}"  # 'a pharmacy counter, white paper bags in a rack': the pharmacy
        else:
            continue
        there = True
        if name and all(name.lower() != seen.lower() for _, seen in out):
            out.append((ev, name.strip()))
    return out[:PLACES]


_STREETS = outings.cue(lexicon().outings["outdoors"] + tuple(p for ps in lexicon().travel.values() for p in ps))
_WHERE_IT_IS = frozenset({"on", "in", "at", "off"})
_NAME_JOINS = frozenset({"&", "and", "of"})


def opens_with_place(ev: Event) -> str:
    """The name a frame opens with when its first phrase is only a name, perhaps with where it is ('Tyre Depot on
    Mill Road, the Skoda up on the ramp': Tyre Depot; 'the Co-op on Carr Lane': Co-op), not a street or a way of
    getting about ('Market Street, a precinct'), else ''."""
    said = ev.content.split(",")[0].split()
    said = said[1:] if said[:1] == ["the"] else said
    cut = next((i for i, w in enumerate(said) if w in _WHERE_IT_IS), len(said))
    name, where = said[:cut], said[cut + 1:]
    if cut < len(said) and not (where and where[0][:1].isupper()):
        return ""  # 'Ellie at the kitchen table': no place named after 'at'
    if not name or not all(_capital(w) or (w in _NAME_JOINS and 0 < i < len(name) - 1) for i, w in enumerate(name)):
        return ""
    told = " ".join(name)
    return "" if _STREETS.search(told.lower()) or told.lower() in _NOT_NAMES else told


def _capital(word: str) -> bool:
    """A word of a name: a capital first, then letters, figures and the marks names hold ('Co-op', 'St.')."""
    return word[:1].isupper() and word[:1].isalpha() and all(c.isalnum() or c in "'&.-_" for c in word)


_NOT_NAMES = frozenset({*lexicon().time["weekdays"], *lexicon().time["months"]})


def _paid_at(asked: Asked, groups: list[list[Event]], stays: list[visits.Visit]) -> Event | None:
    """The payment of the latest visit that has one: money named during it (until its departure when one is
    seen, else a few minutes after its last mention), else a little after it; a word of paying beside the money
    counts most."""
    for reach in (5 * 60_000, NEAR_MS):
        for visit in reversed(groups):
            ends = [s.end.end_ms for s in stays if s.end is not None
                    and s.begin.start_ms <= visit[0].start_ms and s.end.start_ms >= visit[-1].start_ms]
            hi = max([max(e.end_ms for e in visit), *ends])
            near = store_windows.overlapping(asked.store, visit[0].start_ms - 60_000, hi + reach,
                                             visit[-1].source_id, 400)
            near = [e for e in near if _money(e.content) and e.start_ms <= asked.scope.at_ms]
            if near:
                return max(near, key=lambda e: (bool(_PAID.search(e.content)), -abs(e.start_ms - visit[0].start_ms)))
    return None


def amounts(text: str) -> list[str]:
    """Every amount of money a text names, in order ('£186.60 ... £62.20 each')."""
    return [m.group(0) for m in _MONEY.finditer(text)] or [m.group(0) for m in _PRICE.finditer(text) if _PAID.search(text)]


def _money(text: str) -> str:
    """The amount of money a text names ('£9.60', 'twenty-six pounds eighty', 'total 9.90'), or ''; a receipt's
    total rather than its first item ('Mushrooms £1.45 ... TOTAL £15.35')."""
    at = text.lower().rfind("total")
    if at >= 0 and (m := _MONEY.search(text, at) or _PRICE.search(text, at)):
        return m.group(0)
    m = _MONEY.search(text) or (_PRICE.search(text) if _PAID.search(text) else None)
    return m.group(0) if m else ""


_MONEY_WORDS = lexicon().money
_UNITS = {w: i for i, w in enumerate(lexicon().numbers) if i < 20}
_TENS = {w: 10 * i for i, w in enumerate(_MONEY_WORDS["tens"], 2)}


def _number(said: list[str]) -> int | None:
    """['twenty', 'six'] -> 26, ['a', 'hundred'] -> 100, ['one', 'hundred', 'and', 'five'] -> 105; None when the
    words are no number."""
    value = None
    for w in said:
        if w in ("a", "an") and value is None:
            continue  # 'a hundred', 'a ten pound note'
        if w in _UNITS or w in _TENS:
            value = (value or 0) + _UNITS.get(w, _TENS.get(w, 0))
        elif w == "hundred":
            value = (value or 1) * 100
        elif w != "and":
            return None
    return value


def in_digits(money: str) -> str:
    """An amount said in words in digits ('twelve pounds forty-five' -> '£12.45'); any other as it was."""
    said = money.lower().replace("-", " ").split()
    at = next((i for i, w in enumerate(said) if w in _MONEY_WORDS["currencies"]), None)
    if not at:
        return money
    rest = [w for w in said[at + 1:] if w not in _MONEY_WORDS["small_change"]]
    whole, cents = _number(said[:at]), _number(rest) if rest else 0
    if whole is None or cents is None or cents > 99:
        return money
    return f"{_MONEY_WORDS['currencies'][said[at]]}{whole}" + (f".{cents:02d}" if cents else "")


def stretch(asked: Asked, place: str, lo: int, hi: int) -> tuple[int, int] | None:
    """The time spent at a place (or an occasion: 'the budget review') inside [lo, hi): when it was seen or its sign
    read, the latest such stay to its end (staying.seen_stay: a letter read or a word said about it hours before is
    not the stay); else from the first to the last mention on the latest day it is named."""
    found = [e for e in Matcher(asked.store, asked.scope, asked.embedder).matches(place, verb_first=False)
             if lo <= e.start_ms < hi]
    if not found:
        return None
    seen = staying.seen_stay(asked, found, place)
    if seen is not None:
        stay, end = seen
        return stay[0].start_ms, end.end_ms if end is not None else _stay_end(asked, stay[0], stay[-1].end_ms)
    day = local(found[-1].start_ms).date()
    same = [e for e in found if local(e.start_ms).date() == day]
    return same[0].start_ms, max(e.end_ms for e in same) + 60_000


STAY_MS = 45 * 60_000
"""How long a stay seen once with no end seen is taken to last at most (a market's A-board, then its stalls)."""


def _stay_end(asked: Asked, begin: Event, after_ms: int) -> int:
    """When a stay seen with no departure ended: at the first other place seen within STAY_MS (a sign, an arrival,
    a frame opening with a place's name, getting home), else STAY_MS after its last moment."""
    later = store_windows.overlapping(asked.store, after_ms + 1, min(after_ms + STAY_MS, asked.scope.at_ms + 1), None, 2000)
    own = {w for n in visits.names(begin.content) for w in words(n)}
    for ev in later:
        if ev.start_ms > after_ms and ev.id != begin.id and (
                (visits.signed(ev) and not signs.inside(ev, later) and not own & set(words(ev.content))) or
                (ev.modality == "visual" and (visits.arrives(ev) or opens_with_place(ev) or
                                              outings.scene(ev) == "home"))):
            return ev.start_ms
    return min(after_ms + STAY_MS, asked.scope.at_ms + 1)


def occasion(asked: Asked, phrase: str, lo: int, hi: int) -> tuple[int, int] | None:
    """(begin, end) of the occasion a span is counted from: a meal's sitting ('since lunch'), the stay at work
    ('after work'), else the stretch spent at the place or occasion (`stretch`); None when none is seen."""
    if (name := meals.meal_of(phrase)) is not None:  # its sitting, else the middle of its hours
        found = [e for e in meals.sitting(asked, name) if lo <= e.start_ms < hi]
        if found:
            return found[0].start_ms, max(e.end_ms for e in found)
        first, last = meals.HOURS[name]
        day = local(min(hi - 1, asked.scope.at_ms)).replace(hour=0, minute=0, second=0, microsecond=0)
        middle = to_ms(day + timedelta(hours=(first + last) / 2))
        return (middle, middle) if lo <= middle < hi else None
    if visits.bare(words(phrase)) in visits.WORK:
        matcher = Matcher(asked.store, asked.scope, asked.embedder)
        worked = [v for v in visits.visits(asked, phrase, lambda p: matcher.matches(p, verb_first=False))
                  if lo <= v.begin.start_ms < hi]
        if worked:
            end = worked[-1].end
            return worked[-1].begin.start_ms, end.end_ms if end is not None else worked[-1].begin.end_ms
    return stretch(asked, phrase, lo, hi)


def amount(asked: Asked, plan: QuestionPlan) -> Finding:
    """'How much did I pay at the pharmacy?': an amount of money said or read at (or about) it, the latest."""
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    found = matcher.matches(plan.action, verb_first=False) if plan.action else []
    priced_only = not any(voice.is_verb(w) and w not in _PRICING for w in terms.words(plan.action))
    for loose in voice.looser(plan.action) if plan.action and not found and priced_only else ():  # 'electric bill': a bill
        named = matcher.matches(loose, verb_first=False)
        if any(_money(e.content) for e in named):  # named more loosely, it is the thing only where a price is said
            found = named
            break
    if not found:
        return nothing(matcher, "amount", plan.action or "a payment", asked.stamp)
    priced = [e for e in found if _money(e.content)]
    last = found[-1]
    groups = occurrences(found, NEAR_MS)  # mentions close together: one visit (or one call about it)
    if not priced or priced[-1].start_ms < groups[-1][0].start_ms:
        stays = visits.visits(asked, plan.action, lambda place: matcher.matches(place, verb_first=False))
        picked = _paid_at(asked, groups, stays)
        if picked is not None:
            priced.append(picked)
    if not priced:
        when = asked.stamp(last.start_ms, last.source_id)
        return Finding("amount", f"I can't see an amount for {plan.action}; the closest is {when}: {last.content}.",
                       (last,), f"no amount named near {plan.action}; last about it at {when}: {last.content}", False)
    ev = max(priced, key=lambda e: e.start_ms)
    money = in_digits(_money(ev.content))
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("amount", f"{money}: {when}: {ev.content}.", (ev,), f"{plan.action}: {money}, at {when}: {ev.content}")
