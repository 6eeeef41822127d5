"""Pointing benchmark: hit rate of "what is this?" on composed scenes, against the centre-of-view rule.

Run: python bench/pointing.py [--no-ocr] [--limit N]. Needs ../shared/data/chess/webcam (the hands) and
scikit-image's sample photos (the objects).

The labelled set (built by tests/pointing/scenes.py): a real hand from the chess webcam video (frames
42 and 105, pasted at several rotations) points at a target placed on its finger axis 2.2 finger
lengths beyond the tip; a distractor of another kind sits 2.8 finger lengths off the axis. Targets:
the coffee cup, the cat (scikit-image, CC0) and a rendered "EXIT" card. A hit is an answer whose box
lies on the target (centre inside, or a third of the smaller box shared). The baseline is the rule of
commercial glasses: name what is at the centre of the view (the same resolver with no hand).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "pointing"))

import scenes  # noqa: E402

from egocli.core.config import load_settings  # noqa: E402
from egocli.models import registry  # noqa: E402
from egocli.pointing.hands import load_hands  # noqa: E402
from egocli.pointing.resolve import resolve  # noqa: E402

TARGETS = ("coffee", "cat", "text:EXIT")
DISTRACTOR = {"coffee": "cat", "cat": "text:OPEN", "text:EXIT": "coffee"}
HANDS = ((42, 1.5, (-40, -20, 0, 20, 40)), (105, 2.0, (-10, 0, 10)))


class NoHands:
    """The centre-of-view baseline: a hand tracker that never sees a hand."""

    def detect(self, image: np.ndarray) -> list:
        """No hands."""
        return []


def labelled_set() -> list[tuple[str, scenes.Scene]]:
    """(target name, scene) for every hand, rotation and target."""
    out = []
    for frame, scale, rotations in HANDS:
        for rotation in rotations:
            for n, target in enumerate(TARGETS):
                side = 2.8 if (n + rotation // 10) % 2 else -2.8
                things = [(target, 2.2, 0.0), (DISTRACTOR[target], 2.2, side)]
                out.append((target, scenes.pointing_scene(frame, rotation, things, scale=scale, size=170)))
    return out


def run(limit: int | None, ocr: bool) -> None:
    """Print the hit rates and the time per frame."""
    settings = load_settings()
    labeler = registry.load("labeler", settings)
    reader = registry.load("ocr", settings) if ocr else None
    hands = load_hands()
    cases = labelled_set()[:limit]
    rows = {"pointing": [], "centre": []}
    for target, scene in cases:
        for name, tracker in (("pointing", hands), ("centre", NoHands())):
            result = resolve(scene.image, tracker, labeler, reader, chess=False)
            box = result.best.candidate.box if result.best else None
            rows[name].append((scenes.hit(box, scene.boxes[target]), result.question is not None,
                               result.mode, result.timings))
    print(f"labelled set: {len(cases)} composed scenes (targets: {', '.join(TARGETS)}); ocr={'on' if ocr else 'off'}")
    for name, results in rows.items():
        hits = sum(r[0] for r in results)
        asked = sum(r[1] for r in results)
        pointing = sum(r[2] == "pointing" for r in results)
        t = {k: np.mean([r[3].get(k, 0.0) for r in results]) for k in ("landmarks", "candidates", "total")}
        print(f"{name:9s} hit rate {hits}/{len(results)} = {hits / len(results):.0%}  questions {asked}  "
              f"pointing detected {pointing}/{len(results)}  ms/frame: landmarks {t['landmarks']:.0f}, "
              f"candidates {t['candidates']:.0f}, total {t['total']:.0f}")
    for target in TARGETS:
        picked = [r for (tg, _), r in zip(cases, rows["pointing"], strict=True) if tg == target]
        if picked:
            print(f"  pointing, {target}: {sum(r[0] for r in picked)}/{len(picked)}")


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="Only the first N scenes.")
    parser.add_argument("--no-ocr", action="store_true", help="Skip OCR (text targets then cannot be read).")
    args = parser.parse_args()
    started = time.perf_counter()
    run(args.limit, not args.no_ocr)
    print(f"wall time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
