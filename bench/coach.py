"""The chess coach (issue 32): are its words true, and how fast is it?

  python bench/coach.py claims [--puzzles 100] [--out FILE]    truth: the claim checker over every final output
  python bench/coach.py speed --baseline /tmp/coachbase [--n 10]  time: `egocli chess --fen` per position, this
                                                                tree against a baseline tree, in the same run
  python bench/coach.py sample [--n 20] [--seed 32]             a seeded sample to read by hand

`claims` runs the 100 first Lichess puzzles of ../shared/data/chess (after the opponent's first move) and the
30 positions of bench/sets/coach_positions.txt (each with a mate threat or a hanging piece) through the engine
(default 0.5 s) and the coach with the packaged LLM, and prints: outputs phrased by the model or templated,
checkable claims found and how many are true, the best move named in SAN, the mate threat named where there is
one, the puzzle's solution as the engine's best move, and the model/engine time split. `speed` times the
console command as the user runs it (a new process each run: imports, the model load and the engine included)
for the coached answer and the template (--no-explain), alternating this tree and the baseline position by
position, and prints p50/p95 of wall and CPU seconds (the command's and its engine's: less swayed by other
load than wall time), the ratio against the baseline, and this tree's split from its `-v` log (engine, facts,
prompt evaluation, generation, checker; prompt and generated tokens) with the model load timed alone in a new
process; then, in one process per tree on the same positions, the tokens each tree's coach reads past its
primed system turn and writes (a figure other load does not sway) and what they cost at the idle rates of
shared/MODELS.md. Wall times count only on a quiet machine: `uptime` is printed at the start and the end, and
the model's speed in the runs beside them. `sample`
prints, for a seeded sample of the 130 positions, the FEN, the board, the engine's best line and the coach's
final sentence with the checker's verdicts, to be read against the board.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
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
    """`uptime`'s line (the 1-, 5- and 15-minute load), or the load averages where there is no uptime."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "load average: " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def pct(values: list[float], q: float) -> float:
    """The nearest-rank q-quantile (q=0.95: p95)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


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


def verdicts(board: chess.Board, lines: list, text: str) -> list:
    """The checker's claims in a final text, against the position, its lines and the opponent's threat."""
    return claims(text, context(board, lines, threat(board), {f.kind for f in facts(board, lines)}))


def run_claims(args: argparse.Namespace) -> None:
    """Truth figures over the puzzles and our own positions."""
    from egocli.core.config import load_settings
    from egocli.models.registry import load_llm

    print(f"at start: {load()}")
    model = None if args.no_model else load_llm(load_settings())
    totals = {"outputs": 0, "llm": 0, "claims": 0, "true": 0, "best named": 0, "threats": 0, "threat named": 0,
              "puzzles": 0, "solved": 0, "rejected claims": 0}
    engine_s, coach_s, splits = [], [], []
    with UciEngine() as engine:
        todo = positions(args.puzzles)
        for name, board, solution in todo[args.puzzles:] + todo[:args.puzzles]:  # our own 30 first
            t0 = time.perf_counter()
            lines = engine.analyse(board, 3, args.seconds)
            t1 = time.perf_counter()
            said = explain(board, lines, model, attempts=1)
            coach_s.append(time.perf_counter() - t1)
            engine_s.append(t1 - t0)
            splits.append(said.split)
            checked = verdicts(board, lines, said.text)
            mates = threat(board).mates
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
            if args.out:
                row = {"name": name, "fen": board.fen(), "best": lines[0].san[0], "source": said.source,
                       "text": said.text, "false": [c.text for c in checked if not c.true],
                       "model_false": said.false, "claims": len(checked), "split": said.split,
                       "lines": [[line.uci, line.cp, line.mate, line.expected] for line in lines]}
                with open(args.out, "a") as out:
                    out.write(json.dumps(row) + "\n")
    print(f"at end: {load()}")
    n = totals["outputs"]
    print(f"outputs {n}: phrased by the model {totals['llm']}, template {n - totals['llm']}")
    print(f"checkable claims in the final outputs: {totals['true']}/{totals['claims']} true")
    print(f"model outputs replaced for false claims or a missing move: {n - totals['llm']} "
          f"({totals['rejected claims']} false claims caught)")
    print(f"best move named in SAN: {totals['best named']}/{n}")
    print(f"mate threat named: {totals['threat named']}/{totals['threats']}")
    print(f"puzzle solution = engine's best: {totals['solved']}/{totals['puzzles']}")
    print(f"split per position (model loaded once): engine p50 {statistics.median(engine_s):.2f} s, "
          f"facts+phrasing+check p50 {statistics.median(coach_s):.2f} s; " + split_text(splits))
    if args.out:
        print(f"outputs appended to {args.out}")


SPLIT_KEYS = ("engine_s", "facts_s", "prompt_s", "generate_s", "check_s", "prompt_tokens", "generated_tokens")
"""The parts of a coached answer the `-v` log gives (seconds, then token counts)."""


def split_text(splits: list[dict[str, float]]) -> str:
    """'engine_s p50 0.51, ...' over the runs that report each key."""
    parts = []
    for key in SPLIT_KEYS:
        values = [s[key] for s in splits if key in s]
        if values:
            parts.append(f"{key} p50 {statistics.median(values):.{0 if key.endswith('tokens') else 2}f}")
    return ", ".join(parts)


def timed(tree: Path, fen: str, explain_: bool) -> dict[str, float | str]:
    """One `egocli -v chess --fen` in a tree, a new process as the user runs it: wall and CPU seconds (the
    command's and its engine's, from wait4) and the split its log gives (engine, facts, phrasing, check)."""
    cmd = [sys.executable, "-m", "egocli", "-v", "chess", "--fen", fen] + ([] if explain_ else ["--no-explain"])
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=tree, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's rusage, with the engine it waited for
        wall = time.perf_counter() - t0
        err.seek(0)
        log = err.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(cmd)} failed in {tree}:\n{log[-2000:]}")
    row: dict[str, float | str] = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                                   "source": "llm" if "source llm" in log else "template"}
    for line in log.splitlines():
        if " split: " in line:
            words = line.split(" split: ", 1)[1].replace(";", "").split()
            row.update({k: float(v) for k, v in zip(words[::2], words[1::2]) if k in SPLIT_KEYS})
    return row


def load_alone(tree: Path) -> float:
    """Seconds to load the coach's model in a new process (imports excluded): what the engine's time hides."""
    code = ("import time; from egocli.core.config import load_settings; from egocli.models.registry import load_llm;"
            " s = load_settings(); t = time.perf_counter(); load_llm(s); print(time.perf_counter() - t)")
    run = subprocess.run([sys.executable, "-c", code], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)},
                         capture_output=True, text=True, check=True)
    return float(run.stdout.split()[-1])


TOKENS = """
import json, sys
import chess
from egocli.chess.coach import explain
from egocli.chess.engine import UciEngine
from egocli.core.config import load_settings
from egocli.models.registry import load_llm


class Probe:
    # The model as loaded, counting what each generate call reads past the primed system turn and writes.
    def __init__(self, model):
        self._model, self.rows = model, []

    def __getattr__(self, name):
        return getattr(self._model, name)

    def generate(self, messages, **options):
        system = self._model.format_chat(messages[:1]).rsplit("<|im_start|>assistant", 1)[0]
        fresh = self._model.count_chat_tokens(messages) - self._model.count_tokens(system)
        out = "".join(self._model.generate(messages, **options))
        self.rows.append({"prompt_tokens": fresh, "generated_tokens": self._model.count_tokens(out) if out else 0,
                          "max_tokens": options.get("max_tokens")})
        yield out


model = Probe(load_llm(load_settings()))
with UciEngine() as engine:
    for fen in json.loads(sys.argv[1]):
        board = chess.Board(fen)
        explain(board, engine.analyse(board, 3, 0.5), model, attempts=1)
print(json.dumps(model.rows))
"""
"""Run in a tree (PYTHONPATH): its coach on each FEN with a probe on the model; token counts out."""


IDLE_RATES = (80.0, 24.0)
"""Prompt and generation tokens per second of the packaged 1.5B model on 2 idle cores (shared/MODELS.md)."""


def tokens(tree: Path, fens: list[str]) -> list[dict[str, int]]:
    """Per position, the prompt tokens past the primed system turn and the tokens generated by a tree's own
    coach (a figure other load does not sway)."""
    run = subprocess.run([sys.executable, "-c", TOKENS, json.dumps(fens)], cwd=tree, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tree)}, check=True)
    return json.loads(run.stdout.splitlines()[-1])


def run_speed(args: argparse.Namespace) -> None:
    """p50/p95 of the coached answer and the template, this tree and the baseline, in the same run, the order
    alternating position by position; this tree's split; the targets."""
    boards = [b for _, b, _ in positions(args.n)][: args.n]
    trees = [(ROOT, "current"), (Path(args.baseline), "baseline")]
    print(f"at start: {load()}")
    runs: dict[tuple[str, bool], list[dict[str, float | str]]] = {}
    for i, board in enumerate(boards):
        for tree, label in trees if i % 2 == 0 else trees[::-1]:
            for explain_ in (True, False) if i % 2 == 0 else (False, True):
                runs.setdefault((label, explain_), []).append(timed(tree, board.fen(), explain_))
    loads = [load_alone(ROOT) for _ in range(3)]
    counted = {label: tokens(tree, [b.fen() for b in boards]) for tree, label in trees}
    print(f"at end: {load()}")
    print(f"{len(boards)} positions (the first puzzles), `egocli chess --fen` in a new process each run")
    for explain_, target in ((True, 5.0), (False, 1.0)):
        report(runs[("current", explain_)], runs[("baseline", explain_)], explain_, target)
    print(f"model load alone (a new process, imports excluded): p50 {statistics.median(loads):.2f} s of 3; in the "
          f"command it runs while the engine thinks")
    for label, rows in counted.items():
        prompt, made = [r["prompt_tokens"] for r in rows], [r["generated_tokens"] for r in rows]
        idle = statistics.median(p / IDLE_RATES[0] + g / IDLE_RATES[1] for p, g in zip(prompt, made))
        print(f"{label} coach, tokens per answer (one process per tree, same positions): prompt past the primed "
              f"system turn p50 {statistics.median(prompt):.0f} max {max(prompt)}, generated p50 "
              f"{statistics.median(made):.0f} max {max(made)} (cap {rows[0]['max_tokens']}); at the idle rates "
              f"the model's part is p50 {idle:.2f} s")


def report(cur: list[dict[str, float | str]], base: list[dict[str, float | str]], explain_: bool,
           target: float) -> None:
    """One path's wall and CPU p50/p95, this tree against the baseline, the target, and this tree's split."""
    what = "coached" if explain_ else "template (--no-explain)"
    for key in ("wall", "cpu"):
        c, b = [float(r[key]) for r in cur], [float(r[key]) for r in base]
        ratio = statistics.median(b) / statistics.median(c)
        print(f"{what} {key} s: current p50 {statistics.median(c):.2f} p95 {pct(c, 0.95):.2f}; baseline p50 "
              f"{statistics.median(b):.2f} p95 {pct(b, 0.95):.2f}; baseline/current {ratio:.2f}x")
    p50 = statistics.median(float(r["wall"]) for r in cur)
    print(f"  target p50 <= {target:.0f} s: {'met' if p50 <= target else 'NOT met'} ({p50:.2f} s wall)")
    rest = [float(r["wall"]) - sum(float(r.get(k, 0.0)) for k in SPLIT_KEYS if k.endswith("_s")) for r in cur]
    kept = sum(r["source"] == "llm" for r in cur)
    print(f"  current split: {split_text(cur)}; the rest (start, imports, model load past the engine, output) "
          f"p50 {statistics.median(rest):.2f} s" + (f"; phrased by the model {kept}/{len(cur)}" if explain_ else ""))
    rates = [(float(r["prompt_tokens"]) / float(r["prompt_s"]), float(r["generated_tokens"]) / float(r["generate_s"]))
             for r in cur if float(r.get("prompt_s", 0.0)) > 0 and float(r.get("generate_s", 0.0)) > 0]
    if rates:  # how fast the machine ran the model meanwhile (idle, 2 cores: ~70-95 and ~24 tok/s, MODELS.md)
        print(f"  model speed in these runs: prompt p50 {statistics.median(r[0] for r in rates):.0f} tok/s, "
              f"generation p50 {statistics.median(r[1] for r in rates):.1f} tok/s")


def run_sample(args: argparse.Namespace) -> None:
    """A seeded random sample of the 130 positions, each printed to be read against the board by hand."""
    from egocli.core.config import load_settings
    from egocli.models.registry import load_llm

    model = load_llm(load_settings())
    todo = random.Random(args.seed).sample(positions(100), args.n)
    total = true = 0
    with UciEngine() as engine:
        for k, (name, board, _) in enumerate(todo, 1):
            lines = engine.analyse(board, 3, 0.5)
            said = explain(board, lines, model, attempts=1)
            checked = verdicts(board, lines, said.text)
            total, true = total + len(checked), true + sum(c.true for c in checked)
            best = lines[0]
            score = f"mate {best.mate}" if best.mate is not None else f"{(best.cp or 0) / 100:+.2f}"
            print(f"--- {k}. {name}: {board.fen()} ({'White' if board.turn else 'Black'} to move)")
            rows = board.unicode(empty_square="·").splitlines()  # white pieces outlined (♔), black filled (♚)
            print("\n".join(f"{8 - i} {row}" for i, row in enumerate(rows)) + "\n  a b c d e f g h")
            print(f"engine: {' '.join(best.san[:8])} ({score}, expected {best.expected:.2f})")
            print(f"coach ({said.source}): {said.text}")
            print("checker: " + "; ".join(f"{c.form} '{c.text}' {'true' if c.true else 'FALSE'}" for c in checked))
            if said.false:
                print(f"model's sentence replaced for: {'; '.join(said.false)}")
    print(f"sample of {args.n} (seed {args.seed}): checkable claims {true}/{total} true by the checker")


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
    s.add_argument("--n", type=int, default=10)
    h = sub.add_parser("sample")
    h.add_argument("--n", type=int, default=20)
    h.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    {"claims": run_claims, "speed": run_speed, "sample": run_sample}[args.part](args)


if __name__ == "__main__":
    main()
