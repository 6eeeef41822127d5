"""Resolve "this": the pointed-at thing (or the centre of the view), scored, or a question when two fit.

Scoring. Each candidate box is measured against the target: for a pointing ray, `near` is how far
along the ray (from the fingertip) the box begins and `off` how far the box's nearest edge lies from
the ray; the tolerance grows with distance (a cone of TOLERANCE_DEG around a base of a third of a
finger). For the centre fallback, `near` and `off` are the box's distance from the image centre.

    score = confidence * exp(-(off / tol)^2 / 2) * exp(-near / decay) * kind weight

The best score wins. The first confident hit along the ray wins over a later one ("the first
confident hit wins"); two candidates whose scores are within AMBIGUOUS of each other, and neither
clearly in front of the other, make a Clarification instead of a guess.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from egocli.pointing import candidates as cand
from egocli.pointing.candidates import Box, Candidate
from egocli.pointing.clarify import Clarification, ask, pick
from egocli.pointing.geometry import Ray, is_pointing, pointing_ray

TOLERANCE_DEG = 8.0
"""Half-angle of the cone around the ray in which a box still counts as on it."""
AMBIGUOUS = 0.8
"""A runner-up scoring at least this share of the best makes the answer ambiguous."""
CONFIDENT = 0.2
"""Below this score the answer is given as a guess ("not sure")."""
OVERLAP = 0.4
"""Two candidates whose intersection covers this share of the smaller box are the same thing."""
WEIGHTS = {"what": {"square": 1.0, "text": 0.9, "object": 0.9},
           "read": {"square": 0.0, "text": 1.0, "object": 0.0},
           "remember": {"square": 1.0, "text": 0.9, "object": 0.9}}
_INTENTS = (("read", r"\b(read|says?|written|text)\b"), ("remember", r"\b(remember|save|note|keep)\b"))


def intent_of(say: str | None) -> str:
    """'what', 'read' or 'remember' from what the user said ('read me this', 'remember this')."""
    text = (say or "").lower()
    for name, pattern in _INTENTS:
        if re.search(pattern, text):
            return name
    return "what"


@dataclass(frozen=True)
class Scored:
    """A candidate with its measurements against the target."""

    candidate: Candidate
    score: float
    near: float
    """Pixels from the fingertip (or image centre) to the box along the ray."""
    off: float
    """Pixels from the ray (or centre) to the box's nearest edge."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for --json."""
        return {**self.candidate.to_json(), "score": round(self.score, 3), "near_px": round(self.near, 1),
                "off_px": round(self.off, 1)}


@dataclass(frozen=True)
class Resolution:
    """What "this" resolved to."""

    intent: str
    """'what', 'read' or 'remember'."""
    mode: str
    """'pointing' (a pointing hand's ray) or 'centre' (no hand, or a hand not pointing)."""
    note: str
    """Said before the answer when the centre was used: 'No hand in view: ...'."""
    candidates: list[Scored]
    """All candidates, best first, after merging overlaps."""
    answer: int | None
    """Index into candidates of the answer (None when there is none, or a question is asked)."""
    question: Clarification | None = None
    """The follow-up question when two candidates fit about equally."""
    ray: Ray | None = None
    """The pointing ray, in pointing mode."""
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds: landmarks, candidates (labeler/ocr/chess), total."""

    @property
    def best(self) -> Scored | None:
        """The answer, if any."""
        return None if self.answer is None else self.candidates[self.answer]

    @property
    def sure(self) -> bool:
        """True when the answer scored as a confident hit."""
        return self.best is not None and self.best.score >= CONFIDENT

    def text(self) -> str:
        """What to say: the answer, or the question."""
        if self.question is not None:
            return self.question.question
        best = self.best
        if best is None:
            return "I can't see anything to name there." if self.intent != "read" else "I can't find text there."
        said = best.candidate.description
        if self.intent == "read" or best.candidate.kind == "text":
            said = read_aloud(self.candidates, self.answer or 0)
        return said if self.sure else f"Not sure, maybe: {said}"

    def crop_box(self, width: int, height: int, pad: float = 0.1) -> Box | None:
        """The answer's box grown by pad on each side."""
        if self.best is None:
            return None
        x0, y0, x1, y1 = self.best.candidate.box
        gx, gy = pad * (x1 - x0), pad * (y1 - y0)
        return cand.clip_box(x0 - gx, y0 - gy, x1 + gx, y1 + gy, width, height)

    def to_json(self) -> dict[str, Any]:
        """Plain data for --json."""
        best = self.best
        return {"intent": self.intent, "mode": self.mode, "note": self.note, "text": self.text(),
                "answer": best.to_json() if best else None, "confidence": round(best.score, 3) if best else 0.0,
                "sure": self.sure, "question": self.question.to_json() if self.question else None,
                "ray": self.ray.to_json() if self.ray else None,
                "candidates": [s.to_json() for s in self.candidates[:10]],
                "timings_ms": {k: round(v, 1) for k, v in self.timings.items()}}


def read_aloud(scored: list[Scored], index: int) -> str:
    """The text of a text answer together with the lines of its block (overlapping columns, close rows)."""
    hit = scored[index].candidate
    if hit.kind != "text":
        return hit.description
    line = max(hit.box[3] - hit.box[1], 1)
    block = [s.candidate for s in scored if s.candidate.kind == "text"
             and min(s.candidate.box[2], hit.box[2]) > max(s.candidate.box[0], hit.box[0])
             and abs(s.candidate.centre[1] - hit.centre[1]) < 3 * line]
    return " ".join(c.description for c in sorted(block, key=lambda c: (c.box[1], c.box[0])))


def measure_ray(ray: Ray, box: Box) -> tuple[float, float, float] | None:
    """(near, off, tolerance) of a box against the ray, None when it lies behind the fingertip."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    t, off = ray.along(np.array([(x0 + x1) / 2, (y0 + y1) / 2]))
    d = ray.direction
    half_along = 0.5 * (w * abs(d[0]) + h * abs(d[1]))
    half_across = 0.5 * (w * abs(d[1]) + h * abs(d[0]))
    if t + half_along < -0.3 * ray.finger:
        return None
    near = max(t - half_along, 0.0)
    tol = ray.finger / 3 + max(t, 0.0) * math.tan(math.radians(TOLERANCE_DEG))
    return near, max(off - half_across, 0.0), tol


def measure_centre(width: int, height: int, box: Box) -> tuple[float, float, float]:
    """(near, off, tolerance) of a box against the image centre."""
    x0, y0, x1, y1 = box
    dx = max(x0 - width / 2, 0.0, width / 2 - x1)
    dy = max(y0 - height / 2, 0.0, height / 2 - y1)
    d = math.hypot(dx, dy)
    return d, d, 0.2 * min(width, height)


def score_all(found: list[Candidate], measure: Any, decay: float, intent: str) -> list[Scored]:
    """Score and merge candidates (overlapping ones keep the better), best first."""
    scored = []
    for c in found:
        m = measure(c.box)
        weight = WEIGHTS[intent][c.kind]
        if m is None or weight == 0:
            continue
        near, off, tol = m
        score = c.confidence * math.exp(-0.5 * (off / tol) ** 2) * math.exp(-near / decay) * weight
        scored.append(Scored(c, score, near, off))
    scored.sort(key=lambda s: -s.score)
    squares = [s.candidate.box for s in scored if s.candidate.kind == "square"]
    kept: list[Scored] = []
    for s in scored:
        if s.candidate.kind == "square":  # squares are distinct by construction
            kept.append(s)
        elif s.candidate.kind == "object" and any(_overlap(s.candidate.box, b) >= OVERLAP for b in squares):
            continue  # on a board, the square says more than an ImageNet label of the crop
        elif all(_overlap(s.candidate.box, k.candidate.box) < OVERLAP for k in kept
                 if k.candidate.kind != "square"):
            kept.append(s)
    return kept


def _overlap(a: Box, b: Box) -> float:
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return iw * ih / max(smaller, 1)


def decide(scored: list[Scored], width: int, height: int) -> tuple[int | None, Clarification | None]:
    """(answer index, question): the best, unless a rival scores close and is not clearly behind it."""
    if not scored:
        return None, None
    best = scored[0]
    rivals = [i for i, s in enumerate(scored[1:2], start=1) if s.score >= AMBIGUOUS * best.score
              and best.score >= CONFIDENT and not _behind(s, best) and not _same_thing(s, best)]
    if not rivals:
        return 0, None
    picked = [0, *rivals]
    return None, ask([scored[i].candidate for i in picked], picked, [scored[i].near for i in picked], width, height)


def _same_thing(s: Scored, best: Scored) -> bool:
    """Same label in touching boxes: two crops of one object, not two objects."""
    a, b = s.candidate.box, best.candidate.box
    if s.candidate.description != best.candidate.description:
        return False
    gap = max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0)
    return gap < 0.25 * max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])


def _behind(s: Scored, best: Scored) -> bool:
    """True when s begins clearly further along the ray than best ends (the first hit wins)."""
    size = max(best.candidate.box[2] - best.candidate.box[0], best.candidate.box[3] - best.candidate.box[1])
    return s.near - best.near > 0.5 * size


def choose(resolution: Resolution, reply: str) -> Resolution:
    """The resolution after the user answered its question ('the left one', '2', 'the cat')."""
    if resolution.question is None:
        return resolution
    option = pick(resolution.question, reply)
    return replace(resolution, answer=option.candidate, question=None)


def find_target(points_list: list[np.ndarray], width: int, height: int) -> tuple[Ray | None, str]:
    """The first pointing hand's ray, or (None, the note to say) for the centre fallback."""
    if not points_list:
        return None, "No hand in view: using the centre of the view."
    for points in points_list:
        if is_pointing(points):
            return pointing_ray(points, width, height), ""
    return None, "Your hand is not pointing: using the centre of the view."


def resolve(image: np.ndarray, hands: Any, labeler: Any, reader: Any | None, intent: str = "what",
            chess: bool = True) -> Resolution:
    """Resolve "this" in a BGR frame with a hand tracker, a Labeler and an optional Reader (OCR)."""
    height, width = image.shape[:2]
    started = time.perf_counter()
    found_hands = hands.detect(image)
    timings = {"landmarks": (time.perf_counter() - started) * 1000}
    ray, note = find_target([h.points for h in found_hands], width, height)
    boxes = cand.ray_crops(ray, width, height) if ray else cand.centre_crops(width, height)
    found = _propose(image, boxes, labeler, reader, intent, chess, timings)
    diag = math.hypot(width, height)
    measure = (lambda b: measure_ray(ray, b)) if ray else (lambda b: measure_centre(width, height, b))
    scored = score_all(found, measure, 0.75 * diag, intent)
    answer, question = decide(scored, width, height)
    timings["total"] = (time.perf_counter() - started) * 1000
    return Resolution(intent, "pointing" if ray else "centre", note, scored, answer, question, ray, timings)


def _propose(image: np.ndarray, boxes: list[Box], labeler: Any, reader: Any | None, intent: str,
             chess: bool, timings: dict[str, float]) -> list[Candidate]:
    """Labeler crops, OCR regions in the corridor and chess squares, timing each source."""
    height, width = image.shape[:2]
    found: list[Candidate] = []
    steps: list[tuple[str, Any]] = []
    if intent != "read":
        steps.append(("labeler", lambda: cand.label_crops(image, boxes, labeler)))
    if reader is not None:
        steps.append(("ocr", lambda: cand.text_regions(image, cand.corridor(boxes, width, height), reader)))
    if chess and intent != "read":
        steps.append(("chess", lambda: cand.board_squares(image)))
    for name, step in steps:
        t = time.perf_counter()
        found.extend(step())
        timings[name] = (time.perf_counter() - t) * 1000
    timings["candidates"] = sum(timings.get(k, 0.0) for k in ("labeler", "ocr", "chess"))
    return found
