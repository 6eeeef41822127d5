"""What each square of a located board looks like, without the classifier: how much of its middle differs from
its own edges (a man stands there; an empty square is one colour to its edges) and how dark and bright that
part is against them. Set-agnostic cues for the game tracker's per-video fit (squarefit.py)."""

from __future__ import annotations

import numpy as np

from egocli.chess import squares as sq
from egocli.chess.board import BoardLocation

LOOKS = ("differs", "mean", "dark", "bright")
"""Per square: share of the middle unlike the edges, that part's mean luminance less the edges' (/100), the
middle's 10th and 90th luminance percentiles less the edges' (/255)."""
ODD = 3.0
"""A middle pixel differs when its colour is this many edge spreads from the edges' median colour."""


def square_looks(frame: np.ndarray, location: BoardLocation, turns: int) -> np.ndarray:
    """(8, 8, len(LOOKS)) in board order (turned like the classifier's probabilities) for a BGR frame."""
    warped = sq.warp_board(frame, location).astype(np.float32)
    cell, band = sq.CELL, sq.CELL // 8
    out = np.zeros((8, 8, len(LOOKS)), np.float32)
    for row in range(8):
        for col in range(8):
            y0, x0 = sq.MARGIN_TOP + row * cell + 3, sq.MARGIN_X + col * cell + 3
            square = warped[y0:y0 + cell - 6, x0:x0 + cell - 6]
            out[row, col] = _looks(square, band)
    return sq.grid_to_board(out, turns)


def _looks(square: np.ndarray, band: int) -> np.ndarray:
    ring = np.concatenate([square[:band].reshape(-1, 3), square[-band:].reshape(-1, 3),
                           square[band:-band, :band].reshape(-1, 3), square[band:-band, -band:].reshape(-1, 3)])
    median = np.median(ring, axis=0)
    spread = max(float(np.median(np.abs(ring - median))) * 1.48, 6.0)
    inset = square.shape[0] // 5
    middle = square[inset:-inset, inset:-inset]
    light = middle.mean(axis=2)
    odd = np.sqrt(((middle - median) ** 2).mean(axis=2)) / spread > ODD
    edge = float(median.mean())
    mean = (float(light[odd].mean()) - edge) / 100 if odd.any() else 0.0
    low, high = np.percentile(light, (10, 90))
    return np.array([odd.mean(), mean, (low - edge) / 255, (high - edge) / 255], np.float32)
