"""`egocli do "..."`: the assistant picks tools, confirms side effects, runs them and answers."""

from __future__ import annotations

import sys

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, LLM, open_store, settings
from egocli.core.errors import UsageError

MAX_CLARIFICATIONS = 2


def do(ctx: typer.Context,
       request: str = typer.Argument(..., help="What to do, in plain words (e.g. 'remind me to call Ana at 5 pm')."),
       yes: bool = typer.Option(False, "--yes", "-y", help="Pre-approve tools that change data (no questions)."),
       llm: str = LLM, json_: bool = JSON) -> None:
    """Ask the assistant to do something with its tools (notes, reminders, memory, chess, the clock).

    \b
    Examples:
      egocli do "remind me to meet my mentor at 3 pm in Meeting Room 1"
      egocli do "what did I just put down?" --json
    """
    from egocli.models import registry
    from egocli.tools.orchestrator import Orchestrator
    from egocli.tools.registry import ToolContext

    if not request.strip():
        raise UsageError("empty request")
    conf = settings(ctx)
    store = open_store(ctx)
    model = registry.load_llm(conf)
    tool_ctx = ToolContext(store, conf, "cli", llm_loader=lambda: model)
    interactive = not json_ and sys.stdin.isatty()
    orchestrator = Orchestrator(model, tool_ctx, confirm=lambda q: ui.confirm(q, yes))
    text = request.strip()
    outcome = orchestrator.run(text)
    for _ in range(MAX_CLARIFICATIONS):
        if outcome.status != "clarify" or not interactive:
            break
        answer = typer.prompt(outcome.question or "", default="", show_default=False, err=True).strip()
        if not answer:
            break
        text = f"{text} ({outcome.question} {answer})"
        outcome = orchestrator.run(text)
    if json_:
        ui.emit_json(outcome.to_json())
    else:
        ui.emit_text(outcome.reply)
    if outcome.status in ("failed",):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Attach `do` to the root app."""
    app.command("do", short_help="Ask the assistant to do something with its tools.")(do)
