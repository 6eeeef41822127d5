"""Self-calibration of a video (or live session) that starts from the initial position: when the model is
unsure of its first stable frames, fine-tune on them (labelled by the start position) before reading the game."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from egocli.chess import squares as sq
from egocli.chess.board import NoBoardError, locate_board
from egocli.chess.calibrate import MAX_OCCUPANCY_DISAGREE, START, Sample, align_labels, finetune_to_file
from egocli.chess.types import ChessOptions
from egocli.core.errors import InputError, ModelError

log = logging.getLogger(__name__)

PROBE_FRAMES = 25
"""Sampled frames looked at, at most, for the first located one (5 s at 5 frames a second)."""
USE_FRAMES = 5
"""The first stable frames calibrated on, at most (a second at 5 frames a second: before any move)."""
START_SEEN = 2
"""Located start-position frames needed before a video is taken to start from the initial position."""
CONFIDENT = 0.9
"""Mean probability of the start position's labels above which (with every frame read exactly) the model
is trusted as it is."""


@dataclass
class SelfCalibration:
    """What self-calibration found and did."""

    frames: int
    """Frames calibrated on."""
    confidence_before: float
    """Mean probability the model gave the start position's labels on them."""
    confidence_after: float
    """The same for the calibrated model."""
    seconds: float
    """Wall time of the fine-tuning."""
    model: Path | None
    """The calibrated classifier (a temporary file for this run)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready fields (without the temporary path)."""
        return {"frames": self.frames, "confidence_before": round(self.confidence_before, 3),
                "confidence_after": round(self.confidence_after, 3), "seconds": round(self.seconds, 1)}


def start_frames(frames: Iterable[tuple[float, np.ndarray]], model: Path | None) -> list[Sample]:
    """The first located frames, up to the first that no longer shows the start position's occupied and
    empty squares (a hand, a move), labelled by the start position."""
    from egocli.chess.recognise import fen_to_grid

    grid = fen_to_grid(START)
    samples: list[Sample] = []
    for n, (seconds, frame) in enumerate(frames):
        if n >= PROBE_FRAMES or len(samples) >= USE_FRAMES:
            break
        try:
            location = locate_board(frame)
        except NoBoardError:
            if samples:
                break
            continue
        warped = sq.warp_board(frame, location)
        probs = sq.classify_squares(sq.square_crops(warped), model or sq.MODEL_PATH)
        labels = align_labels(grid, probs, sq.light_on_even(warped))
        if int(((probs[:, 0] < 0.5) != (labels > 0)).sum()) > MAX_OCCUPANCY_DISAGREE:
            break
        samples.append(Sample(name=f"frame at {seconds:.1f} s", image=frame, location=location, labels=labels))
    return samples


def confidence(samples: list[Sample], model: Path | None) -> tuple[float, bool]:
    """(mean probability the model gives the labels, True if it reads every sample exactly)."""
    probs = [sq.classify_squares(sq.square_crops(sq.warp_board(s.image, s.location)), model or sq.MODEL_PATH)
             for s in samples]
    mean = float(np.mean([p[np.arange(64), s.labels].mean() for p, s in zip(probs, samples)]))
    return mean, all((p.argmax(1) == s.labels).all() for p, s in zip(probs, samples))


def calibrate_from_start(frames: Iterable[tuple[float, np.ndarray]], options: ChessOptions,
                         folder: Path) -> SelfCalibration | None:
    """Fine-tune on the first start-position frames (the model written to folder) when the model is unsure
    of them; None when the video does not start from the initial position or the model reads it surely."""
    return calibrate_on(start_frames(frames, options.model), options, folder)


def calibrate_on(samples: list[Sample], options: ChessOptions, folder: Path) -> SelfCalibration | None:
    """Fine-tune on start-position frames found by start_frames (the model written to folder) when the model
    is unsure of them; None when there are fewer than START_SEEN or the model reads them surely."""
    if len(samples) < START_SEEN:
        return None
    before, exact = confidence(samples, options.model)
    if exact and before >= CONFIDENT:
        return None
    picked = samples
    began = time.perf_counter()
    try:
        model, _, _ = finetune_to_file(picked, folder, "squares-video.onnx")
    except (InputError, ModelError) as ex:  # frames that disagree after all, or no torch: read with the model as is
        log.warning("self-calibration skipped: %s", ex)
        return None
    after, _ = confidence(samples, model)
    return SelfCalibration(frames=len(picked), confidence_before=before, confidence_after=after,
                           seconds=time.perf_counter() - began, model=model)
