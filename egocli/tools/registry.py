"""The tool registry: typed functions become tools with JSON schemas, side-effect marks and allowlists.

A tool is a plain function whose first parameter is the ToolContext; the remaining parameters,
their type hints, defaults and the docstring's `Args:` section give its JSON schema. Arguments
coming from a model or an MCP client are validated against that schema and never coerced.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from egocli.core.errors import EgoError
from egocli.core.timeutil import now_ms

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.base import PrefixCachedModel
    from egocli.store import Store

_SIMPLE = {str: "string", int: "integer", float: "number", bool: "boolean"}
_ARG_LINE = re.compile(r"^\s{2,}(\w+)\s*(?:\([^)]*\))?:\s*(.+)$")


ToolFunc = Callable[..., "ToolResult"]
"""A tool implementation: func(ctx, **args) -> ToolResult."""


class ToolError(EgoError):
    """A tool ran and failed; the message says why in words the model and the user can read."""


class ToolArgumentError(ToolError, ValueError):
    """A call named an unknown tool or gave arguments that do not match the tool's schema."""


@dataclass
class ToolContext:
    """What a tool may use: the log, settings, a clock and (lazily) the LLM."""

    store: Store
    """The event log."""
    settings: Settings | None = None
    """Settings (model choices); None in unit tests that need no model."""
    context: str = "cli"
    """Which allowlist applies: 'cli', 'serve' or 'mcp'."""
    fixed_now_ms: int | None = None
    """A fixed clock (tests, the task bench); None for the real time."""
    llm_loader: Callable[[], PrefixCachedModel] | None = None
    """Loads the text model on first use (memory_ask)."""
    camera: Callable[[], Any] | None = None
    """The newest camera frame as a BGR array, or None (live sessions: what frame "latest" means)."""

    def now(self) -> int:
        """The current time (or the fixed one) as UTC epoch milliseconds."""
        return self.fixed_now_ms if self.fixed_now_ms is not None else now_ms()


@dataclass(frozen=True)
class ToolResult:
    """What a tool returns: JSON-ready data and one sentence for the reply."""

    data: Any
    """Structured result (JSON-ready)."""
    summary: str
    """One sentence saying what happened, for the user."""


@dataclass(frozen=True)
class Tool:
    """A registered tool."""

    name: str
    """Name the model calls it by."""
    description: str
    """The docstring's first line."""
    schema: dict[str, Any]
    """JSON schema of the arguments (an object schema)."""
    side_effects: bool
    """True when the tool writes or deletes; such calls need the user's confirmation."""
    func: Callable[..., ToolResult] = field(repr=False)
    """The implementation: func(ctx, **args)."""
    confirm_text: Callable[[dict[str, Any]], str] | None = field(default=None, repr=False)
    """Builds the natural-language confirmation question from validated arguments."""

    def signature(self) -> str:
        """A compact one-line signature for prompts: name(arg: type, opt: type = default)."""
        props, required = self.schema["properties"], set(self.schema.get("required", ()))
        parts = []
        for name, sub in props.items():
            kind = "|".join(map(str, sub["enum"])) if "enum" in sub else sub.get("type", "any")
            parts.append(f"{name}: {kind}" if name in required else f"{name}: {kind} = {sub.get('default')!r}")
        return f"{self.name}({', '.join(parts)})"


def _json_type(hint: Any) -> dict[str, Any]:
    """The JSON schema fragment for one parameter's type hint."""
    origin = typing.get_origin(hint)
    if hint in _SIMPLE:
        return {"type": _SIMPLE[hint]}
    if origin is Literal:
        values = list(typing.get_args(hint))
        return {"type": _SIMPLE[type(values[0])], "enum": values}
    if origin in (list, tuple) and typing.get_args(hint):
        return {"type": "array", "items": _json_type(typing.get_args(hint)[0])}
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(inner) == 1:
            return _json_type(inner[0])
    raise TypeError(f"tool parameter type {hint!r} has no JSON schema mapping")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """(first line, {arg: description}) from a docstring with an optional Google-style Args: section."""
    lines = inspect.cleandoc(doc or "").splitlines()
    summary = lines[0].strip() if lines else ""
    args: dict[str, str] = {}
    in_args = False
    for line in lines[1:]:
        if line.strip() in ("Args:", "Arguments:", "Parameters:"):
            in_args = True
            continue
        if in_args:
            match = _ARG_LINE.match(line)
            if match:
                args[match.group(1)] = match.group(2).strip()
            elif line.strip() and not line.startswith(" "):
                in_args = False
    return summary, args


def schema_for(func: Callable[..., Any]) -> tuple[str, dict[str, Any]]:
    """(description, JSON object schema) from a tool function's signature and docstring."""
    hints = typing.get_type_hints(func)
    summary, docs = parse_docstring(func.__doc__)
    params = list(inspect.signature(func).parameters.values())[1:]  # the first one is the ToolContext
    props: dict[str, Any] = {}
    required = []
    for p in params:
        prop = _json_type(hints[p.name])
        if p.name in docs:
            prop["description"] = docs[p.name]
        if p.default is inspect.Parameter.empty:
            required.append(p.name)
        else:
            prop["default"] = p.default
        props[p.name] = prop
    return summary, {"type": "object", "properties": props, "required": required, "additionalProperties": False}


class ToolRegistry:
    """Tools by name, with per-context allowlists."""

    def __init__(self) -> None:
        self.tools: dict[str, Tool] = {}
        self.allowlists: dict[str, tuple[str, ...]] = {}

    def tool(self, side_effects: bool = False,
             confirm: Callable[[dict[str, Any]], str] | None = None) -> Callable[[ToolFunc], ToolFunc]:
        """Decorator registering a function as a tool (read-only unless side_effects=True)."""
        def register(func: ToolFunc) -> ToolFunc:
            description, schema = schema_for(func)
            if side_effects and confirm is None:
                raise TypeError(f"side-effecting tool {func.__name__} needs a confirmation text")
            self.tools[func.__name__] = Tool(func.__name__, description, schema, side_effects, func, confirm)
            return func
        return register

    def allow(self, context: str, names: Iterable[str]) -> None:
        """Set the allowlist of a context ('cli', 'serve', 'mcp')."""
        names = tuple(names)
        unknown = [n for n in names if n not in self.tools]
        if unknown:
            raise ValueError(f"allowlist {context!r} names unknown tools: {', '.join(unknown)}")
        self.allowlists[context] = names

    def allowed(self, context: str, writes: bool = True) -> list[Tool]:
        """The tools a context may call (side-effecting ones only when writes is True)."""
        names = self.allowlists.get(context, ())
        return [self.tools[n] for n in names if writes or not self.tools[n].side_effects]

    def resolve(self, name: Any, context: str, writes: bool = True) -> Tool:
        """The tool called `name` if the context may call it; ToolArgumentError otherwise."""
        if not isinstance(name, str) or name not in self.tools:
            raise ToolArgumentError(f"unknown tool {name!r}")
        tool = self.tools[name]
        if name not in self.allowlists.get(context, ()):
            raise ToolArgumentError(f"tool {name!r} is not allowed here ({context})")
        if tool.side_effects and not writes:
            raise ToolArgumentError(f"tool {name!r} changes data and is disabled here ({context})")
        return tool


def _check_value(name: str, value: Any, schema: dict[str, Any]) -> None:
    kind = schema.get("type")
    ok = kind is None or {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "boolean": isinstance(value, bool),
        "array": isinstance(value, list),
    }.get(kind, True)
    if not ok:
        raise ToolArgumentError(f"argument {name!r} must be {kind}, got {type(value).__name__} {value!r}")
    if "enum" in schema and value not in schema["enum"]:
        raise ToolArgumentError(f"argument {name!r} must be one of {schema['enum']}, got {value!r}")
    if kind == "array":
        for i, item in enumerate(value):
            _check_value(f"{name}[{i}]", item, schema["items"])


def validate(tool: Tool, args: Any) -> dict[str, Any]:
    """The arguments with defaults filled in, if they match the tool's schema exactly (no coercion)."""
    if not isinstance(args, dict):
        raise ToolArgumentError(f"arguments of {tool.name} must be an object, got {type(args).__name__}")
    props = tool.schema["properties"]
    unknown = sorted(set(args) - set(props))
    if unknown:
        raise ToolArgumentError(f"{tool.name} has no argument {', '.join(map(repr, unknown))}")
    missing = [n for n in tool.schema["required"] if n not in args]
    if missing:
        raise ToolArgumentError(f"{tool.name} needs argument {', '.join(map(repr, missing))}")
    for name, value in args.items():
        _check_value(name, value, props[name])
    return {name: args.get(name, sub.get("default")) for name, sub in props.items()}
