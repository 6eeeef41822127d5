"""Times as people type them: "this morning", "Tuesday at 3", "an hour ago", "last weekend", "noon".

A phrase names a moment or a period; the result is the moment, or the start of the period (what
`--since` wants). Phrases are read from three parts, in any order: a day ("yesterday", "last friday",
"nov 28"), a part of the day ("morning", "noon") and a clock time ("3pm", "14:05", "at 3").
Words left over make the phrase unreadable, so a typo is an error, never a silent guess.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from egocli.core.lexicon import lexicon

_TIME = lexicon().time
WEEKDAYS: tuple[str, ...] = _TIME["weekdays"]
WEEKDAY_ABBR = {d[:3]: d for d in WEEKDAYS} | {"tues": "tuesday", "thur": "thursday", "thurs": "thursday"}
"""A weekday's short forms -> its name."""
MONTHS: tuple[str, ...] = _TIME["months"]
PARTS: dict[str, tuple[int, int]] = _TIME["moments"]
"""Part of the day -> (start hour, start minute). "night" starts in the evening."""
NUMBER_WORDS: dict[str, float] = _TIME["quantities"]
UNIT_SECONDS: dict[str, int] = _TIME["units"]
_NUM = r"(\d+(?:\.\d+)?|" + "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True)) + r")"
_UNIT = r"(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|[smhdw])"
_AGO = re.compile(rf"^{_NUM}\s*{_UNIT}(?:\s+and\s+a\s+half)?\s+(ago|before now|earlier)$")
_IN = re.compile(rf"^in\s+{_NUM}\s*{_UNIT}(?:\s+and\s+a\s+half)?$")
_CLOCK = re.compile(r"\b(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?\s*(a\.?m\.?|p\.?m\.?)?(?=\s|$)")
_FILLER = {"at", "on", "in", "the", "this", "of", "around", "about", "earlier", "o'clock", "oclock", ""}


_HOURS = {w: int(n) for w, n in NUMBER_WORDS.items() if n == int(n) and 1 <= n <= 12 and " " not in w
          and w not in ("a", "an")}
_HOUR = r"(\d{1,2}|" + "|".join(sorted(_HOURS, key=len, reverse=True)) + r")"
_MIN_WORDS: dict[str, int] = _TIME["clock_minutes"]
_AFTER_WORDS: dict[str, int] = _TIME["clock_after"]
_PAST_TO = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _MIN_WORDS), key=len, reverse=True)) +
                      rf"|\d{{1,2}})(?: minutes?)? (past|after|to|before) {_HOUR}(?![\w:])")
_HALF = re.compile(rf"\bhalf {_HOUR}(?![\w:])(?! (?:hours?|minutes?|days?|weeks?|times?)\b)")
_WORD_CLOCK = re.compile(rf"\b(at|around|about|by|till|until|from|after|before|since) {_HOUR} (" +
                         "|".join(sorted(map(re.escape, _AFTER_WORDS), key=len, reverse=True)) + r")(?![\w'])")


_RANGE = re.compile(rf"\b(between {_HOUR} (and)|from {_HOUR} (to|till|until)) {_HOUR}(?![\w:.])"
                    r"(?!\s*(?:a\.?m|p\.?m|o'?clock)\b)")
"""Two bare hours of a span ('between three and five', 'from 10 till 2'): an hour from 1 to 6 is in the afternoon
as a clock said alone is, and a second hour below the first runs past noon."""
_BARE_HOUR = re.compile(rf"\b(at|around|about|by|till|until|since) {_HOUR}(?![\w:.'])")
"""A bare hour said in words after a word of time ('at three', 'by five'), in digits as 'at 3' is read."""
_CLOCK_END = re.compile(r"\s*(?:$|[?.!,;)]|(?:a\.?m|p\.?m|o'?clock|today|yesterday|tonight|this|last|on|in|at|and|or|"
                        r"when|then|the|my)\b)")
"""What may follow the hour of 'ten to four' said with a bare number: the end, a time word, a new clause."""


def _waking(hour: int, minutes: int, morning: bool) -> str:
    """A clock said in words, as digits: an hour from 1 to 6 is in the afternoon ('half four' is 16:30: nobody
    says 'quarter past three' of the night), as 'at 3' is, unless the question says morning or night."""
    return f"{hour}:{minutes:02d}" + (" pm" if 1 <= hour <= 6 and not morning else "")


_MORNING = re.compile(r"\b(?:morning|a\.?m\.?|night|early)\b")


def _hour_of(word: str) -> int | None:
    hour = int(word) if word.isdigit() else _HOURS.get(word)
    return hour if hour is not None and 0 <= hour <= 23 else None


def spoken_clock(text: str) -> str:
    """Clock times said in words, in digits: 'half past ten' and 'half ten' -> '10:30', 'quarter to four' ->
    '3:45', 'at ten thirty' -> 'at 10:30', 'three o'clock' -> '3 o'clock'; what is not a clock is kept."""
    morning = bool(_MORNING.search(text))

    def past_to(m: re.Match[str]) -> str:
        minutes = int(m.group(1)) if m.group(1).isdigit() else _MIN_WORDS[m.group(1)]
        hour = _hour_of(m.group(3))
        if hour is None or not 0 < minutes < 60:
            return m.group(0)
        bare = m.group(1) not in ("quarter", "a quarter", "half") and "minute" not in m.group(0)
        if bare and (m.group(1).isdigit() or not _CLOCK_END.match(text, m.end())
                     or re.search(r"\b(?:from|between)\s*$", text[:m.start()])):
            return m.group(0)  # 'ten to two friends', 'from 9 to 10 am', 'from ten to eleven': no clock
        if m.group(2) in ("to", "before"):
            hour, minutes = (hour - 1) % 24 or (12 if hour <= 12 else 0), 60 - minutes
        return _waking(hour, minutes, morning)

    def half(m: re.Match[str]) -> str:
        hour = _hour_of(m.group(1))
        return _waking(hour, 30, morning) if hour is not None and hour <= 12 else m.group(0)

    def word_clock(m: re.Match[str]) -> str:
        hour, minutes = _hour_of(m.group(2)), _AFTER_WORDS[m.group(3)]
        if hour is None:
            return m.group(0)
        if m.group(3) in ("o'clock", "oclock"):
            return f"{m.group(1)} {hour} o'clock"
        return f"{m.group(1)} {_waking(hour, minutes, morning)}"

    def bare(m: re.Match[str]) -> str:
        hour = _hour_of(m.group(2))
        return f"{m.group(1)} {hour}" if hour is not None and _CLOCK_END.match(text, m.end()) else m.group(0)

    def between(m: re.Match[str]) -> str:
        lead, joint = ("between", m.group(3)) if m.group(2) else ("from", m.group(5))
        lo, hi = _hour_of(m.group(2) or m.group(4)), _hour_of(m.group(6))
        if lo is None or hi is None or lo > 12 or hi > 12 or morning:
            return m.group(0)
        if hi < lo:  # 'between 10 and 2': into the afternoon
            return f"{lead} {lo} {'pm' if lo == 12 else 'am'} {joint} {hi} pm"
        return f"{lead} {lo} pm {joint} {hi} pm" if 1 <= lo <= 6 else f"{lead} {lo} {joint} {hi}"

    text = _PAST_TO.sub(past_to, text)
    text = _HALF.sub(half, text)
    text = _WORD_CLOCK.sub(word_clock, text)
    text = _RANGE.sub(between, text)
    text = _BARE_HOUR.sub(bare, text)
    return re.sub(rf"\b{_HOUR} o'?clock\b", lambda m: f"{_hour_of(m.group(1))} o'clock"
                  if _hour_of(m.group(1)) is not None else m.group(0), text)


def _count(word: str) -> float:
    return float(word) if word[0].isdigit() else NUMBER_WORDS[word]


def _unit(word: str) -> int:
    return UNIT_SECONDS[word.rstrip("s") if len(word) > 1 else word]


def _relative(text: str, now: datetime) -> datetime | None:
    """'2h ago', 'an hour and a half ago', 'in 20 minutes'."""
    for pattern, sign in ((_AGO, -1), (_IN, 1)):
        m = pattern.match(text)
        if m:
            amount = _count(m.group(1)) + (0.5 if "and a half" in text else 0)
            return now + sign * timedelta(seconds=amount * _unit(m.group(2)))
    return None


def _period(text: str, midnight: datetime, now: datetime) -> datetime | None:
    """'last week', 'this week', 'last weekend', 'this month', 'last month', 'last night'."""
    monday = midnight - timedelta(days=midnight.weekday())
    first = midnight.replace(day=1)
    periods = {
        "this week": monday, "last week": monday - timedelta(days=7),
        "last weekend": monday - timedelta(days=2), "the weekend": monday - timedelta(days=2),
        "this weekend": monday + timedelta(days=5),
        "this month": first, "last month": (first - timedelta(days=1)).replace(day=1),
        "this year": midnight.replace(month=1, day=1),
        "last night": midnight - timedelta(hours=6),
        "the day before yesterday": midnight - timedelta(days=2), "day before yesterday": midnight - timedelta(days=2),
    }
    return periods.get(text)


def _take_day(text: str, midnight: datetime) -> tuple[datetime | None, str]:
    """Find the day a phrase names; return it and the text without it."""
    words = {"today": 0, "yesterday": -1, "tomorrow": 1, "tonight": 0}
    for word, offset in words.items():
        if re.search(rf"\b{word}\b", text):
            rest = text if word == "tonight" else re.sub(rf"\b{word}\b", " ", text)
            return midnight + timedelta(days=offset), rest
    m = re.search(r"\b(last |this past |this |next )?(" + "|".join([*WEEKDAYS, *WEEKDAY_ABBR]) + r")\b", text)
    if m:
        name = WEEKDAY_ABBR.get(m.group(2), m.group(2))
        back = (midnight.weekday() - WEEKDAYS.index(name)) % 7
        qualifier = (m.group(1) or "").strip()
        if qualifier == "next":
            day = midnight + timedelta(days=(7 - back) % 7 or 7)
        else:
            day = midnight - timedelta(days=7 if back == 0 and qualifier in ("last", "this past") else back)
        return day, text[:m.start()] + " " + text[m.end():]
    return _take_date(text, midnight)


def _take_date(text: str, midnight: datetime) -> tuple[datetime | None, str]:
    """'nov 28', '28 november', 'november 28th' (this year, or last year if that is ahead)."""
    month = r"(" + "|".join(m[:3] + r"[a-z]*" for m in MONTHS) + r")"
    for pattern, day_group, month_group in ((rf"\b{month}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", 2, 1),
                                            (rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{month}\b", 1, 2)):
        m = re.search(pattern, text)
        if m and m.group(month_group)[:3] in [x[:3] for x in MONTHS]:
            number = [x[:3] for x in MONTHS].index(m.group(month_group)[:3]) + 1
            try:
                day = midnight.replace(month=number, day=int(m.group(day_group)))
            except ValueError:
                return None, text
            if day > midnight + timedelta(days=1):
                day = day.replace(year=day.year - 1)
            return day, text[:m.start()] + " " + text[m.end():]
    return None, text


def _take_part(text: str) -> tuple[tuple[int, int] | None, str]:
    m = re.search(r"\b(" + "|".join(PARTS) + r")\b", text)
    if not m:
        return None, text
    return PARTS[m.group(1)], text[:m.start()] + " " + text[m.end():]


def _take_clock(text: str, part: tuple[int, int] | None) -> tuple[tuple[int, int, int] | None, str]:
    """'3pm', '14:05', '9:30 a.m.', 'at 3' (a bare hour 1-6 means the afternoon, or the part named)."""
    for m in _CLOCK.finditer(text):
        hour, minute, second = int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0)
        ampm = (m.group(4) or "").replace(".", "")
        bare = m.group(2) is None and not ampm
        before = text[:m.start()].split()
        if bare and not (before and before[-1] in ("at", "around", "about")) and len(text.split()) > 1:
            continue  # a lone number next to other words is not a time ("3 days"), unless 'at 3'
        if ampm == "pm" and hour < 12 or (bare and (part or (0, 0))[0] >= 12 and hour < 12):
            hour += 12
        elif ampm == "am" and hour == 12:
            hour = 0
        elif bare and part is None and 1 <= hour <= 6:
            hour += 12
        if hour > 23 or minute > 59 or second > 59 or (ampm and not 1 <= int(m.group(1)) <= 12):
            return None, "\x00"  # unreadable on purpose
        return (hour, minute, second), text[:m.start()] + " " + text[m.end():]
    return None, text


def parse_phrase(text: str, now: datetime) -> datetime | None:
    """The moment a phrase names (the start of a named period), or None if it is not a readable phrase."""
    low = " ".join(text.lower().replace(",", " ").split())
    if low == "now":
        return now
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    found = _relative(low, now) or _period(low, midnight, now)
    if found is not None:
        return found
    day, rest = _take_day(low, midnight)
    part, rest = _take_part(rest)
    clock, rest = _take_clock(rest, part)
    if any(word not in _FILLER for word in rest.split()) or rest == "\x00":
        return None
    if day is None and part is None and clock is None:
        return None
    moment = day or midnight
    if clock is not None:
        return moment.replace(hour=clock[0], minute=clock[1], second=clock[2])
    if part is not None:
        return moment.replace(hour=part[0], minute=part[1])
    return moment


_TIME_OF_DAY = re.compile(r"\b\d{1,2}(?:[:.]\d\d)?\s?(?:am|pm)\b|\b\d{1,2}[:.]\d\d\b|o'clock|\b\d{1,2}-\d{1,2}\b|"
                          r"\b(?:half|quarter) (?:past |to )?\w+")


_STATED = re.compile(r"(?<![\u00a3$\d.:])\b(\d{1,2})(?:[:.](\d{2}))?\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)"
                     r"|(?<![\u00a3$\d.:])\b(\d{1,2})[:.](\d{2})\b(?![.:]?\d)"
                     r"|\b(?:at|by|for|from|till|until) " + _HOUR +
                     r"\b(?![.:]?\d)(?! (?:days?|weeks?|months?|minutes?|hours?|mins?|wks?|pounds?|quid)\b)")
"""A clock time a text states ('1pm', '8.30', '09:10', 'at six'), not money ('\u00a34.20') nor a date."""


def clocks(text: str) -> frozenset[tuple[int, int]]:
    """The clock times a lower-case text states (spoken ones first put in digits by `spoken_clock`), each as (hour on
    a 12-hour dial, minute): 'Thu 1pm (not 8.30)' -> {(1, 0), (8, 30)}."""
    out = set()
    for m in _STATED.finditer(text):
        hour = m.group(1) or m.group(3) or m.group(5)
        minute = int(m.group(2) or m.group(4) or 0)
        h = int(hour) if hour.isdigit() else _HOURS[hour]
        if 0 <= h <= 23 and minute < 60:
            out.add((h % 12, minute))
    return frozenset(out)


def without_clocks(text: str) -> str:
    """A lower-case text less the clock times it states."""
    return _STATED.sub(" ", text)


def says_clock(text: str) -> bool:
    """Whether a line says a time of day ('10:30', '1pm', hours '10-6', 'half nine', 'one o'clock')."""
    return bool(_TIME_OF_DAY.search(text.lower()))
