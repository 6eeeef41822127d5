"""Photo -> per-square probabilities in board order -> raw piece placement."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from egocli.chess import squares as sq
from egocli.chess.board import BoardLocation, locate_board


def fen_to_grid(fen: str) -> np.ndarray:
    """Class indices (8, 8) in board order (rank 8 first, file a first) for a FEN's placement field."""
    grid = np.zeros((8, 8), int)
    for r, row in enumerate(fen.split()[0].split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                grid[r, c] = sq.CLASSES.index(ch)
                c += 1
    return grid


def grid_to_placement(grid: np.ndarray) -> str:
    """The FEN placement field for a class-index grid in board order."""
    rows = []
    for r in range(8):
        text, empty = "", 0
        for c in range(8):
            symbol = sq.CLASSES[int(grid[r, c])]
            if symbol == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + symbol
            empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


SET_LIMITS = {"K": 1, "k": 1, "P": 8, "p": 8, "Q": 2, "q": 2, "R": 2, "r": 2, "B": 2, "b": 2, "N": 2, "n": 2}
"""Most men of each kind a physical set puts on the board (a spare queen allowed)."""


def physical_mask(probs: np.ndarray) -> np.ndarray:
    """Which (rank, file, class) choices one physical set allows, (8, 8, 13) bool in board order: no pawn on
    the first or last rank, and no more men of a kind than SET_LIMITS (the extra that loses least by taking
    its next class gives way)."""
    allowed = np.ones(probs.shape, bool)
    allowed[[0, 7], :, sq.CLASSES.index("P")] = False
    allowed[[0, 7], :, sq.CLASSES.index("p")] = False
    while True:
        grid = np.where(allowed, probs, -1.0).argmax(axis=2)
        for symbol, limit in SET_LIMITS.items():
            cls = sq.CLASSES.index(symbol)
            rows, cols = np.nonzero(grid == cls)
            if len(rows) > limit:
                others = np.where(allowed[rows, cols] & (np.arange(len(sq.CLASSES)) != cls), probs[rows, cols], 0.0)
                weakest = int(np.argmin(probs[rows, cols, cls] / np.maximum(others.max(axis=1), 1e-9)))
                allowed[rows[weakest], cols[weakest], cls] = False
                break
        else:
            return allowed


@dataclass(frozen=True)
class Recognition:
    """What the camera saw on the board."""

    placement: str
    """FEN placement field of the most likely class per square (may be an illegal position)."""
    probs: np.ndarray
    """(8, 8, 13) class probabilities in board order (rank 8 first, file a first); men that one physical
    set rules out at a square (see physical_mask) have probability zero."""
    turns: int
    """Quarter turns from the camera view to board order (0: White at the bottom, 2: Black)."""
    location: BoardLocation
    """Where the board was found."""


def recognise(image: np.ndarray, view: str = "auto", model: Path | None = None) -> Recognition:
    """Locate the board in a BGR photo and classify its 64 squares (model: an ONNX classifier, None for
    the packaged one)."""
    location = locate_board(image)
    return classify_located(image, location, view, model)


def classify_located(image: np.ndarray, location: BoardLocation, view: str = "auto",
                     model: Path | None = None) -> Recognition:
    """Classify the squares of an already-located board."""
    warped = sq.warp_board(image, location)
    probs = sq.classify_squares(sq.square_crops(warped), model or sq.MODEL_PATH)
    turns = sq.choose_turns(probs, sq.light_on_even(warped), view)
    board_probs = sq.grid_to_board(probs.reshape(8, 8, -1), turns)
    board_probs = np.where(physical_mask(board_probs), board_probs, 0.0)
    board_probs /= np.maximum(board_probs.sum(axis=2, keepdims=True), 1e-30)
    return Recognition(placement=grid_to_placement(board_probs.argmax(axis=2)), probs=board_probs,
                       turns=turns, location=location)
