"""Video -> committed positions through the vote buffer -> moves between them (legal-move matching)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.chess.board import BoardLocation, NoBoardError, locate_board
from egocli.chess.vote import VoteBuffer, match_move
from egocli.errors import InputError

if TYPE_CHECKING:
    from egocli.chess.analyse import Analysis, ChessOptions, VideoAnalysis


def sample_frames(path: Path, fps: float) -> Iterator[tuple[float, np.ndarray]]:
    """(seconds, BGR frame) at about fps frames per second; InputError if nothing can be read."""
    import cv2

    if not path.is_file():
        raise InputError(f"{path}: no such file")
    capture = cv2.VideoCapture(str(path))
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


def analyse_video(path: Path, options: ChessOptions, analyse_board: Callable[[object], Analysis]) -> VideoAnalysis:
    """Committed positions and moves along a video, then the analysis of the last legal position."""
    from egocli.chess.analyse import VideoAnalysis

    tracker = PositionTracker(options.frames, options.tau, options.to_move == "white", options.view)
    read = located = 0
    for seconds, frame in sample_frames(path, options.fps):
        read += 1
        located += tracker.add(seconds, frame)
    final = analyse_board(tracker.board) if tracker.board is not None else None
    return VideoAnalysis(positions=tracker.positions, final=final, frames_read=read, frames_located=located)


class PositionTracker:
    """Feeds frames through the vote buffer and records each newly committed position."""

    def __init__(self, n: int, tau: float, white_first: bool, view: str) -> None:
        self.buffer = VoteBuffer(n, tau)
        self.white_first, self.view = white_first, view
        self.location: BoardLocation | None = None
        self.turns: int | None = None
        self.board = None
        self.positions: list[dict[str, object]] = []

    def add(self, seconds: float, frame: np.ndarray) -> bool:
        """Process one frame; True if a board was located in it."""
        from egocli.chess.recognise import classify_located

        found = True
        try:
            self.location = locate_board(frame)
        except NoBoardError:
            found = False
        if self.location is None:
            return False
        view = self.view if self.turns is None else {0: "white", 2: "black"}.get(self.turns, self.view)
        seen = classify_located(frame, self.location, view)
        self.turns = self.turns if self.turns is not None else seen.turns
        committed = self.buffer.push(seen.probs.argmax(axis=2).reshape(64))
        if self.buffer.complete:
            self._commit(seconds, committed, seen.probs)
        return found

    def _commit(self, seconds: float, committed: np.ndarray, probs: np.ndarray) -> None:
        import chess

        from egocli.chess.recognise import grid_to_placement

        placement = grid_to_placement(committed.reshape(8, 8))
        if self.board is not None and placement == self.board.board_fen():
            return
        move = match_move(self.board, placement, probs) if self.board is not None else None
        if move is not None:
            san = self.board.san(move)
            self.board.push(move)
        else:
            san = None
            candidate = chess.Board(placement + (" w" if self.white_first else " b") + " - - 0 1")
            if self.board is not None and not candidate.is_valid():
                return
            self.board = candidate if candidate.is_valid() else None
        self.positions.append({"time": round(seconds, 2), "fen": self.board.fen() if self.board else placement,
                               "move": san})
