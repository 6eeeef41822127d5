"""A text gate before OCR recognition: most frames of a day hold no text worth reading.

Three steps, each cheaper than the next and run only when the one before found something:
1. a stroke test (~2-4 ms, OpenCV): text is rows of short, high-contrast strokes; the frame's
   morphological gradient is thresholded, joined along rows, and the resulting blobs must look
   like lines of characters (wide, not too tall, partly filled, several strokes per line height);
2. the OCR detector alone (DBNet), which returns the boxes of text lines;
3. recognition on those boxes only; a box whose pixels match a box of the previous frame reuses
   that box's text instead of being recognised again.
"""

from __future__ import annotations

import contextlib
import re
import zlib
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from egocli.models.base import Reader, TextRegion

_WIDTH = 640
"""The stroke test runs on a grey image at most this wide (at 320 px, 10-px letters such as a board's
printed logo in a phone photo were lost: 7 of 12 photos)."""


@runtime_checkable
class BoxReader(Protocol):
    """An OCR whose detector and recogniser can run apart (RapidOcrReader)."""

    name: str

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        """Text-line quadrilaterals (4x2 float32, image pixels), top to bottom."""
        ...

    def recognise(self, image: np.ndarray, boxes: list[np.ndarray]) -> list[TextRegion | None]:
        """Text of each box, in order; None where the reading is not confident."""
        ...


@dataclass(frozen=True)
class GateResult:
    """What the gate did with one frame."""

    regions: list[TextRegion]
    """Text read (empty when the frame was gated out)."""
    verdict: str
    """no-strokes (stroke test failed), no-boxes (detector found none), read, or reused."""
    lines: int
    """Text-like line candidates of the stroke test."""
    boxes: int = 0
    """Boxes the detector found."""
    recognised: int = 0
    """Boxes sent to recognition (the rest reused the previous frame's text)."""


def text_lines(image: np.ndarray) -> int:
    """How many blobs in a BGR frame look like lines of characters (the stroke test).

    Tried at the frame's width (at most 640 px), then at half of it, so that both small print
    and a sign filling the view (letters a third of the frame high) are seen."""
    import cv2

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    width = min(grey.shape[1], _WIDTH)
    for scale in (1, 2):
        w = max(8, width // scale)
        h = max(8, round(grey.shape[0] * w / grey.shape[1]))
        small = grey if (w, h) == (grey.shape[1], grey.shape[0]) else \
            cv2.resize(grey, (w, h), interpolation=cv2.INTER_AREA)
        count = _lines(small)
        if count:
            return count
    return 0


def _lines(grey: np.ndarray) -> int:
    import cv2

    grad = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    level, _ = cv2.threshold(grad, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, strokes = cv2.threshold(grad, max(level, 48.0), 255, cv2.THRESH_BINARY)
    joined = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (9, 1)))
    _n, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    height = grey.shape[0]
    count = 0
    for x, y, w, h, area in stats[1:]:
        if 4 <= h <= height * 0.45 and w >= 1.5 * h and w >= 12 and 0.25 <= area / (w * h) <= 0.95:
            fill = strokes[y:y + h, x:x + w].mean() / 255.0
            count += 0.12 <= fill <= 0.8 and _crossings(strokes[y + h // 4:y + 3 * h // 4 + 1, x:x + w]) * h / w >= 1.0
    return count


def _crossings(rows: np.ndarray) -> float:
    """Mean number of stroke starts along the rows of a blob's middle half.

    Letters have several vertical strokes per line height (printed text measured 2.6-4.7 per
    height, a small logo 1.4-2.8); a row of chessboard squares or tiles has about one (0.1-1.2)."""
    on = rows > 0
    return float(np.count_nonzero(on[:, 1:] & ~on[:, :-1])) / max(1, on.shape[0])


@dataclass
class TextGate:
    """A Reader that reads only frames and boxes that need it (see the module docstring)."""

    reader: Reader
    min_lines: int = 1
    """Stroke-test line candidates needed before the detector runs."""
    reuse_diff: float = 0.12
    """Largest local difference (0..1, see _patch_diff) under which a box reuses the previous frame's
    text: the same sign a second later measured 0.05-0.10, one changed character 0.26 or more."""
    clock: Any = None
    """egocli.ingest.profile.StageClock timing the gate, detector and recogniser, if given."""
    name: str = field(init=False)
    _last: list[tuple[np.ndarray, tuple[int, int], TextRegion | None]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.name = f"{self.reader.name}+gate"

    def read(self, image: np.ndarray) -> list[TextRegion]:
        """Text regions in a BGR uint8 image (the Reader protocol)."""
        return self.check(image).regions

    def check(self, image: np.ndarray) -> GateResult:
        """Gate, detect and recognise one frame, saying what was done."""
        with self._timed("ocr gate"):
            lines = text_lines(image)
        if lines < self.min_lines:
            self._last = []
            return GateResult([], "no-strokes", lines)
        if not isinstance(self.reader, BoxReader):
            with self._timed("ocr read"):
                return GateResult(self.reader.read(image), "read", lines)
        with self._timed("ocr detect"):
            boxes = self.reader.detect(image)
        if not boxes:
            self._last = []
            return GateResult([], "no-boxes", lines)
        return self._recognise(image, boxes, lines)

    def _recognise(self, image: np.ndarray, boxes: list[np.ndarray], lines: int) -> GateResult:
        assert isinstance(self.reader, BoxReader)
        sigs = [_signature(image, b) for b in boxes]
        known: dict[int, TextRegion | None] = {}
        for i, sig in enumerate(sigs):
            seen, region = self._match(sig)
            if seen:
                known[i] = region
        todo = [i for i in range(len(boxes)) if i not in known]
        with self._timed("ocr recognise"):
            read = self.reader.recognise(image, [boxes[i] for i in todo]) if todo else []
        known.update(zip(todo, read, strict=True))
        self._last = [(sig[0], sig[1], known[i]) for i, sig in enumerate(sigs)]
        regions = [_moved(known[i], boxes[i]) for i in range(len(boxes)) if known[i] is not None]
        regions.sort(key=lambda r: (r.box[1] // 8, r.box[0]))
        return GateResult(regions, "read" if todo else "reused", lines, len(boxes), len(todo))

    def _timed(self, stage: str) -> Any:
        return self.clock.stage(stage) if self.clock is not None else contextlib.nullcontext()

    def _match(self, sig: tuple[np.ndarray, tuple[int, int]]) -> tuple[bool, TextRegion | None]:
        """(True, its reading) when a box of the previous frame has the same size and pixels."""
        pixels, size = sig
        for old, old_size, region in self._last:
            if abs(size[0] - old_size[0]) <= 0.15 * old_size[0] and abs(size[1] - old_size[1]) <= 0.3 * old_size[1] \
                    and _patch_diff(pixels, old) < self.reuse_diff:
                return True, region
        return False, None


def _bounds(quad: np.ndarray) -> tuple[int, int, int, int]:
    xs, ys = quad[:, 0], quad[:, 1]
    return int(round(xs.min())), int(round(ys.min())), int(round(xs.max())), int(round(ys.max()))


def _moved(region: TextRegion | None, quad: np.ndarray) -> TextRegion:
    assert region is not None
    return TextRegion(region.text, _bounds(quad), region.score)


_SIG_H = 32
"""Box crops are compared at this height (width keeps the aspect ratio)."""


def _signature(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """A box's pixels as a 32 px high grey patch stretched to 0..1 contrast, and its (w, h)."""
    import cv2

    x0, y0, x1, y1 = _bounds(quad)
    crop = image[max(0, y0):max(y0 + 1, y1), max(0, x0):max(x0 + 1, x1)]
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    width = max(_SIG_H // 2, round(_SIG_H * (x1 - x0) / max(1, y1 - y0)))
    patch = cv2.resize(grey, (width, _SIG_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    lo, hi = float(np.percentile(patch, 2)), float(np.percentile(patch, 98))
    return np.clip((patch - lo) / max(hi - lo, 1.0), 0.0, 1.0), (x1 - x0, y1 - y0)


def _patch_diff(new: np.ndarray, old: np.ndarray) -> float:
    """The largest mean difference over any half-height-wide column window (0..1).

    A local measure: one changed digit ("Open 9-18" vs "9-19") scored 0.26-0.37, while the whole-patch
    mean stayed at 0.05-0.09, as low as the same sign seen again (0.03-0.08)."""
    import cv2

    if old.shape != new.shape:
        old = cv2.resize(old, (new.shape[1], new.shape[0]), interpolation=cv2.INTER_AREA)
    columns = np.abs(new - old).mean(axis=0)
    window = _SIG_H // 2
    if len(columns) < window:
        return float(columns.mean())
    return float(np.convolve(columns, np.ones(window) / window, mode="valid").max())


def text_key(text: str | None) -> int:
    """A key equal for OCR readings of the same text (case, spaces and punctuation ignored); 0 for none."""
    if not text:
        return 0
    letters = re.sub(r"[\W_]+", "", text.upper())
    return zlib.crc32(letters.encode()) if letters else 0


def reader_with_gate(reader: Any, enabled: bool = True, clock: Any = None) -> Any:
    """The reader behind a TextGate (or as it is when disabled or None)."""
    return TextGate(reader, clock=clock) if enabled and reader is not None else reader
