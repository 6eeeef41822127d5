"""Multiple-choice options parsed into what can be checked: time spans, things/actions, and sequences."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from egocli.core.errors import UsageError
from egocli.reasoning import terms
from egocli.reasoning.scope import TIME_TAG, BoundVideo, Scope, parse_tags, relative_windows
from egocli.core.timeutil import local, parse_clock, to_ms

SPANS, ITEM, SEQUENCE, NONE = "spans", "item", "sequence", "none"
"""Option kinds."""

_CLOCK = r"(\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)"
_CLOCK_SPAN = re.compile(rf"(?:from\s+|between\s+)?{_CLOCK}\s*(?:-|–|to|and|until|till)\s*{_CLOCK}", re.I)
_POINT = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)|\b(\d{1,2}):(\d{2})\b", re.I)
_THEN = re.compile(r"\s*(?:,\s*(?:and\s+)?then\s+|\bthen\b|->|→|;|,|\bfollowed by\b)\s*", re.I)
_QUOTED = re.compile(r"\"([^\"]{3,})\"|“([^”]{3,})”")


@dataclass(frozen=True)
class Span:
    """A time span an option names."""

    start_ms: int
    """Start, UTC epoch ms."""
    end_ms: int
    """End (equal to start for a single moment)."""
    source_id: int | None
    """The bound video it lies in (None: the log's own clock)."""


@dataclass(frozen=True)
class Option:
    """One option and what it claims."""

    index: int
    """Its position (0 = A)."""
    text: str
    """The option as given."""
    kind: str
    """spans, item, sequence, or none (nothing to check: empty, a duplicate, unparseable)."""
    spans: tuple[Span, ...] = ()
    """Time spans (kind spans)."""
    items: tuple[str, ...] = ()
    """The thing or action (kind item: one entry), or the ordered items (kind sequence)."""
    note: str = ""
    """Why nothing can be checked (kind none)."""


def _tag_spans(text: str, videos: dict[int, BoundVideo]) -> list[Span]:
    tags = parse_tags([text], videos)
    out, i = [], 0
    while i < len(tags):
        a = tags[i]
        b = tags[i + 1] if i + 1 < len(tags) and tags[i + 1].source_id == a.source_id else None
        if b is not None and b.abs_ms >= a.abs_ms:
            out.append(Span(a.abs_ms, b.abs_ms, a.source_id))
            i += 2
        else:
            out.append(Span(a.abs_ms, a.abs_ms, a.source_id))
            i += 1
    return out


def _clock_spans(text: str, scope: Scope) -> list[Span]:
    """'from 9:00 to 9:30' style spans: offsets into the one bound video, else clock times on the scope's
    day (its first window, else the day asked from; a time after the moment of asking means the day before)."""
    out = []
    for m in _CLOCK_SPAN.finditer(text):
        try:
            a, b = parse_clock(m.group(1)), parse_clock(m.group(2))
        except ValueError:
            continue
        if len(scope.videos) == 1:
            video = scope.videos[0]
            out.append(Span(video.start_ms + a, video.start_ms + b, video.source_id))
            continue
        if scope.videos:
            continue
        if len(m.group(1).split(":")) == 2 and len(m.group(2).split(":")) == 2:
            a, b = a * 60, b * 60  # a time of day: '9:00' is hours:minutes, not minutes:seconds
        start = _day_of(scope) + a
        if not scope.windows and start > scope.at_ms:
            start -= 86_400_000
        out.append(Span(start, start + max(b - a, 0), None))
    return out


def _day_of(scope: Scope) -> int:
    ref = scope.windows[0][0] if scope.windows and scope.windows[0][0] > 0 else scope.at_ms
    return to_ms(local(ref).replace(hour=0, minute=0, second=0, microsecond=0))


def _point_spans(text: str, scope: Scope) -> list[Span]:
    """'at 8:00', 'around 2 pm', '14:30': moments on the scope's day (the day before when that is later
    than the moment of asking); in the one bound video, a lone 'm:ss' is an offset."""
    out = []
    for m in _POINT.finditer(text):
        if m.group(4) is not None:
            hours, minutes, half = int(m.group(4)), int(m.group(5)), ""
        else:
            hours, minutes, half = int(m.group(1)), int(m.group(2) or 0), m.group(3).lower().replace(".", "")
        if len(scope.videos) == 1 and not half:
            at = scope.videos[0].start_ms + (hours * 60 + minutes) * 1000
            out.append(Span(at, at, scope.videos[0].source_id))
            continue
        if scope.videos or hours > 23 or minutes > 59 or (half and not 1 <= hours <= 12):
            continue
        hours = hours % 12 + (12 if half == "pm" else 0) if half else hours
        at = _day_of(scope) + (hours * 60 + minutes) * 60_000
        if not scope.windows and at > scope.at_ms:
            at -= 86_400_000
        out.append(Span(at, at, None))
    return out


def _day_spans(text: str, scope: Scope) -> list[Span]:
    """'yesterday', 'last Tuesday', 'Monday morning', '3 days ago': the days or parts of days named."""
    if scope.videos:
        return []
    return [Span(lo, hi, None) for (lo, hi), _ in relative_windows(text, scope.at_ms)]


def _leftover(text: str) -> bool:
    """Whether a text says more than a time: content words beyond clock and day expressions."""
    rest = _POINT.sub(" ", _CLOCK_SPAN.sub(" ", text.lower()))
    for _, words in relative_windows(rest, 0):
        rest = rest.replace(words, " ")
    rest = re.sub(r"\b(?:at|around|about|on|in|the|from|to|between|and|until|o'clock|"
                  r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", " ", rest)
    return bool(terms.terms(rest))


def split_items(text: str) -> list[str]:
    """The items of a list option: 'a, then b, then c', 'a -> b', 'a; b', 'a, b, c'."""
    parts = [p.strip(" .'\"[]") for p in _THEN.split(text)]
    return [p for p in parts if p]


def quoted(question: str) -> list[str]:
    """Quoted phrases in a question, in order (the steps of 'when did I do each of: "a", "b"')."""
    return [a or b for a, b in _QUOTED.findall(question)]


def _kind(text: str, scope: Scope, videos: dict[int, BoundVideo]) -> tuple[str, tuple[Span, ...], str]:
    if TIME_TAG.search(text):
        try:
            return SPANS, tuple(_tag_spans(text, videos)), ""
        except UsageError as ex:
            return NONE, (), str(ex)
    if not _leftover(text):
        spans = _clock_spans(text, scope) or _point_spans(text, scope) or _day_spans(text, scope)
        if spans:
            return SPANS, tuple(spans), ""
    if not terms.terms(text):
        return NONE, (), "no words to look for"
    return ITEM, (), ""


def parse_options(choices: Sequence[str], scope: Scope) -> list[Option]:
    """Every option with its kind. Lists become sequences when the options list mostly the same items
    (then only their order differs); otherwise a list is one item to find. Empty and repeated options,
    and tags naming unbound videos, are kind none: they get no evidence, the model still sees them."""
    videos = {v.number: v for v in scope.videos}
    seen: set[str] = set()
    parsed: list[Option] = []
    for i, raw in enumerate(choices):
        text = str(raw).strip()
        key = re.sub(r"\s+", " ", text.lower())
        if not text:
            parsed.append(Option(i, text, NONE, note="empty option"))
            continue
        if key in seen:
            parsed.append(Option(i, text, NONE, note="same as an earlier option"))
            continue
        seen.add(key)
        kind, spans, note = _kind(text, scope, videos)
        parsed.append(Option(i, text, kind, spans, (text,) if kind == ITEM else (), note))
    return _as_sequences(parsed)


def _as_sequences(parsed: list[Option]) -> list[Option]:
    lists = {o.index: [terms.stem(p.lower()) for p in split_items(o.text)] for o in parsed if o.kind == ITEM}
    lists = {i: items for i, items in lists.items() if len(items) >= 2}
    if len(lists) < 2:
        return parsed
    sets = [set(items) for items in lists.values()]
    shared = sum(len(a & b) / len(a | b) for a in sets for b in sets if a is not b)
    pairs = len(sets) * (len(sets) - 1)
    if shared / pairs < 0.6:
        return parsed
    return [Option(o.index, o.text, SEQUENCE, (), tuple(split_items(o.text))) if o.index in lists else o
            for o in parsed]
