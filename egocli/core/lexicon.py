"""The lexicon: egocli's words in one data file (core/data/lexicon.toml), read once; the one tokenizer and
stemmer every matcher uses; and the rewriting of everyday question phrasings into the words the question forms
are written in. Modules that name a word list (terms, actions, scope, timephrases, words) take it from here."""

from __future__ import annotations

import re
import unicodedata
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Lexicon:
    """The lexicon's lists, tables and rules, compiled."""

    rewrites: tuple[tuple[re.Pattern[str], str], ...]
    """Question phrasings -> canonical words, applied in order."""
    words: dict[str, frozenset[str]]
    """Word lists by name: filler, indefinite, plan_light."""
    stopwords: dict[str, frozenset[str]]
    """Stop-word lists by use: search, citation, question, request, match."""
    synonyms: dict[str, str]
    """Everyday equivalents, after stemming ('meds' -> 'medication')."""
    irregular: dict[str, str]
    """Irregular verb forms -> base form."""
    unstemmed: frozenset[str]
    """Plurals that are not their singular ('glasses')."""
    light: frozenset[str]
    """Stems of light verbs and occasion nouns."""
    numbers: tuple[str, ...]
    """Number words from zero, in order."""
    medicines: dict[str, tuple[str, ...]]
    """A medicine kind's words -> its medicines."""
    verbs: dict[str, Any]
    """Verb classes (list of lines) and the word sets of phrasal verbs: particles, prepositions, ..."""
    time: dict[str, Any]
    """Weekdays, months, ordinal days of the month, parts and moments of the day, quantities, duration units."""
    kinds: dict[str, Any]
    """Nouns that name a kind of event."""
    visits: dict[str, tuple[str, ...]]
    """Cues of arriving somewhere and of leaving it, the words of home, the verbs of moving (arrive, leave)."""
    money: dict[str, Any]
    """How money is said: tens (in order from twenty), currencies (word -> sign), small_change."""
    travel: dict[str, tuple[str, ...]]
    """Ways of getting somewhere, as said in an answer ('by bus') -> the phrases of a narration that show it."""
    meals: dict[str, Any]
    """Meals: hours (meal -> (first hour, hour after the last)) and cues (what shows a meal made or eaten)."""
    manner: dict[str, str]
    """How an act is asked to have been done ('on time') -> what a line says when it was not (a pattern)."""
    outings: dict[str, tuple[str, ...]]
    """What a frame shows at home (home_rooms) and out of doors (outdoors, from_outside)."""
    answers: dict[str, tuple[str, ...]]
    """Openings of a question by the kind of answer it asks for (person, number, date) and of one about something
    to come (coming; not_coming: words that undo it)."""


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@cache
def lexicon() -> Lexicon:
    """The lexicon (read from the package's data file once per process)."""
    raw = tomllib.loads(resources.files("egocli.core").joinpath("data/lexicon.toml").read_text(encoding="utf-8"))
    rules = tuple((re.compile(pattern), replacement) for pattern, replacement in raw["rewrite"]["rules"])
    verbs = {k: (v if k == "classes" else _words(v)) for k, v in raw["verbs"].items()}
    time = {**raw["time"], "weekdays": tuple(raw["time"]["weekdays"].split()),
            "months": tuple(raw["time"]["months"].split()), "ordinals": tuple(raw["time"]["ordinals"].split()),
            "short_alone": tuple(raw["time"]["short_alone"].split()),
            "past_after": tuple(w.replace("_", " ") for w in raw["time"]["past_after"].split()),
            "parts": {k: tuple(v) for k, v in raw["time"]["parts"].items()},
            "moments": {k: tuple(v) for k, v in raw["time"]["moments"].items()}}
    return Lexicon(rules, {k: _words(v) for k, v in raw["words"].items()},
                   {k: _words(v) for k, v in raw["stopwords"].items()}, dict(raw["synonyms"]), dict(raw["irregular"]),
                   _words(raw["stems"]["unstemmed"]), _words(raw["stems"]["light"]),
                   tuple(raw["stems"]["numbers"].split()),
                   {kind: tuple(names.split()) for kind, names in raw["medicines"].items()}, verbs, time,
                   dict(raw["kinds"]), _visits(raw["visits"]),
                   {"tens": tuple(raw["money"]["tens"].split()), "currencies": dict(raw["money"]["currencies"]),
                    "small_change": _words(raw["money"]["small_change"]), "between": dict(raw["money"]["between"]), "debts": dict(raw["money"]["debts"])},
                   {k: tuple(v) for k, v in raw["travel"].items()},
                   {"hours": {k: tuple(v) for k, v in raw["meals"]["hours"].items()},
                    "cues": tuple(raw["meals"]["cues"]), "not_food": tuple(raw["meals"]["not_food"])}, dict(raw["manner"]),
                   {k: tuple(v) for k, v in raw["outings"].items()},
                   {k: tuple(v) for k, v in raw["answers"].items()})


def _visits(raw: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    """The [visits] table, its arrivals and departures widened by each verb of getting about with each way in or
    out ('cycling' and 'out of': 'cycling out of the car park' is a departure)."""
    table = {k: tuple(v) for k, v in raw.items()}
    for kind, ways in (("arrive", "ways_in"), ("leave", "ways_out")):
        table[kind] += tuple(f"{mover} {way}" for mover in table["movers"] for way in table[ways])
    return table


_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """Lower-case word tokens (possessive 's dropped, a curly apostrophe read as one), accents folded ('café' is
    'cafe', 'Zoë' is 'zoe'): the one tokenizer of egocli's matchers."""
    lowered = text.lower() if text.isascii() else fold(text.lower().replace("\u2019", "'"))
    return [t.split("'")[0] for t in _TOKEN.findall(lowered)]


def fold(text: str) -> str:
    """A text with its letters' accents dropped ('café' -> 'cafe'); other characters as they are."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def stem(word: str) -> str:
    """A light English stemmer: plurals, -ing, -ed, a final -e and doubled consonants go, so that
    'added'/'adding'/'add', 'tomatoes'/'tomato', 'chopped'/'chop', 'baked'/'bake' agree."""
    lex = lexicon()
    w = lex.irregular.get(word.lower(), word.lower())
    if w in lex.unstemmed:
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


def phrases(*names: str) -> list[str]:
    """The phrases of the named word lists ('_' joins a phrase's words: 'change_of_plan'), longest first."""
    said = {w.replace("_", " ") for name in names for w in lexicon().words[name]}
    return sorted(said, key=lambda w: (-len(w), w))


def verb_keys(entries: tuple[str, ...] | list[str]) -> frozenset[str]:
    """Verbs of a word list ('come_home', 'make_it') with their first word stemmed, as a question's first word is
    before it is looked up ('come home' is 'com_home')."""
    return frozenset("_".join([stem(verb.split("_")[0]), *verb.split("_")[1:]]) for verb in entries)


@cache
def any_of(*names: str) -> re.Pattern[str]:
    """A pattern that finds any phrase of the named word lists as whole words ('change of plan', 'instead')."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, phrases(*names))) + r")\b")


def apostrophes(text: str) -> str:
    """Contractions typed without their apostrophe given it back ('whats on tuesday' -> "what's on tuesday")."""
    for pattern, replacement in _contractions():
        text = pattern.sub(replacement, text)
    return text


@cache
def _contractions() -> tuple[tuple[re.Pattern[str], str], ...]:
    raw = tomllib.loads(resources.files("egocli.core").joinpath("data/lexicon.toml").read_text(encoding="utf-8"))
    return tuple((re.compile(p), r.replace("\\x27", "'")) for p, r in raw["contractions"]["rules"])


def rewrite(question: str) -> str:
    """A question in lower case with its phrasing rewritten to the canonical words, spaces collapsed."""
    text = re.sub(r"\s+", " ", question.strip().lower().replace("\u2019", "'"))
    for _ in range(3):  # until nothing changes: a rule may need what a later one wrote
        before = text
        for pattern, replacement in lexicon().rewrites:
            text = re.sub(r"\s+", " ", pattern.sub(replacement, text))
        if text == before:
            break
    return text.strip()
