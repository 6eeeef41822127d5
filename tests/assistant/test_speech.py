"""Spoken answers start early: the wake phrase, and sentences cut from streamed tokens."""

from __future__ import annotations

from egocli.assistant.session import wake_pattern
from egocli.assistant.speech import SentenceSplitter


def test_wake_phrase_is_matched_loosely():
    wake = wake_pattern("hey co-pilot")
    for said in ("Hey co-pilot, where did I park?", "hey copilot where did I park?", "Hey, Co Pilot. Where did I park?"):
        match = wake.match(said)
        assert match and said[match.end():].startswith("where") or said[match.end():].startswith("Where"), said
    assert wake.match("they copied a pilot") is None


def test_sentences_are_spoken_as_they_end():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["You", " said", " ask", " not.", " Then", " more", " words"]:
        splitter.feed(token)
    assert said == ["You said ask not."]
    splitter.finish()
    assert said == ["You said ask not.", "Then more words"]


def test_first_clause_is_spoken_early_and_numbers_are_not_cut():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["The", " president", " asked", " people,", " in", " 1961", " and", " 3", ",", "000", " times,",
                  " to", " ask.", " Done", " 2", ".", "5", " now."]:
        splitter.feed(token)
    splitter.finish()
    assert said == ["The president asked people,", "in 1961 and 3,000 times, to ask.", "Done 2.5 now."]


def test_first_piece_breaks_before_a_phrase_opener_after_a_few_words():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["The", " president", " asked", " people", " to", " ask", " what", " they", " can", " do", "."]:
        splitter.feed(token)
    splitter.finish()
    assert said == ["The president asked people", "to ask what they can do."]
    said.clear()
    short = SentenceSplitter(said.append)
    for token in ["Go", " to", " bed", " and", " sleep", " well", "."]:  # too few words before "to"/"and"
        short.feed(token)
    short.finish()
    assert said == ["Go to bed and sleep well."]
