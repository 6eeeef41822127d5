"""An answer's sentence in a person's voice: the past of what was done, an activity as one."""

from __future__ import annotations

import pytest

from egocli.reasoning import voice


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
    assert voice.did("last", "reading at the cafe", "today at 10:00", "a novel") == \
        "You were last reading at the cafe today at 10:00: a novel."


@pytest.mark.parametrize("phrase, said", [
    ("letter from the bank", "Your last letter from the bank: today at 09:48: x."),
    ("water the plants", "You last watered the plants today at 09:48: x."),
    ("walk to the shop", "You last walked to the shop today at 09:48: x."),
    ("have my brown inhaler", "You last had your brown inhaler today at 09:48: x."),
    ("clean the car", "You last cleaned the car today at 09:48: x."),
    ("blood test", "Your last blood test: today at 09:48: x."),
    ("brown inhaler", "Your last brown inhaler: today at 09:48: x."),
    ("dad phoned", "Dad last phoned today at 09:48: x."),
    ("my sister rang", "Your sister last rang today at 09:48: x."),
    ("Lisa and Ellie left", "Lisa and Ellie last left today at 09:48: x."),
    ("the takeaway get here", "The takeaway last got here today at 09:48: x."),
    ("charge my phone", "You last charged your phone today at 09:48: x."),
])
def test_a_last_time_is_said_of_an_act_or_of_a_thing(phrase, said):
    assert voice.did("last", phrase, "today at 09:48", "x") == said


@pytest.mark.parametrize("phrase, thing, verb", [
    ("my keys", "keys", "were"), ("put dad's tablets", "dad's tablets", "were"), ("find my lanyard", "lanyard", "was"),
    ("reading glasses", "reading glasses", "were"), ("the glasses case", "glasses case", "was"),
])
def test_a_where_thing_is_said_without_the_verb_and_agrees(phrase, thing, verb):
    assert (voice.thing(phrase), voice.was(voice.thing(phrase))) == (thing, verb)


def test_a_day_a_line_names_is_said_in_full_from_the_moment_of_asking():
    """'ready Tue after 3pm', read on Monday 14 December and asked that evening, is tomorrow, Tuesday 15 December;
    a line that names no day, or names it in full already, gets nothing."""
    from egocli.core.timeutil import parse_time_ms

    read, asked = parse_time_ms("2026-12-14T11:13"), parse_time_ms("2026-12-14T20:00")
    assert voice.day_named("van passed MOT, ready Tue after 3pm", read, asked) == "tomorrow, Tuesday 15 December"
    assert voice.day_named("calendar - Wed 20 Jan - audit pack to Helen", read, asked) == "Wednesday 20 January 2027"
    assert voice.day_named("a kettle boiling on the hob", read, asked) == ""
    assert voice.day_named("see you Tuesday 15 December", read, asked) == ""
