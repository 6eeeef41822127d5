"""Questions over the constructed week, declared with the regexes of the events they rest on; gold answers are
computed from the events (bench/sets/lifeweek.py builds and writes them)."""

from __future__ import annotations

import itertools
import random
from datetime import datetime, timedelta

from bench.sets.lifeweek import Ev, matches

SUN_NIGHT = "2026-11-29T21:30"

# Open questions: (id, form, question, asked at, gold rule). Rules: ("last", pattern, modality, tolerance_s);
# ("words", groups, evidence pattern); ("count", pattern, modality, day or None); ("order", a, b, day or None);
# ("span", first pattern, last pattern, day, rel).
OPEN = [
    ("life-last-01", "last", "When did I last take my blood pressure tablet?", SUN_NIGHT,
     ("last", r"Lisinopril (tablet|10 mg)", "visual", 60)),
    ("life-last-02", "last", "when did i last take an antibiotic", "2026-11-28T15:00",
     ("last", r"amoxicillin capsule", "visual", 60)),
    ("life-last-03", "last", "When was the last time I spoke to Mum?", "2026-11-26T21:00",
     ("last", r"\bMum\b", "speech", 180)),
    ("life-last-04", "last", "When did I last take the tram?", "2026-11-27T20:00",
     ("last", r"\btram (number )?4\b", "visual", 120)),
    ("life-last-05", "last", "When did I last see Jo?", "2026-11-29T20:00", ("last", r"\bJo\b", "visual", 60)),
    ("life-last-06", "last", "when did I last have a flat white", "2026-11-25T10:00",
     ("last", r"flat white", "visual", 60)),
    ("life-last-07", "last", "When did I last ride my bike?", "2026-11-26T09:00",
     ("last", r"\bcycling\b", "visual", 60)),
    ("life-last-08", "last", "When did I last do my knee exercises?", SUN_NIGHT, ("last", r"squats", "visual", 60)),
    ("life-where-01", "where", "Where did I put the spare key?", "2026-11-23T22:00",
     ("words", [["bowl"]], r"spare key into the blue ceramic bowl")),
    ("life-where-02", "where", "where is my spare key now?", "2026-11-28T08:00",
     ("words", [["Mrs Hale", "Hale", "flat 3", "neighbour"]], r"handing it to Mrs Hale")),
    ("life-where-03", "where", "Where did I leave my reading glasses?", "2026-11-26T20:30",
     ("words", [["meeting room"]], r"reading glasses down on the meeting room 2 table")),
    ("life-where-04", "where", "Where did I park the car at the furniture store?", "2026-11-28T23:00",
     ("words", [["level 2", "level two", "second level"], ["row d"]], r"parking on level 2, row D")),
    ("life-where-05", "where", "Where's the receipt for the bookshelf?", SUN_NIGHT,
     ("words", [["drawer"]], r"receipt into the kitchen drawer")),
    ("life-where-06", "where", "where did i put my passport", "2026-11-26T08:00",
     ("words", [["drawer"], ["desk"]], r"putting the passport inside")),
    ("life-where-07", "where", "Where did I leave my umbrella?", "2026-11-24T19:00",
     ("words", [["noodle bar", "noodle", "restaurant"]], r"umbrella hooked on the chair")),
    ("life-where-08", "where", "Where's my laptop charger?", "2026-11-24T12:00",
     ("words", [["meeting room"]], r"charger is still plugged in under meeting room 2")),
    ("life-after-01", "after", "Where did I go after the GP appointment on Tuesday?", "2026-11-24T22:00",
     ("words", [["pharmacy", "chemist"]], r"Mill Road Pharmacy|prescription over the pharmacy counter")),
    ("life-after-02", "after", "After the plumber left on Saturday, where did I go?", "2026-11-28T22:00",
     ("words", [["supermarket", "FreshWay"]], r"supermarket car park")),
    ("life-after-03", "after", "What did I do after the physio on Friday?", "2026-11-27T21:00",
     ("words", [["sandwich", "bench", "amoxicillin", "antibiotic", "capsule"]], r"sandwich on a bench")),
    ("life-after-04", "after", "What did I do right after calling the plumber?", "2026-11-25T23:00",
     ("words", [["amoxicillin", "capsule", "antibiotic", "pasta bake", "dinner"]], r"pasta bake")),
    ("life-after-05", "after", "What did I do after I parked at the furniture store?", "2026-11-28T23:00",
     ("words", [["showroom", "bookshelves"]], r"furniture store showroom")),
    ("life-after-06", "after", "what did I do before going home on Monday evening", "2026-11-23T22:00",
     ("words", [["key", "cobbler"]], r"cutting a brass key")),
    ("life-count-01", "count", "How many amoxicillin capsules did I take yesterday?", "2026-11-26T21:00",
     ("count", r"amoxicillin capsule", "visual", "2026-11-25")),
    ("life-count-02", "count", "How many antibiotics have I taken in total?", SUN_NIGHT,
     ("count", r"amoxicillin capsule", "visual", None)),
    ("life-count-03", "count", "How many flat whites did I have this week?", "2026-11-28T12:00",
     ("count", r"flat white", "visual", None)),
    ("life-count-04", "count", "How many times did I take the tram this week?", "2026-11-27T22:00",
     ("count", r"\btram (number )?4\b", "visual", None)),
    ("life-count-05", "count", "How many times did I do my squats?", SUN_NIGHT, ("count", r"squats", "visual", None)),
    ("life-count-06", "count", "How many appointments did I have this week?", SUN_NIGHT,
     ("count", r"consulting room|dentist's chair|physio room", "visual", None)),
    ("life-count-07", "count", "how many times did I take my blood pressure pill this week", "2026-11-28T22:00",
     ("count", r"Lisinopril (tablet|10 mg)", "visual", None)),
    ("life-order-01", "order", "Did I go to the dentist before the GP this week?", "2026-11-26T21:00",
     ("order", r"dentist's chair", r"consulting room", None)),
    ("life-order-02", "order", "Did I send the report draft before the client call on Thursday?", "2026-11-27T21:00",
     ("order", r"Sent: Quarterly report — draft", r"video call on the laptop with the client", "2026-11-26")),
    ("life-order-03", "order", "Did I go to the supermarket before the furniture store?", "2026-11-28T23:00",
     ("order", r"supermarket car park", r"furniture store showroom", None)),
    ("life-order-04", "order", "did I get my glasses back before I dropped off the suit?", "2026-11-27T20:00",
     ("order", r"picking up my reading glasses", r"suit over the dry cleaner's counter", None)),
    ("life-order-05", "order", "Did I call Sam before lunch at Mum's?", SUN_NIGHT,
     ("order", r"hey Sam", r"roast chicken, Mum and Jo", None)),
    ("life-order-06", "order", "Did I get my umbrella back before the dentist?", "2026-11-25T23:00",
     ("order", r"holding the black umbrella again", r"dentist's chair", None)),
    ("life-order-07", "order", "Did Priya tell me about the new deadline before Tom asked for a draft?",
     "2026-11-23T22:00", ("order", r"Priya: the client moved", r"Tom: if the report", None)),
    ("life-duration-01", "duration", "How long was I at the dentist?", "2026-11-25T23:00",
     ("span", r"Brightsmile Dental — reception", r"paying forty-five pounds", "2026-11-25", 0.3)),
    ("life-duration-02", "duration", "How long did the train to Ely take?", SUN_NIGHT,
     ("span", r"boarding the 11:42 train", r"alight here for the cathedral", "2026-11-29", 0.25)),
    ("life-duration-03", "duration", "How long did it take me to build the bookshelf?", "2026-11-28T23:00",
     ("span", r"flat-pack pieces, an Allen key", r"assembled oak bookshelf", "2026-11-28", 0.25)),
    ("life-duration-04", "duration", "How long was the plumber here?", "2026-11-28T23:00",
     ("span", r"Quickfix Plumbing jacket", r"paying the plumber", "2026-11-28", 0.3)),
]


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _evidence(evs: list[Ev]) -> list[list[str]]:
    return [[e.start.isoformat(), e.content] for e in evs]


def _need(found: list[Ev], qid: str, what: str) -> list[Ev]:
    if not found:
        raise ValueError(f"{qid}: no event matches {what!r}")
    return found


def _gold(events: list[Ev], qid: str, at: datetime, rule: tuple) -> tuple[dict, list[Ev]]:
    kind = rule[0]
    if kind == "last":
        hit = _need(matches(events, rule[1], rule[2], before=at), qid, rule[1])[-1]
        return {"kind": "time", "time": hit.start.isoformat(), "tolerance_s": rule[3]}, [hit]
    if kind == "words":
        return {"kind": "words", "all": rule[1]}, _need(matches(events, rule[2], before=at), qid, rule[2])
    if kind == "count":
        found = _need(matches(events, rule[1], rule[2], rule[3], before=at), qid, rule[1])
        return {"kind": "count", "n": len(found)}, found
    if kind == "order":
        a = _need(matches(events, rule[1], day=rule[3], before=at), qid, rule[1])
        b = _need(matches(events, rule[2], day=rule[3], before=at), qid, rule[2])
        if not (a[-1].start < b[0].start or b[-1].start < a[0].start):
            raise ValueError(f"{qid}: the two actions interleave")
        return {"kind": "yesno", "yes": a[0].start < b[0].start}, [a[0], b[0]]
    first = _need(matches(events, rule[1], day=rule[3], before=at), qid, rule[1])[0]
    last = _need(matches(events, rule[2], day=rule[3], before=at), qid, rule[2])[-1]
    ms = int((last.start - first.start).total_seconds() * 1000)
    return {"kind": "duration", "ms": ms, "rel": rule[4], "abs_s": 120}, [first, last]


def open_questions(events: list[Ev]) -> list[dict]:
    """The open questions with gold answers computed from the events."""
    out = []
    for qid, form, question, at, rule in OPEN:
        gold, evidence = _gold(events, qid, _at(at), rule)
        out.append({"id": qid, "form": form, "question": question, "at": at, "gold": gold,
                    "evidence": _evidence(evidence)})
    return out


def multiple_choice(events: list[Ev], rng: random.Random) -> dict:
    """The multiple-choice questions in HD-EPIC's shape, keyed by id, options shuffled with a fixed seed."""
    from bench.sets import lifeweek_mcq

    out = {}
    for qid, question, at, spec in lifeweek_mcq.SPANS:
        out[qid] = _span_question(events, rng, qid, question, at, *spec)
    for qid, question, at, options, pattern in lifeweek_mcq.THINGS:
        evidence = _need(matches(events, pattern, before=_at(at)), qid, pattern)
        out[qid] = _shuffled(rng, question, at, "thing", list(options), 0, evidence)
    for qid, question, at, items, day in lifeweek_mcq.ORDERS:
        out[qid] = _order_question(events, rng, qid, question, at, items, day)
    return out


def _shuffled(rng: random.Random, question: str, at: str, form: str, options: list, correct: int,
              evidence: list[Ev]) -> dict:
    order = list(range(len(options)))
    rng.shuffle(order)
    return {"inputs": {}, "question": question, "choices": [options[i] for i in order],
            "correct_idx": order.index(correct), "at": at, "form": form, "evidence": _evidence(evidence)}


def _floor5(t: datetime) -> datetime:
    return t.replace(minute=t.minute - t.minute % 5, second=0)


def _span_text(lo: datetime, hi: datetime, style: str) -> str:
    clock = f"{lo:%H:%M}", f"{hi:%H:%M}"
    if style == "range":
        return f"{clock[0]}-{clock[1]}"
    if style == "words":
        return f"from {clock[0]} to {clock[1]}"
    return f"{lo:%A} {clock[0]}-{clock[1]}"


def _span_question(events: list[Ev], rng: random.Random, qid: str, question: str, at: str, pattern: str,
                   day: str | None, style: str) -> dict:
    """Gold span around the first event matching on `day`; distractor spans around other scripted events, on
    the same day (styles 'range', 'words') or any day (style 'day', whose options name the weekday)."""
    hit = _need(matches(events, pattern, day=day, before=_at(at)), qid, pattern)[0]
    length = timedelta(minutes=rng.choice([10, 15, 20]))
    lo = _floor5(hit.start) - timedelta(minutes=rng.choice([0, 5]))
    spans = [(lo, lo + length)]
    pool = [e for e in events if e.scripted and 6 <= e.start.hour <= 22 and e.start < _at(at)
            and (style == "day" or e.start.date() == hit.start.date())]
    rng.shuffle(pool)
    same = matches(events, pattern)
    for e in pool:
        start = _floor5(e.start) - timedelta(minutes=rng.choice([0, 5]))
        clash = any(start - timedelta(minutes=2) <= m.start <= start + length + timedelta(minutes=2) for m in same)
        if not clash and all(abs((start - s).total_seconds()) >= 45 * 60 for s, _ in spans):
            spans.append((start, start + length))
        if len(spans) == 5:
            break
    if len(spans) < 5:
        raise ValueError(f"{qid}: not enough distractor spans")
    return _shuffled(rng, question, at, "span", [_span_text(a, b, style) for a, b in spans], 0, [hit])


def _order_question(events: list[Ev], rng: random.Random, qid: str, question: str, at: str,
                    items: list[tuple[str, str]], day: str | None) -> dict:
    """Options are orders of the items; the right one is the order of each item's first matching event."""
    firsts = [(_need(matches(events, pattern, day=day, before=_at(at)), qid, pattern)[0], name)
              for name, pattern in items]
    truth = [name for _, name in sorted(firsts, key=lambda p: p[0].start)]
    if len({e.start for e, _ in firsts}) != len(firsts):
        raise ValueError(f"{qid}: two items at the same time")
    others = [list(p) for p in itertools.permutations(truth) if list(p) != truth]
    options = [truth, *rng.sample(others, 4)]
    return _shuffled(rng, question, at, "order", options, 0, [e for e, _ in sorted(firsts, key=lambda p: p[0].start)])
