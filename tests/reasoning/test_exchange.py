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
