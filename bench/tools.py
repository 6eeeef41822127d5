"""Benchmark tool use: the task suite (tests/data/tasks.jsonl) planned by local models.

    python bench/tools.py [--models qwen1.5b,qwen0.5b] [--per-category N] [--ids f01,e02] [--jsonl out.jsonl]

Each request goes through the orchestrator's planning path (clarifier + constrained plan +
strict validation, one repair round); nothing is executed. A task is completed when the plan
has the right tools with the right arguments (or asks a question when the task expects one),
with no human correction. Prints the completion rate per category, the failure kinds and the
mean seconds per request, per model. The clock is fixed (Monday 2026-11-30 14:05 local).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from egocli.core.config import load_settings
from egocli.models import registry
from egocli.store import Store
from egocli.core.timeutil import parse_time_ms
from egocli.tools import tasks as suite
from egocli.tools.orchestrator import Orchestrator
from egocli.tools.registry import ToolContext

TASKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "tasks.jsonl"
NOW = parse_time_ms("2026-11-30T14:05:00")


def pick(items: list[suite.Task], per_category: int | None, ids: set[str]) -> list[suite.Task]:
    """A subset: chosen ids, or the first N of each category (spread: every k-th task)."""
    if ids:
        return [t for t in items if t.id in ids]
    if not per_category:
        return items
    out = []
    for cat in suite.CATEGORIES:
        group = [t for t in items if t.category == cat]
        step = max(1, len(group) // per_category)
        out += group[::step][:per_category]
    return out


def run_model(name: str, items: list[suite.Task], sink: object | None) -> dict:
    """Plan every task with one model; returns the per-category summary plus timing."""
    settings = load_settings(models={"llm": name})
    llm = registry.load("llm", settings)
    ctx = ToolContext(Store.open(None), settings, "cli", fixed_now_ms=NOW)
    orch = Orchestrator(llm, ctx)
    print(f"{name}: system prompt {llm.count_tokens(orch.system)} tokens", file=sys.stderr)
    results, seconds = [], []
    for task in items:
        started = time.perf_counter()
        checked = orch.check(task.request)
        seconds.append(time.perf_counter() - started)
        calls = [(tool.name, args) for tool, args in checked.calls]
        verdict = suite.judge(task, checked.question, calls, len(checked.rejected), NOW)
        results.append((task, verdict))
        row = {"model": name, "id": task.id, "verdict": verdict, "question": checked.question, "calls": calls,
               "rejected": [s.error for s in checked.rejected], "seconds": round(seconds[-1], 1)}
        print(json.dumps(row), file=sys.stderr, flush=True)
        if sink is not None:
            print(json.dumps(row), file=sink, flush=True)
    summary = suite.summarize(results)
    summary["all"]["mean_s"] = sum(seconds) / len(seconds)
    return summary


def main() -> None:
    """Run the suite for each model and print a table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="qwen1.5b,qwen0.5b", help="comma-separated model names or paths")
    ap.add_argument("--per-category", type=int, default=None, help="only N tasks per category")
    ap.add_argument("--ids", default="", help="only these task ids (comma-separated)")
    ap.add_argument("--tasks", type=Path, default=TASKS)
    ap.add_argument("--jsonl", type=Path, default=None, help="also write one row per task here")
    args = ap.parse_args()
    items = pick(suite.load(args.tasks), args.per_category, {i for i in args.ids.split(",") if i})
    sink = args.jsonl.open("a", encoding="utf-8") if args.jsonl else None
    print(f"{len(items)} tasks")
    for name in [m for m in args.models.split(",") if m]:
        summary = run_model(name, items, sink)
        print(f"\nmodel {name}  (mean {summary['all']['mean_s']:.1f} s/request)")
        print(f"{'category':<14}{'done':>6}{'tasks':>7}{'rate':>8}  failures")
        for cat, row in summary.items():
            print(f"{cat:<14}{row['completed']:>6}{row['tasks']:>7}{100 * row['rate']:>7.1f}%  "
                  f"{json.dumps(row['failures'])}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
