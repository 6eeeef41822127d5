"""`egocli do`: fake model for the plumbing; SmolLM2 and Qwen2.5-1.5B through llama.cpp (slow)."""

from __future__ import annotations

import importlib.util
import json

import pytest

from egocli.core.config import load_settings
from egocli.store import EventFilter, Store
from egocli.store.auditlog import audit_rows
from egocli.tools import reminders


def test_clarification_comes_back_as_a_question_in_json(cli, db):
    res = cli("do", "--llm", "fake", "--json", "remind me about it")
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == "clarify" and out["question"] == "What should I remind you about, and when?"


def test_fake_model_has_no_tool_for_chit_chat(cli, db):
    res = cli("do", "--llm", "fake", "tell me a joke")
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip() == "I have no tool for that."


def test_empty_request_is_a_usage_error(cli):
    res = cli("do", "--llm", "fake", "  ")
    assert res.exit_code == 2 and "empty request" in res.stderr


def _require(name: str) -> None:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python not installed")
    from egocli.models import registry

    present, note = registry.status(registry.resolve("llm", load_settings(models={"llm": name})))
    if not present:
        pytest.skip(f"{name}: {note}")


@pytest.mark.slow
def test_smollm2_plans_are_schema_valid(cli, db):
    _require("smollm2")
    res = cli("do", "--llm", "smollm2", "--json", "show me my notes")
    assert res.exit_code in (0, 1), res.stderr
    out = json.loads(res.stdout)
    assert out["status"] in ("done", "partial", "failed", "declined", "clarify", "nothing")
    assert all(step["status"] != "rejected" for step in out["steps"])  # constrained output: always valid


@pytest.mark.slow
def test_qwen_sets_the_reminder_from_a_clear_request(cli, db):
    _require("qwen1.5b")
    res = cli("do", "--llm", "qwen1.5b", "--yes", "--json",
              "remind me to meet my mentor at 3 pm in Meeting Room 1")
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["status"] == "done", out
    [step] = out["steps"]
    assert step["tool"] == "reminder_add" and step["confirmed"] is True
    store = Store.open(db)
    [r] = reminders.reminders(store)
    assert "mentor" in r.text.lower() and "meeting room 1" in r.place.lower()
    assert reminders.parse_due("15:00", r.created_ms) == r.due_ms
    assert [e.meta["status"] for e in audit_rows(store)] == ["ok"]
    assert not list(store.events(EventFilter(modalities=("tool",))))  # the audit is not in the events
