"""Before answering: embed a scope's unindexed events and build the few HCC summaries it lacks."""

from __future__ import annotations

from collections.abc import Callable

from egocli.models.base import Embedder
from egocli.reasoning import hcc, retrieval
from egocli.reasoning.scope import Scope
from egocli.store import Store

DAY_MS = 86_400_000


def prepare_scope(store: Store, scope: Scope, summarizer: Callable[[], hcc.Summarizer] | None,
                  embedder: Embedder | None, max_chunks: int = 2, max_embed: int = 2000) -> tuple[int, int]:
    """Embed up to `max_embed` unindexed events in scope (with an embedder) and build the scope's missing
    summaries when there are at most `max_chunks` (with a summarizer).

    Returns (summaries built, summaries still missing: too many to build now, run `egocli summarize`)."""
    lo, hi = hcc.scope_range(store, scope)
    if embedder is not None:
        for _ in retrieval.embed_missing(store, embedder, lo, hi, limit=max_embed):
            pass
    if summarizer is None:
        return 0, 0
    if lo is None or lo < -hcc.UNBOUNDED:  # an unbounded scope: only the last day can have changed since `egocli summarize`
        hi = scope.at_ms
        lo = hi - DAY_MS
    todo = hcc.plan(store, lo, hi)
    if not todo or len(todo) > max_chunks:
        return 0, len(todo)
    built = sum(1 for _ in hcc.build(store, summarizer(), embedder, lo, hi, todo))
    return built, 0
