"""An answer's sentence in a person's voice: the past of what was done, an activity as one."""

from __future__ import annotations

import pytest

from egocli.reasoning import temporal, voice


@pytest.mark.parametrize("phrase, said", [
    ("feed the cat", "fed the cat"),  # ending in -ed is no past
    ("take my pills", "took my pills"),
    ("water the plants", "watered the plants"),
    ("watered the plants", "watered the plants"),
    ("put the keys away", "put the keys away"),
    ("ring the bank", "rang the bank"),  # no vowel before its -ing: no -ing form
    ("bring the bins in", "brought the bins in"),
    ("flip the sausage", "flipped the sausage"),  # one syllable ending vowel-consonant doubles it
    ("chop the onion", "chopped the onion"),
    ("open the window", "opened the window"),
    ("visit Gran", "visited Gran"),
    ("fix the tap", "fixed the tap"),
])
def test_the_past_of_what_was_done(phrase, said):
    assert voice.past(phrase) == said


def test_an_activity_is_said_as_one():
    assert temporal._did("last", "reading at the cafe", "today at 10:00", "a novel") == \
        "You were last reading at the cafe today at 10:00: a novel."


@pytest.mark.parametrize("phrase, said", [
    ("letter from the bank", "Your last letter from the bank: today at 09:48: x."),
    ("water the plants", "You last watered the plants today at 09:48: x."),
    ("walk to the shop", "You last walked to the shop today at 09:48: x."),
    ("have my brown inhaler", "You last had your brown inhaler today at 09:48: x."),
])
def test_a_last_time_is_said_of_an_act_or_of_a_thing(phrase, said):
    from egocli.reasoning.temporal import _did

    assert _did("last", phrase, "today at 09:48", "x") == said
