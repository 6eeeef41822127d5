"""Setting out and getting home read from where the frames show the wearer (outings.py), when no frame says
'leaving the house', answered through the ask service on a real store; and the moves a question names."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import outings, placekinds, visits
from egocli.store import Event

from .conftest import day_log, said

AT = parse_time_ms("2026-12-03T21:00")
DAY = [
    ("2026-12-03T06:30", "visual", "bedroom, the alarm going off, still dark outside"),
    ("2026-12-03T06:43", "visual", "a cat from over the road sitting on the garden wall"),
    ("2026-12-03T06:50", "visual", "kitchen, toast and a mug of tea at the counter"),
    ("2026-12-03T06:56", "visual", "the dishwasher humming through its cycle"),
    ("2026-12-03T07:12", "visual", "hallway, zipping up the work fleece, taking the car keys from the bowl"),
    ("2026-12-03T07:14", "visual", "driveway of 22 Carr Lane, scraping frost off the windscreen"),
    ("2026-12-03T07:20", "visual", "driving down Carr Lane, the radio on"),
    ("2026-12-03T07:40", "visual", "the Tyre Depot forecourt, a man in overalls waving"),
    ("2026-12-03T07:41", "text", "sign — Tyre Depot — Carr Lane"),
    ("2026-12-03T08:30", "visual", "driving back along Carr Lane in the rain"),
    ("2026-12-03T08:52", "visual", "the front door, the key in the lock"),
    ("2026-12-03T08:53", "visual", "hallway, hanging the keys on the hook"),
    ("2026-12-03T09:40", "visual", "kitchen, a neighbour walking a dog past the window"),
    ("2026-12-03T10:05", "visual", "Weir Street through the window, a man walking a dog"),
    ("2026-12-03T10:20", "visual", "living room, the radio on"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", DAY)


def _frame(text: str) -> Event:
    return Event(id=1, start_ms=0, end_ms=0, modality="visual", content=text, source_id=None)


@pytest.mark.parametrize("text, where", [
    ("hallway, zipping up the work fleece", "home"),
    ("kitchen table, a cheese sandwich", "home"),
    ("the flat door from outside, locking it with a key", "out"),
    ("driveway of 22 Carr Lane, scraping frost off the windscreen", "out"),
    ("Tennyson Road, a wet pavement, the white cane tapping ahead", "out"),
    ("walking along Tennyson Road, frost on a low wall", "out"),
    ("getting onto a single-decker, pressing the bus pass on the reader", "out"),
    ("front door of 14 Linden Avenue, a tall man opening it", ""),  # someone else's front door
    ("the office kitchen, a cake on the worktop", ""),
    ("the dishwasher humming through its cycle", ""),  # a word of travel that is not a way of going
    ("a cat from over the road sitting on the wall", ""),
    ("a hall with a circle of chairs, a woman in a red cardigan waving", ""),  # a room, not one's own
    ("the green single-decker, holding the bus pass out on the reader", "out"),  # a vehicle: on the way
    ("a toy bus on the bedroom shelf", ""),  # a room of home named: the bus is a thing there
    ("putting the pharmacy bag with the atorvastatin box in the bathroom cabinet", "home"),  # the bag is the pharmacy's;
    # the bathroom is one's own
    ("the car keys dropped in the bowl on the hall shelf, not the fridge", "home"),  # a room of home as where a thing goes
    ("Joan's bathroom, the shower running", ""),  # someone else's room
    ("the Rainworth road in the dark, cat's eyes shining in the headlights", "out"),  # a named road
    ("the windscreen misting at the edges", "out"),  # the inside of a car
    ("out on the drive, unlocking the white van with the red fob", "out"),
    ("home again, putting the hyacinth on the windowsill", "home"),  # home itself said first
    ("back home, wiping the dog's paws with an old towel", "home"),
    ("sausages, mash and onion gravy with peas on two plates at the kitchen table", "home"),  # a room later on
    ("a man eating sausage and mash, a can of lager at the kitchen table", ""),  # someone else's meal, anywhere
])
def test_a_frame_shows_home_or_out_by_how_it_opens(text, where):
    assert outings.scene(_frame(text)) == where


def test_leaving_the_house_is_the_first_frame_out_after_the_hallway(store):
    answer = said(store, "what time did I leave the house this morning?", AT)
    assert "07:14" in answer and "driveway" in answer, answer


def test_getting_home_is_the_first_frame_at_home_after_the_road(store):
    answer = said(store, "when did I get back home this morning?", AT)
    assert "08:52" in answer, answer


def test_one_frame_out_between_frames_at_home_is_no_outing():
    """The dog walker passing the window at 10:05, between the kitchen and the living room, is no going out."""
    frames = [Event(id=i, start_ms=parse_time_ms(stamp), end_ms=parse_time_ms(stamp), modality=kind, content=text,
                    source_id=None) for i, (stamp, kind, text) in enumerate(DAY) if kind == "visual"]
    assert [e.content for e in outings.transitions(frames, "leave")] == [DAY[5][2]]
    assert [e.content for e in outings.transitions(frames, "arrive")] == [DAY[10][2]]


def test_setting_out_for_a_place_is_the_last_departure_before_getting_there(store):
    answer = said(store, "what time did I set off to the tyre depot?", AT)
    assert "07:14" in answer, answer


@pytest.mark.parametrize("phrase, want", [
    ("leave the flat for the eye clinic", visits.Move("leave", "", "", "eye clinic")),
    ("set off to the post office", visits.Move("leave", "", "", "post office")),
    ("set off on the bike", visits.Move("leave", "")),
    ("arrive back home after work", visits.Move("arrive", "", "work")),
    ("clock off", visits.Move("leave", "work")),
    ("head off to the shops", visits.Move("leave", "", "", "shops")),
    ("leave the doctor's", visits.Move("leave", "doctor")),
])
def test_a_phrase_names_where_it_sets_out_for(phrase, want):
    assert visits.move(phrase) == want


HOSPITAL = [
    ("2026-12-03T09:30", "visual", "hallway, putting on a coat"),
    ("2026-12-03T09:38", "visual", "stepping up into a double-decker bus, holding the bus pass against the reader"),
    ("2026-12-03T10:04", "visual", "hospital main entrance, glass doors sliding open"),
    ("2026-12-03T10:30", "visual", "a waiting room, a row of plastic chairs"),
    ("2026-12-03T10:56", "visual", "a dim room, chin on a plastic rest in front of a scanning machine"),
    ("2026-12-03T11:41", "visual", "hospital coffee shop, a tray with a teapot"),
    ("2026-12-03T12:10", "visual", "a queue at the bus stop in the rain"),
    ("2026-12-03T14:00", "visual", "walking up the path of 31 Hartfield Road"),
    ("2026-12-03T14:02", "speech", "Mrs Okafor: Morning, Jess! The side gate's unlocked."),
    ("2026-12-03T15:30", "speech", "Mrs Okafor: I've made you a cup of tea."),
    ("2026-12-03T17:50", "speech", "Mrs Okafor: There's eighty-five in there."),
]


def test_a_visit_goes_on_between_mentions_with_no_departure_between(tmp_path):
    """The hospital entrance at 10:04 and its coffee shop at 11:41 are one visit: it began at 10:04."""
    answer = said(day_log(tmp_path / "h.db", HOSPITAL), "what time did I get to the hospital?", AT)
    assert "10:04" in answer, answer


def test_a_persons_place_is_where_they_speak(tmp_path):
    answer = said(day_log(tmp_path / "o.db", HOSPITAL), "what time did I get to Mrs Okafor's?", AT)
    assert "14:0" in answer, answer


def test_two_mentions_minutes_apart_are_a_moment_of_a_stay_not_its_length(tmp_path):
    """The driver's 'St Cuthbert's, there you go' and the sign read four minutes later say when, not how long."""
    log = day_log(tmp_path / "s.db", [
        ("2026-12-03T13:49", "speech", "Driver: St Cuthbert's, there you go."),
        ("2026-12-03T13:53", "text", "sign — St Cuthbert's Community Centre — Thursday Low Vision Group 2-4pm"),
        ("2026-12-03T14:30", "visual", "a hall with a circle of chairs"),
    ])
    answer = said(log, "how long was i at st cuthberts", AT)
    assert not answer.startswith("4 min"), answer


EVENING = [
    ("2026-11-23T17:32", "visual", "unplugging the laptop, closing the bag"),
    ("2026-11-23T17:45", "visual", "Exchange Square tram stop, a crowd under the shelter"),
    ("2026-11-23T17:48", "visual", "boarding tram 4 towards Elm Park"),
    ("2026-11-23T18:05", "text", "Cobbler & Keys — key cutting while you wait"),
    ("2026-11-23T18:08", "visual", "inside a small cobbler's shop, a man cutting a brass key"),
    ("2026-11-23T18:13", "visual", "paying at the cobbler's, receiving a new brass spare key"),
    ("2026-11-23T18:25", "visual", "a delivery van with hazard lights on"),
    ("2026-11-23T18:40", "visual", "kitchen, pasta boiling on the hob"),
]


@pytest.mark.parametrize("question", ["what did I do before going home on Monday evening",
                                      "Before I got home on Monday evening, what did I do?"])
def test_before_going_home_is_the_last_place_before_getting_home(tmp_path, question):
    """At the cobbler's is out (a kind of place one goes to), the kitchen at 18:40 is getting home; before it, the
    cobbler's."""
    answer = said(day_log(tmp_path / "e.db", EVENING), question, parse_time_ms("2026-11-23T22:00"))
    assert answer.startswith("Before getting home") and "18:40" in answer and "cobbler" in answer, answer


SURGERY = [
    ("2026-11-24T07:37", "note", "GP Dr Okafor today 17:40, Riverside Surgery"),
    ("2026-11-24T17:30", "visual", "walking to the GP's at Riverside Surgery, hood up"),
    ("2026-11-24T17:36", "text", "Riverside Surgery — please check in at the screen"),
    ("2026-11-24T17:44", "visual", "consulting room, the GP looking into the right ear with an otoscope"),
    ("2026-11-24T17:48", "speech", "Dr Okafor: take them with food and finish the whole course"),
    ("2026-11-24T18:14", "visual", "handing the green prescription over the pharmacy counter"),
    ("2026-11-24T18:19", "speech", "pharmacist: here's your amoxicillin, fifteen capsules"),
    ("2026-11-24T18:40", "visual", "sitting upstairs on the number 12 bus home"),
]


def test_where_one_went_after_a_stay_is_a_place_seen_before_the_end_seen(tmp_path):
    """No departure from the surgery is seen, only the bus home at 18:40; asked where, the pharmacy seen at 18:14 is
    where one went after it."""
    answer = said(day_log(tmp_path / "gp.db", SURGERY), "Where did I go after the GP appointment on Tuesday?",
                  parse_time_ms("2026-11-24T22:00"))
    assert "pharmacy" in answer and "18:14" in answer, answer


@pytest.mark.parametrize("phrase, place", [
    ("go down to dobson's", "dobson"), ("been to the pharmacy", "pharmacy"), ("visit the library", "library"),
    ("pop into the co-op", "co op"), ("go out", ""), ("go home", ""), ("go shopping", ""), ("get the bus", ""),
])
def test_a_phrase_names_the_place_it_goes_to(phrase, place):
    assert placekinds.going(phrase) == place


def test_each_visit_and_each_outing_is_counted_and_a_call_from_the_place_is_no_visit(tmp_path):
    """The garage's name on a ringing phone at home between the two visits neither joins them nor is a third."""
    store = day_log(tmp_path / "garage.db", [
        ("2027-03-04T12:50", "visual", "hallway, pulling the jacket on"),
        ("2027-03-04T12:55", "visual", "walking down the hill past terraced houses"),
        ("2027-03-04T13:01", "text", "sign - Dobson's Garage - Repairs - MOT Testing Station"),
        ("2027-03-04T13:20", "visual", "walking back up the hill, the wind in my face"),
        ("2027-03-04T13:30", "visual", "kitchen, filling the kettle"),
        ("2027-03-04T14:47", "visual", "the phone ringing on the kitchen worktop, DOBSON'S GARAGE on the screen"),
        ("2027-03-04T15:06", "visual", "the front door, pulling the brown jacket on"),
        ("2027-03-04T15:08", "visual", "walking down the hill past terraced houses"),
        ("2027-03-04T15:19", "text", "card machine - DOBSON'S GARAGE - 71.35 - APPROVED"),
        ("2027-03-04T15:25", "visual", "walking back up the hill, the wind in my face"),
        ("2027-03-04T15:31", "visual", "kitchen, hanging the keys on the hook"),
    ])
    at = parse_time_ms("2027-03-04T21:00")
    assert said(store, "how many times did i go down to dobson's today", at).startswith("2 times")
    assert said(store, "how many times have i been out today", at).startswith("2 times")

