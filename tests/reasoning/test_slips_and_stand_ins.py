"""A word typed wrong is read as the log's word (English words and words the log holds are left as typed); a line
standing in for an answer is of the kind the question asks for."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import spelling

from .conftest import day_log, said


def test_a_slip_is_read_as_the_logs_word(tmp_path):
    store = day_log(tmp_path / "slips.db", [
        ("2027-03-04T10:07", "text", "sign — Calderford Royal Infirmary — hospital outpatients"),
        ("2027-03-04T10:20", "visual", "a magnifier on the arm of the chair, a doctors' waiting room"),
        ("2027-03-04T11:00", "visual", "a funnel on the shelf above the sink"),
    ])
    assert spelling.corrected(store, "how long was I at the hosptial") == "how long was I at the hospital"
    assert spelling.corrected(store, "where's my magnifyer") == "where's my magnifier"
    assert spelling.corrected(store, "when's the docters") == "when's the doctors"
    assert spelling.corrected(store, "did I buy fennel") == "did I buy fennel"  # a short word: another word
    assert spelling.corrected(store, "how many times did I spend") == "how many times did I spend"  # English
    assert spelling.corrected(store, "whats on monday") == "whats on monday"
    answer = said(store, "when did I see my magnifyer", parse_time_ms("2027-03-04T12:00"))
    assert "10:20" in answer and "magnifier" in answer
    store.close()


def test_a_who_question_stands_on_a_line_where_someone_is(tmp_path):
    """Without a computed answer, 'who moved my van keys?' is answered by the best line in which someone other
    than the wearer speaks or is named, not by the wearer's own 'where are the van keys?'."""
    store = day_log(tmp_path / "who.db", [
        ("2027-03-04T07:52", "speech", "Aga: Clive. Your van keys fell down the back of the shelf. I put them in the fruit bowl."),
        ("2027-03-04T12:42", "speech", "van keys. Where are the van keys? They go on the hook."),
    ])
    answer = said(store, "who moved my van keys", parse_time_ms("2027-03-04T14:00"))
    assert "Aga" in answer, answer
    store.close()
