"""A day told at a glance (digest.py), on a real store: the places it went to come first, each once, from the signs
read and the arrivals seen that name them; home and unnamed arrivals are not places; any way of asking for a
day reads as one."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2027-03-05T08:00")
THURSDAY = [
    ("2027-03-04T08:04", "text", "text - Leanne: can you pick Kai up from school at 3.15 instead?"),
    ("2027-03-04T10:07", "text", "sign - Calderford Royal Infirmary - Neurology Outpatients"),
    ("2027-03-04T10:46", "speech", "Dr Gupta: I'd like to increase the baclofen to fifteen milligrams."),
    ("2027-03-04T11:02", "text", "sign - Calderford Royal Infirmary - Way Out"),
    ("2027-03-04T13:00", "visual", "turning into a garage forecourt"),
    ("2027-03-04T13:01", "text", "sign - Dobson's Garage - Repairs - MOT Testing Station"),
    ("2027-03-04T14:47", "speech", "Phil: it's passed, seventy-one pound thirty-five all in"),
    ("2027-03-04T15:20", "visual", "walking into Churchfield Primary by the back gate"),
    ("2027-03-04T15:31", "visual", "getting home, parking on the drive"),
]


@pytest.mark.parametrize("question", ["what did i do yesterday", "summarise thursday for me", "how was my thursday",
                                      "tell me about yesterday"])
def test_a_day_is_told_by_the_places_it_went_to_first(tmp_path, question):
    answer = said(day_log(tmp_path / "day.db", THURSDAY), question, AT)
    where = answer.split("What stood out:")[0]
    assert "where you were: yesterday at 10:07, Calderford Royal Infirmary; yesterday at 13:01, Dobson's Garage; " \
           "yesterday at 15:20, Churchfield Primary." in where, answer
    assert where.count("Infirmary") == 1 and "forecourt" not in where and "drive" not in where


SURGERY = [
    ("2027-03-03T15:02", "text", "sign - Millbrook Surgery - Practice Nurse Clinics"),
    ("2027-03-03T15:09", "visual", "a potted palm with dusty leaves"),
    ("2027-03-03T15:21", "text", "waiting room screen - CLIVE BANNISTER - Nurse Room 3"),
    ("2027-03-03T15:22", "speech", "Nurse: Clive? Clive Bannister? Third time lucky!"),
    ("2027-03-03T15:30", "speech", "Sorry, love, I didn't hear you."),
    ("2027-03-03T15:42", "visual", "walking across a small parade of shops, a green cross lit up over one of them"),
    ("2027-03-03T15:44", "visual", "a pharmacy counter, white paper bags in a rack behind it"),
    ("2027-03-03T15:47", "speech", "Yusuf: two bags, Clive, your metformin in this one."),
    ("2027-03-03T16:30", "visual", "home, carrying the pharmacy bag in from the van"),
]


def test_what_came_after_someone_seen_at_a_place_is_the_next_place(tmp_path):
    """'Straight after the nurse' names no place: the stay she was seen in (the surgery's sign read before her) ended
    minutes after her, so the next place is the answer, a kind of place seen ('a pharmacy counter') being one."""
    answer = said(day_log(tmp_path / "day.db", SURGERY), "what did i do straight after the nurse",
                  parse_time_ms("2027-03-03T20:00"))
    assert "you went to the pharmacy" in answer and "15:44" in answer, answer
    assert "didn't hear" not in answer
