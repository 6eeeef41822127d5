"""The synthetic test videos: games rendered onto labelled photos of several sets (egocli.chess.synthvideo),
from shared/data/chess (read at test time, never copied into the repo). Used by tests/chess/test_game_sets.py
and bench/game.py."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from egocli.chess.painted import ABOVE, ANGLED, BoardScene, GamePainter, Reach
from egocli.chess.synthvideo import START, GameVideo

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess"
START_PLACEMENT = START.split()[0]
VIDEO_FRAME = 5
"""The Scholar's Mate video's frame painted on (0.25 s: the start position, no hand, decoded cleanly)."""

GAMES: dict[str, tuple[str, ...]] = {
    "scholar, bishop first": ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"),
    "scholar, queen first": ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"),
    "bishop to e2, knight to d7": ("e4", "d6", "Be2", "Nd7", "Nf3", "Ngf6", "O-O"),
    "knight to e2, bishop to d7": ("e4", "d6", "Ne2", "Bd7", "Nbc3", "Nf6", "g3"),
    "promotion to a queen": ("e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7", "bxa8=Q"),
    "promotion to a knight": ("e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7", "bxa8=N"),
}
"""Games whose move orders differ in the piece moved (Bc4 or Qh5 first; a bishop or a knight to e2 and d7)
or only in the piece a pawn becomes."""


@dataclass(frozen=True)
class SetSpec:
    """A board photo to paint on and the labelled photos of the same set whose men are pasted."""

    background: str
    """Photo under shared/data/chess (or 'webcam/scholarsmate.avi' for its frame VIDEO_FRAME)."""
    bank: tuple[str, ...]
    """Photos the men are cut from (the background's own men are used where they stand)."""
    reach: Reach
    """How far a man reaches beyond his square (the viewpoint)."""
    side: int = 640
    """Long side of the frames, pixels."""
    note: str = ""
    """The set and the viewpoint, in words."""


CHESSCOG = ("photos/IMG_4756.JPG", "photos/IMG_4762.JPG", "photos/IMG_4805.JPG", "photos/IMG_4808.JPG",
            "photos/IMG_4813.JPG", "photos/IMG_4845_2.JPG")
SETS: dict[str, SetSpec] = {
    "wood, above": SetSpec("webcam/chessBoard003.jpg", ("webcam/chessBoard003.jpg",), ABOVE,
                           note="webcam set of the Scholar's Mate video, straight above, Black's side"),
    "wood, video frame": SetSpec("webcam/scholarsmate.avi", ("webcam/scholarsmate.avi",), ABOVE,
                                 note="a frame of the Scholar's Mate video: straight above, White on the right"),
    "walnut, above 1": SetSpec("webcam/chessBoard005.jpg", ("webcam/chessBoard005.jpg",), ABOVE,
                               note="walnut set, straight above, White on the left"),
    "walnut, above 2": SetSpec("webcam/chessBoard006.jpg", ("webcam/chessBoard006.jpg",), ABOVE,
                               note="walnut set, another shot"),
    "walnut, above 3": SetSpec("webcam/chessBoard007.jpg", ("webcam/chessBoard007.jpg",), ABOVE,
                               note="walnut set, a third shot"),
    "black and white, above": SetSpec("webcam/chessBoard013.jpg", ("webcam/chessBoard013.jpg",), ABOVE, side=800,
                                      note="black-and-white board, wooden men, straight above"),
    "wood, close": SetSpec("webcam/chessBoard012.jpg", ("webcam/chessBoard012.jpg",), ABOVE,
                           note="close-up, the board filling the frame"),
    "phone, White's side": SetSpec("photos/IMG_4804.JPG", CHESSCOG, ANGLED,
                                   note="the classifier's training set, phone from White's side"),
    "phone, Black's side": SetSpec("photos/IMG_4702_2.JPG", CHESSCOG, ANGLED,
                                   note="the training set, phone from Black's side"),
    "phone, turned": SetSpec("photos/IMG_4701_2.JPG", CHESSCOG, ANGLED,
                             note="the training set, the board turned a quarter"),
}


def labels() -> dict[str, str]:
    """'folder/file' -> FEN placement of every labelled photo (and the video's first frame)."""
    out = {"webcam/scholarsmate.avi": START_PLACEMENT}
    for folder in ("photos", "webcam"):
        for entry in json.loads((DATA / folder / "labels.json").read_text()):
            if "fen" in entry:
                out[f"{folder}/{entry['file']}"] = entry["fen"].split()[0]
    return out


def _image(name: str, side: int) -> np.ndarray:
    import cv2

    if name.endswith(".avi"):
        capture = cv2.VideoCapture(str(DATA / name))
        for _ in range(VIDEO_FRAME + 1):  # the first frames decode with a corrupt band at the top
            ok, image = capture.read()
        capture.release()
        assert ok, name
    else:
        image = cv2.imread(str(DATA / name))
    scale = side / max(image.shape[:2])
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image


@lru_cache(maxsize=16)
def scene(name: str, side: int, reach: Reach) -> BoardScene:
    """A labelled photo in the painter's canvas."""
    return BoardScene(_image(name, side), labels()[name], reach, name)


def painter(set_name: str, seed: int = 0) -> GamePainter:
    """The painter of one set."""
    spec = SETS[set_name]
    background = scene(spec.background, spec.side, spec.reach)
    bank = [background if n == spec.background else scene(n, 640, spec.reach) for n in spec.bank]
    return GamePainter(background, bank, seed)


def video(set_name: str, game: str, seed: int = 0, **kwargs: object) -> GameVideo:
    """One game on one set."""
    return GameVideo(painter(set_name, seed), GAMES[game], seed=seed, **kwargs)  # type: ignore[arg-type]
