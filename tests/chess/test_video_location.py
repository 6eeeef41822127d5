"""A video's board stays where it is when one frame's lattice search picks a window a square off (a hand over
the board in the Scholar's Mate video), and moves with the camera when the camera moves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from egocli.chess.board import locate_board
from egocli.chess.types import ChessOptions
from egocli.chess.video import HOLD_FRAMES, PositionTracker, sample_frames, square_off

VIDEO = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam" / "scholarsmate.avi"
UPSTREAM_CORNERS = np.float32([[140, 5], [506, 10], [507, 377], [137, 374]])
"""The board's corners in this video as its authors give them (shared/data/chess/webcam/README.md)."""


@pytest.fixture(scope="module")
def frames() -> dict[float, np.ndarray]:
    """Frames at 5 a second by time (seconds, one decimal)."""
    if not VIDEO.is_file():
        pytest.skip(f"shared video not found at {VIDEO}")
    return {round(t, 1): frame for t, frame in sample_frames(VIDEO, 5.0)}


def corner_error(corners: np.ndarray) -> float:
    return float(np.abs(corners - UPSTREAM_CORNERS).max())


def test_a_window_a_square_off_is_recognised(frames: dict[float, np.ndarray]) -> None:
    start, steady, hand = (locate_board(frames[t]) for t in (0.0, 0.2, 12.0))
    assert corner_error(start.corners) < 12 and corner_error(hand.corners) > 30  # the search's mistake, as found
    assert square_off(start, hand) and not square_off(start, steady)
    zoomed = replace(start, homography=np.diag([1.1, 1.1, 1.0]) @ start.homography)  # the camera moved closer
    assert not square_off(zoomed, start)


def test_the_tracker_keeps_the_board_through_a_hand(frames: dict[float, np.ndarray]) -> None:
    tracker = PositionTracker(ChessOptions())
    for t in (0.0, 11.4, 11.6, 11.8, 12.0):  # 11.6 to 13.0: the search lands a square off
        assert tracker.add(t, frames[t])
        assert corner_error(tracker.location.corners) < 12, t
    off = locate_board(frames[12.0])
    for k in range(HOLD_FRAMES + 1):  # a shift that lasts is taken: it was the tracked board that was off
        tracker.add(13.0 + k, frames[12.0])
    assert np.allclose(tracker.location.corners, off.corners)
