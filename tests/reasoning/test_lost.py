"""Where a lost thing turned up, on a real store: after the latest hunt for it, the first line that shows it found
(not the lines of the hunt, not one that says it was not there); a line that only names it is said as what it
seems; no hunt, and the last place it was put answers."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning.understand import by_rules

from .conftest import day_log, said

DAYS = [
    ("2026-12-04T18:02", "visual", "hall table, dropping the wallet into the inside pocket of the grey anorak"),
    ("2026-12-05T09:10", "speech", "where's my wallet? It's always on the hall table"),
    ("2026-12-05T09:12", "visual", "the hall table, a pile of post and a dish of coins, no wallet"),
    ("2026-12-05T09:14", "visual", "rummaging through the kitchen drawer for the wallet"),
    ("2026-12-05T09:20", "visual", "the grey anorak on its peg, the brown wallet tucked in the inside pocket"),
    ("2026-12-05T12:30", "visual", "paying at the bakery counter with a card from the brown wallet"),
    ("2026-12-05T14:00", "speech", "where did I leave the tape measure"),
    ("2026-12-05T14:20", "speech", "Dev: cheers for the tape measure, sorry I kept it so long"),
    ("2026-12-05T15:00", "visual", "kitchen, putting the scissors in the top drawer by the sink"),
]
AT = parse_time_ms("2026-12-05T20:00")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return day_log(tmp_path_factory.mktemp("lost") / "log.db", DAYS)


def test_the_find_after_the_hunt_not_the_hunt_nor_the_place_it_was_not(store):
    answer = said(store, "Where did I find my wallet in the end?", AT)
    assert answer.startswith("It turned up") and "anorak" in answer and "09:20" in answer
    assert "kitchen drawer" not in answer.split("(after")[0] and "bakery" not in answer


def test_did_it_turn_up_is_a_yes_with_the_find(store):
    answer = said(store, "did my wallet turn up?", AT)
    assert answer.startswith("Yes, it turned up") and "anorak" in answer


def test_a_line_that_only_names_it_after_the_hunt_is_what_it_seems(store):
    answer = said(store, "where did the tape measure turn up?", AT)
    assert answer.startswith("It seems") and "Dev" in answer


def test_no_hunt_and_the_last_place_it_was_put_answers(store):
    answer = said(store, "where did I find the scissors in the end?", AT)
    assert "top drawer" in answer


def test_the_phrasings_of_a_find_read_as_one_form():
    for question in ("where did I find my badge in the end?", "where'd I find my lanyard", "where did my case turn up",
                     "where were the van keys in the end", "did the magnifier turn up in the end?"):
        plan = by_rules(question)
        assert plan is not None and plan.form == "found", question


HUNT = [
    ("2027-01-06T11:21", "visual", "dropping the magnifier into the right-hand pocket of the beige raincoat"),
    ("2027-01-06T19:10", "visual", "pulling open the kitchen drawers one by one, rummaging through tea towels"),
    ("2027-01-06T19:12", "visual", "living room, lifting the cushion of the armchair, crumbs and a biro down the side, no magnifier"),
    ("2027-01-06T19:13", "speech", "where's that blessed magnifier got to?"),
    ("2027-01-06T19:15", "visual", "the hall, pulling the coats off the pegs one by one"),
    ("2027-01-06T19:21", "visual", "living room bureau, the pigeonholes stuffed with papers, no magnifier among them"),
    ("2027-01-06T19:40", "visual", "the kettle boiling, a mug with a tea bag in it"),
]


def test_where_one_looked_is_the_hunts_own_lines(tmp_path):
    """'Where did I look for the magnifier?' names the places of the hunt (the armchair, the bureau: lines naming it
    that say it was not there; a frame of rummaging between them), not where it was put or found."""
    answer = said(day_log(tmp_path / "hunt.db", HUNT), "where did i look for the magnifier",
                  parse_time_ms("2027-01-06T21:00"))
    assert answer.startswith("You looked for it") and all(w in answer for w in ("drawers", "armchair", "coats", "bureau")), answer
    assert "raincoat" not in answer and "kettle" not in answer


CHARGER = [
    ("2026-12-03T17:32", "visual", "closing the laptop bag; the charger still plugged in under meeting room 2's table"),
    ("2026-12-04T08:52", "visual", "desk, laptop; no charger on the desk, borrowing one from the IT cupboard"),
    ("2026-12-04T09:30", "speech", "no, the phone charger is in my bag"),
]


@pytest.fixture(scope="module")
def charger(tmp_path_factory):
    return day_log(tmp_path_factory.mktemp("charger") / "log.db", CHARGER)


def test_a_line_saying_the_thing_was_not_there_is_no_sight_of_it(charger):
    answer = said(charger, "where's my laptop charger?", parse_time_ms("2026-12-04T12:00"))
    assert "meeting room 2" in answer and "08:52" not in answer


def test_a_bare_no_answering_is_not_the_thing_missing(charger):
    answer = said(charger, "where's my phone charger?", parse_time_ms("2026-12-04T12:00"))
    assert "in my bag" in answer
