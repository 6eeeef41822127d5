"""Game reading on other sets: per-video move accuracy of videos followed as a game, this tree against a
baseline revision, in the same run.

The videos are games rendered onto labelled photos of several sets and viewpoints (tests/chess/synthgames.py:
egocli.chess.synthvideo, real men cut from the photos, hands between moves, noise), games whose move orders
differ in the piece moved (Scholar's Mate with Bc4 or Qh5 first; a bishop or a knight to e2 and d7) or only
in the piece a pawn becomes, plus the real Scholar's Mate video. Each video is read the way `egocli chess
VIDEO` reads it (the start gate, then the game tracker; self-calibration off unless --self-calibrate: it
fine-tunes for minutes per video). A move counts as exact when it is the move played and not flagged,
flagged when it is flagged uncertain and the move played is it or one of its alternatives (check signs aside:
after an uncertain move the likeliest line may give check where the game did not), wrong otherwise
(a wrong, missing or extra move; every move after a wrong one is compared by its place in the game).

Run: python bench/game.py [--seed 2] [--baseline 057e06c] [--sets 'wood, above'] [--games ...] [--self-calibrate]
Needs ../shared/data/chess beside the repo. Writes the videos to a temporary folder (--keep DIR to keep them).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/chess.py is beside this file: drop the folder from the path so `import chess` finds python-chess.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

from bench.revision import baseline_code  # noqa: E402
BASELINE = "057e06c"
"""main when this bench was written (the tracker before uncertain moves, start-fitted evidence and the
start-position orientation)."""
REAL = ("the Scholar's Mate video", "webcam/scholarsmate.avi", ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"))
"""The real video and its game, read by eye frame by frame (tests/chess/test_game.py)."""


def make_videos(folder: Path, seed: int, sets: list[str], games: list[str]) -> list[dict[str, object]]:
    """Render every (set, game) video into folder; [{name, path, moves}] with the real video last."""
    from tests.chess.synthgames import DATA, GAMES, video

    out: list[dict[str, object]] = []
    for set_name in sets:
        for game in games:
            slug = re.sub(r"[^a-z0-9]+", "-", f"{set_name} {game}".lower()).strip("-")
            path = folder / f"{slug}-seed{seed}.avi"
            if not path.exists():
                video(set_name, game, seed=seed).write(path.with_suffix(".part.avi")).rename(path)
            out.append({"name": f"{set_name} | {game}", "path": str(path), "moves": list(GAMES[game])})
    out.append({"name": REAL[0], "path": str(DATA / REAL[1]), "moves": list(REAL[2])})
    return out


def start_worker(tree: Path, videos: list[dict[str, object]],
                 self_calibrate: bool) -> tuple[subprocess.Popen[str], str]:
    """Start reading each video with the egocli of `tree` (a subprocess whose sys.path starts there): the
    process and the input to send it. It prints each video's result to stderr as it goes, all at the end."""
    code = f"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, {str(tree)!r})
from egocli.chess.types import Analysis, ChessOptions
from egocli.chess.video import analyse_video
out = []
for v in json.loads(sys.stdin.read()):
    t0 = time.perf_counter()
    r = analyse_video(Path(v["path"]), ChessOptions(self_calibrate={self_calibrate}),
                      lambda board, how, why: Analysis(fen=board.fen()))
    out.append({{"reading": r.reading, "seconds": time.perf_counter() - t0,
                 "moves": [{{"san": p["move"], "uncertain": bool(p.get("uncertain")),
                            "alternatives": list(p.get("alternatives") or [])}} for p in r.positions if p["move"]]}})
    print(json.dumps(out[-1]), file=sys.stderr, flush=True)
print(json.dumps(out))
"""
    process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, cwd=tree)
    return process, json.dumps(videos)


def score(truth: list[str], read: dict[str, object]) -> tuple[int, int, int]:
    """(exact, flagged, wrong) moves of one video read (see the module docstring)."""
    moves = read["moves"] if read["reading"] == "game" else []
    exact = flagged = wrong = 0
    for k, san in enumerate(truth):
        move = moves[k] if k < len(moves) else None  # type: ignore[index]
        if move is None:
            wrong += 1
        elif move["uncertain"] and bare(san) in map(bare, [move["san"], *move["alternatives"]]):
            flagged += 1
        elif not move["uncertain"] and move["san"] == san:
            exact += 1
        else:
            wrong += 1
    return exact, flagged, wrong + max(0, len(moves) - len(truth))  # type: ignore[arg-type]


def bare(san: str) -> str:
    """A move without its check sign (after an uncertain move the likeliest line may give check elsewhere)."""
    return san.rstrip("+#")


def shown(read: dict[str, object]) -> str:
    """The moves read, '?' and '(or ...)' on uncertain ones; 'frames' when not followed as a game."""
    if read["reading"] != "game":
        return "(read frame by frame: no game)"
    return " ".join(m["san"] + ("?" + ("(" + ",".join(m["alternatives"]) + ")" if m["alternatives"] else "")
                                if m["uncertain"] else "") for m in read["moves"]) or "-"  # type: ignore[union-attr]


def main() -> None:
    """Render, read with both trees at once, print the table and the totals."""
    from tests.chess.synthgames import GAMES, SETS

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=2, help="video seed (the tracker was tuned on seed 1)")
    parser.add_argument("--baseline", default=BASELINE, help="git revision to compare with")
    parser.add_argument("--sets", default="", help="'|'-separated set names (default: all)")
    parser.add_argument("--games", default="", help="'|'-separated game names (default: all)")
    parser.add_argument("--self-calibrate", action="store_true", help="fine-tune on the first frames as the CLI does")
    parser.add_argument("--keep", default="", help="folder to keep (and reuse) the rendered videos in")
    args = parser.parse_args()
    sets = args.sets.split("|") if args.sets else list(SETS)
    games = args.games.split("|") if args.games else list(GAMES)
    with tempfile.TemporaryDirectory(prefix="egocli-bench-game-") as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp) / "videos"
        folder.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        videos = make_videos(folder, args.seed, sets, games)
        print(f"{len(videos)} videos (seed {args.seed}) rendered in {time.perf_counter() - t0:.0f} s", flush=True)
        base = baseline_code(args.baseline, Path(tmp))
        runs = {name: start_worker(tree, videos, args.self_calibrate) for name, tree in (("this", ROOT), (args.baseline, base))}
        with ThreadPoolExecutor(len(runs)) as pool:  # both trees read at the same time, one core each
            outs = {name: pool.submit(process.communicate, payload) for name, (process, payload) in runs.items()}
            results = {name: json.loads(out.result()[0].strip().splitlines()[-1]) for name, out in outs.items()}
    report(videos, results)


def report(videos: list[dict[str, object]], results: dict[str, list[dict[str, object]]]) -> None:
    """Per-video table (exact / flagged / wrong of the moves played) and totals, each revision."""
    names = list(results)
    print(f"\n{'video':58} {'moves':>5} " + " ".join(f"{n + ' e/f/w':>14}" for n in names))
    totals = {n: [0, 0, 0] for n in names}
    for k, v in enumerate(videos):
        cells = []
        for n in names:
            e, f, w = score(v["moves"], results[n][k])  # type: ignore[arg-type]
            totals[n] = [totals[n][0] + e, totals[n][1] + f, totals[n][2] + w]
            cells.append(f"{e:>4}/{f}/{w:<4}")
        print(f"{str(v['name'])[:58]:58} {len(v['moves']):>5} " + " ".join(f"{c:>14}" for c in cells))  # type: ignore[arg-type]
        for n in names:
            print(f"{'':6}{n:>8}: {shown(results[n][k])}")
    played = sum(len(v["moves"]) for v in videos)  # type: ignore[arg-type]
    for n in names:
        e, f, w = totals[n]
        right = sum(score(v["moves"], results[n][k])[2] == 0 for k, v in enumerate(videos))  # type: ignore[arg-type]
        print(f"{n}: {played} moves: {e} exact, {f} flagged uncertain, {w} wrong; videos with no wrong move "
              f"{right}/{len(videos)}; reading {sum(r['seconds'] for r in results[n]):.0f} s")


if __name__ == "__main__":
    main()
