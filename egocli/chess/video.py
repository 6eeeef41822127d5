"""Video -> committed positions through the vote buffer -> moves between them (legal-move matching)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.chess.board import BoardLocation, NoBoardError, locate_board
from egocli.chess.recognise import Recognition
from egocli.chess.types import Analysis, ChessOptions, VideoAnalysis
from egocli.chess.vote import VoteBuffer, match_move
from egocli.core.errors import InputError

if TYPE_CHECKING:
    import chess

    from egocli.chess.game import TrackedMove

VIEWS = {0: "white", 1: "left", 2: "black", 3: "right"}
"""Quarter turns from the camera view to board order -> the view that fixes them."""
MOVE_GAIN = 5.0
"""Log-likelihood (nats) by which a legal move must explain a frame better than the position standing still."""
MOVE_FRAMES = 3
"""Consecutive sampled frames that must agree on the same move before it is played."""
BoardAnalyser = Callable[[object, str, str], Analysis]
"""(chess.Board, turn source, turn reason) -> Analysis."""


def sample_frames(path: Path, fps: float) -> Iterator[tuple[float, np.ndarray]]:
    """(seconds, BGR frame) at about fps frames per second; InputError if nothing can be read."""
    import cv2

    from egocli.perception.image import check_pixels

    if not path.is_file():
        raise InputError(f"{path}: no such file")
    capture = cv2.VideoCapture(str(path))
    check_pixels(int(capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    native = capture.get(cv2.CAP_PROP_FPS) or 25.0
    step = max(1, round(native / fps))
    index, read = 0, 0
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            read += 1
            if index % step == 0:
                yield index / native, frame
            index += 1
    finally:
        capture.release()
    if read == 0:
        raise InputError(f"{path}: no readable frames")


def analyse_video(path: Path, options: ChessOptions, analyse_board: BoardAnalyser) -> VideoAnalysis:
    """Positions and moves along a video, then the analysis of the last position. A video whose first frames
    show the initial position is followed as a game (legal moves only, see game.GameTracker), after
    calibrating on those frames when the model is unsure of them (options.self_calibrate); any other video is
    read frame by frame through the vote buffer."""
    import tempfile
    from dataclasses import replace

    from egocli.chess.selfcal import START_SEEN, calibrate_on, start_frames

    with tempfile.TemporaryDirectory(prefix="egocli-chess-") as tmp:
        start = start_frames(_located(sample_frames(path, options.fps)), options.model)
        calibration = calibrate_on(start, options, Path(tmp)) if options.self_calibrate else None
        if calibration is not None:
            options = replace(options, model=calibration.model)
        if len(start) >= START_SEEN and options.follow_game:
            result = _follow_game(path, options, analyse_board)
        else:
            result = _read_frames(path, options, analyse_board, FRAMES_REASON if len(start) < START_SEEN
                                  else "read frame by frame, as asked")
    result.calibration = calibration.to_json() if calibration else None
    return result


def _located(frames: Iterator[tuple[float, np.ndarray]]) -> Iterator[tuple[float, np.ndarray]]:
    """The first PROBE_FRAMES frames less those where no board is found: one frame of the first few whose
    board search fails (noise, a hand coming in) no longer ends the look for the start position (a turned
    board at 360x640 lost it in two of its first three frames and was read frame by frame)."""
    from egocli.chess.selfcal import PROBE_FRAMES

    for n, (seconds, frame) in enumerate(frames):
        if n >= PROBE_FRAMES:
            return
        try:
            locate_board(frame)
        except NoBoardError:
            continue
        yield seconds, frame


def _follow_game(path: Path, options: ChessOptions, analyse_board: BoardAnalyser) -> VideoAnalysis:
    """Follow the game from the initial position through every sampled frame (the classifier's reading and
    what each square looks like: the tracker fits the two to this set on the first frames)."""
    import chess

    from egocli.chess.game import GameTracker
    from egocli.chess.looks import square_looks

    reader, game = BoardReader(options, start=chess.STARTING_BOARD_FEN), GameTracker()
    read = located = 0
    for seconds, frame in sample_frames(path, options.fps):
        read += 1
        seen, found = reader.read(frame)
        located += found
        if seen is not None:
            game.add(seconds, seen.probs, square_looks(frame, seen.location, seen.turns))
    moves = game.moves()
    positions: list[dict[str, object]] = [{"time": 0.0, "fen": game.start.fen(), "move": None}]
    positions += [{"time": round(m.seconds, 2), "fen": m.fen, "move": m.san, "uncertain": m.uncertain,
                   "alternatives": list(m.alternatives), "margin": m.margin} for m in moves]
    return VideoAnalysis(positions=positions, final=analyse_board(game.board, "moves", moves_reason(moves)),
                         frames_read=read, frames_located=located, reading="game", reading_reason=GAME_REASON)


def moves_reason(moves: list[TrackedMove]) -> str:
    """How the side to move follows from the moves read, in words ('7 moves seen, the last Qxf7#; 1 uncertain')."""
    if not moves:
        return "the initial position: White moves first"
    unsure = sum(m.uncertain for m in moves)
    return (f"{len(moves)} move{'s' * (len(moves) > 1)} seen, the last {moves[-1].san}"
            + (f"; {unsure} uncertain (see the moves)" if unsure else ""))


GAME_REASON = "the first frames show the initial position: followed as a game, legal moves only"
FRAMES_REASON = "the first frames do not show the initial position: read frame by frame"


def _read_frames(path: Path, options: ChessOptions, analyse_board: BoardAnalyser, why: str) -> VideoAnalysis:
    """Read every sampled frame on its own, committing positions through the vote buffer."""
    tracker = PositionTracker(options)
    read = located = 0
    for seconds, frame in sample_frames(path, options.fps):
        read += 1
        located += tracker.add(seconds, frame)
    return VideoAnalysis(positions=tracker.positions, final=tracker.final(analyse_board), frames_read=read,
                         frames_located=located, reading="frames", reading_reason=why)


class BoardReader:
    """Locates the board in each frame (keeping the tracked board through a window found elsewhere for a few
    frames) and classifies its squares, the camera side fixed by the first frame read: when the first frame
    is known to show a position (`start`), the side of the two the square colours allow that fits it best."""

    def __init__(self, options: ChessOptions, start: str | None = None) -> None:
        self.view, self.model = options.view, options.model
        self.start = start
        self.location: BoardLocation | None = None
        self.elsewhere: BoardLocation | None = None
        self.held = 0
        self.turns: int | None = None

    def read(self, frame: np.ndarray) -> tuple[Recognition | None, bool]:
        """(what was seen on the tracked board, None before any board was found; True if found in this frame)."""
        from egocli.chess.recognise import classify_located

        try:
            located = locate_board(frame)
        except NoBoardError:
            located = None
        self._track(located)
        if self.location is None:
            return None, False
        view = self.view if self.turns is None else VIEWS[self.turns]  # the camera does not turn mid-game
        seen = classify_located(frame, self.location, view, self.model)
        if self.turns is None and self.start is not None and view == "auto":
            other = VIEWS[(seen.turns + 2) % 4]  # the same square colours, the camera on the other side
            if _start_fit(np.rot90(seen.probs, 2), self.start) > _start_fit(seen.probs, self.start):
                seen = classify_located(frame, self.location, other, self.model)
        self.turns = self.turns if self.turns is not None else seen.turns
        return seen, located is not None

    def _track(self, located: BoardLocation | None) -> None:
        """Take the board found when it is where the tracked one is (the camera drifts, the search jitters); a
        board found elsewhere (a window a square off under a hand, a piece over the edge, a queen in a corner)
        is taken only once it has stayed there more than HOLD_FRAMES frames in a row: then the camera moved."""
        if located is None:
            return
        if self.location is None or same_board(self.location, located):
            self.location, self.elsewhere, self.held = located, None, 0
            return
        same = self.elsewhere is not None and same_board(self.elsewhere, located)
        self.elsewhere, self.held = located, self.held + 1 if same else 1
        if self.held > HOLD_FRAMES:
            self.location, self.elsewhere, self.held = located, None, 0


def _start_fit(probs: np.ndarray, placement: str) -> float:
    """How well (8, 8, 13) board-order probabilities read a placement's empty/white/black squares."""
    from egocli.chess.recognise import fen_to_grid
    from egocli.chess.squarefit import colour_fit

    return colour_fit(probs, fen_to_grid(placement))


class PositionTracker:
    """Feeds frames through the vote buffer and records each newly committed position and the move to it."""

    def __init__(self, options: ChessOptions) -> None:
        self.buffer = VoteBuffer(options.frames, options.tau)
        self.turn = options.turn
        self.reader = BoardReader(options)
        self.board: chess.Board | None = None
        self.placement: str | None = None
        self.turn_source, self.turn_reason = "assumed", ""
        self.moves = 0
        self.pending: tuple[chess.Move | None, int] = (None, 0)
        self.positions: list[dict[str, object]] = []

    @property
    def location(self) -> BoardLocation | None:
        """The tracked board."""
        return self.reader.location

    def start_from_initial(self) -> None:
        """Begin from the initial position (White to move)."""
        import chess

        self.board, self.placement = chess.Board(), chess.STARTING_BOARD_FEN
        self.turn_source, self.turn_reason = "moves", "the initial position: White moves first"
        self.positions.append({"time": 0.0, "fen": self.board.fen(), "move": None})

    def add(self, seconds: float, frame: np.ndarray) -> bool:
        """Process one frame; True if a board was located in it."""
        seen, found = self.reader.read(frame)
        if seen is None:
            return False
        if self.board is not None:
            self._follow(seconds, seen.probs)
            return found
        committed = self.buffer.push(seen.probs.argmax(axis=2).reshape(64))
        if self.buffer.complete:
            self._commit(seconds, committed, seen.probs)
        return found

    def _follow(self, seconds: float, probs: np.ndarray) -> None:
        """Once a legal position is known, only its legal moves are candidates: a move is played when it
        explains MOVE_FRAMES frames in a row better than no move by MOVE_GAIN (squares the classifier
        misreads the same way in both cancel out)."""
        board = self.board
        assert board is not None, "following starts from a known position"
        move = likely_move(board, probs)
        self.pending = (move, self.pending[1] + 1) if move is not None and move == self.pending[0] else (move, 1)
        if move is None or self.pending[1] < MOVE_FRAMES:
            return
        san = board.san(move)
        board.push(move)
        self.moves += 1
        self.turn_source, self.turn_reason = "moves", f"{self.moves} move{'s' * (self.moves > 1)} seen, the last {san}"
        self.placement, self.pending = board.board_fen(), (None, 0)
        self.positions.append({"time": round(seconds, 2), "fen": board.fen(), "move": san})

    def _commit(self, seconds: float, committed: np.ndarray, probs: np.ndarray) -> None:
        from egocli.chess.recognise import grid_to_placement

        placement = grid_to_placement(committed.reshape(8, 8))
        if placement == self.placement or (self.board is not None and placement == self.board.board_fen()):
            return
        board = self.board
        move = match_move(board, placement, probs) if board is not None else None
        san: str | None
        if board is not None and move is not None:
            san = board.san(move)
            board.push(move)
            self.moves += 1
            self.turn_source = "moves"
            self.turn_reason = f"{self.moves} move{'s' * (self.moves > 1)} seen, the last {san}"
        elif not self._jump(placement):
            return
        else:
            san = None
        self.placement = placement
        self.positions.append({"time": round(seconds, 2), "fen": self.board.fen() if self.board else placement,
                               "move": san})

    def _jump(self, placement: str) -> bool:
        """Take a placement no legal move explains; False to ignore it (an illegal flicker mid-game)."""
        from egocli.chess.legal import board_from_placement, turn_decision

        candidate = board_from_placement(placement)
        if self.board is None:
            decided = turn_decision(candidate, self.turn)
        else:
            decided = turn_decision(candidate, None)
            before = "white" if self.board.turn else "black"
            if decided is None:
                return False
            if decided[1] == "assumed":
                decided = (before == "white", "assumed", f"either side could be to move: {before} kept from "
                           "before the jump")
        if decided is None:
            return True
        candidate.turn = decided[0]
        self.board, self.turn_source, self.turn_reason = candidate, decided[1], decided[2]
        self.moves = 0
        return True

    def final(self, analyse_board: BoardAnalyser) -> Analysis | None:
        """The analysis of the last committed position, or what was seen and why it cannot be analysed."""
        if self.board is not None:
            return analyse_board(self.board, self.turn_source, self.turn_reason)
        if self.placement is None:
            return None
        import chess

        from egocli.chess.legal import position_reasons

        why = ", ".join(position_reasons(chess.Board(self.placement + " w - - 0 1")))
        side = self.turn or "white"
        return Analysis(fen=None, fen_seen=f"{self.placement} {side[0]} - - 0 1", turn=side,
                        turn_source="given" if self.turn else "assumed",
                        error=f"the position cannot be analysed: {why}")


HOLD_FRAMES = 10
"""Sampled frames in a row (2 s at 5 a second) a board found elsewhere must stay there to be taken."""
SHIFT_TOLERANCE = 0.35
"""Squares by which a board's corners may differ from the tracked board's and still be the same board (a hand
over a corner moves them by up to 0.3 in the Scholar's Mate video; a window a square off moves them by 1)."""


def same_board(tracked: BoardLocation, found: BoardLocation) -> bool:
    """True when every corner of the board found lies within SHIFT_TOLERANCE squares of the tracked board's
    (measured on the tracked board's lattice)."""
    corners = np.c_[found.corners.astype(np.float64), np.ones(4)] @ np.linalg.inv(tracked.homography).T
    with np.errstate(divide="ignore", invalid="ignore"):
        lattice = corners[:, :2] / corners[:, 2:3]
    offsets = lattice - np.array([[0, 0], [8, 0], [8, 8], [0, 8]], np.float64)
    return bool(np.isfinite(offsets).all() and np.abs(offsets).max() <= SHIFT_TOLERANCE)


def likely_move(board: chess.Board, probs: np.ndarray) -> chess.Move | None:
    """The legal move whose resulting position explains the frame's probabilities best, if it beats the
    current position by MOVE_GAIN; None otherwise."""
    from egocli.chess.recognise import fen_to_grid

    logp = np.log(np.clip(probs.reshape(64, -1), 1e-6, 1.0))
    current = fen_to_grid(board.board_fen()).reshape(64)
    best: chess.Move | None = None
    best_gain = MOVE_GAIN
    for move in board.legal_moves:
        board.push(move)
        after = fen_to_grid(board.board_fen()).reshape(64)
        board.pop()
        changed = np.flatnonzero(after != current)
        gain = float((logp[changed, after[changed]] - logp[changed, current[changed]]).sum())
        if gain > best_gain:
            best, best_gain = move, gain
    return best
