"""The real MiniLM embedder for the symbolic tests (skipped where its package is not installed)."""

from __future__ import annotations

import pytest

from egocli.config import load_settings
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
