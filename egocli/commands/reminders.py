"""`egocli reminders`: list the assistant's reminders, or export them as an iCalendar file."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli import ui
from egocli.commands.common import JSON, open_store
from egocli.errors import UsageError

app = typer.Typer(no_args_is_help=True, help="Reminders set through `egocli do` (kept in the log).")


@app.command("list")
def list_(ctx: typer.Context,
          all_: bool = typer.Option(False, "--all", help="Include reminders already done."),
          json_: bool = JSON) -> None:
    """List open reminders, soonest first."""
    from egocli.tools import reminders

    items = [r.to_json() for r in reminders.reminders(open_store(ctx), include_done=all_)]
    if not items and not json_:
        ui.status("no reminders")
        return
    ui.emit_rows(items, ["id", "due", "text", "place", "done"], "json" if json_ else "text", title="Reminders")


@app.command("export")
def export(ctx: typer.Context,
           ics: bool = typer.Option(False, "--ics", help="Write iCalendar (RFC 5545)."),
           output: Path = typer.Option(None, "--output", "-o", help="Write to this file (default: stdout)."),
           all_: bool = typer.Option(False, "--all", help="Include reminders already done.")) -> None:
    """Export reminders as an iCalendar file any calendar app can import."""
    from egocli.timeutil import now_ms
    from egocli.tools import reminders

    if not ics:
        raise UsageError("choose a format: --ics")
    items = reminders.reminders(open_store(ctx), include_done=all_)
    text = reminders.to_ics(items, now_ms())
    if output is None:
        typer.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8", newline="")
    ui.status(f"wrote {len(items)} reminder(s) to {output}")


def register(root: typer.Typer) -> None:
    """Attach `reminders` to the root app."""
    root.add_typer(app, name="reminders")
