"""The task suite file and its scoring."""

from __future__ import annotations

from pathlib import Path

from egocli.tools import tasks as suite
from egocli.tools.builtin import REGISTRY

from .conftest import NOW

TASKS = Path(__file__).resolve().parents[1] / "data" / "tasks.jsonl"


def test_suite_covers_three_categories_with_known_tools():
    items = suite.load(TASKS)
    assert len(items) >= 40 and len({t.id for t in items}) == len(items)
    per = {c: [t for t in items if t.category == c] for c in suite.CATEGORIES}
    assert all(len(group) >= 10 for group in per.values())
    assert sum(t.expect == "clarify" for t in items) >= 5
    for task in items:
        for call in [] if task.expect == "clarify" else task.expect:
            tool = REGISTRY.tools[call["tool"]]
            assert set(call["args"]) <= set(tool.schema["properties"]), task.id


def test_judge_kinds():
    task = suite.Task("f01", "foundational", "remind me to meet my mentor at 3 pm", [
        {"tool": "reminder_add", "args": {"text": {"has": ["mentor"]}, "due": {"time": "15:00"}}}])
    good = [("reminder_add", {"text": "Meet my mentor", "due": "3 pm", "place": ""})]
    assert suite.judge(task, None, good, 0, NOW) == "ok"
    assert suite.judge(task, None, [("reminder_add", {"text": "mentor", "due": "16:00"})], 0, NOW) == "wrong_args"
    assert suite.judge(task, None, [("note_add", {"text": "mentor"})], 0, NOW) == "wrong_tool"
    assert suite.judge(task, "When?", [], 0, NOW) == "needless_clarify"
    assert suite.judge(task, None, good * 2, 0, NOW) == "wrong_count"
    assert suite.judge(task, None, good, 1, NOW) == "rejected"
    ask = suite.Task("f15", "foundational", "remind me about it", "clarify")
    assert suite.judge(ask, None, good, 0, NOW) == "missed_clarify"
    summary = suite.summarize([(task, "ok"), (ask, "missed_clarify")])
    assert summary["all"] == {"tasks": 2, "completed": 1, "rate": 0.5, "failures": {"missed_clarify": 1}}
