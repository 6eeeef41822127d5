"""Train egocli's 13-class chess-square classifier and export it to egocli/chess/squares.onnx.

Data (read-only, never copied into the repo): ../shared/data/chess/photos, 81 phone photos
of one physical board with FEN labels (afka2d/chesscog grey_background_dataset, MIT; see its
README). One whole shooting session, the last run of shots (IMG_4826_2 .. IMG_4862_2, 25 photos), is
the validation split, never trained on: neighbouring shots are near duplicates, so a random split would
flatter the score. `python scripts/train_squares.py --list-split` prints it. The webcam photos (other
boards) are not trained on either; bench/chess.py reports on both.

Each training photo is located with egocli's own board finder (no hand corners), the label
grid is aligned to the camera view (square colours give 0/180 vs 90/270 degrees; dark/bright
pixels where the label puts black/white pieces pick the turn), and every epoch re-warps each
photo with jittered corners and random light and colour, then shifts, scales, tilts, blurs or
down-samples and mirrors each crop (a mirrored piece is the same piece, and a knight seen from
Black's side is a mirrored knight, so the few photos taken from Black's side need no special
treatment: labels are in the camera's order). Every piece and every empty square just behind a
piece (whose top overlaps it) is used each epoch, plus 30% of the other empty squares, weighted up.
The learning rate warms up, then follows a cosine to zero.

Reproducible on CPU: fixed seeds, one torch thread, 60 epochs (about 19 minutes on one idle core). Writes
squares.onnx (what recognition runs) and squares.pt (the same weights for torch: `egocli chess calibrate`
starts from them). The committed squares.onnx predates the session split: it was trained with every photo
but the sorted names with index % 4 == 1 held out (bench/chess.py scores it on the session's photos it
never saw); its squares.pt was recovered with scripts/squares_pt_from_onnx.py. Retrain with this script,
then `python bench/chess.py --model OUT.onnx`, for the held-out-session figure of the new recipe.
    python scripts/train_squares.py [--epochs 60] [--out egocli/chess/squares.onnx]
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
from egocli.chess.training import augment, build_net, export_onnx, learning_rate, train_step  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "data" / "chess" / "photos"
SEED = 20240601
BATCH = 64
HELD_OUT_SESSION = ("IMG_4826", "IMG_4862_9")
"""The shooting session never trained on (file names in this range, sorted): the last run of shots, from
the middlegame of the second game to its rook-and-queen ending (25 photos). Neighbouring shots are near
duplicates, so a random split would flatter the score; a whole session is held back instead."""


def split(files: list[str]) -> tuple[list[str], list[str]]:
    """(train, validation) file names: validation is the held-out session."""
    lo, hi = HELD_OUT_SESSION
    held = [f for f in sorted(files) if lo <= f <= hi]
    return [f for f in sorted(files) if f not in held], held


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


def train(args: argparse.Namespace) -> None:
    """Train, report validation accuracy each few epochs, export ONNX."""
    import torch

    torch.set_num_threads(args.threads)
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
            net.train()
            total += train_step(net, opt, lr, batch, class_weights) * len(batch[1])
        msg = f"epoch {epoch + 1}/{args.epochs} loss {total / len(xs):.4f} crops {len(xs)} ({time.time() - t0:.0f}s)"
        if (epoch + 1) % 5 == 0 or epoch + 1 == args.epochs:
            acc, boards = evaluate(net, val_data)
            msg += f" val squares {acc:.4f} boards {boards}/{len(val_data)}"
            torch.save(net.state_dict(), Path(args.out).with_suffix(".checkpoint.pt"))
        print(msg, flush=True)
    acc, boards = evaluate(net, val_data, flip=True)
    print(f"with mirror averaging: val squares {acc:.4f} boards {boards}/{len(val_data)}", flush=True)
    out = Path(args.out)
    export_onnx(net, out)
    torch.save(net.state_dict(), out.with_suffix(".pt"))
    print(f"wrote {out} ({out.stat().st_size} bytes) and {out.with_suffix('.pt')}", flush=True)


def main() -> None:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=1)
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
