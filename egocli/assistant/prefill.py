"""The live window's life on the answer thread: its own model instance loaded through the registry,
filled from the newest log entries, and new events pre-filled in batches while the server is idle."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from egocli.assistant.services import LiveServices
from egocli.assistant.window import VERBS, LiveContext
from egocli.core.config import Settings
from egocli.core.errors import EgoError
from egocli.store import EventFilter, NewEvent

log = logging.getLogger(__name__)

WARM_DELAY_S = 1.0
"""Wait after a new event before pre-filling it, so a burst of events is evaluated in one batch."""
LIVE_CONTEXT = 2048
"""Context tokens of the live window's model instance (its own KV cache, apart from the ask core's)."""
Timer = Callable[[float, Callable[[], None]], None]
"""Calls a function after a delay in seconds, on some thread."""


def _thread_timer(delay: float, fn: Callable[[], None]) -> None:
    timer = threading.Timer(delay, fn)
    timer.daemon = True
    timer.start()


def live_settings(settings: Settings) -> Settings:
    """Settings under which the registry loads the live window's own LLM instance (a smaller context)."""
    llm = {**settings.section("llm"), "context_size": LIVE_CONTEXT, "instance": "live"}
    return replace(settings, options={**settings.options, "llm": llm})


class LiveWindow:
    """Owns the LiveContext of a server: None until loaded (every answer then searches the log)."""

    def __init__(self, services: LiveServices, budget: int, timer: Timer = _thread_timer) -> None:
        self.services, self.budget, self._timer = services, budget, timer
        self.context: LiveContext | None = None
        """The pre-filled recent log, once loaded."""
        self._warm_pending = threading.Lock()
        services.written = self.added

    async def open(self) -> None:
        """Load and fill the window in the background (the server is already answering)."""
        if self.budget <= 0:
            return
        try:
            await self.services.run("answer", self.fill)
        except EgoError as ex:
            log.warning("quick answers off (every answer searches the log): %s", ex)

    def fill(self) -> None:
        """Load the live answer model and fill its window from the log (answer thread)."""
        from egocli.models import registry

        live = LiveContext(registry.load_llm(live_settings(self.services.settings)), budget=self.budget)
        flt = EventFilter(modalities=tuple(VERBS), limit=200)
        for ev in self.services.store().events(flt, newest_first=True):  # until as full as a trim would leave it
            if live.add([ev], [ev.id]) and live.tokens > live.keep * live.budget:
                break
        self.context = live
        while live.warm(step=256) > 0:
            pass

    def added(self, events: Sequence[NewEvent], ids: Sequence[int]) -> None:
        """New events were stored: add them to the window and pre-fill them soon."""
        if self.context is not None and self.context.add(list(events), list(ids)):
            self.schedule()

    def schedule(self, delay: float = WARM_DELAY_S) -> None:
        """Queue one pre-fill step on the answer thread after `delay` unless one is queued already
        (events arriving in a burst are then evaluated together, in one batch)."""
        live = self.context
        if live is None or not live.prefilled or not self._warm_pending.acquire(blocking=False):
            return

        def submit() -> None:
            if not self.services.submit("answer", self._step):
                self._warm_pending.release()  # threads shut down

        if delay <= 0:
            submit()
        else:
            self._timer(delay, submit)

    def _step(self) -> None:
        self._warm_pending.release()
        assert self.context is not None
        try:
            remaining = self.context.warm()
        except EgoError as ex:
            log.warning("live context pre-fill failed: %s", ex)
            return
        if remaining > 0 and not self.services.closing:
            self.schedule(delay=0)  # queued behind any question that arrived meanwhile
