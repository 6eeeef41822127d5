"""Temporal scope parsing: a table of expressions and the windows they give."""

from __future__ import annotations

import pytest

from egocli.core.errors import UsageError
from egocli.reasoning.scope import BoundVideo, parse_scope, rewrite_tags
from egocli.core.timeutil import format_local, parse_time_ms

AT = parse_time_ms("2026-11-26T15:00:00")  # a Thursday


def _fmt(scope):
    return [(format_local(a)[:16], format_local(b)[:16]) for a, b in scope.windows]


@pytest.mark.parametrize("question, windows", [
    ("what did I eat this morning?", [("2026-11-26 05:00", "2026-11-26 12:00")]),
    ("what did the doctor say on Tuesday?", [("2026-11-24 00:00", "2026-11-25 00:00")]),
    ("what did I do last Thursday", [("2026-11-19 00:00", "2026-11-20 00:00")]),
    ("where was I 2 hours ago", [("2026-11-26 12:00", "2026-11-26 14:00")]),
    ("who called yesterday afternoon", [("2026-11-25 12:00", "2026-11-25 18:00")]),
    ("what happened last week", [("2026-11-16 00:00", "2026-11-23 00:00")]),
    ("what did I read in the past 3 days", [("2026-11-23 15:00", "2026-11-26 15:00")]),
    ("what did I cook on 2026-11-20", [("2026-11-20 00:00", "2026-11-21 00:00")]),
    ("who did I meet today", [("2026-11-26 00:00", "2026-11-26 15:00")]),
])
def test_relative_expressions_give_windows(question, windows):
    assert _fmt(parse_scope(question, AT)) == windows


@pytest.mark.parametrize("question", ["When did I last take my pills?", "Where are my reading glasses?",
                                      "where's the remote", "Where did I leave the keys?"])
def test_last_time_and_where_now_search_backwards_from_at(question):
    scope = parse_scope(question, AT)
    assert scope.backwards
    assert scope.windows[0][1] == AT + 1


def test_where_did_i_go_is_not_a_current_state_question():
    assert not parse_scope("Where did I go for lunch on Tuesday?", AT).backwards


def test_unscoped_question_searches_everything():
    scope = parse_scope("what colour is the kettle", AT)
    assert scope.windows == () and not scope.backwards


def test_since_until_narrow_the_scope():
    scope = parse_scope("what happened yesterday", AT, since_ms=parse_time_ms("2026-11-25T09:00"),
                        until_ms=parse_time_ms("2026-11-25T10:00"))
    assert _fmt(scope) == [("2026-11-25 09:00", "2026-11-25 10:00")]


def test_since_after_until_is_a_usage_error():
    with pytest.raises(UsageError, match="--since must be before --until"):
        parse_scope("x", AT, since_ms=AT, until_ms=AT - 1)


def test_time_tags_resolve_against_bound_videos():
    videos = {1: BoundVideo(1, 7, "P01-20240202-110250", 1_000_000)}
    scope = parse_scope("What happened between <TIME 00:01:30.500 video 1> and <TIME 00:02:00.000 video 1>?",
                        AT, videos=videos)
    assert [(t.offset_ms, t.abs_ms, t.source_id) for t in scope.tags] == [(90_500, 1_090_500, 7),
                                                                          (120_000, 1_120_000, 7)]
    assert scope.windows == ()


def test_time_tag_naming_an_unbound_video_is_a_usage_error():
    with pytest.raises(UsageError, match="'video 2'.*not bound"):
        parse_scope("at <TIME 00:00:01.000 video 2>?", AT, videos={1: BoundVideo(1, 1, "a", 0)})


def test_tags_rewritten_in_storyline_notation():
    assert rewrite_tags("From <TIME 00:31:17.290 video 1> to <TIME 01:02:03.000 video 2>") == \
        "From v1 31:17 to v2 1:02:03"


def test_a_part_of_today_still_to_come_is_said_so():
    with pytest.raises(UsageError, match="this afternoon has not come yet"):
        parse_scope("who did I meet this afternoon?", parse_time_ms("2026-12-03T11:00"))


@pytest.mark.parametrize("question, future", [
    ("when do the library books have to go back", True),
    ("what time do i need to be at the school gate", True),
    ("when's my next gp appointment", True),
    ("when are the library books due", True),
    ("when did i need to call the bank", False),
    ("when did the library books go back", False),
])
def test_what_is_still_to_come_is_a_plan(question, future):
    assert parse_scope(question, AT).future is future


@pytest.mark.parametrize("at, question, window", [
    ("2026-12-13T20:30", "how many times has Maria called me this weekend?", ("2026-12-12 00:00:00", "2026-12-13 20:30:00")),
    ("2026-12-13T20:30", "what did I do last weekend", ("2026-12-05 00:00:00", "2026-12-07 00:00:00")),
    ("2026-12-15T10:00", "did I go out at the weekend", ("2026-12-12 00:00:00", "2026-12-14 00:00:00")),
    ("2026-12-15T10:00", "what did I do over the weekend", ("2026-12-12 00:00:00", "2026-12-14 00:00:00")),
    ("2026-12-15T10:00", "did I see Maria this weekend", ("2026-12-12 00:00:00", "2026-12-14 00:00:00")),
])
def test_a_weekend_is_its_saturday_and_sunday(at, question, window):
    scope = parse_scope(question, parse_time_ms(at))
    assert [(format_local(a), format_local(b)) for a, b in scope.windows] == [window]


def test_a_contraction_typed_without_its_apostrophe_reads_as_one():
    """'whats on tuesday' is "what's on tuesday": a plan for the coming Tuesday, not last Tuesday's events."""
    from egocli.core.lexicon import apostrophes

    assert apostrophes("whats on tuesday") == "what's on tuesday"
    assert apostrophes("wheres my badge, didnt i leave it") == "where's my badge, didn't i leave it"
    assert apostrophes("the ids on the list") == "the ids on the list"
    at = parse_time_ms("2027-01-16T22:00")
    assert parse_scope("whats on tuesday", at).future == parse_scope("what's on tuesday", at).future is True


@pytest.mark.parametrize("said, meant", [
    ("where are me keys", "where are my keys"),
    ("did i take me tablets this morning", "did i take my tablets this morning"),
    ("how much was in me wallet when i found it", "how much was in my wallet when i found it"),
    ("which one's me night tablet", "which one's my night tablet"),
    ("what did me blood pressure come out at", "what did my blood pressure come out at"),
    ("who owes me money", "who owes me money"),
    ("did jan ring me yesterday", "did jan ring me yesterday"),
    ("tell me which i did first", "tell me which i did first"),
    ("what did mum want me not to forget", "what did mum want me not to forget"),
    ("has liam paid me back that twenty", "has liam paid me back that twenty"),
    ("when did i last see me mum", "when did i last see my mum"),
    ("me keys, when did i last have them", " my keys, when did i last have them"),
    ("me and my phone, how many times have i lost it", "me and my phone, how many times have i lost it"),
    ("did dean ring me back", "did dean ring me back"),
])
def test_me_said_for_my_reads_as_my(said, meant):
    """'me' for 'my' (as many say it) after a preposition, a 'to be', a 'did' or a verb of handling things; 'me' as
    itself everywhere else."""
    from egocli.core.lexicon import apostrophes

    assert apostrophes(said) == meant


def test_since_a_day_runs_from_then_until_the_question():
    """'How many times has the carer been since Wednesday morning?' asked on Thursday evening counts Thursday too;
    'since' is a time word, not part of what is counted."""
    at = parse_time_ms("2027-03-04T21:00")
    scope = parse_scope("how many times has the carer been since wednesday morning", at)
    assert [(format_local(lo), format_local(hi)) for lo, hi in scope.windows] == \
        [("2027-03-03 05:00:00", "2027-03-04 21:00:00")]
    assert scope.notes == ["since wednesday morning"]
    wednesday = parse_scope("how many times did the carer come on wednesday", at)
    assert [format_local(hi) for _, hi in wednesday.windows] == ["2027-03-04 00:00:00"]
