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
    ("where was i at three on saturday", "where was i at 3 on saturday"),
    ("what was i doing between three and five", "what was i doing between 3 pm and 5 pm"),  # the afternoon
    ("from 10 till 2 yesterday", "from 10 am till 2 pm yesterday"),  # the second hour past noon
    ("between 9 and 11", "between 9 and 11"),
    ("from ten to eleven", "from 10 to 11"),  # a span, not ten to eleven (10:50)
    ("between three and five this morning", "between three and five this morning"),
])
def test_clock_times_said_in_words_become_digits(said, digits):
    assert spoken_clock(said) == digits


@pytest.mark.parametrize("text", ["half an hour ago", "half the time", "i gave ten to two friends",
                                  "half 3 hours", "what happened at noon", "ten past the post office",
                                  "what did i do from 9 to 10 am", "between five to six",
                                  "at one point i had it", "how many came at one time"])
def test_words_that_are_no_clock_are_kept(text):
    assert spoken_clock(text) == text
