"""Time said about the future: a plan's day read from its own words, relative to when it was said, and a
question about coming days ('what have I got on next week?') answered by the plans said for those days, on a
real store, never by a past window of those weekdays."""

from __future__ import annotations

from datetime import date

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning.coming import asked_span, said_days

from .conftest import day_log, said

SAID = parse_time_ms("2026-12-01T09:12")  # a Tuesday


@pytest.mark.parametrize("text, days", [
    ("I can come out next Tuesday, the eighth, at four o'clock", [date(2026, 12, 8)]),
    ("dentist Tue 8 Dec 16:00", [date(2026, 12, 8)]),
    ("dinner is Saturday the twelfth at seven", [date(2026, 12, 12)]),
    ("a table for six at seven on the twelfth, and the name?", [date(2026, 12, 12)]),
    ("see you Thursday at 4 pm", [date(2026, 12, 3)]),  # '4 pm' is a clock, not the 4th
    ("next Monday", [date(2026, 12, 7)]),
    ("I went there on Tuesday last week", []),
    ("last Friday", []),
    ("the review is on 2026-12-15", [date(2026, 12, 15)]),
    ("parcel due 3rd of January", [date(2027, 1, 3)]),  # the next such day: next year
    ("see you tomorrow", [date(2026, 12, 2)]),
    ("back in two weeks", [date(2026, 12, 15)]),
    ("the first time I sat in the sun", []),  # no weekday's short form without its number
    ("we were on the second floor", []),  # an ordinal that names a floor, not a day
    ("van MOT moved - Thu 1pm (not 8.30)", [date(2026, 12, 3)]),  # a short weekday that is no other word
    ("sat in the sun with the wed photos", []),  # 'sat', 'sun' and 'wed' alone are words
    ("that's your Tuesday morning ones done", [date(2026, 12, 1)]),  # said on a Tuesday with a part: that day
    ("see you Tuesday", [date(2026, 12, 8)]),  # said on a Tuesday alone: the next
    ("QUIZ NIGHT every Saturday 8pm", []),  # a habit, no one day
])
def test_a_line_names_the_days_it_is_said_for(text, days):
    assert [lo for lo, _ in said_days(text, SAID)] == days


def test_a_question_names_a_coming_span():
    assert asked_span("what have I got on next week?", SAID) == (date(2026, 12, 7), date(2026, 12, 13))
    assert asked_span("anything on this weekend?", SAID) == (date(2026, 12, 5), date(2026, 12, 6))
    assert asked_span("how was my day?", SAID) is None


DAYS = [
    ("2026-11-30T10:00", "speech", "Sam: the team lunch is this Wednesday at noon, at the Crown"),
    ("2026-12-01T09:12", "speech", "Gary: I can come out next Tuesday, the eighth, at four o'clock"),
    ("2026-12-01T09:14", "note", "boiler engineer Gary Tue 8 Dec 16:00, call-out 75 pounds"),
    ("2026-12-01T11:05", "speech", "Kate: Dad's birthday dinner is Saturday the twelfth at seven at Luigi's"),
    ("2026-12-01T12:00", "speech", "I went to the post office on Tuesday last week"),
    ("2026-12-01T15:00", "speech", "Ravi: the audit is on the 21st, so after your holiday"),
]
AT = parse_time_ms("2026-12-01T21:30")


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAYS)


def test_next_week_lists_the_plans_said_for_it_by_day(store):
    answer = said(store, "What have I got on next week?", AT)
    assert "Tuesday 8 December" in answer and "Saturday 12 December" in answer
    assert "Gary" in answer and "Luigi's" in answer
    assert answer.index("Tuesday 8 December") < answer.index("Saturday 12 December")
    assert "audit" not in answer  # the 21st is the week after
    assert "team lunch" not in answer  # said on Monday 30th: 'this Wednesday' is 2 December


def test_a_coming_weekday_is_found_by_the_day_the_plan_names(store):
    answer = said(store, "What's on next Tuesday?", AT)
    assert "Gary" in answer and "Luigi's" not in answer and "post office" not in answer


def test_coming_days_with_nothing_said_for_them(store):
    answer = said(store, "What have I got on next month?", AT)
    assert answer.startswith("Nothing planned")


def test_a_thing_said_for_a_coming_day_is_not_yet_done(tmp_path):
    store = day_log(tmp_path / "log.db", [
        ("2026-11-28T15:00", "speech", "Note to self: water the tomato plants on the balcony tomorrow morning."),
        ("2026-11-28T15:05", "speech", "Pharmacist: your refill will be ready on Monday after ten."),
    ])
    at = parse_time_ms("2026-11-28T19:00")  # a Saturday
    assert said(store, "When did I water the plants?", at).startswith("Not that I can see")
    monday = said(store, "What's on Monday?", at)
    assert monday.startswith("Monday 30 November") and "refill" in monday


def test_a_plan_asked_in_the_present_with_its_day_is_read_from_what_was_said(tmp_path):
    """'What time do I start on Thursday?' asks about a coming Thursday: the lines said for that day answer (the
    latest change, written 'Thu'), not a line that names only the word ('a cold start') nor last Thursday."""
    store = day_log(tmp_path / "log.db", [
        ("2026-11-26T09:00", "visual", "the shop floor on Thursday morning, starting the shift at nine"),
        ("2026-11-28T07:53", "note", "shift swap with Dev: I work Thu 3 Dec 9 till 5.30"),
        ("2026-11-29T20:16", "speech", "Dev: Carol's redone the rota, so Thu is ten till six now"),
        ("2026-11-29T20:17", "note", "Thu shift now 10-6"),
        ("2026-11-29T20:40", "speech", "(radio) a cold start for most of us tomorrow, with patchy fog"),
    ])
    at = parse_time_ms("2026-11-29T21:00")  # a Sunday
    answer = said(store, "what time do I start on thursday", at)
    assert "10-6" in answer and "cold start" not in answer
    assert "10-6" in said(store, "thursday - what time's my shift now", at)
