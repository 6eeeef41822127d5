"""How long the wearer was out: from leaving home to the first getting back after it, the latest outing in the
scope, or the latest whose lines name the company or purpose asked about; someone else seen going out of the
front door is no outing of the wearer's."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import away

from .conftest import day_log, said

DAY = [
    ("2027-10-23T07:40", "visual", "a red lead clipped to the dog's collar in a narrow hallway"),
    ("2027-10-23T07:42", "visual", "a front door pulled shut, a row of stone terraced houses"),
    ("2027-10-23T07:58", "text", "sign — Wellholme Park — dogs on leads around the play area please"),
    ("2027-10-23T08:19", "visual", "a key turning in a front door lock, the door swinging open"),
    ("2027-10-23T08:40", "visual", "the kitchen, a mug of tea on the table"),
    ("2027-10-23T09:20", "visual", "the front door locked from outside, keys put into an anorak pocket"),
    ("2027-10-23T09:30", "text", "sign — Co-op — Bethel Street"),
    ("2027-10-23T09:49", "visual", "letting myself in through the front door, a newspaper under one arm"),
    ("2027-10-23T10:36", "visual", "two men at a kitchen table with mugs of tea"),
    ("2027-10-23T10:52", "visual", "the man in the grey fleece going out of the front door, waving"),
]
AT = parse_time_ms("2027-10-23T12:00")


def test_what_a_phrase_asks_of_an_outing():
    assert away.asks("out") == [] and away.asks("out of the house") == []
    assert away.asks("out with the dog") == ["dog"]
    assert away.asks("out of order") is None and away.asks("outside the bank") is None


def test_how_long_out_is_from_leaving_home_to_getting_back(tmp_path):
    store = day_log(tmp_path / "out.db", DAY)
    latest = said(store, "how long was i out this morning", AT)
    assert latest.startswith("About 29 min"), latest  # 09:20 to 09:49: the man leaving at 10:52 was a visitor
    walk = said(store, "how long were we out with the dog this morning", AT)
    assert walk.startswith("About 37 min"), walk  # the outing whose lines name the dog
    left = said(store, "what time did i go out this morning", AT)
    assert "09:20" in left and "10:52" not in left, left


def test_leaving_with_company_is_the_outing_that_names_it(tmp_path):
    store = day_log(tmp_path / "walk.db", DAY)
    walk = said(store, "what time did i go out with the dog this morning", AT)
    assert "07:42" in walk, walk  # not the later trip to the shop
