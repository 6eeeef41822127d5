"""Self-calibration of a video from its first start-position frames: only when the video starts from the
initial position and the model is unsure of it."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from egocli.chess.analyse import analyse
from egocli.chess.selfcal import calibrate_from_start
from egocli.chess.types import ChessOptions

WEBCAM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam"


def frames(*names: str) -> list[tuple[float, object]]:
    if not all((WEBCAM / n).is_file() for n in names):
        pytest.skip(f"shared webcam photos not found at {WEBCAM}")
    return [(0.2 * k, cv2.imread(str(WEBCAM / n))) for k, n in enumerate(names)]


def test_a_video_that_does_not_start_from_the_initial_position_is_not_calibrated(tmp_path: Path) -> None:
    empty = frames("chessBoard002.jpg", "chessBoard002.jpg", "chessBoard002.jpg")  # an empty board
    assert calibrate_from_start(empty, ChessOptions(), tmp_path) is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_scholars_mate_video_calibrates_itself() -> None:
    video = WEBCAM / "scholarsmate.avi"
    if not video.is_file():
        pytest.skip(f"shared video not found at {video}")
    result = analyse(str(video), None, ChessOptions(explain=False, seconds=0.05, multipv=1))
    assert result.calibration is not None and result.calibration["frames"] >= 2
    assert result.calibration["confidence_after"] > result.calibration["confidence_before"]
