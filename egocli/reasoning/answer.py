"""Answer letters: a GBNF grammar, regex extraction from free text, and majority voting."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

LETTERS = "ABCDE"
_EXPLICIT = re.compile(r"(?:answer|option|choice)\s*(?:is|:)?\s*\(?\**([A-E])\b", re.I)
_LEADING = re.compile(r"^\W*\(?([A-E])(?:[).:]|$)")
_ANY = re.compile(r"(?<![A-Za-z'])([A-E])(?![A-Za-z'])")


def letters_for(count: int) -> str:
    """The option letters for `count` choices (at most five)."""
    if not 1 <= count <= len(LETTERS):
        raise ValueError(f"between 1 and {len(LETTERS)} choices, got {count}")
    return LETTERS[:count]


def grammar(count: int) -> str:
    """A GBNF grammar whose only outputs are the option letters."""
    return "root ::= " + " | ".join(f'"{c}"' for c in letters_for(count))


def extract_letter(text: str, count: int = 5) -> str | None:
    """The option letter a reply gives: 'the answer is C', 'C.', '(C)'; None if there is none."""
    allowed = letters_for(count)
    for pattern in (_EXPLICIT, _LEADING):
        m = pattern.search(text.strip())
        if m and m.group(1).upper() in allowed:
            return m.group(1).upper()
    found = [c for c in _ANY.findall(text) if c in allowed]
    return found[0] if len(set(found)) == 1 else None


@dataclass(frozen=True)
class Vote:
    """The outcome of majority voting."""

    letter: str | None
    """The winning letter (None when no variant gave one)."""
    share: float
    """Winning votes / all variants: the confidence."""
    counts: dict[str, int]
    """Votes per letter."""


def majority(votes: Sequence[str | None]) -> Vote:
    """Majority over the variants' letters; ties go to the letter voted first."""
    valid = [v for v in votes if v is not None]
    if not valid:
        return Vote(None, 0.0, {})
    counts = Counter(valid)
    best = max(counts.values())
    winner = next(v for v in valid if counts[v] == best)
    return Vote(winner, best / len(votes), dict(counts))


_LINE = re.compile(r"^\W*line\s*:[*_\s]*(.*?)\s*$", re.I | re.M)
ANSWER_MARK = re.compile(r"^\W*answer\s*:[*_\s]*", re.I | re.M)
"""Where the answer starts in a 'Line: ... / Answer: ...' reply."""


def split_open(reply: str) -> tuple[str | None, str]:
    """(copied log line or None, answer) from a 'Line: ... / Answer: ...' reply; without the
    format the whole reply is the answer."""
    found = ANSWER_MARK.search(reply)
    if found is None:
        line = _LINE.search(reply)  # a copied line but no answer: the line is all there is
        return (line.group(1), line.group(1)) if line else (None, reply.strip())
    line = _LINE.search(reply[: found.start()])
    return (line.group(1) if line else None), reply[found.end():].strip()
