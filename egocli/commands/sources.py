"""`egocli sources list|remove`: the recordings, imports and sessions events came from."""

from __future__ import annotations

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, JSONL, open_store, output_format, settings
from egocli.core.errors import UsageError
from egocli.core.timeutil import format_local

app = typer.Typer(no_args_is_help=True, help="Where events came from: recordings, imports, live sessions.")
COLUMNS = ("id", "kind", "name", "events", "status", "start", "path")


@app.command("list")
def list_(ctx: typer.Context, json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """List sources with their event counts, oldest first.

    \b
    Examples:
      egocli sources list
      egocli sources list --jsonl | jq -r .name
    """
    from egocli.usecases import logbook

    fmt = output_format(json_, jsonl)
    rows = [{**src.to_json(), "events": count,
             "start": format_local(src.start_ms) if src.start_ms is not None and fmt == "text" else
             src.to_json()["start"]} for src, count in logbook.sources_with_counts(open_store(ctx))]
    ui.emit_rows(rows, COLUMNS, fmt, title="Sources")
    if not rows:
        ui.status("no sources yet (egocli import / egocli ingest add them)")


@app.command("remove", short_help="Delete a source with its events and media, for good.")
def remove(ctx: typer.Context,
           source: str = typer.Argument(..., help="The source's id or name (`egocli sources list`)."),
           yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask.")) -> None:
    """Delete a source with all its events and media for good (its file can then be imported again).

    \b
    Examples:
      egocli sources remove afternoon.srt
      egocli sources remove 3 --yes
    """
    from egocli.usecases import logbook

    store = open_store(ctx)
    src = logbook.find_source(store, source)
    if not ui.confirm(f"Remove source #{src.id} ({src.name}) and its events for good?", yes):
        raise UsageError(f"not confirmed: source #{src.id} kept (use --yes to skip the question)")
    src, count = logbook.remove_source(store, str(src.id), settings(ctx).media_dir)
    ui.emit_text(f"removed source #{src.id} ({src.name}) and {count} event(s)")


def register(root: typer.Typer) -> None:
    """Attach `sources` to the root app."""
    root.add_typer(app, name="sources")
