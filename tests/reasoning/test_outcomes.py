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


def test_with_no_result_line_what_was_said_there_is_told_as_that(tmp_path):
    """'How did Lorraine get on at the hospital?': no line says a result; the consultant's words and the note made
    there are told, opened as no result ('I can't see a result as such'), not the till receipt nor the tannoy."""
    log = day_log(tmp_path / "h.db", [
        ("2026-12-14T10:05", "visual", "hospital main entrance, glass doors sliding open"),
        ("2026-12-14T10:07", "text", "sign - Calderford Royal Infirmary - Neurology Outpatients"),
        ("2026-12-14T10:30", "speech", "(tannoy) could the owner of a silver estate please return to their vehicle"),
        ("2026-12-14T10:46", "speech", "Dr Gupta: I'd like to increase the baclofen to fifteen milligrams."),
        ("2026-12-14T11:04", "note", "Lorraine baclofen up to 15mg - wheelchair services to ring re cushion"),
        ("2026-12-14T11:10", "visual", "hospital cafe, a tray with a pot of tea"),
        ("2026-12-14T11:11", "text", "till - Infirmary Cafe - tea 1.80 - TOTAL 1.80 - card"),
        ("2026-12-14T11:20", "text", "sign - Calderford Royal Infirmary - Way Out"),
    ])
    answer = said(log, "how did lorraine get on at the hospital", AT)
    assert answer.startswith("I can't see a result as such") and "baclofen" in answer and "cushion" in answer, answer
    assert "tannoy" not in answer and "till" not in answer, answer


GAMES = [
    ("2026-12-14T13:00", "text", "MOT test certificate - Ford Transit - PASS - advisory: front tyres"),
    ("2026-12-14T17:30", "text", "TV graphic - MAN UTD v ASTON VILLA - kick-off 5.30pm"),
    ("2026-12-14T17:54", "speech", "(TV commentator) And it's Villa who lead!"),
    ("2026-12-14T19:24", "text", "TV score - FULL-TIME - MAN UTD 1-2 ASTON VILLA"),
    ("2026-12-14T20:00", "visual", "kick-off, Ellie in the red number 7 shirt of Westfield Girls, on the left wing"),
    ("2026-12-14T21:36", "visual", "final whistle, Westfield Girls 2, Northgate Girls 2"),
]


@pytest.mark.parametrize("question, opens", [
    ("did the van pass its mot", "Yes"),
    ("did villa win", "Yes"),  # the full-time score has Villa ahead
    ("did man utd win", "No"),
    ("did westfield win", "No"),  # level: nobody won
    ("did the van fail its mot", "No"),
])
def test_a_yes_no_about_how_it_turned_out_is_its_result_line(tmp_path, question, opens):
    answer = said(day_log(tmp_path / "g.db", GAMES), question, AT)
    assert answer.startswith(f"{opens}:"), answer


def test_how_someone_got_on_is_read_from_their_own_words_or_lines_naming_them(tmp_path):
    from .minilm import indexed
    from egocli.reasoning import asker

    day = [
        ("2027-10-23T15:12", "speech", "Liam: Guess what, Grandad, I passed my eighteenth edition. Eighty-four percent."),
        ("2027-10-23T16:52", "speech", "radio: And it's full time at the Shay. FC Halifax Town two, Altrincham one."),
        ("2027-10-23T16:54", "speech", "Liam: Leeds only drew, one each. Typical."),
    ]
    store = day_log(tmp_path / "got_on.db", day)
    at = parse_time_ms("2027-10-24T12:00")
    assert "Halifax Town two" in said(store, "how did halifax get on yesterday", at)
    emb = indexed(store)  # which of Liam's result lines is about his exam is a matter of meaning
    req = asker.AskRequest("how did liam get on with his exam", at_ms=at, hcc=False, llm=False)
    exam = asker.answer(None, asker.assemble(store, req, emb), req).text
    assert "passed" in exam and "Leeds" not in exam, exam
    assert understand.by_rules("how did i get on") is None  # no occasion, no one else: no outcome plan
