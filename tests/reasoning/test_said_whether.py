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


def test_what_someone_said_at_an_occasion_is_their_words_there_not_about_it(tmp_path):
    """'What did Helen say in the budget review?' is Helen's words while the review went on, not her words that
    name a review, nor her words in the corridor later."""
    from egocli.core.timeutil import parse_time_ms
    from egocli.reasoning import understand

    from .conftest import day_log, said

    assert understand.by_rules("what did helen say in the budget review").other == "in the budget review"
    store = day_log(tmp_path / "review.db", [
        ("2027-01-15T09:00", "speech", "Helen: Morning all, the budget review is at two, bring your numbers"),
        ("2027-01-15T14:00", "visual", "meeting room, the budget review slides on the screen"),
        ("2027-01-15T14:10", "speech", "Helen: We closed a hundred and twelve claims this week"),
        ("2027-01-15T14:40", "visual", "meeting room, the budget review ending, chairs pushed back"),
        ("2027-01-15T16:30", "speech", "Helen: Don't forget Denise's cake at half four"),
    ])
    told = said(store, "what did helen say in the budget review", parse_time_ms("2027-01-15T18:00"))
    assert "hundred and twelve" in told and "cake" not in told and "bring your numbers" not in told


def test_words_said_when_someone_came_or_after_an_occasion(tmp_path):
    """'When he came round' is the speaker's own visit, no topic to rank by; 'after the game' is from its end on."""
    store = day_log(tmp_path / "words.db", [
        ("2026-12-14T14:00", "visual", "the match kicking off, Ellie in goal"),
        ("2026-12-14T14:30", "speech", "coach: keep your shape, girls"),
        ("2026-12-14T15:30", "visual", "the final whistle, the match over, two all"),
        ("2026-12-14T15:38", "speech", "coach: well played girls, a draw's a fair result in this mud."),
        ("2026-12-14T17:14", "speech", "Gordon: Evening, Jess! Brought your leaf blower back."),
        ("2026-12-14T17:18", "speech", "Gordon: Oh, and recycling's Thursday this week."),
    ])
    at = parse_time_ms("2026-12-14T21:00")
    assert "leaf blower" in said(store, "what did gordon say when he came round", at)
    after = said(store, "what did the coach say after the match", at)
    assert "fair result" in after and "keep your shape" not in after
