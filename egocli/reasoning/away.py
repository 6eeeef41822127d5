"""How long the wearer was out: 'how long was I out this morning?', 'how long were we out with the dog?', 'how
long was I out of the house?'. An outing runs from a departure from home to the first arrival home after it
(homemoves.home_moves: said by a frame, or shown by the frames going from home to out of doors and back). The latest
in the scope is the one asked about; with company or a purpose named ('with the dog', 'for the paper'), the latest
whose own lines name it, when one does."""

from __future__ import annotations

from egocli.core.lexicon import words
from egocli.reasoning import homemoves, terms
from egocli.reasoning.plan import Asked, Finding
from egocli.reasoning.voice import say_duration
from egocli.store import Event

OUT = ("out", "away", "gone", "outside")
"""The words a question's phrase opens with when it asks how long the wearer was away from home."""
_ABOUT = ("with", "for", "walking", "on")
"""Words after them that name the company or the purpose of the outing ('out with the dog', 'out for a walk')."""
_NO_MORE = ("of", "the", "house", "home", "flat", "door", "front", "and", "about")
"""Words after them that name no more than home left ('out of the house', 'out and about')."""
LONGEST_MS = 16 * 3_600_000
"""An outing longer than this is a departure and an arrival home seen apart, no outing."""


def asks(phrase: str) -> list[str] | None:
    """The words naming the company or purpose of an outing a phrase asks about ([] for none), or None when the
    phrase asks about no time out ('out' alone, 'out with the dog', 'away from home')."""
    said = words(phrase)
    if not said or said[0] not in OUT:
        return None
    rest = said[1:]
    if rest and rest[0] == "from":  # 'away from home'
        rest = rest[2:] if len(rest) > 1 and rest[1] in _NO_MORE else rest
    if rest and rest[0] in _ABOUT:
        return terms.terms(" ".join(rest[1:]))
    if rest and (terms.gerund(rest[0]) or rest[0] == "to"):  # 'out going to pay the water', 'out doing the market'
        return terms.terms(" ".join(rest[1:])) or None
    return [] if all(w in _NO_MORE for w in rest) else None


def outing(asked: Asked, phrase: str) -> Finding | None:
    """How long the latest outing in scope lasted (see the module), or None when the phrase asks about none or no
    outing is seen."""
    about = asks(phrase)
    if about is None:
        return None
    gone, back = homemoves.home_moves(asked, "leave"), homemoves.home_moves(asked, "arrive")
    trips: list[tuple[Event, Event]] = []
    for i, left in enumerate(gone):
        nxt = gone[i + 1].start_ms if i + 1 < len(gone) else None
        came = next((b for b in back if left.start_ms < b.start_ms and (nxt is None or b.start_ms <= nxt)), None)
        if came is not None and came.start_ms - left.start_ms <= LONGEST_MS:
            trips.append((left, came))
    if about:
        named = [t for t in trips if homemoves.names_between(asked, t[0].start_ms, t[1].end_ms, set(about))]
        trips = named or trips
    if not trips:
        return None
    left, came = trips[-1]
    lasted = say_duration(came.start_ms - left.start_ms)
    span = f"{asked.stamp(left.start_ms, left.source_id)} ({left.content}) and were back " \
           f"{asked.stamp(came.start_ms, came.source_id)} ({came.content})"
    return Finding("duration", f"About {lasted}: you went out {span}.", (left, came),
                   f"{phrase}: out of home {span}: {lasted}")
