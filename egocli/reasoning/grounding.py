"""Whether a model's reply rests on the context it was given: the line it copied is a line of the storyline
(grounded_event), bears on the question (on_topic), is not a summary's (quotes_summary), and every time it gives
is a cited event's (times_agree)."""

from __future__ import annotations

import re

from egocli.core.words import QUESTION_FILLER
from egocli.reasoning import retrieval
from egocli.reasoning.request import Citation, Context
from egocli.store import Event

_WORDS = re.compile(r"[a-z0-9]+")


def _quoted(line: str) -> str:
    """A copied log line without its `[time]` stamp and `modality:` label, lower case."""
    text = re.sub(r"^[^\]]*\]\s*", "", line.strip()) if "]" in line else line.strip()
    return re.sub(r"^\w+:\s*", "", text).rstrip(". ").lower()


def grounded_event(events: list[Event], line: str) -> Event | None:
    """The context event a copied log line refers to (its text contained, or most of its words), else None."""
    text = _quoted(line)
    words = set(_WORDS.findall(text))
    best, best_share = None, 0.6
    for ev in events:
        content = ev.content.lower()
        if len(text) >= 8 and (text in content or content in text):
            return ev
        own = set(_WORDS.findall(content))
        share = len(own & words) / len(own) if own else 0.0
        if share >= best_share:
            best, best_share = ev, share
    return best


_CLOCK = re.compile(r"\b([01]?\d|2[0-3])[:.]([0-5]\d)(?::\d\d)?\s*([ap]\.?m\.?)?(?![\w.])", re.I)


def times_agree(text: str, cites: list[Citation]) -> bool:
    """True when every clock time an answer gives (14:05, 2.05 pm) is the time of one of its cited events."""
    said = set()
    for hh, mm, half in _CLOCK.findall(text):
        hour = int(hh) % 12 + (12 if half.lower().startswith("p") else 0) if half else int(hh)
        said.add((hour, int(mm)))
    known = {(int(c.time[11:13]), int(c.time[14:16])) for c in cites if len(c.time) >= 16}
    return said <= known


_STEM = re.compile(r"[a-z]{4,}")


def on_topic(ev: Event | None, ctx: Context, top: int = 3) -> bool:
    """Whether a quoted event bears on the question: one of the best retrieved events, or sharing a word
    (first five letters) with the question. The 1.5B model sometimes copies an unrelated line."""
    if ev is None:
        return False
    if ev.id in {h.event.id for h in retrieval.relevant(ctx.hits)[:top]}:
        return True
    asked = {w[:5] for w in _STEM.findall(ctx.question.lower()) if w not in QUESTION_FILLER}
    return bool(asked & {w[:5] for w in _STEM.findall(ev.content.lower())})


def quotes_summary(line: str, ctx: Context) -> bool:
    """Whether a copied line comes from the HCC summaries (a real line, but not an event to rest on);
    a line found nowhere in the context is made up."""
    text = _quoted(line)[:60]
    return len(text) >= 8 and any(text in s.text.lower() for s in ctx.summaries)
