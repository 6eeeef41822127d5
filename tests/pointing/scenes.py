"""Composed test scenes: a real hand (cut from the Apache-2.0 chess webcam video) pointing at real objects.

Sources, all read at test time, never copied into the repo:
- hands: frames of /work/shared/data/chess/webcam/scholarsmate.avi (Apache-2.0) where a hand reaches
  with its index finger leading (frames 42 and 105); cut out as the dilated hull of its landmarks;
- objects: scikit-image's sample photos coffee.png and chelsea.png (both CC0);
- text: a card rendered with OpenCV's Hershey font;
- chess: /work/shared/data/chess/photos (MIT, FEN labels).
The target's place is known by construction: it is put on the hand's finger axis, measured on the
original frame's landmarks and carried through the same similarity transform as the pasted hand.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
VIDEO = SHARED / "chess" / "webcam" / "scholarsmate.avi"
PHOTOS = SHARED / "chess" / "photos"
HAND_FRAMES = (42, 105)


@functools.lru_cache(maxsize=1)
def video_frames() -> dict[int, np.ndarray]:
    """The frames of the chess video that the tests use."""
    import cv2

    wanted = {*HAND_FRAMES, 20, 110}
    capture = cv2.VideoCapture(str(VIDEO))
    frames, index = {}, 0
    while index <= max(wanted):
        ok, frame = capture.read()
        if not ok:
            break
        if index in wanted:
            frames[index] = frame
        index += 1
    capture.release()
    return frames


@functools.lru_cache(maxsize=4)
def hand_source(frame_index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(frame, landmarks (21, 3), hand mask) of a video frame with a hand."""
    import cv2

    from egocli.pointing.hands import load_hands

    frame = video_frames()[frame_index]
    points = load_hands().detect(frame)[0].points
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(points[:, :2].astype(np.int32)), 255)
    mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (41, 41)))
    return frame, points, mask


@functools.lru_cache(maxsize=4)
def sample_photo(name: str) -> np.ndarray:
    """A scikit-image sample photo (CC0) as BGR."""
    import cv2
    import skimage

    return cv2.imread(str(Path(skimage.__file__).parent / "data" / name), cv2.IMREAD_COLOR)


def object_patch(kind: str, size: int) -> np.ndarray:
    """A square patch of a real object ('coffee', 'cat') or a rendered text card ('text:WORDS')."""
    import cv2

    if kind == "coffee":
        photo = sample_photo("coffee.png")[20:380, 120:480]
    elif kind == "cat":
        photo = sample_photo("chelsea.png")[0:300, 60:360]
    else:
        words = kind.removeprefix("text:").split("|")
        photo = np.full((300, 300, 3), 245, np.uint8)
        for n, word in enumerate(words):
            y = int(300 * (n + 1) / (len(words) + 1)) + 20
            cv2.putText(photo, word, (20, y), cv2.FONT_HERSHEY_SIMPLEX, 2.4 if len(word) < 6 else 1.5,
                        (20, 20, 20), 6, cv2.LINE_AA)
    return cv2.resize(photo, (size, size), interpolation=cv2.INTER_AREA)


@dataclass
class Scene:
    """A composed image and where its things are."""

    image: np.ndarray
    boxes: dict[str, tuple[int, int, int, int]]
    """Name -> box of each placed thing."""
    tip: np.ndarray
    direction: np.ndarray
    finger: float


def canvas(width: int = 960, height: int = 720, seed: int = 0) -> np.ndarray:
    """A plain beige table top with a little noise and shading."""
    rng = np.random.default_rng(seed)
    shade = np.linspace(0.9, 1.05, height)[:, None, None]
    base = np.array([165, 185, 200], np.float32)[None, None, :] * shade
    return (np.broadcast_to(base, (height, width, 3)) + rng.normal(0, 5, (height, width, 3))).clip(0, 255) \
        .astype(np.uint8)


def paste_hand(background: np.ndarray, frame_index: int, tip_at: tuple[float, float], rotation: float,
               scale: float) -> tuple[np.ndarray, np.ndarray]:
    """(image, transformed landmarks): the video hand rotated/scaled about its fingertip, tip at tip_at."""
    import cv2

    frame, points, mask = hand_source(frame_index)
    height, width = background.shape[:2]
    matrix = cv2.getRotationMatrix2D((float(points[8, 0]), float(points[8, 1])), rotation, scale)
    matrix[:, 2] += np.asarray(tip_at) - points[8, :2]
    warped = cv2.warpAffine(frame, matrix, (width, height))
    alpha = cv2.GaussianBlur(cv2.warpAffine(mask, matrix, (width, height)), (15, 15), 0)[..., None] / 255.0
    image = (background * (1 - alpha) + warped * alpha).astype(np.uint8)
    moved = np.c_[(matrix @ np.c_[points[:, :2], np.ones(21)].T).T, points[:, 2] * scale]
    return image, moved


def put(image: np.ndarray, patch: np.ndarray, centre: np.ndarray) -> tuple[int, int, int, int]:
    """Paste a patch centred at centre (clipped to the image); returns its box."""
    h, w = patch.shape[:2]
    x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    x1, y1 = min(x0 + w, image.shape[1]), min(y0 + h, image.shape[0])
    sx, sy = max(0, -x0), max(0, -y0)
    image[max(y0, 0):y1, max(x0, 0):x1] = patch[sy:sy + y1 - max(y0, 0), sx:sx + x1 - max(x0, 0)]
    return max(x0, 0), max(y0, 0), x1, y1


def pointing_scene(frame_index: int, rotation: float, things: list[tuple[str, float, float]],
                   tip_at: tuple[float, float] = (480, 360), scale: float = 2.0, size: int = 150,
                   background: np.ndarray | None = None) -> Scene:
    """A hand pointing and things placed at (fingers along the axis from the tip, fingers across it)."""
    from egocli.pointing.geometry import pointing_ray

    base = canvas() if background is None else background.copy()
    _, moved = paste_hand(base, frame_index, tip_at, rotation, scale)
    height, width = base.shape[:2]
    ray = pointing_ray(moved, width, height)
    normal = np.array([-ray.direction[1], ray.direction[0]])
    boxes = {}
    for kind, along, across in things:
        centre = ray.tip + ray.direction * along * ray.finger + normal * across * ray.finger
        boxes[kind] = put(base, object_patch(kind, size), centre)
    image, _ = paste_hand(base, frame_index, tip_at, rotation, scale)  # the hand in front of the things
    return Scene(image, boxes, ray.tip, ray.direction, ray.finger)


def hit(box: tuple[int, int, int, int] | None, target: tuple[int, int, int, int]) -> bool:
    """True when a found box's centre lies inside the target, or they share a third of the smaller box."""
    if box is None:
        return False
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if target[0] <= cx <= target[2] and target[1] <= cy <= target[3]:
        return True
    iw = min(box[2], target[2]) - max(box[0], target[0])
    ih = min(box[3], target[3]) - max(box[1], target[1])
    smaller = min((box[2] - box[0]) * (box[3] - box[1]), (target[2] - target[0]) * (target[3] - target[1]))
    return iw > 0 and ih > 0 and iw * ih >= smaller / 3
