"""The root Typer app: global options, command registration and the one error boundary."""

from __future__ import annotations

import importlib
import logging
import sqlite3
from typing import Any

import typer
from typer.core import TyperGroup

from typer._click.exceptions import ClickException

from egocli import __version__
from egocli.cli import clickstyle, ui
from egocli.core.errors import EgoError

# Command modules, each with register(app). Keep imports light: heavy libraries load in backends.
COMMAND_MODULES = ("log", "importing", "stats", "ingest", "models", "chess", "ask", "eval", "summarize", "serve", "timeline",
                   "day", "privacy", "what", "do", "reminders", "mcp", "sources", "doctor", "config", "agent")
# Root commands in the order a newcomer meets them (help lists them so); others follow.
COMMAND_ORDER = ("import", "ingest", "log", "ask", "timeline", "day", "summarize", "stats", "sources", "do", "reminders",
                 "what", "chess", "serve", "agent", "mcp", "models", "doctor", "config", "privacy", "retention", "init", "eval")


START_HERE = ("Start here: `egocli doctor` checks that everything is in place; then `egocli import FILE.srt` "
              "(a transcript) or `egocli ingest FILE.mp4` (a recording), and `egocli ask \"...\"`.")


class EgoGroup(clickstyle.ClickStyleGroup):
    """The root group: Click-style help, and the one error boundary mapping EgoError (and a few
    stdlib failures) to `Error: ...` on stderr and its exit code. Click's own usage errors pass
    through, so Click prints the usage line and the message and exits 2."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        clickstyle.polish(self, clickstyle.global_options())

    def list_commands(self, ctx: Any) -> list[str]:
        """Commands in newcomer order."""
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(self.commands, key=lambda name: rank.get(name, len(rank)))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ClickException:
            raise
        except EgoError as ex:
            ui.error(str(ex))
            raise typer.Exit(ex.exit_code) from None
        except sqlite3.DatabaseError as ex:
            ui.error(f"database: {ex}")
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            ui.error("interrupted")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        except (typer.Exit, typer.Abort):
            raise
        except Exception as ex:  # the boundary: a bug must still end in one line, not a traceback
            if logging.getLogger().isEnabledFor(logging.DEBUG):
                raise
            ui.error(f"unexpected {type(ex).__name__}: {ex} (run with -v for the traceback)")
            raise typer.Exit(1) from None


app = typer.Typer(cls=EgoGroup, no_args_is_help=True, add_completion=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,  # plain Click help: nothing from a help text is parsed as Rich markup
                  help="egocli: a local-first lifelog assistant for smart glasses.",
                  epilog=START_HERE,
                  context_settings={"help_option_names": ["-h", "--help"]})


def _version(value: bool) -> None:
    if value:
        print(f"egocli {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: str = typer.Option(None, "--db", metavar="PATH",
                           help="Event log file (default: $EGOCLI_DB, else <data dir>/egocli.db)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bars or status on stderr."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Debug logging on stderr."),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """egocli turns glasses recordings into a searchable event log and answers questions over it."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    ui.set_quiet(quiet)
    ctx.obj = {"db": db}


for _name in COMMAND_MODULES:
    importlib.import_module(f"egocli.commands.{_name}").register(app)


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
