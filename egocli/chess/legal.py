"""Legality repair: the most likely legal position near a raw per-square prediction."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from egocli.core.errors import InputError

if TYPE_CHECKING:  # the photo path's repair only: a FEN never loads numpy
    import numpy as np

MAX_CHANGES = 3
"""At most this many squares may differ from the raw prediction."""
UNSURE = 0.5
"""A square whose best class has less than this probability is reported as unsure."""
MIN_ALTERNATIVE = 0.05
"""Repair changes a square only to a class the classifier gave at least this probability: a king the
classifier barely considered is not invented to make a position legal (what was seen is shown instead)."""

_STATUS_TEXT = {
    "STATUS_NO_WHITE_KING": "no white king", "STATUS_NO_BLACK_KING": "no black king",
    "STATUS_TOO_MANY_KINGS": "too many kings", "STATUS_TOO_MANY_WHITE_PAWNS": "more than 8 white pawns",
    "STATUS_TOO_MANY_BLACK_PAWNS": "more than 8 black pawns", "STATUS_PAWNS_ON_BACKRANK": "a pawn on the first or last rank",
    "STATUS_TOO_MANY_WHITE_PIECES": "more than 16 white pieces", "STATUS_TOO_MANY_BLACK_PIECES": "more than 16 black pieces",
    "STATUS_OPPOSITE_CHECK": "the side not to move is in check", "STATUS_TOO_MANY_CHECKERS": "impossible check",
    "STATUS_IMPOSSIBLE_CHECK": "impossible check",
}


@dataclass(frozen=True)
class Repair:
    """A legal position chosen from the per-square probabilities, and who is to move in it."""

    fen: str
    """Full FEN of the legal position (castling rights inferred from king and rook squares)."""
    changed: list[str]
    """Squares whose piece differs from the raw prediction (e.g. ['e1'])."""
    unsure: list[str]
    """Squares the classifier was unsure about (best class below UNSURE)."""
    turn_source: str = "given"
    """'given' (the caller said), 'legal' (only that side to move is legal) or 'assumed' (both are: White)."""
    turn_reason: str = ""
    """The decision in words."""


class PositionError(InputError):
    """The recognised placement is no legal position, even after repair; keeps what was seen."""

    def __init__(self, message: str, placement: str, reasons: list[str]) -> None:
        super().__init__(message)
        self.placement, self.reasons = placement, reasons


def parse_fen(fen: str):  # noqa: ANN201
    """A legal chess.Board from a FEN (a bare placement: the side to move inferred); InputError otherwise."""
    return read_fen(fen)[0]


def read_fen(fen: str, turn: str | None = None) -> tuple:
    """(legal chess.Board, turn source, reason) from a FEN; a bare placement gets castling rights from its
    king and rook squares and the side to move from `turn`, else from legality (see turn_decision)."""
    import chess

    text = fen.strip()
    bare = len(text.split()) == 1
    try:
        board = board_from_placement(text) if bare else chess.Board(text)
    except ValueError as ex:
        raise InputError(f"invalid FEN: {ex}") from None
    if bare:
        decided = turn_decision(board, turn)
        if decided is None:
            why = illegal_reasons(_with_turn(board, turn == "white")) if turn else position_reasons(board)
            raise InputError(f"illegal position in FEN: {', '.join(why)}")
        board.turn = decided[0]
        return board, decided[1], decided[2]
    if not board.is_valid():
        raise InputError(f"illegal position in FEN: {', '.join(illegal_reasons(board)) or 'not a legal position'}")
    return board, "fen", "the FEN says so"


def illegal_reasons(board) -> list[str]:  # noqa: ANN001
    """Plain-language reasons why a chess.Board is not a legal position (empty if legal)."""
    import chess

    status = board.status()
    return [text for name, text in _STATUS_TEXT.items() if status & getattr(chess, name, 0)]


def _square_name(index: int) -> str:
    row, col = divmod(index, 8)
    return "abcdefgh"[col] + str(8 - row)


def _board(classes: np.ndarray, white_to_move: bool):  # noqa: ANN202
    from egocli.chess.recognise import grid_to_placement

    return board_from_placement(grid_to_placement(classes.reshape(8, 8)), white_to_move)


def board_from_placement(placement: str, white_to_move: bool = True):  # noqa: ANN201
    """A chess.Board for a FEN placement field, castling rights where king and rook stand at home."""
    import chess

    board = chess.Board(placement + (" w" if white_to_move else " b") + " - - 0 1")
    board.castling_rights = _castling(board)
    return board


def _castling(board) -> int:  # noqa: ANN001
    """Castling rights where king and rook stand on their home squares."""
    import chess

    rights = 0
    for colour, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
        if board.piece_at(chess.square(4, rank)) == chess.Piece(chess.KING, colour):
            for file in (0, 7):
                if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.ROOK, colour):
                    rights |= chess.BB_SQUARES[chess.square(file, rank)]
    return rights


def turn_decision(board, turn: str | None) -> tuple[bool, str, str] | None:  # noqa: ANN001
    """(white to move, source, reason) for a placement (a chess.Board, its turn ignored), or None when the
    side asked for (or neither side, when turn is None) gives a legal position."""
    legal = {side: _with_turn(board, side == "white").is_valid() for side in ("white", "black")}
    if turn is not None:
        return (turn == "white", "given", f"{turn.capitalize()} to move, as given") if legal[turn] else None
    if legal["white"] and legal["black"]:
        return True, "assumed", "either side could be to move: White assumed (give --turn black if not)"
    for side, other in (("white", "black"), ("black", "white")):
        if legal[side]:
            reasons = illegal_reasons(_with_turn(board, other == "white"))
            if reasons == ["the side not to move is in check"]:
                return side == "white", "legal", f"{side.capitalize()}'s king is in check: only {side.capitalize()} " \
                                                 "to move is legal"
            why = ", ".join(reasons) or "illegal"
            return side == "white", "legal", f"only {side.capitalize()} to move is legal ({other} to move: {why})"
    return None


def _with_turn(board, white: bool):  # noqa: ANN001, ANN202
    copy = board.copy(stack=False)
    copy.turn = white
    copy.ep_square = None
    return copy


def position_reasons(board) -> list[str]:  # noqa: ANN001
    """Why a placement is legal for neither side to move, in plain words."""
    white = illegal_reasons(_with_turn(board, True))
    black = illegal_reasons(_with_turn(board, False))
    check = "the side not to move is in check"
    out = [r for r in white if r in black and r != check]
    if check in white and check in black:
        out.insert(0, "both kings are in check")
    out += [r for r in white + black if r not in out and r != check]
    return out or ["not a legal position"]


def repair(probs: np.ndarray, turn: str | None = None, budget: int = 4000) -> Repair:
    """Most likely legal position within MAX_CHANGES squares of the argmax, with the side to move given or
    inferred (see turn_decision); PositionError (keeping the placement seen) when none is found."""
    import numpy as np

    from egocli.chess.squares import CLASSES

    flat = probs.reshape(64, len(CLASSES))
    best = flat.argmax(axis=1)
    unsure = [_square_name(i) for i in range(64) if flat[i, best[i]] < UNSURE]
    logp = np.log(np.clip(flat, 1e-9, 1.0))
    alternatives = sorted(((float(logp[i, best[i]] - logp[i, c]), i, c) for i in range(64)
                           for c in range(len(CLASSES)) if c != best[i] and flat[i, c] >= MIN_ALTERNATIVE))[:40]
    heap: list[tuple[float, tuple[int, ...]]] = [(0.0, ())]
    seen: set[tuple[int, ...]] = set()
    first_reasons: list[str] = []
    while heap and budget > 0:
        cost, picks = heapq.heappop(heap)
        budget -= 1
        classes = best.copy()
        for k in picks:
            classes[alternatives[k][1]] = alternatives[k][2]
        board = _board(classes, True)
        decided = turn_decision(board, turn)
        if decided is not None:
            board = _board(classes, decided[0])
            return Repair(fen=board.fen(), changed=sorted(_square_name(alternatives[k][1]) for k in picks),
                          unsure=unsure, turn_source=decided[1], turn_reason=decided[2])
        if not picks:
            first_reasons = illegal_reasons(_with_turn(board, turn == "white")) if turn else position_reasons(board)
        if len(picks) < MAX_CHANGES:
            _extend(heap, seen, picks, cost, alternatives)
    from egocli.chess.recognise import grid_to_placement

    why = ", ".join(first_reasons) or "not a legal position"
    raise PositionError(f"the position cannot be analysed: {why} (no legal position within {MAX_CHANGES} squares)",
                        grid_to_placement(best.reshape(8, 8)), first_reasons)


def _extend(heap: list, seen: set, picks: tuple[int, ...], cost: float, alternatives: list) -> None:
    used = {alternatives[k][1] for k in picks}
    start = picks[-1] + 1 if picks else 0
    for k in range(start, len(alternatives)):
        if alternatives[k][1] in used:
            continue
        key = picks + (k,)
        if key not in seen:
            seen.add(key)
            heapq.heappush(heap, (cost + alternatives[k][0], key))


def probs_from_placement(placement: str, confidence: float = 1.0) -> np.ndarray:
    """One-hot-ish (8, 8, 13) probabilities for a known placement (used for --fen and tests)."""
    import numpy as np

    from egocli.chess.recognise import fen_to_grid
    from egocli.chess.squares import CLASSES

    grid = fen_to_grid(placement)
    rest = (1.0 - confidence) / (len(CLASSES) - 1)
    probs = np.full((8, 8, len(CLASSES)), rest)
    np.put_along_axis(probs, grid[..., None], confidence, axis=2)
    return probs


def log_likelihood(probs: np.ndarray, placement: str) -> float:
    """Sum of log-probabilities of a placement under per-square probabilities."""
    import numpy as np

    from egocli.chess.recognise import fen_to_grid

    grid = fen_to_grid(placement)
    picked = np.take_along_axis(probs.reshape(8, 8, -1), grid[..., None], axis=2)
    return float(np.log(np.clip(picked, 1e-9, 1.0)).sum()) if picked.size else -math.inf
