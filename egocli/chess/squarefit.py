"""What a frame says about each square, for the game tracker: log-scores of the 13 classes, with occupancy and
colour (empty/white/black) above all and the piece type given the colour weakly.

On another set from straight above the square classifier reads some men's colour wrong in every frame (light
wood on a light square as empty, a white man as black), confidently. A video followed as a game starts from a
known position, so its first frames label themselves: on them, the colour is re-read by a small multinomial
regression over the classifier's colour probabilities and what the square itself looks like (looks.py: how
much of it differs from its own edges, how dark and how bright that part is), pulled towards the classifier
as it is. Fitted in milliseconds, per video; without looks, on the classifier's probabilities alone."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from egocli.chess.squares import CLASSES

FLOOR = 0.02
"""Probabilities are clipped to at least this much, so one occluded or misread square costs at most ~4 nats."""
TYPE_WEIGHT = 0.3
"""Weight of log P(type | colour): from above, kings, queens, bishops and pawns all show round tops, so the type
is read badly where empty/white/black is read well (fitting it per video on the first frames, whose men are
few and stand still, made it worse on the synthetic videos: bench/game.py)."""
KIND = np.array([0] + [1] * 6 + [2] * 6)
"""Class index -> 0 empty, 1 white, 2 black."""
PULL = 0.05
"""L2 pull of the colour regression towards the classifier as it is (against the mean log-loss per square)."""
STEPS = 400
"""Gradient steps of the fit."""
_DARK = ((np.arange(8)[:, None] + np.arange(8)[None, :]) % 2 == 1).reshape(64)
"""Board order (a8 first): the dark squares."""


def colour_probs(probs: np.ndarray) -> np.ndarray:
    """(64, 3) P(empty), P(white), P(black) from (8, 8, 13) or (64, 13) probabilities."""
    p = probs.reshape(64, len(CLASSES))
    return np.stack([p[:, 0], p[:, 1:7].sum(axis=1), p[:, 7:].sum(axis=1)], axis=1)


def colour_fit(probs: np.ndarray, grid: np.ndarray) -> float:
    """Log-likelihood of a class grid's empty/white/black squares ((8, 8) or (64,), the probabilities' order)
    under (8, 8, 13) or (64, 13) probabilities: which of a few placements or turns the classifier's reading
    fits best (the camera side of a start frame, the labels' turn on a calibration photo)."""
    seen = colour_probs(probs)[np.arange(64), KIND[np.asarray(grid).reshape(64)]]
    return float(np.log(np.clip(seen, 1e-6, 1.0)).sum())


def features(probs: np.ndarray, looks: np.ndarray | None) -> np.ndarray:
    """(64, d) regression inputs: log P(empty/white/black), then (with looks) the looks, the looks but the
    first again on dark squares only (a light man is brighter than a dark square, not than a light one), 1."""
    logs = np.log(np.clip(colour_probs(probs), FLOOR, 1.0))
    if looks is None:
        return np.c_[logs, np.ones(64)]
    seen = looks.reshape(64, -1)
    return np.c_[logs, seen, seen[:, 1:] * _DARK[:, None], np.ones(64)]


@dataclass(frozen=True)
class Evidence:
    """How one frame becomes per-class log-scores: the classifier as it is, or re-read by a fitted regression."""

    weights: np.ndarray | None = None
    """(3, d) weights over `features` giving the colour's log-scores (softmax); None: log P(colour) as is."""
    frames: int = 0
    """Frames fitted on."""
    type_reads: float | None = None
    """Share of the men on those frames whose most likely type (given their colour) is right; None: unknown.
    Other sets from above: 0.28-0.45 (the Scholar's Mate video 0.39), the classifier's own set 0.85-0.93."""
    colour_reads: float | None = None
    """Share of the squares on those frames whose likeliest empty/white/black (as re-read) is right; None:
    unknown. The seed-2 test videos: the close-up 0.84, the Scholar's Mate video 0.81, the others 0.86-1.0."""

    def table(self, probs: np.ndarray, looks: np.ndarray | None = None) -> np.ndarray:
        """(64, 13) log-score of each class at each square (board order) for (8, 8, 13) probabilities and,
        if the fit used them, the frame's (8, 8, k) looks."""
        p = probs.reshape(64, len(CLASSES))
        kind = colour_probs(p)
        if self.weights is None:
            by_kind = np.log(np.clip(kind, FLOOR, 1.0))
        else:
            z = features(p, looks if self.weights.shape[1] > 4 else None) @ self.weights.T
            z -= z.max(axis=1, keepdims=True)
            by_kind = np.maximum(z - np.log(np.exp(z).sum(axis=1, keepdims=True)), np.log(FLOOR))
        within = np.log(np.clip(p / np.maximum(kind[:, KIND], 1e-12), FLOOR, 1.0))
        return by_kind[:, KIND] + TYPE_WEIGHT * within

    def colours(self, probs: np.ndarray, looks: np.ndarray | None = None) -> np.ndarray:
        """(64,) the likeliest of empty (0), white (1), black (2) at each square, as `table` reads them."""
        return self.table(probs, looks)[:, [0, 1, 7]].argmax(axis=1)


def fit_evidence(frames: list[tuple[np.ndarray, np.ndarray | None]], grid: np.ndarray) -> Evidence:
    """Fit the colour regression on frames ((8, 8, 13) probabilities, (8, 8, k) looks or None) that show
    the position `grid` ((8, 8) or (64,) class indices, board order); looks are used if every frame has them."""
    if not frames:
        return Evidence()
    with_looks = all(looks is not None for _, looks in frames)
    x = np.concatenate([features(p, looks if with_looks else None) for p, looks in frames])
    y = np.tile(KIND[np.asarray(grid).reshape(64)], len(frames))
    start = np.zeros((3, x.shape[1]))
    start[:, :3] = np.eye(3)
    weights = start.copy()
    n = len(y)
    for _ in range(STEPS):
        z = x @ weights.T
        z -= z.max(axis=1, keepdims=True)
        q = np.exp(z)
        q /= q.sum(axis=1, keepdims=True)
        q[np.arange(n), y] -= 1.0
        weights -= 0.5 * (q.T @ x / n + PULL * (weights - start))
    fitted = Evidence(weights=weights)
    truth = KIND[np.asarray(grid).reshape(64)]
    colours = float(np.mean([fitted.colours(p, looks if with_looks else None) == truth for p, looks in frames]))
    return Evidence(weights=weights, frames=len(frames), type_reads=_type_reads(frames, np.asarray(grid).reshape(64)),
                    colour_reads=colours)


def _type_reads(frames: list[tuple[np.ndarray, np.ndarray | None]], grid: np.ndarray) -> float:
    """Share of men whose most likely class within their true colour is their type, over the frames."""
    men = grid > 0
    same = KIND[None, :] == KIND[grid[men]][:, None]
    right = [np.where(same, p.reshape(64, -1)[men], -1.0).argmax(axis=1) == grid[men] for p, _ in frames]
    return float(np.mean(right))
