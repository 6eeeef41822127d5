"""The coach through the installed console script: the issue's position says the mate threat first and the
true reason for g6; --why explains a rejected move; a bad --why is a usage error; the real model's words are
checked (every claim in what is printed is true)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from egocli.chess.claims import context, false_claims
from egocli.chess.types import EngineLine
from egocli.chess.facts import threat
from tests import console

pytestmark = pytest.mark.skipif(not (shutil.which("stockfish") or Path("/usr/games/stockfish").is_file()),
                                reason="stockfish not installed (apt-get install stockfish)")
QH5 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"


def chess_cmd(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([console.egocli(), "chess", *args], capture_output=True, text=True, timeout=300)


def test_the_template_says_the_mate_threat_first() -> None:
    run = chess_cmd("--fen", QH5, "--no-explain")
    assert run.returncode == 0, run.stderr
    text = run.stdout.strip().splitlines()[-1]
    assert text.startswith("White threatens mate with Qxf7#. Black's best move is g6")
    assert "stops the mate Qxf7#" in text and "queenside" not in text and "g7" in text


def test_why_not_a_move_that_allows_mate() -> None:
    run = chess_cmd("--fen", QH5, "--no-explain", "--why", "Nf6")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("Nf6 is not best: White answers Qxf7#, checkmate.")


def test_a_move_that_is_not_legal_is_a_usage_error() -> None:
    run = chess_cmd("--fen", QH5, "--why", "Qxf7")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines()[-1] == "Error: --why: 'Qxf7' is not a legal move for Black here"


@pytest.mark.slow
def test_the_real_models_explanation_has_only_true_claims() -> None:
    run = chess_cmd("--fen", QH5, "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    board = chess.Board(QH5)
    lines = [EngineLine(san=line["san"], uci=line["uci"], cp=line["cp"], mate=line["mate"],
                        expected=line["expected_score"] / 100) for line in data["lines"]]  # the lines it spoke of
    text = data["explanation"]
    assert false_claims(text, context(board, lines, threat(board), set())) == []
    assert "Qxf7" in text and "g6" in text and "queenside" not in text


HEAVY = ("numpy", "cv2", "PIL", "onnxruntime", "llama_cpp", "egocli.models", "egocli.models.registry",
         "rich.progress")
PROBE = ("import runpy, sys\nsys.argv = ['egocli', 'chess', *sys.argv[1:]]\ntry:\n"
         "    runpy.run_module('egocli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
         f"print('LOADED:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))")
"""Runs `egocli chess ARGS` in a new interpreter and prints which heavy modules it loaded."""


def loaded(*args: str, stdin: bytes = b"") -> tuple[str, str]:
    run = subprocess.run([sys.executable, "-c", PROBE, *args], input=stdin, capture_output=True, timeout=300)
    out = run.stdout.decode()
    return out.rsplit("LOADED:", 1)[0], out.rsplit("LOADED:", 1)[1].strip()


def test_a_fens_template_answer_loads_no_numpy_nor_model() -> None:
    """The template path (a FEN, --no-explain) needs python-chess and Stockfish only: numpy, the photo
    readers and the model stack stay unloaded (they cost a quarter of its second)."""
    _, heavy = loaded("-", stdin=b"not an image")  # the probe sees them where a photo is read
    assert "numpy" in heavy.split(","), heavy
    text, heavy = loaded("--fen", QH5, "--no-explain")
    assert "White threatens mate with Qxf7#" in text
    assert heavy == ""
