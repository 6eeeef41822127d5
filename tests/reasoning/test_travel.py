"""How the wearer got somewhere (travel.py), on a real store: the way of getting about seen on the trip that ends
at the arrival, a bus over the walk to its stop, a lift said with who gave it, and an honest answer when the
trip shows nothing."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import travel, understand

from .conftest import day_log, said

AT = parse_time_ms("2026-12-14T21:00")
DAY = [
    ("2026-12-14T08:00", "visual", "hallway, putting on the navy jacket, leaving the house"),
    ("2026-12-14T08:05", "visual", "walking along Weir Street to the bus stop in drizzle"),
    ("2026-12-14T08:12", "visual", "on board a green single-decker bus, tapping a card on the reader"),
    ("2026-12-14T08:30", "visual", "walking up the gravel drive to Greenfingers Garden Centre"),
    ("2026-12-14T08:31", "visual", "arriving at Greenfingers Garden Centre, rows of poinsettias"),
    ("2026-12-14T12:00", "speech", "Owen: Yeah go on, I'll pick you up outside the garden centre at one."),
    ("2026-12-14T12:58", "visual", "leaving Greenfingers Garden Centre with a bag of bulbs"),
    ("2026-12-14T13:01", "visual", "passenger seat of a silver pickup, sandwich wrappers on the dashboard"),
    ("2026-12-14T13:20", "visual", "letting myself in at the front door of the house"),
    ("2026-12-14T18:50", "visual", "leaving the house, pulling the front door shut"),
    ("2026-12-14T19:00", "visual", "walking down Weir Street in the dark"),
    ("2026-12-14T19:10", "visual", "arriving at the Crown pub, fairy lights over the bar"),
    ("2026-12-14T19:40", "visual", "the library, returning a book at the desk"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


@pytest.mark.parametrize("question, action", [
    ("how did I get to the garden centre?", "at the garden centre"),
    ("How did we get home from the garden centre", "home from the garden centre"),
    ("how'd i get to the crown last night", "at the crown"),
    ("did i walk or get the bus to the garden centre", "to the garden centre"),
])
def test_a_question_about_getting_somewhere_is_a_trip(question, action):
    plan = understand.by_rules(question)
    assert plan is not None and (plan.form, plan.action) == ("travel", action)


@pytest.mark.parametrize("question", ["did i walk the dog or feed the cat", "how did i get on at the dentist"])
def test_other_questions_are_no_trips(question):
    plan = understand.by_rules(question)
    assert plan is None or plan.form != "travel"


def test_the_bus_beats_the_walk_to_its_stop(store):
    assert said(store, "how did I get to the garden centre?", AT).startswith("By bus: today at 08:12")


def test_a_lift_is_said_with_who_gave_it(store):
    assert said(store, "how did I get home from the garden centre?", AT).startswith("With a lift (Owen): today at 13:01")


def test_a_walk_alone_is_on_foot(store):
    assert said(store, "did I walk or get the bus to the crown", AT).startswith("On foot: today at 19:00")


def test_a_trip_that_shows_no_way_says_so(store):
    answer = said(store, "how did I get to the library", AT)
    assert answer.startswith("I can't tell how you got to the library") and "19:40" in answer


def test_a_place_never_reached_is_not_guessed(store):
    assert said(store, "how did I get to the dentist", AT).startswith(("Not that I can see", "Nothing in the log"))


def test_ways_are_read_in_precedence_order():
    assert travel.ways_in("walking to the bus stop") == ["by bus", "on foot"]
    assert travel.ways_in("a lift door opening with a ping") == []
    assert travel.destination("home from the garage") == ("", "garage")
    assert travel.destination("at the crown") == ("crown", "")


def test_a_message_offering_a_lift_is_no_trip(tmp_path):
    store = day_log(tmp_path / "msg.db", [
        ("2026-12-15T12:00", "visual", "arriving at Greenfingers Garden Centre, rows of poinsettias"),
        ("2026-12-15T12:50", "visual", "leaving Greenfingers Garden Centre"),
        ("2026-12-15T12:55", "text", "Tasha: still ok for me to run you to the garage at 3?"),
        ("2026-12-15T12:58", "visual", "cycling down Weir Street in drizzle"),
        ("2026-12-15T13:10", "visual", "letting myself in at the front door of the house"),
    ])
    answer = said(store, "how did I get home from the garden centre?", parse_time_ms("2026-12-15T20:00"))
    assert answer.startswith("By bike: today at 12:58")
