"""The registry: schemas from signatures and docstrings, strict validation, allowlists."""

from __future__ import annotations

from typing import Literal

import pytest

from egocli.tools.builtin import REGISTRY
from egocli.tools.registry import ToolArgumentError, ToolRegistry, ToolResult, validate


def test_schema_comes_from_signature_and_docstring():
    tool = REGISTRY.tools["reminder_add"]
    assert tool.side_effects
    assert tool.description == "Set a reminder."
    assert tool.schema["required"] == ["text", "due"]
    props = tool.schema["properties"]
    assert props["text"]["type"] == "string" and "remind about" in props["text"]["description"]
    assert props["place"] == {"type": "string", "description": "where, if said", "default": ""}
    assert tool.schema["additionalProperties"] is False
    assert not REGISTRY.tools["memory_search"].side_effects
    assert REGISTRY.tools["memory_search"].schema["properties"]["limit"]["type"] == "integer"


def test_literals_lists_and_bools_map_to_json_schema():
    reg = ToolRegistry()

    @reg.tool()
    def pick(ctx, colour: Literal["red", "blue"], tags: list[str], loud: bool = False) -> ToolResult:
        """Pick something.

        Args:
            colour: which colour
            tags: labels to attach
        """
        return ToolResult(None, "")

    schema = reg.tools["pick"].schema
    assert schema["properties"]["colour"] == {"type": "string", "enum": ["red", "blue"], "description": "which colour"}
    assert schema["properties"]["tags"]["items"] == {"type": "string"}
    assert schema["properties"]["loud"] == {"type": "boolean", "default": False}
    assert validate(reg.tools["pick"], {"colour": "red", "tags": ["a"]}) == {"colour": "red", "tags": ["a"], "loud": False}
    with pytest.raises(ToolArgumentError, match="one of"):
        validate(reg.tools["pick"], {"colour": "green", "tags": []})
    with pytest.raises(ToolArgumentError, match=r"tags\[1\]"):
        validate(reg.tools["pick"], {"colour": "red", "tags": ["a", 2]})


@pytest.mark.parametrize("args, message", [
    ({"reminder_id": "12"}, "must be integer, got str"),
    ({"reminder_id": True}, "must be integer, got bool"),
    ({"reminder_id": 12.0}, "must be integer, got float"),
    ({}, "needs argument 'reminder_id'"),
    ({"reminder_id": 1, "force": True}, "no argument 'force'"),
])
def test_wrong_arguments_are_rejected_not_coerced(args, message):
    with pytest.raises(ToolArgumentError, match=message):
        validate(REGISTRY.tools["reminder_done"], args)


def test_strings_are_not_coerced_either():
    with pytest.raises(ToolArgumentError, match="'due' must be string, got int"):
        validate(REGISTRY.tools["reminder_add"], {"text": "x", "due": 15})
    with pytest.raises(ToolArgumentError, match="must be an object"):
        validate(REGISTRY.tools["reminder_add"], ["x", "15:00"])


def test_allowlists_per_context():
    assert REGISTRY.resolve("note_delete", "cli").name == "note_delete"
    with pytest.raises(ToolArgumentError, match="not allowed here"):
        REGISTRY.resolve("note_delete", "mcp", writes=True)
    with pytest.raises(ToolArgumentError, match="disabled here"):
        REGISTRY.resolve("note_add", "mcp", writes=False)
    with pytest.raises(ToolArgumentError, match="unknown tool"):
        REGISTRY.resolve("shell", "cli")
    read_only = {t.name for t in REGISTRY.allowed("mcp", writes=False)}
    assert read_only == {"now", "memory_search", "memory_ask", "note_list", "reminder_list", "chess_analyse"}


def test_side_effecting_tools_must_say_how_to_confirm():
    reg = ToolRegistry()
    with pytest.raises(TypeError, match="confirmation"):
        @reg.tool(side_effects=True)
        def wipe(ctx) -> ToolResult:
            """Wipe."""
            return ToolResult(None, "")
