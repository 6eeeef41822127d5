"""The planner prompt and its JSON schema: a request becomes tool calls, or one clarifying question.

The system prompt (tool list, rules, examples) never changes between requests, so llama.cpp
reuses its evaluated prefix; only the short user turn (clock + request) is new each time.
Nothing read from the log ever enters this prompt: log content cannot steer the plan.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from egocli.core.errors import ModelError
from egocli.models.base import Message, TextModel
from egocli.core.timeutil import local
from egocli.tools.registry import Tool

MAX_CALLS = 3

RULES = """Rules:
- Reply with JSON only: {"calls":[{"tool":NAME,"args":{...}}]} (1-3 calls, in order), or {"clarify":QUESTION} with one short question only when the request names nothing to act on ("it"/"this"/"that" with nothing it refers to) or a reminder has no time. A request that gives a FEN, a file name, a time or the words to save is never ambiguous.
- Anything about what the user saw, read, did, said, put down, left, or where they were -> memory_ask with the question as asked. memory_search only when the user asks to search or find. note_list is only for notes the user saved.
- Times are 24h: "3 pm" -> "15:00", "tomorrow at 9" -> "tomorrow 09:00". Relative times stay relative: "in 45 minutes" -> "in 45 minutes".
- chess_analyse: fen only when the user wrote one (copy it exactly); the board the user is looking at -> frame "latest"; an image file -> frame with its name.
- Copy the user's words into text arguments. Never invent ids. Delete only when the user asks to."""

EXAMPLES = (
    ("note that the wifi password is tulip42",
     {"calls": [{"tool": "note_add", "args": {"text": "the wifi password is tulip42"}}]}),
    ("remind me to call mum at 6 pm",
     {"calls": [{"tool": "reminder_add", "args": {"text": "call mum", "due": "18:00", "place": ""}}]}),
    ("remind me to check the laundry in 2 hours",
     {"calls": [{"tool": "reminder_add", "args": {"text": "check the laundry", "due": "in 2 hours", "place": ""}}]}),
    ("did I take my vitamins this morning?",
     {"calls": [{"tool": "memory_ask", "args": {"question": "did I take my vitamins this morning?"}}]}),
    ("find where I wrote about the boiler", {"calls": [{"tool": "memory_search", "args": {"query": "boiler", "limit": 5}}]}),
    ("remind me about that", {"clarify": "What should I remind you about, and when?"}),
)


@dataclass(frozen=True)
class RawCall:
    """A call as the model wrote it: not yet checked."""

    tool: Any
    """The tool name given (may be anything)."""
    args: Any
    """The arguments given (may be anything)."""


@dataclass(frozen=True)
class Plan:
    """The model's plan: calls, or a clarifying question."""

    calls: list[RawCall] = field(default_factory=list)
    """Calls in order."""
    clarify: str | None = None
    """A question for the user instead of calls."""
    raw: str = ""
    """The model's text."""


def tool_lines(tools: Sequence[Tool]) -> str:
    """One compact line per tool: signature, description, argument notes, and a mark on side effects."""
    lines = []
    for t in tools:
        notes = "; ".join(f"{n}: {p['description']}" for n, p in t.schema["properties"].items()
                          if "description" in p and n in ("due", "fen", "frame", "query", "question"))
        mark = " [changes data]" if t.side_effects else ""
        lines.append(f"- {t.signature()}: {t.description}{mark}" + (f" ({notes})" if notes else ""))
    return "\n".join(lines)


def system_prompt(tools: Sequence[Tool]) -> str:
    """The stable system message: role, tools, rules and examples."""
    shots = "\n".join(f"User: {req}\n{json.dumps(plan, separators=(',', ':'))}" for req, plan in EXAMPLES)
    return ("You plan tool calls for a lifelog assistant on smart glasses.\nTools:\n"
            f"{tool_lines(tools)}\n{RULES}\nExamples:\n{shots}")


def user_turn(request: str, now_ms: int) -> str:
    """The varying part: the clock and the request."""
    return f"Now: {local(now_ms).strftime('%A %Y-%m-%d %H:%M')}\nUser: {request.strip()}"


def plan_schema(tools: Sequence[Tool]) -> dict[str, Any]:
    """JSON schema of a plan: each call's args constrained by its tool's own schema."""
    call_shapes = [{"type": "object", "properties": {"tool": {"const": t.name}, "args": t.schema},
                    "required": ["tool", "args"], "additionalProperties": False} for t in tools]
    calls = {"type": "object", "required": ["calls"], "additionalProperties": False,
             "properties": {"calls": {"type": "array", "items": {"anyOf": call_shapes},
                                      "minItems": 1, "maxItems": MAX_CALLS}}}
    clarify = {"type": "object", "required": ["clarify"], "additionalProperties": False,
               "properties": {"clarify": {"type": "string"}}}
    return {"anyOf": [calls, clarify]}


def parse_plan(text: str) -> Plan:
    """A Plan from the model's JSON; anything unreadable is an empty plan with no question."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return Plan(raw=text)
    if not isinstance(data, dict):
        return Plan(raw=text)
    if isinstance(data.get("clarify"), str) and data["clarify"].strip():
        return Plan(clarify=data["clarify"].strip(), raw=text)
    calls = data.get("calls")
    if not isinstance(calls, list):
        return Plan(raw=text)
    out = [RawCall(c.get("tool"), c.get("args", {})) if isinstance(c, dict) else RawCall(c, None) for c in calls]
    return Plan(calls=out[:MAX_CALLS], raw=text)


def generate_plan(llm: TextModel, messages: Sequence[Message], tools: Sequence[Tool],
                  max_tokens: int = 200) -> Plan:
    """Ask the model for a plan, constrained to the plan schema."""
    try:
        text = "".join(llm.generate(list(messages), max_tokens=max_tokens, temperature=0.0,
                                    json_schema=plan_schema(tools)))
    except ValueError as ex:
        raise ModelError(f"llm: planning failed: {ex}") from ex
    return parse_plan(text.strip())
