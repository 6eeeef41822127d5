"""Fixtures for the tool tests: a log, a fixed clock and plan builders (the model is egocli.models.fake.ScriptedModel)."""

from __future__ import annotations

from typing import Any

import pytest

from egocli.store import Store
from egocli.core.timeutil import parse_time_ms
from egocli.tools.registry import ToolContext

NOW = parse_time_ms("2026-11-30T14:05:00")


def calls(*pairs: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A plan with these (tool, args) calls."""
    return {"calls": [{"tool": t, "args": a} for t, a in pairs]}


@pytest.fixture
def store() -> Store:
    """An empty in-memory log."""
    return Store.open(None)


@pytest.fixture
def ctx(store: Store) -> ToolContext:
    """A CLI tool context on the in-memory log with a fixed clock."""
    return ToolContext(store, None, "cli", fixed_now_ms=NOW)


def tool_events(store: Store) -> list[Any]:
    """The audit trail (its own table, not events), oldest first."""
    from egocli.store.auditlog import audit_rows

    return audit_rows(store)
