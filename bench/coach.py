"""The chess coach (issue 32): are its words true, and how fast is it?

  python bench/coach.py claims [--puzzles 100] [--out FILE]   truth: the claim checker over every final output
  python bench/coach.py speed --baseline /tmp/h5base [--n 8]   time: `egocli chess --fen` per position, this
                                                               tree against a baseline tree, in the same run

`claims` runs the 100 first Lichess puzzles of ../shared/data/chess (after the opponent's first move) and the
30 positions of bench/sets/coach_positions.txt (each with a mate threat or a hanging piece) through the engine
(default 0.5 s) and the coach with the packaged LLM, and prints: outputs phrased by the model or templated,
checkable claims found and how many are true, the best move named in SAN, the mate threat named where there is
one, the puzzle's solution as the engine's best move, and the model/engine time split. `speed` times the
console command (a new process each run: the model load included) for the coached answer and the template
(--no-explain), p50 and p90, and the ratio against the baseline tree (git worktree of HEAD before the change).
Timings count only on a quiet machine: the 1-minute load is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))

import chess  # noqa: E402

from egocli.chess.claims import claims, context  # noqa: E402
from egocli.chess.coach import explain, facts  # noqa: E402
from egocli.chess.engine import UciEngine  # noqa: E402
from egocli.chess.facts import threat  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "chess"
OWN = ROOT / "bench" / "sets" / "coach_positions.txt"


def load() -> str:
    """The 1-minute load average."""
    return f"{os.getloadavg()[0]:.2f}"


def positions(puzzles: int) -> list[tuple[str, chess.Board, str | None]]:
    """(name, board, the puzzle's solution in UCI or None) for the puzzles and our own positions."""
    out = []
    for row in list(csv.DictReader((DATA / "puzzles.csv").open()))[:puzzles]:
        board = chess.Board(row["FEN"])
        moves = row["Moves"].split()
        board.push_uci(moves[0])
        out.append((f"puzzle {row['PuzzleId']}", board, moves[1]))
    for n, line in enumerate(l for l in OWN.read_text().splitlines() if l and not l.startswith("#")):
        what = line.split(" | ")[0]
        kind, _, value = what.partition(": ")
        board = chess.Board(value) if kind == "fen" else chess.Board()
        if kind == "moves":
            for san in value.split():
                board.push_san(san)
        out.append((f"own {n + 1}", board, None))
    return out


def named(move: str, text: str) -> bool:
    """The SAN move (suffix aside) appears as a token in the text."""
    return re.search(rf"(?<![\w-]){re.escape(move.rstrip('+#'))}(?![\w=])", text) is not None


def run_claims(args: argparse.Namespace) -> None:
    """Truth figures over the puzzles and our own positions."""
    from egocli.core.config import load_settings
    from egocli.models.registry import load_llm

    print(f"load at start {load()}")
    model = None if args.no_model else load_llm(load_settings())
    totals = {"outputs": 0, "llm": 0, "claims": 0, "true": 0, "best named": 0, "threats": 0, "threat named": 0,
              "puzzles": 0, "solved": 0, "rejected claims": 0}
    engine_s, coach_s, rows = [], [], []
    with UciEngine() as engine:
        todo = positions(args.puzzles)
        for name, board, solution in todo[args.puzzles:] + todo[:args.puzzles]:  # our own 30 first
            t0 = time.perf_counter()
            lines = engine.analyse(board, 3, args.seconds)
            t1 = time.perf_counter()
            said = explain(board, lines, model, attempts=1)
            coach_s.append(time.perf_counter() - t1)
            engine_s.append(t1 - t0)
            found = facts(board, lines)
            mates = threat(board).mates
            ctx = context(board, lines, threat(board), {f.kind for f in found})
            checked = claims(said.text, ctx)
            totals["outputs"] += 1
            totals["llm"] += said.source == "llm"
            totals["claims"] += len(checked)
            totals["true"] += sum(c.true for c in checked)
            totals["rejected claims"] += len(said.false)
            totals["best named"] += named(lines[0].san[0], said.text)
            if mates:
                totals["threats"] += 1
                totals["threat named"] += any(named(m, said.text) for m in mates)
            if solution:
                totals["puzzles"] += 1
                totals["solved"] += lines[0].uci[0] == solution
            rows.append({"name": name, "fen": board.fen(), "best": lines[0].san[0], "source": said.source,
                         "text": said.text, "false": [c.text for c in checked if not c.true],
                         "model_false": said.false, "claims": len(checked),
                         "lines": [[line.uci, line.cp, line.mate, line.expected] for line in lines]})
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(rows[-1]) + "\n")
    print(f"load at end {load()}")
    n = totals["outputs"]
    print(f"outputs {n}: phrased by the model {totals['llm']}, template {n - totals['llm']}")
    print(f"checkable claims in the final outputs: {totals['true']}/{totals['claims']} true")
    print(f"model outputs replaced for false claims or a missing move: {n - totals['llm']} "
          f"({totals['rejected claims']} false claims caught)")
    print(f"best move named in SAN: {totals['best named']}/{n}")
    print(f"mate threat named: {totals['threat named']}/{totals['threats']}")
    print(f"puzzle solution = engine's best: {totals['solved']}/{totals['puzzles']}")
    print(f"split per position: engine p50 {statistics.median(engine_s):.2f} s, "
          f"facts+phrasing+check p50 {statistics.median(coach_s):.2f} s (model loaded once)")
    if args.out:
        print(f"outputs appended to {args.out}")


def timed(tree: Path, fen: str, explain_: bool) -> float:
    """Wall seconds of one `egocli chess --fen` in a tree (a new process: the model load included)."""
    cmd = [sys.executable, "-m", "egocli", "chess", "--fen", fen] + ([] if explain_ else ["--no-explain"])
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=tree, check=True, capture_output=True)
    return time.perf_counter() - t0


def run_speed(args: argparse.Namespace) -> None:
    """p50/p90 of the coached answer and the template, this tree and the baseline, same run, interleaved."""
    boards = [b for _, b, _ in positions(args.n)][: args.n]
    print(f"load at start {load()}")
    times: dict[tuple[str, bool], list[float]] = {}
    for board in boards:
        for tree, label in ((ROOT, "current"), (Path(args.baseline), "baseline")):
            for explain_ in (True, False):
                times.setdefault((label, explain_), []).append(timed(tree, board.fen(), explain_))
    print(f"load at end {load()}")
    for explain_ in (True, False):
        what = "coached" if explain_ else "template (--no-explain)"
        cur, base = times[("current", explain_)], times[("baseline", explain_)]
        p = statistics.median(cur), statistics.median(base)
        print(f"{what}: current p50 {p[0]:.2f} s p90 {sorted(cur)[int(0.9 * (len(cur) - 1))]:.2f} s; baseline "
              f"p50 {p[1]:.2f} s p90 {sorted(base)[int(0.9 * (len(base) - 1))]:.2f} s; ratio {p[1] / p[0]:.2f}x")


def main() -> None:
    """Parse the arguments and run one part."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="part", required=True)
    c = sub.add_parser("claims")
    c.add_argument("--puzzles", type=int, default=100)
    c.add_argument("--seconds", type=float, default=0.5)
    c.add_argument("--no-model", action="store_true", help="The template path only.")
    c.add_argument("--out")
    s = sub.add_parser("speed")
    s.add_argument("--baseline", required=True, help="A tree of the code before (git worktree add DIR HEAD).")
    s.add_argument("--n", type=int, default=8)
    args = parser.parse_args()
    run_claims(args) if args.part == "claims" else run_speed(args)


if __name__ == "__main__":
    main()
