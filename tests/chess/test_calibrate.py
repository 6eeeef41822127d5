"""`egocli chess calibrate`: fine-tuning to another set on the CPU, used by default afterwards, and bad input
that leaves the previous model untouched. Through the installed console script (the group's routing of
`egocli chess PHOTO` vs `egocli chess calibrate` is what users type)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from egocli.chess.recognise import fen_to_grid, recognise
from tests import console

WEBCAM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "chess" / "webcam"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    """An empty egocli home."""
    return tmp_path / "home"


def egocli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "EGOCLI_HOME": str(home)}
    return subprocess.run([console.egocli(), "chess", *args], capture_output=True, text=True, env=env, timeout=600)


def webcam(name: str) -> str:
    if not (WEBCAM / name).is_file():
        pytest.skip(f"shared webcam photos not found at {WEBCAM}")
    return str(WEBCAM / name)


def reading(path: str, model: Path | None) -> str:
    return recognise(cv2.imread(path), model=model).placement


def wrong_squares(placement: str) -> int:
    return int((fen_to_grid(placement) != fen_to_grid(START)).sum())


@pytest.mark.slow
def test_calibration_reads_another_set_and_is_used_by_default(home: Path) -> None:
    done = egocli(home, "calibrate", webcam("chessBoard005.jpg"), webcam("chessBoard006.jpg"), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    model = Path(report["model"])
    assert model.is_file() and model.parent == home / "chess"
    assert report["photos"] == ["chessBoard005.jpg", "chessBoard006.jpg"] and report["position"] == START
    assert report["squares_after"] > report["squares_before"]
    held_out = webcam("chessBoard007.jpg")  # the same set, a photo not calibrated on
    calibrated, packaged = reading(held_out, model), reading(held_out, None)
    assert wrong_squares(calibrated) < wrong_squares(packaged)
    used = egocli(home, held_out, "--json", "--no-explain", "--time", "0.05")
    bypassed = egocli(home, held_out, "--json", "--no-explain", "--time", "0.05", "--model", "default")
    assert json.loads(used.stdout)["fen_seen"].split()[0] == calibrated, used.stderr
    assert json.loads(bypassed.stdout)["fen_seen"].split()[0] == packaged, bypassed.stderr
    removed = egocli(home, "calibrate", "--reset")
    assert removed.returncode == 0 and "calibration removed" in removed.stdout and not model.exists()


def previous_model(home: Path) -> tuple[Path, bytes]:
    """A calibrated model left by an earlier run (its bytes, to prove they are untouched)."""
    path = home / "chess" / "squares-calibrated.onnx"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"an earlier calibration")
    return path, path.read_bytes()


def test_no_board_keeps_the_previous_model(home: Path, tmp_path: Path) -> None:
    path, before = previous_model(home)
    blank = tmp_path / "wall.png"
    cv2.imwrite(str(blank), np.full((400, 600, 3), 120, np.uint8))
    done = egocli(home, "calibrate", str(blank))
    assert done.returncode == 1 and done.stderr.strip().splitlines()[-1].startswith("Error: wall.png: no chessboard")
    assert path.read_bytes() == before


def test_illegal_position_is_a_usage_error(home: Path) -> None:
    path, before = previous_model(home)
    done = egocli(home, "calibrate", webcam("chessBoard005.jpg"), "--position", "8/8/8/8/8/8/8/K7 w - - 0 1")
    assert done.returncode == 2 and "Error: --position: illegal position in FEN: no black king" in done.stderr
    assert path.read_bytes() == before


def test_photos_of_another_position_or_board_are_refused(home: Path) -> None:
    path, before = previous_model(home)
    empty_board = webcam("chessBoard002.jpg")  # the same set, no pieces: not the start position
    done = egocli(home, "calibrate", webcam("chessBoard005.jpg"), empty_board)
    assert done.returncode == 1 and "chessBoard002.jpg:" in done.stderr and "disagree" in done.stderr
    assert path.read_bytes() == before


def test_no_photos_and_unknown_model_are_usage_errors(home: Path) -> None:
    assert egocli(home, "calibrate").returncode == 2
    done = egocli(home, "--fen", START, "--model", "/nonexistent.onnx")
    assert done.returncode == 2 and "--model: /nonexistent.onnx: no such file" in done.stderr
