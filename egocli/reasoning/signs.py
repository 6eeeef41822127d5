"""Signs read: a line read from a sign where one is names the place one is at ('sign - Millbrook Surgery', 'pub
sign - The Red Lion'); a sign of the way there does not ('road sign - Brookfoot Garden Centre - next left'). The
words are the lexicon's ([visits] signs, signs_on_the_way)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from egocli.core.lexicon import lexicon
from egocli.reasoning import outings, terms
from egocli.store import Event

_LEX = lexicon().visits
_HEADS = "|".join(re.escape(w) for w in sorted(_LEX["signs"], key=len, reverse=True))
_SIGN = re.compile(r"^\s*(?:(?:" + _HEADS + r")\b|(?!(?:" + "|".join(_LEX["signs_on_the_way"]) + r")\b)[\w'-]+ (?:" +
                   "|".join(re.escape(w) for w in _LEX["signs"] if " " not in w) + r")\s*[\u2014\u2013:-])", re.I)
"""A line read from a sign where one is: one of the lexicon's signs, or a sign named by what it hangs on."""
_WAY_SIGNS = tuple(f"{way} {sign}" for way in _LEX["signs_on_the_way"] for sign in ("sign ", "signpost "))


def signed(ev: Event) -> bool:
    """Whether a line was read from a sign where one is ('sign - Millbrook Surgery', 'pub sign - The Red Lion')."""
    return bool(_SIGN.match(ev.content))


_NOTICES = tuple(f"{w} " for w in _LEX["notices"])


def notice(ev: Event) -> bool:
    """Whether a line read is a notice of what is on at a place ('chalkboard - Live Music'), which names the place
    only when read on arriving (the lexicon's [visits] notices)."""
    return signed(ev) and f"{ev.content.strip().lower()} ".startswith(_NOTICES)


def on_the_way_sign(ev: Event) -> bool:
    """Whether a line was read from a sign on the way ('road sign - Brookfoot Garden Centre - next left')."""
    return f"{ev.content.strip().lower()} ".startswith(_WAY_SIGNS)


def said_place(ev: Event) -> tuple[str, str]:
    """How a place event is told: (its words, how it was known): a sign's words without 'sign -' and 'a sign
    read', else the frame's words and 'seen'."""
    if _SIGN.match(ev.content):
        return _SIGN.sub("", ev.content, count=1).strip(" \u2014\u2013-:"), "a sign read"
    return ev.content, "seen"


NOTICE_MS = 3 * 60_000
"""How soon after a frame of being out somewhere a notice read names the place reached."""


def inside(ev: Event, around: Sequence[Event]) -> bool:
    """Whether a line read is a notice of what is on inside the place one is already at ('chalkboard - Live Music'
    an hour into the quiz), not one read on arriving ('a small café with a glass counter', then 'chalkboard - Leaf &
    Loaf'): no frame among `around` in the NOTICE_MS before it shows one out somewhere (outings.scene, or a kind of
    building named first)."""
    return notice(ev) and not any(e.modality == "visual" and 0 <= ev.start_ms - e.start_ms <= NOTICE_MS and
                                  (outings.scene(e) == "out" or _BUILDINGS.search(terms.clauses(e.content.lower())[0]))
                                  for e in around)


_BUILDINGS = outings.cue(lexicon().outings["buildings"])
"""A kind of building ('a small café with a glass counter'): a frame whose first clause names one is out."""
