"""Helpers shared by command modules: settings, the store, output format flags."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from egocli.core.config import Settings, load_settings
from egocli.core.errors import UsageError
from egocli.core.timeutil import parse_time_ms

if TYPE_CHECKING:
    from egocli.store import EventFilter, Store

JSON = typer.Option(False, "--json", help="Print one JSON document.")
JSONL = typer.Option(False, "--jsonl", help="Print one JSON object per line.")
SINCE = typer.Option(None, "--since", help="From this time (ISO 8601, 14:05, '2h ago', 'yesterday 15:00').")
UNTIL = typer.Option(None, "--until", help="Before this time.")
MODALITY = typer.Option(None, "--modality", "-m", help="Only this modality (repeatable).")
SOURCE = typer.Option(None, "--source", help="Only this source (name or id; `egocli sources list`).")


def _remember_llm(ctx: typer.Context, _param: object, value: str | None) -> None:
    if value:
        root = ctx.find_root()
        root.obj = {**(root.obj or {}), "llm": value}


LLM = typer.Option(None, "--llm", metavar="MODEL", expose_value=False, callback=_remember_llm,
                   help="LLM to use: a name (qwen1.5b, qwen0.5b, smollm2), a GGUF path, 'fake', or an "
                        "OpenAI-compatible server's URL (http://host:port/v1; its key in EGOCLI_LLM_KEY).")
"""The one LLM override, the same on every command that runs the LLM (read back by settings())."""


def settings(ctx: typer.Context, **models: str | None) -> Settings:
    """Settings for this invocation (the global --db flag and an --llm override honoured)."""
    obj = ctx.find_root().obj or {}
    return load_settings(db=obj.get("db")).with_models(llm=obj.get("llm")).with_models(**models)


def open_store(ctx: typer.Context, create: bool = True) -> Store:
    """Open the event log this invocation points at (its key from EGOCLI_KEY or a prompt), then
    remove whatever the retention rules say has expired."""
    from egocli.privacy import crypto, retention
    from egocli.store import Store

    cfg = settings(ctx)
    store = Store.open(cfg.db, create=create, key=crypto.key_for(cfg.db))
    retention.apply(store, cfg.media_dir)
    return store


def time_ms(option: str, text: str | None) -> int | None:
    """A time option's value as epoch ms (None passes through); a phrase that cannot be read is a usage
    error naming the option ("--since: cannot read the time 'blurgh' ...")."""
    try:
        return parse_time_ms(text)
    except UsageError as ex:
        raise UsageError(f"{option}: {ex}") from None


def output_format(json_: bool, jsonl: bool) -> str:
    """'json', 'jsonl' or 'text'."""
    if json_ and jsonl:
        raise UsageError("--json and --jsonl are mutually exclusive")
    return "json" if json_ else "jsonl" if jsonl else "text"


def event_filter(since: str | None, until: str | None, modality: list[str] | None,
                 source: str | None, limit: int | None = None) -> EventFilter:
    """Build an EventFilter from the common flags, checking the time range."""
    from egocli.store import EventFilter

    since_ms, until_ms = time_ms("--since", since), time_ms("--until", until)
    if since_ms is not None and until_ms is not None and since_ms >= until_ms:
        raise UsageError("--since must be before --until")
    if limit is not None:
        from egocli.core import bounds

        bounds.count(limit, "--limit", 1)
    return EventFilter(since_ms=since_ms, until_ms=until_ms, modalities=tuple(modality or ()),
                       source=source, limit=limit)


def event_row(ev: Any) -> dict[str, Any]:
    """A row for listing an event: the same record `log export --format jsonl` writes."""
    from egocli.formats.export import event_record

    return event_record(ev)


def check_filter(store: Store, flt: EventFilter) -> None:
    """NotFound (exit 1) for a source or modality the log has never had (see logbook.check_filter)."""
    from egocli.usecases import logbook

    logbook.check_filter(store, flt)


def index_new_events(cfg: Settings, store: Store) -> None:
    """Embed events that have no vector yet, so `ask` finds them by meaning (a warning on failure:
    `ask` and `summarize` fill the gaps later)."""
    from egocli.cli import ui
    from egocli.core.errors import EgoError
    from egocli.models import registry
    from egocli.reasoning.retrieval import embed_missing

    try:
        done = sum(ui.track(embed_missing(store, registry.load_embedder(cfg)), "indexing"))
    except EgoError as ex:
        ui.warn(f"events stored but not indexed for meaning search: {ex}")
        return
    if done:
        ui.status(f"indexed {done} event(s) for search by meaning")
