"""Labeler and OCR on frames rendered with OpenCV (and one real video frame when shared data is present)."""

from __future__ import annotations

import numpy as np
import pytest

from egocli.models import registry

cv2 = pytest.importorskip("cv2", reason="opencv-python is not installed")
pytestmark = pytest.mark.slow


def checkerboard(size: int = 448) -> np.ndarray:
    cell = size // 8
    yy, xx = np.mgrid[0:size, 0:size] // cell
    return np.repeat((((yy + xx) % 2 == 0) * 255).astype(np.uint8)[:, :, None], 3, axis=2)


def text_frame(lines: list[str]) -> np.ndarray:
    frame = np.full((360, 640, 3), 235, dtype=np.uint8)
    for i, line in enumerate(lines):
        cv2.putText(frame, line, (30, 110 + 120 * i), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (20, 20, 20), 5, cv2.LINE_AA)
    return frame


@pytest.fixture(scope="module")
def labeler(real_settings):
    pytest.importorskip("torch", reason="torch is not installed")
    return registry.load("labeler", real_settings())


@pytest.fixture(scope="module")
def reader(real_settings):
    return registry.load("ocr", real_settings())


def test_checkerboard_looks_like_a_crossword(labeler) -> None:
    labels = labeler.labels(checkerboard(), top_k=3)
    assert len(labels) == 3 and labels[0][1] >= labels[1][1] >= labels[2][1]
    assert "crossword" in [name for name, _ in labels]


def test_real_video_frame_label(labeler, shared_file) -> None:
    capture = cv2.VideoCapture(str(shared_file("video", "1.mp4")))
    capture.set(cv2.CAP_PROP_POS_FRAMES, 100)
    ok, frame = capture.read()
    assert ok
    assert "diaper" in [name for name, _ in labeler.labels(frame, top_k=3)]  # a baby reading a book


def test_labeler_rejects_non_bgr_input(labeler) -> None:
    with pytest.raises(ValueError):
        labeler.labels(np.zeros((32, 32), np.uint8))


def test_ocr_reads_drawn_text_top_to_bottom(reader) -> None:
    regions = reader.read(text_frame(["kitchen timer", "BUY MILK"]))
    texts = [r.text.lower() for r in regions]
    assert texts == ["kitchen timer", "buy milk"]
    first = regions[0]
    assert 0.5 < first.score <= 1.0 and 20 <= first.box[0] < first.box[2] <= 640 and first.box[1] < 110


def test_ocr_blank_frame_has_no_text(reader) -> None:
    assert reader.read(np.full((200, 300, 3), 128, np.uint8)) == []
