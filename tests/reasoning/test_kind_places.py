"""A noun for a kind of place ('appointments', 'errands') counts the visits to any place of that kind where
one was seen, not the calls that booked them, on a real store."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2026-12-06T21:00")
WEEK = [
    ("2026-12-01T08:05", "speech", "receptionist: Elm Street Surgery, Dr Shah can see you at ten to five"),
    ("2026-12-01T08:06", "note", "GP Dr Shah today 16:50, Elm Street Surgery"),
    ("2026-12-01T16:45", "visual", "waiting room at Elm Street Surgery, a fish tank"),
    ("2026-12-01T16:55", "speech", "Dr Shah: your blood pressure is fine"),
    ("2026-12-03T10:00", "speech", "hello, Smiles Dental here, confirming Friday at nine"),
    ("2026-12-05T08:55", "text", "Smiles Dental - reception"),
    ("2026-12-05T09:05", "visual", "dentist's chair, a bright lamp overhead"),
    ("2026-12-05T13:00", "visual", "a park bench, pigeons"),
]


def test_appointments_are_the_visits_not_the_calls(tmp_path):
    store = day_log(tmp_path / "log.db", WEEK)
    answer = said(store, "How many appointments did I have this week?", AT)
    assert answer.startswith("2 times") and "16:45" in answer


def test_a_kind_with_no_visit_is_none(tmp_path):
    store = day_log(tmp_path / "log.db", WEEK[:2])
    assert said(store, "How many appointments did I have this week?", AT).startswith(("Nothing", "Not that"))
