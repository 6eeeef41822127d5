"""A word typed wrong is read as the log's word (English words and words the log holds are left as typed); a line
standing in for an answer is of the kind the question asks for."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.models.fake import ScriptedModel
from egocli.reasoning import asker, retrieval, spelling

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


def test_a_stand_in_holds_the_number_or_the_latest_word_a_question_asks_for(tmp_path):
    """'What time's my eye appointment?' stands on a line with a time in it, not on the best line without one; 'when's
    the quote at Hannah's?' on the newest line that still holds the words of the best one (the plan was moved and
    moved back), never on a newer line that shares only some of them."""
    store = day_log(tmp_path / "typed.db", [
        ("2027-01-05T18:00", "text", "letter — Eye Clinic — Lister Wing — Wednesday 6 January at 10.40am — Mr Osei"),
        ("2027-01-06T07:15", "speech", "Eye drops again. Both eyes, my appointment, mind."),
        ("2027-01-06T08:00", "note", "quote Hannah Pike, Alder Close - Thu 17 Dec 2pm"),
        ("2027-01-06T09:23", "note", "Hannah Pike quote MOVED to Fri 18 Dec 11am"),
        ("2027-01-06T20:35", "note", "Hannah Pike quote - back to Thu 17 Dec, now 4pm"),
        ("2027-01-06T21:00", "speech", "Hannah rang about the hedge."),
    ])
    at = parse_time_ms("2027-01-06T22:00")
    assert "10.40" in said(store, "what time's my eye appointment", at)
    answer = said(store, "when's the quote at hannah's", at)
    assert "4pm" in answer, answer
    assert "rang" not in answer
    store.close()


def test_the_kind_of_answer_a_question_asks_for():
    assert retrieval.answer_kind("Who's my dentist appointment with?") == "person"
    assert retrieval.answer_kind("what time's my eye appointment") == "number"
    assert retrieval.answer_kind("what number bus did I get") == "number"
    assert retrieval.answer_kind("when's the van ready?") == "date"
    assert retrieval.answer_kind("when did the nurse take my blood") is None  # the line's own time answers it
    assert retrieval.answer_kind("whenever it rains, where do I go") is None
    assert retrieval.asks_coming("when's the quote at Hannah's")
    assert not retrieval.asks_coming("when's the last time I saw Bob")
    assert not retrieval.asks_coming("when did Joy find my magnifier")
    assert retrieval.fits("number", "iron tablet, take ONE a day") and not retrieval.fits("number", "iron tablet")
    assert retrieval.fits("date", "back to Thu 17 Dec") and not retrieval.fits("person", "bathroom, brushing teeth")


def test_the_model_picks_the_line_that_answers_only_when_it_agrees_under_both_orders(tmp_path):
    """With a model and no computed answer, the model chooses among the best lines by number (under a grammar),
    asked with the lines in one order and then the other: an agreed line stands in for the answer; a choice that
    only follows the first line shown is not taken."""
    store = day_log(tmp_path / "pick.db", [
        ("2026-12-14T08:16", "text", "bus shelter timetable — Route 14 Hartfield via Mill Road"),
        ("2026-12-14T08:22", "visual", "on board a green single-decker bus, tapping a bank card on the reader"),
        ("2026-12-14T08:24", "visual", "seat near the back of the bus, the tool bag on the knees"),
        ("2026-12-14T08:47", "visual", "stepping off the bus on Hartfield Road, number 31"),
    ])
    req = asker.AskRequest("what number bus did i get", at_ms=parse_time_ms("2026-12-14T20:00"), hcc=False)
    ctx = asker.assemble(store, req)
    lines = asker._ranked(ctx)[:asker.PICK_AMONG]
    want = next(i for i, e in enumerate(lines) if "Route 14" in e.content)
    model = ScriptedModel(str(want + 1), str(len(lines) - want))  # the same line, first in one order, then the other
    picked = asker.answer(model, ctx, req)
    assert picked.text.startswith("The closest I can find: bus shelter timetable — Route 14"), picked.text
    assert picked.decided_by == "model" and model.calls == 2
    assert "Which line answers" in model.prompts[0][1]["content"]
    first_shown = ScriptedModel("1", "1", "nothing relevant in the log.")  # the first line shown, both times
    assert not asker.answer(first_shown, ctx, req).text.startswith("The closest I can find: " + lines[0].content[:20])
    store.close()
