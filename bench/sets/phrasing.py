"""Hand-written question phrasings and the English needed to fill them (verb forms, plurals, day words).

Each form has several phrasings of the kind people type or say: paraphrases, a plural for a singular, a short
name for a longer one, lower case without a question mark. Nothing here names a data set."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from bench.sets.checker import plural, verb_forms

WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

LAST = ["When did I last {base}?", "When was the last time I {past}?", "last time I {past}?",
        "What time did I last {base}?", "When did I {base} most recently?", "when did i last {base}"]
WHERE = ["Where did I put the {obj}?", "Where did I leave my {obj}?", "where did I put the {obj} last",
         "Where have I put the {obj}?", "Where did I put my {obj} down?", "where did i leave the {obj}"]
AFTER = ["What did I do after I {past}?", "What did I do right after {ing}?", "After I {past}, what did I do next?",
         "What was the next thing I did after I {past}?", "what did I do just after I {past}"]
BEFORE = ["What did I do just before I {past}?", "What had I done right before {ing}?",
          "what did i do before i {past}"]
COUNT = ["How many times did I {base}{scope}?", "How often did I {base}{scope}?",
         "How many times have I {past}{scope}?", "how many times did i {base}{scope}",
         "Count how many times I {past}{scope}."]
ORDER = ["Did I {a_base} before I {b_past}{scope}?", "Did I {a_base} before {b_ing}{scope}?",
         "{Scope}did I {a_base} before I {b_past}?", "did i {a_base} before {b_ing}{scope}"]
EXISTS = ["Did I {base}{scope}?", "Have I {past}{scope}?", "did i {base}{scope}", "Did I {base} at all{scope}?"]
WHICH = ["Which did I do first, {a_base} or {b_base}{scope}?", "What did I do first: {a_base} or {b_base}?",
         "did I {a_base} or {b_base} first{scope}", "Which came first, {a_ing} or {b_ing}?"]
AGO = ["How long ago did I {base}?", "how long ago did i last {base}", "How long ago was it that I {past}?"]
HOW_LONG = ["How long did I {base} for?", "How long did {ing} take me?", "For how long did I {base}?",
            "how long was I {ing}"]
SESSION = ["How long was I in the kitchen{scope}?", "How much time did I spend in the kitchen{scope}?",
           "how long did I spend in the kitchen{scope}"]


def noun_text(noun: str) -> str:
    """An annotated noun as words: 'board:cutting' -> 'cutting board', 'tomato:sun:dried' -> 'sun dried tomato'."""
    head, *mods = noun.split(":")
    return " ".join([*mods, head]).replace("_", " ")


@dataclass(frozen=True)
class Action:
    """A verb (with an optional particle) and its object, as a question says it."""

    verb: str
    """Base verb ('pick')."""
    particle: str
    """'up', 'on', ... or ''."""
    noun: str
    """Object in words ('cutting board')."""
    short: str | None = None
    """A shorter name that is not ambiguous in the log ('board'), if any."""
    countable: bool = False
    """Whether a plural reads naturally (the log itself uses it)."""

    def obj(self, rng: random.Random, many: bool = False) -> str:
        """The object: its full or short name, sometimes plural (when `many` allows)."""
        name = self.short if self.short and rng.random() < 0.25 else self.noun
        if many and self.countable and rng.random() < 0.4:
            words = name.split()
            name = " ".join([*words[:-1], plural(words[-1])])
        return name

    def phrase(self, form: str, obj: str, article: str = "the") -> str:
        """'pick up the knife' (form 'base'), 'picked up the knife' ('past'), 'picking up the knife' ('ing')."""
        past, _, ing = verb_forms(self.verb)
        verb = {"base": self.verb, "past": past, "ing": ing}[form]
        words = [verb, self.particle, article, obj] if self.particle else [verb, article, obj]
        return " ".join(w for w in words if w)


def fill(rng: random.Random, templates: list[str], **slots: str) -> str:
    """One template, seeded, with its slots filled."""
    return rng.choice(templates).format(**slots)


def day_phrase(day: date, asked: date, rng: random.Random) -> str:
    """How a person names a day from the day they ask: ' today', ' yesterday', ' on Tuesday' (within 6 days)."""
    back = (asked - day).days
    if back == 0:
        return rng.choice([" today", " earlier today"])
    if back == 1:
        return " yesterday"
    if not 1 < back < 7:
        raise ValueError(f"{day} is not within the 6 days before {asked}")
    return " on " + WEEKDAY_NAMES[day.weekday()]


def actions_of(rng: random.Random, action: Action, many: bool = False, article: str | None = None) -> dict[str, str]:
    """The slots base/past/ing for an action, with one object wording shared by all three."""
    obj = action.obj(rng, many)
    art = article or rng.choice(["the", "the", "my"])
    return {form: action.phrase(form, obj, art) for form in ("base", "past", "ing")}
