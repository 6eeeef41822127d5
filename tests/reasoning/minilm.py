"""The real MiniLM embedder for the symbolic tests (skipped where its package is not installed)."""

from __future__ import annotations

import pytest

from egocli.core.config import load_settings
from egocli.reasoning import retrieval
from egocli.store import Store

_LOADED: list = []


def minilm():
    """The registry's default embedder, loaded once per test session."""
    if not _LOADED:
        from egocli.models import registry

        settings = load_settings()
        present, note = registry.status(registry.resolve("embedder", settings))
        if not present:
            pytest.skip(f"embedder: {note}")
        _LOADED.append(registry.load("embedder", settings))
    return _LOADED[0]


def indexed(store: Store):
    """Embed every event of the store with MiniLM; returns the embedder."""
    embedder = minilm()
    for _ in retrieval.embed_missing(store, embedder):
        pass
    return embedder


def narrated_day(rows: list[tuple[str, str, str]], day: str = "2026-11-20", seconds: int = 20):
    """An in-memory log of one day's (clock, modality, text) rows, each `seconds` long, embedded with MiniLM:
    (store, embedder)."""
    from egocli.store import NewEvent
    from egocli.core.timeutil import parse_time_ms

    store = Store.open(None)
    starts = [parse_time_ms(f"{day}T{clock}") for clock, _, _ in rows]
    store.add_events([NewEvent(t, t + seconds * 1000, m, text) for t, (_, m, text) in zip(starts, rows, strict=True)])
    return store, indexed(store)
