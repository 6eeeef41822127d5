"""'Did I X?' on a real store: a line naming only the thing of an act is no yes ('have I taken my tablets' over
tablets tipped into an egg cup), unless it says as much as the act: a receipt for getting it, a thing handled for
bringing it."""

from __future__ import annotations

from egocli.core.timeutil import parse_time_ms

from .conftest import day_log, said

AT = parse_time_ms("2026-12-04T11:00")
DAY = [
    ("2026-12-04T08:15", "visual", "the blister pack on the table, the morning bubble pressed, two tablets tipped into an egg cup"),
    ("2026-12-04T08:16", "visual", "an egg cup with two tablets in it set down on the kitchen windowsill"),
    ("2026-12-04T09:49", "visual", "a chiller of milk, a two-pint bottle with a green top"),
    ("2026-12-04T09:50", "text", "receipt — Co-op — SEMI SKIMMED MILK 2PT £1.55 — TOTAL £1.55"),
    ("2026-12-04T10:20", "visual", "carrying the step ladder in from the van and leaning it on the wall"),
]


def test_tablets_set_down_are_not_tablets_taken(tmp_path):
    answer = said(day_log(tmp_path / "d.db", DAY), "have I taken my tablets yet this morning", AT)
    assert answer.startswith("Not as such") and "egg cup" in answer


def test_a_receipt_is_a_thing_got_and_a_thing_carried_a_thing_brought(tmp_path):
    store = day_log(tmp_path / "d.db", DAY)
    assert said(store, "did we get milk today", AT).startswith("Yes")
    assert said(store, "did i bring the step ladder in", AT).startswith("Yes")


def test_someone_naming_the_thing_aloud_is_not_the_act(tmp_path):
    """'Jean: do you want your raffle tickets? Four for four pound' opens with a word of the question (Jean), but
    is Jean speaking: no payment to her; the raffle tickets read with '(owes £4)' say so."""
    store = day_log(tmp_path / "r.db", [
        ("2026-12-04T11:33", "speech", "Jean: Ken, do you want your raffle tickets? Four for four pound, same as last year."),
        ("2026-12-04T11:34", "speech", "Jean: Pay me next week, love. I'll write your name on them."),
        ("2026-12-04T11:35", "text", "raffle tickets — Park Methodist Christmas Raffle — K. Whitworth (owes £4)"),
    ])
    assert not said(store, "have i paid jean for the raffle tickets", parse_time_ms("2026-12-04T12:00")).startswith("Yes")


def test_a_stretch_of_the_day_is_told_by_what_happened_in_it_not_its_scenery(tmp_path):
    """'What was I doing between three and five on Saturday?': three and five are the afternoon, and the lines
    told are what was said and done then, not the wallpaper."""
    rows = [(f"2026-12-05T15:{m:02d}", "visual", "a wallpaper border of ivy") for m in range(0, 60, 4)]
    rows += [("2026-12-05T15:12", "speech", "Liam: Guess what, Grandad, I passed my exam. Eighty-four percent."),
             ("2026-12-05T16:52", "speech", "radio: And it's full time at the Shay. Halifax two, Altrincham one.")]
    store = day_log(tmp_path / "s.db", sorted(rows))
    answer = said(store, "what was i doing between three and five on saturday", parse_time_ms("2026-12-06T20:00"))
    assert "passed my exam" in answer and "full time" in answer


def test_what_i_had_at_a_place_is_what_was_eaten_in_the_stay_there(tmp_path):
    """'What did I have at the garden centre café': the meal seen in the stay there, not the sign at its gate."""
    store = day_log(tmp_path / "cafe.db", [
        ("2026-12-05T14:28", "text", "sign — Brookfoot Garden Centre — Plants • Gifts • Café"),
        ("2026-12-05T14:30", "visual", "racks of bagged bulbs, a woman picking up a net bag of tulip bulbs"),
        ("2026-12-05T14:52", "visual", "a garden centre café counter with scones, cakes and a coffee machine"),
        ("2026-12-05T14:58", "visual", "a table by a window, a pot of tea, a toasted teacake with the butter melting"),
        ("2026-12-05T15:38", "visual", "walking out through sliding doors to the car park"),
    ])
    answer = said(store, "what did i have at the garden centre cafe", parse_time_ms("2026-12-05T20:00"))
    assert "teacake" in answer
