"""Click-style help for the Typer command tree: metavars, usage names, command order, Click's wording for
a bad number, help on stdout for a bare group, and the global options (--db, --quiet, --verbose) accepted
after any command as well as before it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer._click.exceptions import BadParameter
from typer.core import TyperArgument, TyperGroup, TyperOption

from egocli.cli import ui

# Options whose value is a time ("14:05", "2h ago", "this morning"): shown as TIME.
TIME_OPTIONS = frozenset({"since", "until", "at", "start"})
_TYPE_NAMES = {int: "INTEGER", float: "FLOAT", str: "TEXT", Path: "PATH"}


class ClickStyleGroup(TyperGroup):
    """A group that, run without arguments, prints its help on stdout and exits 0 (as sqlite-utils does),
    where Click prints it on stderr as a usage error (exit 2)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            typer.echo(ctx.get_help(), color=ctx.color)
            ctx.exit(0)
        return super().parse_args(ctx, args)


_NUMBER_NAMES = {int: "integer", float: "float"}


def _in_click_words(param: Any, ctx: Any, value: Any, process: Any) -> Any:
    """process(ctx, value), with Click's own words for a number that is not one ("'abc' is not a valid
    integer."), where Typer passes on its validation library's ("Input should be a valid integer, ...")."""
    try:
        return process(ctx, value)
    except BadParameter:
        kind = _NUMBER_NAMES.get(_scalar(param.type_descriptor.annotation))
        values = value if isinstance(value, (list, tuple)) else [value]
        bad = next((v for v in values if isinstance(v, str) and not _reads_as(v, kind)), None) if kind else None
        if bad is None:
            raise
        raise BadParameter(f"{bad!r} is not a valid {kind}.", ctx=ctx, param=param) from None


def _scalar(annotation: Any) -> Any:
    return get_args(annotation)[0] if get_origin(annotation) in (list, tuple) else annotation


def _reads_as(text: str, kind: str) -> bool:
    try:
        (int if kind == "integer" else float)(text)
    except ValueError:
        return False
    return True


class ClickStyleOption(TyperOption):
    """An option whose bad number is reported in Click's words."""

    __slots__ = ()  # the same layout as TyperOption, so polish() can swap the class of a built option

    def process_value(self, ctx: Any, value: Any) -> Any:
        return _in_click_words(self, ctx, value, super().process_value)


class ClickStyleArgument(TyperArgument):
    """An argument shown as Click shows it: `PATHS...` when required, `[ROLES]...` when optional (and a
    bad number reported in Click's words)."""

    def process_value(self, ctx: Any, value: Any) -> Any:
        return _in_click_words(self, ctx, value, super().process_value)

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
            param.__class__ = ClickStyleArgument  # same state, Click-style display and wording only
            if param.metavar is None:
                param.metavar = (param.name or "value").upper()
        elif isinstance(param, TyperOption):
            if type(param) is TyperOption:
                param.__class__ = ClickStyleOption
            if param.metavar is None and not (param.is_flag or param.count):
                param.metavar = option_metavar(param)
    if type(command) is TyperGroup:
        command.__class__ = ClickStyleGroup  # run bare: help on stdout, exit 0
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
