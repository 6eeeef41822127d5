"""`egocli import`: narration/transcript files (and annotation folders) into the log."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, index_new_events, open_store, settings, time_ms

if TYPE_CHECKING:
    from egocli.usecases.importing import ImportResult


def import_(ctx: typer.Context,
            paths: list[Path] = typer.Argument(..., help="Files (srt, vtt, csv, jsonl), folders of them, "
                                               "or annotation folders for --format hd-epic."),
            start: str = typer.Option(None, "--start", help="Wall-clock time the file's relative times count "
                                      "from (default: the file's modification time)."),
            source_name: str = typer.Option(None, "--source-name", help="Name of the new source."),
            fmt: str = typer.Option(None, "--format", "-f",
                                    help="srt, vtt, csv, jsonl or hd-epic (default: by extension)."),
            replace: bool = typer.Option(False, "--replace",
                                         help="Remove an earlier import of the same file first, then import."),
            json_: bool = JSON) -> None:
    """Import narration or transcript files; the same file twice adds nothing (unless --replace).

    \b
    Examples:
      egocli import examples/afternoon.srt --start 2026-11-28T13:00
      egocli import ~/notes/ --start "yesterday 9:00"
    """
    from egocli.usecases.importing import expand_folders, import_paths

    store = open_store(ctx)
    paths = expand_folders(paths, fmt)
    results = list(ui.track(import_paths(store, paths, fmt, time_ms("--start", start), source_name, replace),
                            "importing", total=len(paths)))
    failed = [r for r in results if r.status == "failed"]
    if any(r.status in ("imported", "replaced") for r in results):
        index_new_events(settings(ctx), store)
    if json_:
        ui.emit_json([r.__dict__ for r in results])
    else:
        for r in results:
            if r.status == "failed":
                ui.error(r.error or r.path)
                continue
            ui.emit_text(f"{r.status}\t{r.events}\t{r.source}\t{r.path}")
            if r.status == "skipped":
                ui.status(f"{r.path}: skipped: {r.note}")
    for r in results:
        if r.note and r.status in ("imported", "replaced"):
            ui.warn(f"{r.path}: {r.note}")
    ui.status(tally(results))
    if failed:
        raise typer.Exit(1)


def tally(results: list[ImportResult]) -> str:
    """'2 imported, 1 already in the log, 1 failed': what became of each input (zero counts left out,
    but for the imported)."""
    count = {status: sum(r.status == status for r in results) for status in ("imported", "replaced", "skipped", "failed")}
    parts = [f"{count['imported']} imported"]
    parts += [f"{count['replaced']} replaced"] if count["replaced"] else []
    parts += [f"{count['skipped']} already in the log"] if count["skipped"] else []
    parts += [f"{count['failed']} failed"] if count["failed"] else []
    return ", ".join(parts)


def register(app: typer.Typer) -> None:
    """Attach `import` to the root app."""
    app.command("import", short_help="Import transcripts (srt, vtt, csv, jsonl) into the log.")(import_)
