"""`egocli mcp`: serve the lifelog tools to any MCP client over stdio."""

from __future__ import annotations

import typer

from egocli.commands.common import LLM, open_store, settings
from egocli.core.errors import UsageError


def mcp(ctx: typer.Context,
        allow_writes: bool = typer.Option(False, "--allow-writes",
                                          help="Also expose tools that change data (notes, reminders)."),
        llm: str = LLM,
        print_config: bool = typer.Option(False, "--print-config",
                                          help="Print a ready-to-paste MCP client configuration and exit.")) -> None:
    """Run an MCP server on stdin/stdout exposing the allowlisted tools (read-only unless --allow-writes).

    \b
    Examples:
      egocli mcp --print-config      # paste into your MCP client's settings
      egocli mcp --allow-writes
    """
    if print_config:
        _print_config(ctx, allow_writes)
        return
    import importlib.util

    if importlib.util.find_spec("mcp") is None:
        raise UsageError("`egocli mcp` needs the mcp package (pip install mcp==2.3.0)")
    from egocli.models import registry
    from egocli.tools.mcp_server import serve_stdio
    from egocli.tools.registry import ToolContext

    conf = settings(ctx)
    tool_ctx = ToolContext(open_store(ctx), conf, "mcp", llm_loader=lambda: registry.load_llm(conf))
    serve_stdio(tool_ctx, writes=allow_writes)


def _print_config(ctx: typer.Context, allow_writes: bool) -> None:
    """The `mcpServers` entry MCP clients (Claude Desktop, Cursor, ...) read, pointing at this egocli and log."""
    import shutil
    import sys

    from egocli.cli import ui

    conf = settings(ctx)
    command = shutil.which("egocli") or sys.argv[0]
    args = ["--db", str(conf.db.resolve()), "mcp"] + (["--allow-writes"] if allow_writes else [])
    if conf.models.get("llm"):
        args += ["--llm", conf.models["llm"]]
    ui.emit_json({"mcpServers": {"egocli": {"command": command, "args": args}}})


def register(app: typer.Typer) -> None:
    """Attach `mcp` to the root app."""
    app.command("mcp", short_help="Run an MCP server on stdin/stdout with egocli's tools.")(mcp)
