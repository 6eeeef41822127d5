"""`egocli summarize`: build the HCC summaries (and event embeddings) the `ask` command uses."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, LLM, SINCE, UNTIL, open_store, settings, time_ms
from egocli.core.errors import ModelError, UsageError
from egocli.core.timeutil import format_local

if TYPE_CHECKING:
    from egocli.models.base import Embedder, TextModel
    from egocli.reasoning.hcc import Chunk, Summarizer
    from egocli.store import Store


def summarize(ctx: typer.Context, since: str = SINCE, until: str = UNTIL,
              extractive: bool = typer.Option(False, "--extractive",
                                              help="No model: keep the most frequent lines (fast, for huge logs)."),
              no_embed: bool = typer.Option(False, "--no-embed", help="Do not embed events for retrieval."),
              llm: str = LLM, json_: bool = JSON) -> None:
    """Build missing or stale hour/day/week summaries (only chunks whose events changed).

    \b
    Examples:
      egocli summarize
      egocli summarize --since "last week" --extractive
    """
    from egocli.models import registry
    from egocli.reasoning import hcc, retrieval

    lo, hi = time_ms("--since", since), time_ms("--until", until)
    if lo is not None and hi is not None and lo >= hi:
        raise UsageError("--since must be before --until")
    store = open_store(ctx, create=False)
    conf = settings(ctx)
    embedder: Embedder | None = None
    if not no_embed:
        try:
            with ui.Waiting("Loading the embedder..."):
                embedder = registry.load_embedder(conf)
        except ModelError as ex:
            ui.warn(f"{ex}; events are not embedded")
    embedded = _embed(retrieval.embed_missing(store, embedder, lo, hi)) if embedder is not None else 0
    todo = hcc.plan(store, lo, hi)
    model: TextModel | None = None
    if todo and not extractive:
        with ui.Waiting(f"Loading the summarizer model for {len(todo)} summaries..."):
            model = registry.load_summarizer(conf)
    built, name = _build(store, model, embedder, lo, hi, todo)
    used = name if built else None  # nothing built: no summarizer was used, whatever would have been
    doc = {"summaries_built": built, "events_embedded": embedded, "summarizer": used}
    if json_:
        ui.emit_json(doc)
    else:
        ui.emit_text(f"{built} summaries built, {embedded} events embedded" + (f" ({used})" if used else ""))


def _embed(batches: Iterator[int]) -> int:
    """Events embedded, batch by batch, counted on a bar of events (how many lack a vector is not counted)."""
    done = 0
    with ui.progress_bars() as bars:
        task = bars.add_task("embedding", total=None) if bars is not None else None
        for n in batches:
            done += n
            if bars is not None and task is not None:
                bars.advance(task, n)
    return done


def _label(chunk: Chunk) -> str:
    return f"{chunk.level} of {format_local(chunk.start_ms)[:16]}, {chunk.event_count} events"


class _Bars:
    """Summaries done of those to do, one bar per level; while the model writes one, its pieces of the at
    most `budget(level)` tokens it may take (a summary kept verbatim takes none: that bar stays hidden)."""

    def __init__(self, bars: ui.Progress, todo: list[Chunk], budget: Callable[[str], int] | None) -> None:
        from egocli.reasoning.hcc import LEVELS

        self.bars, self.budget = bars, budget
        counts = Counter(c.level for c in todo)
        self.levels = {level: bars.add_task(f"{level} summaries", total=counts[level])
                       for level in LEVELS if counts[level]}
        self.tokens = bars.add_task("", total=1, visible=False)
        self.written = 0

    def start(self, chunk: Chunk) -> None:
        """The chunk whose summary is built next."""
        self.written = 0
        total = self.budget(chunk.level) if self.budget is not None else 1
        self.bars.update(self.tokens, completed=0, total=total, description=f"  {_label(chunk)}", visible=False)

    def piece(self) -> None:
        """The model wrote one more piece of it."""
        self.written += 1
        self.bars.update(self.tokens, completed=self.written, visible=True)
        if self.written == 1:
            self.bars.refresh()  # each summary the model writes is seen, however fast

    def done(self, chunk: Chunk) -> None:
        """Its summary is stored."""
        self.bars.advance(self.levels[chunk.level])
        if self.written:
            self.bars.refresh()  # with the pieces it took
        self.bars.update(self.tokens, visible=False)


def _build(store: Store, model: TextModel | None, embedder: Embedder | None, lo: int | None, hi: int | None,
           todo: list[Chunk]) -> tuple[int, str]:
    """Build the planned summaries, showing them done per level and the pieces of the one being written."""
    from egocli.reasoning import hcc

    built = 0
    with ui.progress_bars() as bars:
        writer = hcc.LlmSummarizer(model) if model is not None else None
        shown = _Bars(bars, todo, writer.budget if writer is not None else None) if bars is not None else None
        if writer is not None and shown is not None:
            writer.on_piece = shown.piece
        summarizer: Summarizer = writer if writer is not None else hcc.ExtractiveSummarizer()
        if shown is not None and todo:
            shown.start(todo[0])
        for chunk, _summary in zip(todo, hcc.build(store, summarizer, embedder, lo, hi, todo)):
            built += 1
            if shown is not None:
                shown.done(chunk)
                if built < len(todo):
                    shown.start(todo[built])
    return built, summarizer.name


def register(app: typer.Typer) -> None:
    """Attach `summarize` to the root app."""
    app.command("summarize", short_help="Build the hour/day/week summaries that ask uses.")(summarize)
