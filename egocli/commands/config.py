"""`egocli config get|set|path`: read and change config.toml without opening an editor."""

from __future__ import annotations

import json

import typer

from egocli.cli import ui

app = typer.Typer(no_args_is_help=True, help="Settings in config.toml (flags beat EGOCLI_* beat config.toml).")


def _show(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@app.command("get", short_help="Print one setting (or the whole file without a KEY).")
def get(key: str = typer.Argument(None, help="A dotted key: models.llm, privacy.redact, db, ...")) -> None:
    """Print one setting (or the whole file without a KEY); exit 1 if it is not set.

    \b
    Examples:
      egocli config get models.llm
      egocli config get
    """
    from egocli.core.config import config_file, get_config_value

    if key is None:
        path = config_file()
        ui.emit_text(path.read_text(encoding="utf-8").rstrip("\n") if path.exists() else "")
        return
    ui.emit_text(_show(get_config_value(key)))


@app.command("set")
def set_(key: str = typer.Argument(..., help="A dotted key: models.llm, privacy.redact, db, ..."),
         value: str = typer.Argument(..., help="The value, read as TOML (true, 30, \"text\"), else as text.")) -> None:
    """Set one setting in config.toml (comments and layout kept).

    \b
    Examples:
      egocli config set models.llm qwen0.5b
      egocli config set privacy.redact false
    """
    from egocli.core.config import config_file, set_config_value

    stored = set_config_value(key, value)
    ui.status(f"{key} = {_show(stored)} in {config_file()}")


@app.command("path")
def path() -> None:
    """Print where config.toml is (it may not exist yet).

    \b
    Example:
      $EDITOR "$(egocli config path)"
    """
    from egocli.core.config import config_file

    ui.emit_text(str(config_file()))


def register(root: typer.Typer) -> None:
    """Attach `config` to the root app."""
    root.add_typer(app, name="config")
