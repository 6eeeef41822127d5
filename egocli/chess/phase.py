"""Game phase of a position, and advice that cannot fit it (opening advice in a pawn ending, a knight that
is not on the board)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

    from egocli.chess.types import EngineLine

PHASE_WEIGHTS = {2: 1, 3: 1, 4: 2, 5: 4}
"""Knight, bishop, rook, queen -> phase weight (24 with all pieces on the board, 0 with kings and pawns only)."""
ENDGAME_AT = 8
"""Phase weight at or below which the position is an endgame (e.g. a rook and a minor piece each)."""
OPENING_UNDEVELOPED = 5
"""Minor pieces (of 8) still on their home squares for a full-material position to count as an opening."""
OPENING_WORDS = re.compile(r"\b(develop\w*|castl\w*|opening|fianchetto\w*|gambit)\b", re.IGNORECASE)
"""Advice that belongs to the opening."""
CASTLING_WORDS = re.compile(r"\b(castl\w*|O-O(?:-O)?)\b", re.IGNORECASE)
PIECE_WORDS = re.compile(r"\b(knight|bishop|rook|queen)s?\b", re.IGNORECASE)
ENDGAME_WORDS = re.compile(r"\b(endgame|ending)\b", re.IGNORECASE)
PIECE_TYPES = {"knight": 2, "bishop": 3, "rook": 4, "queen": 5}


def game_phase(board: chess.Board) -> str:
    """'opening', 'middlegame', 'endgame' or 'king and pawn ending' from the material on the board and how
    many minor pieces are still at home (a photo has no move number)."""
    import chess

    pieces = board.piece_map().values()
    weight = sum(PHASE_WEIGHTS.get(p.piece_type, 0) for p in pieces)
    if weight == 0:
        return "king and pawn ending"
    if weight <= ENDGAME_AT:
        return "endgame"
    home = {chess.B1: chess.KNIGHT, chess.G1: chess.KNIGHT, chess.C1: chess.BISHOP, chess.F1: chess.BISHOP,
            chess.B8: chess.KNIGHT, chess.G8: chess.KNIGHT, chess.C8: chess.BISHOP, chess.F8: chess.BISHOP}
    undeveloped = sum(1 for square, kind in home.items()
                      if (p := board.piece_at(square)) and p.piece_type == kind
                      and p.color == (chess.WHITE if square < chess.A2 else chess.BLACK))
    return "opening" if weight >= 20 and undeveloped >= OPENING_UNDEVELOPED else "middlegame"


def misfits(text: str, board: chess.Board, lines: list[EngineLine]) -> list[str]:
    """Phrases of the advice that do not fit the position (empty if it fits): opening ideas outside the
    opening, castling nobody can do, pieces nobody has (promotions in the engine's lines excepted), an
    'endgame' that is not one."""
    phase = game_phase(board)
    bad = []
    if phase in ("endgame", "king and pawn ending"):
        bad += [f"{w.group(0)} (in an {phase.split()[-1]})" for w in OPENING_WORDS.finditer(text)
                if not w.group(0).lower().startswith("castl")]
    elif (word := ENDGAME_WORDS.search(text)) is not None:
        bad.append(f"{word.group(0)} (in the {phase})")
    castles_in_line = any(san.startswith("O-O") for line in lines for san in line.san)
    if not board.castling_rights and not castles_in_line:
        bad += [f"{w.group(0)} (no castling rights)" for w in CASTLING_WORDS.finditer(text)]
    present = {p.piece_type for p in board.piece_map().values()}
    promoted = {"NBRQ".index(san.split("=")[1][0]) + 2 for line in lines for san in line.san if "=" in san}
    for word in PIECE_WORDS.finditer(text):
        if PIECE_TYPES[word.group(1).lower()] not in present | promoted:
            bad.append(f"{word.group(0)} (none on the board)")
    return bad
