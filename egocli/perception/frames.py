"""Which sampled frames are worth describing: scene changes, not too dark, not too blurred.

A frame is compared with the last *kept* frame on a 64x36 grey thumbnail: the mean absolute
difference (0..1) must reach `scene_threshold` (default 0.10, i.e. 10% of full scale on average; camera shake and small motion
stay below it, a new view is usually above 0.15).
Frames darker than `dark_level` (mean grey 0..255) or blurrier than `blur_level` (variance of the
Laplacian on a 320 px wide grey image) are skipped as undescribable. A frame is kept anyway when
`max_gap_s` seconds passed since the last kept one, so long still scenes are still noted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class FrameRules:
    """Thresholds for keeping frames (see the module docstring)."""

    scene_threshold: float = 0.10
    """Mean absolute thumbnail difference (0..1) that counts as a new scene."""
    dark_level: float = 18.0
    """Frames with mean grey below this are too dark."""
    blur_level: float = 12.0
    """Frames with Laplacian variance below this are too blurred."""
    max_gap_s: float = 300.0
    """Keep a frame at least this often even without change."""


@dataclass(frozen=True)
class Verdict:
    """Why a frame was kept or skipped."""

    keep: bool
    """Describe this frame."""
    reason: str
    """scene, first, gap, same, dark or blur."""
    change: float
    """Thumbnail difference to the last kept frame."""


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """A 64x36 float grey thumbnail in 0..1."""
    import cv2

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.resize(grey, (64, 36), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def sharpness(frame: np.ndarray) -> tuple[float, float]:
    """(mean grey 0..255, Laplacian variance) of a frame at 320 px width."""
    import cv2

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = 320 / grey.shape[1]
    if scale < 1:
        grey = cv2.resize(grey, (320, max(1, int(grey.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    return float(grey.mean()), float(cv2.Laplacian(grey, cv2.CV_32F).var())


class FrameSelector:
    """Stateful: decides per sampled frame whether to describe it."""

    def __init__(self, rules: FrameRules = FrameRules()) -> None:
        self.rules = rules
        self.last_thumb: np.ndarray | None = None
        self.last_kept_ms: int | None = None

    def prime(self, frame: np.ndarray, t_ms: int) -> None:
        """Set the reference frame without describing it (used when resuming)."""
        self.last_thumb, self.last_kept_ms = thumbnail(frame), t_ms

    def consider(self, frame: np.ndarray, t_ms: int) -> Verdict:
        """Judge one frame; a kept frame becomes the new reference."""
        thumb = thumbnail(frame)
        change = 1.0 if self.last_thumb is None else float(np.abs(thumb - self.last_thumb).mean())
        gap = self.last_kept_ms is not None and (t_ms - self.last_kept_ms) >= self.rules.max_gap_s * 1000
        if self.last_thumb is not None and change < self.rules.scene_threshold and not gap:
            return Verdict(False, "same", change)
        brightness, detail = sharpness(frame)
        if brightness < self.rules.dark_level:
            return Verdict(False, "dark", change)
        if detail < self.rules.blur_level:
            return Verdict(False, "blur", change)
        reason = "first" if self.last_thumb is None else "gap" if change < self.rules.scene_threshold else "scene"
        self.last_thumb, self.last_kept_ms = thumb, t_ms
        return Verdict(True, reason, change)
