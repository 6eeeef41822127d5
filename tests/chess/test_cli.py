"""`egocli chess` through the CLI: one-line errors, never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from egocli.cli.app import app
from tests import console

needs_stockfish = pytest.mark.skipif(
    not (shutil.which("stockfish") or Path("/usr/games/stockfish").is_file()),
    reason="stockfish not installed (apt-get install stockfish)")
SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def run(*args: str, input: bytes | None = None, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, ["chess", *args], input=input, env=env)


@pytest.mark.slow
@needs_stockfish
def test_fen_json_has_all_fields() -> None:
    result = run("--fen", SCHOLARS, "--time", "0.1", "--no-explain", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["lines"][0]["san"][0] == "Qxf7#" and data["lines"][0]["expected_score"] == 100.0
    assert data["turn"] == "white" and data["turn_source"] == "fen" and data["phase"] == "opening"
    assert data["explanation_source"] == "template" and "Qxf7#" in data["explanation"]


def test_illegal_fen_is_one_line() -> None:
    result = run("--fen", "8/8/8/8/8/8/8/K7 w - - 0 1")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == "Error: illegal position in FEN: no black king"


def test_garbage_fen() -> None:
    result = run("--fen", "not a fen")
    assert result.exit_code == 1 and "invalid FEN" in result.stderr


def test_missing_stockfish() -> None:
    result = run("--fen", SCHOLARS, env={"EGOCLI_STOCKFISH": "/nonexistent"})
    assert result.exit_code == 1
    assert "apt-get install stockfish" in result.stderr and "Traceback" not in result.output


def test_photo_without_board_from_stdin() -> None:
    ok, png = cv2.imencode(".png", np.full((300, 400, 3), 90, np.uint8))
    result = run("-", input=png.tobytes())
    assert result.exit_code == 1 and result.stderr.strip().endswith("Error: no chessboard found")


def test_stdin_that_is_not_an_image() -> None:
    result = run("-", input=b"hello")
    assert result.exit_code == 1 and "stdin: not a readable image" in result.stderr


def test_unreadable_video(tmp_path: Path) -> None:
    bad = tmp_path / "broken.avi"
    bad.write_bytes(b"RIFF\x00\x00\x00\x00AVI garbage" * 10)
    result = run(str(bad))
    assert result.exit_code == 1 and "no readable frames" in result.stderr


def test_missing_file() -> None:
    result = run("/nonexistent/board.jpg")
    assert result.exit_code == 1 and "no such file" in result.stderr


def installed(*args: str) -> subprocess.CompletedProcess:
    """The installed console script (what a user types)."""
    return subprocess.run([console.egocli(), "chess", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@needs_stockfish
def test_the_only_legal_side_to_move_is_chosen_and_said(photos: Path) -> None:
    # IMG_4784: White's bishop on g5 gives check, so only Black can be to move (White was assumed before).
    done = installed(str(photos / "IMG_4784.JPG"), "--json", "--no-explain", "--time", "0.05")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["turn"] == "black" and data["turn_source"] == "legal" and " b " in data["fen"]
    assert data["turn_reason"] == "Black's king is in check: only Black to move is legal"


@pytest.mark.slow
def test_a_position_without_kings_is_shown_not_hidden(photos: Path) -> None:
    # IMG_4745 shows four pawns and no king: nothing to analyse, but the reading is printed with the reason.
    text = installed(str(photos / "IMG_4745.JPG"), "--no-explain")
    assert text.returncode == 1
    assert text.stdout.startswith("FEN seen: 8/8/8/3p1p2/4P3/5P2/8/8 w - - 0 1\n8 . . . . . . . .")
    assert "no white king, no black king" in text.stdout
    assert text.stderr.strip().splitlines()[-1].startswith("Error: the position cannot be analysed: no white king")
    data = json.loads(installed(str(photos / "IMG_4745.JPG"), "--json").stdout)
    assert data["fen"] is None and data["fen_seen"].startswith("8/8/8/3p1p2/4P3/5P2/8/8")
    assert "no white king" in data["error"]
