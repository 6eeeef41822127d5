"""Train egocli's 13-class chess-square classifier and export it to egocli/chess/squares.onnx.

Data (read-only, never copied into the repo): ../shared/data/chess/photos, 81 phone photos
of one physical board with FEN labels (afka2d/chesscog grey_background_dataset, MIT; see its
README). The photos' names are sorted and every 4th one starting at index 1 (20 photos) is the
validation split, never trained on: `python scripts/train_squares.py --list-split` prints it.
The webcam photos (other boards) are not trained on either; bench/chess.py reports on both.

Each training photo is located with egocli's own board finder (no hand corners), the label
grid is aligned to the camera view (square colours give 0/180 vs 90/270 degrees; dark/bright
pixels where the label puts black/white pieces pick the turn), and every epoch re-warps each
photo with jittered corners and random light and colour, then shifts, scales, tilts, blurs or
down-samples and mirrors each crop (a mirrored piece is the same piece, and a knight seen from
Black's side is a mirrored knight, so the few photos taken from Black's side need no special
treatment: labels are in the camera's order). Every piece and every empty square just behind a
piece (whose top overlaps it) is used each epoch, plus 30% of the other empty squares, weighted up.
The learning rate warms up, then follows a cosine to zero.

Reproducible on CPU: fixed seeds, one torch thread, 60 epochs in about 19 minutes on one core of a
shared 2-core machine (validation: 99.6% of squares, 17/20 boards; the committed squares.onnx).
    python scripts/train_squares.py [--epochs 60] [--out egocli/chess/squares.onnx]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from egocli.chess import squares as sq  # noqa: E402
from egocli.chess.board import locate_board  # noqa: E402
from egocli.chess.recognise import fen_to_grid  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "chess" / "photos"
SEED = 20240601
BATCH = 64
EMPTY_KEEP = 0.3
"""Share of the easy empty squares (nothing just in front) used per epoch; they are weighted up to match."""


def split(files: list[str]) -> tuple[list[str], list[str]]:
    """(train, validation) file names: validation is sorted index % 4 == 1."""
    ordered = sorted(files)
    return [f for i, f in enumerate(ordered) if i % 4 != 1], [f for i, f in enumerate(ordered) if i % 4 == 1]


def label_turns(warped: np.ndarray, grid: np.ndarray) -> int:
    """Quarter turns from warp to board order for a labelled photo (training only)."""
    crops = sq.square_crops(warped)
    hsv = cv2.cvtColor(crops.reshape(-1, sq.CROP_W, 3), cv2.COLOR_BGR2HSV).reshape(crops.shape)
    c = sq.CELL
    body = hsv[:, c * 5 // 8:c * 7 // 4, c * 7 // 16:c * 17 // 16]  # the lower body of a piece on the square
    dark = (body[..., 2] < 60).mean(axis=(1, 2)).reshape(8, 8)
    bright = ((body[..., 1] < 50) & (body[..., 2] > 150)).mean(axis=(1, 2)).reshape(8, 8)
    best, best_score = 0, -np.inf
    for turns in sq.candidate_turns(sq.light_on_even(warped)):
        g = np.rot90(grid, -turns)
        score = 0.0
        for mask, feat in (((g >= 7), dark), ((g >= 1) & (g < 7), bright)):
            m = mask.astype(float)
            score += (feat * m).sum() - (feat * (1 - m)).sum() / max(1.0, (1 - m).sum()) * m.sum()
        if score > best_score:
            best, best_score = turns, score
    return best


def load(files: list[str], labels: dict[str, str]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """(image, corners, warp-order labels (64,)) for each photo."""
    out = []
    for name in files:
        image = cv2.imread(str(PHOTOS / name))
        loc = locate_board(image)
        warped = sq.warp_board(image, loc)
        grid = fen_to_grid(labels[name])
        turns = label_turns(warped, grid)
        out.append((image, loc, np.rot90(grid, -turns).reshape(64).copy()))
    return out


def pick(y: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(crop indices, loss weights) for one board: every piece, every empty square just behind a piece
    (the piece's top overlaps it: the hard empties), and a random EMPTY_KEEP share of the other empties."""
    grid = y.reshape(8, 8)
    behind = np.zeros((8, 8), bool)
    behind[:-1] = grid[1:] > 0
    behind[:-2] |= grid[2:] > 0
    easy = ((grid == 0) & ~behind).reshape(64)
    keep = ~easy | (rng.random(64) < EMPTY_KEEP)
    weights = np.where(easy, 1 / EMPTY_KEEP, 1.0)
    return np.flatnonzero(keep), weights[keep]


def jitter_crop(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One crop with a small random shift, scale and tilt, blur or low resolution, and a mirror."""
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h * 0.7), rng.uniform(-4, 4), rng.uniform(0.92, 1.08))
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


def augment(image: np.ndarray, loc, y: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """(crops, labels, weights) of one photo warped with jittered corners and photometric noise."""
    side = float(np.linalg.norm(loc.corners[0] - loc.corners[1])) / 8
    warped = sq.warp_board(image, loc, jitter=rng.normal(0, 0.07 * side, (4, 2)))
    idx, weights = pick(y, rng)
    crops = sq.square_crops(warped)[idx].astype(np.float32)
    n = len(crops)
    gain = rng.uniform(0.75, 1.25) * rng.uniform(0.8, 1.2, (n, 1, 1, 1))
    crops = crops * gain + rng.uniform(-30, 30) + rng.uniform(-15, 15, (n, 1, 1, 1))
    crops = crops * rng.uniform(0.85, 1.15, (1, 1, 1, 3)) * rng.uniform(0.93, 1.07, (n, 1, 1, 3))
    crops = np.clip(crops + rng.normal(0, rng.uniform(0, 6), crops.shape), 0, 255).astype(np.uint8)
    crops = np.stack([jitter_crop(c, rng) for c in crops])
    return crops, y[idx], weights


def build_net():
    """The compact CNN: five conv blocks, a coarse 3x2 spatial pool, one linear layer (~200k weights)."""
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list:
        layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
        return layers + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(3, 16, True), *block(16, 32, True), *block(32, 64, True), *block(64, 96, True),
                         *block(96, 128, False), nn.AdaptiveAvgPool2d((3, 2)), nn.Flatten(), nn.Dropout(0.25),
                         nn.Linear(768, len(sq.CLASSES)))


def evaluate(net, data, flip: bool = False) -> tuple[float, int]:
    """(per-square accuracy, boards fully right) on un-augmented crops, optionally averaging a mirror."""
    import torch

    net.eval()
    right, boards = 0, 0
    with torch.no_grad():
        for image, loc, y in data:
            crops = sq.square_crops(sq.warp_board(image, loc))
            probs = net(torch.from_numpy(sq.to_tensor(crops))).softmax(1)
            if flip:
                probs = probs + net(torch.from_numpy(sq.to_tensor(crops[:, :, ::-1]))).softmax(1)
            pred = probs.argmax(1).numpy()
            right += int((pred == y).sum())
            boards += int((pred == y).all())
    return right / (64 * max(len(data), 1)), boards


def epoch_batches(train_data, rng: np.random.Generator):
    """Freshly augmented (crops, labels, weights) for one epoch, shuffled."""
    parts = [augment(img, loc, y, rng) for img, loc, y in train_data]
    xs, ys, ws = (np.concatenate([p[k] for p in parts]) for k in range(3))
    order = rng.permutation(len(xs))
    return xs[order], ys[order], ws[order].astype(np.float32)


def learning_rate(peak: float, progress: float) -> float:
    """Linear warm-up over the first 5% of training, then a cosine decay to zero."""
    if progress < 0.05:
        return peak * (0.1 + 0.9 * progress / 0.05)
    return peak * 0.5 * (1 + math.cos(math.pi * (progress - 0.05) / 0.95))


def train_step(net, opt, lr: float, batch: tuple[np.ndarray, ...], class_weights) -> float:
    """One optimiser step on (crops, labels, sample weights) at learning rate lr; the batch loss."""
    import torch

    net.train()
    for group in opt.param_groups:
        group["lr"] = lr
    x = torch.from_numpy(sq.to_tensor(batch[0]))
    y = torch.from_numpy(batch[1]).long()
    w = torch.from_numpy(batch[2]) * class_weights[y]
    loss = (torch.nn.functional.cross_entropy(net(x), y, reduction="none", label_smoothing=0.05) * w).sum() / w.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


def train(args: argparse.Namespace) -> None:
    """Train, report validation accuracy each few epochs, export ONNX."""
    import torch

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(SEED)
    random.seed(SEED)
    rng = np.random.default_rng(SEED)
    entries = json.loads((PHOTOS / "labels.json").read_text())
    labels = {e["file"]: e["fen"] for e in entries}
    train_files, val_files = split(list(labels))
    t0 = time.time()
    train_data, val_data = load(train_files, labels), load(val_files, labels)
    print(f"loaded {len(train_data)} train / {len(val_data)} val photos in {time.time() - t0:.0f}s", flush=True)
    counts = np.bincount(np.concatenate([y for _, _, y in train_data]), minlength=len(sq.CLASSES))
    class_weights = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    for epoch in range(args.epochs):
        xs, ys, ws = epoch_batches(train_data, rng)
        total = 0.0
        for start in range(0, len(xs), BATCH):
            lr = learning_rate(args.lr, (epoch + start / len(xs)) / args.epochs)
            batch = (xs[start:start + BATCH], ys[start:start + BATCH], ws[start:start + BATCH])
            total += train_step(net, opt, lr, batch, class_weights) * len(batch[1])
        msg = f"epoch {epoch + 1}/{args.epochs} loss {total / len(xs):.4f} crops {len(xs)} ({time.time() - t0:.0f}s)"
        if (epoch + 1) % 5 == 0 or epoch + 1 == args.epochs:
            acc, boards = evaluate(net, val_data)
            msg += f" val squares {acc:.4f} boards {boards}/{len(val_data)}"
        print(msg, flush=True)
    acc, boards = evaluate(net, val_data, flip=True)
    print(f"with mirror averaging: val squares {acc:.4f} boards {boards}/{len(val_data)}", flush=True)
    export(net, Path(args.out))


def export(net, out: Path) -> None:
    """Write the network as ONNX with a dynamic batch axis."""
    import torch

    net.eval()
    dummy = torch.zeros(64, 3, sq.CROP_H, sq.CROP_W)
    torch.onnx.export(net, dummy, str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    print(f"wrote {out} ({out.stat().st_size} bytes)", flush=True)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--out", default=str(ROOT / "egocli" / "chess" / "squares.onnx"))
    parser.add_argument("--list-split", action="store_true", help="Print the train/validation split and exit.")
    args = parser.parse_args()
    if args.list_split:
        names = [e["file"] for e in json.loads((PHOTOS / "labels.json").read_text())]
        train_files, val_files = split(names)
        print("validation:", " ".join(val_files))
        print("train:", " ".join(train_files))
        return
    train(args)


if __name__ == "__main__":
    main()
