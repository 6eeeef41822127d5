"""Stockfish analysis of known positions, and the engine's error paths."""

from __future__ import annotations

import shutil
from pathlib import Path

import chess
import pytest

from egocli.chess.engine import UciEngine, expected_score, find_stockfish
from egocli.core.errors import ModelError

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
    assert lines[0].mate == 1 and lines[0].expected == 1.0 and lines[0].wdl == (1.0, 0.0, 0.0)
    assert len(lines) == 3 and all(line.expected < 1.0 for line in lines[1:])


@pytest.mark.slow
@needs_stockfish
def test_black_to_move_scores_from_blacks_side() -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/q4PPP/6K1 w - - 0 1")  # White to move, a queen down
    with UciEngine() as engine:
        lines = engine.analyse(board, multipv=1, seconds=0.1)
    assert lines[0].expected < 0.2 and lines[0].wdl is not None and lines[0].wdl[2] > 0.8


@pytest.mark.slow
@needs_stockfish
def test_a_dead_draw_has_an_expected_score_of_one_half_and_no_winning_chances() -> None:
    board = chess.Board("7k/8/8/8/8/8/7P/6K1 w - - 0 1")  # a rook's pawn, the defending king in its corner
    with UciEngine() as engine:
        lines = engine.analyse(board, multipv=1, seconds=0.2)
    assert lines[0].expected == pytest.approx(0.5, abs=0.03)
    assert lines[0].wdl is not None and lines[0].wdl[1] > 0.9


def test_missing_stockfish_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGOCLI_STOCKFISH", "/nonexistent")
    with pytest.raises(ModelError, match="apt-get install stockfish"):
        find_stockfish()


def test_expected_score_curve_without_wdl() -> None:
    assert expected_score(0, None) == pytest.approx(0.5)
    assert expected_score(300, None) == pytest.approx(0.752, abs=0.01)
    assert expected_score(-300, None) == pytest.approx(1 - 0.752, abs=0.01)
    assert expected_score(None, 3) == 1.0 and expected_score(None, -2) == 0.0
