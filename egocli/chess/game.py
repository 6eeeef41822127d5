"""Following a game from a known position: the candidates for each frame are the previous position and its
legal moves, scored with what the frame says about each square (squarefit.py: occupancy and colour above all,
re-read for this set on the first frames, the piece type weakly), decoded with a beam over the whole
sequence so a late or missed frame, a hand over the board or a capture does not derail it. A move whose
frames fit another legal move almost as well (a piece type the classifier cannot tell apart, a promotion) is
flagged as uncertain with those moves, never silently guessed; the frames after it count too, so a later
move that only one of them allows settles it, and a later move that the other line plays otherwise is flagged
too. A video whose first frames' colours are read badly is checked with a wider margin."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.chess.squarefit import Evidence, fit_evidence
from egocli.chess.squares import CLASSES

BEAM = 32
"""Hypotheses (games) kept after each frame (8 lost the right game where five bishop moves fit alike and
each one's next bishop moves crowded it out: tests/chess/test_game_uncertain.py)."""
BRANCH = 8
"""Moves tried from each kept hypothesis per frame (the best-fitting ones)."""
MOVE_COST = 12.0
"""Log-likelihood (nats) a move must gain over the frames after it before it is believed (the margin over
"no move"): with FRAME_CAP, a move must be seen in two frames at least."""
FRAME_CAP = 6.0
"""Most evidence (nats) one frame can give against any position kept: frames that no legal game explains (a
hand, a flicker, pieces knocked over, another board) cannot buy moves there and back for as long as they last.
On the Scholar's Mate video, with 1-10 frames of the start or the final position spliced into its opening and
middle game (30 sequences, default and self-calibrated model), BEAM 8 with (FRAME_CAP, MOVE_COST) at (4, 8-10),
(5, 12) or (6, 10-16) reads every sequence's game exactly; without the cap (MOVE_COST 10), 16 of 30 went wrong
(tests/chess/test_game.py keeps three of them, read exactly with BEAM 32 too)."""
UNCERTAIN = 6.0
"""Nats by which a move's frames must fit it better than any other legal move there (and what follows) for it
to be taken as read; below this it is flagged uncertain, with the moves that come that close."""
COLOUR_TRUSTED = 0.85
"""Share of the first frames' squares whose colour (empty/white/black) is read right (Evidence.colour_reads)
below which moves are checked with UNCERTAIN_POOR: on the seed-2 test videos the close-up, where the board
fills the frame, reads 0.84 and guessed 6 moves with UNCERTAIN (Ne2 read as c3, 8.6 nats behind it); the
Scholar's Mate video 0.81 (its moves stand many frames: margins of 36 nats and more); the others 0.86-1.0."""
UNCERTAIN_POOR = 10.0
"""UNCERTAIN for a video whose colours are read badly (see COLOUR_TRUSTED)."""
LOOKAHEAD = 2
"""Moves after a move whose frames also count for it (a bishop on e2 would have blocked the queen's Qh5)."""
ALTERNATIVES = 8
"""Most alternatives listed for an uncertain move."""
TYPE_TRUSTED = 0.8
"""Share of the first frames' men whose type the classifier reads right (evidence.Evidence.type_reads) below
which a promotion's piece is not taken from it: every promotion is flagged, with every promotion the pawn could make."""
START_FRAMES = 5
"""First frames the evidence is fitted on, at most (they must show the start position's occupied squares)."""
START_MISFIT = 8
"""Squares on which a first frame's occupancy may differ from the start position and still be fitted on."""


class _Node:
    """A position of the game tree, its class grid and (once asked for) its legal successors."""

    def __init__(self, board: Any, grid: np.ndarray | None = None) -> None:
        from egocli.chess.recognise import fen_to_grid

        self.board = board
        self.grid = fen_to_grid(board.board_fen()).reshape(64) if grid is None else grid
        self.key = (self.grid.tobytes(), board.turn, board.castling_rights, board.ep_square)
        self._children: list[tuple[Any, _Node]] | None = None
        self._grids: np.ndarray | None = None

    def children(self) -> tuple[list[tuple[Any, _Node]], np.ndarray]:
        """[(move, node)] for every legal move, and their grids stacked (n, 64)."""
        if self._children is None:
            self._children = []
            for move in self.board.legal_moves:
                grid = _moved_grid(self.board, self.grid, move)
                after = self.board.copy(stack=False)
                after.push(move)
                self._children.append((move, _Node(after, grid)))
            self._grids = np.array([n.grid for _, n in self._children], int).reshape(-1, 64)
        assert self._grids is not None, "set with the children"
        return self._children, self._grids


def _index(square: int) -> int:
    """Board-order index (a8 first) of a python-chess square (a1 = 0)."""
    return (7 - square // 8) * 8 + square % 8


def _moved_grid(board: Any, grid: np.ndarray, move: Any) -> np.ndarray:
    """The class grid after a legal move (castling moves the rook too, en passant takes the pawn beside)."""
    import chess

    out = grid.copy()
    piece = out[_index(move.from_square)]
    if move.promotion:
        piece = CLASSES.index(chess.Piece(move.promotion, board.turn).symbol())
    if board.is_castling(move):
        rank = move.from_square // 8
        rook_from, rook_to = (7, 5) if move.to_square % 8 > move.from_square % 8 else (0, 3)
        out[_index(rank * 8 + rook_to)] = out[_index(rank * 8 + rook_from)]
        out[_index(rank * 8 + rook_from)] = 0
    elif board.is_en_passant(move):
        out[_index(move.from_square // 8 * 8 + move.to_square % 8)] = 0
    out[_index(move.from_square)] = 0
    out[_index(move.to_square)] = piece
    return out


@dataclass(frozen=True)
class _Step:
    """One move on a hypothesis' path (a linked list back to the start)."""

    previous: _Step | None
    frame: int
    move: Any
    node: _Node


@dataclass
class _Hypothesis:
    score: float
    node: _Node
    path: _Step | None = None
    moved: bool = False


FirstMove = Callable[[Any], bool]
"""Which first moves a constrained decoding may play."""


def decode(node: _Node, tables: list[np.ndarray], offset: int = 0, first: FirstMove | None = None,
           must_move: bool = False, beam: int = BEAM, move_cost: float = MOVE_COST,
           frame_cap: float = FRAME_CAP) -> _Hypothesis:
    """The best game from node over the frames' (64, 13) log-score tables (steps numbered from offset); with
    `first`, its first move (if any) must pass it; with must_move, it plays one at least (score -inf if the
    beam kept none that did)."""
    squares = np.arange(64)
    hyps = [_Hypothesis(0.0, node)]
    for k, table in enumerate(tables):
        fits = [(float(table[squares, h.node.grid].sum()), table[squares, h.node.children()[1]].sum(axis=1))
                for h in hyps]
        floor = max(max([stay, *moves]) for stay, moves in fits) - frame_cap
        best: dict[tuple[Any, bool], _Hypothesis] = {}
        for hyp, (stay, moves) in zip(hyps, fits):
            _offer(best, _Hypothesis(hyp.score + max(stay, floor), hyp.node, hyp.path, hyp.moved))
            scores = hyp.score - move_cost + np.maximum(moves, floor)
            children = hyp.node.children()[0]
            if first is not None and not hyp.moved:
                scores = np.where([first(m) for m, _ in children], scores, -np.inf)
            for j in np.argsort(-scores)[:BRANCH]:
                if np.isfinite(scores[j]):
                    move, child = children[j]
                    _offer(best, _Hypothesis(float(scores[j]), child, _Step(hyp.path, offset + k, move, child), True))
        hyps = sorted(best.values(), key=lambda h: -h.score)[:beam]
    if must_move:
        return next((h for h in hyps if h.moved), _Hypothesis(-np.inf, node))
    return hyps[0]


def _offer(best: dict[tuple[Any, bool], _Hypothesis], hyp: _Hypothesis) -> None:
    key = (hyp.node.key, hyp.moved)
    held = best.get(key)
    if held is None or held.score < hyp.score:
        best[key] = hyp


def _steps(hyp: _Hypothesis) -> list[_Step]:
    steps, step = [], hyp.path
    while step is not None:
        steps.append(step)
        step = step.previous
    return steps[::-1]


def _promotions(board: Any, move: Any) -> list[str]:
    """SAN of the pawn's other legal promotions: on the same square first, then on the others it can reach (a
    capture to the other side: the squares' colours may be misread as well as the piece), queen first."""
    import chess

    order = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
    others = [m for m in board.legal_moves if m.from_square == move.from_square and m.promotion and m != move]
    others.sort(key=lambda m: (m.to_square != move.to_square, order.index(m.promotion)))
    return [board.san(m) for m in others]


@dataclass(frozen=True)
class TrackedMove:
    """A move of the tracked game."""

    seconds: float
    """Time of the first frame that shows it."""
    san: str
    """The move in SAN (the most likely one when uncertain)."""
    fen: str
    """The position after it (full FEN: the side to move follows from the moves)."""
    uncertain: bool = False
    """True when the frames fit another legal move almost as well (see UNCERTAIN): not to be taken as read."""
    alternatives: tuple[str, ...] = ()
    """The other moves that fit almost as well, best first: SAN from the same position, then the moves that an
    alternative line to an earlier uncertain move plays here instead (SAN on that line)."""
    margin: float | None = None
    """Nats by which the frames fit this move better than the best other move (or no move) there, or this
    line better than an earlier move's alternative line that plays another move here, whichever is less."""


@dataclass
class GameTracker:
    """Beam decoding of a game from a known start position over frames of per-square probabilities."""

    start: Any = None
    """The position the video starts from (a chess.Board; None: the initial position)."""
    beam: int = BEAM
    """Hypotheses kept after each frame."""
    move_cost: float = MOVE_COST
    """Nats a move costs (see MOVE_COST)."""
    frame_cap: float = FRAME_CAP
    """Most nats one frame gives against a kept position (see FRAME_CAP)."""
    fit: bool = True
    """Fit the evidence to this video on its first frames (see squarefit.py); False: the classifier as is."""
    seconds: list[float] = field(default_factory=list, init=False)
    """Time of each frame taken."""
    _probs: list[np.ndarray] = field(default_factory=list, init=False, repr=False)
    _looks: list[np.ndarray | None] = field(default_factory=list, init=False, repr=False)
    _done: tuple[int, list[TrackedMove]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        import chess

        self.start = self.start.copy() if self.start is not None else chess.Board()

    @property
    def frames(self) -> int:
        """Frames taken so far."""
        return len(self.seconds)

    def add(self, seconds: float, probs: np.ndarray, looks: np.ndarray | None = None) -> None:
        """Take one frame's (8, 8, 13) probabilities (board order) and, if known, what its squares look like
        (looks.square_looks); the game is decoded when asked for."""
        self.seconds.append(seconds)
        self._probs.append(np.asarray(probs, np.float32))
        self._looks.append(looks)

    @property
    def evidence(self) -> Evidence:
        """The evidence model: fitted on the first frames that show the start position (at least two)."""
        from egocli.chess.recognise import fen_to_grid

        if not self.fit:
            return Evidence()
        grid = fen_to_grid(self.start.board_fen()).reshape(64)
        frames = []
        for probs, looks in zip(self._probs[:START_FRAMES], self._looks):
            if int(((probs.reshape(64, -1)[:, 0] < 0.5) != (grid > 0)).sum()) > START_MISFIT:
                break
            frames.append((probs, looks))
        return fit_evidence(frames, grid) if len(frames) >= 2 else Evidence()

    @property
    def board(self) -> Any:
        """The most likely current position (a chess.Board with the moves seen on its stack)."""
        board = self.start.copy()
        for move in self.moves():
            board.push_san(move.san)
        return board

    def moves(self) -> list[TrackedMove]:
        """The most likely game so far, move by move, each checked against the other moves there."""
        if self._done is not None and self._done[0] == self.frames:
            return self._done[1]
        evidence = self.evidence
        tables = [evidence.table(p, looks) for p, looks in zip(self._probs, self._looks)]
        root = _Node(self.start.copy(stack=False))
        steps = _steps(self._decode(root, tables, 0, None))
        out: list[TrackedMove] = []
        poor = (evidence.colour_reads if evidence.colour_reads is not None else 1.0) < COLOUR_TRUSTED
        board, carried, limit = self.start.copy(), _Carried(), UNCERTAIN_POOR if poor else UNCERTAIN
        for k, step in enumerate(steps):
            before, begin = (steps[k - 1].node, steps[k - 1].frame + 1) if k else (root, 0)
            end = steps[k + LOOKAHEAD + 1].frame if k + LOOKAHEAD + 1 < len(steps) else len(tables)
            check = self._check(before, tables[begin:end], begin, step.move, limit)
            san = board.san(step.move)
            alternatives, margin = check.alternatives, check.margin
            typed = bool(step.move.promotion) and (evidence.type_reads or 0.0) < TYPE_TRUSTED
            if typed:  # the four pieces look alike to a classifier that misreads this set's types
                alternatives += tuple(s for s in _promotions(before.board, step.move) if s not in alternatives)
                alternatives = alternatives[:ALTERNATIVES]
            later, gap = carried.take(k, san)
            alternatives += tuple(s for s in later if _bare(s) not in map(_bare, alternatives))
            margin = min(margin, gap)
            carried.add(k, board, steps[k:], check.lines)
            board.push(step.move)
            out.append(TrackedMove(seconds=self.seconds[step.frame], san=san, fen=board.fen(),
                                   uncertain=bool(margin < limit or typed), alternatives=alternatives,
                                   margin=round(float(np.clip(margin, -999.0, 999.0)), 1)))
        self._done = (self.frames, out)
        return out

    def _decode(self, node: _Node, tables: list[np.ndarray], offset: int, first: FirstMove | None,
                must_move: bool = False) -> _Hypothesis:
        return decode(node, tables, offset, first, must_move, self.beam, self.move_cost, self.frame_cap)

    def _check(self, before: _Node, tables: list[np.ndarray], offset: int, move: Any,
               limit: float = UNCERTAIN) -> _Check:
        """How well `move` and what follows fit against every other first move from `before` (or none), the
        other first moves within `limit` nats listed."""
        chosen = self._decode(before, tables, offset, lambda m: m == move, must_move=True).score
        excluded = {move}
        alternatives: list[str] = []
        lines: list[tuple[float, list[_Step]]] = []
        margin: float | None = None
        moved = False  # once "no move" came within the limit, the other moves are still listed
        while len(alternatives) < ALTERNATIVES:
            other = self._decode(before, tables, offset, lambda m: m not in excluded, must_move=moved)
            gap = chosen - other.score
            margin = gap if margin is None else margin
            steps = _steps(other)
            if gap >= limit:
                break
            if not steps:
                if moved:
                    break
                moved = True
                continue
            alternatives.append(before.board.san(steps[0].move))
            lines.append((gap, steps))
            excluded.add(steps[0].move)
        assert margin is not None, "the loop runs once at least"
        return _Check(margin, tuple(alternatives), lines)


@dataclass(frozen=True)
class _Check:
    """A move checked against the other first moves from the same position."""

    margin: float
    """Nats by which the move's line fits better than the best line starting otherwise (or with no move)."""
    alternatives: tuple[str, ...]
    """The first moves of the lines within the limit (SAN), best first."""
    lines: list[tuple[float, list[_Step]]]
    """Those lines: (nats the move's line fits better, their steps)."""


@dataclass
class _Carried:
    """Uncertainty carried forward: a later move of an alternative line that differs from the chosen line's
    (Nf6 or Nh6 fit alike; after Nf6 the queen takes on f7, after Nh6 on h6) is an alternative to it too."""

    later: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    """Move index -> [(SAN of the other line's move there, nats the chosen line fits better)]."""

    def add(self, k: int, board: Any, chosen: list[_Step], lines: list[tuple[float, list[_Step]]]) -> None:
        """Carry the alternative lines of move k (played from `board`) over its next LOOKAHEAD moves."""
        for gap, steps in lines:
            other, mine = board.copy(stack=False), board.copy(stack=False)
            for j, step in enumerate(steps[:LOOKAHEAD + 1]):
                san = other.san(step.move)
                if j and (j >= len(chosen) or _bare(san) != _bare(mine.san(chosen[j].move))):
                    self.later.setdefault(k + j, []).append((san, gap))
                other.push(step.move)
                if j < len(chosen):
                    mine.push(chosen[j].move)

    def take(self, k: int, san: str) -> tuple[tuple[str, ...], float]:
        """(the carried alternatives to move k that differ from `san`, the smallest gap; inf if none)."""
        found = [(s, gap) for s, gap in self.later.pop(k, []) if _bare(s) != _bare(san)]
        unique = tuple({_bare(s): s for s, _ in found[::-1]}.values())[::-1]
        return unique, min((gap for _, gap in found), default=float("inf"))


def _bare(san: str) -> str:
    """A move without its check sign (one line's mate is another's check)."""
    return san.rstrip("+#")
