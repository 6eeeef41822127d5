"""Whose log it is: the label the wearer's own words are written under, when a transcript names every voice.

Most logs leave the wearer's own words unlabelled ('I'll be back by six') and label the others ('Maureen: ...').
A transcript that names every voice, the wearer's too ('Ken: Fifty-six. Write it down, Stan.'), has one label that
speaks far more than any other: the wearer is in every conversation of the day, each other voice only in some. That
label's lines are then the wearer's own (terms.speaker names no one for them), so 'what did I say' finds them and
'who rang' does not answer with the wearer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from egocli.reasoning import terms
from egocli.store import EventFilter, Store

LEAST_LINES = 20
"""A label must speak this often before it can be the wearer's (a short log decides nothing)."""
OVER_NEXT = 1.5
"""... and this many times as often as the next label ('Ken' 93 lines, 'Maureen' 54)."""
OF_UNLABELLED = 0.5
"""... and at least this share as often as all unlabelled lines together: where the wearer speaks unlabelled, the
unlabelled lines outnumber any one named voice (on the dev and fresh logs the busiest named voice had at most a
seventh of them; where every voice is named, the unlabelled ones are overheard, and fewer)."""

_CACHE: dict[tuple[str, int, int | None], frozenset[str]] = {}
CACHED = 64
"""Log states remembered (a served log asked about all day changes state with every line heard)."""


def names(store: Store) -> frozenset[str]:
    """The lower-case label(s) of the wearer's own words in this store's log, or none (memoised per log state)."""
    flt = EventFilter(modalities=("speech",))
    key = (str(store.path or id(store)), store.count(flt), store.last_start_ms())
    if key not in _CACHE:
        if len(_CACHE) >= CACHED:  # a live log grows with every line: keep only the latest states
            _CACHE.clear()
        _CACHE[key] = found(e.content for e in store.events(flt))
    return _CACHE[key]


def found(lines: Iterable[str]) -> frozenset[str]:
    """The wearer's label among transcript lines, by LEAST_LINES, OVER_NEXT and OF_UNLABELLED, or none."""
    with_label, unlabelled = Counter[str](), 0
    token = terms.WEARER.set(frozenset())  # count every label as written, whatever was found before
    try:
        for line in lines:
            if who := terms.speaker(line):
                with_label[who.lower()] += 1
            elif not line.startswith("("):  # '(radio) ...' is no one's voice
                unlabelled += 1
    finally:
        terms.WEARER.reset(token)
    ranked = with_label.most_common(2)
    if not ranked:
        return frozenset()
    top, n = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    if n >= LEAST_LINES and n >= OVER_NEXT * second and n >= OF_UNLABELLED * unlabelled:
        return frozenset({top})
    return frozenset()
