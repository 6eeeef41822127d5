"""Kinds of event told by their content: an email read on a screen ('From: Helen Marsh — Subject: ...'), a text
message. 'How many emails did I read on Monday?', 'Helen's first email', 'which emails came in this morning?'
and 'what did Ravi's email say?' count, pick and list these events, with their sender when one is asked. The
kinds, their nouns, how their text begins and where the sender is named are the lexicon's ([kinds.content])."""

from __future__ import annotations

import re
from dataclasses import dataclass

from egocli.core.lexicon import lexicon, words
from egocli.reasoning.scope import Scope
from egocli.store import Event, EventFilter, Store

_KINDS = lexicon().kinds.get("content", {})
_NOUNS = {noun: kind for kind, spec in _KINDS.items() for noun in spec["nouns"].split()}
_SENDERS = {kind: re.compile(spec["sender"]) for kind, spec in _KINDS.items()}
_MARKS = {kind: re.compile("|".join(spec["marks"])) for kind, spec in _KINDS.items()}
_ASKING = frozenset(lexicon().kinds["asking"].split())
"""Words beside a kind's noun that ask for its events and name nothing more ('read emails', 'emails came in')."""
LIMIT = 5000
"""Events of a modality read per scope window."""


@dataclass(frozen=True)
class Asked:
    """A phrase asking for events of a kind."""

    kind: str
    """The kind ('email')."""
    sender: str = ""
    """Whose, in lower case ('helen'), or ''."""


def asked(phrase: str) -> Asked | None:
    """The kind a phrase asks for ('read emails', "helen's email", 'email from ravi'), else None: a phrase
    with words beyond the kind, a sender and asking words is about content ('email about the budget')."""
    tokens = phrase.lower().replace("\u2019", "'").split()
    kind, sender, rest = None, "", []
    for i, token in enumerate(tokens):
        word = token.strip("?,.!")
        if word.endswith("'s") and i + 1 < len(tokens) and tokens[i + 1].strip("?,.!") in _NOUNS:
            sender = word[:-2]
        elif word in _NOUNS and kind is None:
            kind = _NOUNS[word]
        elif word == "from" and i + 1 < len(tokens):
            sender = tokens[i + 1].strip("?,.!")
        elif not (sender and word == sender) and word not in _ASKING:
            rest.append(word)
    return Asked(kind, sender) if kind is not None and not rest else None


def sender(ev: Event, kind: str) -> str:
    """Who an event of the kind is from ('Helen Marsh'), or ''."""
    m = _SENDERS[kind].search(ev.content.strip())
    return m.group(1).strip() if m else ""


def _is(ev: Event, kind: str) -> bool:
    return ev.modality in ("text", "visual", "note") and bool(_MARKS[kind].search(ev.content.strip()))


def events(store: Store, scope: Scope, phrase: str) -> list[Event] | None:
    """The events of the kind a phrase asks for in the scope, oldest first (from its sender when named); None
    when the phrase asks for no kind."""
    want = asked(phrase)
    if want is None:
        return None
    spans = scope.windows or ((None, scope.at_ms + 1),)
    found: dict[int, Event] = {}
    for lo, hi in spans:
        until = min(hi, scope.at_ms + 1) if hi is not None else scope.at_ms + 1
        for ev in store.events(EventFilter(since_ms=lo, until_ms=until, modalities=("text", "visual", "note"),
                                           limit=LIMIT)):
            if _is(ev, want.kind) and (not want.sender or want.sender in words(sender(ev, want.kind))):
                found[ev.id] = ev
    return sorted(found.values(), key=lambda e: (e.start_ms, e.id))


MODALITY_NOUNS: dict[str, str] = lexicon().kinds["modality_nouns"]
"""Nouns that name a kind of event rather than its content ('my first note' is the oldest note)."""


def of_modality(store: Store, scope: Scope, phrase: str) -> list[Event] | None:
    """The events of the modality (or the kind: 'emails') a phrase names, oldest first, inside the scope; None
    for other phrases."""
    modality = MODALITY_NOUNS.get(phrase.strip())
    if modality is None:
        return events(store, scope, phrase)
    spans = scope.windows or ((None, scope.at_ms + 1),)
    found = {ev.id: ev for lo, hi in spans
             for ev in store.events(EventFilter(since_ms=lo, until_ms=hi, modalities=(modality,), limit=5000))}
    return sorted(found.values(), key=lambda ev: (ev.start_ms, ev.id))
