"""Fixtures for the tool tests: a scripted TextModel (a fake at the Protocol boundary) and a log."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from egocli.store import Store
from egocli.timeutil import parse_time_ms
from egocli.tools.registry import ToolContext

NOW = parse_time_ms("2026-11-30T14:05:00")


class ScriptedModel:
    """A TextModel that replies with prepared texts in order and remembers every prompt it saw."""

    name = "scripted"
    context_size = 4096

    def __init__(self, *replies: Any) -> None:
        self.replies = [r if isinstance(r, str) else json.dumps(r) for r in replies]
        self.prompts: list[list[dict[str, str]]] = []

    def generate(self, messages: Sequence[dict[str, str]], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Iterator[str]:
        """Yield the next prepared reply."""
        self.prompts.append([dict(m) for m in messages])
        if not self.replies:
            raise AssertionError("the model was called more often than scripted")
        yield self.replies.pop(0)

    def count_tokens(self, text: str) -> int:
        """Whitespace words."""
        return len(text.split())


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
    """The audit trail, oldest first."""
    from egocli.store import EventFilter

    return list(store.events(EventFilter(modalities=("tool",))))
