"""Ingest benchmark: a 10-minute glasses recording and a 2-minute clip, each as a fresh `egocli ingest`.

For each recording it runs the default pipeline and a baseline in the same run, and prints the
real-time factor (recording seconds per wall second), CPU seconds (user + system, all threads),
peak RSS, events, the word error rate of the speech events against the example's script (JFK's
line from ../shared/data/audio/jfk.txt and the synthesised note, once per loop), and the
per-stage table (`IngestResult.timings`: seconds each stage's thread spent; stages overlap, so
they add up to more than the wall time).

Per-stage CPU (`CPU` table): the long recording is also ingested video-only and audio-only with the
default code; each stage's CPU is its thread's (exact), the speech recogniser's the process's while
it ran (exact in the audio-only run, where nothing else runs); what no stage covers (imports,
FFmpeg's decoder threads, embedding the events for `ask`, exit) is its own row.

Baselines:
- default: the `egocli` package of git revision `--baseline-rev` (2702dd5: main before the fourth
  round of issue 19, where the video threads do not yet yield to speech; bab9150 is main before the
  third round, without speech packing), extracted with `git archive` and run unchanged;
- `--baseline-checkout DIR`: the `egocli` of another checkout;
- `--old-pipeline`: `--no-text-gate` with `[ocr] angle = true` on this code (before the text gate).

Usage: python bench/ingest.py [--minutes 10] [--clip-minutes 2] [--baseline-rev REV | --baseline-checkout DIR |
       --old-pipeline] [--extra-args "--no-redact"] [--no-split] [--no-baseline] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.revision import baseline_code  # noqa: E402
EXAMPLE = REPO / "examples" / "glasses.mp4"
JFK = REPO.parent / "shared" / "data" / "audio" / "jfk.txt"
NOTE = "Remember, the house keys are in the blue bowl by the front door."  # scripts/make_example.py
BASELINE_REV = "2702dd5"


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9' ]", " ", text.lower()).split()


def word_errors(hyp: list[str], ref: list[str]) -> int:
    """Levenshtein distance in words (substitutions + insertions + deletions)."""
    row = list(range(len(ref) + 1))
    for i, h in enumerate(hyp, 1):
        prev, row[0] = row[0], i
        for j, r in enumerate(ref, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (h != r))
    return row[-1]


def speech_wer(db: Path, loops: int) -> float | None:
    """Word error rate of the stored speech (in time order) against the example's script x loops."""
    if not JFK.is_file():
        return None
    ref = (_words(JFK.read_text()) + _words(NOTE)) * loops
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT content FROM events WHERE modality = 'speech' ORDER BY start_ms").fetchall()
    hyp = [w for (text,) in rows for w in _words(text)]
    return word_errors(hyp, ref) / len(ref)


def run(video: Path, work: Path, name: str, extra: list[str], code: Path = REPO, config: str = "") -> dict:
    """One `egocli ingest` in a child process: wall s, CPU s, peak RSS MB, events, stage timings."""
    home = work / f"home-{name}"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config)
    db = work / f"{name}.db"
    db.unlink(missing_ok=True)
    env = {**os.environ, "EGOCLI_HOME": str(home), "PYTHONPATH": str(code)}
    cmd = [sys.executable, "-m", "egocli", "--quiet", "--db", str(db), "ingest", str(video), "--json", *extra]
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err, cwd=work)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage: CPU time and peak RSS
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{name}: ingest failed: {err.read().decode()[-800:]}")
        result = json.loads(out.read())[0]
    return {"name": name, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "events": result["events"], "counts": result["counts"], "timings": result.get("timings", {}), "db": db}


def configs(args: argparse.Namespace, extra: list[str], work: Path,
            split: bool) -> list[tuple[str, list[str], Path, str]]:
    """(name, flags, code checkout, config.toml text) for the default run, its baseline and the split runs."""
    if args.baseline_checkout:
        base = ("baseline", extra, Path(args.baseline_checkout).resolve(), "")
    elif args.old_pipeline:
        base = ("baseline", ["--no-text-gate", *extra], REPO, "[ocr]\nangle = true\n")
    else:
        base = ("baseline", extra, baseline_code(args.baseline_rev, work), "")
    chosen = [("default", extra, REPO, "")] + ([] if args.no_baseline else [base])
    split_runs = [("video-only", ["--no-audio", *extra], REPO, ""), ("audio-only", ["--no-video", *extra], REPO, "")]
    return chosen + (split_runs if split else [])


def report(label: str, seconds: float, results: list[dict]) -> None:
    """Print one recording's figures, the per-stage wall and CPU tables, and the ratio to the baseline."""
    print(f"\n== {label}: {seconds / 60:.1f} min ({seconds:.0f} s) ==")
    for r in results:
        n = sum(r["events"].values())
        wer = "-" if r.get("wer") is None else f"{r['wer']:.3f}"
        print(f"{r['name']:<10} wall {r['wall']:6.1f} s  real-time {seconds / r['wall']:5.1f}x  CPU {r['cpu']:6.1f} s  "
              f"peak RSS {r['rss']:5.0f} MB  WER {wer}  events {n} {dict(sorted(r['events'].items()))}  "
              f"frames kept {r['counts'].get('kept', '-')}/{r['counts'].get('frames', '-')}"
              + (f"  (median of walls {r['walls']})" if len(r.get("walls", [])) > 1 else ""))
    _table("stage wall (s)", "seconds", [r for r in results if "-only" not in r["name"]])
    _table("stage CPU (s), one side at a time", "cpu", [r for r in results if "-only" in r["name"]])
    if len(results) >= 2 and results[1]["name"] == "baseline":
        print(f"default vs baseline: {results[1]['wall'] / results[0]['wall']:.2f}x faster wall, "
              f"{results[1]['cpu'] / results[0]['cpu']:.2f}x less CPU")


def _table(title: str, key: str, results: list[dict]) -> None:
    stages = sorted({s for r in results for s in r["timings"]},
                    key=lambda s: -max(r["timings"].get(s, {}).get(key, 0) for r in results))
    if not stages:
        return
    print(f"{title:<34}" + "".join(f"{r['name']:>12}" for r in results))
    for s in stages:
        cells = "".join(f"{r['timings'][s].get(key, 0.0):12.2f}" if s in r["timings"] else f"{'-':>12}"
                        for r in results)
        print(f"{s:<34}{cells}")
    if key == "cpu":
        rest = [r["cpu"] - sum(t.get("cpu", 0.0) for t in r["timings"].values()) for r in results]
        print(f"{'outside stages (imports, embedding':<34}" + "".join(f"{x:12.2f}" for x in rest))
        print(f"{'  for ask, decoder threads, exit)':<34}")
        print(f"{'process CPU (rusage, all)':<34}" + "".join(f"{r['cpu']:12.2f}" for r in results))


def _median_runs(video: Path, work: Path, chosen: list[tuple[str, list[str], Path, str]], repeat: int) -> list[dict]:
    """Each configuration's run of median wall time; the default and its baseline are run `repeat` times,
    alternating (this machine's wall times vary by +-1.5 s from run to run), the split runs once."""
    walls: dict[str, list[dict]] = {}
    for i in range(repeat):
        for name, flags, code, cfg in chosen:
            if i == 0 or "-only" not in name:
                walls.setdefault(name, []).append(run(video, work, f"{name}-{video.stem}-{i}", flags, code, cfg))
    out = []
    for name, *_rest in chosen:
        runs = sorted(walls[name], key=lambda r: r["wall"])
        pick = runs[len(runs) // 2]
        pick["walls"] = [round(r["wall"], 1) for r in walls[name]]
        out.append(pick)
    return out


def main() -> None:
    """Build the recordings, run each configuration as a fresh process, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--clip-minutes", type=float, default=2.0)
    ap.add_argument("--baseline-rev", default=BASELINE_REV, help="Run the baseline with this git revision's egocli.")
    ap.add_argument("--baseline-checkout", default="", help="Run the baseline with this checkout's egocli.")
    ap.add_argument("--old-pipeline", action="store_true", help="Baseline: this code without the text gate.")
    ap.add_argument("--extra-args", default="", help="Extra flags for every ingest run.")
    ap.add_argument("--no-split", action="store_true", help="Skip the video-only and audio-only runs (stage CPU).")
    ap.add_argument("--no-baseline", action="store_true", help="Skip the baseline runs.")
    ap.add_argument("--repeat", type=int, default=3, help="Runs of the default and the baseline (median kept).")
    args = ap.parse_args()
    from egocli.ingest.synthetic import loop_recording

    extra = shlex.split(args.extra_args)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for label, minutes in (("long recording", args.minutes), ("short clip", args.clip_minutes)):
            if minutes <= 0:
                continue
            video = work / f"{label.split()[0]}.mp4"
            times = max(1, round(minutes * 60 / 24))
            seconds = loop_recording(EXAMPLE, video, times)
            chosen = configs(args, extra, work, split=not args.no_split and label == "long recording")
            results = _median_runs(video, work, chosen, args.repeat)
            for r, (name, *_rest) in zip(results, chosen, strict=True):
                r["name"] = name
                r["wer"] = speech_wer(r["db"], times) if "video-only" not in name else None
            report(f"{label}, example looped {times}x", seconds, results)
    print("\nTargets (issue 19): default >= 20x real time on the long recording, >= 10x on the 2-minute clip "
          "(start-up included); timings are only meaningful on an otherwise idle machine.")


if __name__ == "__main__":
    main()
