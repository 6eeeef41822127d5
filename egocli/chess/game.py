"""Following a game from a known position: the candidates for each frame are the previous position and its
legal moves, scored with the classifier's per-square probabilities (occupancy and colour above all, the piece
type only weakly), decoded with a small beam over the whole sequence so a late or missed frame, a hand over
the board or a capture does not derail it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.chess.squares import CLASSES

BEAM = 8
"""Hypotheses (games) kept after each frame."""
MOVE_COST = 12.0
"""Log-likelihood (nats) a move must gain over the frames after it before it is believed (the margin over
"no move"): with FRAME_CAP, a move must be seen in two frames at least."""
FRAME_CAP = 6.0
"""Most evidence (nats) one frame can give against any position kept: frames that no legal game explains (a
hand, a flicker, pieces knocked over, another board) cannot buy moves there and back for as long as they last.
On the Scholar's Mate video, with 1-10 frames of the start or the final position spliced into its opening and
middle game (30 sequences, default and self-calibrated model), BEAM 8 with (FRAME_CAP, MOVE_COST) at (4, 8-10),
(5, 12) or (6, 10-16) reads every sequence's game exactly; without the cap (MOVE_COST 10), 16 of 30 went wrong.
The unspliced video reads right for TYPE_WEIGHT 0.3-0.5 and FLOOR 0.02-0.05 at any MOVE_COST of 6-16 tried."""
TYPE_WEIGHT = 0.3
"""Weight of the piece type given the colour: from above, kings, queens, bishops and pawns all show round tops,
so the type is read badly where empty/white/black is read well."""
FLOOR = 0.02
"""Probabilities are clipped to at least this much, so one occluded or misread square costs at most ~4 nats."""
_KIND = np.array([0] + [1] * 6 + [2] * 6)
"""Class index -> 0 empty, 1 white, 2 black."""


def frame_table(probs: np.ndarray) -> np.ndarray:
    """(64, 13) log-score of each class at each square (board order) for one frame's (8, 8, 13) probabilities:
    log P(empty/white/black) + TYPE_WEIGHT * log P(type | colour), each clipped at FLOOR."""
    p = probs.reshape(64, len(CLASSES))
    kind = np.stack([p[:, 0], p[:, 1:7].sum(axis=1), p[:, 7:].sum(axis=1)], axis=1)
    by_kind = np.log(np.clip(kind, FLOOR, 1.0))[:, _KIND]
    within = np.log(np.clip(p / np.maximum(kind[:, _KIND], 1e-12), FLOOR, 1.0))
    return by_kind + TYPE_WEIGHT * within


class _Node:
    """A position of the game tree, its class grid and (once asked for) its legal successors."""

    def __init__(self, board: Any) -> None:
        from egocli.chess.recognise import fen_to_grid

        self.board = board
        self.key = " ".join(board.fen().split()[:4])
        self.grid = fen_to_grid(board.board_fen()).reshape(64)
        self._children: list[tuple[Any, _Node]] | None = None
        self._grids: np.ndarray | None = None

    def children(self) -> tuple[list[tuple[Any, _Node]], np.ndarray]:
        """[(move, node)] for every legal move, and their grids stacked (n, 64)."""
        if self._children is None:
            self._children = []
            for move in self.board.legal_moves:
                after = self.board.copy(stack=False)
                after.push(move)
                self._children.append((move, _Node(after)))
            self._grids = np.array([n.grid for _, n in self._children], int).reshape(-1, 64)
        assert self._grids is not None, "set with the children"
        return self._children, self._grids


@dataclass(frozen=True)
class _Step:
    """One move on a hypothesis' path (a linked list back to the start)."""

    previous: _Step | None
    seconds: float
    move: Any


@dataclass
class _Hypothesis:
    score: float
    node: _Node
    path: _Step | None = None


@dataclass(frozen=True)
class TrackedMove:
    """A move of the tracked game."""

    seconds: float
    """Time of the first frame that shows it."""
    san: str
    """The move in SAN."""
    fen: str
    """The position after it (full FEN: the side to move follows from the moves)."""


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
    frames: int = field(default=0, init=False)
    """Frames taken so far."""
    _beam: list[_Hypothesis] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        import chess

        self.start = self.start.copy() if self.start is not None else chess.Board()
        self._beam = [_Hypothesis(0.0, _Node(self.start.copy(stack=False)))]

    def add(self, seconds: float, probs: np.ndarray) -> None:
        """Take one frame's (8, 8, 13) probabilities (board order): each kept game either stands still or
        plays one legal move; the best `beam` distinct positions are kept."""
        table = frame_table(probs)
        squares = np.arange(64)
        fits = [(float(table[squares, hyp.node.grid].sum()), table[squares, hyp.node.children()[1]].sum(axis=1))
                for hyp in self._beam]
        floor = max(max([stay, *moves]) for stay, moves in fits) - self.frame_cap
        best: dict[str, _Hypothesis] = {}
        for hyp, (stay, moves) in zip(self._beam, fits):
            self._offer(best, _Hypothesis(hyp.score + max(stay, floor), hyp.node, hyp.path))
            scores = hyp.score - self.move_cost + np.maximum(moves, floor)
            children = hyp.node.children()[0]
            for k in np.argsort(-scores)[:self.beam]:
                move, node = children[k]
                self._offer(best, _Hypothesis(float(scores[k]), node, _Step(hyp.path, seconds, move)))
        kept = sorted(best.values(), key=lambda h: -h.score)[:self.beam]
        top = kept[0].score
        for hyp in kept:  # keep the numbers small over long videos
            hyp.score -= top
        self._beam = kept
        self.frames += 1

    @staticmethod
    def _offer(best: dict[str, _Hypothesis], hyp: _Hypothesis) -> None:
        held = best.get(hyp.node.key)
        if held is None or held.score < hyp.score:
            best[hyp.node.key] = hyp

    @property
    def board(self) -> Any:
        """The most likely current position (a chess.Board with the moves seen on its stack)."""
        board = self.start.copy()
        for step in self._steps():
            board.push(step.move)
        return board

    def moves(self) -> list[TrackedMove]:
        """The most likely game so far, move by move."""
        board, out = self.start.copy(), []
        for step in self._steps():
            san = board.san(step.move)
            board.push(step.move)
            out.append(TrackedMove(seconds=step.seconds, san=san, fen=board.fen()))
        return out

    def _steps(self) -> list[_Step]:
        steps, step = [], self._beam[0].path
        while step is not None:
            steps.append(step)
            step = step.previous
        return steps[::-1]
