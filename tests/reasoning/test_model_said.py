"""What the model may change in an answer, on a real store with a scripted model at the TextModel boundary: a
phrasing that drops the day or the hedge of the computed answer is not used, and an answer computed from the
model's own plan of the question says it rests on that reading."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.models.fake import ScriptedModel
from egocli.reasoning import asker, voice
from egocli.reasoning.understand import model_parser

from .conftest import day_log

AT = parse_time_ms("2027-01-07T12:00")
DAY = [
    ("2027-01-06T08:31", "visual", "front door of the flat, Joy the carer on the step, a canvas bag on her shoulder"),
    ("2027-01-06T08:40", "visual", "feeding the cat, a sachet of salmon into the blue bowl"),
    ("2027-01-06T10:05", "text", "sign - Millbrook Surgery - Practice Nurse Clinics"),
    ("2027-01-06T10:50", "visual", "walking down to the bus stop in the rain"),
    ("2027-01-07T09:00", "visual", "kitchen, a slice of toast"),
]


def _ask(store, question: str, llm, parser=None) -> asker.Answer:
    req = asker.AskRequest(question, at_ms=AT, hcc=False)
    return asker.answer(llm, asker.gather(store, req, asker.scope_of(store, req), None, parser), req)


def test_a_phrasing_that_drops_the_day_is_not_used(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    ans = _ask(store, "when did i last feed the cat", ScriptedModel("You fed the cat at 08:40."))
    assert "yesterday at 08:40" in ans.text and ans.decided_by == "symbolic"
    ans = _ask(store, "when did i last feed the cat", ScriptedModel("You fed the cat yesterday at 08:40."))
    assert ans.text == "You fed the cat yesterday at 08:40." and ans.decided_by == "model"


def test_an_inferred_answer_is_not_phrased_without_its_hedge(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    ans = _ask(store, "how long was i at the surgery", ScriptedModel("You were at the surgery for 45 min yesterday."))
    assert ans.text.startswith("It seems about 45 min") and ans.decided_by == "symbolic", ans.text


def test_an_answer_from_the_models_plan_says_it_rests_on_that_reading(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    question = "the cat, feeding it, when was that"  # no form the rules read
    plan = '{"form": "last", "action": "feeding the cat", "who": "", "other": "", "relation": ""}'
    model = ScriptedModel(plan, "You last fed the cat yesterday at 08:40.")
    ans = _ask(store, question, model, model_parser(model))
    assert ans.text.startswith(voice.AS_READ) and "08:40" in ans.text, ans.text


def test_a_free_answer_is_said_as_the_models_reading(tmp_path):
    store = day_log(tmp_path / "log.db", DAY)
    reply = "Line: sign - Millbrook Surgery - Practice Nurse Clinics\nAnswer: The surgery runs practice nurse clinics."
    shown: list[str] = []
    req = asker.AskRequest("what sort of clinic does the surgery run", at_ms=AT, hcc=False)
    ans = asker.answer(ScriptedModel(reply), asker.gather(store, req, asker.scope_of(store, req), None), req,
                       shown.append)
    assert ans.text == "It seems the surgery runs practice nurse clinics.", ans.text
    assert "".join(shown).strip() == ans.text
