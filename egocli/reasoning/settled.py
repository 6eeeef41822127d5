"""Yes/no questions about how something turned out, computed from its result line: 'did the van pass its MOT?' is
yes when the MOT's result line says PASS, 'did Villa win?' is yes when the full-time score has Villa ahead, 'did
Ellie's team win?' is no when it finished level. The occasion and its result line are outcomes.py's; the words that
say which way it went are the lexicon's (went_*). A result line that says neither way leaves the question to the
other yes/no rules."""

from __future__ import annotations

from egocli.core.lexicon import any_of, lexicon, stem, words
from egocli.reasoning import outcomes
from egocli.reasoning.plan import Asked
from egocli.reasoning.temporal import Finding, Matcher
from egocli.store import Event

_VERBS = dict(pair.split(":") for pair in lexicon().words["settling_verbs"])
"""A question's verb -> the way it asks about (win, lose, pass, fail)."""
_WENT = {way: (any_of(f"went_{way}"), any_of(f"went_not_{way}")) for way in ("win", "pass")}
_OPPOSITE = {"lose": "win", "fail": "pass"}
_OWNING = frozenset({"its", "his", "her", "their", "our", "my", "the", "a", "an"})


def asks(phrase: str) -> tuple[list[str], str, list[str]] | None:
    """(who, the way asked about, what) of a phrase asking how something turned out ('the van pass its mot' ->
    (['van'], 'pass', ['mot'])), else None."""
    said = words(phrase)
    at = next((i for i, w in enumerate(said) if w in _VERBS or stem(w) in _VERBS), None)
    if at is None:
        return None
    verb = said[at] if said[at] in _VERBS else stem(said[at])
    return ([w for w in said[:at] if w not in _OWNING], _VERBS[verb], [w for w in said[at + 1:] if w not in _OWNING])


def settled(asked: Asked, phrase: str) -> Finding | None:
    """'Did the van pass its MOT?': yes or no as its result line says, cited; None when the phrase asks no such thing,
    nothing names the occasion or no line says which way it went."""
    parts = asks(phrase)
    if parts is None:
        return None
    who, way, what = parts
    matcher = Matcher(asked.store, asked.scope, asked.embedder)
    for occasion in (" ".join(what), " ".join(who)):
        lines = outcomes.result_lines(asked, matcher, occasion) if occasion.strip() else []
        for ev in reversed(lines):
            went = _went(ev.content, _OPPOSITE.get(way, way), who)
            if went is not None:
                holds = went if way not in _OPPOSITE else not went
                when = asked.stamp(ev.start_ms, ev.source_id)
                return Finding("exists", f"{'Yes' if holds else 'No'}: {when}: {ev.content.rstrip(' .')}.", (ev,),
                               f"{phrase}: {'yes' if holds else 'no'}, as the result says at {when}: {ev.content}")
    return None


def _went(text: str, way: str, who: list[str]) -> bool | None:
    """Whether a result line says it went `way` (win, pass) for `who`, or not; None when it says neither."""
    if way == "win" and (said := outcomes.score(text)) is not None:
        first, a, b, second = said
        if a == b:
            return False  # level: nobody won
        side = 0 if set(who) & set(words(first)) else 1 if set(who) & set(words(second)) else None
        if side is not None:
            return (a > b) == (side == 0)
    yes, no = _WENT[way]
    lowered = text.lower()
    if way == "win" and not who:
        return None  # 'we': whose place the line says is not known
    if yes.search(lowered) and not no.search(lowered):
        return True
    if no.search(lowered) and not yes.search(lowered):
        return False
    return None
