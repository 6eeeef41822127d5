"""Question makers for the EPIC-KITCHENS week, one per form; each returns questions with gold answers computed
from the narrations (see bench/sets/checker.py for how answers are scored)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bench.sets import phrasing
from bench.sets.checker import has_word
from bench.sets.epic_week import PUT_VERBS, Narration, Week
from egocli.core.timeutil import format_local, local

Question = dict
MIN_GAP_MS = 20_000
"""'Did I X before Y': the last X and the first Y are at least this far apart (no near-ties)."""
TIME_TOLERANCE_S = 30
"""'When did I last X?': narrated actions are seconds apart, so a neighbouring action must not pass for X."""
INSTANT = {"take", "pick", "put", "place", "open", "close", "grab", "get", "turn", "switch", "throw", "move", "hold",
           "insert", "set", "drop", "press"}
"""Verbs of a moment: 'how long did I open the fridge?' is not a question people ask."""


def make_all(week: Week, rng: random.Random, per_form: int) -> list[Question]:
    """All forms, `per_form` questions each (half as many 'how long'), ids stable for a seed."""
    makers: list[tuple[str, Callable[..., list[Question]], int]] = [
        ("last", last, per_form), ("where", where, per_form), ("after", after, per_form),
        ("count", count, per_form), ("order", order, per_form), ("duration", duration, max(1, per_form // 2)),
        ("exists", exists, per_form), ("which", which, per_form), ("ago", ago, max(1, per_form // 2))]
    out = []
    for form, maker, n in makers:
        made = maker(week, random.Random(f"{rng.random()}-{form}"), n)
        out += [{"id": f"epic-{form}-{i:02d}", "form": form, **q} for i, q in enumerate(made)]
    return out


def _record(question: str, at_ms: int, gold: dict, evidence: list[Narration], **extra) -> Question:
    return {"question": question, "at": format_local(at_ms).replace(" ", "T"), "at_ms": at_ms, "gold": gold,
            "evidence": [[n.start_ms, n.text] for n in evidence], **extra}


def _later_gap(week: Week, rng: random.Random, day: int, quiet: Callable[[int], bool]) -> tuple[int, int] | None:
    """(day d', at) with d' >= day, at most 5 days on, and quiet(k) true for every day in (day, d']."""
    options = []
    for d in sorted(week.sessions):
        if d < day or d - day > 5:
            continue
        if d > day and not quiet(d):
            break
        options.append(d)
    if not options:
        return None
    d = rng.choice(options)
    gap = next(g for g in week.gaps() if g[0] == d)
    return d, rng.randrange(gap[1], max(gap[1] + 1, gap[2]), 60_000)


def _candidates(week: Week, rng: random.Random, keep: Callable[[tuple[str, str]], bool]) -> list[tuple[str, str]]:
    keys = [k for k in sorted(week.by_key) if week.clear(k) and week.action(k) is not None and keep(k)]
    rng.shuffle(keys)
    return keys


def last(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'When did I last X?': gold = the newest X before the question, asked after that day or a later one."""
    out = []
    for key in _candidates(week, rng, lambda k: len(week.by_key[k]) >= 2):
        days = sorted({x.day for x in week.by_key[key]})
        day = rng.choice(days)
        placed = _later_gap(week, rng, day, lambda d: d not in days)
        if placed is None:
            continue
        gold = week.before(key, placed[1])[-1]
        slots = phrasing.actions_of(rng, week.action(key), many=True)
        text = phrasing.fill(rng, phrasing.LAST, **slots)
        out.append(_record(text, placed[1], {"kind": "time", "ms": gold.start_ms, "tolerance_s": TIME_TOLERANCE_S}, [gold],
                           action=list(key)))
        if len(out) == n:
            break
    return out


def _puts(week: Week) -> dict[str, list[Narration]]:
    """Put-like narrations per object noun, in time order."""
    out: dict[str, list[Narration]] = {}
    for x in week.all:
        if x.verb in PUT_VERBS:
            out.setdefault(x.noun, []).append(x)
    return out


def _noun_clear(week: Week, noun: str) -> bool:
    cls = {x.noun_class for x in week.all if x.noun == noun}
    return not any(x.noun_class in cls and x.noun != noun for x in week.all)


def where(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'Where did I put X?': gold = the place noun of the newest put of X (which must name a place)."""
    puts = _puts(week)
    nouns = sorted(noun for noun, xs in puts.items() if _noun_clear(week, noun)
                   and any(len(x.nouns) >= 2 and x.nouns[-1].split(":")[0] != noun.split(":")[0] for x in xs))
    rng.shuffle(nouns)
    out = []
    for noun in nouns:
        placed_puts = [x for x in puts[noun] if len(x.nouns) >= 2 and x.nouns[-1].split(":")[0] != noun.split(":")[0]]
        pick = rng.choice(placed_puts)
        later = {x.day for x in puts[noun] if x.start_ms > pick.start_ms}
        if any(x.day == pick.day and x.start_ms > pick.start_ms for x in puts[noun]):
            continue  # a later put the same day moves the object again
        placed = _later_gap(week, rng, pick.day, lambda d: d not in later)
        if placed is None:
            continue
        place = pick.nouns[-1]
        if not any(has_word(pick.text, w) for w in week.synonyms("noun", place)):
            continue
        obj = phrasing.Action("put", "", phrasing.noun_text(noun)).obj(rng)
        text = phrasing.fill(rng, phrasing.WHERE, obj=obj)
        out.append(_record(text, placed[1], {"kind": "words", "all": [week.synonyms("noun", place)]}, [pick],
                           place=place, object=noun))
        if len(out) == n:
            break
    return out


def _neighbour(week: Week, x: Narration, step: int) -> Narration | None:
    """The narration just after (step 1) or before (-1) x in its video, if it is not tied with another."""
    same = [y for y in week.all if y.video == x.video]
    i = same.index(x)
    j = i + step
    if not 0 <= j < len(same) or abs(same[j].start_ms - x.start_ms) > 30_000:
        return None
    k = j + step
    if 0 <= k < len(same) and abs(same[k].start_ms - same[j].start_ms) < 2_000:
        return None  # two narrations start together: no single 'next' action
    return same[j]


def after(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'What did I do after (before) X?' for an X done once: gold = the neighbouring action's verb and noun."""
    out = []
    for key in _candidates(week, rng, lambda k: len(week.by_key[k]) == 1):
        x = week.by_key[key][0]
        step = 1 if rng.random() < 0.7 else -1
        other = _neighbour(week, x, step)
        if other is None or other.key == x.key or week.synonyms("verb", other.verb) == week.synonyms("verb", x.verb) \
                and week.synonyms("noun", other.noun) == week.synonyms("noun", x.noun):
            continue
        gold = {"kind": "words", "all": [week.synonyms("verb", other.verb), week.synonyms("noun", other.noun)]}
        if not all(any(has_word(other.text, w) for w in group) for group in gold["all"]):
            continue  # the narration says it in other words ('close tap' for turn-off): no fair word check
        placed = _later_gap(week, rng, x.day, lambda d: True)
        slots = phrasing.actions_of(rng, week.action(key))
        text = phrasing.fill(rng, phrasing.AFTER if step == 1 else phrasing.BEFORE, **slots)
        out.append(_record(text, placed[1], gold, [x, other], action=list(key), answer=other.text))
        if len(out) == n:
            break
    return out


def _scope(week: Week, rng: random.Random, day: int, at_ms: int) -> str:
    first = week.sessions[day][0]
    return phrasing.day_phrase(local(first).date(), local(at_ms).date(), rng)


def count(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'How many times did I X (on day D)?': gold = the narrations of X that day, or before the question."""
    out = []
    for key in _candidates(week, rng, lambda k: len(week.by_key[k]) >= 2):
        xs = week.by_key[key]
        day = rng.choice(sorted({x.day for x in xs}))
        placed = _later_gap(week, rng, day, lambda d: True)
        whole = rng.random() < 0.3
        counted = week.before(key, placed[1]) if whole else [x for x in xs if x.day == day]
        if not 2 <= len(counted) <= 8:
            continue
        scope = "" if whole else _scope(week, rng, day, placed[1])
        slots = phrasing.actions_of(rng, week.action(key), many=True)
        text = phrasing.fill(rng, phrasing.COUNT, scope=scope, **slots)
        out.append(_record(text, placed[1], {"kind": "count", "n": len(counted)}, counted, action=list(key)))
        if len(out) == n:
            break
    return out


def order(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'Did I X before Y?': X and Y the same day, every X before every Y (or every Y before every X)."""
    return _separated(week, rng, n, lambda a, b, day, used: any(x.day == day for x in week.by_key[b]),
                      lambda a, b, day, xa, xb: _order_question(week, rng, a, b, day, xa, xb))


def _separated(week: Week, rng: random.Random, n: int, fits: Callable, make: Callable) -> list[Question]:
    """Questions about pairs of actions X, Y of different things done the same day, every X before every Y or
    every Y before every X, at least MIN_GAP_MS apart; `fits(a, b, day, used)` narrows the pairs."""
    keys = _candidates(week, rng, lambda k: True)
    out, used = [], set()
    for a in keys:
        days = sorted({x.day for x in week.by_key[a]})
        day = rng.choice(days)
        firsts = [b for b in keys if b != a and b[1] != a[1] and b not in used and fits(a, b, day, used)]
        rng.shuffle(firsts)
        for b in firsts[:6]:
            xa = [x for x in week.by_key[a] if x.day == day]
            xb = [x for x in week.by_key[b] if x.day == day]
            if xa[-1].start_ms + MIN_GAP_MS <= xb[0].start_ms or xb[-1].start_ms + MIN_GAP_MS <= xa[0].start_ms:
                out.append(make(a, b, day, xa, xb))
                used |= {a, b}
                break
        if len(out) == n:
            break
    return out


def _order_question(week: Week, rng: random.Random, a, b, day: int, xa: list[Narration],
                    xb: list[Narration]) -> Question:
    placed = _later_gap(week, rng, day, lambda d: True)
    elsewhere = any(x.day != day and x.start_ms < placed[1] for x in week.by_key[a] + week.by_key[b])
    scope = _scope(week, rng, day, placed[1]) if elsewhere or rng.random() < 0.5 else ""
    sa, sb = phrasing.actions_of(rng, week.action(a)), phrasing.actions_of(rng, week.action(b))
    text = phrasing.fill(rng, phrasing.ORDER, scope=scope, Scope=scope.strip()[:1].upper() + scope.strip()[1:] + ", " if scope else "",
                         a_base=sa["base"], b_past=sb["past"], b_ing=sb["ing"])
    yes = xa[-1].start_ms < xb[0].start_ms
    return _record(text, placed[1], {"kind": "yesno", "yes": yes}, [xa[0], xb[0]], action=list(a), then=list(b))


def duration(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'How long did I X?' for an X done once and lasting >= 15 s, and 'how long was I in the kitchen on D?'."""
    out = []
    singles = _candidates(week, rng, lambda k: len(week.by_key[k]) == 1 and k[0].split("-")[0] not in INSTANT
                          and week.by_key[k][0].end_ms - week.by_key[k][0].start_ms >= 15_000)
    days = sorted(week.sessions)
    rng.shuffle(days)
    for i in range(n):
        if i % 2 == 0 and singles:
            x = week.by_key[singles.pop()][0]
            placed = _later_gap(week, rng, x.day, lambda d: True)
            slots = phrasing.actions_of(rng, week.action(x.key))
            text = phrasing.fill(rng, phrasing.HOW_LONG, **slots)
            gold = {"kind": "duration", "ms": x.end_ms - x.start_ms, "rel": 0.3, "abs_s": 5}
            out.append(_record(text, placed[1], gold, [x], action=list(x.key)))
        elif days:
            day = days.pop()
            placed = _later_gap(week, rng, day, lambda d: True)
            lo, hi = week.sessions[day]
            edge = [x for x in week.all if x.day == day]
            text = phrasing.fill(rng, phrasing.SESSION, scope=_scope(week, rng, day, placed[1]))
            gold = {"kind": "duration", "ms": hi - lo, "rel": 0.15, "abs_s": 120}
            out.append(_record(text, placed[1], gold, [edge[0], max(edge, key=lambda x: x.end_ms)]))
    return out


def exists(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'Did I X on day D?': yes when X was narrated that day; no when it was narrated on other days only."""
    out = []
    for key in _candidates(week, rng, lambda k: True):
        days = sorted({x.day for x in week.by_key[key]})
        yes = rng.random() < 0.5
        alike = {(v, o) for v in week.synonyms("verb", key[0]) for o in week.synonyms("noun", key[1])}
        said = {x.day for x in week.all if (x.verb, x.noun) in alike}  # 'shut the freezer' is closing it
        pool = days if yes else [d for d in sorted(week.sessions) if d not in said and d > days[0]]
        if not pool:
            continue
        day = rng.choice(pool)
        placed = _later_gap(week, rng, day, lambda d: True)
        if placed is None or (local(placed[1]).date() - local(week.sessions[day][0]).date()).days > 6:
            continue
        slots = phrasing.actions_of(rng, week.action(key))
        text = phrasing.fill(rng, phrasing.EXISTS, scope=_scope(week, rng, day, placed[1]), **slots)
        evidence = [x for x in week.by_key[key] if x.day == day] if yes else week.by_key[key][:1]
        out.append(_record(text, placed[1], {"kind": "yesno", "yes": yes}, evidence, action=list(key)))
        if len(out) == n:
            break
    return out


def which(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'Which did I do first, X or Y?': X and Y of different things, the same day, every X before every Y."""
    def fits(a, b, day, used) -> bool:
        return a not in used and any(x.day == day for x in week.by_key[b]) and \
            not set(_noun_words(week, b[1])) & set(_noun_words(week, a[1]))

    def make(a, b, day, xa, xb) -> Question:
        first, then = (a, b) if xa[0].start_ms < xb[0].start_ms else (b, a)
        placed = _later_gap(week, rng, day, lambda d: True)
        elsewhere = any(x.day != day and x.start_ms < placed[1] for x in week.by_key[a] + week.by_key[b])
        scope = _scope(week, rng, day, placed[1]) if elsewhere else ""
        sa, sb = phrasing.actions_of(rng, week.action(a)), phrasing.actions_of(rng, week.action(b))
        text = phrasing.fill(rng, phrasing.WHICH, scope=scope, a_base=sa["base"], b_base=sb["base"],
                             a_ing=sa["ing"], b_ing=sb["ing"])
        gold = {"kind": "first", "first": _noun_words(week, first[1]), "then": _noun_words(week, then[1])}
        return _record(text, placed[1], gold, [xa[0], xb[0]], action=list(a), then=list(b))

    return _separated(week, rng, n, fits, make)


def ago(week: Week, rng: random.Random, n: int) -> list[Question]:
    """'How long ago did I X?': gold = the question's time less the newest X before it."""
    out = []
    for key in _candidates(week, rng, lambda k: True):
        day = rng.choice(sorted({x.day for x in week.by_key[key]}))
        placed = _later_gap(week, rng, day, lambda d: True)
        if placed is None:
            continue
        last = week.before(key, placed[1])[-1]
        slots = phrasing.actions_of(rng, week.action(key))
        text = phrasing.fill(rng, phrasing.AGO, **slots)
        gold = {"kind": "duration", "ms": placed[1] - last.start_ms, "rel": 0.02, "abs_s": 90}
        out.append(_record(text, placed[1], gold, [last], action=list(key)))
        if len(out) == n:
            break
    return out


def _noun_words(week: Week, noun: str) -> list[str]:
    """A noun's synonyms as an answer may say them: 'cutting board' and its head 'board'."""
    out = []
    for syn in week.synonyms("noun", noun):
        out += [phrasing.noun_text(syn), syn.split(":")[0].replace("_", " ")]
    return sorted(set(out))
