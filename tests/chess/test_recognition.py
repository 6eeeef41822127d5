"""Recognition on real photos never used in training, legality repair, and unreadable inputs."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from egocli.chess.board import NoBoardError, locate_board
from egocli.chess.legal import probs_from_placement, repair
from egocli.chess.recognise import fen_to_grid, grid_to_placement, physical_mask, recognise

# scripts/train_squares.py's validation split: sorted names, index % 4 == 1 (never trained on).
SQUARE_ACCURACY_FLOOR = 0.995
"""Measured 99.84% on this split (2 wrong squares of 1280, bench/chess.py); 0.995 is the issue's target and
leaves room for four more from onnxruntime/OpenCV version drift, while failing if localisation, orientation
or the classifier breaks (each costs far more)."""
NEAR_PERFECT_FLOOR = 18
"""Of the 20 photos, how many must have at most one wrong square (20 measured)."""
WEBCAM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam"


def validation_files(labels: dict[str, str]) -> list[str]:
    return [name for i, name in enumerate(sorted(labels)) if i % 4 == 1]


@pytest.mark.slow
def test_held_out_photos_reach_the_accuracy_floor(photos: Path, photo_labels: dict[str, str]) -> None:
    right = total = near_perfect = 0
    for name in validation_files(photo_labels):
        seen = recognise(cv2.imread(str(photos / name)))
        correct = int((fen_to_grid(seen.placement) == fen_to_grid(photo_labels[name])).sum())
        right += correct
        near_perfect += correct >= 63
        total += 64
    assert total == 20 * 64
    assert right / total >= SQUARE_ACCURACY_FLOOR
    assert near_perfect >= NEAR_PERFECT_FLOOR


@pytest.mark.slow
def test_board_seen_from_blacks_side_is_turned(photos: Path, photo_labels: dict[str, str]) -> None:
    seen = recognise(cv2.imread(str(photos / "IMG_4706.JPG")))  # validation photo taken from Black's side
    assert seen.turns == 2
    # Few training photos are taken from Black's side, so accuracy there is lower (63/64 measured).
    assert (fen_to_grid(seen.placement) == fen_to_grid(photo_labels["IMG_4706.JPG"])).sum() >= 58


@pytest.mark.slow
def test_boards_on_cluttered_backgrounds_are_located() -> None:
    labels = WEBCAM / "labels.json"
    if not labels.is_file():
        pytest.skip(f"shared webcam photos not found at {WEBCAM}")
    entries = [e for e in json.loads(labels.read_text()) if e["file"].endswith(".jpg")]
    assert len(entries) == 13  # tiled floors, paper margins, wooden cases, other boards and pieces
    for entry in entries:
        found = locate_board(cv2.imread(str(WEBCAM / entry["file"]))).corners
        truth = np.array(entry["warp_points"], float)
        side = float(np.linalg.norm(truth[0] - truth[1]))
        error = np.linalg.norm(found[:, None] - truth[None], axis=2).min(axis=1).max()
        assert error < 0.05 * side, entry["file"]  # every corner within 0.4 of a square


def test_one_physical_set_never_shows_two_white_kings_or_a_pawn_on_the_back_rank() -> None:
    probs = probs_from_placement("4k3/8/8/8/8/8/8/R3K1K1", confidence=0.9)
    probs[7, 6] = 0.0
    probs[7, 6, 6], probs[7, 6, 2], probs[7, 6, 0] = 0.6, 0.3, 0.1  # g1: king 60%, knight 30%
    probs[7, 4] = 0.45 / 12
    probs[7, 4, 6] = 0.55  # e1: king 55%, every other class under 4%
    probs[7, 0] = 0.0
    probs[7, 0, 1], probs[7, 0, 4], probs[7, 0, 0] = 0.7, 0.2, 0.1  # a1: white pawn 70%, rook 20%
    grid = np.where(physical_mask(probs), probs, -1.0).argmax(axis=2)
    # g1 gives way (its knight is half as likely as its king), not e1 (any other class is 14 times less likely).
    assert grid_to_placement(grid) == "4k3/8/8/8/8/8/8/R3K1N1"


def test_a_photo_without_a_board_is_rejected() -> None:
    rng = np.random.default_rng(1)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (480, 640, 3), dtype=np.uint8), (0, 0), 3)
    with pytest.raises(NoBoardError, match="no chessboard found"):
        locate_board(noise)
    with pytest.raises(NoBoardError, match="no chessboard found"):
        locate_board(np.full((480, 640, 3), 128, np.uint8))


def test_repair_fixes_two_white_kings_from_probabilities() -> None:
    probs = probs_from_placement("4k3/8/8/8/8/8/8/4K1K1", confidence=0.97)
    probs[7, 6] = 0.0
    probs[7, 6, 6], probs[7, 6, 2], probs[7, 6, 0] = 0.45, 0.40, 0.15  # g1: king 45%, knight 40%
    fixed = repair(probs)
    assert fixed.fen.split()[0] == "4k3/8/8/8/8/8/8/4K1N1"
    assert fixed.changed == ["g1"] and "g1" in fixed.unsure


def test_repair_explains_a_hopeless_position() -> None:
    from egocli.core.errors import InputError

    with pytest.raises(InputError, match="no white king"):
        repair(probs_from_placement("k7/8/8/8/8/8/8/8"))
