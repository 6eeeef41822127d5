from datetime import datetime, timedelta, timezone

import pytest

from egocli.core.errors import UsageError
from egocli.core.timeutil import format_clock, parse_clock, parse_duration, parse_time

NOW = datetime(2026, 11, 30, 10, 30, tzinfo=timezone.utc)  # a Monday


@pytest.mark.parametrize("text, expected", [
    ("now", NOW),
    ("2h ago", NOW - timedelta(hours=2)),
    ("90 minutes ago", NOW - timedelta(minutes=90)),
    ("2026-11-28T13:00:00+00:00", datetime(2026, 11, 28, 13, 0, tzinfo=timezone.utc)),
    ("2026-11-28T13:00:00Z", datetime(2026, 11, 28, 13, 0, tzinfo=timezone.utc)),
])
def test_parse_time_absolute_and_relative(text, expected):
    assert parse_time(text, NOW) == expected


def test_parse_time_local_forms():
    local_now = NOW.astimezone()
    today = local_now.replace(hour=0, minute=0, second=0, microsecond=0)
    assert parse_time("14:05", NOW) == today.replace(hour=14, minute=5)
    assert parse_time("3:00 pm", NOW) == today.replace(hour=15)
    assert parse_time("yesterday 15:00", NOW) == (today - timedelta(days=1)).replace(hour=15)
    assert parse_time("yesterday", NOW) == today - timedelta(days=1)
    back = (local_now.weekday() - 1) % 7 or 7
    assert parse_time("last tuesday 9:30", NOW) == (today - timedelta(days=back)).replace(hour=9, minute=30)


@pytest.mark.parametrize("bad", ["", "soon", "25:00", "yesterday at noonish", "2026-13-01"])
def test_parse_time_rejects_garbage(bad):
    with pytest.raises(UsageError):
        parse_time(bad, NOW)


def test_clock_round_trip():
    assert parse_clock("00:16:37.000") == 997_000
    assert parse_clock("01:02:03,450") == 3_723_450
    assert parse_clock("2:03.5") == 123_500
    assert format_clock(3_723_450, ",") == "01:02:03,450"
    with pytest.raises(ValueError):
        parse_clock("12")


def test_durations():
    assert parse_duration("30d") == 30 * 86_400_000
    assert parse_duration("90 minutes") == 5_400_000
    with pytest.raises(UsageError):
        parse_duration("forever")


WED = datetime(2026, 12, 2, 10, 30).astimezone()  # a Wednesday, local time


def _day(day: int, hour: int = 0, minute: int = 0, month: int = 12) -> datetime:
    return WED.replace(month=month, day=day, hour=hour, minute=minute)


@pytest.mark.parametrize("text, expected", [
    ("this morning", _day(2, 5)), ("this afternoon", _day(2, 12)), ("tonight", _day(2, 18)),
    ("last night", _day(1, 18)), ("yesterday evening", _day(1, 18)), ("noon", _day(2, 12)),
    ("tuesday at 3", _day(1, 15)), ("tuesday at 3pm", _day(1, 15)), ("10 am yesterday", _day(1, 10)),
    ("an hour ago", _day(2, 9, 30)), ("half an hour ago", _day(2, 10)), ("an hour and a half ago", _day(2, 9)),
    ("a couple of hours ago", _day(2, 8, 30)), ("in 20 minutes", _day(2, 10, 50)),
    ("last weekend", _day(28, month=11)), ("last week", _day(23, month=11)), ("this month", _day(1)),
    ("last month", _day(1, month=11)), ("the day before yesterday", _day(30, month=11)),
    ("nov 28", _day(28, month=11)), ("november 28 at 1pm", _day(28, 13, month=11)), ("mon 9:00", _day(30, 9, month=11)),
    ("friday morning", _day(27, 5, month=11)), ("earlier today", _day(2)), ("tomorrow at 9:30", _day(3, 9, 30)),
    ("wednesday", _day(2)), ("last wednesday", _day(25, month=11)),
])
def test_phrases_people_type(text, expected):
    assert parse_time(text, WED) == expected


@pytest.mark.parametrize("bad", ["3 dayz ago", "tuesday at 25", "the morning after", "nov 31", "last fortnight"])
def test_phrases_with_leftover_words_are_refused(bad):
    with pytest.raises(UsageError, match="cannot read the time"):
        parse_time(bad, WED)
