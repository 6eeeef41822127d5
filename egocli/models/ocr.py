"""Reader (OCR) backed by rapidocr-onnxruntime (PP-OCR detection + recognition, models in the wheel).

The detector and the recogniser also run apart (`detect`, `recognise`) so a text gate
(egocli/models/textgate.py) can skip recognition on frames and boxes that do not need it. The
180-degree angle classifier is off by default (`angle=True` turns it on): text seen through
glasses is upright, and the classifier cost a pass over every box."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from egocli.core.errors import ModelError
from egocli.models.base import TextRegion

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice


class RapidOcrReader:
    """Text regions in a BGR uint8 frame, top to bottom then left to right."""

    name = "rapidocr"

    def __init__(self, role: str = "ocr", threads: int = 2, min_score: float = 0.5, max_side: int = 960,
                 angle: bool = False) -> None:
        try:
            from rapidocr_onnxruntime import RapidOCR
        except ImportError as ex:
            raise ModelError(f"{role}: rapidocr-onnxruntime is not installed (pip install rapidocr-onnxruntime==1.4.4)") \
                from ex
        try:
            # Detect at most max_side pixels on the long side: RapidOCR's default upscales the short
            # side to 736, which doubles a 640x360 frame and the time it takes (1.6 s -> 0.7 s).
            # Threads are given globally: rapidocr-onnxruntime 1.4.4 overwrites the det_/cls_/rec_ thread
            # counts with the global ones (default: one per core, spinning), which doubled OCR's CPU time.
            self._engine = RapidOCR(text_score=min_score, det_limit_type="max", det_limit_side_len=max_side,
                                    intra_op_num_threads=threads, inter_op_num_threads=1)
        except Exception as ex:  # onnxruntime raises its own exception types
            raise ModelError(f"{role}: cannot load the RapidOCR models: {ex}") from ex
        self.role, self.angle, self.min_score = role, angle, min_score

    def read(self, image: np.ndarray) -> list[TextRegion]:
        """Text regions in a BGR uint8 image, top to bottom."""
        result, _elapsed = self._engine(_pixels(image), use_cls=self.angle)
        regions = [_region(item) for item in result or []]
        return sorted(regions, key=lambda r: (r.box[1] // 8, r.box[0]))

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        """Text-line quadrilaterals (4x2 float32, image pixels) from the detector alone, top to bottom."""
        boxes, _elapsed = self._engine(_pixels(image), use_cls=False, use_rec=False)
        return [np.asarray(b, dtype=np.float32).reshape(4, 2) for b in boxes or []]

    def recognise(self, image: np.ndarray, boxes: list[np.ndarray]) -> list[TextRegion | None]:
        """Text of each box, in order; None where the reading is below min_score or empty."""
        if not boxes:
            return []
        crops = self._engine.get_crop_img_list(_pixels(image), [np.asarray(b, np.float32) for b in boxes])
        if self.angle:
            crops, _cls, _elapsed = self._engine.text_cls(crops)
        readings, _elapsed = self._engine.text_rec(crops)
        out: list[TextRegion | None] = []
        for box, reading in zip(boxes, readings, strict=True):
            text, score = str(reading[0]), float(reading[1])
            out.append(_region([box.tolist(), text, score]) if score >= self.min_score and text.strip() else None)
        return out


def _pixels(image: np.ndarray) -> np.ndarray:
    pixels = np.asarray(image)
    if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8:
        raise ValueError(f"expected a BGR uint8 image (H, W, 3), got {pixels.dtype} {pixels.shape}")
    return pixels


def _region(item: Any) -> TextRegion:
    points, text, score = item[0], item[1], item[2]
    xs = [int(round(p[0])) for p in points]
    ys = [int(round(p[1])) for p in points]
    return TextRegion(text=str(text), box=(min(xs), min(ys), max(xs), max(ys)), score=float(score))


def load_reader(choice: Choice, settings: Settings) -> RapidOcrReader:
    """Build the RapidOCR Reader."""
    section = settings.section("ocr")
    return RapidOcrReader(threads=int(section.get("threads", 2)), min_score=float(section.get("min_score", 0.5)),
                          max_side=int(section.get("max_side", 960)), angle=bool(section.get("angle", False)))
