"""Calibration to the user's own set: fine-tune the square classifier on photos (or frames) of a known
position, keep it in the egocli home and use it by default afterwards."""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from egocli.chess import squares as sq
from egocli.chess.board import BoardLocation, NoBoardError, locate_board
from egocli.core.errors import InputError, UsageError

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
MODEL_NAME, META_NAME = "squares-calibrated.onnx", "calibration.json"
"""Files in <egocli home>/chess/: the calibrated classifier and what it was calibrated on."""
MAX_PHOTOS = 8
MAX_OCCUPANCY_DISAGREE = 8
"""A photo whose occupied/empty squares (as the packaged model reads them) differ from the position's on
more squares than this does not show that position (another position, another board, a bad crop)."""
MIN_FIT = 62
"""Squares of 64 each photo must read right after fine-tuning; fewer means the photos disagree with each
other or with the position (e.g. two boards mixed), and nothing is saved."""
STEPS, BATCH, PEAK_LR, ANCHOR = 90, 64, 1.5e-3, 1e-2
"""Fine-tuning: optimiser steps, crops per step, peak learning rate, L2-SP pull back to the packaged weights."""
FROZEN_LAYERS = 16
"""The first four convolution blocks stay as trained, only the last block and the output layer learn: on two
photos of one set, training more forgot the packaged set badly (kings and queens read as rooks), and the
frozen part needs no backward pass (about a third of the CPU time per step)."""


@dataclass(frozen=True)
class Sample:
    """One calibration photo or frame, its board located and its labels in warp (camera) order."""

    name: str
    """File name or frame label, for messages."""
    image: np.ndarray
    """The BGR image."""
    location: BoardLocation
    """Where the board is."""
    labels: np.ndarray
    """(64,) class indices in warp order (row-major from the top-left of the warped board)."""


@dataclass(frozen=True)
class CalibrationReport:
    """What a calibration did."""

    photos: list[str]
    """The photos (or frames) calibrated on."""
    position: str
    """FEN placement they show."""
    squares_before: float
    """Share of their squares the packaged model read right."""
    squares_after: float
    """Share the calibrated model reads right (on the same photos: a fit check, not a test score)."""
    seconds: float
    """Wall time of the fine-tuning and export."""
    model: str
    """Path of the calibrated classifier."""

    def to_json(self) -> dict[str, Any]:
        """All fields as JSON-ready data."""
        return asdict(self)

    def text(self) -> str:
        """One paragraph for the terminal."""
        return (f"calibrated on {len(self.photos)} photo(s) in {self.seconds:.0f} s: squares read right "
                f"{100 * self.squares_before:.1f}% before, {100 * self.squares_after:.1f}% after.\n"
                f"saved to {self.model}; used by default from now on (`egocli chess --model default` to "
                "bypass it, `egocli chess calibrate --reset` to remove it)")


def model_dir(home: Path) -> Path:
    """Where the calibrated classifier lives."""
    return home / "chess"


def active_model(home: Path, choice: str = "auto") -> Path | None:
    """The classifier to use: 'auto' (the calibrated one if any), 'default' (None: packaged), 'calibrated',
    or a path to an .onnx file."""
    calibrated = model_dir(home) / MODEL_NAME
    if choice == "auto":
        return calibrated if calibrated.is_file() else None
    if choice == "default":
        return None
    if choice == "calibrated":
        if not calibrated.is_file():
            raise UsageError("--model calibrated: no calibration yet (run `egocli chess calibrate PHOTO...`)")
        return calibrated
    path = Path(choice).expanduser()
    if not path.is_file():
        raise UsageError(f"--model: {choice}: no such file (use auto, default, calibrated or an .onnx path)")
    return path


def reset(home: Path) -> bool:
    """Remove the calibration; True if there was one."""
    found = False
    for name in (MODEL_NAME, META_NAME):
        path = model_dir(home) / name
        if path.is_file():
            path.unlink()
            found = True
    return found


def position_placement(position: str | None) -> str:
    """The placement of a legal --position FEN (default: the start position); UsageError otherwise."""
    if position is None:
        return START
    from egocli.chess.legal import parse_fen

    try:
        return parse_fen(position).board_fen()
    except InputError as ex:
        raise UsageError(f"--position: {ex}") from None


def calibrate(paths: list[str], position: str | None, home: Path) -> CalibrationReport:
    """Fine-tune on the photos of one position and save the model in home; the previous model stays
    untouched on any error (no board, illegal FEN, photos that disagree with the position or each other)."""
    from egocli.perception.image import read_image

    placement = position_placement(position)
    if not paths:
        raise UsageError("give one or two photos of your board (from where you sit), or --reset")
    if len(paths) > MAX_PHOTOS:
        raise UsageError(f"at most {MAX_PHOTOS} photos (one or two are enough)")
    images = []
    for path in paths:
        image = read_image(path)  # the one decoder: refuses a decompression bomb from its header
        images.append((Path(path).name, image))
    start = time.perf_counter()
    samples = prepare(images, placement)
    onnx, before, after = finetune_to_file(samples, model_dir(home), MODEL_NAME)
    report = CalibrationReport(photos=[s.name for s in samples], position=placement, squares_before=before,
                               squares_after=after, seconds=round(time.perf_counter() - start, 1), model=str(onnx))
    _write_atomic(model_dir(home) / META_NAME, json.dumps(report.to_json(), indent=2).encode())
    return report


def prepare(images: list[tuple[str, np.ndarray]], placement: str, model: Path | None = None) -> list[Sample]:
    """Locate the board in each image and align the position's labels to the camera; InputError naming the
    image when no board is found or the image does not show the position."""
    from egocli.chess.recognise import fen_to_grid

    grid = fen_to_grid(placement)
    samples = []
    for name, image in images:
        try:
            location = locate_board(image)
        except NoBoardError:
            raise InputError(f"{name}: no chessboard found (the whole board, from above or the side)") from None
        warped = sq.warp_board(image, location)
        probs = sq.classify_squares(sq.square_crops(warped), model or sq.MODEL_PATH)
        labels = align_labels(grid, probs, sq.light_on_even(warped))
        wrong = int(((probs[:, 0] < 0.5) != (labels > 0)).sum())
        if wrong > MAX_OCCUPANCY_DISAGREE:
            raise InputError(f"{name}: {wrong} of 64 squares disagree with the position (occupied vs empty): "
                             "is it this position, on one board, fully in view?")
        samples.append(Sample(name=name, image=image, location=location, labels=labels))
    return samples


def align_labels(grid: np.ndarray, probs: np.ndarray, light_even: bool) -> np.ndarray:
    """The board-order label grid turned to the camera's warp order: of the two turns the square colours
    allow, the one where the classifier's empty/white/black reading fits the labels best."""
    from egocli.chess.squarefit import colour_fit

    best, best_fit = None, -np.inf
    for turns in sq.candidate_turns(light_even):
        labels = np.rot90(grid, -turns).reshape(64)
        fit = colour_fit(probs, labels)
        if fit > best_fit:
            best, best_fit = labels.copy(), fit
    assert best is not None, "candidate_turns gives two turns"
    return best


def finetune_to_file(samples: list[Sample], folder: Path, name: str, seed: int = 0) -> tuple[Path, float, float]:
    """Fine-tune the packaged weights on the samples and write the ONNX to folder/name atomically;
    (path, share right before, share right after). InputError (nothing written) when a sample still
    does not fit afterwards."""
    from egocli.chess import training

    net = training.load_net()
    import torch

    torch.set_num_threads(max(1, min(2, os.cpu_count() or 1)))
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    before = _reads(net, samples)
    finetune(net, samples, rng)
    after = _reads(net, samples)
    for sample, right in zip(samples, after):
        if right < MIN_FIT:
            raise InputError(f"{sample.name}: only {right} of 64 squares fit the position even after calibration: "
                             "the photos disagree with the position or with each other (one board, one position)")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        staged = Path(tmp) / name
        training.export_onnx(net, staged)
        os.replace(staged, folder / name)
    return folder / name, sum(before) / (64 * len(samples)), sum(after) / (64 * len(samples))


def finetune(net: Any, samples: list[Sample], rng: np.random.Generator, steps: int = STEPS) -> None:
    """A few augmented passes over the samples' squares: the first blocks and batch norm frozen, the rest
    pulled towards the start weights."""
    import torch

    from egocli.chess import training

    net.eval()  # batch-norm statistics and dropout stay as trained: two photos are too few to re-estimate them
    for layer in list(net)[:FROZEN_LAYERS]:
        layer.requires_grad_(False)
    anchor = {k: v.detach().clone() for k, v in net.named_parameters()}
    counts = np.bincount(np.concatenate([s.labels for s in samples]), minlength=len(sq.CLASSES))
    class_weights = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=PEAK_LR, weight_decay=0.0)
    pool: list[tuple[np.ndarray, ...]] = []
    for step in range(steps):
        while sum(len(p[1]) for p in pool) < BATCH:
            sample = samples[int(rng.integers(len(samples)))]
            pool.append(training.augment(sample.image, sample.location, sample.labels, rng, empty_keep=0.5))
        xs, ys, ws = (np.concatenate([p[k] for p in pool]) for k in range(3))
        order = rng.permutation(len(xs))[:BATCH]
        pool = []
        lr = training.learning_rate(PEAK_LR, step / steps)
        training.train_step(net, opt, lr, (xs[order], ys[order], ws[order].astype(np.float32)), class_weights,
                            anchor=anchor, anchor_weight=ANCHOR)


def _reads(net: Any, samples: list[Sample]) -> list[int]:
    """Squares of each sample the network reads right (un-augmented)."""
    import torch

    out = []
    with torch.no_grad():
        for s in samples:
            crops = sq.square_crops(sq.warp_board(s.image, s.location))
            pred = net(torch.from_numpy(sq.to_tensor(crops))).argmax(1).numpy()
            out.append(int((pred == s.labels).sum()))
    return out


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_suffix(path.suffix + ".tmp")
    staged.write_bytes(data)
    os.replace(staged, path)
