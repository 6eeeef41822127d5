"""Precision of visual labels and OCR text on frames labelled by hand, before and after issue 19.

Frames: examples/glasses.mp4 at 1 fps (rendered signs, a page, a dark second, a kitchen), and
from ../shared/data (read at run time, never copied): video/1.mp4 and 3.mp4 at 1 fps (a child
reading on a bed; a living room with a fireplace and a TV), chess/webcam/*.jpg and the first 12
chess/photos (boards on tables). The truth below was written by looking at each frame.

Labels: before = the labeler's raw top-3 from 0.08 (the old "Seen: ..." list); after = the
everyday vocabulary from MIN_SCORE. A label is right when its everyday name is in the frame's
accepted set. OCR: before = RapidOCR in full (angle classifier on) on every frame; after = the
text gate. A region is right when its letters (A-Z, 0-9) occur in the frame's expected text.

Usage: python bench/labels.py [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SIGN = {"a sign or screen with text", "a street sign", "a shop"}
PAGE = {"a sign or screen with text", "a book"}
KITCHEN = {"a pot", "a frying pan", "a bowl", "a cup", "a bin", "a bucket", "a mug", "a plate", "a kitchen"}
BOARD = {"a table", "a desk"}
TRUTH: list[tuple[str, float, float, set[str], str]] = [
    # (source, from s, to s, accepted everyday labels, expected text)
    ("glasses", 0, 5.9, SIGN, "PHARMACY Open 9-18"),
    ("glasses", 6, 11.9, PAGE, "CITY NEWS New tram line opens in March"),
    ("glasses", 12, 12.9, set(), ""),
    ("glasses", 13, 18.9, SIGN | {"a bus"}, "BUS 12 City Centre"),
    ("glasses", 19, 24, KITCHEN, ""),
    ("1", 0, 10, {"a baby", "a book", "a bed", "a quilt", "sunglasses", "a pillow"}, "clideo.com"),
    ("3", 0, 0.9, {"a fireplace", "a TV", "a TV cabinet", "a sofa", "a desk", "a baby", "a table"},
     "clideo.com Keep laundry pacs away from children DS"),
    ("3", 1, 7, {"a fireplace", "a TV", "a TV cabinet", "a sofa", "a desk", "a baby", "a table"},
     "clideo.com 5 4 3 2 1"),
    ("webcam", 0, 0, BOARD, "ABCDEFGH 12345678"),
    ("photos", 0, 0, BOARD, "USCHESS abcdefgh 12345678"),
]


def frames(shared: Path) -> list[tuple[str, float, object]]:
    """(source, seconds, BGR frame <= 640 px wide) for every labelled frame."""
    import cv2

    from egocli.ingest.decode import video_frames

    out: list[tuple[str, float, object]] = []
    for name, path in (("glasses", REPO / "examples" / "glasses.mp4"), ("1", shared / "video" / "1.mp4"),
                       ("3", shared / "video" / "3.mp4")):
        out += [(name, t / 1000, f) for t, f in video_frames(path, 1.0)]
    photos = sorted((shared / "chess" / "webcam").glob("*.jpg")) + sorted((shared / "chess" / "photos").glob("*.JPG"))[:12]
    for p in photos:
        img = cv2.imread(str(p))
        img = cv2.resize(img, (640, img.shape[0] * 640 // img.shape[1] // 2 * 2), interpolation=cv2.INTER_AREA)
        out.append(("webcam" if "webcam" in str(p) else "photos", 0.0, img))
    return out


def truth(source: str, seconds: float) -> tuple[set[str], str]:
    """The accepted labels and expected text of a frame."""
    for src, lo, hi, labels, text in TRUTH:
        if src == source and lo <= seconds <= hi:
            return labels, text
    raise KeyError((source, seconds))


def _letters(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.upper())


def _score_text(regions: list, want: str, tally: list[int], found: dict[str, int], key: str) -> None:
    """Count right/total OCR regions (score >= 0.6, as the describer keeps) and frames with a word read."""
    regions = [r for r in regions if r.score >= 0.6 and _letters(r.text)]
    tally[0] += sum(_letters(r.text) in want for r in regions if want)
    tally[1] += len(regions)
    found[key] += bool(want) and any(len(_letters(r.text)) >= 4 and _letters(r.text) in want for r in regions)


def main() -> None:
    """Label and read every frame both ways; print precision (and text recall) before and after."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(REPO.parent / "shared" / "data"))
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
    from egocli.core.config import load_settings
    from egocli.models import registry
    from egocli.models.efficientnet import EfficientNetLabeler
    from egocli.models.labels import MIN_SCORE, default_vocabulary
    from egocli.models.ocr import RapidOcrReader
    from egocli.models.textgate import TextGate

    settings = load_settings()
    labeler = EfficientNetLabeler(registry.prepare("labeler", settings).path, cache=settings.model_cache)
    old_ocr, gate = RapidOcrReader(threads=1, angle=True), TextGate(RapidOcrReader(threads=1, max_side=480))  # as ingest
    vocab = default_vocabulary()
    tally = {k: [0, 0] for k in ("labels before", "labels after", "ocr before", "ocr after")}
    sweep = {t: [0, 0] for t in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)}
    found = {"ocr before": 0, "ocr after": 0}
    expected_total = skipped = 0
    items = frames(Path(args.shared))
    for source, seconds, frame in items:
        accepted, text = truth(source, seconds)
        raw = labeler.labels(frame, 10)
        before = [vocab.names.get(c, f"a {c}") for c, s in raw[:3] if s >= 0.08]
        after = [r.name for r in vocab.readable(raw, MIN_SCORE)[:3]]
        for key, names in (("labels before", before), ("labels after", after)):
            tally[key][0] += sum(n in accepted for n in names)
            tally[key][1] += len(names)
        for threshold, counts in sweep.items():
            names = [r.name for r in vocab.readable(raw, threshold)[:3]]
            counts[0], counts[1] = counts[0] + sum(n in accepted for n in names), counts[1] + len(names)
        expected_total += bool(_letters(text))
        result = gate.check(frame)
        skipped += result.verdict in ("no-strokes", "no-boxes")
        for key, regions in (("ocr before", old_ocr.read(frame)), ("ocr after", result.regions)):
            _score_text(regions, _letters(text), tally[key], found, key)
    print(f"{len(items)} frames labelled by hand; {expected_total} with text; gate skipped recognition on {skipped}")
    for key, (right, total) in tally.items():
        extra = f"; frames with text where a word of 4+ letters was read: {found[key]}/{expected_total}" \
            if key in found else ""
        print(f"{key:<14} precision {right}/{total} = {right / max(total, 1):.2f}{extra}")
    print("labels by threshold: " + ", ".join(f"{t:.2f}: {r}/{n}" for t, (r, n) in sweep.items()))


if __name__ == "__main__":
    main()
