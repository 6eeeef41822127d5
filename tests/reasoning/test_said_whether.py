"""'Did X say Y?' is a yes or no computed from X's lines, on a real store: a line about Y that says no is a
no, one that says Y is a yes, and none about Y is 'not that I heard' (never a guessed yes)."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2026-12-04T20:00")
DAY = [
    ("2026-12-04T09:30", "speech", "Priya: the quarterly report can wait until Monday"),
    ("2026-12-04T10:05", "speech", "Priya: and no, we are not moving the office party"),
    ("2026-12-04T11:20", "visual", "the optician's, Mr Cole with the eye chart"),
    ("2026-12-04T11:31", "speech", "Mr Cole: your eyes are fine, the same prescription as last year"),
    ("2026-12-04T11:33", "speech", "Mr Cole: come back in two years"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


def test_a_line_that_says_it_is_a_yes(store):
    answer = said(store, "Did Priya say the report can wait?", AT)
    assert answer.startswith("Yes") and "Monday" in answer


def test_a_line_about_it_that_says_no_is_a_no(store):
    answer = said(store, "Did Priya say we're moving the office party?", AT)
    assert answer.startswith("No") and "office party" in answer


def test_nothing_said_about_it_is_not_a_yes(store):
    answer = said(store, "Did the optician say I need new glasses?", AT)
    assert answer.startswith("Not that I heard") and "Mr Cole" in answer
