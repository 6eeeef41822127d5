"""Summaries built in the background by `serve`: each finished hour of the last days whose summary is missing or
older than its events, then its day, so that `ask` finds them ready (egocli.reasoning.hcc writes them).

Low priority and one at a time: a summary is one job on the answer thread, the one thread every live use of the
text model goes through, so it never runs beside a live answer; it starts only while nothing more urgent is
there (a question being answered, speech being recognised, which may be a question, other work queued on the
answer thread, a question asked on the timeline page), and a model summary gives way between steps when such
work arrives (llama.cpp keeps what it evaluated: the next try goes on from there). Without a summarizer model
the summaries are extractive (`egocli summarize --extractive`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

from egocli.assistant.services import LiveServices
from egocli.core.clock import Clock, SystemClock
from egocli.core.errors import EgoError, ModelError
from egocli.core.timeutil import format_local, now_ms
from egocli.models.base import Embedder
from egocli.reasoning import hcc
from egocli.store import Store
from egocli.usecases.timeline import Answerer

log = logging.getLogger(__name__)

DAYS = 2
"""Days looked at (today and yesterday, whose last hours finish after midnight); older ones: `egocli summarize`."""
PAUSE_S = 1.0
"""Seconds between two summaries, and between looks while something more urgent runs."""
GiveWay = Callable[[], bool]
"""True while something more urgent wants the model."""
MakeSummarizer = Callable[[GiveWay], hcc.Summarizer]
"""Makes the summarizer once, given what it asks between its steps."""


class BackgroundSummaries:
    """The background job of a server: `run` it as a task; it ends when the server closes."""

    def __init__(self, services: LiveServices, every_s: float = 60.0, summarizer: MakeSummarizer | None = None,
                 clock: Clock | None = None, days: int = DAYS) -> None:
        self.services = services
        self.every_s = every_s
        """Seconds between looks when nothing was due."""
        self.days = days
        self.clock = clock or SystemClock()
        self._make = summarizer or self._model_summarizer
        self._summarizer: hcc.Summarizer | None = None
        self._embedder: Embedder | None | bool = False  # False: not loaded yet
        self._asks = 0
        self._lock = threading.Lock()
        self.built = 0
        """Summaries stored so far."""
        self.gave_way = 0
        """Summaries given up half-way for more urgent work (built again later)."""

    def busy(self, own: int = 0) -> bool:
        """Whether something more urgent is going on (`own`: the job's own run on the answer thread)."""
        s = self.services
        return (s.closing or s.answering > 0 or self._asks > 0 or s.queued["asr"] > 0
                or s.queued["answer"] > own)

    async def run(self) -> None:
        """Look every `every_s` seconds; while summaries are due and nothing more urgent is going on, build
        them one at a time on the answer thread. Returns when the server closes."""
        pending = False
        while not self.services.closing:
            await self.clock.sleep(min(PAUSE_S, self.every_s) if pending else self.every_s)
            if self.busy():
                pending = True  # look again soon
                continue
            try:
                pending = await self.services.run("answer", self.step)
            except EgoError as ex:
                log.warning("background summary not built: %s", ex)
                pending = False
            except Exception as ex:  # the log locked by another writer for 30 s, ...: try again at the next look
                if self.services.closing:
                    return  # the threads were shut down under it
                log.warning("background summary failed: %s: %s", type(ex).__name__, ex,
                            exc_info=log.isEnabledFor(logging.DEBUG))
                pending = False

    def step(self) -> bool:
        """Build the first summary due (answer thread); True when more may be due."""
        if self.busy(own=1):
            return True
        store = self.services.store()
        due = hcc.finished(store, now_ms(), self.days)
        if not due:
            return False
        chunk = due[0]
        try:
            hcc.build_chunk(store, chunk, self.summarizer(), self.embedder())
        except hcc.Interrupted:
            self.gave_way += 1
            log.debug("background summary of the %s at %s gave way", chunk.level, format_local(chunk.start_ms))
            return True
        self.built += 1
        log.info("background summary of the %s at %s built (%d events)", chunk.level,
                 format_local(chunk.start_ms)[:16], chunk.event_count)
        return True

    def summarizer(self) -> hcc.Summarizer:
        """The summarizer, made at the first summary (answer thread)."""
        if self._summarizer is None:
            self._summarizer = self._make(lambda: self.busy(own=1))
        return self._summarizer

    def embedder(self) -> Embedder | None:
        """The embedder for the summaries' vectors, if it loads (answer thread)."""
        if self._embedder is False:
            try:
                self._embedder = self.services.embedder()
            except ModelError as ex:
                log.info("background summaries are not embedded: %s", ex)
                self._embedder = None
        return self._embedder if not isinstance(self._embedder, bool) else None

    def _model_summarizer(self, give_way: GiveWay) -> hcc.Summarizer:
        from egocli.models import registry

        try:
            model = registry.load_summarizer(self.services.settings)
        except ModelError as ex:
            log.warning("background summaries are extractive (no summarizer model): %s", ex)
            return hcc.ExtractiveSummarizer()
        return hcc.LlmSummarizer(model, give_way=give_way)

    def asking(self, answer: Answerer) -> Answerer:
        """The timeline page's answerer, counted while it answers (the job gives way to it)."""
        def counted(store: Store, question: str, on_token: Callable[[str], None]) -> dict[str, Any]:
            with self._lock:
                self._asks += 1
            try:
                return answer(store, question, on_token)
            finally:
                with self._lock:
                    self._asks -= 1

        return counted


async def stopped(task: asyncio.Task[None] | None) -> None:
    """Cancel the job's task and wait for it (a summary under way gives way: the server is closing)."""
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
