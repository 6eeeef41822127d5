"""The temporal vote buffer on a synthetic frame sequence, and move matching."""

from __future__ import annotations

import chess
import numpy as np

from egocli.chess.recognise import fen_to_grid
from egocli.chess.vote import UNKNOWN, VoteBuffer, match_move

START = chess.STARTING_BOARD_FEN


def _frame(placement: str) -> np.ndarray:
    return fen_to_grid(placement).reshape(64)


def test_noise_does_not_flip_and_a_real_move_does() -> None:
    rng = np.random.default_rng(0)
    buffer = VoteBuffer(n=10, tau=0.6)
    start = _frame(START)
    for _ in range(10):
        committed = buffer.push(start)
    assert (committed == start).all()
    for _ in range(30):  # each frame misreads 3 random squares
        noisy = start.copy()
        noisy[rng.choice(64, 3, replace=False)] = rng.integers(0, 13, 3)
        committed = buffer.push(noisy)
        assert (committed == start).all()
    after = chess.Board()
    after.push_san("e4")
    moved = _frame(after.board_fen())
    changes = []
    for _ in range(10):
        changes.append(bool((buffer.push(moved) == moved).all()))
    assert changes[:5] == [False] * 5 and changes[-1] is True


def test_nothing_is_committed_before_the_threshold() -> None:
    buffer = VoteBuffer(n=10, tau=0.6)
    for _ in range(5):
        committed = buffer.push(_frame(START))
    assert (committed == UNKNOWN).all() and not buffer.complete
    committed = buffer.push(_frame(START))
    assert buffer.complete


def test_move_matching_resolves_a_doubtful_square() -> None:
    board = chess.Board()
    after = board.copy()
    after.push_san("Nf3")
    seen = fen_to_grid(after.board_fen())
    seen[0, 0] = 0  # one misread square (a8 looks empty)
    from egocli.chess.recognise import grid_to_placement

    move = match_move(board, grid_to_placement(seen))
    assert move is not None and board.san(move) == "Nf3"
