"""`egocli log ...`: list, search, show, add, export and forget events."""

from __future__ import annotations

import sys

import typer

from egocli import ui
from egocli.commands.common import (JSON, JSONL, MODALITY, SINCE, SOURCE, UNTIL, event_filter,
                                    event_row, open_store, output_format, settings)
from egocli.errors import UsageError
from egocli.timeutil import parse_time_ms

log_app = typer.Typer(help="Read and write the event log.", no_args_is_help=True)
COLUMNS = ("id", "time", "modality", "source", "content")


@log_app.command("list")
def list_(ctx: typer.Context, since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY,
          source: str = SOURCE, limit: int = typer.Option(100, "--limit", "-n", help="At most N events."),
          json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """List events in time order."""
    fmt = output_format(json_, jsonl)
    flt = event_filter(since, until, modality, source, limit)
    rows = [event_row(ev) for ev in open_store(ctx, create=False).events(flt)]
    ui.emit_rows(rows, COLUMNS, fmt, title="events")


@log_app.command("search")
def search(ctx: typer.Context, query: str = typer.Argument(..., help="Words to find (FTS5 syntax allowed)."),
           since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY, source: str = SOURCE,
           limit: int = typer.Option(20, "--limit", "-n", help="At most N hits."),
           json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """Full-text search, best match first, matches in [brackets]."""
    fmt = output_format(json_, jsonl)
    flt = event_filter(since, until, modality, source, limit)
    hits = open_store(ctx, create=False).search(query, flt)
    rows = [{**event_row(ev), "score": round(-score, 4), "match": snip} for ev, score, snip in hits]
    ui.emit_rows(rows, ("id", "time", "modality", "source", "match"), fmt, title=f"search: {query}")


@log_app.command("show")
def show(ctx: typer.Context, event_id: int = typer.Argument(..., help="Event id."),
         context: int = typer.Option(0, "--context", "-C", help="Also N neighbours either side."),
         json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """Show one event (and its neighbours in time)."""
    fmt = output_format(json_, jsonl)
    if context < 0:
        raise UsageError("--context must be 0 or more")
    events = open_store(ctx, create=False).neighbours(event_id, context)
    rows = [{**event_row(ev), "this": "*" if ev.id == event_id else ""} for ev in events]
    doc = rows[0] if fmt == "json" and context == 0 else None
    ui.emit_rows(rows, ("this", *COLUMNS), fmt, document=doc)


@log_app.command("add")
def add(ctx: typer.Context, text: str = typer.Argument(..., help="The text, or - to read JSONL events on stdin."),
        modality: str = typer.Option("note", "--modality", "-m", help="Modality of the new event."),
        at: str = typer.Option(None, "--at", help="When (default now)."), json_: bool = JSON) -> None:
    """Add a note (or JSONL events from stdin with '-')."""
    from egocli import logbook

    store = open_store(ctx)
    if text == "-":
        ids = logbook.add_jsonl(store, sys.stdin, anchor_ms=parse_time_ms(at))
    else:
        ids = [logbook.add_text(store, text, modality, parse_time_ms(at))]
    if json_:
        ui.emit_json({"ids": ids})
    else:
        ui.emit_text("\n".join(str(i) for i in ids))
    ui.status(f"added {len(ids)} event(s)")


@log_app.command("export")
def export_(ctx: typer.Context, fmt: str = typer.Option("jsonl", "--format", "-f", help="jsonl, csv, srt or vtt."),
            since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY, source: str = SOURCE,
            limit: int = typer.Option(None, "--limit", "-n", help="At most N events.")) -> None:
    """Export events to stdout."""
    from egocli.formats import export

    if fmt not in export.FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (one of {', '.join(export.FORMATS)})")
    flt = event_filter(since, until, modality, source, limit)
    for chunk in export.write(open_store(ctx, create=False).events(flt), fmt):
        sys.stdout.write(chunk)


@log_app.command("forget")
def forget(ctx: typer.Context, since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY,
           source: str = SOURCE, yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask."),
           all_: bool = typer.Option(False, "--all", help="Allow forgetting everything (no filter).")) -> None:
    """Delete events (with their search index rows and media) for good."""
    from egocli import logbook

    flt = event_filter(since, until, modality, source)
    if flt == type(flt)() and not all_:
        raise UsageError("no filter given: add --since/--until/--modality/--source, or --all")
    store = open_store(ctx, create=False)
    n = store.count(flt)
    if n == 0:
        ui.status("nothing matches: no events forgotten")
        return
    if not ui.confirm(f"Forget {n} event(s) for good?", yes):
        raise UsageError(f"not confirmed: {n} event(s) kept (use --yes to skip the question)")
    removed = logbook.forget(store, flt, settings(ctx).media_dir)
    ui.emit_text(f"forgot {removed} event(s)")


def register(app: typer.Typer) -> None:
    """Attach the log group to the root app."""
    app.add_typer(log_app, name="log")
