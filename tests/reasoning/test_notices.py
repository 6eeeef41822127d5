"""Notices read: a chalkboard or a noticeboard read an hour into an evening at the pub is what is on there, not a
move to another place; one read on arriving somewhere names the place reached. On a real store."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import visits
from egocli.store import Event, Store

from .conftest import day_log, said

AT = parse_time_ms("2027-10-24T12:00")
EVENING = [
    ("2027-10-23T19:40", "visual", "dark streets going past a bus window"),
    ("2027-10-23T19:47", "text", "pub sign \u2014 The Red Lion \u2014 QUIZ NIGHT every Saturday 8pm"),
    ("2027-10-23T19:48", "visual", "a busy pub room, wooden tables, a man waving from a corner table"),
    ("2027-10-23T19:56", "text", "answer sheet \u2014 The Red Lion Quiz \u2014 Round 1"),
    ("2027-10-23T20:06", "visual", "a hand writing 1956 on an answer sheet"),
    ("2027-10-23T20:17", "text", "chalkboard \u2014 Live Music \u2014 The Rockin' Rovers"),
    ("2027-10-23T20:58", "visual", "a half-pint glass of bitter set down on a beer mat"),
    ("2027-10-23T21:00", "speech", "Quizmaster: Halfway scores."),
    ("2027-10-23T22:10", "visual", "a car with a taxi light on its roof waiting outside"),
    ("2027-10-23T22:11", "visual", "the back seat of a taxi, lit windows sliding away"),
    ("2027-10-24T10:00", "visual", "walking along the high street in the rain"),
    ("2027-10-24T10:05", "visual", "a small cafe with a glass counter of wraps, a chalkboard above the till"),
    ("2027-10-24T10:05:30", "text", "chalkboard \u2014 Leaf & Loaf \u2014 falafel wrap 6.50"),
    ("2027-10-24T10:07", "speech", "Can I get the falafel wrap, please?"),
    ("2027-10-24T10:13", "visual", "the front door opening, a woman in a purple fleece coming in with a carrier bag"),
]


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "log.db", EVENING)


def test_a_notice_read_inside_a_place_is_no_other_place(store: Store):
    at = visits.place_at(store, parse_time_ms("2027-10-23T21:00"))
    assert at is not None and "Red Lion" in at.content


def test_a_notice_read_on_arriving_names_the_place_reached(store: Store):
    at = visits.place_at(store, parse_time_ms("2027-10-24T10:08"))
    assert at is not None and "Leaf & Loaf" in at.content


def test_a_stay_runs_past_a_notice_read_in_it_to_the_next_move(store: Store):
    answer = said(store, "how long were we at the red lion last night", AT)
    assert "2 h 23 min" in answer and "22:10" in answer


def test_leaving_a_place_not_seen_is_the_next_move_seen(store: Store):
    assert "22:10" in said(store, "what time did we leave the red lion", AT)


@pytest.mark.parametrize("frame, other", [
    ("the front door opening, a woman in a purple fleece coming in with a carrier bag", True),
    ("the man in the grey fleece going out of the front door, waving", True),
    ("the front door opening, the hall light on, coming in out of the rain", False),
    ("a woman's hand on the handle, walking into the kitchen", False),
])
def test_a_move_said_of_someone_seen_is_theirs(frame: str, other: bool):
    ev = Event(1, 0, 4000, "visual", 1, frame, None, 0, {}, None)
    assert visits.someone_seen(ev) is other


def test_the_way_home_from_a_place_is_read_from_its_leaving_on(store: Store):
    assert "taxi" in said(store, "how did we get home from the red lion", AT).lower()


def test_a_trip_ends_at_the_sign_read_on_arriving_not_at_the_plan_said(tmp_path):
    log = day_log(tmp_path / "trip.db", [
        ("2027-10-24T14:10", "speech", "Maureen: Right, the garden centre. I want my bulbs in. Come on."),
        ("2027-10-24T14:15", "visual", "a small red hatchback at the kerb, a woman at the wheel, a seat belt pulled across"),
        ("2027-10-24T14:16", "visual", "a main road through a windscreen, a woman's hands on the steering wheel"),
        ("2027-10-24T14:28:30", "text", "sign \u2014 Brookfoot Garden Centre \u2014 Plants \u2014 Gifts"),
        ("2027-10-24T14:30", "visual", "racks of bagged bulbs, a woman picking up a net bag of tulip bulbs"),
    ])
    answer = said(log, "how'd we get to the garden centre", parse_time_ms("2027-10-24T16:00"))
    assert "can't tell" not in answer and "14:1" in answer


def test_a_stay_begins_after_the_move_not_at_a_note_written_at_home(tmp_path):
    """'PHYSIO 12' written on a sticky note at home, the flat door pulled shut, then the physio's sign: the stay is
    from the sign to the café reached after it, not from the note."""
    log = day_log(tmp_path / "physio.db", [
        ("2027-01-15T11:20", "visual", "writing on a yellow sticky note, PHYSIO 12 - BADGE - KEYS, pressing it on the laptop"),
        ("2027-01-15T11:47", "visual", "bedroom, a grey hoodie hanging on the back of the desk chair"),
        ("2027-01-15T11:51", "visual", "the flat door pulled shut from the outside, the laptop bag in the corner of the frame"),
        ("2027-01-15T11:54", "visual", "Keppel Road, red-brick terraces, walking fast past a line of recycling boxes"),
        ("2027-01-15T12:01:20", "text", "sign \u2014 Chorlton Physio & Sports Injury Clinic \u2014 212 Barlow Moor Road"),
        ("2027-01-15T12:07", "visual", "a small treatment room, a couch with a roll of paper over it"),
        ("2027-01-15T12:38:20", "text", "card machine \u2014 CHORLTON PHYSIO \u2014 \u00a348.00 \u2014 APPROVED"),
        ("2027-01-15T12:41", "note", "physio next Thu 28 Jan 8.15 with Gemma"),
        ("2027-01-15T12:47", "visual", "a small cafe with a glass counter of wraps, a chalkboard above the till"),
        ("2027-01-15T12:47:30", "text", "chalkboard \u2014 Leaf & Loaf \u2014 falafel wrap 6.50"),
    ])
    answer = said(log, "how long was i at the physio", parse_time_ms("2027-01-15T18:00"))
    assert "12:01" in answer and "11:20" not in answer, answer


def test_a_sign_named_with_an_accent_is_a_sign_and_its_place_comes_next(tmp_path):
    """'café sign — The Coffee Pot' is read like 'cafe sign': after the chemist came the café, then the salon."""
    from egocli.core.lexicon import words

    assert words("The Café sign, Zoë’s mug") == ["the", "cafe", "sign", "zoe", "mug"]
    store = day_log(tmp_path / "cafe.db", [
        ("2028-01-13T12:59", "visual", "the bell door opening onto the drizzly street"),
        ("2028-01-13T13:03:30", "text", "shop sign — Gold Street Pharmacy"),
        ("2028-01-13T13:04", "visual", "a pharmacy counter, shelves of cough mixtures and vitamins"),
        ("2028-01-13T13:09", "visual", "a white paper bag with a printed label slid across the counter"),
        ("2028-01-13T13:16:30", "text", "café sign — The Coffee Pot — jackets • paninis • soup of the day"),
        ("2028-01-13T13:17", "visual", "a café counter, a board listing jacket potato fillings"),
        ("2028-01-13T13:26", "visual", "the lilac shop front and gold sign of the Hair Loft, the bell door pushed open"),
        ("2028-01-13T13:30", "visual", "a jacket potato in an open polystyrene box on a little table in the back room"),
    ])
    answer = said(store, "where did I go after the pharmacy", parse_time_ms("2028-01-13T17:00"))
    assert answer.index("The Coffee Pot") < answer.index("Hair Loft")
