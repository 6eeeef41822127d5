"""`egocli summarize`: build the HCC summaries (and event embeddings) the `ask` command uses."""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any

import typer

from egocli.cli import ui
from egocli.commands.common import JSON, SINCE, UNTIL, open_store, settings, time_ms
from egocli.core.errors import ModelError, UsageError
from egocli.core.timeutil import format_local

if TYPE_CHECKING:
    from egocli.models.base import Embedder, Message, TextModel
    from egocli.reasoning.hcc import Chunk, Summarizer
    from egocli.store import Store


class CountingModel:
    """A TextModel that reports each piece it streams, so a summary shows progress while it is written."""

    def __init__(self, model: TextModel, on_piece: Callable[[], None]) -> None:
        self.model = model
        self.name = model.name
        self.context_size = model.context_size
        self.on_piece = on_piece

    def generate(self, messages: Sequence[Message], max_tokens: int = 256, temperature: float = 0.0,
                 grammar: str | None = None, json_schema: dict[str, Any] | None = None,
                 stop: Sequence[str] | None = None) -> Generator[str, None, None]:
        """The wrapped model's pieces, each reported."""
        for piece in self.model.generate(messages, max_tokens=max_tokens, temperature=temperature, grammar=grammar,
                                         json_schema=json_schema, stop=stop):
            self.on_piece()
            yield piece

    def count_tokens(self, text: str) -> int:
        """As the wrapped model counts."""
        return self.model.count_tokens(text)


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
    embedded = 0
    if embedder is not None:
        embedded = sum(ui.track(retrieval.embed_missing(store, embedder, lo, hi), "embedding"))
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


def _label(chunk: Chunk) -> str:
    return f"{chunk.level} of {format_local(chunk.start_ms)[:16]}, {chunk.event_count} events"


def _build(store: Store, model: TextModel | None, embedder: Embedder | None, lo: int | None, hi: int | None,
           todo: list[Chunk]) -> tuple[int, str]:
    """Build the planned summaries with two bars: chunks done, and the tokens of the one being written."""
    from egocli.reasoning import hcc

    built = 0
    tasks: dict[str, ui.TaskID] = {}
    with ui.progress_bars() as bars:
        def on_piece() -> None:
            if bars is not None and "tokens" in tasks:
                bars.advance(tasks["tokens"])
        written = hcc.LlmSummarizer(CountingModel(model, on_piece)) if model is not None else None
        summarizer: Summarizer = written if written is not None else hcc.ExtractiveSummarizer()
        if bars is not None and todo:
            tasks["chunks"] = bars.add_task("summarising", total=len(todo))
            if written is not None:
                tasks["tokens"] = bars.add_task("", total=written.max_tokens)
        labels = iter(todo)

        def next_label() -> None:
            chunk = next(labels, None)
            if bars is not None and "tokens" in tasks and chunk is not None:
                bars.update(tasks["tokens"], completed=0, description=f"  {_label(chunk)}")
        next_label()
        for _summary in hcc.build(store, summarizer, embedder, lo, hi, todo):
            built += 1
            if bars is not None and "chunks" in tasks:
                bars.advance(tasks["chunks"])
            next_label()
    return built, summarizer.name


def register(app: typer.Typer) -> None:
    """Attach `summarize` to the root app."""
    app.command("summarize", short_help="Build the hour/day/week summaries that ask uses.")(summarize)
