"""Candidate things the user may mean: labeler crops, OCR text regions and chess squares, with boxes."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.models.base import Labeler, Reader
from egocli.pointing.geometry import Ray

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]
"""x0, y0, x1, y1 in pixels (x1, y1 exclusive)."""

CROP_FINGERS = 2.5
"""A crop along the ray is this many finger lengths wide (at the fingertip's depth)."""
CROP_MIN, CROP_MAX = 0.12, 0.45
"""Crop size limits as a share of the image's short side."""
MAX_CROPS = 9
"""At most this many labeler crops along one ray (lateral ones included)."""
LATERAL_STEPS = 2
"""Steps nearest the fingertip that also get a crop half a crop to either side of the ray."""
EMPTY_WEIGHT = 0.5
"""An empty square is less likely to be what is meant than a piece: its confidence is scaled by this."""
PIECES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}


@dataclass(frozen=True)
class Candidate:
    """Something in the frame the user may be pointing at."""

    kind: str
    """'object' (labeler crop), 'text' (OCR region) or 'square' (chess square)."""
    description: str
    """What it is, as said to the user: 'espresso', the text read, 'white bishop on c4'."""
    box: Box
    """Where it is in the image."""
    confidence: float
    """The model's confidence 0..1 (top label, OCR score, square class probability)."""
    detail: dict[str, Any] = field(default_factory=dict)
    """Kind-specific extras: top labels, square name and piece symbol."""

    @property
    def centre(self) -> np.ndarray:
        """Centre of the box in pixels."""
        x0, y0, x1, y1 = self.box
        return np.array([(x0 + x1) / 2, (y0 + y1) / 2], float)

    def to_json(self) -> dict[str, Any]:
        """Plain data for --json."""
        return {"kind": self.kind, "description": self.description, "box": list(self.box),
                "confidence": round(self.confidence, 3), **self.detail}


def clip_box(x0: float, y0: float, x1: float, y1: float, width: int, height: int) -> Box:
    """A box rounded to pixels and clipped to the image."""
    return (int(max(0, round(x0))), int(max(0, round(y0))), int(min(width, round(x1))), int(min(height, round(y1))))


def ray_crops(ray: Ray, width: int, height: int, max_crops: int = MAX_CROPS) -> list[Box]:
    """Square crops stepped along the ray beyond the fingertip, half a crop apart, shrinking with depth."""
    short = min(width, height)
    base = float(np.clip(CROP_FINGERS * ray.finger, CROP_MIN * short, CROP_MAX * short))
    boxes: list[Box] = []
    distance, steps = base / 2, 0
    while len(boxes) < max_crops:
        s = ray.param_at(distance)
        if s is None:
            break
        size = max(base * ray.scale(s), CROP_MIN * short / 2)
        x, y = ray.project(s)
        if not (0 <= x < width and 0 <= y < height):
            break
        centres = [(x, y)]
        steps += 1
        if steps <= LATERAL_STEPS:  # side-by-side things near the finger: look half a crop either side
            normal = np.array([-ray.direction[1], ray.direction[0]]) * size / 2
            centres += [(x + normal[0], y + normal[1]), (x - normal[0], y - normal[1])]
        for cx, cy in centres:
            box = clip_box(cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2, width, height)
            if box[2] - box[0] >= size / 2 and box[3] - box[1] >= size / 2:
                boxes.append(box)
        distance += size / 2
    return boxes


def centre_crops(width: int, height: int) -> list[Box]:
    """Two crops around the image centre (a tight one and a wide one) for the no-pointing fallback."""
    short = min(width, height)
    boxes = []
    for share in (0.35, 0.6):
        half = share * short / 2
        boxes.append(clip_box(width / 2 - half, height / 2 - half, width / 2 + half, height / 2 + half,
                              width, height))
    return boxes


def corridor(boxes: Sequence[Box], width: int, height: int, margin: float = 0.1) -> Box | None:
    """The bounding box of some boxes, grown by a margin (where OCR looks)."""
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    grow = margin * max(x1 - x0, y1 - y0)
    return clip_box(x0 - grow, y0 - grow, x1 + grow, y1 + grow, width, height)


def label_crops(image: np.ndarray, boxes: Sequence[Box], labeler: Labeler) -> list[Candidate]:
    """One 'object' candidate per crop: its top label."""
    out = []
    for box in boxes:
        x0, y0, x1, y1 = box
        labels = labeler.labels(np.ascontiguousarray(image[y0:y1, x0:x1]), top_k=3)
        if labels:
            name, score = labels[0]
            out.append(Candidate("object", name, box, float(score),
                                 {"labels": [[n, round(float(s), 3)] for n, s in labels]}))
    return out


def text_regions(image: np.ndarray, region: Box | None, reader: Reader) -> list[Candidate]:
    """'text' candidates read by OCR inside region (the whole image when None)."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = region or (0, 0, width, height)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return []
    out = []
    for r in reader.read(np.ascontiguousarray(image[y0:y1, x0:x1])):
        bx0, by0, bx1, by1 = r.box
        out.append(Candidate("text", r.text, clip_box(bx0 + x0, by0 + y0, bx1 + x0 + 1, by1 + y0 + 1, width, height),
                             float(r.score)))
    return out


def square_name(row: int, col: int) -> str:
    """Board-order (rank 8 first, file a first) cell -> 'e4'."""
    return f"{'abcdefgh'[col]}{8 - row}"


def piece_phrase(symbol: str, square: str) -> str:
    """'white bishop on c4' for 'B', 'empty square c4' for '.'."""
    if symbol == ".":
        return f"empty square {square}"
    colour = "white" if symbol.isupper() else "black"
    return f"{colour} {PIECES[symbol.lower()]} on {square}"


def board_squares(image: np.ndarray) -> list[Candidate]:
    """One 'square' candidate per square when a chessboard is in view (piece tops included in the box)."""
    from egocli.chess import squares as sq
    from egocli.chess.board import NoBoardError, locate_board
    from egocli.chess.recognise import classify_located

    try:
        location = locate_board(image)
    except NoBoardError:
        return []
    try:
        seen = classify_located(image, location)
    except Exception as ex:  # squares are one optional source: a broken classifier must not sink "what"
        log.warning("chess squares skipped: %s", str(ex).splitlines()[0])
        return []
    warp_index = np.rot90(np.arange(64).reshape(8, 8), k=seen.turns)
    height, width = image.shape[:2]
    out = []
    for row in range(8):
        for col in range(8):
            wr, wc = divmod(int(warp_index[row, col]), 8)
            probs = seen.probs[row, col]
            best = int(np.argmax(probs))
            square = square_name(row, col)
            corners = np.array([[wc, wr - 0.6], [wc + 1, wr - 0.6], [wc + 1, wr + 1], [wc, wr + 1]], np.float64)
            pts = _apply(location.homography, corners)
            box = clip_box(pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max(), width, height)
            weight = EMPTY_WEIGHT if sq.CLASSES[best] == "." else 1.0
            out.append(Candidate("square", piece_phrase(sq.CLASSES[best], square), box, float(probs[best]) * weight,
                                 {"square": square, "piece": sq.CLASSES[best]}))
    return out


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.c_[pts, np.ones(len(pts))] @ h.T
    return q[:, :2] / q[:, 2:3]
