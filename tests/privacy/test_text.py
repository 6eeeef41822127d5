"""Masking personal data in text: built-in kinds, custom patterns, split pieces, counts only."""

from __future__ import annotations

import pytest

from egocli.core.errors import ConfigError
from egocli.privacy.redact import RedactionPolicy, Redactor
from egocli.privacy.text import TextRedactor
from egocli.store import NewEvent


@pytest.mark.parametrize(("text", "masked", "counts"), [
    ("Call me at 555-123-4567 tomorrow", "Call me at [phone] tomorrow", {"phone": 1}),
    ("my number is (020) 7946 0958.", "my number is [phone].", {"phone": 1}),
    ("five five five one two three four five six seven", "[phone]", {"phone": 1}),
    ("mail jane.doe@example.co.uk or bob@x.org", "mail [email] or [email]", {"email": 2}),
    ("card 4111 1111 1111 1111 exp", "card [card] exp", {"card": 1}),
])
def test_builtin_kinds_are_masked(text, masked, counts):
    assert TextRedactor().redact(text) == (masked, counts)


@pytest.mark.parametrize("text", ["on 2026-11-28 at 10:30 we had 3 eggs", "bus 12 to 14:05",
                                  "It costs 12,500 dollars", "room 1204 floor 3", "the years 1999 and 2000"])
def test_ordinary_numbers_are_left_alone(text):
    assert TextRedactor().redact(text) == (text, {})


def test_custom_pattern_and_kind_selection():
    red = TextRedactor(kinds=("email",), custom={"badge": r"EMP-\d{6}"})
    assert red.redact("EMP-123456 at 555-123-4567, a@b.io") == ("[badge] at 555-123-4567, [email]",
                                                              {"badge": 1, "email": 1})
    with pytest.raises(ConfigError, match="not a valid regular expression"):
        TextRedactor(custom={"bad": "("})
    with pytest.raises(ConfigError, match="unknown passport"):
        TextRedactor(kinds=("passport",))


def test_speech_event_words_and_content_masked_with_counts_only():
    words = [[0.0, 0.3, " Call"], [0.3, 0.5, " me"], [0.5, 0.9, " 555"], [0.9, 1.2, "-123"],
             [1.2, 1.6, "-4567"], [1.6, 1.7, "."]]
    ev = NewEvent(0, 1700, "speech", "Call me 555-123-4567.", meta={"asr": "x", "words": words})
    out = Redactor(RedactionPolicy(faces=False)).event(ev)
    assert out.content == "Call me [phone]."
    assert [w[2] for w in out.meta["words"]] == [" Call", " me", " [phone]", "[phone]", "[phone]", "."]
    assert out.meta["redacted"] == {"phone": 1}
    assert "4567" not in repr(out)


def test_policy_from_config(tmp_path):
    from egocli.core.config import load_settings

    home = tmp_path / "h"
    home.mkdir()
    (home / "config.toml").write_text('[privacy]\nfaces = false\nkinds = ["email"]\n'
                                      '[privacy.custom]\nbadge = "EMP-\\\\d{6}"\n')
    policy = RedactionPolicy.from_settings(load_settings(home=home))
    assert policy == RedactionPolicy(faces=False, kinds=("email",), custom={"badge": r"EMP-\d{6}"})
    (home / "config.toml").write_text("[privacy]\nredact = false\n")
    assert RedactionPolicy.from_settings(load_settings(home=home)) is None


def test_whisper_style_stripped_words_are_masked():
    words = [[3.6, 3.9, "at"], [4.6, 5.0, "555"], [5.0, 6.3, "-867"], [6.3, 8.0, "-5309"], [8.0, 8.5, "after"]]
    ev = NewEvent(0, 8500, "speech", "at 555-867-5309 after", meta={"words": words})
    out = Redactor(RedactionPolicy(faces=False)).event(ev)
    assert [w[2] for w in out.meta["words"]] == ["at", "[phone]", "[phone]", "[phone]", "after"]
