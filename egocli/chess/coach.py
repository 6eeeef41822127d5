"""The coach: the computed facts (chess/facts.py) said most important first, phrased by the model only when
the claim checker (chess/claims.py) finds every checkable claim of its sentences true."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from egocli.chess.claims import claims, context
from egocli.chess.facts import Fact, position_facts, threat, why_not
from egocli.chess.phase import game_phase, misfits
from egocli.chess.types import EngineLine
from egocli.models.base import PrefixCachedModel, TextModel

if TYPE_CHECKING:
    import chess

SQUARE_RE = re.compile(r"\b([a-h][1-8])\b")
MOVE_RE = re.compile(r"\b(O-O(?:-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?|[a-h]x[a-h][1-8](?:=[QRBN])?[+#]?"
                     r"|[a-h][1-8]=[QRBN][+#]?)")
SYSTEM = ("You are a chess coach talking to a player who cannot see the board. Say the facts in one or two "
          "short, plain sentences, in their order: a threat or a check first, then the best move and what it "
          "does. Copy moves (like Qxf7# or g6) and squares exactly as written. Add nothing that is not in the "
          "facts.")
SAID_FIRST = 4
"""The template says the first facts, most important first."""


@dataclass(frozen=True)
class Explanation:
    """The coach's text and where it came from."""

    text: str
    """One to four short sentences for a non-expert."""
    source: str
    """'llm' (model output whose every checkable claim is true) or 'template' (built from the facts)."""
    claims: int = 0
    """Checkable claims found in the model's output (0 on the template path)."""
    false: list[str] = field(default_factory=list)
    """Claims the checker found false (the output was then replaced by the template)."""


def facts(board: chess.Board, line: EngineLine | list[EngineLine]) -> list[Fact]:
    """The computed facts about the position and the best move, most important first."""
    return position_facts(board, line if isinstance(line, list) else [line])


def template(found: list[Fact]) -> str:
    """The explanation built from the facts only: the first few, mate threats and hanging pieces first, and
    always the engine's evaluation."""
    said = [f for f in found if f.kind != "why"][:SAID_FIRST]
    said += [f for f in found if f.kind == "eval" and f not in said]
    said += [f for f in found if f.kind == "why"]
    return " ".join(f.text for f in said)


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
            on_reject: Callable[[str, list[str]], None] | None = None, why: EngineLine | None = None) -> Explanation:
    """The facts phrased by the model when every checkable claim it makes is true, it names the best move
    in SAN and the mate threat where there is one; else the template from the facts. `why`: the engine's
    line for a move the user asks about, explained after."""
    found = facts(board, lines)
    if why is not None:
        found.append(why_not(board, why, lines[0]))
    if model is None:
        return Explanation(template(found), "template")
    told = [f for f in found if f.kind not in ("why", "opening")][:SAID_FIRST]
    prompt = f"(Context only, do not repeat it: phase: {game_phase(board)}; main line: {' '.join(lines[0].san[:8])}.)"
    prompt += "\nFacts, most important first:\n" + "\n".join(f"- {f.text}" for f in told)
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
    if isinstance(model, PrefixCachedModel):
        model.prime_system(SYSTEM)  # fixed text, kept on disk between runs: the system turn costs nothing
    ctx = context(board, lines + ([why] if why else []), threat(board), {f.kind for f in found})
    must = [lines[0].san[0]] + [m for f in found if f.kind == "threat" for m in threat(board).mates[:1]]
    checked, bad = 0, []
    for attempt in range(attempts):
        text = _sentences("".join(model.generate(messages, max_tokens=70,
                                                 temperature=0.0 if attempt == 0 else 0.7)).strip(), 2)
        said = claims(text, ctx)
        checked += len(said)
        bad = [f"{c.text} ({c.form})" for c in said if not c.true] + misfits(text, board, lines)
        bad += [f"{m} not named" for m in must if not re.search(rf"(?<![\w-]){re.escape(m.rstrip('+#'))}", text)]
        if text and not bad:
            extra = [f.text for f in found if f.kind == "why"]
            return Explanation(" ".join([text, *extra]), "llm", checked)
        if on_reject is not None:
            on_reject(text, bad)
    return Explanation(template(found), "template", checked, bad)


def _sentences(text: str, limit: int) -> str:
    parts = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    return " ".join(parts[:limit])
