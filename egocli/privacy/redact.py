"""Redaction before storage: what the `[privacy]` config asks for, and the Redactor that applies it
to frames (faces), OCR regions, and events (content, ASR words, OCR text in metadata)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from egocli.core.errors import ConfigError
from egocli.models.base import TextRegion
from egocli.privacy.text import BUILTIN_KINDS, TextRedactor, merge_counts
from egocli.store import NewEvent


@dataclass(frozen=True)
class RedactionPolicy:
    """What to mask before anything is written (config.toml `[privacy]`)."""

    faces: bool = True
    """Blur faces in kept frames."""
    kinds: tuple[str, ...] = BUILTIN_KINDS
    """Built-in text kinds to mask: phone, email, card."""
    custom: dict[str, str] = field(default_factory=dict)
    """Extra text kinds, name -> regular expression (`[privacy.custom]`)."""
    face_threshold: float = 0.3
    """CenterFace score from which a detection counts as a face."""

    @classmethod
    def from_settings(cls, settings: Any) -> RedactionPolicy | None:
        """The configured policy, or None when `[privacy] redact = false`."""
        cfg = settings.section("privacy")
        if not cfg.get("redact", True):
            return None
        custom = cfg.get("custom", {})
        kinds = cfg.get("kinds", list(BUILTIN_KINDS))
        if not isinstance(custom, dict) or not isinstance(kinds, list):
            raise ConfigError("[privacy] kinds must be a list and [privacy.custom] a table of regexes")
        return cls(faces=bool(cfg.get("faces", True)), kinds=tuple(str(k) for k in kinds),
                   custom={str(k): str(v) for k, v in custom.items()},
                   face_threshold=float(cfg.get("face_threshold", 0.3)))

    def describe(self) -> dict[str, Any]:
        """A JSON-ready account of the policy (for the privacy report)."""
        return {"faces": self.faces, "face_threshold": self.face_threshold,
                "text": [*self.kinds, *self.custom]}


class Redactor:
    """Applies a RedactionPolicy; the face detector loads on first use."""

    def __init__(self, policy: RedactionPolicy, detector: Any = None) -> None:
        self.policy = policy
        self.text = TextRedactor(policy.kinds, policy.custom)
        self._detector = detector
        self._pending: dict[str, int] = {}

    def frame(self, frame: np.ndarray) -> tuple[np.ndarray, dict[str, int]]:
        """The frame with faces blurred (when enabled), and {"faces": n} when any were found."""
        if not self.policy.faces:
            return frame, {}
        from egocli.privacy.faces import FaceBlurrer

        if self._detector is None:
            from egocli.privacy.faces import CenterFaceDetector

            self._detector = CenterFaceDetector(self.policy.face_threshold)
        out, n = FaceBlurrer(self._detector)(frame)
        return out, ({"faces": n} if n else {})

    def regions(self, regions: Sequence[TextRegion]) -> list[TextRegion]:
        """OCR regions with personal data masked; the counts join the next events() call."""
        masked, counts = self.text.redact_pieces([r.text for r in regions])
        self._pending = merge_counts(self._pending, counts)
        return [replace(r, text=t) for r, t in zip(regions, masked, strict=True)]

    def reader(self, reader: Any) -> Any:
        """Wrap an OCR Reader so text is masked before any description is built from it."""
        return _RedactingReader(reader, self) if reader is not None else None

    def event(self, ev: NewEvent, found: dict[str, int] | None = None) -> NewEvent:
        """The event with content and text-bearing metadata masked; kinds and counts in meta['redacted']."""
        content, counts = self.text.redact(ev.content)
        meta = dict(ev.meta)
        if isinstance(meta.get("words"), list) and meta["words"]:
            pieces = [str(w[2]) for w in meta["words"]]
            words, _ = self.text.redact_pieces(pieces, "" if any(p[:1].isspace() for p in pieces) else " ")
            meta["words"] = [[*w[:2], t] for w, t in zip(meta["words"], words, strict=True)]
        if isinstance(meta.get("ocr"), list) and meta["ocr"]:
            texts, _ = self.text.redact_pieces([str(r.get("text", "")) for r in meta["ocr"]])
            meta["ocr"] = [{**r, "text": t} for r, t in zip(meta["ocr"], texts, strict=True)]
        total = merge_counts(meta.get("redacted", {}), found or {}, counts)
        if total:
            meta["redacted"] = total
        return replace(ev, content=content, meta=meta)

    def events(self, events: list[NewEvent], found: dict[str, int] | None = None) -> list[NewEvent]:
        """event() for each, adding what the frame and its OCR regions had masked."""
        found = merge_counts(found or {}, self._pending)
        self._pending = {}
        return [self.event(ev, found) for ev in events]


class _RedactingReader:
    """A Reader whose regions come back with personal data masked."""

    def __init__(self, inner: Any, redactor: Redactor) -> None:
        self.inner, self.redactor = inner, redactor
        self.name = getattr(inner, "name", "ocr")

    def read(self, image: np.ndarray) -> list[TextRegion]:
        """The inner reader's regions, masked."""
        return self.redactor.regions(self.inner.read(image))
