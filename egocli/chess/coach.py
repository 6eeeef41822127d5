"""The coach: the computed facts (chess/facts.py) said most important first, phrased by the model only when
the claim checker (chess/claims.py) finds every checkable claim of its sentences true."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from egocli.chess.claims import claims, context
from egocli.chess.facts import Fact, position_facts, threat, why_not
from egocli.chess.phase import game_phase, misfits
from egocli.chess.types import EngineLine

if TYPE_CHECKING:
    import chess

    from egocli.models.base import TextModel

LOG = logging.getLogger(__name__)
SQUARE_RE = re.compile(r"\b([a-h][1-8])\b")
MOVE_RE = re.compile(r"\b(O-O(?:-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?|[a-h]x[a-h][1-8](?:=[QRBN])?[+#]?"
                     r"|[a-h][1-8]=[QRBN][+#]?)")
SYSTEM = ("You are a chess coach for a player who cannot see the board. Say the facts as one short, plain "
          "sentence, in their order, and add nothing: keep each fact's first words (who threatens, whose best "
          "move it is) and copy moves, pieces and squares exactly as written.\n"
          "Facts:\n- Black threatens Nxe4.\n- The pawn on e4 is attacked and undefended.\n- White's best move is "
          "Nc3, the knight from b1 to c3.\n"
          "Coach: Black threatens Nxe4 and the pawn on e4 is undefended; White's best move is Nc3.\n"
          "Facts:\n- Black threatens mate with Re1#.\n- White's best move is g3, the pawn from g2 to g3: it stops "
          "the mate Re1#.\n"
          "Coach: Black threatens mate with Re1#; White's best move is g3, which stops the mate.\n"
          "Facts:\n- White is in check from the bishop on b4.\n- White's best move is c3, the pawn from c2 to "
          "c3: it blocks the check, and it attacks the bishop on b4.\n"
          "Coach: White is in check from the bishop on b4; White's best move is c3, which blocks the check and "
          "attacks the bishop on b4.\n"
          "Facts:\n- Black's best move is Re1#, the rook from e8 to e1: it is checkmate.\n"
          "Coach: Black's best move is Re1#, the rook from e8 to e1: it is checkmate.")
"""The fixed system turn with four worked examples: evaluated once and kept on disk (prime_system), so in a
new process it costs a file read, not ~300 tokens of prompt evaluation."""
TOLD = ("in check", "mate", "threat", "hanging", "best")
"""Kinds of fact the model is given (the evaluation is printed with the engine's lines; forks and pins the
template says)."""
PROMPT_FACTS = 3
"""At most this many facts in the prompt: a short user turn is most of the prompt a new process evaluates."""
MAX_TOKENS = 64
"""A coached sentence is 10-50 tokens; the cap bounds a runaway (an unfinished sentence is dropped)."""
MAIN_LINE = 4
"""Plies of the engine's main line given to the model as context."""
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
    split: dict[str, float] = field(default_factory=dict)
    """Where the time went: facts_s, prompt_s (to the model's first piece), generate_s, check_s in seconds;
    prompt_tokens (the user turn) and generated_tokens."""


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


def prompt(board: chess.Board, lines: list[EngineLine], found: list[Fact]) -> str:
    """The user turn: the phase and the main line as context, then the first facts the model may say."""
    told = [f for f in found if f.kind in TOLD][:PROMPT_FACTS]
    return (f"(Context: phase: {game_phase(board)}; main line: {' '.join(lines[0].san[:MAIN_LINE])}.)\nFacts:\n"
            + "\n".join(f"- {f.text}" for f in told))


def explain(board: chess.Board, lines: list[EngineLine], model: TextModel | None, attempts: int = 2,
            on_reject: Callable[[str, list[str]], None] | None = None, why: EngineLine | None = None) -> Explanation:
    """The facts phrased by the model when every checkable claim it makes is true, it names the best move
    in SAN and the mate threat where there is one; else the template from the facts. `why`: the engine's
    line for a move the user asks about, explained after."""
    started = time.perf_counter()
    found = facts(board, lines)
    if why is not None:
        found.append(why_not(board, why, lines[0]))
    split = {"facts_s": time.perf_counter() - started}
    if model is None:
        return _logged(Explanation(template(found), "template", split=split))
    from egocli.models.base import PrefixCachedModel  # the model's path only: the template needs no models

    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt(board, lines, found)}]
    if isinstance(model, PrefixCachedModel):
        model.prime_system(SYSTEM)  # fixed text, kept on disk between runs: the system turn costs nothing
    probe = threat(board)
    ctx = context(board, lines + ([why] if why else []), probe, {f.kind for f in found})
    must = [lines[0].san[0]] + [m for f in found if f.kind == "threat" for m in probe.mates[:1]]
    checked, bad = 0, []
    split["prompt_tokens"] = float(model.count_tokens(messages[1]["content"]))
    for attempt in range(attempts):
        text = _phrase(model, messages, 0.0 if attempt == 0 else 0.7, split)
        t0 = time.perf_counter()
        said = claims(text, ctx)
        checked += len(said)
        bad = [f"{c.text} ({c.form})" for c in said if not c.true] + misfits(text, board, lines)
        bad += [f"{m} not named" for m in must if not re.search(rf"(?<![\w-]){re.escape(m.rstrip('+#'))}", text)]
        split["check_s"] = split.get("check_s", 0.0) + time.perf_counter() - t0
        if text and not bad:
            extra = [f.text for f in found if f.kind == "why"]
            return _logged(Explanation(" ".join([text, *extra]), "llm", checked, split=split))
        if on_reject is not None:
            on_reject(text, bad)
    return _logged(Explanation(template(found), "template", checked, bad, split))


def _phrase(model: TextModel, messages: list[dict[str, str]], temperature: float, split: dict[str, float]) -> str:
    """The model's sentence: one line, at most MAX_TOKENS, whole sentences only; the time to its first piece
    (the prompt's evaluation) and the rest (generation) added to `split`."""
    t0 = time.perf_counter()
    first, pieces = None, []
    for piece in model.generate(messages, max_tokens=MAX_TOKENS, temperature=temperature, stop=["\n"]):
        first = time.perf_counter() if first is None else first
        pieces.append(piece)
    end = time.perf_counter()
    raw = "".join(pieces)
    split["prompt_s"] = split.get("prompt_s", 0.0) + (first or end) - t0
    split["generate_s"] = split.get("generate_s", 0.0) + end - (first or end)
    split["generated_tokens"] = split.get("generated_tokens", 0.0) + (model.count_tokens(raw) if raw else 0)
    return _sentences(re.sub(r"^\s*(?:Coach|Answer)\s*:\s*", "", raw), 2)


def _logged(said: Explanation) -> Explanation:
    LOG.debug("coach split: %s; source %s", " ".join(f"{k} {v:.3f}" if k.endswith("_s") else f"{k} {v:.0f}"
                                                      for k, v in said.split.items()), said.source)
    return said


def _sentences(text: str, limit: int) -> str:
    """The first `limit` whole sentences (a piece cut off by the token cap is dropped)."""
    parts = re.split(r"(?:(?<=[.!?])|(?<=[.!?][\"')]))\s+", " ".join(text.split()))
    whole = [p for p in parts if re.search(r"[.!?][\"')]?$", p)]
    return " ".join(whole[:limit])
