"""Chess co-pilot benchmark: recognition on photos not trained on, speed per frame, puzzles at 0.1 s.

Run: python bench/chess.py [--puzzles 1000]. Needs ../shared/data/chess beside the repo and Stockfish.
Baseline (chesscog, Wölflein & Arandjelović 2021, real photos after fine-tuning): 0.17% per-square
error, 88.9% boards perfect, about 2.1 s per image on CPU.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# This file is named chess.py: drop its folder from the path so `import chess` finds python-chess.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from egocli.chess.board import NoBoardError, locate_board  # noqa: E402
from egocli.chess.recognise import classify_located, fen_to_grid  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "chess"


def recognition(name: str, items: list[tuple[Path, str]]) -> None:
    """Print accuracy, perfect boards, <=1 wrong, localisation failures and ms per frame."""
    right = perfect = near = failed = 0
    t_loc, t_cls = [], []
    for path, fen in items:
        image = cv2.imread(str(path))
        t0 = time.perf_counter()
        try:
            loc = locate_board(image)
        except NoBoardError:
            failed += 1
            continue
        t1 = time.perf_counter()
        seen = classify_located(image, loc)
        t2 = time.perf_counter()
        t_loc.append(t1 - t0)
        t_cls.append(t2 - t1)
        wrong = int((fen_to_grid(seen.placement) != fen_to_grid(fen)).sum())
        right += 64 - wrong
        perfect += wrong == 0
        near += wrong <= 1
    n = len(items)
    print(f"{name}: {n} photos | squares {100 * right / (64 * n):.2f}% (failed boards count as all wrong) | "
          f"boards perfect {100 * perfect / n:.1f}% | <=1 wrong {100 * near / n:.1f}% | "
          f"localisation failures {failed}/{n} | ms/frame localise {1000 * np.median(t_loc or [0]):.0f} "
          f"classify {1000 * np.median(t_cls or [0]):.0f} (median, 1 core)")


def puzzles(limit: int) -> None:
    """Share of Lichess puzzles whose first solution move Stockfish finds at 0.1 s."""
    import chess

    from egocli.chess.engine import UciEngine

    rows = list(csv.DictReader((DATA / "puzzles.csv").open()))[:limit]
    solved = 0
    with UciEngine() as engine:
        for row in rows:
            board = chess.Board(row["FEN"])
            moves = row["Moves"].split()
            board.push_uci(moves[0])
            lines = engine.analyse(board, multipv=1, seconds=0.1)
            if lines and lines[0].uci[0] == moves[1]:
                solved += 1
            elif lines and len(moves) == 2 and _is_mate(board, lines[0].uci[0]):
                solved += 1  # Lichess accepts any mating move on the last move
    print(f"puzzles: {solved}/{len(rows)} solved at 0.1 s ({100 * solved / len(rows):.1f}%)")


def _is_mate(board, uci: str) -> bool:  # noqa: ANN001
    import chess

    copy = board.copy()
    copy.push(chess.Move.from_uci(uci))
    return copy.is_checkmate()


def main() -> None:
    """Run all parts."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--puzzles", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    labels = json.loads((DATA / "photos" / "labels.json").read_text())
    names = sorted(e["file"] for e in labels)
    fens = {e["file"]: e["fen"] for e in labels}
    val = [(DATA / "photos" / n, fens[n]) for i, n in enumerate(names) if i % 4 == 1]
    train = [(DATA / "photos" / n, fens[n]) for i, n in enumerate(names) if i % 4 != 1]
    webcam = [(DATA / "webcam" / e["file"], e["fen"]) for e in json.loads((DATA / "webcam" / "labels.json").read_text())
              if "fen" in e and e["file"].endswith(".jpg")]
    print("baseline chesscog (paper): squares 99.83% | boards perfect 88.9% | ~2100 ms/image CPU")
    recognition("validation photos (never trained on)", val)
    recognition("webcam photos (other boards, never trained on)", webcam)
    recognition("training photos (for reference only)", train)
    if args.puzzles:
        puzzles(args.puzzles)


if __name__ == "__main__":
    main()
