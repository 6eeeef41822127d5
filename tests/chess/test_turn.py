"""Whose turn it is: the only legal side, --turn when both are, White assumed (and said); from a video, the
moves seen."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from egocli.chess.legal import PositionError, probs_from_placement, read_fen, repair
from egocli.chess.recognise import fen_to_grid
from egocli.chess.types import ChessOptions
from egocli.chess.video import PositionTracker
from egocli.core.errors import InputError

BLACK_IN_CHECK = "4k3/8/8/8/8/8/4R3/4K3"
"""The rook on e2 checks the black king: only Black can be to move."""
QUIET = "4k3/8/8/8/8/8/3R4/4K3"
"""Nobody in check: either side could be to move."""


def test_only_legal_side_is_chosen_and_said() -> None:
    fixed = repair(probs_from_placement(BLACK_IN_CHECK, 0.95))
    assert fixed.fen.split()[:2] == [BLACK_IN_CHECK, "b"] and fixed.changed == []
    assert fixed.turn_source == "legal" and fixed.turn_reason == "Black's king is in check: only Black to move is legal"


def test_both_legal_means_white_assumed_unless_given() -> None:
    assumed = repair(probs_from_placement(QUIET, 0.95))
    assert assumed.fen.split()[1] == "w" and assumed.turn_source == "assumed" and "--turn black" in assumed.turn_reason
    given = repair(probs_from_placement(QUIET, 0.95), "black")
    assert given.fen.split()[1] == "b" and given.turn_source == "given"


def test_a_given_side_that_is_illegal_is_repaired_for_that_side() -> None:
    probs = probs_from_placement(BLACK_IN_CHECK, 0.95)
    probs[6, 4] = 0.0
    probs[6, 4, 4], probs[6, 4, 0] = 0.6, 0.4  # e2: rook 60%, empty 40%
    fixed = repair(probs, "white")  # the user says White: the checking rook is the misread square
    assert fixed.fen.split()[:2] == ["4k3/8/8/8/8/8/8/4K3", "w"] and fixed.changed == ["e2"]


def test_both_kings_in_check_keeps_the_placement_seen() -> None:
    both = "R3k3/8/8/8/8/8/8/r3K3"  # each rook checks the other king along its back rank
    with pytest.raises(PositionError) as caught:
        repair(probs_from_placement(both, 1.0))
    assert caught.value.placement == both
    assert "both kings are in check" in str(caught.value)


def test_bare_fen_placement_infers_the_side_to_move() -> None:
    board, how, why = read_fen(BLACK_IN_CHECK)
    assert board.turn == chess.BLACK and how == "legal"
    board, how, _ = read_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    assert board.turn == chess.WHITE and how == "assumed" and board.castling_rights == chess.BB_CORNERS
    with pytest.raises(InputError, match="illegal position in FEN: the side not to move is in check"):
        read_fen(BLACK_IN_CHECK, "white")


def test_video_turn_follows_the_moves_seen() -> None:
    # inside on purpose: PositionTracker's public add() takes camera images and runs the square classifier;
    # the turn logic is fed classified squares directly (_commit), as add() does once the vote buffer commits
    tracker = PositionTracker(ChessOptions(frames=1, tau=1.0))
    board = chess.Board()
    tracker._commit(0.0, fen_to_grid(board.board_fen()).reshape(64), probs_from_placement(board.board_fen()))
    assert tracker.turn_source == "assumed"
    for n, san in enumerate(["e4", "e5", "Bc4"], 1):
        board.push_san(san)
        probs = probs_from_placement(board.board_fen(), 0.9)
        tracker._commit(float(n), fen_to_grid(board.board_fen()).reshape(64), probs)
    assert [p["move"] for p in tracker.positions] == [None, "e4", "e5", "Bc4"]
    assert tracker.board.turn == chess.BLACK and tracker.turn_source == "moves"
    assert tracker.turn_reason == "3 moves seen, the last Bc4"
    assert np.all(fen_to_grid(tracker.board.board_fen()) == fen_to_grid(board.board_fen()))
