"""The only module that imports rich: consoles, progress bars, tables and result output."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # bars and tables import where they are drawn: a command that prints text never loads them
    from rich.progress import Progress, TaskID  # noqa: F401 - TaskID: commands annotate with ui.TaskID

T = TypeVar("T")

err = Console(stderr=True, highlight=False, soft_wrap=True)
out = Console(highlight=False, soft_wrap=True)
_state = {"quiet": False}


def set_quiet(quiet: bool) -> None:
    """Turn progress and status chatter off (results still print)."""
    _state["quiet"] = quiet


def status(message: str) -> None:
    """A status line on stderr (hidden by --quiet)."""
    if not _state["quiet"]:
        err.print(message, markup=False)


def warn(message: str) -> None:
    """A warning on stderr (always shown)."""
    err.print(f"Warning: {message}", markup=False, style="yellow")


def error(message: str) -> None:
    """The one-line error the CLI prints before a non-zero exit."""
    err.print(f"Error: {message}", markup=False, style="red", soft_wrap=True)


def _progress_enabled() -> bool:
    return not _state["quiet"] and sys.stderr.isatty()


@contextmanager
def progress_bars() -> Iterator[Progress | None]:
    """A rich Progress on stderr with ETA, or None when quiet / not a terminal."""
    if not _progress_enabled():
        yield None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    bars = Progress(TextColumn("{task.description:<12}", markup=False), BarColumn(), MofNCompleteColumn(),
                    TaskProgressColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err, transient=False)
    with bars:
        yield bars


class Waiting:
    """A spinner with the current stage and the time elapsed on stderr while something slow runs (nothing
    when quiet or not a terminal). `done()` takes it down early, e.g. before the first streamed token."""

    def __init__(self, message: str) -> None:
        self._bars: Progress | None = None
        if _progress_enabled():
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._bars = Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False),
                                  TimeElapsedColumn(), console=err, transient=True)
            self._task = self._bars.add_task(message, total=None)
            self._bars.start()

    def update(self, message: str) -> None:
        """Change the stage shown (the elapsed time keeps counting from the start)."""
        if self._bars is not None:
            self._bars.update(self._task, description=message)

    def done(self) -> None:
        """Take the spinner down (idempotent)."""
        if self._bars is not None:
            self._bars.stop()
            self._bars = None

    def __enter__(self) -> Waiting:
        return self

    def __exit__(self, *exc: object) -> None:
        self.done()


def track(items: Iterable[T], description: str, total: float | None = None) -> Iterator[T]:
    """Iterate with a progress bar on stderr (silent when quiet or not a terminal)."""
    with progress_bars() as bars:
        if bars is None:
            yield from items
            return
        task = bars.add_task(description, total=total)
        for item in items:
            yield item
            bars.advance(task)


MATCH_STYLE = "bold yellow"
"""How a matched word is shown on a terminal (in a pipe and in JSON the text is left as it is)."""


def emit_rows(rows: Sequence[dict[str, Any]], columns: Sequence[str], fmt: str,
              title: str | None = None, document: Any = None,
              marks: Sequence[Sequence[tuple[int, int]]] | None = None) -> None:
    """Print result rows: 'json' (one document), 'jsonl', or text (table on a tty, TSV otherwise; no rows,
    no table). `marks`: per row, (start, end) spans of its `content` to show in MATCH_STYLE on a terminal."""
    if fmt == "json":
        print(json.dumps(document if document is not None else list(rows), ensure_ascii=False, indent=2))
    elif fmt == "jsonl":
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
    elif sys.stdout.isatty():
        if not rows:
            return
        from rich.table import Table

        table = Table(title=Text(title) if title else None, show_lines=False)
        for col in columns:
            table.add_column(Text(col), overflow="fold")
        for n, row in enumerate(rows):  # cells are Text: brackets from the log, a file or a model are not markup
            cells = [Text(_cell(row.get(c))) for c in columns]
            if marks is not None and "content" in columns:
                for start, end in marks[n]:
                    cells[columns.index("content")].stylize(MATCH_STYLE, start, end)
            table.add_row(*cells)
        out.print(table)
    else:
        for row in rows:
            print("\t".join(_cell(row.get(c)).replace("\t", " ").replace("\n", " ") for c in columns))


def emit_pairs(sections: Sequence[tuple[str, Sequence[tuple[str, Any]]]]) -> None:
    """Key/value sections: one table each on a terminal, `key<TAB>value` lines in a pipe."""
    if not sys.stdout.isatty():
        for _title, pairs in sections:
            for key, value in pairs:
                print(f"{key}\t{_cell(value)}")
        return
    from rich.table import Table

    for title, pairs in sections:
        table = Table(title=Text(title) if title else None, show_header=False, title_justify="left")
        table.add_column(style="bold")
        table.add_column(overflow="fold")
        for key, value in pairs:
            table.add_row(Text(key), Text(_cell(value)))
        out.print(table)


def is_terminal() -> bool:
    """Whether results go to a terminal (tables) rather than a pipe (text)."""
    return sys.stdout.isatty()


def emit_json(document: Any) -> None:
    """Print one JSON document on stdout."""
    print(json.dumps(document, ensure_ascii=False, indent=2))


def emit_text(text: str) -> None:
    """Print plain result text on stdout."""
    print(text)


def confirm(question: str, assume_yes: bool) -> bool:
    """Ask y/N on stderr; without a terminal (and no --yes) the answer is no."""
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        return False
    err.print(f"{question} [y/N] ", end="", markup=False)
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def can_ask() -> bool:
    """Whether a question can be asked and answered here (stdin and stderr are a terminal)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):  # never Python's True/False in text output
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)
