"""The last time something was done: said as done when a line shows the act, as the closest line when the lines
only name the thing ('iron tablet with dinner' is no picking them up from the chemist)."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from egocli.reasoning import asker

from .conftest import day_log, said
from .minilm import indexed

DAY = [
    ("2027-01-06T08:10", "visual", "kitchen, taking a white tablet with a glass of water"),
    ("2027-01-06T18:34", "note", "iron tablet with dinner"),
]
AT = parse_time_ms("2027-01-06T20:00")


def test_an_act_seen_is_said_as_done_and_a_thing_only_named_as_the_closest(tmp_path):
    store = day_log(tmp_path / "edges.db", DAY)
    took = said(store, "when did I last take a tablet", AT)
    assert took.startswith("You last took") and "08:10" in took, took
    emb = indexed(store)  # the likeness of meaning is MiniLM's
    req = asker.AskRequest("when did I pick up the iron tablets from the chemist?", at_ms=AT, hcc=False, llm=False)
    picked = asker.answer(None, asker.assemble(store, req, emb), req).text
    assert picked.startswith("I can't tell for sure; the closest I can find is today at 18:34"), picked
