"""The coach: a short explanation of the engine's best move, checked against the engine's facts."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from egocli.chess.phase import game_phase, misfits
from egocli.chess.types import EngineLine, MoveFacts
from egocli.models.base import TextModel

if TYPE_CHECKING:
    import chess

SQUARE_RE = re.compile(r"\b([a-h][1-8])\b")
MOVE_RE = re.compile(r"\b(O-O(?:-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?|[a-h]x[a-h][1-8](?:=[QRBN])?[+#]?"
                     r"|[a-h][1-8]=[QRBN][+#]?)")
PIECE_NAMES = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}
SYSTEM = ("You are a friendly chess coach. Explain the recommended move to a beginner in two or three short "
          "sentences. Use only the facts given. Mention only moves and squares that appear in the facts. "
          "Give advice for the phase of the game named in the facts (no opening advice in an endgame), and "
          "explain the move through the engine's main line.")


@dataclass(frozen=True)
class Explanation:
    """The coach's text and where it came from."""

    text: str
    """Two or three sentences for a non-expert."""
    source: str
    """'llm' (validated model output) or 'template' (the model failed validation or was skipped)."""


def facts(board: chess.Board, line: EngineLine) -> MoveFacts:
    """Engine facts about the best move: piece, squares, capture, check, what it attacks and defends."""
    import chess

    move = chess.Move.from_uci(line.uci[0])
    piece = board.piece_at(move.from_square)
    captured = board.piece_at(move.to_square) if not board.is_en_passant(move) else chess.Piece(chess.PAWN, not board.turn)
    after = board.copy(stack=False)
    after.push(move)
    targets = after.attacks(move.to_square)
    attacks = [f"{PIECE_NAMES[p.piece_type]} on {chess.square_name(s)}" for s in targets
               if (p := after.piece_at(s)) and p.color != board.turn]
    defends = [f"{PIECE_NAMES[p.piece_type]} on {chess.square_name(s)}" for s in targets
               if (p := after.piece_at(s)) and p.color == board.turn]
    score = f"mate in {line.mate}" if line.mate and line.mate > 0 else (
        f"getting mated in {-line.mate}" if line.mate else f"{(line.cp or 0) / 100:+.2f} pawns")
    return {"side": "White" if board.turn else "Black", "phase": game_phase(board), "move": line.san[0],
            "piece": PIECE_NAMES[piece.piece_type] if piece else "piece",
            "from": chess.square_name(move.from_square), "to": chess.square_name(move.to_square),
            "captures": f"{PIECE_NAMES[captured.piece_type]}" if captured else None,
            "check": after.is_check(), "mate": after.is_checkmate(), "attacks": attacks, "defends": defends,
            "main line": " ".join(line.san[:8]), "score": score, "expected score": _expected(line)}


def _expected(line: EngineLine) -> str:
    """'50% (win 2%, draw 96%, loss 2%)': a draw counts half, so 50% is not a coin flip to win."""
    text = f"{round(100 * line.expected)}%"
    if line.wdl:
        text += " (win {:.0f}%, draw {:.0f}%, loss {:.0f}%)".format(*(100 * v for v in line.wdl))
    return text


def template(f: MoveFacts) -> str:
    """A plain explanation built only from the facts."""
    text = f"{f['side']} should play {f['move']}, moving the {f['piece']} from {f['from']} to {f['to']}"
    text += f" and capturing a {f['captures']}." if f["captures"] else "."
    if f["mate"]:
        return text + " It is checkmate."
    if f["check"]:
        text += " It gives check."
    if f["attacks"]:
        text += f" From {f['to']} it attacks the " + ", ".join(f["attacks"][:3]) + "."
    return text + (f" The engine rates this {f['score']}, an expected score of {f['expected score']}, "
                   f"expecting {f['main line']}.")


def allowed_tokens(board: chess.Board, lines: list[EngineLine]) -> tuple[set[str], set[str]]:
    """(moves, squares) the explanation may name: the engine's lines and the squares in play."""
    import chess

    moves = {san.rstrip("+#") for line in lines for san in line.san}
    squares = {chess.square_name(s) for s in board.piece_map()}
    for line in lines:
        for uci in line.uci:
            squares |= {uci[:2], uci[2:4]}
    return moves, squares


def validate(text: str, board: chess.Board, lines: list[EngineLine]) -> list[str]:
    """What the text says that does not fit: moves or squares not in the position or the engine's lines,
    and advice for another phase or for pieces nobody has (empty if fine)."""
    moves, squares = allowed_tokens(board, lines)
    bad = [m for m in MOVE_RE.findall(text) if m.rstrip("+#") not in moves]
    bad += [s for s in SQUARE_RE.findall(text) if s not in squares]
    return bad + misfits(text, board, lines)


def explain(board: chess.Board, lines: list[EngineLine], model: TextModel | None, attempts: int = 2,
            on_reject: Callable[[str, list[str]], None] | None = None) -> Explanation:
    """Ask the model for an explanation; keep it only if it passes validate(), else use the template."""
    f = facts(board, lines[0])
    if model is None:
        return Explanation(template(f), "template")
    prompt = "Facts:\n" + "\n".join(f"- {k}: {v}" for k, v in f.items() if v not in (None, [], False))
    prompt += f"\nExplain why {f['side']} should play {f['move']}."
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
    for attempt in range(attempts):
        text = "".join(model.generate(messages, max_tokens=120, temperature=0.0 if attempt == 0 else 0.7)).strip()
        bad = validate(text, board, lines)
        if text and not bad:
            return Explanation(_sentences(text, 3), "llm")
        if on_reject is not None:
            on_reject(text, bad)
    return Explanation(template(f), "template")


def _sentences(text: str, limit: int) -> str:
    parts = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    return " ".join(parts[:limit])
