from datetime import datetime, timedelta, timezone

import pytest

from egocli.errors import UsageError
from egocli.timeutil import format_clock, parse_clock, parse_duration, parse_time

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
