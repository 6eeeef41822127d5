"""The square classifier's network, augmentation and training step (torch), shared by
scripts/train_squares.py and `egocli chess calibrate`. torch is imported only here, and only when called."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from egocli.chess import squares as sq
from egocli.chess.board import BoardLocation
from egocli.core.errors import ModelError

WEIGHTS_PATH = Path(__file__).with_name("squares.pt")
"""The packaged classifier's torch weights (state dict), the start of every calibration; squares.onnx is
their export."""
EMPTY_KEEP = 0.3
"""Share of the easy empty squares (nothing just in front) used per pass; they are weighted up to match."""


def build_net():  # noqa: ANN201
    """The compact CNN: five conv blocks, a coarse 3x2 spatial pool, one linear layer (~200k weights)."""
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list:
        layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
        return layers + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(3, 16, True), *block(16, 32, True), *block(32, 64, True), *block(64, 96, True),
                         *block(96, 128, False), nn.AdaptiveAvgPool2d((3, 2)), nn.Flatten(), nn.Dropout(0.25),
                         nn.Linear(768, len(sq.CLASSES)))


def load_net(path: Path = WEIGHTS_PATH):  # noqa: ANN201
    """The network with the weights at path (the packaged ones by default), in eval mode; ModelError
    without torch."""
    try:
        import torch
    except ImportError as ex:
        raise ModelError("chess calibration needs torch (pip install torch, the CPU build is enough)") from ex
    if not path.is_file():
        raise ModelError(f"chess calibration: classifier weights not found at {path}")
    net = build_net()
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.eval()


def pick(y: np.ndarray, rng: np.random.Generator, empty_keep: float = EMPTY_KEEP) -> tuple[np.ndarray, np.ndarray]:
    """(crop indices, loss weights) for one board: every piece, every empty square just behind a piece
    (the piece's top overlaps it: the hard empties), and a random share of the other empties."""
    grid = y.reshape(8, 8)
    behind = np.zeros((8, 8), bool)
    behind[:-1] = grid[1:] > 0
    behind[:-2] |= grid[2:] > 0
    easy = ((grid == 0) & ~behind).reshape(64)
    keep = ~easy | (rng.random(64) < empty_keep)
    weights = np.where(easy, 1 / empty_keep, 1.0)
    return np.flatnonzero(keep), weights[keep]


def jitter_crop(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One crop with a small random shift, scale and tilt, blur or low resolution, and a mirror."""
    import cv2

    h, w = crop.shape[:2]
    m = np.asarray(cv2.getRotationMatrix2D((w / 2, h * 0.7), rng.uniform(-4, 4), rng.uniform(0.92, 1.08)), np.float64)
    m[:, 2] += rng.normal(0, 0.04 * sq.CELL, 2)
    crop = cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REFLECT)
    roll = rng.random()
    if roll < 0.2:
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.5, 1.5))
    elif roll < 0.4:
        f = rng.uniform(0.35, 0.7)
        small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        crop = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return crop[:, ::-1] if rng.random() < 0.5 else crop


def augment(image: np.ndarray, loc: BoardLocation, y: np.ndarray, rng: np.random.Generator,
            empty_keep: float = EMPTY_KEEP) -> tuple[np.ndarray, ...]:
    """(crops, labels, weights) of one photo warped with jittered corners and photometric noise."""
    side = float(np.linalg.norm(loc.corners[0] - loc.corners[1])) / 8
    warped = sq.warp_board(image, loc, jitter=rng.normal(0, 0.07 * side, (4, 2)))
    idx, weights = pick(y, rng, empty_keep)
    crops = sq.square_crops(warped)[idx].astype(np.float32)
    n = len(crops)
    gain = rng.uniform(0.75, 1.25) * rng.uniform(0.8, 1.2, (n, 1, 1, 1))
    crops = crops * gain + rng.uniform(-30, 30) + rng.uniform(-15, 15, (n, 1, 1, 1))
    crops = crops * rng.uniform(0.85, 1.15, (1, 1, 1, 3)) * rng.uniform(0.93, 1.07, (n, 1, 1, 3))
    crops = np.clip(crops + rng.normal(0, rng.uniform(0, 6), crops.shape), 0, 255).astype(np.uint8)
    crops = np.stack([jitter_crop(c, rng) for c in crops])
    return crops, y[idx], weights


def learning_rate(peak: float, progress: float) -> float:
    """Linear warm-up over the first 5% of training, then a cosine decay to zero."""
    if progress < 0.05:
        return peak * (0.1 + 0.9 * progress / 0.05)
    return peak * 0.5 * (1 + math.cos(math.pi * (progress - 0.05) / 0.95))


def train_step(net: Any, opt: Any, lr: float, batch: tuple[np.ndarray, ...], class_weights: Any,
               anchor: dict[str, Any] | None = None, anchor_weight: float = 0.0) -> float:
    """One optimiser step on (crops, labels, sample weights) at learning rate lr; the batch loss. With an
    anchor (a state dict), the squared distance to it is added (L2-SP: keeps what the network knew)."""
    import torch

    for group in opt.param_groups:
        group["lr"] = lr
    x = torch.from_numpy(sq.to_tensor(batch[0]))
    y = torch.from_numpy(batch[1]).long()
    w = torch.from_numpy(batch[2]) * class_weights[y]
    loss = (torch.nn.functional.cross_entropy(net(x), y, reduction="none", label_smoothing=0.05) * w).sum() / w.sum()
    if anchor is not None and anchor_weight:
        loss = loss + anchor_weight * sum(((p - anchor[name]) ** 2).sum() for name, p in net.named_parameters()
                                          if p.requires_grad)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def export_onnx(net: Any, out: Path) -> None:
    """Write the network as ONNX with a dynamic batch axis (the format recognition runs)."""
    import torch

    net.eval()
    dummy = torch.zeros(64, 3, sq.CROP_H, sq.CROP_W)
    torch.onnx.export(net, (dummy,), str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
