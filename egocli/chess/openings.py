"""Opening names: the packaged table (chess/data/openings.toml) matched by position, so a photo or a FEN
without its moves is named too."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

TABLE = Path(__file__).with_name("data") / "openings.toml"


@lru_cache(maxsize=1)
def _by_position() -> dict[str, str]:
    """Placement, side to move and castling -> 'Italian Game (C50)' (a photo has no en passant square)."""
    import chess

    out: dict[str, str] = {}
    for eco, name, moves in tomllib.loads(TABLE.read_text(encoding="utf-8"))["openings"]:
        board = chess.Board()
        for san in moves.split():
            board.push_san(san)
        out[_key(board)] = f"{name} ({eco})"
    return out


def _key(board: chess.Board) -> str:
    return " ".join(board.fen(en_passant="fen").split()[:3])


def opening_name(board: chess.Board) -> str | None:
    """The opening's name and ECO code when the position is in the table, else None."""
    return _by_position().get(_key(board))
