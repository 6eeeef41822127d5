"""A line that lists what is to come is no doing of it, on a real store: a calendar read ('wall calendar - MON 14: van
in at Hillside / Mrs Okafor 9-1') or a note of things to do on a later day ('plans - Sat: market, Dougie owes 20',
'collect the eye drops Tue 15 Dec') does not answer 'did I ...?' with a yes; the act itself still does, and a note
recording what was arranged ('plumber Dave Saturday 09:00') is still the call that arranged it."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2026-12-14T20:00")
DAY = [
    ("2026-12-12T16:55", "note", "collect Dad's eye drops from Wellcross Pharmacy Tue 15 Dec afternoon"),
    ("2026-12-14T07:31", "text", "wall calendar - MON 14: van in at Hillside (MOT + brakes) / Mrs Okafor 9-1"),
    ("2026-12-14T08:50", "speech", "Mrs Okafor: Morning, Jess! The side gate's unlocked."),
    ("2026-12-14T18:57", "speech", "Dave: I can come Saturday at nine, call-out's sixty pounds plus parts"),
    ("2026-12-14T18:58", "note", "plumber Dave (Quickfix) Saturday 09:00"),
    ("2026-12-14T19:30", "visual", "feeding the cat, a pouch squeezed into the bowl"),
]


def test_a_calendar_or_a_to_do_note_is_no_yes(tmp_path):
    store = day_log(tmp_path / "day.db", DAY)
    van = said(store, "did I take the van to Mrs Okafor's?", AT)
    drops = said(store, "did i collect dad's eye drops", AT)
    assert not van.startswith("Yes") and not drops.startswith("Yes"), (van, drops)


def test_the_act_itself_and_a_record_of_an_arrangement_still_count(tmp_path):
    store = day_log(tmp_path / "day.db", DAY)
    assert said(store, "did i feed the cat", AT).startswith("Yes")
    assert "plumber" in said(store, "when did I ring the plumber?", AT).lower()


def test_a_line_standing_in_for_an_answer_says_the_day_it_names(tmp_path):
    """Nothing computes 'when will the van be ready?': the line that stands in for the answer is given with the day it
    names said in full from the moment of asking."""
    store = day_log(tmp_path / "day.db", [
        ("2026-12-14T11:13", "note", "van passed MOT, front pads replaced, ready Tue after 3pm"),
        ("2026-12-14T12:00", "visual", "feeding the cat, a pouch squeezed into the bowl")])
    answer = said(store, "when will the van be ready?", AT)
    assert "ready Tue after 3pm" in answer and "tomorrow, Tuesday 15 December" in answer, answer


def test_someone_asking_for_it_is_no_yes_but_is_what_they_said(tmp_path):
    """'Dad: can you pick them up on your way home? The eye drops.' asks for the drops: 'did I get Dad's eye drops?'
    is not a yes (nor a reading of one from the to-do note), while what Dad said about them is still his words."""
    store = day_log(tmp_path / "asked.db", [
        ("2026-12-12T12:15", "speech", "Dad: Martin, the chemist rang, my tablets are ready; can you pick them up on "
                                       "your way home? The blood pressure ones and the eye drops."),
        ("2026-12-12T16:55", "note", "collect Dad's eye drops from Wellcross Pharmacy Tue 15 Dec afternoon"),
    ])
    at = parse_time_ms("2026-12-12T20:00")
    got = said(store, "did i get dad's eye drops", at)
    assert not got.startswith(("Yes", "It seems so")), got
    assert "pick them up" in said(store, "what did dad say about the eye drops", at)
    store.close()


def test_a_thing_seen_with_its_cap_still_on_was_not_used(tmp_path):
    """'The inhaler on the shelf with its cap still on' is the inhaler not taken: no yes, and not the last time."""
    store = day_log(tmp_path / "cap.db", [
        ("2026-12-13T07:25", "visual", "bathroom shelf, two puffs of the brown preventer inhaler"),
        ("2026-12-13T21:50", "visual", "bathroom, brushing teeth, the brown preventer inhaler on the shelf with its "
                                       "cap still on"),
    ])
    at = parse_time_ms("2026-12-14T07:30")
    assert not said(store, "did i take my inhaler last night", at).startswith("Yes")
    assert "07:25" in said(store, "when did i last have my brown inhaler", at)
    store.close()


def test_a_regimen_noted_with_no_act_done_is_no_time_of_doing_it(tmp_path):
    """'physio: 3x10 slow squats twice a day' noted at the clinic says how often to do them, not a set done; a note
    of a set done ('did my squats') and the frames of doing them still count."""
    store = day_log(tmp_path / "squats.db", [
        ("2026-11-27T12:58", "note", "physio: 3x10 slow squats twice a day; next session Fri 4 Dec 12:30"),
        ("2026-11-27T19:45", "visual", "ten slow squats by the sofa, holding the back of a chair"),
        ("2026-11-28T19:50", "note", "did my squats, knee a bit stiff"),
        ("2026-11-29T20:15", "visual", "slow squats in the living room, the TV on mute"),
    ])
    answer = said(store, "how many times did I do my squats?", parse_time_ms("2026-11-29T21:30"))
    assert answer.startswith("3 times") and "12:58" not in answer, answer
