"""Words for matching questions, options and events: tokens, a light stemmer, stop words, weighted overlap."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from contextvars import ContextVar

from egocli.core.lexicon import lexicon, stem, words  # noqa: F401 (stem and words: the one tokenizer, here too)

_LEX = lexicon()
STOP = _LEX.stopwords["match"]
"""Words that carry no content for matching (function words, question words, time words)."""
SYNONYMS = dict(_LEX.synonyms)
"""A few everyday equivalents (applied after stemming); meaning beyond these comes from the embedder."""
_VERBS = {w.replace("_", " ") for line in _LEX.verbs["classes"] for w in line.split()}
for _word in set(_LEX.synonyms.values()) - _VERBS:  # a word synonyms fold to folds itself ('tyre', stem 'tyr', is
    SYNONYMS.setdefault(stem(_word), _word)        # 'tyre' as 'tire' is); a verb keeps its stem, its class's key
IRREGULAR = _LEX.irregular
"""Irregular verb forms mapped to their base form before stemming ('took my pills' ~ 'take a pill')."""
UNSTEMMED = _LEX.unstemmed
"""Plurals that name another thing than their singular ('glasses' are not a glass, 'clothes' not a cloth)."""
LIGHT = _LEX.light
"""Stems of light verbs ('go to the pharmacy') and of nouns that only say an occasion ('the GP appointment')."""
NUMBERS = {w: str(i) for i, w in enumerate(_LEX.numbers)}
"""Number words folded to digits, so that 'level four, bay 47' and 'level 4 bay 47' agree."""
KINDS = _LEX.medicines
"""Common medicines by what they are for (a kind's words -> its medicines): 'my blood pressure tablet' finds
'Lisinopril 10 mg', as people often ask by purpose while a packet or a pharmacist names the drug."""


_MEDICINE: dict[str, list[str]] = {}
for _kind, _names in KINDS.items():  # a medicine of two kinds ('statin', 'cholesterol') has the terms of both
    for _name in _names:
        _MEDICINE[_name] = list(dict.fromkeys([*_MEDICINE.get(_name, []), *(stem(w) for w in _kind.split()),
                                               "medication"]))
"""A medicine's name -> the terms of its kind ('lisinopril' -> blood, pressur, medication)."""
_KIND_TERMS = {tuple(stem(w) for w in kind.split()): names for kind, names in KINDS.items() if kind != "water"}


_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][\w'\u2019]+(?: (?:&|and|of|the) [A-Z][\w'\u2019]+| [A-Z][\w'\u2019]+)*")
"""A proper name inside a sentence, not its first word ('walking into Clip & Curl', 'the Crown pub')."""


_CALENDAR = frozenset(w for w in (*_LEX.time["weekdays"], *_LEX.time["months"]) for w in (w, w[:3], w[:4]))
"""Days and months, whole and cut short ('THU', 'Dec'): capitalised, but a time, no name of a place or person."""


def names(text: str) -> set[str]:
    """The proper names a text holds past its first word, of three letters or more ('Crown', 'Clip & Curl'),
    less the days and months ('the THU morning compartment' names none)."""
    return {n for n in _NAME.findall(text) if len(n) > 2 and n.lower() not in _CALENDAR}


def clauses(text: str) -> list[str]:
    """A text cut at its punctuation into clauses ('lunch is done. I need to call the pharmacy': two); a text
    that opens with punctuation opens with an empty clause."""
    return _CLAUSE.split(text)


def parts(text: str) -> list[str]:
    """A text's clauses cut again at a spaced dash, as a label or a sign runs its fields together ('pharmacy label
    - FERROUS FUMARATE - Take ONE tablet daily')."""
    return [part for clause in clauses(text) for part in _DASH.split(clause)]


_CLAUSE = re.compile(r"[,;.:!?]+\s*")
_DASH = re.compile(r"\s+[\u2014\u2013-]\s+")


def is_medicine(word: str) -> bool:
    """Whether a word names a medicine the lexicon knows ('levothyroxine'): a medication, as a thing acted on."""
    return word.lower() in _MEDICINE


def medicinal(stems: list[str]) -> bool:
    """Whether stemmed words name a medicine ('medication' for tablets and pills, a drug's name, or a kind by purpose:
    'blood pressure tablet')."""
    return "medication" in stems or any(is_medicine(t) for t in stems) or bool(medicines_named(stems))


def medicines_named(stems: Iterable[str]) -> list[str]:
    """The medicines of the kinds a text names by purpose ('blood pressure tablet' -> lisinopril, ...): words
    to search for beside the text's own ('water' names no kind on its own: a glass of water)."""
    have = set(stems)
    return [name for kind, names in _KIND_TERMS.items() if set(kind) <= have for name in names]




def gerund(word: str) -> bool:
    """Whether a word is a verb's -ing form: 'reading', 'being'; not 'ring', 'bring', 'thing' (no vowel before
    the -ing, so no verb to take it from)."""
    return word.endswith("ing") and bool(re.search(r"[aeiouy]", word[:-3]))


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


OTHERS_POSSESSIVES = _LEX.words["others_possessives"]
"""Words that make what follows someone else's ('her mum', 'his tablets')."""


def someone_elses(token: str) -> bool:
    """Whether a word, as written (lower case, 's kept), makes what follows it someone else's: 'her', 'his', a
    name's 's ("Dean's keys"); not a word that only takes 's ('it's Mum')."""
    token = token.strip(",.;:!?()\"'").replace("\u2019", "'")
    return token in OTHERS_POSSESSIVES or (token.endswith("'s") and token[:-2] not in STOP)


def speaker(line: str) -> str:
    """Who a transcript or message line says is speaking, as written ('Debbie: Hello' -> 'Debbie'), else '': a
    label of one to three words before a colon, capitalised, that is no sound ('(radio) ...') and not the wearer's
    own ('Me: ...', or the label wearer.names found the wearer speaking under) or a screen's ('Phone screen:
    calling Owen')."""
    head, colon, _ = line.partition(":")
    head = head.strip()
    if not colon or not 0 < len(head.split()) <= 3 or not head[:1].isupper() or head.lower() in NOT_SPEAKERS or \
            head.lower() in WEARER.get():
        return ""
    return head


WEARER: ContextVar[frozenset[str]] = ContextVar("wearer", default=frozenset())
"""Lower-case labels the log's wearer speaks under ('ken' where every voice is named), set per question by
`asker.gather` from wearer.names: their lines are the wearer's own."""


NOT_SPEAKERS = frozenset({"me", "i", "myself", "phone", "phone screen", "screen"})
"""Labels and senders that name no one speaking (the wearer's own words, a phone's screen)."""
