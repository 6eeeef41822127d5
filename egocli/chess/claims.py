"""The claim checker: every checkable claim in a coach's sentence (a piece on a square, an attack, a defence,
a check or mate, a threat, a hanging piece, a side of the board, a named square, a SAN move, a fork or pin)
is found by a declared form and verified against the board. The forms are data: a name, a pattern over the
slots of SLOTS, and the check that decides it; adding a form touches CLAIM_FORMS only."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import chess

    from egocli.chess.facts import Threat
    from egocli.chess.types import EngineLine

SLOTS = {
    "move": r"(?<![\w-])(?P<{n}>O-O(?:-O)?[+#]?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8][+#]?|[a-h]x[a-h][1-8](?:=[QRBN])?"
            r"[+#]?|[a-h][1-8](?:=[QRBN][+#]?|[+#]))(?![\w=])",
    "square": r"(?<![\w-])(?P<{n}>[a-h][1-8])(?![\w=+#])",
    "spot": r"(?<![\w-])(?P<{n}>O-O(?:-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?)[+#]?(?![\w=])",
    "piece": r"(?i:(?:(?P<{n}_color>white|black)(?:'s)?\s+)?(?P<{n}>king|queen|rook|bishop|knight|pawn)s?)",
    "side": r"(?i:(?P<{n}>kingside|queenside|king's side|queen's side|king side|queen side))",
    "gap": r"[^.;:!?]*?",
    "color": r"(?i:(?P<{n}>white|black))",
}
"""Slot name -> regex; `{n}` is the group name, so one form may use a slot twice (piece, piece2). A bare
square ('g6') is a square, also when it is a pawn's move: `spot` is a move or a square."""

CLAIM_FORMS: tuple[tuple[str, str, str], ...] = (
    ("attack", r"{piece} on {square}(?:,[^,]*,)? (?i:attacks|attacking|threatens|hits|targets) (?:the |your |a )?"
               r"{piece2} on {square2}", "attacks"),
    ("attack", r"{piece} on {square} (?i:attacks|attacking|threatens|hits|targets) {square2}", "attacks"),
    ("attack", r"{move} (?i:attacks|threatens|hits|targets) (?:the |a )?{piece2} on {square2}", "move_attacks"),
    ("defend", r"{piece} on {square} (?i:defends|protects|guards|covers) (?:the )?{piece2} on {square2}",
     "defends"),
    ("defend", r"{move} (?i:defends|protects|guards|covers) (?:the )?{piece2} on {square2}", "move_defends"),
    ("hanging", r"{piece} on {square} (?i:is |are |was )?(?i:hanging|undefended|unprotected|loose|en prise)",
     "hanging"),
    ("hanging", r"(?i:hanging|undefended|unprotected|loose) {piece} on {square}", "hanging"),
    ("check", r"{move}{gap}\b(?i:gives|is|with|delivers) (?:a )?(?i:check)\b", "move_checks"),
    ("mate", r"{move}{gap}\b(?i:mates|is mate|is checkmate|checkmates|delivers (?:check)?mate)\b", "move_mates"),
    ("threat", r"(?i:threat(?:ens|ening)? (?:of )?(?:to )?(?:check)?mate)", "mate_threat"),
    ("threat", r"(?i:threat(?:ens|ening)?)(?: (?i:to play|with))? {move}", "threat_move"),
    ("side", r"{spot}{gap}\b(?i:on|to|towards|of) the {side}", "side"),
    ("side", r"{side}{gap}{spot}", "side"),
    ("in check", r"{color}(?:'s)?(?i: king)? (?i:is|are|was) (?i:in |now in |)(?i:check)\b", "in_check"),
    ("mated", r"{color}(?:'s)?(?i: king)? (?i:is|are|was|gets|will be) (?i:in |)(?i:checkmate|mate)d?\b", "mated"),
    ("outcome", r"(?:{color}(?:'s)?\s+(?:\w+\s+){0,2}?)?(?i:\b(?P<word>win|wins|winning|won|lose|loses|losing|"
                r"lost|draw|drawn|drawing)\b)(?!\s+\d)", "outcome"),
    ("advantage", r"(?i:\b(?:strong|good|better|advantage|edge|favou?rs?|favou?rable|ahead|superior)\b)"
                  r"{gap}\b(?i:for) {color}\b", "advantage"),
    ("advantage", r"{color} (?i:has|have|is|keeps|gets) (?i:an |the |a )?(?i:advantage|better|ahead|edge|upper)",
     "advantage"),
    ("pin", r"{piece} on {square} (?i:is |are |)(?i:pinned)", "pinned"),
    ("pin", r"(?i:pins|pinning|pin) (?:the |a )?{piece} on {square}", "pinned"),
    ("fork", r"(?i:\bfork(?:s|ed|ing)?\b)", "fork"),
    ("pin", r"(?i:\bpin(?:s|ned|ning)?\b)", "pin"),
    ("placed", r"{piece} (?i:on|at) {square}", "placed"),
    ("move", r"{move}", "move"),
    ("square", r"{square}", "square"),
)
"""(form, pattern, check): a claim of `form` wherever the pattern matches; `check` names a function of CHECKS."""


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


def _move_defends(ctx: Context, m: Match) -> bool:
    return any(_sq(m["square2"]) in a.attacks(mv.to_square) and _piece_fits(a, m, "piece2")
               and a.color_at(_sq(m["square2"])) == b.turn for b, a, mv in _after(ctx, m["move"]))


def _move_checks(ctx: Context, m: Match) -> bool:
    return any(a.is_check() for _, a, _ in _after(ctx, m["move"]))


def _move_mates(ctx: Context, m: Match) -> bool:
    return any(a.is_checkmate() for _, a, _ in _after(ctx, m["move"]))


def _mate_threat(ctx: Context, m: Match) -> bool:
    return bool(ctx.threat_mates) or any(line.mate is not None for line in ctx.lines[:1])


def _threat_move(ctx: Context, m: Match) -> bool:
    return (m["move"] or "").rstrip("+#") in {s.rstrip("+#") for s in ctx.threat_moves}


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
    "move_defends": _move_defends, "move_checks": _move_checks, "move_mates": _move_mates,
    "mate_threat": _mate_threat, "threat_move": _threat_move, "side": _side, "hanging": _hanging,
    "in_check": _in_check, "mated": _mated, "outcome": _outcome, "advantage": _advantage, "pinned": _pinned,
    "fork": _fork, "pin": _pin, "move": _move,
    "square": _square,
}


@lru_cache(maxsize=1)
def compiled() -> list[tuple[str, re.Pattern[str], str]]:
    """CLAIM_FORMS with their slots filled in."""
    out = []
    for form, pattern, check in CLAIM_FORMS:
        def fill(slot: re.Match[str]) -> str:
            name = slot.group(1)
            base = name.rstrip("0123456789")
            return SLOTS[base].replace("{n}", name) if base != "gap" else SLOTS["gap"]
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
