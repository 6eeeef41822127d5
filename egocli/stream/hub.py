"""What every live session shares: the event log writer, the models (one thread per role, so a
backend is never entered twice at once), answers through the ask core, and the chess co-pilot."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from egocli.config import Settings
from egocli.errors import EgoError, ModelError
from egocli.store import NewEvent, Store
from egocli.stream.audio import RATE, resample
from egocli.timeutil import now_ms

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServeOptions:
    """How `egocli serve` runs (defaults match the command without flags)."""

    host: str = "127.0.0.1"
    """Address to bind; anything but loopback needs a token."""
    port: int = 8765
    """TCP port (0: any free port)."""
    token: str | None = None
    """Shared secret checked on /offer, /ws and /api/*."""
    cert: Path | None = None
    """TLS certificate (PEM) for HTTPS."""
    key: Path | None = None
    """TLS private key (PEM)."""
    ice_servers: tuple[str, ...] = ()
    """STUN/TURN URLs; none by default, so no outside server is ever contacted."""
    ice_loopback: bool = False
    """Use only 127.0.0.1 for ICE (same-machine clients, tests in a network-less sandbox)."""
    max_sessions: int = 8
    """Concurrent sessions; more are refused with 503."""
    wake_phrase: str = "hey co-pilot"
    """A spoken utterance starting with this is a question."""
    fps: float = 1.0
    """Camera frames considered per second (the newest frame is taken each time)."""
    answer_budget: int = 400
    """Context tokens for a spoken or typed answer (small: answers must be quick)."""
    heartbeat_s: float = 5.0
    """Seconds between server pings."""
    idle_timeout_s: float = 20.0
    """A session with no message or media for this long is closed."""
    barge_db: float = -38.0
    """Microphone level (dBFS) that counts as user speech while an answer plays."""
    utterance_queue: int = 8
    """Utterances waiting for ASR per session; the oldest is dropped beyond this."""


_SENTENCE_END = re.compile(r"[.!?;:](\s|$)")


class SentenceSplitter:
    """Collects streamed tokens and hands out whole sentences as soon as they end."""

    def __init__(self, emit: Callable[[str], None], min_chars: int = 12) -> None:
        self.emit, self.min_chars, self.buffer, self.emitted = emit, min_chars, "", 0

    def feed(self, token: str) -> None:
        """Add a token; emits any finished sentence."""
        self.buffer += token
        for match in _SENTENCE_END.finditer(self.buffer):
            if match.end() >= self.min_chars:
                sentence, self.buffer = self.buffer[:match.end()].strip(), self.buffer[match.end():]
                self._out(sentence)
                break

    def finish(self) -> None:
        """Emit whatever is left."""
        rest, self.buffer = self.buffer.strip(), ""
        if rest:
            self._out(rest)

    def _out(self, sentence: str) -> None:
        if sentence:
            self.emitted += 1
            self.emit(sentence)


@dataclass
class Reply:
    """An answer for a live session."""

    text: str
    """The answer text."""
    citations: list[dict[str, Any]] = field(default_factory=list)
    """Events it rests on: event_id, time, offset, content."""
    spoken: int = 0
    """Sentences sent to playback."""
    interrupted: bool = False
    """Generation was stopped by barge-in or a newer question."""


class AnswerCancelled(Exception):
    """Raised inside the model's token callback to stop generating."""


def to_bgr(frame: Any) -> np.ndarray:
    """A camera frame (JPEG bytes, av.VideoFrame or BGR array) as a BGR uint8 array."""
    import cv2

    if isinstance(frame, (bytes, bytearray, memoryview)):
        image = cv2.imdecode(np.frombuffer(frame, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError("not a decodable JPEG")
        return image
    if isinstance(frame, np.ndarray):
        return frame
    return frame.to_ndarray(format="bgr24")


class LiveHub:
    """Shared services of the server. Blocking work runs on per-role single threads."""

    def __init__(self, settings: Settings, options: ServeOptions) -> None:
        from egocli.privacy import crypto
        from egocli.privacy.redact import RedactionPolicy, Redactor

        self.settings, self.options = settings, options
        self._key = crypto.key_for(settings.db)  # asked once, at start-up (EGOCLI_KEY or a prompt)
        policy = RedactionPolicy.from_settings(settings)
        self.redactor = Redactor(policy) if policy is not None else None
        self.sessions: dict[str, Any] = {}
        self._pools = {name: ThreadPoolExecutor(1, thread_name_prefix=f"egocli-{name}")
                       for name in ("writer", "asr", "vision", "answer")}
        self._local = threading.local()
        self._background: set[asyncio.Future[Any]] = set()
        self.closing = False
        from egocli.stream.assist import Assistant

        self.assist = Assistant(self)

    def keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference to a background task until it finishes."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- threads --------------------------------------------------------
    async def run(self, pool: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run fn(*args) on one of the role threads."""
        return await asyncio.get_running_loop().run_in_executor(self._pools[pool], fn, *args)

    def store(self) -> Store:
        """This thread's connection to the log (SQLite connections stay in their thread)."""
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = Store.open(self.settings.db, key=self._key)
        return store

    def model(self, role: str) -> Any:
        """The model for a role (loaded once per process)."""
        from egocli.models import registry

        return registry.load(role, self.settings)

    async def warm(self) -> None:
        """Load the models in the background so the first utterance does not wait for them."""
        jobs = [("asr", ("asr",)), ("vision", ("labeler", "ocr")), ("answer", ("llm", "tts", "embedder"))]
        for pool, roles in jobs:
            for role in roles:
                try:
                    await self.run(pool, self.model, role)
                except EgoError as ex:
                    log.warning("%s model not loaded: %s", role, ex)

    # ---- sessions -------------------------------------------------------
    def admit(self, session: Any) -> str | None:
        """Register a session and return its id, or None when the server is full or closing."""
        if self.closing or len(self.sessions) >= self.options.max_sessions:
            return None
        sid = secrets.token_hex(4)
        self.sessions[sid] = session
        return sid

    def release(self, sid: str) -> None:
        """Forget a closed session."""
        self.sessions.pop(sid, None)

    async def shutdown(self, *_: Any) -> None:
        """Close every session (finishing their log writes), then stop the threads."""
        self.closing = True
        await asyncio.gather(*(s.close("server shutdown") for s in list(self.sessions.values())),
                             return_exceptions=True)
        for pool in self._pools.values():
            await asyncio.get_running_loop().run_in_executor(None, pool.shutdown, True)

    # ---- log ------------------------------------------------------------
    def open_source(self, name: str, meta: dict[str, Any]) -> int:
        """Create the live session's source row; returns its id (writer thread)."""
        return self.store().add_source("live", name, start_ms=now_ms(), meta=meta).id

    def close_source(self, source_id: int, duration_ms: int, meta: dict[str, Any]) -> None:
        """Mark a session's source done (writer thread)."""
        store = self.store()
        merged = {**store.get_source(source_id).meta, **meta}
        store.update_source(source_id, status="done", duration_ms=duration_ms, meta=merged)

    def write(self, source_id: int, events: list[NewEvent]) -> list[int]:
        """Store events in one transaction (writer thread), personal data masked first."""
        if self.redactor is not None:
            events = [self.redactor.event(ev) for ev in events]
        return self.store().add_events(events, source_id=source_id)

    # ---- models ---------------------------------------------------------
    def transcribe(self, samples: np.ndarray) -> Any:
        """ASR segments for 16 kHz samples (asr thread)."""
        return self.model("asr").transcribe(samples)

    def look(self, frame: Any, selector: Any, t_ms: int) -> tuple[Any, Any]:
        """(verdict, description or None) for a camera frame (vision thread)."""
        from egocli.ingest.describe import Describer

        image = to_bgr(frame)
        verdict = selector.consider(image, t_ms)
        if not verdict.keep:
            return verdict, None
        if self.redactor is None:
            return verdict, Describer(self.model("labeler"), self.model("ocr")).describe(image)
        image, faces = self.redactor.frame(image)  # faces blurred before anything looks at them
        desc = Describer(self.model("labeler"), self.model("ocr")).describe(image)
        if faces:
            desc.meta["redacted"] = faces
        return verdict, desc

    def speak(self, text: str) -> np.ndarray:
        """Synthesised speech at 16 kHz (answer thread)."""
        samples, rate = self.model("tts").speak(text)
        return resample(np.asarray(samples, np.float32), int(rate), RATE)

    def answer(self, question: str, at_ms: int, say: Callable[[np.ndarray], None],
               cancelled: Callable[[], bool] = lambda: False) -> Reply:
        """Answer over the log with the ask core, speaking each sentence as it is generated (answer thread).

        Generation stops early when `cancelled()` turns true (barge-in, a newer question)."""
        from egocli.reasoning import asker

        store = self.store()
        embedder = self._embedder()
        req = asker.AskRequest(question, at_ms=at_ms, votes=1, budget=self.options.answer_budget, hcc=False)
        splitter = SentenceSplitter(lambda s: say(self.speak(s)))

        def on_token(token: str) -> None:
            if cancelled():
                raise AnswerCancelled
            splitter.feed(token)

        try:
            asker.prepare(store, req, None, embedder)
            result = asker.ask(store, self.model("llm"), req, embedder, on_token=on_token)
        except AnswerCancelled:
            return Reply(splitter.buffer.strip() + " …", interrupted=True)
        except EgoError as ex:
            if isinstance(ex, ModelError):
                raise
            reply = Reply(str(ex))
        else:
            reply = Reply(result.text, [asdict(c) for c in result.citations])
        splitter.finish()
        if not splitter.emitted:
            say(self.speak(reply.text))
            splitter.emitted = 1
        reply.spoken = splitter.emitted
        return reply

    def _embedder(self) -> Any:
        try:
            return self.model("embedder")
        except ModelError as ex:
            log.info("answers use words only: %s", ex)
            return None

    def chess(self, frame: Any) -> dict[str, Any]:
        """Analyse the chess board in a camera frame (answer thread)."""
        from egocli.chess.analyse import ChessOptions, analyse_image

        result = analyse_image(to_bgr(frame), ChessOptions(seconds=0.3), lambda: self.model("llm"))
        return result.to_json()
