"""Stockfish analysis of known positions, and the engine's error paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import chess
import pytest

from egocli.chess.engine import UciEngine, find_stockfish, win_probability
from egocli.errors import ModelError

needs_stockfish = pytest.mark.skipif(
    not (shutil.which("stockfish") or Path("/usr/games/stockfish").is_file()),
    reason="stockfish not installed (apt-get install stockfish)")

SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


@pytest.mark.slow
@needs_stockfish
def test_mate_in_one_is_found() -> None:
    with UciEngine() as engine:
        lines = engine.analyse(chess.Board(SCHOLARS), multipv=3, seconds=0.2)
    assert lines[0].san[0] == "Qxf7#"
    assert lines[0].mate == 1 and lines[0].win == 1.0
    assert len(lines) == 3 and all(line.win < 1.0 for line in lines[1:])


@pytest.mark.slow
@needs_stockfish
def test_black_to_move_scores_from_blacks_side() -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/q4PPP/6K1 w - - 0 1")  # White to move, a queen down
    with UciEngine() as engine:
        lines = engine.analyse(board, multipv=1, seconds=0.1)
    assert lines[0].win < 0.2


def test_missing_stockfish_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGOCLI_STOCKFISH", "/nonexistent")
    with pytest.raises(ModelError, match="apt-get install stockfish"):
        find_stockfish()


def test_win_probability_curve() -> None:
    assert win_probability(0, None) == pytest.approx(0.5)
    assert win_probability(300, None) == pytest.approx(0.752, abs=0.01)
    assert win_probability(-300, None) == pytest.approx(1 - 0.752, abs=0.01)
    assert win_probability(None, 3) == 1.0 and win_probability(None, -2) == 0.0
