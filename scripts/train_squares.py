"""Train egocli's 13-class chess-square classifier and export it to egocli/chess/squares.onnx.

Data (read-only, never copied into the repo): ../shared/data/chess/photos, 81 phone photos
of one physical board with FEN labels (afka2d/chesscog grey_background_dataset, MIT; see its
README). The photos' names are sorted and every 4th one starting at index 1 (20 photos) is the
validation split, never trained on: `python scripts/train_squares.py --list-split` prints it.
The webcam photos (other boards) are not trained on either; bench/chess.py reports on both.

Each training photo is located with egocli's own board finder (no hand corners), the label
grid is aligned to the camera view (square colours give 0/180 vs 90/270 degrees; dark/bright
pixels where the label puts black/white pieces pick the turn), and every epoch re-warps each
photo with jittered corners and random light, colour, blur and mirror augmentation.

Reproducible on CPU: fixed seeds, one torch thread, ~10 minutes on one core.
    python scripts/train_squares.py [--epochs 30] [--out egocli/chess/squares.onnx]
"""

from __future__ import annotations

import argparse
import json
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


def split(files: list[str]) -> tuple[list[str], list[str]]:
    """(train, validation) file names: validation is sorted index % 4 == 1."""
    ordered = sorted(files)
    return [f for i, f in enumerate(ordered) if i % 4 != 1], [f for i, f in enumerate(ordered) if i % 4 == 1]


def label_turns(warped: np.ndarray, grid: np.ndarray) -> int:
    """Quarter turns from warp to board order for a labelled photo (training only)."""
    crops = sq.square_crops(warped)
    hsv = cv2.cvtColor(crops.reshape(-1, sq.CROP_W, 3), cv2.COLOR_BGR2HSV).reshape(crops.shape)
    body = hsv[:, 20:56, 14:34]
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


def augment(image: np.ndarray, loc, rng: np.random.Generator) -> np.ndarray:
    """Crops of one photo warped with jittered corners and photometric noise."""
    side = float(np.linalg.norm(loc.corners[0] - loc.corners[1])) / 8
    warped = sq.warp_board(image, loc, jitter=rng.normal(0, 0.07 * side, (4, 2)))
    crops = sq.square_crops(warped).astype(np.float32)
    n = len(crops)
    crops = crops * rng.uniform(0.6, 1.4, (n, 1, 1, 1)) + rng.uniform(-35, 35, (n, 1, 1, 1))
    crops = crops * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
    crops = np.clip(crops, 0, 255).astype(np.uint8)
    for k in range(n):
        if rng.random() < 0.3:
            crops[k] = cv2.GaussianBlur(crops[k], (0, 0), rng.uniform(0.5, 1.5))
        if rng.random() < 0.5:
            crops[k] = crops[k][:, ::-1]
    return crops


def build_net():
    """The compact CNN: four conv blocks, a coarse 3x2 spatial pool, one linear layer (~70k weights)."""
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list:
        layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
        return layers + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(3, 16, True), *block(16, 32, True), *block(32, 64, True), *block(64, 64, False),
                         nn.AdaptiveAvgPool2d((3, 2)), nn.Flatten(), nn.Dropout(0.2), nn.Linear(384, len(sq.CLASSES)))


def evaluate(net, data) -> tuple[float, int]:
    """(per-square accuracy, boards fully right) on un-augmented crops."""
    import torch

    net.eval()
    right, boards = 0, 0
    with torch.no_grad():
        for image, loc, y in data:
            crops = sq.square_crops(sq.warp_board(image, loc))
            pred = net(torch.from_numpy(sq.to_tensor(crops))).argmax(1).numpy()
            right += int((pred == y).sum())
            boards += int((pred == y).all())
    return right / (64 * max(len(data), 1)), boards


def train(args: argparse.Namespace) -> None:
    """Train, report validation accuracy each few epochs, export ONNX."""
    import torch

    torch.set_num_threads(1)
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
    weights = torch.tensor((counts.max() / np.maximum(counts, 1)) ** 0.5, dtype=torch.float32)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * (len(train_data) * 64 // 64 + 1))
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights, label_smoothing=0.05)
    for epoch in range(args.epochs):
        net.train()
        xs = np.concatenate([augment(img, loc, rng) for img, loc, _ in train_data])
        ys = np.concatenate([y for _, _, y in train_data])
        order = rng.permutation(len(xs))
        total = 0.0
        for start in range(0, len(order), 64):
            idx = order[start:start + 64]
            x, y = torch.from_numpy(sq.to_tensor(xs[idx])), torch.from_numpy(ys[idx]).long()
            opt.zero_grad()
            loss = loss_fn(net(x), y)
            loss.backward()
            opt.step()
            if sched.last_epoch + 1 < sched.total_steps:
                sched.step()
            total += float(loss) * len(idx)
        msg = f"epoch {epoch + 1}/{args.epochs} loss {total / len(order):.4f} ({time.time() - t0:.0f}s)"
        if (epoch + 1) % 5 == 0 or epoch + 1 == args.epochs:
            acc, boards = evaluate(net, val_data)
            msg += f" val squares {acc:.4f} boards {boards}/{len(val_data)}"
        print(msg, flush=True)
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
    parser.add_argument("--epochs", type=int, default=30)
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
