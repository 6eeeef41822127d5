"""What every live session shares: the event log writer, the models (one thread per role, so a
backend is never entered twice at once), perception of heard audio and seen frames, and speech."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

from egocli.core.config import Settings
from egocli.core.errors import EgoError
from egocli.models.base import Embedder, Labeler, Model, PrefixCachedModel, Reader, Segment, Speaker, Transcriber
from egocli.perception.audio import RATE, resample, trim_silence
from egocli.perception.describe import Describer, FrameDescription
from egocli.perception.frames import FrameSelector, Verdict
from egocli.perception.image import Frame, to_bgr
from egocli.privacy.redact import Redactor
from egocli.store import NewEvent, Store
from egocli.core.timeutil import now_ms

log = logging.getLogger(__name__)

T = TypeVar("T")
POOLS = ("writer", "asr", "vision", "answer")
"""The role threads: the log writer, speech recognition, frame description, answers and speech."""
Written = Callable[[list[NewEvent], list[int]], None]
"""Told of events just stored, with their ids (the live window listens)."""


class LiveServices:
    """Shared services of the server. Blocking work runs on per-role single threads."""

    def __init__(self, settings: Settings) -> None:
        from egocli.privacy import crypto
        from egocli.privacy.redact import RedactionPolicy

        self.settings = settings
        self._key = crypto.key_for(settings.db)  # asked once, at start-up (EGOCLI_KEY or a prompt)
        policy = RedactionPolicy.from_settings(settings)
        self.redactor = Redactor(policy) if policy is not None else None
        self._pools = {name: ThreadPoolExecutor(1, thread_name_prefix=f"egocli-{name}") for name in POOLS}
        self._local = threading.local()
        self.closing = False
        self.answering = 0
        """Answers being generated now; frame description and background summaries wait while there are any."""
        self.queued = dict.fromkeys(POOLS, 0)
        """Jobs given to `run` and not finished yet, per role thread (background summaries give way to them)."""
        self._gate: Any = None
        self.written: Written | None = None
        """Called on the writer thread after events are stored."""

    @property
    def key(self) -> str | None:
        """The log's passphrase (None for a plain log), for other readers of the same log."""
        return self._key

    # ---- threads --------------------------------------------------------
    async def run(self, pool: str, fn: Callable[..., T], *args: Any) -> T:
        """Run fn(*args) on one of the role threads."""
        self.queued[pool] += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pools[pool], fn, *args)
        finally:
            self.queued[pool] -= 1

    def submit(self, pool: str, fn: Callable[[], Any]) -> bool:
        """Queue fn on a role thread from any thread; False when the threads are shut down."""
        try:
            self._pools[pool].submit(fn)
        except RuntimeError:
            return False
        return True

    async def shutdown(self) -> None:
        """Stop the threads: the log's queued writes finish; a model still loading is left behind (serve exits
        without waiting for it)."""
        self.closing = True
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.get_running_loop().run_in_executor(None, self._pools["writer"].shutdown, True)

    def store(self) -> Store:
        """This thread's connection to the log (SQLite connections stay in their thread)."""
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = Store.open(self.settings.db, key=self._key)
        return store

    def model(self, role: str) -> Model:
        """The model for a role, loaded once per process by the registry (the accessors below are typed)."""
        from egocli.models import registry

        return registry.load(role, self.settings)

    def llm(self) -> PrefixCachedModel:
        """The text model for answers, plans and coaching."""
        from egocli.models import registry

        return registry.load_llm(self.settings)

    def embedder(self) -> Embedder:
        """The sentence embedder for retrieval."""
        from egocli.models import registry

        return registry.load_embedder(self.settings)

    def asr(self) -> Transcriber:
        """The speech recogniser."""
        from egocli.models import registry

        return registry.load_asr(self.settings)

    def labeler(self) -> Labeler:
        """The image labeler."""
        from egocli.models import registry

        return registry.load_labeler(self.settings)

    def reader(self) -> Reader:
        """The text reader (OCR)."""
        from egocli.models import registry

        return registry.load_ocr(self.settings)

    def speaker(self) -> Speaker:
        """The speech synthesiser."""
        from egocli.models import registry

        return registry.load_tts(self.settings)

    async def warm(self) -> None:
        """Load the models in the background so the first utterance does not wait for them."""
        await self.run("writer", self.store)  # the writer creates/migrates the log before others read it
        jobs = [("asr", ("asr",)), ("vision", ("labeler", "ocr")), ("answer", ("llm", "tts", "embedder"))]
        for pool, roles in jobs:
            for role in roles:
                try:
                    await self.run(pool, self.model, role)
                except EgoError as ex:
                    log.warning("%s model not loaded: %s", role, ex)
        try:  # the first synthesis and recognition pay one-off set-up costs: not during the first answer
            await self.run("answer", self.speak, "Ready.")
            await self.run("asr", self.transcribe, np.zeros(RATE // 2, np.float32))
        except EgoError as ex:
            log.warning("warm-up skipped: %s", ex)

    # ---- log ------------------------------------------------------------
    def open_source(self, name: str, meta: dict[str, Any]) -> int:
        """Create the live session's source row; returns its id (writer thread)."""
        return self.store().add_source("live", name, start_ms=now_ms(), meta=meta).id

    def close_source(self, source_id: int, duration_ms: int, meta: dict[str, Any]) -> None:
        """Mark a session's source done, or drop it when the session logged nothing (writer thread): a
        client saying hello and bye in a loop leaves no rows behind."""
        from egocli.store.sourcesql import drop_if_empty

        store = self.store()
        if drop_if_empty(store, source_id):
            return
        merged = {**store.get_source(source_id).meta, **meta}
        store.update_source(source_id, status="done", duration_ms=duration_ms, meta=merged)

    def write(self, source_id: int, events: list[NewEvent]) -> list[int]:
        """Store events in one transaction (writer thread), personal data masked first."""
        if self.redactor is not None:
            events = [self.redactor.event(ev) for ev in events]
        ids = self.store().add_events(events, source_id=source_id)
        if self.written is not None:
            self.written(events, ids)
        return ids

    # ---- perception and speech --------------------------------------------
    def transcribe(self, samples: np.ndarray) -> list[Segment]:
        """ASR segments for 16 kHz samples (asr thread)."""
        return list(self.asr().transcribe(samples))

    def asr_name(self) -> str:
        """The speech recogniser's name, for the events it hears."""
        return self.asr().name

    def _gated_reader(self) -> Any:
        """The OCR reader behind the text gate (made once: the gate remembers the boxes it read last)."""
        from egocli.models.textgate import reader_with_gate

        if self._gate is None:
            self._gate = reader_with_gate(self.reader())
        return self._gate

    def look(self, frame: Frame, selector: FrameSelector, t_ms: int) -> tuple[Verdict, FrameDescription | None]:
        """(verdict, description or None) for a camera frame (vision thread)."""
        image = to_bgr(frame)
        verdict = selector.consider(image, t_ms)
        if not verdict.keep:
            return verdict, None
        describer = Describer(self.labeler(), self._gated_reader())
        if self.redactor is None:
            return verdict, describer.describe(image)
        image, faces = self.redactor.frame(image)  # faces blurred before anything looks at them
        desc = describer.describe(image)
        if faces:
            desc.meta["redacted"] = faces
        return verdict, desc

    def speak(self, text: str) -> np.ndarray:
        """Synthesised speech at 16 kHz (answer thread)."""
        samples, rate = self.speaker().speak(text)
        return trim_silence(resample(np.asarray(samples, np.float32), int(rate), RATE))
