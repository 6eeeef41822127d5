"""Ingest benchmark: a 10-minute glasses recording and a 2-minute clip, each as a fresh `egocli ingest`.

For each recording it runs the default pipeline and a baseline in the same run, and prints the
real-time factor (recording seconds per wall second), CPU seconds (user + system, all threads),
peak RSS, events, and the per-stage table (`IngestResult.timings`: seconds each stage's thread
spent; stages overlap, so they add up to more than the wall time).

Baselines:
- default: `--no-text-gate` with `[ocr] angle = true` (every kept frame read in full by RapidOCR
  with its angle classifier, as before the text gate) on the same code;
- `--baseline-checkout DIR`: the `egocli` of another checkout (e.g. /work/main before the change),
  run unchanged, for a true before/after.

Usage: python bench/ingest.py [--minutes 10] [--clip-minutes 2] [--baseline-checkout DIR]
       [--extra-args "--no-redact"] [--split] [--no-baseline]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "glasses.mp4"


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
            "events": result["events"], "counts": result["counts"], "timings": result.get("timings", {})}


def configs(args: argparse.Namespace, extra: list[str]) -> list[tuple[str, list[str], Path, str]]:
    """(name, flags, code checkout, config.toml text) for the default run and its baseline."""
    if args.baseline_checkout:
        base = ("baseline", extra, Path(args.baseline_checkout).resolve(), "")
    else:
        base = ("baseline", ["--no-text-gate", *extra], REPO, "[ocr]\nangle = true\n")
    split = [("video-only", ["--no-audio", *extra], REPO, ""), ("audio-only", ["--no-video", *extra], REPO, "")]
    return [("default", extra, REPO, ""), base] + (split if args.split else [])


def report(label: str, seconds: float, results: list[dict]) -> None:
    """Print one recording's figures and the per-stage table side by side."""
    print(f"\n== {label}: {seconds / 60:.1f} min ({seconds:.0f} s) ==")
    for r in results:
        n = sum(r["events"].values())
        print(f"{r['name']:<10} wall {r['wall']:6.1f} s  real-time {seconds / r['wall']:5.1f}x  CPU {r['cpu']:6.1f} s  "
              f"peak RSS {r['rss']:5.0f} MB  events {n} {dict(sorted(r['events'].items()))}  "
              f"frames kept {r['counts'].get('kept', '-')}/{r['counts'].get('frames', '-')}")
    stages = sorted({s for r in results for s in r["timings"]},
                    key=lambda s: -max(r["timings"].get(s, {}).get("seconds", 0) for r in results))
    if stages:
        print(f"{'stage (s)':<22}" + "".join(f"{r['name']:>12}" for r in results))
        for s in stages:
            cells = "".join(f"{r['timings'][s]['seconds']:12.2f}" if s in r["timings"] else f"{'-':>12}"
                            for r in results)
            print(f"{s:<22}{cells}")
    if len(results) >= 2 and results[1]["name"] == "baseline":
        print(f"default vs baseline: {results[1]['wall'] / results[0]['wall']:.2f}x faster wall, "
              f"{results[1]['cpu'] / results[0]['cpu']:.2f}x less CPU")


def main() -> None:
    """Build the recordings, run each configuration as a fresh process, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--clip-minutes", type=float, default=2.0)
    ap.add_argument("--baseline-checkout", default="", help="Run the baseline with this checkout's egocli.")
    ap.add_argument("--extra-args", default="", help="Extra flags for every ingest run.")
    ap.add_argument("--split", action="store_true", help="Also run video-only and audio-only (CPU per side).")
    ap.add_argument("--no-baseline", action="store_true", help="Skip the baseline runs.")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO))
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
            chosen = [c for c in configs(args, extra) if not (args.no_baseline and c[0] == "baseline")]
            results = [run(video, work, f"{name}-{video.stem}", flags, code, cfg) for name, flags, code, cfg in chosen]
            for r, (name, *_rest) in zip(results, chosen, strict=True):
                r["name"] = name
            report(f"{label}, example looped {times}x", seconds, results)
    print("\nTargets (issue 19): default >= 20x real time on the long recording, >= 10x on the 2-minute clip "
          "(start-up included); timings are only meaningful on an otherwise idle machine.")


if __name__ == "__main__":
    main()
