"""The claim checker: every checkable claim in a coach's sentence (a piece on a square, an attack, a defence,
a check or mate, a threat, a hanging piece, a side of the board, a named square, a SAN move, a fork or pin)
is found by a declared form and verified against the board. The forms are data (chess/claimforms.py): a name,
a pattern over the slots of SLOTS, and the check here that decides it; adding a form touches CLAIM_FORMS."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from egocli.chess.claimforms import CLAIM_FORMS, SLOTS, STOP

__all__ = ["CLAIM_FORMS", "Claim", "Context", "claims", "context", "false_claims"]

if TYPE_CHECKING:
    import chess

    from egocli.chess.facts import Threat
    from egocli.chess.types import EngineLine

TACTIC_PLIES = 6
"""Plies of the main line in which the facts find forks and pins (positions along them may be spoken of)."""


@dataclass(frozen=True)
class Claim:
    """One checkable claim found in a text."""

    form: str
    """Its form ('attack', 'placed', 'move', ...)."""
    text: str
    """The words that make it."""
    true: bool
    """Whether the board bears it out."""


@dataclass
class Context:
    """What claims are checked against: the position, the positions after each engine move, the threat."""

    board: chess.Board
    """The position the coach speaks about (side to move first)."""
    lines: list[EngineLine]
    """The engine's lines (and a --why line), best first."""
    threat_mates: list[str] = field(default_factory=list)
    """The opponent's mating moves if the side to move passed."""
    kinds: set[str] = field(default_factory=set)
    """Kinds of the computed facts ('fork', 'pin', ...)."""
    moves: dict[str, list[tuple[chess.Board, chess.Move]]] = field(default_factory=dict)
    """SAN without +/# -> the positions where that move is legal and meant (the position, a line, the threat)."""
    boards: list[chess.Board] = field(default_factory=list)
    """The position, the position after each line's first move and along the main line's first plies (where
    its forks and pins are): where a piece may be said to stand."""
    threat_moves: list[str] = field(default_factory=list)
    """The opponent's threatened mates and winning captures, in SAN."""


def context(board: chess.Board, lines: list[EngineLine], probe: Threat, kinds: set[str]) -> Context:
    """The checking context for a position, its engine lines, the opponent's threat and the facts' kinds."""
    import chess

    ctx = Context(board, lines, probe.mates, kinds, boards=[board], threat_moves=probe.mates + probe.captures)
    for move in board.legal_moves:
        ctx.moves.setdefault(board.san(move).rstrip("+#"), []).append((board, move))
    for line in lines:
        copy = board.copy(stack=False)
        for i, uci in enumerate(line.uci):
            move = chess.Move.from_uci(uci)
            if move not in copy.legal_moves:
                break
            if i:
                ctx.moves.setdefault(copy.san(move).rstrip("+#"), []).append((copy.copy(stack=False), move))
            copy.push(move)
            if i == 0 or (line is lines[0] and i < TACTIC_PLIES):
                ctx.boards.append(copy.copy(stack=False))
    if not board.is_check():
        passed = board.copy(stack=False)
        passed.push(chess.Move.null())
        for san in ctx.threat_moves:
            ctx.moves.setdefault(san.rstrip("+#"), []).append((passed, passed.parse_san(san)))
    return ctx


Match = dict[str, str | None]


def _sq(name: str | None) -> int:
    import chess

    return chess.parse_square(name or "")


def _piece_fits(board: chess.Board, m: Match, slot: str) -> bool:
    """The piece named in `slot` stands on its square (and has the colour named, if any)."""
    import chess

    piece = board.piece_at(_sq(m[slot.replace("piece", "square")]))
    kind = (m[slot] or "").lower()
    color = (m.get(f"{slot}_color") or "").lower()
    return piece is not None and chess.piece_name(piece.piece_type) == kind \
        and (not color or piece.color == (color == "white"))


def _placed(ctx: Context, m: Match) -> bool:
    return any(_piece_fits(b, m, "piece") for b in ctx.boards)


def _attacks(ctx: Context, m: Match) -> bool:
    target = _sq(m["square2"])
    return any(_piece_fits(b, m, "piece") and b.is_attacked_by(b.color_at(_sq(m["square"])) or False, target)
               and target in b.attacks(_sq(m["square"]))
               and (m.get("piece2") is None or _piece_fits(b, m, "piece2")) for b in ctx.boards)


def _defends(ctx: Context, m: Match) -> bool:
    return any(_piece_fits(b, m, "piece") and _piece_fits(b, m, "piece2") and _sq(m["square2"]) in
               b.attacks(_sq(m["square"])) and b.color_at(_sq(m["square"])) == b.color_at(_sq(m["square2"]))
               for b in ctx.boards)


def _after(ctx: Context, san: str | None) -> list[tuple[chess.Board, chess.Board, chess.Move]]:
    """(before, after, move) for each place the move is meant."""
    out = []
    for before, move in ctx.moves.get((san or "").rstrip("+#"), []):
        after = before.copy(stack=False)
        after.push(move)
        out.append((before, after, move))
    return out


def _move_attacks(ctx: Context, m: Match) -> bool:
    return any(_sq(m["square2"]) in a.attacks(mv.to_square) and _piece_fits(a, m, "piece2")
               and a.color_at(_sq(m["square2"])) != b.turn for b, a, mv in _after(ctx, m["move"]))


def _move_targets(ctx: Context, m: Match) -> bool:
    """A move aimed at a piece ('Nxb4 against the pawn on b3'): it takes that piece or attacks it after."""
    sq = _sq(m["square2"])
    return any((mv.to_square == sq and _piece_fits(b, m, "piece2")) or
               (sq in a.attacks(mv.to_square) and _piece_fits(a, m, "piece2")) for b, a, mv in _after(ctx, m["move"]))


def _move_defends(ctx: Context, m: Match) -> bool:
    return any(_sq(m["square2"]) in a.attacks(mv.to_square) and _piece_fits(a, m, "piece2")
               and a.color_at(_sq(m["square2"])) == b.turn for b, a, mv in _after(ctx, m["move"]))


def _move_checks(ctx: Context, m: Match) -> bool:
    return any(a.is_check() for _, a, _ in _after(ctx, m["move"]))


def _move_mates(ctx: Context, m: Match) -> bool:
    return any(a.is_checkmate() for _, a, _ in _after(ctx, m["move"]))


def _stops_mate(ctx: Context, m: Match) -> bool:
    """A move stops a mate where it is played: before it the opponent threatened a mate in one (had it the
    move), after it the opponent has none."""
    import chess

    def mates(board: chess.Board) -> bool:
        return any(board.is_checkmate() for _ in _each_reply(board))

    def threatened(board: chess.Board) -> bool:
        if board.is_check():
            return False
        passed = board.copy(stack=False)
        passed.push(chess.Move.null())
        return mates(passed)

    return any(threatened(b) and not mates(a) for b, a, _ in _after(ctx, m["move"]))


def _each_reply(board: chess.Board) -> Iterator[None]:
    """Push each legal move in turn (the board stands after it at each step), then undo it."""
    for move in list(board.legal_moves):
        board.push(move)
        yield None
        board.pop()


def _mate_threat(ctx: Context, m: Match) -> bool:
    return bool(ctx.threat_mates) or any(line.mate is not None for line in ctx.lines[:1])


def _threat_move(ctx: Context, m: Match) -> bool:
    return (m["move"] or "").rstrip("+#") in {s.rstrip("+#") for s in ctx.threat_moves}


def _side_threat(ctx: Context, m: Match) -> bool:
    """A side threatens a move: the side not to move (the threat is what it could do if the side to move
    passed), and the move is one of its threats."""
    return ((m["color"] or "").lower() == "white") != ctx.board.turn and _threat_move(ctx, m)


def _played_by(ctx: Context, m: Match) -> bool:
    """A side plays a move: the move is meant somewhere (the position, a line, the threat) with that side to
    move (its check or mate sign is the `move` form's)."""
    color = (m["color"] or "").lower() == "white"
    return any(before.turn == color for before, _, _ in _after(ctx, m["spot"]))


def _side_of(square: int, side: str | None) -> bool:
    import chess

    king = "king" in (side or "").lower()
    return (chess.square_file(square) >= 4) == king


def _side(ctx: Context, m: Match) -> bool:
    """A move or square said to be on the kingside (files e-h) or the queenside (a-d); castling by its kind."""
    import chess

    spot, king = m["spot"] or "", "king" in (m["side"] or "").lower()
    if spot.startswith("O-O"):
        return king == (spot == "O-O")
    if re.fullmatch(r"[a-h][1-8]", spot):
        return _side_of(chess.parse_square(spot), m["side"])
    places = _after(ctx, spot)
    return bool(places) and all(_side_of(mv.to_square, m["side"]) for _, _, mv in places)


def _hanging(ctx: Context, m: Match) -> bool:
    """A piece (or two: 'the pawns on h5 and a2', 'the rook on a8 and the pawn on a7') attacked and undefended
    in a position spoken of."""
    if m.get("square2"):
        second = {"piece": m.get("piece2") or m["piece"], "piece_color": m.get("piece2_color") or m["piece_color"],
                  "square": m["square2"]}
        if not _hanging(ctx, second):
            return False
    sq = _sq(m["square"])
    return any(_piece_fits(b, m, "piece") and b.attackers(not (b.color_at(sq) or False), sq)
               and not b.attackers(b.color_at(sq) or False, sq) for b in ctx.boards)


def _in_check(ctx: Context, m: Match) -> bool:
    color = (m["color"] or "").lower() == "white"
    return any(b.is_check() and b.turn == color for b in ctx.boards[:1] + ctx.boards[1:2])


def _mated(ctx: Context, m: Match) -> bool:
    import chess

    color = (m["color"] or "").lower() == "white"
    for line in ctx.lines:
        end = ctx.board.copy(stack=False)
        for uci in line.uci:
            end.push(chess.Move.from_uci(uci))
        if end.is_checkmate() and end.turn == color:
            return True
    return False


def _expected_for(ctx: Context, color: str | None) -> float:
    """The best line's expected score for the side named (the side to move when none is)."""
    best = ctx.lines[0].expected if ctx.lines else 0.5
    if color and (color.lower() == "white") != ctx.board.turn:
        return 1 - best
    return best


def _outcome(ctx: Context, m: Match) -> bool:
    e, word = _expected_for(ctx, m["color"]), (m["word"] or "").lower()
    if word.startswith("win") or word == "won":
        return e >= 0.8
    if word.startswith("los"):
        return e <= 0.2
    return 0.3 <= e <= 0.7


def _advantage(ctx: Context, m: Match) -> bool:
    return _expected_for(ctx, m["color"]) >= 0.6


def _pinned(ctx: Context, m: Match) -> bool:
    sq = _sq(m["square"])
    return any(_piece_fits(b, m, "piece") and b.is_pinned(b.color_at(sq) or False, sq) for b in ctx.boards)


def _fork(ctx: Context, m: Match) -> bool:
    return "fork" in ctx.kinds


def _pin(ctx: Context, m: Match) -> bool:
    return "pin" in ctx.kinds


def _move(ctx: Context, m: Match) -> bool:
    san = m["move"] or ""
    places = _after(ctx, san)
    if not places:
        return False
    if san.endswith("#"):
        return any(a.is_checkmate() for _, a, _ in places)
    if san.endswith("+"):
        return any(a.is_check() and not a.is_checkmate() for _, a, _ in places)
    return True


def _square(ctx: Context, m: Match) -> bool:
    """A named square is in play: occupied in a position spoken of, or a square of a move spoken of."""
    sq = _sq(m["square"])
    if any(b.piece_at(sq) for b in ctx.boards):
        return True
    return any(sq in (mv.from_square, mv.to_square) for places in ctx.moves.values() for _, mv in places)


CHECKS: dict[str, Callable[[Context, Match], bool]] = {
    "placed": _placed, "attacks": _attacks, "defends": _defends, "move_attacks": _move_attacks,
    "move_targets": _move_targets,
    "move_defends": _move_defends, "move_checks": _move_checks, "move_mates": _move_mates,
    "stops_mate": _stops_mate, "mate_threat": _mate_threat, "threat_move": _threat_move,
    "side_threat": _side_threat, "played_by": _played_by, "side": _side, "hanging": _hanging,
    "in_check": _in_check, "mated": _mated, "outcome": _outcome, "advantage": _advantage, "pinned": _pinned,
    "fork": _fork, "pin": _pin, "move": _move, "square": _square,
}


@lru_cache(maxsize=1)
def compiled() -> list[tuple[str, re.Pattern[str], str]]:
    """CLAIM_FORMS with their slots filled in."""
    out = []
    for form, pattern, check in CLAIM_FORMS:
        def fill(slot: re.Match[str]) -> str:
            name = slot.group(1)
            base = name.rstrip("0123456789")
            return SLOTS[base].replace("{n}", name).replace("{stop}", STOP)
        out.append((form, re.compile(re.sub(r"\{(\w+)\}", fill, pattern)), check))
    return out


def claims(text: str, ctx: Context) -> list[Claim]:
    """Every checkable claim in the text, each verified against the context."""
    found, seen = [], set()
    for form, pattern, check in compiled():
        for hit in pattern.finditer(text):
            if (form, hit.end()) not in seen:
                seen.add((form, hit.end()))
                found.append(Claim(form, hit.group(0), CHECKS[check](ctx, hit.groupdict())))
    return found


def false_claims(text: str, ctx: Context) -> list[str]:
    """The words of each claim the board does not bear out (empty if all are true)."""
    return [f"{c.text} ({c.form})" for c in claims(text, ctx) if not c.true]
