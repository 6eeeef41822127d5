"""Ingest benchmark: a 10-minute glasses recording (the example looped) with the default models.

Prints the real-time factor (recording seconds per wall second), per-stage time (video-only and
audio-only runs), events per minute and peak RSS, beside the baseline measured in the same run:
describing every frame at 1 FPS with no scene-change skipping (the reference design's schedule).
Each configuration runs `egocli ingest` in its own process (model loading included).

Usage: python bench/ingest.py [--minutes 10] [--extra-args "--no-redact"]
Redaction (faces blurred, text masked) is on by default; the "no-redact" run shows what it costs.
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


def run(video: Path, work: Path, name: str, extra: list[str]) -> dict:
    """One `egocli ingest` in a child process: wall seconds, peak RSS (MB), events by modality."""
    db = work / f"{name}.db"
    env = {**os.environ, "EGOCLI_HOME": str(work / "home")}
    cmd = [sys.executable, "-m", "egocli", "--quiet", "--db", str(db), "ingest", str(video), "--json", *extra]
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage: its peak RSS
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        if os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{name}: ingest failed: {err.read().decode()[-500:]}")
        result = json.loads(out.read())[0]
    return {"name": name, "wall": wall, "events": result["events"], "counts": result["counts"],
            "rss": usage.ru_maxrss / 1024}


def main() -> None:
    """Build the long recording, run each configuration, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--extra-args", default="", help="Extra flags for every ingest run.")
    args = ap.parse_args()
    from egocli.ingest.synthetic import loop_recording

    extra = shlex.split(args.extra_args)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        video = work / "long.mp4"
        times = max(1, round(args.minutes * 60 / 24))
        seconds = loop_recording(EXAMPLE, video, times)
        configs = [("default", extra), ("video-only", ["--no-audio", *extra]),
                   ("audio-only", ["--no-video", *extra]),
                   ("no-redact", ["--no-redact", *extra]),
                   ("baseline-every-frame", ["--scene-threshold", "0", *extra])]
        results = [run(video, work, name, flags) for name, flags in configs]
    print(f"recording: {seconds / 60:.1f} min ({seconds:.0f} s), example looped {times}x; peak RSS is the "
          "whole process (models included)")
    for r in results:
        n = sum(r["events"].values())
        print(f"{r['name']:<22} wall {r['wall']:6.1f} s  real-time factor {seconds / r['wall']:5.1f}x  "
              f"events/min {n / (seconds / 60):5.1f}  frames kept {r['counts'].get('kept', '-')}"
              f"/{r['counts'].get('frames', '-')}  peak RSS {r['rss']:.0f} MB")
    base = results[-1]["wall"]
    print(f"redaction cost: default {results[0]['wall']:.1f} s vs --no-redact {results[3]['wall']:.1f} s "
          f"({results[0]['wall'] / results[3]['wall']:.2f}x the time)")
    print(f"default vs baseline (every frame described): {base / results[0]['wall']:.2f}x faster "
          f"(target: default >= 10x real time)")


if __name__ == "__main__":
    main()
