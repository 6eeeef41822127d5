"""How something turned out (reasoning/outcomes.py), on a real store: the line that tells a result while the occasion
went on or just after it ('Second, with 49 points', 'MOT result: PASS', 'I won!'), one naming it first; a line that
only names it, or a word of winning said before it began, is no result."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import understand
from egocli.reasoning.scope import parse_scope

from .conftest import day_log, said

AT = parse_time_ms("2026-12-15T08:00")
NIGHT = [
    ("2026-12-14T13:00", "text", "MOT test certificate - Ford Transit - PASS - advisory: front tyres"),
    ("2026-12-14T13:05", "speech", "Phil: that'll be seventy-one pounds thirty-five"),
    ("2026-12-14T17:00", "speech", "Tasha: I bet we win tonight, I can feel it"),
    ("2026-12-14T19:18", "text", "chalkboard - QUIZ NIGHT every Monday 7.30 - Jackpot 60"),
    ("2026-12-14T19:31", "speech", "Quizmaster: Right, round one, general knowledge"),
    ("2026-12-14T20:44", "text", "answer sheet - Team: Weir Wolves - Round 4: Picture round - 8/10"),
    ("2026-12-14T21:33", "speech", "Quizmaster: Second, with 49 points, Weir Wolves! And the winners, The Usual Suspects!"),
    ("2026-12-14T21:40", "visual", "walking home along the canal in the dark"),
]


@pytest.mark.parametrize("question, form", [("how did the mot go", "outcome"), ("how did we do at the quiz", "outcome"),
                                            ("who won the quiz?", "outcome"), ("what did i get at the market", "list"),
                                            ("how did i get to the hospital", "travel")])
def test_questions_about_how_it_turned_out_read_the_outcome_form(question, form):
    assert understand.by_rules(question, parse_scope(question, AT)).form == form


def test_the_result_is_the_line_that_tells_it(tmp_path):
    store = day_log(tmp_path / "day.db", NIGHT)
    quiz = said(store, "how did we do at the quiz", AT)
    assert "49 points" in quiz and "bet" not in quiz, quiz
    assert "PASS" in said(store, "how did the mot go", AT)
    assert "8/10" in said(store, "what did we score on the picture round", AT)


def test_no_result_line_is_no_result(tmp_path):
    store = day_log(tmp_path / "day.db", NIGHT[3:6])
    answer = said(store, "who won the quiz", AT)
    assert "winners" not in answer and not answer.startswith("Yesterday at 19:18: chalkboard"), answer
