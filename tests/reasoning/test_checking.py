"""Whether a plan still holds ('is the dentist still at 10 on Friday?'), answered from the latest line about it on a
real store: a plan that moved is a no that says where it moved, one that stands is a yes, and a line that
neither says is given as it is, never as a yes."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning.checking import stated
from egocli.reasoning.understand import by_rules

from .conftest import day_log, said

DAYS = [
    ("2026-12-01T09:00", "speech", "Receptionist: that's the dentist, Friday the fourth at ten o'clock, Dr Hale"),
    ("2026-12-01T09:02", "note", "dentist Fri 4 Dec 10am Dr Hale"),
    ("2026-12-01T10:30", "speech", "Omar: I'll pick you up for the match on Saturday at two"),
    ("2026-12-01T13:15", "text", "Dentist: Dr Hale is away. Your appointment is now Fri 4 Dec 11.40, not 10am. Reply Y"),
    ("2026-12-01T14:00", "speech", "Nadia: can't do Thursday now, the car's in the garage. I'll come on Sunday with Leo"),
    ("2026-12-01T14:02", "note", "Nadia coming Sunday with Leo, not Thursday"),
    ("2026-12-01T16:40", "text", "School: swimming club cancelled this week, pool closed for repairs"),
    ("2026-12-01T17:05", "text", "Ben: change of plan, the quiz is at the Anchor instead. same time"),
    ("2026-12-01T17:30", "speech", "(radio) a slow start on the roads this evening"),
    ("2026-12-01T18:00", "note", "Mia - NOT swimming - grandad takes her to ballet 4.30"),
]
AT = parse_time_ms("2026-12-01T20:00")  # a Tuesday


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return day_log(tmp_path_factory.mktemp("check") / "log.db", DAYS)


def test_a_moved_time_is_a_no_that_says_where_it_moved(store):
    answer = said(store, "Is the dentist still at 10 on Friday?", AT)
    assert answer.startswith("No:") and "11.40" in answer


def test_the_time_it_moved_to_is_a_yes(store):
    answer = said(store, "is my dentist appointment at twenty to twelve on friday", AT)
    assert answer.startswith("Yes:") and "11.40" in answer


def test_a_day_said_no_to_is_a_no(store):
    answer = said(store, "is Nadia still coming on Thursday?", AT)
    assert answer.startswith("No:") and "Sunday" in answer


def test_a_claim_of_words_the_latest_line_holds_is_a_yes(store):
    answer = said(store, "is Leo coming with Nadia?", AT)
    assert answer.startswith("Yes:") and "Leo" in answer


def test_words_said_no_to_or_called_off_are_a_no(store):
    assert said(store, "am I taking Mia to swimming?", AT).startswith("No:")
    assert said(store, "is swimming club on this week?", AT).startswith("No:")


def test_a_change_that_does_not_say_to_what_is_no_yes(store):
    answer = said(store, "is the quiz at the Anchor?", AT)
    assert not answer.startswith(("Yes", "No"))
    assert "Anchor" in answer


def test_no_plan_stated_for_the_time_asked_is_not_a_guess(store):
    answer = said(store, "am I still starting at 9 on Thursday?", AT)  # only a radio line says 'start'
    assert not answer.startswith(("Yes", "No:")) and "radio" not in answer


def test_which_of_two_is_not_a_yes_or_no():
    assert by_rules("is it the Crown or the Anchor tonight?") is None
    plan = by_rules("is the dentist still at 10 on friday?")
    assert plan is not None and plan.form == "check"


def test_a_line_states_its_times_apart_from_those_it_says_no_to():
    line = stated("van MOT moved - Thu 1pm Dobson's (not 8.30) - paid \u00a34.20 deposit", AT)
    assert line.clocks == {(1, 0)} and line.denied_clocks == {(8, 30)}
    assert stated("meet at half eight", AT).clocks == {(8, 30)}
    assert stated("lunch moved from Wednesday to Friday", AT).denied_days
    assert "bowl" in stated("Stan: off to Scarborough on Tuesday. So no bowls for me on Wednesday.", AT).denied_terms
    assert not stated("No, it's still Saturday", AT).denied_terms  # a 'No,' answering says no to nothing after it


def test_a_thing_said_no_to_on_a_day_of_the_week_asked_is_a_no(tmp_path):
    log = day_log(tmp_path / "log.db", [("2026-12-01T13:06", "speech", "Stan: Here, we're off to Scarborough on "
                                         "Tuesday for the week. So no bowls for me on Wednesday.")])
    assert said(log, "is stan coming to bowls next week", AT).startswith("No:")


CHANGES = [
    ("2026-12-01T09:00", "text", "Priya: quiz night at the Anchor, Friday at 8? x"),
    ("2026-12-01T09:05", "note", "quiz Priya - Fri 8pm Anchor"),
    ("2026-12-01T09:06", "speech", "Priya and the quiz, Friday, eight till eleven"),  # part of the plan, said again
    ("2026-12-02T12:30", "text", "Priya: sorry!! change of plan, the quiz is Saturday now, same time x"),
    ("2026-12-02T12:34", "note", "quiz Priya moved to Sat 8pm"),  # the same change, written down
    ("2026-12-03T18:00", "text", "Priya: quiz back to Friday after all, but 7.30 this time. sorry!! x"),
    ("2026-12-03T21:00", "note", "plans - Fri: quiz 7.30 with Priya - Mon: dentist 9.10"),  # a list, no change
]
LATER = parse_time_ms("2026-12-03T22:00")


@pytest.fixture(scope="module")
def moved(tmp_path_factory):
    return day_log(tmp_path_factory.mktemp("changes") / "log.db", CHANGES)


def test_a_plan_changed_twice_is_counted_twice_with_each_change(moved):
    answer = said(moved, "how many times has Priya changed the quiz?", LATER)
    assert answer.startswith("2 times") and "Saturday now" in answer and "after all" in answer


def test_a_plan_never_changed_is_none(tmp_path):
    store = day_log(tmp_path / "log.db", CHANGES[:3])
    assert said(store, "how many times did Priya move the quiz?", LATER).startswith("0 times")


def test_why_a_plan_changed_is_the_line_that_says_so_with_its_reason(moved):
    answer = said(moved, "why did Priya move the quiz the first time?", LATER)
    assert "Saturday now" in answer and "after all" not in answer


def test_why_names_the_day_asked_about(store):
    answer = said(store, "why can't Nadia come on Thursday?", AT)
    assert "the car's in the garage" in answer
