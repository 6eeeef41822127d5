"""A question heard stands in for an answer with its reply: the line another voice speaks next holds it."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

DAY = [
    ("2027-10-23T20:00", "speech", "Quizmaster: Good evening, ladies and gents. Round one, general knowledge."),
    ("2027-10-23T20:05", "speech", "Quizmaster: Question four. In what year did the London Routemaster bus enter service?"),
    ("2027-10-23T20:05", "speech", "Fifty-six. Nineteen fifty-six. Write it down, Stan."),
    ("2027-10-23T20:06", "visual", "a hand writing 1956 on an answer sheet"),
    ("2027-10-23T20:40", "speech", "Stan: Are you having another?"),
]


def test_a_question_heard_is_answered_with_its_reply(tmp_path):
    store = day_log(tmp_path / "quiz.db", DAY)
    text = said(store, "what year did i say for the routemaster at the quiz", parse_time_ms("2027-10-24T10:00"))
    assert "Routemaster" in text and "Fifty-six" in text, text


ASKING = [
    ("2027-10-23T07:13", "speech", "Maureen: Liam's coming this afternoon, about two."),
    ("2027-10-23T13:38", "speech", "What time's Liam coming?"),
    ("2027-10-23T13:38:20", "speech", "Maureen: Two, Ken. About two."),
    ("2027-10-23T14:02", "speech", "What time's Liam coming, love?"),
    ("2027-10-23T14:30", "speech", "Where's Liam parked?"),
    ("2027-10-23T14:45", "speech", "What time did our Liam say?"),
    ("2027-10-23T15:20", "speech", "Liam: Grandad, what time's the quiz tonight?"),
]


def test_the_questions_the_wearer_asked_are_counted_not_those_heard(tmp_path):
    store = day_log(tmp_path / "asking.db", ASKING)
    text = said(store, "how many times did i ask what time liam was coming", parse_time_ms("2027-10-23T18:00"))
    assert text.startswith("3 times") and "14:45" in text and "15:20" not in text, text
