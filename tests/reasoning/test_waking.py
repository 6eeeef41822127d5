"""Mornings and nights as the wearer lived them (waking.py), on a real store: an early riser's morning begins when
they got up, a night worker's night runs on until they went to bed, and an ordinary day keeps the clock's parts."""

from __future__ import annotations

from egocli.core.timeutil import local, parse_time_ms
from egocli.reasoning import asker, waking
from egocli.reasoning.request import AskRequest

from .conftest import day_log, said

EARLY = [  # a stallholder: up at 03:40, to bed at 20:30, up at 03:35 again
    ("2027-03-03T03:40", "visual", "dark bedroom, a phone alarm buzzing on the bedside table"),
    ("2027-03-03T03:58", "note", "metformin 500 with toast 3.57"),
    ("2027-03-03T05:10", "visual", "loading crates of apples into the van in the yard"),
    ("2027-03-03T11:30", "visual", "the market hall, packing away the stall"),
    ("2027-03-03T18:14", "note", "metformin teatime 18.14"),
    ("2027-03-03T20:30", "visual", "bedroom, setting the alarm for half three"),
    ("2027-03-04T03:35", "visual", "dark bedroom, switching off the alarm"),
    ("2027-03-04T06:00", "visual", "the market hall, unloading the van"),
]
NIGHT_SHIFT = [  # a porter: on shift from 20:00 to 08:00, home and to bed at 08:50, up at 14:10
    ("2027-06-10T14:10", "visual", "bedroom, taking the CPAP mask off"),
    ("2027-06-10T19:45", "visual", "the hospital staff entrance, a lanyard held to a reader"),
    ("2027-06-11T03:05", "visual", "the canteen, a bacon roll and a mug of tea"),
    ("2027-06-11T06:40", "speech", "Sister Okafor: Can you take bed twelve down to X-ray?"),
    ("2027-06-11T06:45", "visual", "pushing a patient in a bed into the X-ray lift"),
    ("2027-06-11T08:20", "visual", "on the bus home, rain on the window"),
    ("2027-06-11T08:50", "visual", "bedroom, putting the CPAP mask on"),
    ("2027-06-11T14:05", "visual", "kitchen, the kettle on"),
]


def test_an_early_risers_morning_begins_when_they_got_up(tmp_path):
    store = day_log(tmp_path / "early.db", EARLY)
    at = parse_time_ms("2027-03-04T09:00")
    assert said(store, "did i take my metformin yesterday morning", at).startswith("Yes")
    scope = asker.scope_of(store, AskRequest("what did i do yesterday morning", at_ms=at))
    assert local(scope.windows[0][0]).strftime("%H:%M") == "03:40"


def test_a_night_workers_last_night_runs_until_they_went_to_bed(tmp_path):
    store = day_log(tmp_path / "nights.db", NIGHT_SHIFT)
    at = parse_time_ms("2027-06-11T16:00")
    scope = asker.scope_of(store, AskRequest("what did i do last night", at_ms=at))
    assert local(scope.windows[0][1]).strftime("%d %H:%M") == "11 08:50"
    assert "X-ray" in said(store, "where did i take bed twelve last night", at)


def test_an_ordinary_day_keeps_the_clocks_parts(tmp_path):
    store = day_log(tmp_path / "day.db", [("2026-12-01T07:30", "visual", "kitchen, toast"),
                                         ("2026-12-01T22:40", "visual", "bedroom, lights off"),
                                         ("2026-12-02T07:10", "visual", "kitchen, coffee")])
    at = parse_time_ms("2026-12-02T12:00")
    for question, hours in (("what did i do this morning", ("05:00", "12:00")),
                            ("what did i do last night", ("18:00", "05:00"))):
        lo, hi = asker.scope_of(store, AskRequest(question, at_ms=at)).windows[0]
        assert (local(lo).strftime("%H:%M"), local(hi).strftime("%H:%M")) == hours


def test_no_nights_are_read_when_the_question_names_no_morning_or_night(tmp_path):
    store = day_log(tmp_path / "early.db", EARLY)
    at = parse_time_ms("2027-03-04T09:00")
    assert waking.nights(store, at, "when did i load the van") == ()
    assert waking.nights(store, at, "what did i do this morning")[-1] == (parse_time_ms("2027-03-03T20:30") + 4000,
                                                                          parse_time_ms("2027-03-04T03:35"))
