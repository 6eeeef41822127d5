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


def test_a_known_position_follows_legal_moves_despite_a_steady_misread() -> None:
    from egocli.chess.legal import probs_from_placement
    from egocli.chess.types import ChessOptions
    from egocli.chess.video import MOVE_FRAMES, PositionTracker

    tracker = PositionTracker(ChessOptions())
    tracker.start_from_initial()
    after = chess.Board()
    after.push_san("e4")

    def frame(placement: str) -> np.ndarray:
        probs = probs_from_placement(placement, 0.95)
        probs[0, 0] = probs_from_placement("8/8/8/8/8/8/8/8", 0.95)[0, 0]  # a8's rook always looks like nothing
        return probs

    # inside on purpose: PositionTracker's public add() takes camera images and runs the square classifier;
    # following legal moves is fed the classifier's probabilities directly (_follow), as add() does
    tracker._follow(1.0, frame(START))
    for k in range(MOVE_FRAMES - 1):  # too few frames (a hand, a flicker)
        tracker._follow(1.2 + k, frame(after.board_fen()))
    tracker._follow(1.9, frame(START))
    assert tracker.board.board_fen() == START
    for k in range(MOVE_FRAMES):
        tracker._follow(2.0 + k, frame(after.board_fen()))
    assert tracker.board.board_fen() == after.board_fen() and tracker.turn_reason == "1 move seen, the last e4"
    assert [p["move"] for p in tracker.positions] == [None, "e4"]
