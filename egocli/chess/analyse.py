"""The chess co-pilot use-case: photo, video or FEN -> legal position -> engine lines -> explanation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
import logging
from pathlib import Path
from typing import Any

import numpy as np

from egocli.chess.engine import EngineLine, UciEngine
from egocli.errors import InputError, ModelError, UsageError
from egocli.models.base import TextModel

VIDEO_SUFFIXES = {".avi", ".mp4", ".mov", ".mkv", ".webm", ".m4v"}


@dataclass(frozen=True)
class ChessOptions:
    """How to read the board and how hard to think."""

    to_move: str = "white"
    """Side to move in a photo ('white' or 'black'); a --fen carries its own."""
    view: str = "auto"
    """Which side the camera sits on: 'white', 'black' or 'auto'."""
    multipv: int = 3
    """How many engine lines."""
    seconds: float = 0.5
    """Engine thinking time per position."""
    explain: bool = True
    """Ask the LLM coach for an explanation (else a template)."""
    frames: int = 10
    """Vote buffer length N (video)."""
    tau: float = 0.6
    """Vote threshold: share of the last N frames a class needs to be committed (video)."""
    fps: float = 5.0
    """Frames per second sampled from a video."""


@dataclass
class Analysis:
    """Everything the co-pilot found for one position."""

    fen: str
    """The legal position analysed."""
    seen: str | None = None
    """Piece placement as recognised, before legality repair (None for --fen)."""
    view: str | None = None
    """Camera side as decided ('white', 'black', 'left', 'right'), None for --fen."""
    changed: list[str] = field(default_factory=list)
    """Squares changed by legality repair."""
    unsure: list[str] = field(default_factory=list)
    """Squares the classifier could not read confidently."""
    lines: list[EngineLine] = field(default_factory=list)
    """Engine lines, best first."""
    explanation: str | None = None
    """The coach's explanation of the best move."""
    explanation_source: str | None = None
    """'llm' or 'template'."""
    status: str = ""
    """'checkmate', 'stalemate' or '' when the game goes on."""

    def to_json(self) -> dict[str, Any]:
        """All fields as JSON-ready data."""
        data = asdict(self)
        for line in data["lines"]:
            line["win_percent"] = round(100 * line.pop("win"), 1)
        return data


@dataclass
class VideoAnalysis:
    """Positions committed by the vote buffer along a video, the moves between them, and the last one analysed."""

    positions: list[dict[str, Any]]
    """{time, fen, move} per committed position (move in SAN, None for the first or an unmatched jump)."""
    final: Analysis | None
    """Analysis of the last committed position (None if it was never legal)."""
    frames_read: int
    """Frames sampled from the video."""
    frames_located: int
    """Sampled frames in which a board was found."""

    def to_json(self) -> dict[str, Any]:
        """All fields as JSON-ready data."""
        return {"positions": self.positions, "final": self.final.to_json() if self.final else None,
                "frames_read": self.frames_read, "frames_located": self.frames_located}


ModelLoader = Callable[[], TextModel | None]


def analyse(source: str | None, fen: str | None, options: ChessOptions, stdin: bytes | None = None,
            coach_model: ModelLoader | None = None) -> Analysis | VideoAnalysis:
    """Analyse a FEN, a photo path, a video path, or '-' (image bytes from stdin)."""
    _check(options)
    if fen is not None:
        if source is not None:
            raise UsageError("give either an image/video or --fen, not both")
        return analyse_board(parse_fen(fen), options, coach_model)
    if source is None:
        raise UsageError("give an image or video path, '-' for stdin, or --fen FEN")
    if source != "-" and Path(source).suffix.lower() in VIDEO_SUFFIXES:
        from egocli.chess.video import analyse_video

        return analyse_video(Path(source), options, lambda board: analyse_board(board, options, coach_model))
    return analyse_image(read_image(source, stdin), options, coach_model)


def _check(options: ChessOptions) -> None:
    if options.to_move not in ("white", "black"):
        raise UsageError("--to-move must be white or black")
    if options.view not in ("white", "black", "auto"):
        raise UsageError("--view must be white, black or auto")
    if not 1 <= options.multipv <= 10:
        raise UsageError("--multipv must be between 1 and 10")
    if not 0.01 <= options.seconds <= 60:
        raise UsageError("--time must be between 0.01 and 60 seconds")


def parse_fen(fen: str):  # noqa: ANN201
    """A legal chess.Board from a FEN (a bare placement means White to move); InputError otherwise."""
    import chess

    from egocli.chess.legal import illegal_reasons

    text = fen.strip()
    if len(text.split()) == 1:
        text += " w - - 0 1"
    try:
        board = chess.Board(text)
    except ValueError as ex:
        raise InputError(f"invalid FEN: {ex}") from None
    if not board.is_valid():
        raise InputError(f"illegal position in FEN: {', '.join(illegal_reasons(board)) or 'not a legal position'}")
    return board


def read_image(source: str, stdin: bytes | None) -> np.ndarray:
    """Decode a photo from a path or from stdin bytes ('-')."""
    import cv2

    if source == "-":
        data = np.frombuffer(stdin or b"", np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise InputError("stdin: not a readable image")
        return image
    path = Path(source)
    if not path.is_file():
        raise InputError(f"{source}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InputError(f"{source}: not a readable image or video")
    return image


VIEW_NAMES = {0: "white", 1: "left", 2: "black", 3: "right"}


def analyse_image(image: np.ndarray, options: ChessOptions, coach_model: ModelLoader | None = None) -> Analysis:
    """Recognise the board in a photo, repair it to a legal position and analyse it."""
    from egocli.chess.legal import repair
    from egocli.chess.recognise import recognise

    seen = recognise(image, options.view)
    fixed = repair(seen.probs, white_to_move=options.to_move == "white")
    board = parse_fen(fixed.fen)
    result = analyse_board(board, options, coach_model)
    result.seen, result.view = seen.placement, VIEW_NAMES[seen.turns]
    result.changed, result.unsure = fixed.changed, fixed.unsure
    return result


def analyse_board(board, options: ChessOptions, coach_model: ModelLoader | None = None) -> Analysis:  # noqa: ANN001
    """Engine lines and an explanation for a legal chess.Board."""
    from egocli.chess.coach import explain

    result = Analysis(fen=board.fen())
    if board.is_checkmate() or board.is_stalemate():
        result.status = "checkmate" if board.is_checkmate() else "stalemate"
        return result
    with UciEngine() as engine:
        result.lines = engine.analyse(board, options.multipv, options.seconds)
    if result.lines:
        model = _load_coach(coach_model) if options.explain else None
        coached = explain(board, result.lines, model)
        result.explanation, result.explanation_source = coached.text, coached.source
    return result


def _load_coach(loader: ModelLoader | None) -> TextModel | None:
    """The LLM for the coach, or None (templated explanation) when it cannot be loaded."""
    if loader is None:
        return None
    try:
        return loader()
    except ModelError as ex:
        logging.getLogger(__name__).warning("coach LLM unavailable, using the template: %s", ex)
        return None
