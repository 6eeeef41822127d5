"""Embedding the new events while the ingest runs, instead of all of them after it.

The embedder loads on its own thread once a file starts ingesting (beside the other models), and
the events written so far are embedded between writes every `every_s` seconds, so the cores'
idle moments (start-up, the end of the shorter stage) do the work that used to follow the ingest:
for the 10-minute bench recording, loading MiniLM and embedding 250 events, ~1.5-3 s of wall time."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from egocli.core.errors import EgoError


class BackgroundIndexer:
    """Embeds the unembedded events during an ingest (all calls from the writing thread).

    `load()` returns the embedder; `index(embedder)` embeds every event still without a vector and
    returns how many it did (egocli.reasoning.retrieval.embed_missing, counted)."""

    def __init__(self, load: Callable[[], Any], index: Callable[[Any], int], every_s: float = 5.0) -> None:
        self._load, self._index, self.every_s = load, index, every_s
        self._model: Any = None
        self.error: EgoError | None = None
        """Why the embedder could not load (the events stay stored; `ask` fills the gaps later)."""
        self.done = 0
        """Events embedded so far."""
        self._thread: threading.Thread | None = None
        self._last = time.monotonic()

    def start(self) -> None:
        """Begin loading the embedder on a thread (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._load_model, daemon=True, name="load-embedder")
            self._thread.start()

    def _load_model(self) -> None:
        try:
            self._model = self._load()
        except EgoError as ex:
            self.error = ex

    def tick(self) -> None:
        """Embed what was written since the last time, if the embedder is ready and it is time."""
        if self._model is not None and time.monotonic() - self._last >= self.every_s:
            try:
                self._embed()
            except EgoError as ex:  # the ingest goes on; the events are embedded later by `ask`
                self.error, self._model = ex, None

    def finish(self) -> int:
        """Wait for the embedder and embed the rest; how many events were embedded in all (`error` says
        why not all, if it is set)."""
        if self._thread is None:
            self.start()
        assert self._thread is not None
        self._thread.join()
        if self._model is not None:
            self._embed()
        return self.done

    def _embed(self) -> None:
        self.done += self._index(self._model)
        self._last = time.monotonic()
