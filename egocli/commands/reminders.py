"""`egocli reminders`: list, mark done, delete and export (iCalendar) the assistant's reminders."""

from __future__ import annotations

from pathlib import Path

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, JSONL, open_store, output_format

app = typer.Typer(no_args_is_help=True, help="Reminders set through `egocli do` (kept in the log).")
REMINDER_ID = typer.Argument(..., help="The reminder's id (`egocli reminders list`).")


@app.command("list")
def list_(ctx: typer.Context,
          all_: bool = typer.Option(False, "--all", help="Include reminders already done."),
          json_: bool = JSON, jsonl: bool = JSONL) -> None:
    """List open reminders, soonest first.

    \b
    Examples:
      egocli reminders list
      egocli reminders list --all --jsonl
    """
    from egocli.tools import reminders

    fmt = output_format(json_, jsonl)
    items = [r.to_json() for r in reminders.reminders(open_store(ctx), include_done=all_)]
    ui.emit_rows(items, ["id", "due", "text", "place", "done"], fmt, title="Reminders")
    if not items:
        ui.status("no reminders" if all_ else "no open reminders (--all shows done ones)")


@app.command("done")
def done(ctx: typer.Context, reminder_id: int = REMINDER_ID) -> None:
    """Mark a reminder done (it stays in the log; `list --all` shows it).

    \b
    Example:
      egocli reminders done 12
    """
    from egocli.core.timeutil import now_ms
    from egocli.tools import reminders

    item = reminders.mark_done(open_store(ctx), reminder_id, now_ms())
    ui.emit_text(f"done: {item.text}")


@app.command("delete")
def delete(ctx: typer.Context, reminder_id: int = REMINDER_ID,
           yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask.")) -> None:
    """Delete a reminder for good.

    \b
    Example:
      egocli reminders delete 12 --yes
    """
    from egocli.core.errors import UsageError
    from egocli.tools import reminders

    store = open_store(ctx)
    if not ui.confirm(f"Delete reminder {reminder_id} for good?", yes):
        raise UsageError(f"not confirmed: reminder {reminder_id} kept (use --yes to skip the question)")
    item = reminders.delete_reminder(store, reminder_id)
    ui.emit_text(f"deleted: {item.text}")


@app.command("export", short_help="Export reminders as an iCalendar (.ics) file.")
def export(ctx: typer.Context,
           ics: bool = typer.Option(True, "--ics", hidden=True, help="iCalendar (the only format; accepted)."),
           output: Path = typer.Option(None, "--output", "-o", help="Write to this file (default: stdout)."),
           all_: bool = typer.Option(False, "--all", help="Include reminders already done.")) -> None:
    """Export reminders as an iCalendar (RFC 5545) file any calendar app can import.

    \b
    Examples:
      egocli reminders export > reminders.ics
      egocli reminders export --all -o reminders.ics
    """
    from egocli.core.timeutil import now_ms
    from egocli.tools import reminders

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
