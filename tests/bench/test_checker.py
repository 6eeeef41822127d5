"""The open-answer checker: each rule accepts the answers it should and refuses near misses."""

from __future__ import annotations

import pytest

from bench.sets import checker
from egocli.core.timeutil import parse_time_ms

AT = parse_time_ms("2026-11-22T21:00")  # a Sunday evening
GOLD = parse_time_ms("2026-11-20T14:35:40")  # Friday


@pytest.mark.parametrize("answer, ok", [
    ("You last did it on Friday at 14:35.", True),
    ("Fri 20 Nov 14:36", True),
    ("2026-11-20 14:35:40", True),
    ("at 2:35 pm on Friday 20 November", True),
    ("On Friday at 14:38.", False),  # beyond the minute's tolerance
    ("Thursday at 14:35", False),  # the wrong day
    ("at 14:35", False),  # no day named, and the gold is not on the day asked
    ("Friday at 09:12, and again at 14:35", False),  # only the first time counts
    ("Nothing relevant in the log.", False),
])
def test_time_answers(answer: str, ok: bool) -> None:
    assert checker.check(answer, {"kind": "time", "ms": GOLD, "tolerance_s": 60}, AT) is ok


def test_last_night_is_the_day_before() -> None:
    late = parse_time_ms("2026-11-21T21:45")
    assert checker.check("You took it at 21:45 last night.", {"kind": "time", "ms": late}, AT)
    assert not checker.check("You took it at 21:45 last night.", {"kind": "time", "ms": late + 86_400_000}, AT)


def test_a_time_without_a_day_counts_on_the_day_asked() -> None:
    same_day = parse_time_ms("2026-11-22T19:10:20")
    assert checker.check("at 19:10", {"kind": "time", "ms": same_day}, AT)
    assert checker.check("earlier today, 19:10", {"kind": "time", "ms": same_day}, AT)
    assert not checker.check("yesterday at 19:10", {"kind": "time", "ms": same_day}, AT)


@pytest.mark.parametrize("answer, n", [("You did it 3 times.", 3), ("twice", 2), ("Once, at 14:35.", 1),
                                       ("On 20 Nov you rinsed it four times", 4), ("never", 0),
                                       ("at 14:35 and 15:02", None)])
def test_first_number_skips_clocks_and_dates(answer: str, n: int | None) -> None:
    assert checker.first_number(answer) == n


def test_count_needs_the_exact_number() -> None:
    assert checker.check("3 times", {"kind": "count", "n": 3}, AT)
    assert not checker.check("4 times", {"kind": "count", "n": 3}, AT)


@pytest.mark.parametrize("answer, yes", [("Yes, you did.", True), ("No, it was afterwards.", False),
                                         ("You didn't: the kettle came first.", False), ("Correct.", True),
                                         ("I took the clothes before I turned on the kettle.", True),
                                         ("I turned on the kettle after taking the clothes.", True),
                                         ("You took the clothes after the kettle.", False),
                                         ("You did.", True), ("The kettle.", None)])
def test_yes_no(answer: str, yes: bool | None) -> None:
    question = "Did I take the clothes before I turned on my kettle?"
    assert checker.yes_no(answer, question) is yes


def test_words_take_plurals_and_verb_forms_but_not_parts_of_words() -> None:
    gold = {"kind": "words", "all": [["take", "pick"], ["knife"]]}
    assert checker.check("You took the knife.", gold, AT)
    assert checker.check("picking up knives", gold, AT)
    assert not checker.check("You took the fork.", gold, AT)
    assert not checker.check("You took the knifeblock.", gold, AT)
    assert checker.check("in the cupboards", {"kind": "words", "all": [["cupboard"]]}, AT)


@pytest.mark.parametrize("answer, seconds", [("45 seconds", 45), ("about 2 minutes", 120), ("1 min 20 s", 80),
                                             ("an hour and a half", 5400), ("from 09:01:10 to 09:01:40", 30),
                                             ("1 hour and 45 minutes", 6300), ("half an hour", 1800),
                                             ("2 days 3 h ago", 183600),
                                             ("You were at the hairdresser's for 41 minutes.", 2460),
                                             ("It was a while: 3 minutes", 180)])
def test_durations(answer: str, seconds: float) -> None:
    assert checker.duration_s(answer) == seconds


def test_duration_tolerance() -> None:
    gold = {"kind": "duration", "ms": 2_220_000, "rel": 0.3, "abs_s": 120}
    assert checker.check("about 40 minutes", gold, AT)
    assert not checker.check("about 2 hours", gold, AT)


def test_verb_forms_and_plurals() -> None:
    assert checker.verb_forms("rub") == ("rubbed", "rubbed", "rubbing")
    assert checker.verb_forms("open") == ("opened", "opened", "opening")
    assert checker.verb_forms("slice") == ("sliced", "sliced", "slicing")
    assert checker.verb_forms("dry") == ("dried", "dried", "drying")
    assert [checker.plural(w) for w in ("potato", "knife", "dish", "berry", "cup")] == \
        ["potatoes", "knives", "dishes", "berries", "cups"]


def test_which_came_first() -> None:
    gold = {"kind": "first", "first": ["onion"], "then": ["pan", "saucepan"]}
    assert checker.check("You sliced the onions first (07:35), then washed the saucepan.", gold, AT)
    assert not checker.check("The pan first: 07:30; then the onion at 07:35.", gold, AT)
    assert not checker.check("You washed the pan.", gold, AT)  # the first thing is never named
