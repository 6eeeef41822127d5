"""Paraphrase templates for the EPIC-KITCHENS week's questions: the same question in other words.

A canonical question of bench/sets/epic_forms.py is filled from a template of bench/sets/phrasing.py; its
paraphrases keep every slot value it was filled with (the action's words, its object's wording and article,
the day scope) and change only the wording around them. The templates here are new (none is a template of
phrasing.py) and vary the way a held-back test would: other words for counting, for next/after and for
earlier/before, the day first, clauses swapped, casual speech, polite wrappers, lower case, no question mark.

The week's narrations are CC BY-NC: only templates live here; the paraphrased questions are generated at run
time (bench/understand.py build) into a git-ignored file.

    python bench/sets/paraphrase.py                         # checks the templates against phrasing.py
    python bench/sets/paraphrase.py --week .cache/lifelog/epic_week.json   # and paraphrases every question

Slots: base/past/pp/ing ("pick up the knife", "picked up ...", "picked up ..." (participle), "picking up ...");
for two actions a_*/b_*; obj (where); scope (" today", " yesterday", " on Tuesday" or ""), Scope ("Today, "),
day ("today", "yesterday", "on Tuesday"). A template with {Scope} or {day} is used only when the canonical
question names a day. A template starting with "~" is said in lower case throughout.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench.sets` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.sets import phrasing  # noqa: E402
from bench.sets.checker import verb_forms  # noqa: E402

LAST = ["When'd I last {base}?", "remind me when I last {past}", "Can you tell me when I last {past}?",
        "At what time did I last {base}?", "When was my last go at {ing}?", "When did I {base} for the last time?",
        "Do you know when I last {past}?",
        "~what time was it when i last {past}", "The last time I {past} - when was that?"]
WHERE = ["Where'd I put the {obj}?", "Where did the {obj} end up?", "Can you tell me where I put the {obj}?",
         "Any idea where I left the {obj}?", "Where did I last put the {obj}?", "~where did i stick the {obj}",
         "Remind me where I put the {obj}.", "The {obj} - where did I put it?"]
AFTER = ["What did I do straight after I {past}?", "What came next after I {past}?",
         "Once I had {pp}, what did I do?", "Right after I {past}, what followed?",
         "After {ing}, what was the next thing I did?", "Can you tell me what I did right after I {past}?",
         "~what'd i do after i {past}", "What was my next move once I'd {pp}?"]
BEFORE = ["What did I do prior to {ing}?", "Just before {ing}, what did I do?",
          "What did I do immediately before I {past}?", "Before I {past}, what was the last thing I did?",
          "~can you tell me what i did before i {past}", "What had I just done when I {past}?",
          "What was I doing just ahead of {ing}?"]
COUNT = ["What's the number of times I {past}{scope}?", "{Scope}how many times did I {base}?",
         "Can you tell me how many times I {past}{scope}?", "How frequently did I {base}{scope}?",
         "~number of times i {past}{scope}", "Tell me the number of times I {past}{scope}.",
         "How many times in total did I {base}{scope}?", "{Scope}how often did I {base}?",
         "how many separate times did I {base}{scope}", "How many goes did I have at {ing}{scope}?"]
ORDER = ["Did I {a_base} prior to {b_ing}{scope}?", "Was {a_ing} earlier than {b_ing}{scope}?",
         "Before I {b_past}, did I {a_base}{scope}?", "{Scope}had I {a_pp} by the time I {b_past}?",
         "Did I {a_base} ahead of {b_ing}{scope}?", "~can you tell me if i {a_past} before i {b_past}{scope}",
         "Did {a_ing} come before {b_ing}{scope}?", "{Scope}before {b_ing}, had I {a_pp}?",
         "Had I already {a_pp} when I {b_past}{scope}?"]
WHICH = ["Which happened first{scope}: {a_ing} or {b_ing}?", "{Scope}which did I do first, {a_base} or {b_base}?",
         "Did I {a_base} first or {b_base} first{scope}?", "{B_ing} or {a_ing}: which came first{scope}?",
         "Can you tell me which I did first{scope}, {a_base} or {b_base}?", "~what came first, {a_ing} or {b_ing}",
         "Which was earlier{scope}, {a_ing} or {b_ing}?", "{Scope}what did I do first: {b_base} or {a_base}?"]
EXISTS = ["{Scope}did I {base}?", "Did I {base} at any point{scope}?", "Can you check whether I {past}{scope}?",
          "Did I {base}{scope} or not?", "~any chance i {past}{scope}", "{Scope}did I {base} at all?",
          "Is there any sign that I {past}{scope}?", "Do you know if I {past}{scope}?"]
AGO = ["How long has it been since I {past}?", "How much time has passed since I last {past}?",
       "~how long since i last {past}", "Can you tell me how long ago I {past}?",
       "It's been how long since I {past}?", "How far back was it that I last {past}?",
       "When I last {past} - how long ago was that?"]
HOW_LONG = ["How much time did I spend {ing}?", "How long did it take me to {base}?",
            "Can you tell me how long I spent {ing}?", "~how long did {ing} go on for", "About how long did I {base} for?",
            "{Ing} - how long did that last?", "How long was I busy {ing}?"]
SESSION = ["{Scope}how long was I in the kitchen?", "Can you tell me how long I was in the kitchen {day}?",
           "What was my total time in the kitchen {day}?", "~how long was i in the kitchen for {day}",
           "{Scope}how much time did I spend in the kitchen altogether?",
           "How long did I spend in the kitchen in total {day}?", "How long was I in the kitchen for {day}, roughly?"]
"""The last SESSION template: 'roughly' only because the session gold's tolerance is 15%."""

NEW = {"last": [LAST], "where": [WHERE], "after": [AFTER, BEFORE], "count": [COUNT], "order": [ORDER],
       "duration": [HOW_LONG, SESSION], "exists": [EXISTS], "which": [WHICH], "ago": [AGO]}
"""Per epic_forms form, the lists of new templates (after: after and before; duration: an action, a session)."""
OLD = {"last": phrasing.LAST, "where": phrasing.WHERE, "after": phrasing.AFTER, "before": phrasing.BEFORE,
       "count": phrasing.COUNT, "order": phrasing.ORDER, "how_long": phrasing.HOW_LONG, "session": phrasing.SESSION,
       "exists": phrasing.EXISTS, "which": phrasing.WHICH, "ago": phrasing.AGO}
"""The canonical templates per sub-form, read back to recover a question's slot values."""
SUB = {"last": LAST, "where": WHERE, "after": AFTER, "before": BEFORE, "count": COUNT, "order": ORDER,
       "how_long": HOW_LONG, "session": SESSION, "exists": EXISTS, "which": WHICH, "ago": AGO}
"""The new templates per sub-form."""
_DAY = r"today|earlier today|yesterday|on (?:" + "|".join(phrasing.WEEKDAY_NAMES) + ")"
_SLOT = re.compile(r"\{(\w+)\}")


def _norm(text: str) -> str:
    return re.sub(r"[^a-z{}_ ]", "", text.lower().lstrip("~")).strip()


def check_templates() -> list[str]:
    """Problems with the templates: fewer than 6 for a form, one equal to (or, lower-cased and without
    punctuation, the same as) a phrasing.py template, a duplicate."""
    problems = []
    old = {_norm(t) for ts in OLD.values() for t in ts}
    for form, lists in NEW.items():
        for templates in lists:
            if len(templates) < 6:
                problems.append(f"{form}: only {len(templates)} templates")
            if len({_norm(t) for t in templates}) != len(templates):
                problems.append(f"{form}: duplicate templates")
            problems += [f"{form}: {t!r} is a phrasing.py template" for t in templates if _norm(t) in old]
            plain = [t for t in templates if "{Scope}" not in t and "{day}" not in t]
            if len(plain) < 5 and form in ("count", "order", "which"):
                problems.append(f"{form}: fewer than 5 templates for a question that names no day")
    return problems


def _pattern(template: str) -> re.Pattern:
    """A canonical template as a regex with one named group per slot (days constrained to day phrases)."""
    out, pos = [], 0
    for m in _SLOT.finditer(template):
        out.append(re.escape(template[pos:m.start()]))
        name = m.group(1)
        if name == "scope":
            out.append(rf"(?P<scope>(?: (?:{_DAY}))?)")
        elif name == "Scope":
            out.append(rf"(?P<Scope>(?:(?:{_DAY}), )?)")
        else:
            out.append(rf"(?P<{name}>.+?)")
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out) + r"\Z", re.I)


def sub_form(question: dict) -> str:
    """The canonical template list a question was drawn from: its form, but after/before and how_long/session
    told apart (a 'before' question's gold is the action just before it: its evidence's second event is earlier)."""
    form = question["form"]
    if form == "after":
        first, other = question["evidence"][:2]
        return "after" if other[0] >= first[0] else "before"
    if form == "duration":
        return "how_long" if question.get("action") else "session"
    return form


def read_slots(question: dict) -> dict[str, str]:
    """The slot values the canonical question was filled with, read back through its template (when several
    templates fit, the one with the most fixed words: 'at all' is not part of the action)."""
    text = question["question"]
    fits = []
    for template in OLD[sub_form(question)]:
        m = _pattern(template).match(text)
        if m:
            fits.append((len(_SLOT.sub("", template)), m.groupdict()))
    if not fits:
        raise ValueError(f"{question['id']}: no phrasing.py template reads {text!r}")
    slots = max(fits, key=lambda f: f[0])[1]
    front = slots.pop("Scope", None)
    if front:
        slots["scope"] = " " + _dayword(front[:-2])
    return slots


def _dayword(text: str) -> str:
    """A day phrase as it reads mid-sentence: 'Yesterday' -> 'yesterday', 'On Tuesday' -> 'on Tuesday'."""
    low = text.strip().lower()
    for name in phrasing.WEEKDAY_NAMES:
        low = low.replace(name.lower(), name)
    return low


def _verb(key: list[str] | tuple[str, str] | None, phrase: str) -> str:
    """The action's base verb: the annotation's verb before its particle, or the phrase's first word."""
    if key:
        return key[0].split("-")[0]
    return phrase.split()[0]


def _inflect(phrase: str, verb: str) -> dict[str, str]:
    """base/past/pp/ing of an action phrase in any one of those forms: its first word is the verb."""
    first, *rest = phrase.split()
    past, pp, ing = verb_forms(verb)
    if first.lower() not in {verb, past, pp, ing}:
        raise ValueError(f"{phrase!r} does not start with a form of {verb!r}")
    tail = " ".join(rest)
    return {form: f"{word} {tail}".strip() for form, word in
            (("base", verb), ("past", past), ("pp", pp), ("ing", ing))}


def full_slots(question: dict) -> dict[str, str]:
    """Every slot a new template may use, from the canonical question's own values."""
    raw = read_slots(question)
    scope = raw.get("scope", "") or ""
    slots: dict[str, str] = {"scope": scope}
    if scope:
        day = scope.strip()
        slots["day"] = day
        slots["Scope"] = day[:1].upper() + day[1:] + ", "
    if "obj" in raw:
        slots["obj"] = raw["obj"]
    if question["form"] in ("order", "which"):
        for side, key in (("a", question.get("action")), ("b", question.get("then"))):
            phrase = next(raw[f"{side}_{f}"] for f in ("base", "past", "ing") if raw.get(f"{side}_{f}"))
            slots |= {f"{side}_{k}": v for k, v in _inflect(phrase, _verb(key, phrase)).items()}
    else:
        phrase = next((raw[f] for f in ("base", "past", "ing") if raw.get(f)), None)
        if phrase is not None:
            slots |= _inflect(phrase, _verb(question.get("action"), phrase))
    for name in list(slots):
        if slots[name] and name[0].islower():
            slots.setdefault(name[0].upper() + name[1:], slots[name][0].upper() + slots[name][1:])
    return slots


def _fill(template: str, slots: dict[str, str]) -> str:
    text = template.lstrip("~").format(**slots)
    text = re.sub(r"\s+", " ", text).replace(" ?", "?").replace(" ,", ",").replace(" .", ".").strip()
    return text.lower() if template.startswith("~") else text


def paraphrases(question: dict, week=None, rng: random.Random | None = None, n: int = 5) -> list[dict]:
    """n paraphrases of one canonical EPIC question: the record copied (same gold, `at`, evidence), a new
    `question` from n different new templates, ids `<id>-p1`.., `canonical` = the original id. `week` (an
    epic_week.Week) is optional: when given, the action's verb is checked against the week's phrasing of it."""
    rng = rng or random.Random(question["id"])
    slots = full_slots(question)
    if week is not None and question.get("action"):
        action = week.action(tuple(question["action"]))
        if action is not None and action.verb != _verb(question["action"], slots.get("base", "x")):
            raise ValueError(f"{question['id']}: verb {action.verb!r} is not the question's")
    templates = SUB[sub_form(question)]
    usable = [t for t in templates if slots.get("scope") or ("{Scope}" not in t and "{day}" not in t)]
    rng.shuffle(usable)
    seen = {_norm(question["question"])}
    out = []
    for template in usable:
        text = _fill(template, slots)
        if _norm(text) in seen:
            continue
        seen.add(_norm(text))
        out.append({**question, "id": f"{question['id']}-p{len(out) + 1}", "question": text,
                    "canonical": question["id"], "template": template})
        if len(out) == n:
            break
    if len(out) < n:
        raise ValueError(f"{question['id']}: only {len(out)} distinct paraphrases")
    return out


def make_all(questions: list[dict], seed: int = 7, n: int = 5, week=None) -> list[dict]:
    """Paraphrases of every question, seeded per question (a question's paraphrases do not depend on the others)."""
    return [p for q in questions for p in paraphrases(q, week, random.Random(f"{seed}-{q['id']}"), n)]


def main() -> None:
    """Check the templates; with --week, paraphrase every question of a generated EPIC set and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--week", type=Path, help="A generated epic_week.json to paraphrase.")
    parser.add_argument("--out", type=Path, help="Write the paraphrases here (JSON list).")
    args = parser.parse_args()
    problems = check_templates()
    for p in problems:
        print("problem:", p)
    counts = {form: [len(t) for t in lists] for form, lists in NEW.items()}
    print("templates per form:", counts)
    if args.week:
        questions = json.loads(args.week.read_text())["questions"]
        made = make_all(questions)
        for p in made:
            print(f"{p['id']:18s} {p['question']}")
        if args.out:
            args.out.write_text(json.dumps(made, indent=1))
        print(f"{len(made)} paraphrases of {len(questions)} questions")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
