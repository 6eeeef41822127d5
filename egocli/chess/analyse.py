"""The chess co-pilot use-case: photo, video or FEN -> legal position -> engine lines -> explanation."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from egocli.chess.engine import open_engine
from egocli.chess.legal import parse_fen, read_fen
from egocli.chess.types import Analysis, ChessOptions, VideoAnalysis
from egocli.core.errors import InputError, ModelError, UsageError

if TYPE_CHECKING:  # annotations only: a FEN's template answer loads neither numpy nor the models
    import numpy as np

    from egocli.models.base import TextModel

__all__ = ["Analysis", "ChessOptions", "UnreadablePosition", "VideoAnalysis", "analyse", "analyse_board",
           "analyse_image", "parse_fen", "read_image"]

VIDEO_SUFFIXES = {".avi", ".mp4", ".mov", ".mkv", ".webm", ".m4v"}


class UnreadablePosition(InputError):
    """A board was read but the position seen cannot be analysed; `analysis` keeps fen_seen and the reason."""

    def __init__(self, analysis: Analysis) -> None:
        super().__init__(analysis.error or "the position cannot be analysed")
        self.analysis = analysis


ModelLoader = Callable[[], "TextModel | None"]


def analyse(source: str | None, fen: str | None, options: ChessOptions, stdin: bytes | None = None,
            coach_model: ModelLoader | None = None, why: str | None = None) -> Analysis | VideoAnalysis:
    """Analyse a FEN, a photo path, a video path, or '-' (image bytes from stdin); `why`: a move (SAN or
    UCI) the user wonders about, explained against the best one (a FEN or a photo)."""
    _check(options)
    if fen is not None:
        if source is not None:
            raise UsageError("give either an image/video or --fen, not both")
        board, how, reason = read_fen(fen, options.turn)
        return analyse_board(board, options, coach_model, how, reason, why=why)
    if source is None:
        raise UsageError("give an image or video path, '-' for stdin, or --fen FEN")
    if source != "-" and Path(source).suffix.lower() in VIDEO_SUFFIXES:
        if why:
            raise UsageError("--why takes a FEN or a photo, not a video")
        from egocli.chess.video import analyse_video

        return analyse_video(Path(source), options,
                             lambda board, how, why: analyse_board(board, options, coach_model, how, why))
    return analyse_image(read_image(source, stdin), options, coach_model, why)


def _check(options: ChessOptions) -> None:
    if options.turn not in (None, "white", "black"):
        raise UsageError("--turn must be white or black")
    if options.view not in ("white", "black", "auto"):
        raise UsageError("--view must be white, black or auto")
    if not 1 <= options.multipv <= 10:
        raise UsageError("--multipv must be between 1 and 10")
    if not 0.01 <= options.seconds <= 60:
        raise UsageError("--time must be between 0.01 and 60 seconds")


def read_image(source: str, stdin: bytes | None) -> np.ndarray:
    """Decode a photo from a path or from stdin bytes ('-') with the one image decoder (egocli.perception)."""
    from egocli.perception.image import read_image as read_file
    from egocli.perception.image import to_bgr

    if source != "-":
        return read_file(source)
    try:
        return to_bgr(stdin or b"")
    except ValueError as ex:
        raise InputError("stdin: not a readable image") from ex


VIEW_NAMES = {0: "white", 1: "left", 2: "black", 3: "right"}


def analyse_image(image: np.ndarray, options: ChessOptions, coach_model: ModelLoader | None = None,
                  why: str | None = None) -> Analysis:
    """Recognise the board in a photo, repair it to a legal position and analyse it; UnreadablePosition
    (with the FEN seen) when no legal position is near what was seen."""
    from egocli.chess.legal import PositionError, repair
    from egocli.chess.recognise import recognise

    seen = recognise(image, options.view, options.model)
    view = VIEW_NAMES[seen.turns]
    try:
        fixed = repair(seen.probs, options.turn)
    except PositionError as ex:
        raise UnreadablePosition(unreadable(ex.placement, options.turn, str(ex), view)) from None
    result = analyse_board(parse_fen(fixed.fen), options, coach_model, fixed.turn_source, fixed.turn_reason, why)
    result.fen_seen = f"{seen.placement} {fixed.fen.split()[1]} - - 0 1"
    result.view, result.changed, result.unsure = view, fixed.changed, fixed.unsure
    return result


def unreadable(placement: str, turn: str | None, error: str, view: str | None = None) -> Analysis:
    """The analysis of a position that was seen but cannot be analysed: what was seen and why."""
    side = turn or "white"
    return Analysis(fen=None, fen_seen=f"{placement} {side[0]} - - 0 1", turn=side,
                    turn_source="given" if turn else "assumed", view=view, error=error)


def why_move(board, text: str):  # noqa: ANN001, ANN201
    """The legal move `--why` names (SAN or UCI); UsageError (exit 2) when it is not one."""
    import chess

    try:
        return board.parse_san(text)
    except ValueError:
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            move = None
        if move is not None and move in board.legal_moves:
            return move
    side = "White" if board.turn else "Black"
    raise UsageError(f"--why: {text!r} is not a legal move for {side} here")


def analyse_board(board, options: ChessOptions, coach_model: ModelLoader | None = None,  # noqa: ANN001
                  turn_source: str = "fen", turn_reason: str | None = None, why: str | None = None) -> Analysis:
    """Engine lines and an explanation for a legal chess.Board (and for the move `why`, if given)."""
    from egocli.chess.coach import explain
    from egocli.chess.phase import game_phase

    result = Analysis(fen=board.fen(), turn="white" if board.turn else "black", turn_source=turn_source,
                      turn_reason=turn_reason, phase=game_phase(board))
    if board.is_checkmate() or board.is_stalemate():
        result.status = "checkmate" if board.is_checkmate() else "stalemate"
        return result
    from concurrent.futures import ThreadPoolExecutor

    asked = why_move(board, why) if why else None
    with ThreadPoolExecutor(max_workers=1) as pool:  # the model loads while the engine thinks
        loading = pool.submit(_load_coach, coach_model if options.explain else None)
        with open_engine() as engine:
            result.lines = engine.analyse(board, options.multipv, options.seconds)
            tried = engine.analyse(board, 1, options.seconds, only=[asked]) if asked else []
        model = loading.result()
    if result.lines:
        coached = explain(board, result.lines, model, attempts=1, why=tried[0] if tried else None)
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
