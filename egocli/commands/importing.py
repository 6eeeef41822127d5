"""`egocli import`: narration/transcript files (and annotation folders) into the log."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli import ui
from egocli.commands.common import JSON, index_new_events, open_store, settings
from egocli.timeutil import parse_time_ms


def import_(ctx: typer.Context,
            paths: list[Path] = typer.Argument(..., help="Files (srt, vtt, csv, jsonl) or folders for --format hd-epic."),
            start: str = typer.Option(None, "--start", help="Wall-clock time the file's relative times count from."),
            source_name: str = typer.Option(None, "--source-name", help="Name of the new source."),
            fmt: str = typer.Option(None, "--format", "-f", help="srt, vtt, csv, jsonl or hd-epic (default: by extension)."),
            json_: bool = JSON) -> None:
    """Import narration or transcript files; the same file twice adds nothing."""
    from egocli.importing import import_paths

    store = open_store(ctx)
    results = list(ui.track(import_paths(store, paths, fmt, parse_time_ms(start), source_name),
                            "importing", total=len(paths)))
    failed = [r for r in results if r.status == "failed"]
    if any(r.status == "imported" for r in results):
        index_new_events(settings(ctx), store)
    if json_:
        ui.emit_json([r.__dict__ for r in results])
    else:
        for r in results:
            if r.status == "failed":
                ui.error(r.error or r.path)
            else:
                ui.emit_text(f"{r.status}\t{r.events}\t{r.source}\t{r.path}")
    ui.status(f"{len(results) - len(failed)} ok, {len(failed)} failed")
    if failed:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Attach `import` to the root app."""
    app.command("import")(import_)



