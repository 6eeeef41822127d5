"""`egocli mcp`: the allowlisted tools served over MCP (stdio) with the official `mcp` SDK.

Only the MCP allowlist is listed and callable; tools that change data are neither listed nor
callable unless the user started the server with writes enabled (their own pre-approval).
Arguments are validated strictly (no coercion). Calls to tools that change data become rows of
the audit table (arguments capped; never events, so search and ask cannot find them); read-only
calls write nothing to the log.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any, cast

from egocli.tools.builtin import REGISTRY
from egocli.tools.orchestrator import call_tool
from egocli.tools.registry import ToolContext, ToolRegistry


def _annotations(side_effects: bool) -> dict[str, Any]:
    return {"readOnlyHint": not side_effects, "destructiveHint": side_effects, "openWorldHint": False}


def build_server(ctx: ToolContext, writes: bool = False, registry: ToolRegistry = REGISTRY) -> Any:
    """An mcp lowlevel Server exposing the context's allowlisted tools."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    from egocli import __version__

    tools = registry.allowed(ctx.context, writes)

    async def list_tools(_: Any, __: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, description=t.description, input_schema=t.schema,
                       annotations=types.ToolAnnotations(**_annotations(t.side_effects)))
            for t in tools])

    async def call(_: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        step = call_tool(ctx, params.name, params.arguments, writes=writes, registry=registry)
        if step.status != "ok":
            text = f"{step.status}: {step.error}"
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
        payload = {"summary": step.summary, "data": step.data}
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(payload, ensure_ascii=False, default=str))],
            structured_content=json.loads(json.dumps(payload, default=str)))

    return Server("egocli", version=__version__,
                  instructions="Search and query the user's lifelog; tools that change data are off "
                               "unless the user started `egocli mcp --allow-writes`.",
                  on_list_tools=list_tools, on_call_tool=call)


def parse_failure(exc: Exception) -> Any:
    """The JSON-RPC error answering a line that failed to parse: -32700 when it is not JSON at
    all, -32600 when it is JSON but not a JSON-RPC message."""
    from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
    from pydantic import ValidationError

    not_json = isinstance(exc, ValidationError) and any(e.get("type") == "json_invalid" for e in exc.errors())
    code, text = (PARSE_ERROR, "Parse error") if not_json or not isinstance(exc, ValidationError) else (
        INVALID_REQUEST, "Invalid Request")
    return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=text))


async def _answer_bad_lines(source: Any, sink: Any, write: Any) -> None:
    """Pass client messages on to the server; answer each line that does not parse (the SDK drops them)."""
    from mcp.shared.message import SessionMessage

    async with sink:
        async for item in source:
            if isinstance(item, Exception):
                await write.send(SessionMessage(parse_failure(item)))
            else:
                await sink.send(item)


def checked_line(line: str) -> str:
    """A request line as the SDK should see it: one whose id is neither a string nor an integer (an object,
    a list, a float, true) becomes `{}`, which the SDK cannot read, so it is answered -32600 with id null;
    the SDK alone would take it for a notification (it drops the id) and never answer."""
    if '"id"' not in line:
        return line
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line  # the SDK answers what is not JSON
    ident = message.get("id") if isinstance(message, dict) else None
    bad = isinstance(message, dict) and "id" in message and ident is not None and (
        isinstance(ident, bool) or not isinstance(ident, (str, int)))
    return "{}\n" if bad else line


class _CheckedStdin:
    """The process's stdin as the SDK reads it (UTF-8 lines), each line through checked_line."""

    def __init__(self) -> None:
        import io
        import sys

        import anyio

        self._file = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._file:
            yield checked_line(line)


def serve_stdio(ctx: ToolContext, writes: bool = False) -> None:
    """Serve MCP over stdin/stdout until the client disconnects."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared._context_streams import ContextReceiveStream, ContextSendStream, create_context_streams
    from mcp.shared.message import SessionMessage

    server = build_server(ctx, writes)

    async def main() -> None:
        async with stdio_server(stdin=cast(Any, _CheckedStdin())) as (read, write):
            sink: ContextSendStream[SessionMessage | Exception]
            checked: ContextReceiveStream[SessionMessage | Exception]
            sink, checked = create_context_streams(0)
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_answer_bad_lines, read, sink, write)
                await server.run(checked, write, server.create_initialization_options())
                tasks.cancel_scope.cancel()

    anyio.run(main)
