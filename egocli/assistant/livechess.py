"""The chess co-pilot of a live session: the board in the newest frame, analysed on request."""

from __future__ import annotations

from typing import Any

from egocli.assistant.services import LiveServices
from egocli.perception.image import Frame, to_bgr


def analyse_frame(services: LiveServices, frame: Frame) -> dict[str, Any]:
    """Analyse the chess board in a camera frame (answer thread): the result's JSON form."""
    from egocli.chess.analyse import ChessOptions, analyse_image
    from egocli.chess.calibrate import active_model

    model = active_model(services.settings.home)  # the user's calibration, as `egocli chess --model auto`
    result = analyse_image(to_bgr(frame), ChessOptions(seconds=0.3, model=model), services.llm)
    return result.to_json()
