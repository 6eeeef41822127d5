"""New events embedded while an ingest runs, not all after it; a failing embedder loses nothing."""

from __future__ import annotations

import threading

import pytest

from egocli.core.errors import ModelError
from egocli.ingest.indexing import BackgroundIndexer
from egocli.models.fake import HashEmbedder
from egocli.reasoning.retrieval import embed_missing
from egocli.store import NewEvent, Store
from tests.waiting import wait_until


def _store(tmp_path) -> Store:
    return Store.open(tmp_path / "log.db")


def _add(store: Store, n: int, at: int) -> None:
    store.add_events([NewEvent(at + i * 1000, at + i * 1000 + 500, "speech", f"said thing {at + i}")
                      for i in range(n)])


def _unembedded(store: Store, embedder: HashEmbedder) -> int:
    return sum(embed_missing(store, embedder))


def test_events_written_during_the_ingest_are_embedded_between_writes(tmp_path):
    store, embedder, loaded = _store(tmp_path), HashEmbedder(), threading.Event()

    def load() -> HashEmbedder:
        loaded.set()
        return embedder

    indexer = BackgroundIndexer(load, lambda model: sum(embed_missing(store, model)), every_s=0.0)
    _add(store, 5, 0)
    indexer.start()
    assert loaded.wait(10)
    # the embedder is handed over when load() returns, on the indexer's thread: from then on a tick embeds
    wait_until(lambda: (indexer.tick(), indexer.done)[1] == 5, 10, "a tick embedding the 5 events",
               seen=lambda: indexer.done)
    _add(store, 3, 100_000)
    assert indexer.finish() == 8 and indexer.error is None
    assert _unembedded(store, embedder) == 0


def test_an_embedder_that_fails_to_load_leaves_the_events_for_later(tmp_path):
    store = _store(tmp_path)

    def load() -> HashEmbedder:
        raise ModelError("embedder: model file not found")

    indexer = BackgroundIndexer(load, lambda model: sum(embed_missing(store, model)), every_s=0.0)
    _add(store, 4, 0)
    indexer.start()
    indexer.tick()
    assert indexer.finish() == 0 and "not found" in str(indexer.error)
    assert _unembedded(store, HashEmbedder()) == 4  # still there to embed


@pytest.mark.slow
def test_ingest_leaves_every_new_event_embedded(cli, db):
    import json
    import re

    from egocli.core.config import load_settings
    from egocli.models import registry
    from tests.conftest import REPO

    res = cli("ingest", REPO / "examples" / "glasses.mp4", "--no-audio", "--json")
    assert res.exit_code == 0, res.stderr
    events = sum(json.loads(res.stdout)[0]["events"].values())
    assert events > 0 and re.search(rf"indexed {events} event\(s\)", res.stderr), res.stderr
    assert _unembedded(Store.open(db), registry.load("embedder", load_settings())) == 0
