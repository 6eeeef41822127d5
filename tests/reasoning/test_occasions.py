"""Occasions counted and acts told apart as people mean them, on a real store: a meeting and the leaving of it
are one meeting; a note of a dose seen a minute before is that dose; a named drug is a tablet; a call to
someone is neither a call from them nor seeing them; a time said in an email is a plan, not the act."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import asker
from egocli.store import Store

from .conftest import day_log, said

AT = parse_time_ms("2026-12-04T22:00")
DAY = [
    ("2026-12-04T08:00", "visual", "kitchen, blister pack, taking one metformin tablet with water"),
    ("2026-12-04T08:01", "note", "took metformin 08:00"),
    ("2026-12-04T08:30", "text", "From: Priya - Subject: design review at 11:00 in the blue room"),
    ("2026-12-04T09:00", "visual", "the blue room, team meeting, a whiteboard full of sticky notes"),
    ("2026-12-04T09:40", "visual", "leaving the blue room after the team meeting"),
    ("2026-12-04T11:00", "visual", "the blue room, design review meeting, drawings on the table"),
    ("2026-12-04T12:10", "visual", "leaving the blue room after the design review"),
    ("2026-12-04T13:00", "visual", "phone, calling Omar about the weekend"),
    ("2026-12-04T13:05", "visual", "phone screen: incoming call from Dad"),
    ("2026-12-04T13:30", "visual", "phone, dialling the garage about the car"),
    ("2026-12-04T20:00", "visual", "kitchen, taking the evening simvastatin tablet"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


def _ask(store: Store, question: str) -> str:
    return said(store, question, AT)


@pytest.mark.parametrize("question, start", [
    ("How many meetings did I have today?", "2 times"),
    ("How many tablets did I take today?", "2 times"),
    ("How many phone calls did I have today?", "3 times"),
])
def test_occasions_counted_once_each(store, question, start):
    assert _ask(store, question).startswith(start)


def test_a_call_to_someone_is_no_call_from_them_nor_seeing_them(store):
    assert _ask(store, "Did Omar call me today?").startswith("Not that I can see")
    assert _ask(store, "Did I see Omar today?").startswith("Not that I can see")
    assert _ask(store, "Did Dad call me today?").startswith("Yes")
    assert _ask(store, "Did I call Omar today?").startswith("Yes")


def test_remembering_a_medicine_by_its_kind(store):
    assert _ask(store, "did I remember my statin tonight?").startswith("Yes")


def _phrased(store: Store, question: str, reply: str) -> asker.Answer:
    from egocli.models.fake import ScriptedModel

    req = asker.AskRequest(question, at_ms=AT, hcc=False, llm=True)
    return asker.answer(ScriptedModel(reply), asker.assemble(store, req, None), req)


def test_the_model_cannot_turn_a_no_into_a_yes_nor_add_a_name(store):
    ans = _phrased(store, "Did Omar call me today?", "Yes, Omar called you today at 13:00.")
    assert ans.text.startswith("Not that I can see") and ans.decided_by == "symbolic"
    ans = _phrased(store, "When did I call Omar?", "You called Omar and Priya at 13:00 today.")
    assert "Priya" not in ans.text and ans.decided_by == "symbolic"
    ans = _phrased(store, "When did I call Omar?", "You called Omar today at 13:00.")
    assert ans.text == "You called Omar today at 13:00." and ans.decided_by == "model"


def test_a_finding_of_several_lines_is_given_as_computed(store):
    ans = _phrased(store, "What did I do this morning?", "You had a quiet morning at home.")
    assert "blue room" in ans.text and ans.decided_by == "symbolic"
