"""Temporal scope of a question: <TIME> tags bound to sources, relative day words, 'last time I'. 'Tonight' asked in
the evening is the evening so far ('what have I done tonight?'), asked earlier a plan ('wine for tonight': what for)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from egocli.core.errors import NotFound, UsageError
from egocli.core.lexicon import apostrophes, lexicon
from egocli.store import Store
from egocli.core.timephrases import spoken_clock
from egocli.core.timeutil import WEEKDAYS, local, parse_clock, short_clock, to_ms
from egocli.reasoning import waking

TIME_TAG = re.compile(r"<TIME\s+([0-9:.,]+)\s+video\s+(\d+)>", re.I)
DAY_PARTS: dict[str, tuple[int, int]] = lexicon().time["parts"]
"""Part of the day -> (first hour, hour after the last)."""
_NUMBERS: dict[str, float] = lexicon().time["quantities"]
"""How many a word says ('a couple of days ago')."""
_UNIT_MS = {"minute": 60_000, "hour": 3_600_000, "day": 86_400_000, "week": 604_800_000}
_NUM = r"(\d+|" + "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True)) + ")"
_AGO = re.compile(rf"\b{_NUM}\s+(minute|hour|day|week)s?\s+ago\b")
_PAST = re.compile(rf"\b(?:in the|over the|during the)\s+(?:last|past)\s+(?:{_NUM}\s+)?(minute|hour|day|week)s?\b")
_WEEKDAY = re.compile(r"\b(last|on|this past|this)?\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
                      r"(?:\s+(morning|afternoon|evening|night))?\b")
_DAYWORD = re.compile(r"\b(this|yesterday|today|last|tonight)\s*(morning|afternoon|evening|night)?\b")
_ISO_DAY = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")
_LAST_TIME = re.compile(r"\b(last time|when did i last|most recent(?:ly)?|latest|last saw|last seen|"
                        r"where did i (?:leave|put)|where(?: is|'s| are) (?:my|the|our))\b")
"""'Last time' questions, and questions about where something is now (the newest sighting answers them)."""
_WEEK = re.compile(r"\b(last|this)\s+week\b")
_WEEKEND = re.compile(r"\b(last|this|(?:at|over) the|the)\s+weekend\b")
_CLOCK = r"(\d{1,2})(?:[:.](\d{2}))?(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?"
_CLOCK_RANGE = re.compile(rf"\b(?:between|from)\s+{_CLOCK}\s+(?:and|to|till|until)\s+{_CLOCK}(?![\w:])")
_CLOCK_AT = re.compile(rf"\b(at|around|about|near|by|at about|at around)\s+{_CLOCK}(?![\w:])"
                       r"(?!\s*(?:times?|minutes?|mins?|hours?|days?|weeks?|people|of|percent|%)\b)")
_DAY = "(?:" + "|".join(lexicon().time["weekdays"]) + ")"
"""A weekday by name (the lexicon's)."""
_FUTURE = re.compile(r"\b(?:will (?:i|we)|shall (?:i|we)|am i (?:next )?(?:\w+ing|due|meant|supposed)|are we \w+ing|"
                     r"(?:\bis|\b(?:when|what|where|who|time)'s) (?:\w+ ){0,3}coming|(?:i'm|i am|we're|we are) going to|gonna|tomorrow|"
                     rf"next {_DAY}|next week|this coming|coming up|upcoming|"
                     r"(?:have i|do i have) (?:got )?(?:on|planned|booked)|planned for|booked for|"
                     r"(?:when|what time|what day|where)(?: is|'s| are) (?:my|the|our) next|"
                     rf"^(?:{_DAY}\W+)?(?:when|what time|what day|which day)(?: is|'s| are| do| does) "
                     rf"(?!it\b|the (?:first|last)\b)(?=.*\b(?:{_DAY}|the \d{{1,2}}(?:st|nd|rd|th))\b)|"
                     rf"^{_DAY}\W+(?:when|what time)(?: is|'s| are)\b|(?:do|does) (?:i|we) need\b|"
                     r"(?:do|does) (?:i|we|(?:the |my |our )?\w+(?: \w+){0,2}) (?:need|have|got) to|(?:\bis|\bare|\b(?:when|what|where|who|time)'s) (?:\w+ ){0,3}due\b|"
                     r"(?:what is|what's|anything|is there anything) (?:on|happening|planned) (?:on |for )?(?:this )?"
                     rf"{_DAY})\b")
"""A question about a plan for a coming day: it is answered by what was said about it, so no day it names is
a window of the past ('what's happening next Tuesday' is not last Tuesday). A timetable asked in the present
about a named day is one too ('what time do I start on Thursday?', 'when is the dentist on the 12th?')."""
_PAST_DAY = re.compile(r"\b(?:yesterday|last (?:night|week|month|" + _DAY + r")|\w+ (?:days?|weeks?|hours?) ago)\b")
COMING_DAY = re.compile(r"\b(?:tomorrow|next (?:week|month|" + _DAY + r"))\b")
POINT_PAD_MS = 5 * 60_000
"""'What was I doing at 07:48?' looks this far either side of the time."""


@dataclass(frozen=True)
class TimeTag:
    """A `<TIME hh:mm:ss.fff video N>` tag resolved against its bound source."""

    video: int
    """N in 'video N'."""
    offset_ms: int
    """Offset into that recording."""
    abs_ms: int
    """Absolute time, UTC epoch ms."""
    source_id: int
    """The bound source."""


@dataclass(frozen=True)
class BoundVideo:
    """A source a question may call 'video N'."""

    number: int
    """N."""
    source_id: int
    """The source row."""
    name: str
    """Its name."""
    start_ms: int
    """Its wall-clock start."""


@dataclass(frozen=True)
class Scope:
    """Where in the log a question looks."""

    windows: tuple[tuple[int, int], ...] = ()
    """Absolute [start, end) spans; empty means the whole log."""
    videos: tuple[BoundVideo, ...] = ()
    """Sources bound to 'video N'; when present, retrieval stays inside them."""
    tags: tuple[TimeTag, ...] = ()
    """Time tags found in the question and its choices."""
    backwards: bool = False
    """A 'last time I ...' question: the most recent match before `at` wins."""
    at_ms: int = 0
    """The moment the question is asked from."""
    label: str = "the whole log"
    """A readable description of the scope."""
    notes: list[str] = field(default_factory=list)
    """Expressions recognised, for --explain."""
    moments: tuple[tuple[int, int], ...] = ()
    """Clock times the question names ('at 07:48': (t, t); 'between 9 and 10 am': (t1, t2)), absolute."""
    future: bool = False
    """A question about a plan for a coming day ('when am I seeing Anna?'): the day words name no window."""
    nights: tuple[tuple[int, int], ...] = ()
    """(went to bed, got up) of the wearer's nights (waking.nights): where their mornings and nights begin and end."""


def bind_videos(store: Store, mapping: dict[int, str]) -> dict[int, BoundVideo]:
    """Resolve 'video N' -> source name/id into bound videos."""
    out = {}
    for number, ref in mapping.items():
        src = store.find_source(name=ref)
        if src is None and str(ref).isdigit():
            try:
                src = store.get_source(int(ref))
            except NotFound:
                src = None
        if src is None:
            raise NotFound(f"video {number}: no source named {ref!r} (see `egocli stats`)")
        start = src.start_ms if src.start_ms is not None else 0
        out[number] = BoundVideo(number, src.id, src.name, start)
    return out


def parse_tags(texts: list[str], videos: dict[int, BoundVideo]) -> list[TimeTag]:
    """Every TIME tag in the texts, resolved; a tag naming an unbound video is a usage error."""
    tags = []
    for text in texts:
        for m in TIME_TAG.finditer(text):
            number = int(m.group(2))
            if number not in videos:
                raise UsageError(f"'video {number}' in a <TIME> tag is not bound (use --video {number}=SOURCE)")
            try:
                offset = parse_clock(m.group(1))
            except ValueError as ex:
                raise UsageError(f"bad <TIME> tag {m.group(0)!r}") from ex
            video = videos[number]
            tags.append(TimeTag(number, offset, video.start_ms + offset, video.source_id))
    return tags


def rewrite_tags(text: str) -> str:
    """Replace each `<TIME 00:04:30.000 video 1>` by the storyline's notation `v1 4:30`."""
    def repl(m: re.Match[str]) -> str:
        return f"v{m.group(2)} {short_clock(parse_clock(m.group(1)))}"
    return TIME_TAG.sub(repl, text)


def _day(at: datetime, back: int) -> datetime:
    return (at - timedelta(days=back)).replace(hour=0, minute=0, second=0, microsecond=0)


def _span(day: datetime, part: str | None, nights: tuple[tuple[int, int], ...] = ()) -> tuple[int, int]:
    lo, hi = DAY_PARTS[part] if part else (0, 24)
    return waking.part((to_ms(day + timedelta(hours=lo)), to_ms(day + timedelta(hours=hi))), part, nights)


_FURTHEST_MS = 250 * 365 * 86_400_000
"""'N units ago' further back than this names no time the log can hold (it starts in 1970)."""


def _count(word: str | None, unit_ms: int = 0, phrase: str = "") -> float:
    if word is None:
        return 1
    n = float(word) if word.isdigit() else _NUMBERS[word]
    if n * unit_ms > _FURTHEST_MS:
        raise UsageError(f"'{phrase or word}' reaches further back than the log can go (it starts in 1970)")
    return n


def relative_windows(question: str, at_ms: int,
                     nights: tuple[tuple[int, int], ...] = ()) -> list[tuple[tuple[int, int], str]]:
    """Windows named by relative expressions in the question, each with the words that named it."""
    text = question.lower()
    at = local(at_ms)
    found: list[tuple[tuple[int, int], str]] = []
    for m in _AGO.finditer(text):
        unit = _UNIT_MS[m.group(2)]
        n = _count(m.group(1), unit, m.group(0))
        if m.group(2) in ("day", "week"):
            start = _day(at, int(n * unit // 86_400_000))
            found.append(((to_ms(start), to_ms(start + timedelta(milliseconds=unit))), m.group(0)))
        else:
            point, pad = at_ms - int(n * unit), max(int(n * unit * 0.5), 15 * 60_000)
            found.append(((point - pad, point + pad), m.group(0)))
    for m in _PAST.finditer(text):
        span = int(_count(m.group(1), _UNIT_MS[m.group(2)], m.group(0)) * _UNIT_MS[m.group(2)])
        found.append(((at_ms - span, at_ms + 1), m.group(0)))
    for m in _WEEKDAY.finditer(text):
        back = (at.weekday() - WEEKDAYS.index(m.group(2))) % 7
        if back == 0 and (m.group(1) or "").strip() in ("last", "this past"):
            back = 7
        found.append((_span(_day(at, back), m.group(3), nights), m.group(0).strip()))
    for m in _DAYWORD.finditer(text):
        word, part = m.group(1), m.group(2)
        if word == "last" and part == "night":
            found.append((waking.part((to_ms(_day(at, 1) + timedelta(hours=18)), to_ms(_day(at, 0) + timedelta(
                hours=5))), "night", nights), m.group(0)))
        elif word == "yesterday":
            found.append((_span(_day(at, 1), part, nights), m.group(0)))
        elif word == "today" or (word == "this" and part) or (
                word == "tonight" and at.hour >= DAY_PARTS["evening"][0] and not text[:m.start()].endswith("for ")):
            found.append((_span(_day(at, 0), "evening" if word == "tonight" else part, nights), m.group(0)))
    for m in _ISO_DAY.finditer(text):
        try:
            day = datetime.fromisoformat(m.group(1)).astimezone()
        except ValueError:
            continue
        found.append((_span(day, None), m.group(0)))
    for m in _WEEK.finditer(text):
        monday = _day(at, at.weekday())
        start = monday - timedelta(days=7) if m.group(1) == "last" else monday
        found.append(((to_ms(start), to_ms(start + timedelta(days=7))), m.group(0)))
    for m in _WEEKEND.finditer(text):  # Saturday and Sunday: this one once it has begun, else the one just gone
        saturday = _day(at, at.weekday()) + timedelta(days=5)
        if at.weekday() < 5 or m.group(1) == "last":
            saturday -= timedelta(days=7)
        found.append(((to_ms(saturday), to_ms(saturday + timedelta(days=2))), m.group(0)))
    return found


def _hour(hh: str, mm: str | None, half: str | None) -> tuple[int, int] | None:
    """(hour, minute) of a clock the question names; a bare number is a clock only with am/pm or o'clock."""
    hour, minute = int(hh), int(mm) if mm else 0
    if half is None and mm is None or hour > 24 or minute > 59:
        return None
    if half and half[0] in "ap" and not 1 <= hour <= 12:
        return None
    if half and half[0] == "p" and hour < 12:
        hour += 12
    elif half and half[0] == "a" and hour == 12:
        hour = 0
    return hour % 24, minute


def _bare_hour(word: str, hh: str, mm: str | None) -> tuple[int, int] | None:
    """'at 5' (only after 'at', 'around' or 'about'): an hour of the waking day, 1-7 in the afternoon or evening."""
    if mm is not None or word not in ("at", "around", "at around", "at about", "about") or not 1 <= int(hh) <= 12:
        return None
    return (int(hh) + 12 if int(hh) <= 7 else int(hh)) % 24, 0


_LATE = re.compile(r"\b(?:afternoon|evening|night|tonight)\b")


def _in_part(at: tuple[int, int], half: str | None, late: bool) -> tuple[int, int]:
    """A clock said without am/pm in a question naming the afternoon, evening or night is in the second half of
    the day ('at 3 o'clock yesterday afternoon' is 15:00); 'o'clock' alone keeps the waking day's reading."""
    hour, minute = at
    if half is not None and half[0] in "ap":
        return at
    if late and 1 <= hour < 12:
        return hour + 12, minute
    if half is not None and 1 <= hour <= 7:  # '3 o'clock': the afternoon
        return hour + 12, minute
    return at


def clock_moments(question: str, at_ms: int, days: list[tuple[int, int]]) -> list[tuple[tuple[int, int], str]]:
    """The clock times a question names, as absolute (start, end) moments on the days it names (else the
    latest day on which that time has passed), each with its words. A range's bare end takes the start's
    half of the day ('from 9 to 10 am')."""
    text = question.lower()
    found: list[tuple[tuple[int, int], str]] = []
    for m in _CLOCK_RANGE.finditer(text):
        g = m.groups()
        end = _hour(g[4], g[5], g[7]) or _hour(g[4], g[5] or "00", g[3])
        start = _hour(g[0], g[1], g[3] or g[7]) or (_hour(g[0], "00", g[7]) if end else None)
        if start and end:
            found.append(((start[0] * 60 + start[1], end[0] * 60 + end[1]), m.group(0)))
    ranged = "".join(words for _, words in found)
    late = bool(_LATE.search(text))
    for m in _CLOCK_AT.finditer(text):
        at = _hour(m.group(2), m.group(3), m.group(5))
        bare = _bare_hour(m.group(1), m.group(2), m.group(3)) if not at else None
        at = _in_part(at, m.group(5), late) if at else _in_part(bare, None, late) if bare else None
        if at and m.group(0) not in ranged:
            found.append(((at[0] * 60 + at[1], at[0] * 60 + at[1]), m.group(0)))
    out: list[tuple[tuple[int, int], str]] = []
    for (lo, hi), words in found:
        for midnight in _midnights(days, at_ms, lo):
            begin = midnight + lo * 60_000
            if not days or any(d_lo <= begin < d_hi for d_lo, d_hi in days):  # 'at 8 last night': that night's 8
                out.append(((begin, midnight + max(hi, lo) * 60_000), words))
    return out


def _midnights(days: list[tuple[int, int]], at_ms: int, minute: int) -> list[int]:
    """Local midnights of the named days (at most 7), else of the latest day the minute has passed on."""
    if days:
        out: list[int] = []
        for lo, hi in days:
            day = local(lo).replace(hour=0, minute=0, second=0, microsecond=0)
            while to_ms(day) < hi and len(out) < 7:
                out.append(to_ms(day))
                day += timedelta(days=1)
        return out
    today = _day(local(at_ms), 0)
    passed = to_ms(today) + minute * 60_000 <= at_ms
    return [to_ms(today if passed else _day(local(at_ms), 1))]


def _clip(windows: list[tuple[int, int]], lo: int | None, hi: int | None) -> list[tuple[int, int]]:
    out = []
    for start, end in windows:
        start = max(start, lo) if lo is not None else start
        end = min(end, hi) if hi is not None else end
        if start < end:
            out.append((start, end))
    return out


def parse_scope(question: str, at_ms: int, choices: list[str] | None = None,
                videos: dict[int, BoundVideo] | None = None, since_ms: int | None = None,
                until_ms: int | None = None, nights: tuple[tuple[int, int], ...] = ()) -> Scope:
    """The scope of a question asked at `at_ms`, narrowed by --since/--until and bound videos, in the wearer's days."""
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise UsageError("--since must be before --until")
    videos = videos or {}
    question = spoken_clock(apostrophes(question.lower()))  # 'at half ten' is 'at 10:30'
    tags = parse_tags([question, *(choices or [])], videos)
    backwards = bool(_LAST_TIME.search(question.lower()))
    future = not videos and bool(_FUTURE.search(question.lower()))
    if future and (past := _PAST_DAY.search(question.lower())) and (coming := COMING_DAY.search(question.lower())):
        raise UsageError(f"the question names a past time ('{past.group(0)}') and a coming one "
                         f"('{coming.group(0)}'): ask about one of them")
    named = [] if videos or future else relative_windows(question, at_ms, nights)
    named = [((lo, max(hi, at_ms + 1)), f"since {words}") if re.search(rf"\bsince {re.escape(words)}\b", question)
             else ((lo, hi), words) for (lo, hi), words in named]  # 'since wednesday': from then until now
    moments = [] if videos or future else clock_moments(question, at_ms, [w for w, _ in named])
    notes = [words for _, words in named] + [words for _, words in moments]
    if moments:  # 'this morning at 7:48': the clock narrows the day
        named = [((lo - pad, hi + pad), words) for (lo, hi), words in moments
                 for pad in [POINT_PAD_MS if lo == hi else 60_000]]
    windows = [w for w, _ in named]
    upper = until_ms if until_ms is not None else (at_ms + 1 if backwards or named else None)
    if windows or since_ms is not None or upper is not None:
        windows = _clip(windows or [(since_ms if since_ms is not None else -(2 ** 62), 2 ** 62)],
                        since_ms, upper)
        if not windows:
            if since_ms is None and until_ms is None:  # 'this afternoon', asked in the morning
                raise UsageError(f"{', '.join(notes) or 'the time the question names'} has not come yet: ask about a "
                                 "time before now")
            raise UsageError("the question's time scope lies outside --since/--until")
    if backwards:
        notes.append("last time: newest match before the question")
    if future:
        upper = upper if upper is not None else at_ms + 1
        windows = windows or _clip([(since_ms if since_ms is not None else -(2 ** 62), 2 ** 62)], since_ms, upper)
    label = "a plan said before now" if future and not notes else ", ".join(notes) if notes else ("videos " + ", ".join(v.name for v in videos.values())
                                           if videos else "the whole log")
    return Scope(tuple(windows), tuple(videos[k] for k in sorted(videos)), tuple(tags), backwards,
                 at_ms, label, notes, tuple(span for span, _ in moments), future, nights)


def within_part(scope: Scope, part: str, latest_only: bool) -> Scope:
    """The scope narrowed to one part of the day ('my evening tablet'): that part of each day in its windows;
    with no days named, of the latest day on which that part has begun (`latest_only`: 'did I take my evening
    tablet?') or of each of the last PART_DAYS days ('when did I last take my evening tablet?')."""
    at = local(scope.at_ms)
    if (days := named_days(scope)) is not None:
        spans = [_span(d, part, scope.nights) for d in days]
        inside = [(max(a, lo), min(b, hi)) for a, b in spans for lo, hi in scope.windows if max(a, lo) < min(b, hi)]
        label = f"{scope.label}, {part}"
    else:
        back = 0 if _span(_day(at, 0), part, scope.nights)[0] <= scope.at_ms else 1
        inside = [_span(_day(at, back + k), part, scope.nights) for k in range(1 if latest_only else PART_DAYS)]
        label = (f"this {part}" if back == 0 else f"yesterday {part}") if latest_only else f"{part}s"
    inside = sorted((lo, min(hi, scope.at_ms + 1)) for lo, hi in inside if lo <= scope.at_ms)
    return replace(scope, windows=tuple(inside) or scope.windows, label=label)


def named_days(scope: Scope) -> list[datetime] | None:
    """The local midnights of the days a scope's windows touch, in order; None with no window or one over a week."""
    if not scope.windows or any(hi - lo > 8 * 86_400_000 for lo, hi in scope.windows):
        return None
    days = sorted({local(t).date() for lo, hi in scope.windows for t in range(lo, hi, 3_600_000)})
    return [datetime(d.year, d.month, d.day).astimezone() for d in days]


def hours_of_days(scope: Scope, hours: tuple[int, int], days_back: int = 7) -> list[tuple[int, int]]:
    """Those hours of every day the scope's windows touch, not clipped to the windows ('my tea last night' is the
    evening meal of yesterday, whatever hours 'last night' names); with no days named, of each of the last
    `days_back` days on which they have begun; none after the moment of asking."""
    starts = named_days(scope)
    if starts is None:
        starts = [_day(local(scope.at_ms), k) for k in range(days_back)]
    spans = [(to_ms(d + timedelta(hours=hours[0])), to_ms(d + timedelta(hours=hours[1]))) for d in starts]
    return sorted((lo, min(hi, scope.at_ms + 1)) for lo, hi in spans if lo <= scope.at_ms)


PART_DAYS = 30
"""Days back a part of the day is looked for when no day is named ('my last evening walk')."""
