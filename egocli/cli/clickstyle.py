"""Click-style help for the Typer command tree: metavars, usage names, command order, and the global
options (--db, --quiet, --verbose) accepted after any command as well as before it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from egocli.cli import ui

# Options whose value is a time ("14:05", "2h ago", "this morning"): shown as TIME.
TIME_OPTIONS = frozenset({"since", "until", "at", "start"})
_TYPE_NAMES = {int: "INTEGER", float: "FLOAT", str: "TEXT", Path: "PATH"}


class ClickStyleArgument(TyperArgument):
    """An argument shown as Click shows it: `PATHS...` when required, `[ROLES]...` when optional."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name + ("..." if self.nargs != 1 else "")

    def _rich_display_name(self) -> str:
        return self.display_name_raw + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def option_metavar(param: TyperOption) -> str:
    """TIME, INTEGER, FLOAT, PATH, TEXT or [a|b] for an option's value, as Click would print it."""
    if param.name in TIME_OPTIONS:
        return "TIME"
    desc = param.type_descriptor
    if desc.is_choice and desc.choices is not None:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in desc.choices) + "]"
    annotation = desc.annotation
    if get_origin(annotation) is list:
        annotation = get_args(annotation)[0]
    if desc.is_path:
        return "PATH"
    return _TYPE_NAMES.get(annotation, "TEXT")


def polish(command: Any, global_params: list[Any]) -> None:
    """Give every parameter below `command` a Click-style metavar, and every leaf command the
    global options (so `egocli ingest FILE --quiet` works as well as `egocli --quiet ingest FILE`)."""
    for param in command.params:
        if isinstance(param, TyperArgument) and not isinstance(param, ClickStyleArgument):
            param.__class__ = ClickStyleArgument  # same state, Click-style display only
            if param.metavar is None:
                param.metavar = (param.name or "value").upper()
        elif isinstance(param, TyperOption) and param.metavar is None and not (param.is_flag or param.count):
            param.metavar = option_metavar(param)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            polish(sub, global_params)
    elif not any(p.name in {g.name for g in global_params} for p in command.params):
        help_at = next((i for i, p in enumerate(command.params) if p.name == "help"), len(command.params))
        command.params[help_at:help_at] = global_params


def _set_db(ctx: typer.Context, _param: Any, value: str | None) -> None:
    if value is not None:
        root = ctx.find_root()
        root.obj = {**(root.obj or {}), "db": value}


def _set_quiet(_ctx: typer.Context, _param: Any, value: bool) -> None:
    if value:
        ui.set_quiet(True)


def _set_verbose(_ctx: typer.Context, _param: Any, value: bool) -> None:
    if value:
        logging.getLogger().setLevel(logging.DEBUG)


def global_options() -> list[Any]:
    """--db, --quiet/-q and --verbose/-v as parameters any command can carry (not passed to it)."""
    holder = typer.Typer()

    @holder.command()
    def _globals(
        db: str = typer.Option(None, "--db", metavar="PATH", expose_value=False, callback=_set_db,
                               help="Event log file (also accepted before the command)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", expose_value=False, callback=_set_quiet,
                                   help="No progress bars or status on stderr."),
        verbose: bool = typer.Option(False, "--verbose", "-v", expose_value=False, callback=_set_verbose,
                                     help="Debug logging on stderr."),
    ) -> None:
        """Only a holder for the global options."""

    return [p for p in typer.main.get_command(holder).params if p.name in ("db", "quiet", "verbose")]
