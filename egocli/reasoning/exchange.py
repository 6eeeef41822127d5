"""A question heard and its reply: a line that asks something ('Quizmaster: In what year did the Routemaster
enter service?') is no answer by itself; the next line another voice speaks soon after it ('Ken: Fifty-six.')
holds what a question about it wants ('what year did I say for the Routemaster?')."""

from __future__ import annotations

from collections.abc import Iterable

from egocli.reasoning import terms
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
