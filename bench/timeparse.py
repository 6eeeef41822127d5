"""Natural-language times: egocli's parser against dateparser and parsedatetime.

A table of 64 expressions (and 20 held out) people type into `--since`, `--at`, `ask` or a reminder, each with the
moments that count as right, relative to a fixed "now" (Wednesday 2026-12-02 10:30 local time).
A phrase naming a period ("this morning", "last week") is right when the parser gives a moment
that can start that period (e.g. 05:00-09:00 for "this morning"). Prints, per parser, how many it
reads correctly, how many it reads wrongly (a wrong moment, worse than an error for a lifelog), how
many it refuses, and its import time (`python -X importtime`, cumulative, in a fresh process).

    python bench/timeparse.py            # needs dateparser and parsedatetime installed to compare
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime

NOW = datetime(2026, 12, 2, 10, 30).astimezone()  # a Wednesday


def at(day: int, hour: int = 0, minute: int = 0, month: int = 12) -> datetime:
    """A local moment in Nov/Dec 2026."""
    return NOW.replace(month=month, day=day, hour=hour, minute=minute, second=0, microsecond=0)


def nov(day: int, hour: int = 0, minute: int = 0) -> datetime:
    return at(day, hour, minute, month=11)


def span(lo: datetime, hi: datetime) -> tuple[datetime, datetime]:
    return lo, hi


# expression -> accepted moments: a datetime, a (lo, hi) span, or a list of either
TABLE: dict[str, object] = {
    "now": NOW, "today": at(2), "yesterday": at(1), "tomorrow": at(3), "14:05": at(2, 14, 5),
    "2:05 pm": at(2, 14, 5), "3pm": at(2, 15), "9am": at(2, 9), "8:15": at(2, 8, 15), "noon": at(2, 12),
    "midnight": [at(2), at(3)], "at 3": [at(2, 3), at(2, 15)],
    "this morning": span(at(2, 5), at(2, 9)), "this afternoon": span(at(2, 12), at(2, 13)),
    "this evening": span(at(2, 17), at(2, 19)), "tonight": span(at(2, 17), at(2, 21)),
    "last night": span(at(1, 17), at(1, 22)), "yesterday morning": span(at(1, 5), at(1, 9)),
    "yesterday afternoon": span(at(1, 12), at(1, 13)), "yesterday evening": span(at(1, 17), at(1, 19)),
    "yesterday 15:00": at(1, 15), "yesterday at 3pm": at(1, 15), "10 am yesterday": at(1, 10),
    "yesterday noon": at(1, 12), "2h ago": at(2, 8, 30), "2 hours ago": at(2, 8, 30), "an hour ago": at(2, 9, 30),
    "30 minutes ago": at(2, 10), "30 min ago": at(2, 10), "5 minutes ago": at(2, 10, 25),
    "half an hour ago": at(2, 10), "a minute ago": at(2, 10, 29), "an hour and a half ago": at(2, 9),
    "3 days ago": [nov(29, 10, 30), nov(29)], "a week ago": [nov(25, 10, 30), nov(25)],
    "two weeks ago": [nov(18, 10, 30), nov(18)], "tuesday": at(1), "last tuesday": [at(1), nov(24)],
    "monday": nov(30), "on monday": nov(30), "last monday 9:30": [nov(30, 9, 30), nov(23, 9, 30)],
    "mon 9:00": nov(30, 9), "tuesday at 3": at(1, 15), "tuesday at 3pm": at(1, 15),
    "friday morning": span(nov(27, 5), nov(27, 9)), "last friday evening": span(nov(27, 17), nov(27, 19)),
    "last thursday": nov(26), "thursday afternoon": span(nov(26, 12), nov(26, 13)),
    "sunday night": span(nov(29, 17), nov(29, 22)), "last week": span(nov(22), nov(25, 10, 30)),
    "this week": [nov(29), nov(30)], "last weekend": span(nov(27, 17), nov(28)),
    "last month": span(nov(1), nov(2, 10, 30)), "this month": at(1), "2026-11-28": nov(28),
    "2026-11-28 13:00": nov(28, 13), "nov 28": nov(28), "28 november": nov(28),
    "november 28 at 1pm": nov(28, 13), "the day before yesterday": nov(30), "earlier today": at(2),
    "in 20 minutes": at(2, 10, 50), "tomorrow at 9:30": at(3, 9, 30), "tomorrow morning": span(at(3, 5), at(3, 9)),
}


# Written after egocli's parser was (so TABLE is not independent of it), and scored without changing it.
HELD_OUT: dict[str, object] = {
    "last saturday": nov(28), "saturday afternoon": span(nov(28, 12), nov(28, 13)), "4 hours ago": at(2, 6, 30),
    "45 minutes ago": at(2, 9, 45), "yesterday at noon": at(1, 12), "this morning at 8": at(2, 8),
    "at 7:45": at(2, 7, 45), "10:15 am": at(2, 10, 15), "1 day ago": [at(1, 10, 30), at(1)],
    "3 weeks ago": [nov(11, 10, 30), nov(11)], "december 1": at(1), "1st december": at(1), "tue 14:00": at(1, 14),
    "monday evening": span(nov(30, 17), nov(30, 19)), "a couple of hours ago": at(2, 8, 30),
    "earlier this morning": span(at(2, 5), at(2, 9)), "yesterday around 6pm": at(1, 18), "last sunday": nov(29),
    "this tuesday": [at(1), at(8)], "12 noon": at(2, 12),
}


def right(got: datetime, accepted: object) -> bool:
    """Whether a parsed moment is one of the accepted ones (to the minute)."""
    if isinstance(accepted, list):
        return any(right(got, a) for a in accepted)
    got = got.replace(second=0, microsecond=0)
    if isinstance(accepted, tuple):
        return accepted[0] <= got <= accepted[1]
    return got == accepted


def egocli_parser() -> Callable[[str], datetime | None]:
    from egocli.core.errors import UsageError
    from egocli.core.timeutil import parse_time

    def parse(text: str) -> datetime | None:
        try:
            return parse_time(text, NOW)
        except UsageError:
            return None
    return parse


def dateparser_parser() -> Callable[[str], datetime | None]:
    import dateparser

    settings = {"RELATIVE_BASE": NOW.replace(tzinfo=None), "PREFER_DATES_FROM": "past"}

    def parse(text: str) -> datetime | None:
        found = dateparser.parse(text, settings=settings)
        return None if found is None else found.replace(tzinfo=NOW.tzinfo)
    return parse


def parsedatetime_parser() -> Callable[[str], datetime | None]:
    import parsedatetime

    cal = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)

    def parse(text: str) -> datetime | None:
        found, ctx = cal.parseDT(text, sourceTime=NOW.replace(tzinfo=None))
        return found.replace(tzinfo=NOW.tzinfo) if ctx.hasDateOrTime else None
    return parse


def import_ms(module: str) -> float | None:
    """Cumulative import time of a module in a fresh interpreter, from `python -X importtime`."""
    run = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return None
    tops = [int(m.group(1)) for m in re.finditer(r"import time:\s+\d+ \|\s+(\d+) \| (\S.*)", run.stderr)
            if m.group(2) == m.group(2).lstrip() and not m.group(2).startswith(" ")]
    return sum(tops) / 1000


def main() -> None:
    """Print the table of results and the summary per parser."""
    parsers = {"egocli": (egocli_parser, "egocli.core.timeutil, egocli.core.timephrases"),
               "dateparser": (dateparser_parser, "dateparser"), "parsedatetime": (parsedatetime_parser, "parsedatetime")}
    rows: dict[str, dict[str, str]] = {text: {} for text in (*TABLE, *HELD_OUT)}
    for name, (make, module) in parsers.items():
        try:
            parse = make()
        except ImportError:
            print(f"{name}: not installed, skipped")
            continue
        for label, table in (("table", TABLE), ("held-out", HELD_OUT)):
            counts = {"right": 0, "wrong": 0, "refused": 0}
            for text, accepted in table.items():
                got = parse(text)
                verdict = "refused" if got is None else "right" if right(got, accepted) else "wrong"
                counts[verdict] += 1
                rows[text][name] = "ok" if verdict == "right" else "-" if got is None else got.strftime("%m-%d %H:%M")
            print(f"{name:14} {label:9} right {counts['right']:2}/{len(table)}  wrong {counts['wrong']:2}  "
                  f"refused {counts['refused']:2}")
        ms = import_ms(module)
        print(f"{name:14} import {ms if ms is None else f'{ms:.0f} ms'} (python -X importtime, cumulative)")
    names = [n for n in parsers if any(n in r for r in rows.values())]
    print("\n" + f"{'expression':28}" + "".join(f"{n:>16}" for n in names))
    for text, row in rows.items():
        print(f"{text:28}" + "".join(f"{row.get(n, ''):>16}" for n in names))


if __name__ == "__main__":
    main()
