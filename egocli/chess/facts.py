"""Facts about a position and the engine's best move, computed with python-chess: checks, captures, what a
move attacks and defends, pieces left hanging, the opponent's threat (a null-move probe), forks and pins in
the engine's line, material, the evaluation and the opening's name. The coach says nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from egocli.chess.openings import opening_name
from egocli.chess.phase import game_phase

if TYPE_CHECKING:
    import chess

    from egocli.chess.types import EngineLine

PIECE_NAMES = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}
VALUES = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}
"""Material in pawns (the king counts nothing: it is never traded)."""
PRIORITY = {"in check": 0, "mate": 0, "threat": 1, "hanging": 2, "best": 3, "why": 3, "fork": 4, "pin": 4,
            "eval": 6, "opening": 7}
"""Order of telling: a mate or a check first, then the opponent's threat and pieces hanging, then the move."""


@dataclass(frozen=True)
class Fact:
    """One true statement about the position, with the sentence that says it."""

    kind: str
    """What it is about: a key of PRIORITY."""
    text: str
    """The sentence, from the facts only."""

    @property
    def priority(self) -> int:
        """Lower is said first."""
        return PRIORITY[self.kind]


@dataclass(frozen=True)
class Threat:
    """What the opponent could do if it were their move (a null move for the side to move)."""

    mates: list[str] = field(default_factory=list)
    """Mating moves in SAN ('Qxf7#')."""
    captures: list[str] = field(default_factory=list)
    """Captures that win material outright (an undefended piece, or a piece worth more than the taker)."""


def side_name(color: bool) -> str:
    """'White' or 'Black'."""
    return "White" if color else "Black"


def piece_on(board: chess.Board, square: int) -> str:
    """'knight on c6' for the piece on a square."""
    import chess

    piece = board.piece_at(square)
    return f"{PIECE_NAMES[piece.piece_type] if piece else 'nothing'} on {chess.square_name(square)}"


def hanging(board: chess.Board, color: bool) -> list[int]:
    """Squares of `color`'s pieces (not the king) attacked by the opponent and defended by nobody."""
    return [s for s, p in board.piece_map().items() if p.color == color and p.piece_type != 6
            and board.attackers(not color, s) and not board.attackers(color, s)]


def threat(board: chess.Board) -> Threat:
    """The opponent's mates in one and winning captures if the side to move passed (none while in check)."""
    import chess

    if board.is_check():
        return Threat()
    probe = board.copy(stack=False)
    probe.push(chess.Move.null())
    mates = mates_in_one(probe)
    captures = [probe.san(m) for m in probe.legal_moves if probe.is_capture(m) and _wins_material(probe, m)]
    return Threat(mates=mates, captures=[c for c in captures if c not in mates])


def mates_in_one(board: chess.Board) -> list[str]:
    """The side to move's mating moves, in SAN."""
    out = []
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            out.append(board.san(move))
    return out


def _wins_material(board: chess.Board, move: chess.Move) -> bool:
    """A capture of an undefended piece, or of a piece worth more than the capturer."""
    victim = board.piece_at(move.to_square)
    taker = board.piece_at(move.from_square)
    if victim is None or taker is None:
        return False
    defended = bool(board.attackers(victim.color, move.to_square))
    return not defended or VALUES[victim.piece_type] > VALUES[taker.piece_type]


def material(board: chess.Board, color: bool) -> int:
    """Material of `color` minus the opponent's, in pawns."""
    return sum(VALUES[p.piece_type] * (1 if p.color == color else -1) for p in board.piece_map().values())


def forks_and_pins(board: chess.Board, line: EngineLine, plies: int = 5) -> list[Fact]:
    """Forks (a piece attacking two or more bigger pieces or the king) and pins to the king made by the
    side to move's own moves in the first plies of the engine line."""
    import chess

    me, out, copy = board.turn, [], board.copy(stack=False)
    for uci, san in list(zip(line.uci, line.san))[:plies]:
        move = chess.Move.from_uci(uci)
        mover = copy.turn
        copy.push(move)
        piece = copy.piece_at(move.to_square)
        if mover != me or piece is None or copy.is_checkmate():
            continue
        targets = [s for s in copy.attacks(move.to_square) if (p := copy.piece_at(s)) and p.color != me
                   and (p.piece_type == 6 or VALUES[p.piece_type] > VALUES[piece.piece_type])]
        if len(targets) >= 2 and not copy.is_attacked_by(not me, move.to_square):
            out.append(Fact("fork", f"In the main line {san} forks the " + " and the ".join(
                piece_on(copy, s) for s in targets) + "."))
        for s in copy.attacks(move.to_square):
            p = copy.piece_at(s)
            if p and p.color != me and p.piece_type not in (1, 6) and copy.is_pinned(not me, s) \
                    and copy.pin(not me, s) & chess.BB_SQUARES[move.to_square]:
                out.append(Fact("pin", f"In the main line {san} pins the {piece_on(copy, s)} to the king."))
    return out[:1]


def move_facts(board: chess.Board, line: EngineLine, threat_before: Threat) -> list[Fact]:
    """What the best move does: capture, check or mate, blocking a check, stopping a mate, attacks."""
    import chess

    move, san, me = chess.Move.from_uci(line.uci[0]), line.san[0], board.turn
    piece = board.piece_at(move.from_square)
    name = PIECE_NAMES[piece.piece_type] if piece else "piece"
    after = board.copy(stack=False)
    after.push(move)
    what = f"{side_name(me)}'s best move is {san}"
    if board.is_castling(move):
        what += ", castling " + ("kingside" if chess.square_file(move.to_square) > 4 else "queenside")
    else:
        what += f", the {name} from {chess.square_name(move.from_square)} to {chess.square_name(move.to_square)}"
    if board.is_en_passant(move):
        what += ", taking a pawn en passant"
    elif (victim := board.piece_at(move.to_square)) is not None:
        what += f", taking the {piece_on(board, move.to_square)}"
    if move.promotion:
        what += f", promoting to a {PIECE_NAMES[move.promotion]}"
    if after.is_checkmate():
        return [Fact("mate", what + ": it is checkmate.")]
    does = []
    if board.is_check():
        checkers = board.checkers()
        if piece and piece.piece_type == chess.KING:
            does.append("it moves the king out of check")
        elif move.to_square in checkers:
            does.append("it takes the checking piece")
        else:
            does.append("it blocks the check")
    if after.is_check():
        does.append("it gives check")
    attacked = [s for s in after.attacks(move.to_square) if (p := after.piece_at(s)) and p.color != me
                and p.piece_type != chess.KING and VALUES[p.piece_type] >= VALUES.get(piece.piece_type if piece else 1, 1)]
    if attacked and not does[-1:] == ["it gives check"]:
        does.append("it attacks the " + " and the ".join(piece_on(after, s) for s in attacked[:2]))
    if threat_before.mates and not mates_in_one(after):  # last: what follows a move is said of the nearest one
        does.append(f"it stops the mate {threat_before.mates[0]}")
    left = [s for s in hanging(after, me) if s not in hanging(board, me) and s != move.to_square]
    text = what + (": " + ", and ".join(does) if does else "") + "."
    facts = [Fact("best", text)]
    if left and not (line.mate and line.mate > 0):
        facts.append(Fact("best", f"It leaves the {piece_on(after, left[0])} undefended and attacked."))
    return facts


def evaluation(board: chess.Board, lines: list[EngineLine]) -> Fact:
    """The engine's score, the expected score, the main line and how far the next move is behind."""
    best = lines[0]
    side = side_name(board.turn)
    if best.mate:
        score = f"mate in {best.mate} for {side}" if best.mate > 0 else f"mate in {-best.mate} against {side}"
    else:
        score = f"{(best.cp or 0) / 100:+.2f} pawns for {side}"
    text = f"The engine rates it {score}, an expected score of {expected_text(best)}, expecting {' '.join(best.san[:6])}."
    if len(lines) > 1 and lines[1].cp is not None and best.cp is not None and best.cp - lines[1].cp >= 100:
        text += f" The next best, {lines[1].san[0]}, is {(best.cp - lines[1].cp) / 100:.1f} pawns worse."
    return Fact("eval", text)


def expected_text(line: EngineLine) -> str:
    """'50% (win 2%, draw 96%, loss 2%)': a draw counts half, so 50% is not a coin flip to win."""
    text = f"{round(100 * line.expected)}%"
    if line.wdl:
        text += " (win {:.0f}%, draw {:.0f}%, loss {:.0f}%)".format(*(100 * v for v in line.wdl))
    return text


def position_facts(board: chess.Board, lines: list[EngineLine]) -> list[Fact]:
    """Every fact about the position and the best move, most important first."""
    me = board.turn
    out: list[Fact] = []
    if board.is_check():
        out.append(Fact("in check", f"{side_name(me)} is in check from the "
                        + " and the ".join(piece_on(board, s) for s in board.checkers()) + "."))
    probe = threat(board)
    if probe.mates:
        out.append(Fact("threat", f"{side_name(not me)} threatens mate with {probe.mates[0]}."))
    elif probe.captures:
        out.append(Fact("threat", f"{side_name(not me)} threatens {probe.captures[0]}."))
    loose = hanging(board, me)
    if loose:
        out.append(Fact("hanging", "The " + " and the ".join(piece_on(board, s) for s in loose[:2])
                        + (" is" if len(loose) == 1 else " are") + " attacked and undefended."))
    if lines:
        out += move_facts(board, lines[0], probe)
        out += forks_and_pins(board, lines[0])
        out.append(evaluation(board, lines))
    name = opening_name(board)
    if name:
        out.append(Fact("opening", f"This is the {name}."))
    return sorted(out, key=lambda f: f.priority)


def why_not(board: chess.Board, tried: EngineLine, best: EngineLine) -> Fact:
    """Why the engine rejects a move: what the opponent's answer does, and how much worse it scores."""
    import chess

    san, me = tried.san[0], side_name(board.turn)
    if tried.uci[0] == best.uci[0]:
        return Fact("why", f"{san} is the engine's best move.")
    text = f"{san} is not best"
    if len(tried.uci) > 1:
        after = board.copy(stack=False)
        after.push(chess.Move.from_uci(tried.uci[0]))
        reply = chess.Move.from_uci(tried.uci[1])
        victim = after.piece_at(reply.to_square)
        after.push(reply)
        text += f": {side_name(not board.turn)} answers {tried.san[1]}"
        if after.is_checkmate():
            text += ", checkmate"
        elif victim is not None:
            text += f", taking the {PIECE_NAMES[victim.piece_type]} on {chess.square_name(reply.to_square)}"
    if tried.mate is not None and tried.mate < 0:
        text += f"; it allows mate in {-tried.mate}" if not text.endswith("checkmate") else ""
    elif tried.cp is not None and best.cp is not None:
        text += f"; it scores {(best.cp - tried.cp) / 100:.1f} pawns worse for {me} than {best.san[0]}"
    elif best.mate is not None and best.mate > 0:
        text += f"; {best.san[0]} mates in {best.mate}"
    return Fact("why", text + ".")


def phase_of(board: chess.Board) -> str:
    """The game phase, for the model's prompt."""
    return game_phase(board)
