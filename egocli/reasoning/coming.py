"""Days said about the future, read from what was said: a plan said aloud or noted ('I can come out next
Tuesday, the eighth, at four', 'Sat 12 Dec 19:00', 'dinner is Saturday the twelfth at seven') names coming days
relative to when it was said, and a question ('what have I got on next week?', 'anything on tomorrow?') names a
coming span relative to when it is asked. The same reader does both, so a plan is found by the day it is for.

Readings, each a span of whole days [first, last]:
- dates: '2026-12-08', '8 Dec', 'December 8th', 'the 8th of December' (the next such day on or after the
  saying);
- weekdays: 'Tuesday' or 'on/this Tuesday' (the next one after the saying), 'next Tuesday' (the one in the
  following calendar week), either with its day of the month ('Tuesday the eighth', 'Sat 12 Dec'), which wins;
  a weekday's short form before its number ('Sat 12'), or alone when it is no other word ('Thu 1pm'), so 'sat'
  and 'sun' stay words;
- 'on the eighth' / 'the 12th': the next day of that number;
- 'tomorrow', 'the day after tomorrow', 'today', 'tonight', 'this afternoon', 'in N days/weeks';
- 'next week' (Monday to Sunday of the following week), '(this) weekend', 'next weekend', 'next month'."""

from __future__ import annotations

import re
from datetime import date, timedelta

from egocli.core.lexicon import lexicon
from egocli.core.timephrases import WEEKDAY_ABBR
from egocli.core.timeutil import local

Span = tuple[date, date]

_TIME = lexicon().time
_WEEKDAYS: tuple[str, ...] = _TIME["weekdays"]
_MONTHS: tuple[str, ...] = _TIME["months"]
_ORDINALS: tuple[str, ...] = _TIME["ordinals"]
_NUMBERS: dict[str, float] = _TIME["quantities"]
_MONTH = r"(" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?"
_DIGITS = r"\d{1,2}(?:st|nd|rd|th)?(?![:.]?\d)(?!\s*(?:am|pm|a\.m|p\.m|o'?clock|h)\b)"
"""A day of the month in digits, not a clock time ('4 pm', '16:00')."""
_NAMED = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_ORD = r"(" + _DIGITS + r"|(?<=the )(?:" + _NAMED + r"))"
"""A day of the month: digits, or an ordinal word after 'the' ('the eighth'; 'first thing' names no day)."""
_DOM = r"(?:,?\s+(?:the\s+)?" + _ORD + r"(?:\s+of)?(?:\s+" + _MONTH + r")?)?"
_FULL_DAY = r"(" + "|".join(_WEEKDAYS) + r")"
_SHORT_DAY = r"(" + "|".join(sorted(WEEKDAY_ABBR, key=len, reverse=True)) + r")\.?"
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_WEEKDAY = re.compile(r"\b(next|this coming|this past|this|on|coming|last)?\s*\b" + _FULL_DAY + r"\b" + _DOM +
                      r"\b(\s+(?:" + "|".join(sorted(_TIME["past_after"], key=len, reverse=True)) + r"))?")
"""A weekday, its lead word and day of the month; 'last Tuesday', 'on Tuesday last week' name past days."""
_SHORT = re.compile(r"\b" + _SHORT_DAY + r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:\s+" + _MONTH + r")?")
_ALONE = re.compile(r"\b(" + "|".join(sorted(_TIME["short_alone"], key=len, reverse=True)) + r")\b\.?(?![-'\u2019])")
"""A short weekday that is no other word, alone ('Thu 1pm', 'moved to Fri')."""
_DATE = re.compile(r"(?<![\d:.])\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _MONTH + r"\b|\b" + _MONTH +
                   r"\s+(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)")
_THE_DAY = re.compile(r"\b(?:on the (" + _DIGITS + "|" + _NAMED + r")|the (\d{1,2}(?:st|nd|rd|th)))\b"
                      r"(?=\s*(?:$|[,.;:!?)]|(?:at|in|for|then|and|or|is|please)\b))")
"""'On the twelfth', 'the 12th': a day of the month alone, ending its phrase ('on the second floor', 'the
first time' name none)."""
_WORDS = re.compile(r"\b(the day after tomorrow|tomorrow|tonight|later today|today|this (?:morning|afternoon|evening)|"
                    r"next week|next weekend|"
                    r"(?:this |the )?weekend|next month|in (\d+|" + "|".join(map(re.escape, _NUMBERS)) +
                    r")\s+(days?|weeks?))\b")
_ANY = re.compile(r"\b(?:" + "|".join([*_WEEKDAYS, *_TIME["short_alone"]]) + "|" + "|".join(m[:3] for m in _MONTHS) +
                  r"|tomorrow|tonight|today|week|weekend|month|\d{1,2}(?:st|nd|rd|th)|\d{4}-\d\d|" +
                  "|".join(_ORDINALS) + r")")
"""A quick test that a text may name a day at all, before it is read."""


def said_days(text: str, said_ms: int) -> list[Span]:
    """The coming days `text` names, said at `said_ms`, in the order they are named."""
    lowered = text.lower()
    if not _ANY.search(lowered):
        return []
    said = local(said_ms).date()
    found: list[tuple[int, Span]] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match[str], span: Span | None, past: bool = False) -> None:
        if any(a < m.end() and m.start() < b for a, b in taken) or (span is None and not past):
            return
        taken.append((m.start(), m.end()))  # a past day's words name nothing else either
        if span is not None:
            found.append((m.start(), span))

    for m in _ISO.finditer(lowered):
        add(m, _day(_safe(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
    for m in _WEEKDAY.finditer(lowered):
        habit = f" {lowered[:m.start()]}".rstrip().endswith(" every")  # 'every Saturday' names no one day
        past = m.group(1) in ("last", "this past") or m.group(5) or habit
        today = m.group(1) in (None, "this", "on") and not m.group(3) and \
            _WEEKDAYS.index(m.group(2)) == said.weekday() and \
            lowered[m.end():].split()[:1] in ([p] for p in _PARTS)  # 'your Saturday morning ones', said then
        day = _day(said) if today else _weekday(said, m.group(2), m.group(1), m.group(3), m.group(4))
        add(m, None if past else day, bool(past))
    for m in _SHORT.finditer(lowered):
        add(m, _weekday(said, _full(m.group(1)), None, m.group(2), m.group(3)))
    for m in _ALONE.finditer(lowered):
        add(m, _weekday(said, _full(m.group(1)), None, None, None))
    for m in _DATE.finditer(lowered):
        month, number = (m.group(2), m.group(1)) if m.group(1) else (m.group(3), m.group(4))
        add(m, _day(_next_date(said, _dom(number), _month(month))))
    for m in _THE_DAY.finditer(lowered):
        add(m, _day(_next_date(said, _dom(m.group(1) or m.group(2)), None)))
    for m in _WORDS.finditer(lowered):
        add(m, _words(said, m.group(1), m.group(2), m.group(3)))
    return [span for _, span in sorted(found, key=lambda f: f[0])]


def asked_span(question: str, at_ms: int) -> Span | None:
    """The coming span a question names ('next week', 'tomorrow', 'on Saturday'), else None."""
    spans = said_days(question, at_ms)
    return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None


def overlaps(a: Span, b: Span) -> bool:
    """Whether two day spans share a day."""
    return a[0] <= b[1] and b[0] <= a[1]


def _day(d: date | None) -> Span | None:
    return (d, d) if d is not None else None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _full(short: str) -> str:
    return WEEKDAY_ABBR[short.rstrip(".")]


def _month(word: str | None) -> int | None:
    return [m[:3] for m in _MONTHS].index(word[:3]) + 1 if word else None


def _dom(word: str | None) -> int | None:
    if not word:
        return None
    digits = re.match(r"\d+", word)
    return int(digits.group(0)) if digits else _ORDINALS.index(word) + 1


def _next_date(said: date, dom: int | None, month: int | None) -> date | None:
    """The first date on or after `said` with that day of the month (and month, when given)."""
    if dom is None or not 1 <= dom <= 31:
        return None
    year, mon = said.year, month or said.month
    for _ in range(24):
        d = _safe(year, mon, dom)
        if d is not None and d >= said:
            return d
        if month:
            year += 1
        else:
            year, mon = (year + 1, 1) if mon == 12 else (year, mon + 1)
    return None


_PARTS = tuple(lexicon().time["parts"])
"""Parts of the day: a weekday said with one on that weekday is that very day ('Saturday morning', on a Saturday)."""


def _weekday(said: date, name: str, lead: str | None, number: str | None, month: str | None) -> Span | None:
    """A weekday said on `said`: its day of the month when given, else the next one ('next': the next week's)."""
    target = _WEEKDAYS.index(name)
    if number:
        d = _next_date(said, _dom(number), _month(month))
        return _day(d) if d is not None and (d - said).days < 370 else None
    ahead = (target - said.weekday()) % 7 or 7
    if lead == "next":
        monday = said + timedelta(days=7 - said.weekday())
        return _day(monday + timedelta(days=target))
    return _day(said + timedelta(days=ahead))


def _words(said: date, phrase: str, count: str | None, unit: str | None) -> Span:
    """A coming span said in words: tomorrow, next week, the weekend, in three days..."""
    monday = said + timedelta(days=7 - said.weekday())
    saturday = said + timedelta(days=(5 - said.weekday()) % 7)
    if count and unit:
        n = int(count) if count.isdigit() else int(_NUMBERS.get(count, 1))
        return (said + timedelta(days=n * (7 if unit.startswith("week") else 1)),) * 2
    if phrase == "the day after tomorrow":
        return (said + timedelta(days=2),) * 2
    if phrase == "tomorrow":
        return (said + timedelta(days=1),) * 2
    if phrase in ("tonight", "later today", "today") or re.fullmatch(r"this (?:morning|afternoon|evening)", phrase):
        return (said, said)
    if phrase == "next week":
        return (monday, monday + timedelta(days=6))
    if phrase == "next weekend":
        return (monday + timedelta(days=5), monday + timedelta(days=6))
    if phrase == "next month":
        first = (said.replace(day=1) + timedelta(days=32)).replace(day=1)
        return (first, (first + timedelta(days=32)).replace(day=1) - timedelta(days=1))
    if said.weekday() == 6:  # 'this weekend' said on a Sunday is today
        return (said, said)
    return (saturday, saturday + timedelta(days=1))
