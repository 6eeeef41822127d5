"""Whether someone gave something back ('did Tony bring the ladder back?', 'did Callum give me my charger back?', 'has
Dougie paid any of it back?'), computed from the lines in scope: a line of theirs (their words, their
message) or a frame naming them that names the thing (a word of it, or a longer word ending in it: 'stepladder') and
says it came back ('Charger's back', 'Here, Dad, your six pound for the trip', 'Tony at the door with the
stepladder'); a promise or a request ('I'll bring it back tomorrow') is none. Money given back needs no word of the
thing: an amount in their line says it. The verbs and words are the lexicon's (returning_verbs, returned)."""

from __future__ import annotations

from egocli.core.lexicon import any_of, lexicon, words
from egocli.reasoning import kinds, money, retrieval, terms
from egocli.reasoning.digest import amounts
from egocli.reasoning.plan import Asked
from egocli.reasoning.temporal import Finding
from egocli.store import Event

_VERBS = frozenset(lexicon().words["returning_verbs"])
_BACK = any_of("returned")
_NOT_THINGS = frozenset({"me", "us", "my", "our", "the", "a", "an", "it", "them", "his", "her", "their", "back", "any",
                         "some", "of", "for", "to"})


def asks(phrase: str) -> tuple[str, list[str]] | None:
    """(who, the thing's words) of a phrase asking whether someone gave something back ('callum give me my charger
    back' -> ('callum', ['charger'])), else None (also for 'all of it', which asks how much)."""
    said = words(phrase)
    at = next((i for i, w in enumerate(said) if w in _VERBS), None)
    if at is None or not at or ("back" not in said[at:] and not said[at].startswith("return")) or "all" in said:
        return None
    return " ".join(said[:at]), [w for w in said[at + 1:] if w not in _NOT_THINGS]


def returned(asked: Asked, phrase: str) -> Finding | None:
    """'Yes: ...' with the line that says it came back, the latest; None when the phrase asks no such thing or no
    line says so (the other yes/no rules answer)."""
    parts = asks(phrase)
    if parts is None:
        return None
    who, thing = parts
    names = [w for w in words(who) if w not in ("mr", "mrs", "ms", "dr", "the", "my")]
    if not names:
        return None
    paid = not thing or money.money_said(" ".join(thing))  # "paid any of it back", "the trip money"
    back = [e for e in retrieval.lines(asked.store, asked.scope) if _says_back(e, names, thing, paid)]
    if not back:
        return None
    ev = back[-1]
    when = asked.stamp(ev.start_ms, ev.source_id)
    return Finding("exists", f"Yes: {when}: {ev.content.rstrip(' .')}.", (ev,),
                   f"{phrase}: yes, given back at {when}: {ev.content}")


def _says_back(ev: Event, names: list[str], thing: list[str], paid: bool) -> bool:
    text = ev.content
    lowered = text.lower()
    if money.promised(text) or not _BACK.search(lowered):
        return False
    speaker = terms.speaker(text) or kinds.sender(ev, "message")
    theirs = bool(set(words(speaker)) & set(names)) if speaker else \
        ev.modality == "visual" and bool(set(words(text)) & set(names))
    if not theirs:
        return False
    own = words(text)
    named = any(w == t or (len(t) >= 4 and w.endswith(t)) for w in own for t in thing)
    return named or (paid and bool(amounts(text) or any(w.isdigit() for w in own)))
