"""What every live session shares: the event log writer, the models (one thread per role, so a
backend is never entered twice at once), answers through the ask core, and the chess co-pilot."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from egocli.config import Settings
from egocli.errors import EgoError, ModelError
from egocli.store import NewEvent, Store
from egocli.stream.audio import RATE, resample, trim_silence
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
    """Context tokens for an answer from the ask core (questions about other times than now)."""
    live_budget: int = 700
    """Tokens of recent log kept pre-evaluated for quick answers (see egocli.stream.live); 0: off,
    every answer searches the log with the ask core."""
    heartbeat_s: float = 5.0
    """Seconds between server pings."""
    idle_timeout_s: float = 20.0
    """A session with no message or media for this long is closed."""
    barge_db: float = -38.0
    """Microphone level (dBFS) that counts as user speech while an answer plays."""
    utterance_queue: int = 8
    """Utterances waiting for ASR per session; the oldest is dropped beyond this."""
    allow_origins: tuple[str, ...] = ()
    """Web origins besides the server's own that may open sessions (a glasses app's page)."""


WARM_DELAY_S = 1.0
"""Wait after a new event before pre-filling it, so a burst of events is evaluated in one batch."""
_SENTENCE_END = re.compile(r"[.!?;:]\s")
_CLAUSE_END = re.compile(r"[.!?;:,]\s")
PHRASE_OPENERS = frozenset({"to", "that", "what", "which", "who", "when", "where", "because", "and", "but",
                            "so", "with", "while", "after", "before", "since", "about"})
"""Words a first spoken piece may end before (a natural pause in speech)."""
PHRASE_MIN_WORDS = 4
"""Words the first piece needs before such a break."""


class SentenceSplitter:
    """Collects streamed tokens and hands out whole sentences as soon as they end."""

    def __init__(self, emit: Callable[[str], None], min_chars: int = 12) -> None:
        self.emit, self.min_chars, self.buffer, self.emitted = emit, min_chars, "", 0

    def feed(self, token: str) -> None:
        """Add a token; emits any finished sentence. The first piece may end sooner, at a clause or
        before a word that opens a phrase ("...asked people | to ask..."), so speech starts early."""
        if not self.emitted and token[:1].isspace() and self._phrase_break():
            return self.feed(token)
        self.buffer += token
        ends = _CLAUSE_END if not self.emitted else _SENTENCE_END
        for match in ends.finditer(self.buffer):
            if match.end() >= self.min_chars:
                sentence, self.buffer = self.buffer[:match.end()].strip(), self.buffer[match.end():]
                self._out(sentence)
                break
        return None

    def _phrase_break(self) -> bool:
        """Emit the words before the buffer's last (complete) word when that word opens a phrase."""
        words = self.buffer.split()
        if len(words) <= PHRASE_MIN_WORDS or words[-1].lower() not in PHRASE_OPENERS:
            return False
        cut = self.buffer.rstrip().rfind(words[-1])
        head, self.buffer = self.buffer[:cut].strip(), self.buffer[cut:]
        self._out(head)
        return True

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
    route: str = "log"
    """'live' (the pre-filled recent window) or 'log' (the ask core searching the whole log)."""


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
        self.live: Any = None
        """LiveContext once the answer model is loaded (None: every answer goes to the ask core)."""
        self.answering = 0
        """Answers being generated now; frame description waits while there are any."""
        self._warm_pending = threading.Lock()
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
        if self.options.live_budget <= 0:
            return
        try:
            await self.run("answer", self._open_live)
        except EgoError as ex:
            log.warning("quick answers off (every answer searches the log): %s", ex)

    # ---- quick answers from the recent log ------------------------------
    def _open_live(self) -> None:
        """Load the live answer model (its own KV cache) and fill its window from the log (answer thread)."""
        from egocli.models import registry
        from egocli.store import EventFilter
        from egocli.stream.live import VERBS, LiveContext

        choice = registry.resolve("llm", self.settings)
        if choice.backend == "llama.cpp":
            from egocli.models.llamacpp import LlamaCppModel

            choice = registry.prepare("llm", self.settings)
            section = self.settings.section("llm")
            assert choice.path is not None
            model: Any = LlamaCppModel(choice.path, role="llm", context_size=2048,
                                       n_threads=int(section.get("threads", 2)))
        else:
            model = registry.load("llm", self.settings)
        live = LiveContext(model, budget=self.options.live_budget)
        recent = list(self.store().events(EventFilter(modalities=tuple(VERBS), limit=200), newest_first=True))
        for ev in recent:  # newest first, until the window is as full as a trim would leave it
            if live.add([ev], [ev.id]) and live.tokens > live.keep * live.budget:
                break
        self.live = live
        while live.warm(step=256) > 0:
            pass

    def _schedule_warm(self, delay: float = WARM_DELAY_S) -> None:
        """Queue one pre-fill step on the answer thread after `delay` unless one is queued already
        (events arriving in a burst are then evaluated together, in one batch)."""
        if self.live is None or not self.live.prefilled or not self._warm_pending.acquire(blocking=False):
            return

        def submit() -> None:
            try:
                self._pools["answer"].submit(self._warm_step)
            except RuntimeError:  # pool shut down
                self._warm_pending.release()

        if delay <= 0:
            submit()
            return
        timer = threading.Timer(delay, submit)
        timer.daemon = True
        timer.start()

    def _warm_step(self) -> None:
        self._warm_pending.release()
        try:
            remaining = self.live.warm()
        except EgoError as ex:
            log.warning("live context pre-fill failed: %s", ex)
            return
        if remaining > 0 and not self.closing:
            self._schedule_warm(delay=0)  # queued behind any question that arrived meanwhile

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
        ids = self.store().add_events(events, source_id=source_id)
        if self.live is not None and self.live.add(events, ids):
            self._schedule_warm()
        return ids

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
        return trim_silence(resample(np.asarray(samples, np.float32), int(rate), RATE))

    def answer(self, question: str, at_ms: int, say: Callable[[np.ndarray], None],
               cancelled: Callable[[], bool] = lambda: False) -> Reply:
        """Answer a question, speaking each sentence as it is generated (answer thread).

        Questions about now go to the pre-filled live window (quick); questions naming other times
        go to the ask core. Generation stops early when `cancelled()` turns true (barge-in, a
        newer question)."""
        splitter = SentenceSplitter(lambda s: say(self.speak(s)))

        def on_token(token: str) -> None:
            if cancelled():
                raise AnswerCancelled
            splitter.feed(token)

        if self.live is not None and not self._needs_search(question, at_ms):
            return self._answer_live(question, at_ms, on_token, splitter, say)
        return self._answer_core(question, at_ms, on_token, splitter, say)

    def _needs_search(self, question: str, at_ms: int) -> bool:
        """True when the question names a time the live window does not cover (or "the last time")."""
        from egocli.reasoning.scope import parse_scope

        since = self.live.since_ms
        try:
            scope = parse_scope(question, at_ms)
        except EgoError:
            return True
        if since is None or scope.backwards or scope.tags:
            return True
        return any(start < since for start, _ in scope.windows)

    def _drop_forgotten(self) -> None:
        """Take events forgotten since they entered the window (`log forget`, retention) out of it,
        so an answer never rests on something the user deleted."""
        ids = [line.event_id for line in self.live.lines()]
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        present = {row[0] for row in self.store().conn.execute(f"SELECT id FROM events WHERE id IN ({marks})", ids)}
        if self.live.keep_only(present):
            log.info("live window: %d forgotten event(s) dropped", len(ids) - len(present))

    def _older(self, question: str, before_ms: int | None) -> list[Any]:
        """Up to two events older than the live window that match the question's words."""
        from egocli.reasoning.retrieval import relevant, retrieve
        from egocli.reasoning.scope import Scope

        if before_ms is None:
            return []
        try:
            hits = retrieve(self.store(), question, Scope(windows=((-(2 ** 62), before_ms),)), None, k=4)
        except EgoError:
            return []
        return [h.event for h in relevant(hits)[:2]]

    def _answer_live(self, question: str, at_ms: int, on_token: Callable[[str], None],
                     splitter: SentenceSplitter, say: Callable[[np.ndarray], None]) -> Reply:
        from egocli.timeutil import format_local

        live = self.live
        t0 = time.perf_counter()
        self._drop_forgotten()
        older = self._older(question, live.since_ms)
        t1 = time.perf_counter()
        pieces: list[str] = []
        try:
            for piece in live.answer(question, at_ms, older):
                if not pieces:
                    log.debug("live answer: retrieval %.0f ms, first token %.0f ms", (t1 - t0) * 1000,
                             (time.perf_counter() - t1) * 1000)
                pieces.append(piece)
                on_token(piece)
        except AnswerCancelled:
            return Reply(splitter.buffer.strip() + " …", interrupted=True, route="live")
        text = "".join(pieces).strip() or "I did not catch that."
        cites = [{"event_id": line.event_id, "time": format_local(line.start_ms), "offset": None,
                  "content": line.content} for line in live.cite(question, text, older)]
        return self._spoken(Reply(text, cites, route="live"), splitter, say)

    def _spoken(self, reply: Reply, splitter: SentenceSplitter, say: Callable[[np.ndarray], None]) -> Reply:
        splitter.finish()
        if not splitter.emitted:
            say(self.speak(reply.text))
            splitter.emitted = 1
        reply.spoken = splitter.emitted
        return reply

    def _answer_core(self, question: str, at_ms: int, on_token: Callable[[str], None],
                     splitter: SentenceSplitter, say: Callable[[np.ndarray], None]) -> Reply:
        from egocli.reasoning import asker

        store = self.store()
        embedder = self._embedder()
        req = asker.AskRequest(question, at_ms=at_ms, votes=1, budget=self.options.answer_budget, hcc=False)
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
        return self._spoken(reply, splitter, say)

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
