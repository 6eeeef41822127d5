"""The coach's facts are computed from the board: the opponent's mate threat (a null-move probe), hanging
pieces, what the best move does, forks in the engine's line, why not a rejected move, the opening's name."""

from __future__ import annotations

import chess

from egocli.chess.facts import hanging, position_facts, threat, why_not
from egocli.chess.openings import opening_name
from egocli.chess.types import EngineLine

QH5 = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
"""Issue 32: 1. e4 e5 2. Bc4 Nc6 3. Qh5, Black to move; Qxf7 would be mate."""
G6 = [EngineLine(san=["g6", "Qf3", "Nf6"], uci=["g7g6", "h5f3", "g8f6"], cp=21, mate=None, expected=0.51)]


def test_the_mate_threat_is_found_and_said_first() -> None:
    board = chess.Board(QH5)
    assert threat(board).mates == ["Qxf7#"]
    facts = position_facts(board, G6)
    assert facts[0].kind == "threat" and facts[0].text == "White threatens mate with Qxf7#."
    best = next(f for f in facts if f.kind == "best")
    assert best.text == ("Black's best move is g6, the pawn from g7 to g6: it attacks the queen on h5, "
                         "and it stops the mate Qxf7#.")  # the mate last: 'it' after a move is that move


def test_a_hanging_piece_and_no_threat_while_in_check() -> None:
    board = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3")
    assert [chess.square_name(s) for s in hanging(board, chess.BLACK)] == ["e5", "h4"]
    assert threat(chess.Board("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")).mates == []


def test_a_fork_in_the_main_line() -> None:
    board = chess.Board("4k3/8/8/1r3q2/8/8/8/4K1N1 w - - 0 1")
    nd4 = EngineLine(san=["Nf3", "Kd7", "Nd4"], uci=["g1f3", "e8d7", "f3d4"], cp=0, mate=None, expected=0.5)
    said = [f.text for f in position_facts(board, [nd4]) if f.kind == "fork"]
    assert said == ["In the main line Nd4 forks the rook on b5 and the queen on f5."]
    guarded = chess.Board("4k3/8/8/1r2pq2/8/8/8/4K1N1 w - - 0 1")  # the e5 pawn takes a knight on d4
    assert [f for f in position_facts(guarded, [nd4]) if f.kind == "fork"] == []


def test_why_not_a_move_that_allows_mate() -> None:
    board = chess.Board(QH5)
    tried = EngineLine(san=["Nf6", "Qxf7#"], uci=["g8f6", "h5f7"], cp=None, mate=-1, expected=0.0)
    assert why_not(board, tried, G6[0]).text == "Nf6 is not best: White answers Qxf7#, checkmate."


def test_opening_names_come_from_the_packaged_table() -> None:
    board = chess.Board()
    for san in "e4 e5 Nf3 Nc6 Bb5".split():
        board.push_san(san)
    assert opening_name(board) == "Ruy Lopez (C60)"
    assert opening_name(chess.Board(QH5)) is None
