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


RIDES = [
    ("2026-12-15T09:11", "text", "care record - going to the eye clinic by bus today"),
    ("2026-12-15T09:26", "visual", "telephone table, picking up the wallet and the bus pass"),
    ("2026-12-15T09:31", "visual", "a bus stop pole with a yellow flag, the cane tapping ahead"),
    ("2026-12-15T09:38", "visual", "stepping up into a double-decker bus, holding the pass against the reader"),
    ("2026-12-15T09:38:20", "text", "bus reader - ENGLISH NATIONAL CONCESSION - ACCEPTED"),
    ("2026-12-15T09:41", "visual", "front seat downstairs, shop fronts sliding past"),
    ("2026-12-15T10:01", "speech", "Driver: Kingsmead Hospital, mate, this is you."),
    ("2026-12-15T10:06", "text", "sign - Lister Wing - Eye Clinic Level 2 - Audiology Level 1"),
    ("2026-12-15T11:22", "visual", "sliding the white card into the wallet behind the bus pass"),
    ("2026-12-15T12:26", "visual", "climbing onto a double-decker, pressing the pass on the reader"),
    ("2026-12-15T13:14", "visual", "getting onto a single-decker with a green front"),
    ("2026-12-15T13:03", "speech", "Pat: I always get the bus into town on a Thursday"),
    ("2026-12-15T17:41", "text", "reader - Metrolink - Touched in - St Peter's Square - 17:41"),
    ("2026-12-15T17:59", "text", "reader - Metrolink - Touched out - Chorlton - 17:59"),
]


@pytest.mark.parametrize("question, answer", [
    ("how many buses did I catch today", "3 times"),
    ("how many times did I take the bus today?", "3 times"),
    ("how many trams did i get today", "1 time"),
])
def test_rides_are_counted_by_the_vehicle_boarded_or_its_reader_not_by_a_pass_a_stop_or_talk(tmp_path, question, answer):
    """A bus pass in a wallet, a stop, a carer's note and someone saying they take the bus are no rides; boarding
    and the card reader's line of one ride are one ride."""
    store = day_log(tmp_path / "rides.db", RIDES)
    assert said(store, question, parse_time_ms("2026-12-15T20:00")).startswith(answer)


def test_a_ticket_shown_to_the_driver_is_a_ride_and_one_in_the_purse_is_not(tmp_path):
    store = day_log(tmp_path / "tickets.db", [
        ("2028-03-07T08:48", "visual", "on the bus, the bank card tapped on the reader by the driver"),
        ("2028-03-07T10:00", "visual", "the bus towards Mansfield Woodhouse, the DayRider ticket shown to the driver"),
        ("2028-03-07T11:30", "visual", "the number 12 bus back towards Church Lane, sitting near the front"),
        ("2028-03-07T14:00", "visual", "coat on, the handbag on the shoulder, the bus ticket in the purse"),
        ("2028-03-07T14:40", "visual", "the stop on Welbeck Road, then the bus into town, the DayRider ticket shown again"),
    ])
    answer = said(store, "how many buses have I been on today", parse_time_ms("2028-03-07T16:00"))
    assert answer.startswith("4 times") and "14:00" not in answer, answer


@pytest.mark.parametrize("phrase", ["miss the bus", "bus pass", "buses and trains"])
def test_other_counts_are_no_rides(tmp_path, phrase):
    from egocli.reasoning import plan as plans, scope as scopes

    store = day_log(tmp_path / "rides.db", RIDES)
    at = parse_time_ms("2026-12-15T20:00")
    asked = plans.Asked(store, scopes.parse_scope("today", at), None, "how many times")
    assert travel.rides(asked, phrase) is None


@pytest.mark.parametrize("question, answer", [
    ("how long was the bus ride to kingsmead", "It seems about 28 min, from today at 09:38"),
    ("how long was the tram into town", "18 min, from today at 17:41"),
    ("how long was I on the tram", "18 min, from today at 17:41"),
])
def test_a_ride_lasts_from_boarding_to_getting_off_or_to_the_arrival_after_it(tmp_path, question, answer):
    """The tram is touched in and out; the bus is seen only as it is boarded, so it lasts, it seems, until the
    first sign read after it."""
    store = day_log(tmp_path / "rides.db", RIDES)
    assert said(store, question, parse_time_ms("2026-12-15T20:00")).startswith(answer)


TRAINS = [
    ("2026-11-29T11:42", "visual", "boarding the 11:42 train to Ely at platform 3"),
    ("2026-11-29T12:05", "visual", "train carriage, a table seat, a flask on the table"),
    ("2026-11-29T12:20", "text", "Ely - alight here for the cathedral"),
    ("2026-11-29T12:25", "visual", "walking from Ely station along a street of brick houses"),
    ("2026-11-29T16:35", "visual", "boarding the 16:35 train back from Ely"),
]


@pytest.mark.parametrize("question, answer", [
    ("How long did the train to Ely take?", "23 min, from today at 11:42"),
    ("Can you tell me how long the train to Ely took?", "23 min, from today at 11:42"),
    ("how long was the train back from ely", "I can't tell how long: I only see it begin, today at 16:35"),
])
def test_a_ride_to_a_place_is_not_the_ride_back_from_it(tmp_path, question, answer):
    """'To Ely' is the ride whose lines name Ely as where it went, not the later one from Ely; a ride seen only as
    it began, with nothing after it, says so instead of lasting no time at all."""
    store = day_log(tmp_path / "trains.db", TRAINS)
    assert said(store, question, parse_time_ms("2026-11-29T21:00")).startswith(answer)
