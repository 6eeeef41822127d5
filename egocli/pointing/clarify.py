"""The follow-up question when two candidates fit, as plain data, and matching the user's reply to it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from egocli.core.errors import InputError
from egocli.pointing.candidates import Candidate

CORNER = 0.25
"""A box centre within this share of two image edges is 'near the ... corner'."""
_ORDINALS = {"1": 0, "first": 0, "former": 0, "2": 1, "second": 1, "latter": 1, "3": 2, "third": 2}
_SYNONYMS = {"top": "higher", "up": "higher", "above": "higher", "upper": "higher", "bottom": "lower",
             "down": "lower", "below": "lower", "closer": "nearer", "near": "nearer", "far": "further",
             "farther": "further", "beyond": "further", "behind": "further"}


@dataclass(frozen=True)
class Option:
    """One answer to the question."""

    key: str
    """A short key the reply may give: '1', '2', ..."""
    text: str
    """How the option is said: 'the espresso on the left'."""
    position: str
    """The position phrase alone: 'on the left', 'near the top right corner'."""
    candidate: int
    """Index of the candidate in Resolution.candidates."""


@dataclass(frozen=True)
class Clarification:
    """A question naming the fitting candidates by position; a tool or a voice turn can wrap it."""

    question: str
    """'Do you mean the espresso on the left, or the tabby cat on the right?'"""
    options: tuple[Option, ...]
    """The choices, in the order the question names them."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for --json and for tools."""
        return {"question": self.question,
                "options": [{"key": o.key, "text": o.text, "position": o.position, "candidate": o.candidate}
                            for o in self.options]}


def _corner(c: Candidate, width: int, height: int) -> str | None:
    x, y = c.centre
    horizontal = "left" if x < CORNER * width else "right" if x > (1 - CORNER) * width else None
    vertical = "top" if y < CORNER * height else "bottom" if y > (1 - CORNER) * height else None
    return f"near the {vertical} {horizontal} corner" if horizontal and vertical else None


def _relative(c: Candidate, others: list[Candidate], along: float, others_along: list[float]) -> str:
    """Where c is compared with the others: left/right, higher/lower, or nearer/further along the finger."""
    mean = np.mean([o.centre for o in others], axis=0)
    dx, dy = c.centre - mean
    gap = float(np.mean(others_along)) - along
    size = max(c.box[2] - c.box[0], c.box[3] - c.box[1])
    if abs(gap) > max(abs(dx), abs(dy)) and abs(gap) > size / 2:
        return "nearer your finger" if gap > 0 else "further along"
    if abs(dx) >= abs(dy):
        return "on the left" if dx < 0 else "on the right"
    return "higher up" if dy < 0 else "lower down"


def positions(cands: list[Candidate], along: list[float], width: int, height: int) -> list[str]:
    """A distinct position phrase for each candidate (corner when it is in one, else relative)."""
    out = []
    for i, c in enumerate(cands):
        others = [o for j, o in enumerate(cands) if j != i]
        others_along = [a for j, a in enumerate(along) if j != i]
        out.append(_corner(c, width, height) or _relative(c, others, along[i], others_along))
    if len(set(out)) < len(out):  # two in the same corner: fall back to relative phrases
        out = [_relative(c, [o for j, o in enumerate(cands) if j != i], along[i],
                         [a for j, a in enumerate(along) if j != i]) for i, c in enumerate(cands)]
    return out


def ask(cands: list[Candidate], indices: list[int], along: list[float], width: int, height: int) -> Clarification:
    """The question naming each candidate by position (and by what it is, when they differ)."""
    where = positions(cands, along, width, height)
    same = len({c.description for c in cands}) == 1
    options = []
    for n, (c, pos, index) in enumerate(zip(cands, where, indices, strict=True), start=1):
        thing = "one" if same else c.description
        if c.kind == "text":
            thing = f'text "{c.description}"' if not same else "text"
        options.append(Option(str(n), f"the {thing} {pos}", pos, index))
    spoken = ", or ".join(o.text for o in options)
    return Clarification(f"Do you mean {spoken}?", tuple(options))


def _words(text: str) -> set[str]:
    words = set(re.findall(r"[a-z0-9]+", text.lower()))
    return {_SYNONYMS.get(w, w) for w in words} - {"the", "one", "on", "a", "an", "of", "your", "i", "mean", "it"}


def pick(clarification: Clarification, reply: str) -> Option:
    """The option a reply selects ('the left one', '2', 'the cat', 'the one near the corner')."""
    words = _words(reply)
    keyed = [o for o in clarification.options if o.key in words]
    if len(keyed) == 1 and len(words) == 1:
        return keyed[0]
    for word, index in _ORDINALS.items():
        if word in words and index < len(clarification.options) and not word.isdigit():
            return clarification.options[index]
    scores = [len(words & _words(o.text)) for o in clarification.options]
    best = max(scores)
    if best == 0 or scores.count(best) > 1:
        choices = "; ".join(f"{o.key}: {o.text}" for o in clarification.options)
        raise InputError(f"cannot tell which one '{reply}' means ({choices})")
    return clarification.options[scores.index(best)]
