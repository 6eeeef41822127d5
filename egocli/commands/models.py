"""`egocli models list|check|serve`: see which local models each role uses, check they run, serve the text
model to every agent of a machine (llama-server)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import Any

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, JSONL, LLM, output_format, settings
from egocli.core.config import ROLES
from egocli.core.errors import EgoError, UsageError


def _human_size(size: int | None) -> str:
    if size is None:
        return ""
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000  # type: ignore[assignment]
    return ""


@contextmanager
def assembly_progress() -> Iterator[Callable[[str], Callable[[int, int], None] | None]]:
    """A factory giving each role a progress callback drawn as a bar on stderr (None when quiet).

    Other commands can wrap their first `registry.load(role, settings, progress)` with it, so the
    one-time assembly of a model from its part packages shows a bar.
    """
    with ui.progress_bars() as bars:
        def for_role(role: str) -> Callable[[int, int], None] | None:
            if bars is None:
                return None
            task: list[Any] = []

            def update(done: int, total: int) -> None:
                if not task:
                    task.append(bars.add_task(f"assemble {role}", total=total))
                bars.update(task[0], completed=done)
            return update
        yield for_role


def list_models(ctx: typer.Context, json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """Show each role's backend, model, file, size, licence and whether it is present.

    \b
    Examples:
      egocli models list
      egocli models list --jsonl | jq -r 'select(.present | not) | .role'
    """
    from egocli.models import registry

    fmt = output_format(json_, jsonl)
    rows = registry.describe(settings(ctx))
    if fmt != "text":
        ui.emit_rows(rows, [], fmt)
        return
    shown = [{**row, "size": _human_size(row["size"]), "present": "yes" if row["present"] else "no"} for row in rows]
    ui.emit_rows(shown, ["role", "backend", "model", "size", "licence", "present", "note", "file"], "text",
                 title="Models")


def check_models(ctx: typer.Context,
                 roles: list[str] = typer.Argument(None, help=f"Roles to check (default: all): {', '.join(ROLES)}."),
                 llm: str = LLM, json_: bool = JSON) -> None:
    """Load each model, run a tiny real task, print load time and speed; exit 1 if any role failed.

    \b
    Examples:
      egocli models check
      egocli models check llm embedder --json
      egocli models check llm --llm http://127.0.0.1:8080/v1
    """
    from egocli.models.check import check

    unknown = [r for r in roles or [] if r not in ROLES]
    if unknown:
        raise UsageError(f"unknown role(s): {', '.join(unknown)} (roles: {', '.join(ROLES)})")
    results = []
    with assembly_progress() as progress:
        for result in check(roles or [], settings(ctx), progress):
            results.append(result)
            if not json_:
                ui.status(_line(result))
    rows = [asdict(r) for r in results]
    if json_:
        ui.emit_json(rows)
    else:
        ui.emit_rows([{**r, "load_s": None if r["load_s"] is None else round(r["load_s"], 2)} for r in rows],
                     ["role", "status", "backend", "load_s", "speed", "output", "error"], "text", title="Model check")
    failed = [r for r in results if r.status == "failed"]
    if failed:
        raise EgoError(f"model check failed for {', '.join(r.role for r in failed)} ("
                       + "; ".join(r.error for r in failed) + ")")


def serve_model(ctx: typer.Context,
                model: str = typer.Option(None, "--model", help="GGUF to serve: a name (qwen1.5b, qwen0.5b, smollm2) "
                                                               "or a path (default: the configured or packaged llm)."),
                host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
                port: int = typer.Option(8080, "--port", help="TCP port."),
                slots: int = typer.Option(4, "--slots", help="Parallel slots (answers written at once)."),
                context: int = typer.Option(4096, "--context", help="Tokens per slot."),
                threads: int = typer.Option(None, "--threads", help="Threads (default: half the cores, at least 2)."),
                print_command: bool = typer.Option(False, "--print-command", help="Print the command line; run nothing."),
                ) -> None:
    """Run llama.cpp's llama-server with the text model, for every agent of this machine: parallel slots,
    continuous batching, prompt caching. Agents use it with `[llm] url = "http://127.0.0.1:PORT/v1"`.

    \b
    Examples:
      egocli models serve --slots 4 --threads 2
      egocli models serve --print-command
    """
    import os
    import shlex

    from egocli.core import bounds
    from egocli.models import llamaserver

    for value, name in ((slots, "--slots"), (context, "--context"), (port, "--port")):
        bounds.count(value, name, 1)
    if threads is not None:
        bounds.count(threads, "--threads", 1)
    binary = llamaserver.require_binary()
    with assembly_progress() as progress:  # the packaged model is assembled from its parts once
        plan = llamaserver.plan(settings(ctx), model, progress("llm"), host=host, port=port, slots=slots,
                                context=context, threads=threads or llamaserver.default_threads())
    argv = plan.argv(binary)
    if print_command:
        ui.emit_text(shlex.join(argv))
        return
    ui.status(f"llama-server: {plan.model.name}, {plan.slots} slots x {plan.context} tokens, {plan.threads} "
              f"threads; agents: [llm] url = \"{plan.url}\"")
    os.execv(argv[0], argv)


def _line(result: Any) -> str:
    if result.status == "ok":
        return f"{result.role}: ok ({result.load_s:.2f} s load; {result.speed})"
    return f"{result.role}: {result.status}: {result.error.removeprefix(result.role + ': ')}"


def register(app: typer.Typer) -> None:
    """Add the `models` command group."""
    group = typer.Typer(help="Local models: list what each role uses, check that they load and run.",
                        no_args_is_help=True)
    group.command("list", short_help="Each role's backend, model, file, size and licence.")(list_models)
    group.command("check", short_help="Load and run each model; exit 1 if any role failed.")(check_models)
    group.command("serve", short_help="Run llama-server with the text model for this machine's agents.")(serve_model)
    app.add_typer(group, name="models", short_help="Local models: what each role uses; check that they run.")
