"""Clock times said in words ('half ten', 'quarter to four') read as digits before any time parser sees them."""

from __future__ import annotations

import pytest

from egocli.core.timephrases import spoken_clock


@pytest.mark.parametrize("said, digits", [
    ("where was i at half ten yesterday morning", "where was i at 10:30 yesterday morning"),
    ("where was i about quarter past ten today", "where was i about 10:15 today"),
    ("at twenty to four", "at 3:40 pm"),  # an hour from 1 to 6 said in words: the afternoon
    ("half past two", "2:30 pm"),
    ("half two in the morning", "2:30 in the morning"),
    ("where was i at half four yesterday", "where was i at 4:30 pm yesterday"),
    ("quarter to twelve", "11:45"),
    ("five to one today", "12:55 today"),
    ("at ten thirty", "at 10:30"),
    ("at one fifteen", "at 1:15 pm"),
    ("three o'clock on thursday", "3 o'clock on thursday"),
])
def test_clock_times_said_in_words_become_digits(said, digits):
    assert spoken_clock(said) == digits


@pytest.mark.parametrize("text", ["half an hour ago", "half the time", "i gave ten to two friends",
                                  "half 3 hours", "what happened at noon", "ten past the post office",
                                  "what did i do from 9 to 10 am", "from ten to eleven", "between five to six"])
def test_words_that_are_no_clock_are_kept(text):
    assert spoken_clock(text) == text
