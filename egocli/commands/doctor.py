"""`egocli doctor`: one line per thing egocli needs; exit 1 if anything is broken."""

from __future__ import annotations

from dataclasses import asdict

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, settings


def doctor(ctx: typer.Context, json_: bool = JSON) -> None:
    """Check the log, Stockfish, espeak-ng, disk space and every model role; exit 1 if any is broken.

    \b
    Examples:
      egocli doctor
      egocli doctor --json | jq '.[] | select(.status != "ok")'
    """
    from egocli.usecases.doctor import run_checks

    checks = []
    for check in run_checks(settings(ctx)):
        checks.append(check)
        if not json_:
            ui.emit_text(f"{check.status:4}  {check.name:16}  {check.detail}")
    if json_:
        ui.emit_json([asdict(c) for c in checks])
    broken = [c.name for c in checks if c.status == "fail"]
    if broken:
        ui.error(f"{len(broken)} broken: {', '.join(broken)}")
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Attach `doctor` to the root app."""
    app.command("doctor", short_help="Check that everything egocli needs is here; start here.")(doctor)
