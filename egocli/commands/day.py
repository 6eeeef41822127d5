"""`egocli day`: a day's digest in the terminal: its hours, their summaries and salient events, the counts."""

from __future__ import annotations

import shutil
import textwrap
from typing import TYPE_CHECKING

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, open_store
from egocli.core.timeutil import local

if TYPE_CHECKING:
    from egocli.usecases.day import DayDigest, Hour

INDENT = "         "
"""Where an event's text continues when it wraps (under the text, after '  14:07  ')."""
STALE = "  (stale: `egocli summarize` rebuilds it)"
"""After a summary whose events changed since it was built."""


def day(ctx: typer.Context,
        when: str = typer.Argument(None, metavar="DAY",
                                   help="YYYY-MM-DD, today, yesterday, a weekday, 'nov 28' "
                                        "(default: the latest day with events)."),
        per_hour: int = typer.Option(6, "--per-hour", "-n", metavar="N", help="Salient events per hour (1-50)."),
        json_: bool = JSON) -> None:
    """The day's digest: per hour its summary (when `egocli summarize` built one) and the events that tell it,
    the day in a line, events per modality. No model runs.

    \b
    Examples:
      egocli day 2026-11-28
      egocli day yesterday --json | jq '.hours[].label'
    """
    from egocli.core import bounds
    from egocli.usecases.day import day_digest, log_days, parse_day

    bounds.count(per_hour, "--per-hour", 1, 50)
    wanted = parse_day(when) if when is not None else None  # a day it cannot read fails before the log opens
    store = open_store(ctx, create=False)
    span = log_days(store)
    if wanted is None and span is not None:
        wanted = span[1]
        ui.status(f"{wanted.isoformat()}: the latest day with events")
    wanted = wanted or parse_day("today")
    digest = day_digest(store, wanted, per_hour)
    if not digest.events:
        ui.status(f"No events on {wanted.isoformat()}; " + (
            f"the log has events from {span[0].isoformat()} to {span[1].isoformat()}" if span else "the log is empty"))
    if json_:
        ui.emit_json(digest.to_json())
    elif digest.events:
        width = shutil.get_terminal_size((100, 24)).columns if ui.is_terminal() else 0
        ui.emit_text("\n".join(render(digest, width)))


def render(digest: DayDigest, width: int = 0) -> list[str]:
    """The digest as text lines; wrapped to `width` columns (0: one line per item, for a pipe)."""
    counts = ", ".join(f"{modality} {n}" for modality, n in digest.counts.items())
    lines = [digest.day.strftime("%A %d %B %Y"), f"{digest.events} events: {counts}"]
    if digest.truncated:
        lines.append(f"(a dense day: only its first {digest.events} events are told)")
    if digest.digest:
        stale = STALE if digest.summary is not None and digest.summary.stale else ""
        lines += ["", *_wrap(digest.digest + stale, width, "", "")]
    for hour in digest.hours:
        lines += ["", *_hour(hour, width)]
    return lines


def _hour(hour: Hour, width: int) -> list[str]:
    """'14:00-15:00  <summary>' (the summary marked when stale), then one line per salient event."""
    head = hour.label
    if hour.summary is not None and hour.summary.text.strip():
        stale = STALE if hour.summary.stale else ""
        head = f"{hour.label}  {hour.summary.text.strip()}{stale}"
    out = _wrap(head, width, "", " " * 13)
    for m in hour.salient:
        frame = ", frame" if m.media else ""
        text = f"{local(m.start_ms):%H:%M}  [{m.modality}] {' '.join(m.content.split())}  (#{m.id}{frame})"
        out += _wrap(text, width, "  ", INDENT)
    if not hour.salient:
        out.append(f"  ({hour.events} event(s) that tell nothing: {', '.join(hour.counts)})")
    return out


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    """Text as lines of at most `width` columns, the first after `first`, the rest after `rest`."""
    if width <= 0:
        return [first + text]
    return textwrap.wrap(text, width=max(40, width - 1), initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False) or [first]


def register(app: typer.Typer) -> None:
    """Attach `day` to the root app."""
    app.command("day", short_help="A day's digest: its hours, summaries and salient events.")(day)
