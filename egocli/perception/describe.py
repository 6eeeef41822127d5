"""A kept frame into words: labeler top labels, OCR text, and the narrator where configured."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.models.base import Labeler, Narrator, Reader


@dataclass(frozen=True)
class FrameDescription:
    """What one frame shows, as text for the log."""

    visual: str
    """The visual event's content."""
    text: str | None
    """Text read in the frame (its own `text` event), if any."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Labels with scores, OCR boxes, narrator name."""


@dataclass
class Describer:
    """Turns frames into descriptions with whichever models are configured."""

    labeler: Labeler | None
    reader: Reader | None = None
    narrator: Narrator | None = None
    top_k: int = 3
    min_label_score: float = 0.08
    min_text_score: float = 0.6

    def describe(self, frame: np.ndarray) -> FrameDescription:
        """Describe one BGR frame."""
        meta: dict[str, Any] = {}
        parts: list[str] = []
        if self.narrator is not None:
            sentence = self.narrator.describe(frame).strip()
            if sentence:
                parts.append(sentence)
                meta["narrator"] = self.narrator.name
        if self.labeler is not None:
            labels = [(name, round(float(score), 3)) for name, score in self.labeler.labels(frame, self.top_k)
                      if score >= self.min_label_score]
            meta["labels"] = labels
            if labels:
                parts.append("Seen: " + ", ".join(f"{n} ({s:.2f})" for n, s in labels))
        text = self._read(frame, meta)
        if text:
            parts.append(f'Text in view: "{_clip(text, 80)}"')
        visual = ". ".join(parts) if parts else "A scene with nothing recognised"
        return FrameDescription(visual, text, meta)

    def _read(self, frame: np.ndarray, meta: dict[str, Any]) -> str | None:
        if self.reader is None:
            return None
        regions = [r for r in self.reader.read(frame) if r.score >= self.min_text_score and r.text.strip()]
        if not regions:
            return None
        meta["ocr"] = [{"text": r.text, "box": list(r.box), "score": round(r.score, 3)} for r in regions]
        return " ".join(r.text.strip() for r in regions)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
