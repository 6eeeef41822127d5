"""Answer letters: regex extraction, the grammar, majority voting."""

from __future__ import annotations

import pytest

from egocli.reasoning.answer import extract_letter, grammar, majority, split_open


@pytest.mark.parametrize("reply, letter", [
    ("C", "C"), ("C.", "C"), ("(B)", "B"), (" D) the kitchen", "D"), ("The answer is E.", "E"),
    ("Answer: b", "B"), ("I think option A is right", "A"), ("**A**", "A"),
    ("none of them", None), ("A or B", None), ("F", None), ("", None),
])
def test_extract_letter(reply, letter):
    assert extract_letter(reply) == letter


def test_extract_letter_respects_the_number_of_choices():
    assert extract_letter("D", count=3) is None
    assert extract_letter("C", count=3) == "C"


def test_grammar_lists_only_the_allowed_letters():
    assert grammar(3) == 'root ::= "A" | "B" | "C"'


def test_majority_vote_share_is_confidence():
    vote = majority(["B", "A", "B", None, "B"])
    assert (vote.letter, vote.share, vote.counts) == ("B", 0.6, {"B": 3, "A": 1})


def test_tie_goes_to_the_first_voted_letter():
    assert majority(["C", "A", "A", "C"]).letter == "C"


def test_no_valid_vote_gives_no_answer():
    vote = majority([None, None])
    assert vote.letter is None and vote.share == 0.0


@pytest.mark.parametrize("reply, line, answer", [
    ("Line: [16:00] visual: Taking the pill\nAnswer: With orange juice.", "[16:00] visual: Taking the pill",
     "With orange juice."),
    ("nothing relevant in the log", None, "nothing relevant in the log"),
    ("Line: [16:00] visual: Taking the pill", "[16:00] visual: Taking the pill", "[16:00] visual: Taking the pill"),
    ("**Answer:** yesterday at four", None, "yesterday at four"),
])
def test_split_open_reply(reply, line, answer):
    assert split_open(reply) == (line, answer)
