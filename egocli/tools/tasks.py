"""The tool-use task suite: load tasks, check a plan against the expected calls, score per category.

A task is one JSON line: {id, category, request, expect}, where expect is "clarify" or a list of
{tool, args}. An expected argument is a literal (compared case-insensitively for text), {"has":
[words...]} (each must appear), or {"time": "..."} (the same instant once parsed at the bench's clock).
Arguments not listed are not checked.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from egocli.core.errors import EgoError, InputError
from egocli.tools.reminders import parse_due

CATEGORIES = ("foundational", "embodied", "chess")


@dataclass(frozen=True)
class Task:
    """One request with its expected plan."""

    id: str
    """Short id (f01, e03, c10)."""
    category: str
    """foundational, embodied or chess."""
    request: str
    """What the user says."""
    expect: Any
    """'clarify', or a list of {tool, args} in order."""


def load(path: Path) -> list[Task]:
    """Tasks from a JSONL file; InputError names the bad line."""
    tasks = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            task = Task(data["id"], data["category"], data["request"], data["expect"])
        except (json.JSONDecodeError, KeyError, TypeError) as ex:
            raise InputError(f"{path}:{n}: not a task: {ex}") from ex
        if task.category not in CATEGORIES:
            raise InputError(f"{path}:{n}: unknown category {task.category!r}")
        tasks.append(task)
    return tasks


def _arg_ok(expected: Any, actual: Any, now_ms: int) -> bool:
    if isinstance(expected, dict) and "has" in expected:
        return isinstance(actual, str) and all(w.lower() in actual.lower() for w in expected["has"])
    if isinstance(expected, dict) and "time" in expected:
        try:
            return isinstance(actual, str) and parse_due(actual, now_ms) == parse_due(expected["time"], now_ms)
        except EgoError:
            return False
    if isinstance(expected, str):
        return isinstance(actual, str) and actual.strip().lower() == expected.strip().lower()
    return type(actual) is type(expected) and actual == expected


def judge(task: Task, question: str | None, calls: list[tuple[str, dict[str, Any]]], rejected: int,
          now_ms: int) -> str:
    """'ok' or the failure kind: missed_clarify, needless_clarify, rejected, wrong_count, wrong_tool, wrong_args."""
    if task.expect == "clarify":
        return "ok" if question else "missed_clarify"
    if question:
        return "needless_clarify"
    if rejected:
        return "rejected"
    if len(calls) != len(task.expect):
        return "wrong_count"
    for (name, args), want in zip(calls, task.expect):
        if name != want["tool"]:
            return "wrong_tool"
        if not all(_arg_ok(v, args.get(k), now_ms) for k, v in want.get("args", {}).items()):
            return "wrong_args"
    return "ok"


def summarize(results: list[tuple[Task, str]]) -> dict[str, dict[str, Any]]:
    """Per category (and 'all'): tasks, completed, rate and failure kinds."""
    out: dict[str, dict[str, Any]] = {}
    for cat in (*CATEGORIES, "all"):
        rows = [verdict for task, verdict in results if cat in ("all", task.category)]
        if not rows:
            continue
        done = sum(1 for v in rows if v == "ok")
        out[cat] = {"tasks": len(rows), "completed": done, "rate": done / len(rows),
                    "failures": dict(Counter(v for v in rows if v != "ok"))}
    return out
