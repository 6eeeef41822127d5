"""A question heard and its reply: a line that asks something ('Quizmaster: In what year did the Routemaster
enter service?') is no answer by itself; the next line another voice speaks soon after it ('Ken: Fifty-six.')
holds what a question about it wants ('what year did I say for the Routemaster?')."""

from __future__ import annotations

from collections.abc import Iterable

from egocli.core.lexicon import lexicon, words
from egocli.reasoning import retrieval, terms
from egocli.reasoning.plan import Asked
from egocli.store import Event

REPLY_MS = 2 * 60_000
"""How soon after a question heard its reply comes."""


def reply(events: Iterable[Event], ev: Event) -> Event | None:
    """The reply among `events` to a spoken line that asks something: the next line spoken within REPLY_MS by
    another voice; None for a line that asks nothing or has no reply among them."""
    if ev.modality != "speech" or not ev.content.rstrip().endswith("?"):
        return None
    asking = terms.speaker(ev.content)
    return next((e for e in sorted(events, key=lambda e: (e.start_ms, e.id))
                 if e.modality == "speech" and (ev.start_ms, ev.id) < (e.start_ms, e.id)
                 and e.start_ms <= ev.start_ms + REPLY_MS and terms.speaker(e.content) != asking), None)


_ASKING = frozenset(lexicon().words["asking_what"])
_ASK = frozenset({"ask", "asked", "asking"})
ASKED_SHARE = 1 / 2
"""How much of what a question says was asked a line of the wearer's must hold, with its question word, to be that
question again ('What time did our Liam say?' for 'what time Liam was coming')."""
_OPEN = frozenset({"about", "if", "whether"})
"""Words after 'ask' that a question asked again need not hold ('ask about the bins': 'are the bins out?')."""


def own_questions(asked: Asked, phrase: str) -> list[Event] | None:
    """'ask what time Liam was coming': the wearer's own spoken questions in scope (no one else's voice, no sound)
    that hold its question word and ASKED_SHARE of what it says was asked; None when the phrase is no asking of a
    question."""
    said = phrase.lower().split()
    if len(said) < 3 or said[0] not in _ASK or said[1] not in _ASKING:
        return None
    want, wh = terms.terms(" ".join(said[2:])), set(words(said[1])) - _OPEN
    if not want:
        return None
    return [e for e in retrieval.lines(asked.store, asked.scope) if e.modality == "speech" and
            e.content.rstrip().endswith("?") and not e.content.lstrip().startswith("(") and
            not terms.speaker(e.content) and wh <= set(words(e.content)) and
            terms.recall(want, set(terms.terms(e.content))) >= ASKED_SHARE]
