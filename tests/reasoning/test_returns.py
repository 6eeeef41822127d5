"""Whether someone gave something back (returns.py), on a real store: their words, their message or a frame of them
at the door with the thing, after they had it; a promise to bring it back is no yes."""

from __future__ import annotations

import pytest

from egocli.core.timeutil import parse_time_ms
from egocli.reasoning import returns

from .conftest import day_log, said

DAYS = [
    ("2026-12-12T20:11", "speech", "Tony: sorry to bother you, can I borrow your stepladder?"),
    ("2026-12-12T20:52", "visual", "Tony leaving with the stepladder over his shoulder"),
    ("2026-12-12T20:53", "speech", "Tony: I'll bring it back tomorrow"),
    ("2026-12-13T16:08", "speech", "Callum: Priya, you haven't got a charger, have you?"),
    ("2026-12-13T16:20", "visual", "doorbell ringing, Tony at the door with the stepladder"),
    ("2026-12-13T17:19", "speech", "Callum: Charger's back. Ta, you saved my life."),
    ("2026-12-13T18:02", "text", "text — Dougie: 30 back now pal the other 20 saturday. ta again"),
]


@pytest.mark.parametrize("question, at, opens", [
    ("did tony bring the ladder back", "2026-12-13T20:00", "Yes"),
    ("did callum give me my charger back", "2026-12-13T20:00", "Yes"),
    ("has dougie paid any of it back", "2026-12-13T20:00", "Yes"),
    ("did tony bring the ladder back", "2026-12-12T22:00", "Not"),  # only promised so far
])
def test_given_back_is_their_line_with_the_thing_after_they_had_it(tmp_path, question, at, opens):
    answer = said(day_log(tmp_path / "r.db", DAYS), question, parse_time_ms(at))
    assert answer.startswith(opens), answer


@pytest.mark.parametrize("phrase, want", [
    ("tony bring the ladder back", ("tony", ["ladder"])),
    ("leanne give me the trip money back", ("leanne", ["trip", "money"])),
    ("dougie paid me back all of it", None),  # how much, not whether
    ("stan pay the window man for me", None),  # no giving back
])
def test_a_phrase_asks_whether_something_came_back(phrase, want):
    assert returns.asks(phrase) == want
