"""`egocli stats`: what the log holds."""

from __future__ import annotations

import typer

from egocli import ui
from egocli.commands.common import JSON, open_store
from egocli.timeutil import format_local


def stats(ctx: typer.Context, json_: bool = JSON) -> None:
    """Events per modality and per day, sources, DB size and schema version."""
    data = open_store(ctx, create=False).stats()
    if json_:
        ui.emit_json(data)
        return
    span = (f"{format_local(data['first_ms'])} .. {format_local(data['last_ms'])}"
            if data["events"] else "empty")
    lines = [f"log\t{data['path']}", f"schema\tv{data['schema_version']}",
             f"size\t{data['db_bytes'] / 1e6:.2f} MB", f"events\t{data['events']}", f"span\t{span}",
             f"sources\t{data['sources']}"]
    lines += [f"modality\t{k}\t{v}" for k, v in data["per_modality"].items()]
    lines += [f"day\t{k}\t{v}" for k, v in data["per_day"].items()]
    ui.emit_text("\n".join(lines))


def register(app: typer.Typer) -> None:
    """Attach `stats` to the root app."""
    app.command("stats")(stats)
