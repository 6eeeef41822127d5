"""Who a phrase of a question names and what they did: 'susan and alfie' are two people; 'stan knocked', 'pat
came knocking for the garden centre' say someone came; 'kyle had packed up and gone' says someone went
(reasoning/guests.py finds their visits). The words are the lexicon's ([visits] guest_*_verbs, [words])."""

from __future__ import annotations

from egocli.core.lexicon import lexicon
from egocli.reasoning import terms

VERBS = {kind: frozenset(v.replace("_", " ") for v in lexicon().visits[f"guest_{kind}_verbs"])
         for kind in ("arrive", "leave", "stay")}
"""A question's verb -> what it asks of the visit ('turn up': arrive)."""
ARTICLES, JOINS = lexicon().words["person_articles"], lexicon().words["person_joins"]


def people(phrase: str) -> list[str]:
    """The people a phrase names ('susan and alfie' -> susan, alfie; 'the plumber' -> plumber)."""
    out: list[str] = []
    said: list[str] = []
    for w in [*terms.words(phrase.replace(",", " and ").replace("&", " and ")), "and"]:
        if w in JOINS:
            out += [" ".join(said)] if said else []
            said = []
        elif w not in ARTICLES:
            said.append(w)
    return out


_ARRIVING = frozenset(tuple(terms.stem(w) for w in verb.split()) for verb in VERBS["arrive"])
"""The verbs of someone coming, stemmed word by word ('turning up' is ('turn', 'up'))."""
_LEAVING = frozenset(tuple(terms.stem(w) for w in verb.split()) for verb in VERBS["leave"])
"""The verbs of someone going ('went home', 'had gone')."""
_AUXILIARY = frozenset(lexicon().words["auxiliary"])
"""Words between a person and their verb that are not the verb ('Kyle had gone', 'Stan was just leaving')."""
WHO_WORDS = 4
"""At most this many words name the people a phrase opens with ('the talking books fella')."""
VERB_REACH = 4
"""How far after the people (their auxiliaries aside) a verb joined by 'and' may stand ('packed up and gone')."""


def _who_then(phrase: str, verbs: frozenset[tuple[str, ...]], anywhere: bool = True) -> list[str]:
    """The people a phrase opens with when one of the verbs is theirs ('stan knocked', 'pat came knocking for the
    garden centre', 'susan and alfie had gone', 'kyle had packed up and gone'): the verb right after them (their
    auxiliaries aside), or joined by 'and' to what they did first; [] else, or when the people are the wearer. Not
    `anywhere`, the verb must end the phrase ('did Joy come on time?' asks more than whether she came)."""
    said = terms.words(phrase)
    for i in range(1, min(len(said), WHO_WORDS + 1)):
        if said[i] in JOINS:
            continue  # 'susan and alfie': the people go on
        helped = said[i] in _AUXILIARY
        rest = said[i:]
        while rest and rest[0] in _AUXILIARY:
            rest = rest[1:]
        starts = [0] + [k + 1 for k, w in enumerate(rest[:VERB_REACH]) if w == "and"]
        if any(tuple(terms.stem(w) for w in rest[k:k + n]) in verbs and (anywhere or k + n == len(rest))
               for k in starts for n in (3, 2, 1)):
            return [p for p in people(" ".join(said[:i])) if p not in ("i", "me", "you", "we")]
        if helped:
            return []  # an auxiliary ends the people: their verb is not one of these
    return []


def coming(phrase: str, anywhere: bool = False) -> list[str]:
    """The people a phrase says came ('kwame turning up', 'susan and alfie arrived', 'the plumber come', 'stan
    knocked'; `anywhere`, also 'stan come round with that parcel'), else []."""
    return _who_then(phrase, _ARRIVING, anywhere)


def going(phrase: str) -> list[str]:
    """The people a phrase says went ('tony went home with the ladder', 'kyle had packed up and gone'), else []."""
    return _who_then(phrase, _LEAVING)
