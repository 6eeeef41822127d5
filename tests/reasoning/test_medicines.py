"""What a medicine is called, asked by what it is for or when it is taken, answered from the names the log holds
(the lexicon's medicines by kind), on a real store."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import medicines
from egocli.reasoning.understand import by_rules

from .conftest import day_log, said

DAYS = [
    ("2026-12-04T07:40", "note", "amlodipine 5mg 7.40"),
    ("2026-12-04T08:05", "visual", "bathroom, a drop of Systane from the white bottle into each eye"),
    ("2026-12-04T08:10", "note", "metformin with breakfast"),
    ("2026-12-04T21:00", "note", "Lantus 18 units 21.00"),
    ("2026-12-04T21:30", "note", "night drops - Latanoprost - done"),
    ("2026-12-05T07:41", "note", "amlodipine 5mg 7.41"),
    ("2026-12-05T08:02", "visual", "bathroom, one drop of Systane in each eye"),
    ("2026-12-05T08:12", "note", "metformin with breakfast"),
    ("2026-12-05T21:02", "note", "Lantus 18 units 21.02"),
]
AT = parse_time_ms("2026-12-05T22:00")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return day_log(tmp_path_factory.mktemp("meds") / "log.db", DAYS)


@pytest.mark.parametrize("question, name", [
    ("what's my insulin called?", "Lantus"),  # insulin, not the other diabetes medicine
    ("what's my blood pressure tablet called?", "Amlodipine"),
    ("what's the name of my day drops?", "Systane"),  # not the night drops
    ("what are my night drops called", "Latanoprost"),
])
def test_a_medicine_asked_by_its_kind_or_its_time_is_named(store, question, name):
    answer = said(store, question, AT)
    assert answer.startswith(name), answer


def test_a_name_asked_of_something_else_is_no_medicine_question():
    """Both ask a name; only the insulin's is a medicine's (a physio's is a person's: guests.called)."""
    assert by_rules("what's my physio called?").form == by_rules("what's my insulin called").form == "name"
    assert medicines.medicinal("my insulin") and not medicines.medicinal("my physio")


def test_a_medicine_the_table_does_not_know_leaves_the_question_to_the_context(tmp_path):
    store = day_log(tmp_path / "log.db", [("2026-12-05T09:00", "note", "barrier cream on heel: Cavilon, twice a day")])
    answer = said(store, "what's my heel cream medicine called?", AT)
    assert "Cavilon" in answer and not answer.startswith(("Not that", "Nothing"))  # the line found, no "no"


def test_a_tablet_swallowed_is_a_tablet_taken(tmp_path):
    """'when did I last take a tablet': a tablet swallowed with water is a taking as much as a note saying 'took'
    (the lexicon's dosing verbs), the verb after the noun no compound ('tablet swallowed' is not a kind of tablet);
    tablets tipped into an egg cup and set down are not."""
    store = day_log(tmp_path / "dose.db", [
        ("2026-12-04T08:15", "visual", "the blister pack on the table, the morning bubble pressed, two tablets tipped into an egg cup"),
        ("2026-12-04T08:16", "visual", "an egg cup with two tablets in it set down on the kitchen windowsill"),
        ("2026-12-04T12:10", "visual", "two tablets swallowed from a palm with a glass of water at the sink"),
        ("2026-12-04T12:11", "note", "took morning tablets late — 12.10"),
        ("2026-12-04T21:31", "visual", "the evening bubble of the blister pack pressed, a small yellow tablet swallowed with water"),
    ])
    at = parse_time_ms("2026-12-04T22:00")
    assert "21:31" in said(store, "when did i last take a tablet", at)
    assert said(store, "how many times did i take a tablet today", at).startswith("2 times")  # the note, the dose
