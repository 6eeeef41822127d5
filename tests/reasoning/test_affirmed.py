"""A yes read from the nearest line when none says it as the question does (reasoning/affirmed.py)."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

DAY = [
    ("2027-01-07T11:05", "visual", "kitchen, a man with a ladder at the window, waving"),
    ("2027-01-07T15:58", "speech", "Stan: Afternoon, Frank. A parcel came for you while you were out."),
    ("2027-01-07T15:59", "speech", "Stan: And your window cleaner came about eleven. I paid him for you, ten pound."),
    ("2027-01-07T17:25", "visual", "home, carrying the pharmacy bag in from the car and putting it on the counter"),
    ("2027-01-07T19:22", "visual", "card, To Lily, Happy 7th Birthday, lots of love from Grandad"),
    ("2027-01-07T20:45", "speech", "I'll take my tablet after this episode."),
    ("2027-01-07T20:50", "speech", "Stan: I never did post that letter of yours, sorry."),
    ("2027-01-07T20:55", "speech", "Karen: Hiya Dad, it's me. How did it go at the eye clinic?"),
    ("2027-01-07T21:59", "note", "night drops - Latanoprost - done"),
]
AT = parse_time_ms("2027-01-07T22:30")


@pytest.fixture()
def store(tmp_path):
    return day_log(tmp_path / "day.db", DAY)


def test_a_yes_said_another_way_by_the_one_asked_about(store):
    """Stan's own words say he paid the window cleaner: 'the window man' is said with its first word."""
    answer = said(store, "did stan pay the window man for me", AT)
    assert answer.startswith("It seems so, yes") and "15:59" in answer


@pytest.mark.parametrize("question", [
    "did i pay the window man",  # Stan paid, not the wearer
    "did i put petrol in the car",  # the car, but no petrol: the thing put is unsaid
    "did i put some money in lily's card",  # a light verb unsaid leaves nothing else unsaid
    "did i take my tablet this evening",  # only meant: 'I'll take my tablet'
    "did stan post my letter",  # denied: 'I never did post that letter'
])
def test_no_yes_from_a_line_that_does_not_say_it(store, question):
    assert not said(store, question, AT).startswith("It seems so, yes")


def test_someone_the_log_only_calls_so_to_their_face_is_the_wearer(store):
    """'Dad' is only Karen's word to the wearer: a carer asking 'did dad do his drops' asks about the wearer."""
    answer = said(store, "did dad do his latanoprost", AT)
    assert answer.startswith("It seems so, yes") and "21:59" in answer
