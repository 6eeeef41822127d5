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
    ("2026-12-04T17:00", "speech", "Owen: you still owe me thirty quid, don't forget"),
    ("2026-12-04T18:40", "visual", "a white van pulling up outside, the man from Warmline carrying a toolbox"),
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


def test_someone_in_the_room_did_not_ring(store):
    """Owen's words in the room are no call from him; a call seen as one is."""
    assert _ask(store, "did Owen ring me today?").startswith(("No:", "Not that I can see"))  # a call is looked for
    assert _ask(store, "Did Dad ring me today?").startswith("Yes")


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


def test_the_model_reads_what_the_plan_found_nothing_about_and_says_it_as_a_reading(store):
    """A plan that finds nothing gives way to the model's reading of the context when the model copies a line of
    it and says more than no: said as a reading, not as a fact."""
    asked = "when did I give Owen his money"
    assert _ask(store, asked).startswith("Not that I can see")  # the plan's finding, citing Owen's words
    line = "Line: [Fri 04 Dec 17:00] speech: Owen: you still owe me thirty quid, don't forget"
    ans = _phrased(store, asked, line + "\nAnswer: You haven't yet: at 17:00 Owen said you still owe him thirty quid.")
    assert ans.text == "It seems you haven't yet: at 17:00 Owen said you still owe him thirty quid."
    assert ans.decided_by == "model" and ans.citations[0].content.startswith("Owen: you still owe")
    unlined = _phrased(store, asked, "You gave Owen his money at 17:00.")
    assert unlined.text.startswith("Not that I can see") and unlined.decided_by == "symbolic"  # no line copied
    wearer = _phrased(store, asked, line + "\nAnswer: I gave it to him at 17:00.")
    assert wearer.text.startswith("Not that I can see")  # speaking as the wearer: the finding stands
    plain = _ask(store, "did I give Owen his money?")  # the money form: no payment seen, Owen says it is owed
    assert plain.startswith("No: I can't see you paying Owen") and "still owe me thirty" in plain, plain
    whether = _phrased(store, "did I give Owen his money?", line + "\nAnswer: Yes, at 17:00 today.")
    assert whether.text == plain  # a yes or no is the plan's, never the model's reading


def test_a_reading_of_another_line_than_the_closest_is_said_beside_it(store):
    from egocli.models.fake import ScriptedModel
    from egocli.reasoning.plan import Finding

    req = asker.AskRequest("when did I give Owen his van money", at_ms=AT, hcc=False, llm=True)
    ctx = asker.assemble(store, req, None)
    owen = next(e for e in ctx.storyline.events if e.content.startswith("Owen"))
    finding = Finding("last", "Not that I can see: the closest is today at 17:00: Owen's words.", (owen,), "", False)
    van = "Line: [Fri 04 Dec 18:40] visual: a white van pulling up outside\nAnswer: You paid at 18:40 today."
    read = asker._read_before_no(ScriptedModel(van), ctx, req, finding, 0.0, None)
    assert read.text == "It seems you paid at 18:40 today. Not that I can see: the closest is today at 17:00: Owen's words."
    assert [c.content[:7] for c in read.citations[:2]] == ["a white", "Owen: y"]


def test_a_finding_of_several_lines_is_given_as_computed(store):
    ans = _phrased(store, "What did I do this morning?", "You had a quiet morning at home.")
    assert "blue room" in ans.text and ans.decided_by == "symbolic"


def test_an_instruction_read_is_no_doing_of_it(tmp_path):
    """A label that says how to take a tablet ('Take ONE tablet daily with food') is not a tablet taken; a
    narration in the same bare form without a regimen ('take cutting board') still is an act."""
    store = day_log(tmp_path / "log.db", [
        ("2026-12-04T06:52", "visual", "kitchen counter, taking the small white thyroid tablet with water"),
        ("2026-12-04T14:02", "text", "pharmacy label — FERROUS FUMARATE 210MG TABLETS — Take ONE tablet daily with food"),
        ("2026-12-04T18:33", "visual", "at the table, taking one brown tablet from the new box with dinner"),
        ("2026-12-04T19:00", "text", "take cutting board"),
    ])
    assert _ask(store, "how many tablets did I take today?").startswith("2 times")
    assert _ask(store, "did I take the cutting board?").startswith("Yes")


def test_calling_someone_in_is_no_phone_call(tmp_path):
    """'A nurse calling Dad in for a vision test' summons him: no call from or to him."""
    store = day_log(tmp_path / "log.db", [
        ("2026-12-04T08:20", "visual", "phone screen lighting up: incoming call from Dad"),
        ("2026-12-04T10:15", "visual", "a nurse calling Dad in for a vision test and putting drops in his eyes"),
        ("2026-12-04T12:14", "visual", "phone screen lighting up: incoming call from Dad"),
    ])
    assert _ask(store, "how many times has dad called me today").startswith("2 times")


def test_the_phone_ringing_is_the_calls_that_came_in(store):
    """Of the day's three calls, only Dad's rang: calling Omar and dialling the garage went out."""
    assert _ask(store, "How many phone calls did I have today?").startswith("3 times")
    assert _ask(store, "how many times did the phone ring today?").startswith("1 time")


def test_someone_going_or_picking_the_wearer_up_is_a_moment_to_order_by(tmp_path):
    """'Before Maureen went off to the shop': her leaving; 'before Tasha picked me up': her coming for the wearer."""
    store = day_log(tmp_path / "order.db", [
        ("2027-10-23T08:23", "visual", "the Saturday morning bubble of the blister pack pressed, two tablets into a palm"),
        ("2027-10-23T08:30", "speech", "Maureen: Right, I'm off to the shop. Can you get some milk?"),
        ("2027-10-23T08:31", "visual", "the front door closing behind Maureen, leaving for the shop"),
        ("2027-10-23T14:29", "visual", "phone screen: calling Mum"),
        ("2027-10-23T15:04", "visual", "a silver hatchback at the kerb, Tasha waving from the driver's seat"),
        ("2027-10-23T15:04:30", "speech", "Tasha: Hop in! I got the job!"),
        ("2027-10-23T16:30", "visual", "kitchen, watering the basil on the windowsill"),
    ])
    at = parse_time_ms("2027-10-23T20:00")
    assert said(store, "did i take my tablets before maureen went off to the shop", at).startswith("Yes")
    assert said(store, "did i ring mum before tasha picked me up?", at).startswith("Yes")
    assert said(store, "did i water the basil before tasha picked me up?", at).startswith("No")
