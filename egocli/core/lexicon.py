"""The lexicon: egocli's words in one data file (core/data/lexicon.toml), read once, and the rewriting of
everyday question phrasings into the words the question forms are written in."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Lexicon:
    """The lexicon's lists and rules, compiled."""

    rewrites: tuple[tuple[re.Pattern[str], str], ...]
    """Question phrasings -> canonical words, applied in order."""
    filler: frozenset[str]
    """Words said for politeness or stress that name nothing to look for ('now', 'again', 'actually')."""
    indefinite: frozenset[str]
    """Pronouns that stand for any person, thing or place ('anyone', 'something')."""


@cache
def lexicon() -> Lexicon:
    """The lexicon (read from the package's data file once per process)."""
    raw = tomllib.loads(resources.files("egocli.core").joinpath("data/lexicon.toml").read_text(encoding="utf-8"))
    rules = tuple((re.compile(pattern), replacement) for pattern, replacement in raw["rewrite"]["rules"])
    words = raw["words"]
    return Lexicon(rules, frozenset(words["filler"].split()), frozenset(words["indefinite"].split()))


def rewrite(question: str) -> str:
    """A question in lower case with its phrasing rewritten to the canonical words, spaces collapsed."""
    text = re.sub(r"\s+", " ", question.strip().lower().replace("\u2019", "'"))
    for _ in range(3):  # until nothing changes: a rule may need what a later one wrote
        before = text
        for pattern, replacement in lexicon().rewrites:
            text = re.sub(r"\s+", " ", pattern.sub(replacement, text))
        if text == before:
            break
    return text.strip()
