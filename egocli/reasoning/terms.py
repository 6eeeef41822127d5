"""Words for matching questions, options and events: tokens, a light stemmer, stop words, weighted overlap."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

from egocli.reasoning.medicines import KINDS

_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
STOP = frozenset(
    "a an and are as at be been being but by can could did do does doing done for from had has have having he "
    "her here hers him his how i if in into is it its itself me my myself no nor not of off on once only onto "
    "or other our ours out over own she should so some such than that the their theirs them then there these "
    "they this those through to too under until up upon us very was we were what when where which while who "
    "whom why will with would you your yours yourself which these each any all both few more most "
    "many much times time last first next ago today yesterday tonight morning afternoon evening night week "
    "video participant person user log please tell know did does something anything happen happened "
    "also just about around again still ever monday tuesday "
    "wednesday thursday friday saturday sunday earlier later recently lately total".split())
"""Words that carry no content for matching (function words, question words, time words)."""

SYNONYMS = {"meds": "medication", "medicine": "medication", "pill": "medication", "tablet": "medication",
            "doc": "doctor", "gp": "doctor", "physician": "doctor", "mum": "mother", "mom": "mother",
            "dad": "father", "telephone": "phone", "mobile": "phone", "tv": "television", "telly": "television", "fridge": "refrigerator",
            "hoover": "vacuum", "hoovering": "vacuum", "supermarket": "shop", "store": "shop",
            "grocery": "shop", "groceries": "shop"}
"""A few everyday equivalents (applied after stemming); meaning beyond these comes from the embedder."""

IRREGULAR = {"took": "take", "taken": "take", "went": "go", "gone": "go", "ate": "eat", "eaten": "eat",
             "left": "leave", "made": "make", "saw": "see", "seen": "see", "gave": "give", "given": "give",
             "got": "get", "bought": "buy", "brought": "bring", "spoke": "speak", "spoken": "speak",
             "drove": "drive", "driven": "drive", "wrote": "write", "written": "write", "ran": "run",
             "sat": "sit", "came": "come", "drank": "drink", "drunk": "drink", "fed": "feed", "met": "meet",
             "paid": "pay", "rode": "ride", "slept": "sleep", "swam": "swim", "threw": "throw", "woke": "wake",
             "wore": "wear", "worn": "wear", "rang": "ring", "told": "tell", "said": "say", "thought": "think",
             "found": "find", "kept": "keep", "heard": "hear", "held": "hold", "lost": "lose", "sent": "send",
             "spent": "spend", "stood": "stand", "understood": "understand", "won": "win", "cut": "cut",
             "shut": "shut", "hid": "hide", "hidden": "hide", "began": "begin", "begun": "begin",
             "broke": "break", "broken": "break", "chose": "choose", "fell": "fall", "felt": "feel",
             "forgot": "forget", "froze": "freeze", "frozen": "freeze", "grew": "grow", "hung": "hang",
             "knew": "know", "led": "lead", "lent": "lend", "meant": "mean", "rose": "rise", "sang": "sing",
             "shook": "shake", "sold": "sell", "stole": "steal", "swept": "sweep", "taught": "teach",
             "tore": "tear"}
"""Irregular verb forms mapped to their base form before stemming ('took my pills' ~ 'take a pill')."""

UNSTEMMED = frozenset({"clothes", "glasses", "scissors", "trousers", "jeans", "pants", "shorts", "tongs", "news"})
"""Plurals that name another thing than their singular ('glasses' are not a glass, 'clothes' not a cloth)."""

LIGHT = frozenset({"go", "tak", "hav", "mak", "get", "put", "use", "start", "finish", "com", "keep", "do",
                   "appointment", "visit", "trip"})
"""Stems of light verbs, which say little about which events match ('go to the pharmacy'), and of nouns that
only say an occasion ('the GP appointment' is the GP)."""


NUMBERS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
"""Number words folded to digits, so that 'level four, bay 47' and 'level 4 bay 47' agree."""


def stem(word: str) -> str:
    """A light English stemmer: plurals, -ing, -ed, a final -e and doubled consonants go, so that
    'added'/'adding'/'add', 'tomatoes'/'tomato', 'chopped'/'chop', 'baked'/'bake' agree."""
    w = IRREGULAR.get(word.lower(), word.lower())
    if w in UNSTEMMED:
        return w
    if len(w) > 4 and w.endswith(("ies", "ied")):
        w = w[:-3] + "y"
    elif len(w) > 4 and w.endswith("sses"):
        w = w[:-2]
    elif len(w) > 4 and w.endswith("oes"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 2 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


_MEDICINE = {name: [*(stem(w) for w in kind.split()), "medication"] for kind, names in KINDS.items()
             for name in names}
"""A medicine's name -> the terms of its kind ('lisinopril' -> blood, pressur, medication)."""
_KIND_TERMS = {tuple(stem(w) for w in kind.split()): names for kind, names in KINDS.items() if kind != "water"}


def medicines_named(stems: Iterable[str]) -> list[str]:
    """The medicines of the kinds a text names by purpose ('blood pressure tablet' -> lisinopril, ...): words
    to search for beside the text's own ('water' names no kind on its own: a glass of water)."""
    have = set(stems)
    return [name for kind, names in _KIND_TERMS.items() if set(kind) <= have for name in names]


def words(text: str) -> list[str]:
    """Lower-case word tokens (possessive 's dropped)."""
    return [t.split("'")[0] for t in _TOKEN.findall(text.lower())]


def stem_all(text: str) -> list[str]:
    """Every content term of a text, repeats kept (for counting)."""
    out = []
    for w in words(text):
        if w.isdigit() or w in NUMBERS:  # numbers are terms: which bay, which floor, how many
            out.append(str(int(w)) if w.isdigit() and len(w) < 6 else NUMBERS.get(w, w))
            continue
        if w in STOP or len(w) < 2:
            continue
        s = stem(w)
        out.append(SYNONYMS.get(w, SYNONYMS.get(s, s)))
        out.extend(_MEDICINE.get(w, ()))  # 'lisinopril' is also a blood pressure medication
    return out


def terms(text: str) -> list[str]:
    """Content terms of a text, stemmed and with synonyms folded, in order of first appearance."""
    return list(dict.fromkeys(stem_all(text)))


def weights_by_spread(sets: Iterable[set[str]], vocabulary: Iterable[str]) -> dict[str, float]:
    """Weights for the vocabulary's terms that favour those found in few of the sets (the evidence of few
    options): log((n + 1) / (k + 1)) + 0.1 for a term found in k of n sets. A term every option shares
    (the recipe's name in each option's events) then barely counts."""
    sets = list(sets)
    n = len(sets)
    return {t: math.log((n + 1) / (sum(t in s for s in sets) + 1)) + 0.1 for t in vocabulary}


def recall(query: Iterable[str], found: set[str], weights: Mapping[str, float] | None = None) -> float:
    """Weighted share of the query's terms that are in `found` (0 for an empty query)."""
    query = list(query)
    total = sum((weights or {}).get(t, 1.0) for t in query)
    if total <= 0:
        return 0.0
    return sum((weights or {}).get(t, 1.0) for t in query if t in found) / total


def precision(query: set[str], text_terms: list[str]) -> float:
    """Share of a text's terms that the query names: how specifically the text is about the query."""
    if not text_terms:
        return 0.0
    return sum(t in query for t in text_terms) / len(text_terms)
