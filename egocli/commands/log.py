"""`egocli log ...`: list, search, show, add, export and forget events."""

from __future__ import annotations

import sys

import typer

from egocli.cli import ui
from egocli.commands.common import (JSON, JSONL, MODALITY, SINCE, SOURCE, UNTIL, check_filter, event_filter,
                                    event_row, open_store, output_format, settings, time_ms)
from egocli.core.errors import UsageError

log_app = typer.Typer(help="Read and write the event log.", no_args_is_help=True)
COLUMNS = ("id", "time", "modality", "source", "content")


@log_app.command("list")
def list_(ctx: typer.Context, since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY,
          source: str = SOURCE, limit: int = typer.Option(100, "--limit", "-n", help="At most N events."),
          oldest: bool = typer.Option(False, "--oldest", help="Oldest first (default: newest first)."),
          json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """List events, newest first.

    \b
    Examples:
      egocli log list --since "this morning" -m speech
      egocli log list --oldest -n 20 --jsonl
    """
    fmt = output_format(json_, jsonl)
    flt = event_filter(since, until, modality, source, limit)
    store = open_store(ctx, create=False)
    check_filter(store, flt)
    rows = [event_row(ev) for ev in store.events(flt, newest_first=not oldest)]
    ui.emit_rows(rows, COLUMNS, fmt, title="events")
    _say_how_many(len(rows), store.count(flt) if len(rows) == limit else len(rows), oldest)


def _say_how_many(shown: int, total: int, oldest: bool) -> None:
    if not shown:
        ui.status("no events match")
    elif shown < total:
        ui.status(f"showing {shown} of {total} events, {'oldest' if oldest else 'newest'} first (--limit N for more)")


@log_app.command("search", short_help="Full-text search, best match first.")
def search(ctx: typer.Context, query: str = typer.Argument(..., help="Words to find (FTS5 syntax allowed)."),
           since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY, source: str = SOURCE,
           limit: int = typer.Option(20, "--limit", "-n", help="At most N hits."),
           json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """Full-text search, best match first; the matched words in colour on a terminal.

    The text is printed as stored; --json and --jsonl add `match`, the [start, end]
    character offsets of the matched words in `content`.

    \b
    Examples:
      egocli log search keys
      egocli log search "blue bowl" --since yesterday --jsonl
    """
    from egocli.usecases import logbook

    fmt = output_format(json_, jsonl)
    flt = event_filter(since, until, modality, source, limit)
    store = open_store(ctx, create=False)
    check_filter(store, flt)
    for tag in logbook.modality_tags(store, query):
        ui.status(f"hint: [{tag}] is an event's modality, not part of its text: "
                  f"use --modality {tag} (egocli log search WORDS --modality {tag})")
    hits = logbook.search(store, query, flt)
    rows = [{**event_row(h.event), "score": round(h.score, 4), "match": [list(s) for s in h.spans]} for h in hits]
    ui.emit_rows(rows, COLUMNS, fmt, title=f"search: {query}", marks=[h.spans for h in hits])
    if not rows:
        ui.status("no events match")


@log_app.command("show", short_help="Show one event (and its neighbours with -C N).")
def show(ctx: typer.Context, event_id: int = typer.Argument(..., help="Event id."),
         context: int = typer.Option(0, "--context", "-C", help="Also N neighbours either side."),
         json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """Show one event (and its neighbours in time, the event itself marked *).

    \b
    Examples:
      egocli log show 3
      egocli log show 3 -C 2 --json
    """
    from egocli.core import bounds

    fmt = output_format(json_, jsonl)
    bounds.row_id(event_id, "ID")
    bounds.count(context, "--context", 0, 1000)
    events = open_store(ctx, create=False).neighbours(event_id, context)
    if fmt != "text":
        rows = [event_row(ev) for ev in events]
        ui.emit_rows(rows, COLUMNS, fmt, document=rows[0] if fmt == "json" and context == 0 else None)
        return
    rows = [{**event_row(ev), "this": "*" if ev.id == event_id else ""} for ev in events]
    ui.emit_rows(rows, ("this", *COLUMNS), fmt)


@log_app.command("add")
def add(ctx: typer.Context, text: str = typer.Argument(..., help="The text, or - to read JSONL events on stdin."),
        modality: str = typer.Option("note", "--modality", "-m", help="Modality of the new event."),
        at: str = typer.Option(None, "--at", help="When (default now)."), json_: bool = JSON) -> None:
    """Add a note (or JSONL events from stdin with '-').

    \b
    Examples:
      egocli log add "parked on level 3, row F"
      egocli log add "took the blue pill" --at "this morning 8:00"
    """
    from egocli.usecases import logbook

    store = open_store(ctx)
    if text == "-":
        ids = logbook.add_jsonl(store, sys.stdin, anchor_ms=time_ms("--at", at))
    else:
        ids = [logbook.add_text(store, text, modality, time_ms("--at", at))]
    if json_:
        ui.emit_json({"ids": ids})
    else:
        ui.emit_text("\n".join(str(i) for i in ids))
    ui.status(f"added {len(ids)} event(s)")


@log_app.command("export", short_help="Export events to stdout: jsonl, csv, srt or vtt.")
def export_(ctx: typer.Context, fmt: str = typer.Option("jsonl", "--format", "-f", metavar="[jsonl|csv|srt|vtt]",
            help="Output format."),
            since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY, source: str = SOURCE,
            limit: int = typer.Option(None, "--limit", "-n", help="At most N events.")) -> None:
    """Export events to stdout, oldest first (jsonl: the same records as `log list --jsonl`).

    \b
    Examples:
      egocli log export --format srt > day.srt
      egocli log export --since yesterday --until today > yesterday.jsonl
    """
    from egocli.formats import export

    if fmt not in export.FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (one of {', '.join(export.FORMATS)})")
    flt = event_filter(since, until, modality, source, limit)
    store = open_store(ctx, create=False)
    check_filter(store, flt)
    for chunk in export.write(store.events(flt), fmt):
        sys.stdout.write(chunk)


@log_app.command("forget", short_help="Delete events, their index rows and media, for good.")
def forget(ctx: typer.Context, since: str = SINCE, until: str = UNTIL, modality: list[str] = MODALITY,
           source: str = SOURCE, yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask."),
           all_: bool = typer.Option(False, "--all", help="Allow forgetting everything (no filter).")) -> None:
    """Delete events (with their search index rows and media) for good; a source left without events
    is removed too, so its file can be imported again.

    \b
    Examples:
      egocli log forget --since "2h ago" --yes
      egocli log forget --source afternoon.srt
    """
    from egocli.usecases import logbook

    flt = event_filter(since, until, modality, source)
    if flt == type(flt)() and not all_:
        raise UsageError("no filter given: add --since/--until/--modality/--source, or --all")
    store = open_store(ctx, create=False)
    check_filter(store, flt)
    n = store.count(flt)
    if n == 0:
        ui.status("no events match: nothing forgotten")
        return
    if not ui.confirm(f"Forget {n} event(s) for good?", yes):
        raise UsageError(f"not confirmed: {n} event(s) kept (use --yes to skip the question)")
    removed = logbook.forget(store, flt, settings(ctx).media_dir)
    ui.emit_text(f"forgot {removed} event(s)")


def register(app: typer.Typer) -> None:
    """Attach the log group to the root app."""
    app.add_typer(log_app, name="log")
