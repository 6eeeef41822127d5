"""Temporal majority vote per square (chesscog's rule) and move matching between positions."""

from __future__ import annotations

from collections import deque

import numpy as np

UNKNOWN = -1
"""Committed value of a square that has never reached the threshold."""


class VoteBuffer:
    """Per-square buffer of the last n frame classes; commits a class only when its share reaches tau."""

    def __init__(self, n: int = 10, tau: float = 0.6) -> None:
        if n < 1 or not 0.0 < tau <= 1.0:
            raise ValueError("need n >= 1 and 0 < tau <= 1")
        self.n, self.tau = n, tau
        self._frames: deque[np.ndarray] = deque(maxlen=n)
        self.committed = np.full(64, UNKNOWN, int)

    def push(self, classes: np.ndarray) -> np.ndarray:
        """Add one frame's 64 class indices (board order); return the committed classes."""
        self._frames.append(np.asarray(classes, int).reshape(64))
        stack = np.stack(self._frames)
        for square in range(64):
            values, counts = np.unique(stack[:, square], return_counts=True)
            top = int(counts.argmax())
            if counts[top] / self.n >= self.tau:
                self.committed[square] = int(values[top])
        return self.committed.copy()

    @property
    def complete(self) -> bool:
        """True once every square has a committed class."""
        return bool((self.committed != UNKNOWN).all())


def match_move(board, placement: str, probs: np.ndarray | None = None, max_diff: int = 2):  # noqa: ANN001, ANN201
    """The legal move from board that best explains a new placement (None if none is within max_diff squares)."""
    from egocli.chess.legal import log_likelihood

    best, best_key = None, None
    for move in board.legal_moves:
        board.push(move)
        candidate = board.board_fen()
        board.pop()
        diff = _diff(candidate, placement)
        if diff > max_diff:
            continue
        key = (diff, -log_likelihood(probs, candidate) if probs is not None else 0.0)
        if best_key is None or key < best_key:
            best, best_key = move, key
    return best


def _diff(a: str, b: str) -> int:
    from egocli.chess.recognise import fen_to_grid

    return int((fen_to_grid(a) != fen_to_grid(b)).sum())
