"""`egocli chess` through the CLI: one-line errors, never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from egocli.cli import app

needs_stockfish = pytest.mark.skipif(
    not (shutil.which("stockfish") or Path("/usr/games/stockfish").is_file()),
    reason="stockfish not installed (apt-get install stockfish)")
SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def run(*args: str, input: bytes | None = None, env: dict[str, str] | None = None):  # noqa: A002, ANN201
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
