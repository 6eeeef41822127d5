"""Summarize benchmark: `egocli summarize` over a realistic day of ~500 events, this code vs a baseline, one run.

The day: the everyday set's two days (bench/sets/everyday.jsonl) and the life-log week's Thursday
(bench/sets/lifeweek.jsonl) laid onto Monday 30 November 2026, `--events` of them drawn with a fixed seed
(a busy day: events in every hour, scripted happenings among much repeated background). Each variant gets a
fresh EGOCLI_HOME and log, imports the day with its own code, then runs `egocli summarize` in a child process;
the wall time of that command (Python start, model loads, every summary) is the figure, with its CPU seconds
(user + system, all threads: less swayed than wall time by other work on the machine). The child also
records, through a pass-through wrapper around the summarizer model, each model call's prompt tokens (and
those past the prefix llama.cpp has cached), generated pieces and seconds, by level, and the model load times;
from the tokens, the model time at the idle rates of shared/MODELS.md is printed too, a figure that the
machine's other work does not sway.

Variants:
- current: the `egocli` package of this checkout;
- baseline: the `egocli` package of git revision `--baseline-rev` (84b28bc: before issue 29's summarize
  work), extracted with `git archive` and run unchanged; or `--baseline-checkout DIR`; `--no-baseline`.

Usefulness is shown beside speed: the afternoon's hour summaries and the day summary of each variant, their
sizes (a question's context gives summaries a quarter of its 500 tokens), and how many of the day's
scripted happenings (events not drawn from the background lists) have most of their words in their hour's
summary. `--ask` also asks "what did I do this afternoon?" of each log with the default model.

The model cache (EGOCLI_MODEL_CACHE, else the default) is shared, so models are assembled once.
Run it alone: the figures are wall times on a shared machine, and `uptime` is printed beside them.

Usage: python bench/summarize.py [--events 500] [--baseline-rev 84b28bc | --baseline-checkout DIR |
       --no-baseline] [--ask] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.revision import baseline_code  # noqa: E402
SETS = REPO / "bench" / "sets"
DAY = "2026-11-30"
BASELINE_REV = "84b28bc"
QUESTION = "what did I do this afternoon?"
PROMPT_RATE, WRITE_RATE = 95, 24
"""Tokens a second the default 1.5B model reads and writes on an idle 2-core machine (shared/MODELS.md)."""
AFTERNOON = (12, 18)
_WORD = re.compile(r"[a-z0-9]+")
_PLAIN = frozenset("with from that this have your there their about into onto over then them they were what "
                   "when will just okay table".split())

DRIVER = r"""
import atexit, json, os, re, sys, time
from egocli.models import registry

STATS = {"loads": {}, "calls": [], "primes": []}
_load = registry.load


def _level(messages):
    for level in ("hour", "day", "week"):
        if f"Tell the {level}" in messages[0]["content"]:
            return level
    text = messages[-1]["content"][:80]
    if "the week of" in text:
        return "week"
    return "hour" if re.search(r"\d\d:00-\d\d:00", text) else "day"


class Probe:
    '''The summarizer model as loaded, counting what each call reads and writes.'''

    def __init__(self, model):
        self._model = model

    def __getattr__(self, name):
        return getattr(self._model, name)

    def generate(self, messages, **options):
        prompt = self._model.count_chat_tokens(messages)
        cached = self._model.cached_tokens([self._model.format_chat(messages)])  # llama.cpp keeps this prefix
        started, pieces, first = time.perf_counter(), 0, None
        for piece in self._model.generate(messages, **options):
            pieces += 1
            first = first if first is not None else time.perf_counter() - started
            yield piece
        STATS["calls"].append({"level": _level(messages), "prompt": prompt, "fresh": prompt - cached, "pieces": pieces,
                               "first_s": first or 0.0, "s": time.perf_counter() - started})

    def prime_system(self, system):
        started = time.perf_counter()
        restored = self._model.prime_system(system)
        STATS["primes"].append({"s": time.perf_counter() - started, "from_disk": restored})
        return restored


def load(role, settings, *args, **kwargs):
    started = time.perf_counter()
    model = _load(role, settings, *args, **kwargs)
    STATS["loads"][role] = time.perf_counter() - started
    return Probe(model) if role == "summarizer" else model


registry.load = load
atexit.register(lambda: open(os.environ["EGOCLI_BENCH_STATS"], "w").write(json.dumps(STATS)))
sys.argv = ["egocli", *sys.argv[1:]]
from egocli.cli.app import main
main()
"""


def _noise() -> set[str]:
    out = set()
    for name in ("everyday_noise.txt", "lifeweek_noise.txt"):
        for line in (SETS / name).read_text().splitlines():
            if len(line) > 2 and line[1] == " " and line[0] in "vstn":
                out.add(line[2:].strip())
    return out


def day_events(count: int, seed: int = 29) -> list[dict]:
    """`count` events of the sets' days laid onto one date, drawn with a fixed seed, in time order."""
    pool = []
    for name, days in (("everyday.jsonl", ("2026-11-30", "2026-12-01")), ("lifeweek.jsonl", ("2026-11-26",))):
        for line in (SETS / name).read_text().splitlines():
            ev = json.loads(line)
            if ev["start"][:10] in days and ev["end"][:10] == ev["start"][:10]:
                pool.append({**ev, "start": DAY + ev["start"][10:], "end": DAY + ev["end"][10:]})
    picked = random.Random(seed).sample(pool, min(count, len(pool)))
    return sorted(picked, key=lambda e: e["start"])


def uptime() -> str:
    """The 1, 5 and 15 minute load averages now."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(name: str, code: Path, day: Path, work: Path, ask: bool) -> dict:
    """Import the day into a fresh log with `code`'s egocli, then time its `summarize`."""
    home, db, stats = work / f"home-{name}", work / f"{name}.db", work / f"{name}-stats.json"
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "EGOCLI_HOME": str(home), "PYTHONPATH": str(code), "EGOCLI_BENCH_STATS": str(stats)}
    if "EGOCLI_MODEL_CACHE" not in env:
        env["EGOCLI_MODEL_CACHE"] = str(Path.home() / ".local" / "share" / "egocli" / "models")
    base = [sys.executable, "-m", "egocli", "--quiet", "--db", str(db)]
    subprocess.run([*base, "import", str(day), "--start", DAY + "T00:00:00"], env=env, check=True,
                   capture_output=True, cwd=work)
    load_before = uptime()
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", DRIVER, "--quiet", "--db", str(db), "summarize", "--json"],
                                env=env, stdout=out, stderr=err, cwd=work)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage: CPU seconds, less swayed by load
        wall = time.perf_counter() - started
        out.seek(0)
        err.seek(0)
        if code := os.waitstatus_to_exitcode(status):
            raise SystemExit(f"{name}: summarize failed (exit {code}): {err.read().decode()[-1500:]}")
        doc = json.loads(out.read())
    result = {"name": name, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "load_before": load_before,
              "load_after": uptime(), "db": db, "doc": doc, "stats": json.loads(stats.read_text())}
    if ask:
        answer = subprocess.run([*base, "ask", QUESTION, "--at", DAY + "T18:30:00"], env=env, capture_output=True,
                                text=True, cwd=work)
        result["answer"] = (answer.stdout or answer.stderr).strip()
    return result


def _summaries(db: Path) -> list[tuple[str, int, str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT level, start_ms, text, model FROM summaries ORDER BY start_ms, level").fetchall()


def _tokens(text: str) -> int:
    digits = sum(c.isdigit() for c in text)
    return digits + (len(text) - digits) * 5 // 18 + 1


def coverage(db: Path, events: list[dict]) -> tuple[int, int]:
    """(scripted happenings told by their hour's summary, scripted happenings): told means at least half of
    the event's longer words are in the summary."""
    noise = _noise()
    with sqlite3.connect(db) as conn:
        hours = {time.strftime("%H", time.localtime(s / 1000)): set(_WORD.findall(t.lower()))
                 for s, t in conn.execute("SELECT start_ms, text FROM summaries WHERE level = 'hour'")}
    told = total = 0
    for ev in events:
        if ev["content"] in noise:
            continue
        keys = {w for w in _WORD.findall(ev["content"].lower()) if len(w) >= 4 and w not in _PLAIN}
        if not keys:
            continue
        total += 1
        told += len(keys & hours.get(ev["start"][11:13], set())) * 2 >= len(keys)
    return told, total


def report(results: list[dict], events: list[dict]) -> None:
    """Figures per variant, the per-level model work, the afternoon's summaries, and the ratio."""
    for r in results:
        calls, loads = r["stats"]["calls"], r["stats"]["loads"]
        print(f"\n== {r['name']}: summarize wall {r['wall']:.1f} s, CPU {r['cpu']:.1f} s (load average before"
              f" {r['load_before']}, after {r['load_after']}) ==")
        print(f"built {r['doc']['summaries_built']} summaries; model loads: "
              + ", ".join(f"{k} {v:.1f} s" for k, v in loads.items()))
        rows = _summaries(r["db"])
        for level in ("hour", "day", "week"):
            mine = [c for c in calls if c["level"] == level]
            built = [x for x in rows if x[0] == level]
            by_model = len([x for x in built if x[3] != "extractive"])
            if not built:
                continue
            n = max(len(mine), 1)
            print(f"  {level:<5} chunks {len(built):3d}  model calls {len(mine):3d} (written by a model {by_model:3d})"
                  f"  prompt tok {sum(c['prompt'] for c in mine):6d} ({sum(c['prompt'] for c in mine) / n:5.0f}/call)"
                  f"  generated {sum(c['pieces'] for c in mine):5d} ({sum(c['pieces'] for c in mine) / n:4.0f}/call)"
                  f"  model s {sum(c['s'] for c in mine):6.1f}"
                  f"  summary tok {sum(_tokens(x[2]) for x in built) / len(built):4.0f} avg")
        fresh, written = sum(c["fresh"] for c in calls), sum(c["pieces"] for c in calls)
        idle = fresh / PROMPT_RATE + written / WRITE_RATE
        print(f"  prompt tokens evaluated (past the cached prefix) {fresh}, written {written}: {idle:.0f} s of model"
              f" time at {PROMPT_RATE} and {WRITE_RATE} tok/s (the 1.5B model on an idle 2-core machine)")
        primes = r["stats"]["primes"]
        if primes:
            print(f"  system turns primed {len(primes)}x ({sum(p['from_disk'] for p in primes)} from disk),"
                  f" {sum(p['s'] for p in primes):.1f} s")
        told, total = coverage(r["db"], events)
        print(f"  scripted happenings told by their hour's summary: {told}/{total}")
        print("  the afternoon:")
        for level, start, text, model in rows:
            hour = int(time.strftime("%H", time.localtime(start / 1000)))
            if level == "day" or (level == "hour" and AFTERNOON[0] <= hour < AFTERNOON[1]):
                label = f"{hour:02d}:00" if level == "hour" else "day  "
                print(f"    [{label}] ({model}, {_tokens(text)} tok) {text}")
        if "answer" in r:
            print(f"  ask {QUESTION!r}: {r['answer']}")
    if len(results) == 2:
        now, base = results
        print(f"\ncurrent vs baseline, same run: {base['wall'] / now['wall']:.2f}x faster wall ({now['wall']:.1f} s"
              f" vs {base['wall']:.1f} s), {base['cpu'] / now['cpu']:.2f}x less CPU ({now['cpu']:.1f} s vs"
              f" {base['cpu']:.1f} s)")


def main() -> None:
    """Build the day, run each variant, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=500)
    ap.add_argument("--baseline-rev", default=BASELINE_REV)
    ap.add_argument("--baseline-checkout", type=Path)
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--ask", action="store_true", help=f"also ask {QUESTION!r} of each log (default model)")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="egocli-bench-summarize-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        events = day_events(args.events)
        day = work / "day.jsonl"
        day.write_text("".join(json.dumps(e) + "\n" for e in events))
        hours = len({e["start"][11:13] for e in events})
        print(f"day {DAY}: {len(events)} events over {hours} hours; {os.cpu_count()} CPUs")
        variants = [("current", REPO)]
        if not args.no_baseline:
            base = args.baseline_checkout or baseline_code(args.baseline_rev, work)
            variants.append((f"baseline {args.baseline_rev if not args.baseline_checkout else base}", base))
        results = [run(name.split()[0], code, day, work, args.ask) | {"name": name} for name, code in variants]
        report(results, events)


if __name__ == "__main__":
    main()
