"""`egocli stats`: what the log holds."""

from __future__ import annotations

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store
from egocli.core.timeutil import format_local


def stats(ctx: typer.Context, json_: bool = JSON) -> None:
    """Events per modality and per day, sources, DB size and schema version (tables on a terminal).

    \b
    Examples:
      egocli stats
      egocli stats --json | jq .per_modality
    """
    data = open_store(ctx, create=False).stats()
    if json_:
        ui.emit_json(data)
        return
    span = (f"{format_local(data['first_ms'])} .. {format_local(data['last_ms'])}"
            if data["events"] else "empty")
    summary = [("log", data["path"]), ("schema", f"v{data['schema_version']}"),
               ("size", f"{data['db_bytes'] / 1e6:.2f} MB"), ("events", data["events"]), ("span", span),
               ("sources", data["sources"])]
    per_modality = [(f"modality\t{k}" if not ui.is_terminal() else k, v) for k, v in data["per_modality"].items()]
    per_day = [(f"day\t{k}" if not ui.is_terminal() else k, v) for k, v in data["per_day"].items()]
    ui.emit_pairs([("Event log", summary), ("Events per modality", per_modality), ("Events per day", per_day)])


def register(app: typer.Typer) -> None:
    """Attach `stats` to the root app."""
    app.command("stats", short_help="Events per modality and per day, sources, size, schema.")(stats)
