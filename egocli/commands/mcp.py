"""`egocli mcp`: serve the lifelog tools to any MCP client over stdio."""

from __future__ import annotations

import typer

from egocli.commands.common import open_store, settings
from egocli.errors import UsageError


def mcp(ctx: typer.Context,
        allow_writes: bool = typer.Option(False, "--allow-writes",
                                          help="Also expose tools that change data (notes, reminders)."),
        model: str = typer.Option(None, "--model",
                                  help="LLM for memory_ask (a name, a GGUF path, or 'fake').")) -> None:
    """Run an MCP server on stdin/stdout exposing the allowlisted tools (read-only unless --allow-writes)."""
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        raise UsageError("`egocli mcp` needs the mcp package (pip install mcp==2.3.0)")
    from egocli.models import registry
    from egocli.tools.mcp_server import serve_stdio
    from egocli.tools.registry import ToolContext

    conf = settings(ctx, llm=model)
    tool_ctx = ToolContext(open_store(ctx), conf, "mcp", llm_loader=lambda: registry.load("llm", conf))
    serve_stdio(tool_ctx, writes=allow_writes)


def register(app: typer.Typer) -> None:
    """Attach `mcp` to the root app."""
    app.command("mcp")(mcp)
