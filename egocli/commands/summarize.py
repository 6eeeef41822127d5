"""`egocli summarize`: build the HCC summaries (and event embeddings) the `ask` command uses."""

from __future__ import annotations

import typer

from egocli import ui
from egocli.commands.common import JSON, SINCE, UNTIL, open_store, settings
from egocli.errors import ModelError, UsageError
from egocli.timeutil import parse_time_ms


def summarize(ctx: typer.Context, since: str = SINCE, until: str = UNTIL,
              extractive: bool = typer.Option(False, "--extractive",
                                              help="No model: keep the most frequent lines (fast, for huge logs)."),
              no_embed: bool = typer.Option(False, "--no-embed", help="Do not embed events for retrieval."),
              json_: bool = JSON) -> None:
    """Build missing or stale hour/day/week summaries (only chunks whose events changed).

    \b
    Examples:
      egocli summarize
      egocli summarize --since "last week" --extractive
    """
    from egocli.reasoning import hcc, retrieval

    from egocli.models import registry

    lo, hi = parse_time_ms(since), parse_time_ms(until)
    if lo is not None and hi is not None and lo >= hi:
        raise UsageError("--since must be before --until")
    store = open_store(ctx, create=False)
    conf = settings(ctx)
    embedder = None
    if not no_embed:
        try:
            embedder = registry.load("embedder", conf)
        except ModelError as ex:
            ui.warn(f"{ex}; events are not embedded")
    embedded = 0
    if embedder is not None:
        embedded = sum(ui.track(retrieval.embed_missing(store, embedder, lo, hi), "embedding"))
    todo = hcc.plan(store, lo, hi)
    summariser = hcc.ExtractiveSummariser() if extractive or not todo else \
        hcc.LlmSummariser(registry.load("summarizer", conf))
    built = sum(1 for _ in ui.track(hcc.build(store, summariser, embedder, lo, hi, todo), "summarising",
                                    total=len(todo)))
    doc = {"summaries_built": built, "events_embedded": embedded, "summariser": summariser.name}
    if json_:
        ui.emit_json(doc)
    else:
        ui.emit_text(f"{built} summaries built, {embedded} events embedded ({summariser.name})")


def register(app: typer.Typer) -> None:
    """Attach `summarize` to the root app."""
    app.command("summarize")(summarize)
