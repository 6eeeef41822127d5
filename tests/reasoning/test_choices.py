"""Options parsed into spans, items and sequences; what cannot be parsed is kind none, never an error."""

from __future__ import annotations

from egocli.reasoning import choices
from egocli.reasoning.scope import BoundVideo, Scope
from egocli.core.timeutil import parse_time_ms

from .conftest import AT

VIDEO = BoundVideo(1, 7, "kitchen-monday", AT)
SCOPE = Scope(videos=(VIDEO,), at_ms=AT + 10**8)


def test_time_tags_become_spans_one_or_several():
    parsed = choices.parse_options(
        ["From <TIME 00:06:22.000 video 1> to <TIME 00:06:40.500 video 1>",
         "<TIME 00:01:00.000 video 1> to <TIME 00:01:05.000 video 1>, <TIME 00:02:00.000 video 1> to "
         "<TIME 00:02:30.000 video 1>",
         "<TIME 00:09:00.000 video 1>"], SCOPE)
    assert [o.kind for o in parsed] == ["spans"] * 3
    assert parsed[0].spans == (choices.Span(AT + 382_000, AT + 400_500, 7),)
    assert len(parsed[1].spans) == 2 and parsed[1].spans[1].end_ms == AT + 150_000
    assert parsed[2].spans[0].start_ms == parsed[2].spans[0].end_ms == AT + 540_000


def test_clock_spans_read_as_offsets_in_the_one_video_or_times_of_day():
    assert choices.parse_options(["from 6:22 to 6:40"], SCOPE)[0].spans[0].start_ms == AT + 382_000
    day = Scope(at_ms=parse_time_ms("2026-11-26T18:00:00"))
    span = choices.parse_options(["between 09:00 and 09:30"], day)[0].spans[0]
    assert span.start_ms == parse_time_ms("2026-11-26T09:00:00")
    assert span.end_ms - span.start_ms == 30 * 60_000
    late = choices.parse_options(["from 20:00 to 21:00"], day)[0].spans[0]  # after the moment asked: yesterday
    assert late.start_ms == parse_time_ms("2026-11-25T20:00:00")


def test_lists_that_reorder_the_same_items_are_sequences():
    parsed = choices.parse_options(["soy sauce, sesame oil, garlic", "garlic, then soy sauce, then sesame oil",
                                    "sesame oil -> garlic -> soy sauce"], SCOPE)
    assert [o.kind for o in parsed] == ["sequence"] * 3
    assert parsed[1].items == ("garlic", "soy sauce", "sesame oil")
    assert parsed[2].items == ("sesame oil", "garlic", "soy sauce")


def test_lists_of_different_things_stay_items():
    parsed = choices.parse_options(["Pancakes and Lemon Curd", "Chicken Curry, Rice", "Bread, Butter"], SCOPE)
    assert [o.kind for o in parsed] == ["item"] * 3


def test_empty_duplicate_wordless_and_unbound_options_are_none():
    parsed = choices.parse_options(["", "olive oil", "Olive  oil", "?!", "<TIME 00:01:00.000 video 3>"], SCOPE)
    assert [o.kind for o in parsed] == ["none", "item", "none", "none", "none"]
    assert "earlier option" in parsed[2].note and "video 3" in parsed[4].note


def test_quoted_phrases_in_order():
    q = 'When did I do each of: "whisk the eggs", "heat the pan" and "fold the omelette"?'
    assert choices.quoted(q) == ["whisk the eggs", "heat the pan", "fold the omelette"]
