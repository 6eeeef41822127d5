"""A kept frame into words: a short sentence from confident everyday labels and OCR text
(egocli/models/labels.py), after the narrator's sentence where one is configured."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.models.base import Labeler, Narrator, Reader
from egocli.models.labels import MIN_SCORE, default_vocabulary, sentence


@dataclass(frozen=True)
class FrameDescription:
    """What one frame shows, as text for the log."""

    visual: str
    """The visual event's content."""
    text: str | None
    """Text read in the frame (its own `text` event), if any."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Labels with scores, OCR boxes, narrator name."""
    depicts: bool = True
    """The narrator or the labels said something beyond the text read (False: `visual` is only the text,
    or "Nothing recognised")."""


@dataclass
class Describer:
    """Turns frames into descriptions with whichever models are configured."""

    labeler: Labeler | None
    reader: Reader | None = None
    narrator: Narrator | None = None
    top_k: int = 10
    min_label_score: float = MIN_SCORE
    min_text_score: float = 0.6

    def describe(self, frame: np.ndarray) -> FrameDescription:
        """Describe one BGR frame."""
        meta: dict[str, Any] = {}
        parts: list[str] = []
        if self.narrator is not None:
            narrated = self.narrator.describe(frame).strip()
            if narrated:
                parts.append(narrated)
                meta["narrator"] = self.narrator.name
        readable = []
        if self.labeler is not None:
            raw = self.labeler.labels(frame, self.top_k)
            meta["labels"] = [(name, round(float(score), 3)) for name, score in raw[:5]]
            readable = default_vocabulary().readable(raw, self.min_label_score)
            meta["objects"] = [(r.name, r.score) for r in readable]
        text = self._read(frame, meta)
        said = sentence(readable, text)
        depicts = bool(parts) or said != sentence([], text)
        parts.append(said)
        visual = ". ".join(p[:1].upper() + p[1:] for p in parts)
        return FrameDescription(visual, text, meta, depicts)

    def _read(self, frame: np.ndarray, meta: dict[str, Any]) -> str | None:
        if self.reader is None:
            return None
        regions = [r for r in self.reader.read(frame) if r.score >= self.min_text_score and r.text.strip()]
        if not regions:
            return None
        meta["ocr"] = [{"text": r.text, "box": list(r.box), "score": round(r.score, 3)} for r in regions]
        return " ".join(r.text.strip() for r in regions)
