"""One live session, whatever the transport: audio -> VAD -> ASR -> speech events or questions,
newest camera frame -> scene check -> description events, questions -> ask core -> spoken answers,
barge-in, heartbeats and a clean close that finishes writing the log."""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import numpy as np

from egocli.assistant.answers import LiveAnswerer
from egocli.assistant.livechess import analyse_frame
from egocli.assistant.dialogue import Assistant
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.routing import Ref
from egocli.core.clock import Clock, SystemClock
from egocli.assistant.seats import Seats
from egocli.assistant.services import LiveServices
from egocli.core.errors import EgoError
from egocli.models.base import Segment
from egocli.perception.audio import RATE, level_db
from egocli.perception.describe import FrameDescription
from egocli.perception.events import FrameNotes, speech_event
from egocli.perception.frames import FrameSelector, Verdict
from egocli.perception.image import Frame
from egocli.perception.vad import EnergyVad, Utterance, VadConfig
from egocli.store import NewEvent
from egocli.stream.pcm import Playback
from egocli.stream.host import Send
from egocli.stream.protocol import PROTOCOL_VERSION, ProtocolError, error, parse_control
from egocli.core.timeutil import format_local, now_ms

log = logging.getLogger(__name__)

BARGE_MS = 120
"""Loud microphone time during playback that counts as the user talking over the answer."""
PARTIAL_MS = 1000
"""Spoken time between partial transcripts of an utterance still going on."""
PARTIAL_MAX_S = 10
"""Partial transcripts look at most this many seconds back."""


def wake_pattern(phrase: str) -> re.Pattern[str]:
    """A regex matching the wake phrase at the start of a transcript, spelled loosely ('co-pilot', 'copilot')."""
    parts = [re.escape(p) for p in re.findall(r"[a-z0-9]+", phrase.lower())]
    return re.compile(r"^\W*" + r"[\W_]*".join(parts) + r"\b[\W_]*", re.IGNORECASE)


@dataclass(frozen=True)
class Crew:
    """What a live session works with, shared by every session of a server."""

    options: ServeOptions
    """How the server runs."""
    services: LiveServices
    """Log writer, models on their threads, perception and speech."""
    answerer: LiveAnswerer
    """Spoken answers to questions."""
    assistant: Assistant
    """Pointing, tools, confirmations and reminders."""
    seats: Seats[LiveSession]
    """Session admission."""
    clock: Clock = SystemClock()
    """Heartbeats, idle timeouts and the frame pace."""


class LiveSession:
    """A connected client. The transport feeds media and control messages in and delivers `send`."""

    def __init__(self, crew: Crew, transport: str, peer: str, send: Send | None = None) -> None:
        self.crew, self.transport, self.peer = crew, transport, peer
        self.services, self.assistant, self.clock = crew.services, crew.assistant, crew.clock
        self.opt = crew.options
        self.id: str | None = None
        self.source_id: int | None = None
        self.playback = Playback()
        self._send = send
        self._vad = EnergyVad(VadConfig())
        self._selector = FrameSelector()
        self._utterances: asyncio.Queue[tuple[Utterance, bool] | None] = asyncio.Queue(self.opt.utterance_queue)
        self._frame: Frame | None = None
        self._frame_seq = 0
        self._tasks: list[asyncio.Task[Any]] = []
        self._side: set[asyncio.Task[Any]] = set()
        self._wake = wake_pattern(self.opt.wake_phrase)
        self._ptt = self._wake_armed = False
        self._loud_ms = 0
        self._partial_busy, self._partial_next = False, PARTIAL_MS
        self._audio_origin: int | None = None
        self._started = now_ms()
        self._last_seen = self.clock.monotonic()
        self._notes = FrameNotes()
        self.counts = {"utterances": 0, "questions": 0, "frames": 0, "described": 0, "dropped": 0,
                       "received": 0}
        self.closed = asyncio.Event()
        self._closing = False

    # ---- lifecycle ------------------------------------------------------
    def reserve(self) -> bool:
        """Take a session slot now (no await between check and take); False when the server is full."""
        if self.id is None:
            self.id = self.crew.seats.admit(self)
        return self.id is not None

    async def start(self) -> bool:
        """Take a slot if not reserved and open the session's source; False when the server is full."""
        if not self.reserve():
            return False
        meta = {"transport": self.transport, "peer": self.peer}
        self.source_id = await self.services.run("writer", self.services.open_source, f"live-{self.id}", meta)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._transcribe_loop()), loop.create_task(self._video_loop()),
                       loop.create_task(self._heartbeat_loop()), loop.create_task(self.assistant.watch(self))]
        return True

    def attach(self, send: Send) -> None:
        """Set how messages reach the client (the data channel opens after the offer)."""
        self._send = send

    async def send(self, msg: dict[str, Any]) -> None:
        """Deliver a message; a gone client is not an error."""
        if self._send is None:
            return
        try:
            result = self._send(msg)
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                await result
        except Exception as ex:  # the transport failed: the close path cleans up
            log.debug("session %s: send failed: %s", self.id, ex)

    async def close(self, reason: str) -> None:
        """Finish every utterance already heard, write the log and release the session (idempotent)."""
        if self._closing:
            await self.closed.wait()
            return
        self._closing = True
        try:
            for utt in self._vad.flush():
                self._queue_utterance(utt, self._ptt)
            await self._utterances.put(None)
            await asyncio.wait_for(asyncio.shield(self._tasks[0]), timeout=60) if self._tasks else None
        except (asyncio.TimeoutError, asyncio.CancelledError):
            log.warning("session %s: speech still queued at close was dropped", self.id)
        finally:
            await self._finish(reason)

    async def _finish(self, reason: str) -> None:
        self.playback.stop()
        others = [t for t in [*self._tasks, *self._side] if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
        if self.source_id is not None:
            meta = {"closed": reason, **self.counts}
            await self.services.run("writer", self.services.close_source, self.source_id, now_ms() - self._started, meta)
        await self.send({"type": "bye", "reason": reason})
        if self.id is not None:
            self.crew.seats.release(self.id)
        self.closed.set()
        log.info("session %s closed: %s", self.id, reason)

    # ---- media in -------------------------------------------------------
    def feed_audio(self, pcm: np.ndarray) -> None:
        """16 kHz mono float32 from the microphone."""
        if self._closing or pcm.size == 0:
            return
        self._last_seen = self.clock.monotonic()
        if self._audio_origin is None:
            self._audio_origin = now_ms() - int(1000 * pcm.size / RATE)
        self._check_barge_in(pcm)
        for utt in self._vad.feed(pcm):
            self._queue_utterance(utt, self._ptt or self._wake_armed)
        self._maybe_partial()

    def _maybe_partial(self) -> None:
        """Transcribe the utterance still being spoken, about once a second, when ASR is idle.

        Not while push-to-talk is held: the question's own transcription must not wait behind one."""
        opened = self._vad.open_ms
        if opened < self._partial_next or self._partial_busy or self._ptt or not self._utterances.empty():
            if opened == 0:
                self._partial_next = PARTIAL_MS
            return
        samples = self._vad.partial()
        if samples is None:
            return
        self._partial_busy, self._partial_next = True, opened + PARTIAL_MS
        self._spawn(self._partial(samples[-PARTIAL_MAX_S * RATE:], self._ptt or self._wake_armed))

    async def _partial(self, samples: np.ndarray, question: bool) -> None:
        try:
            segments = await self.services.run("asr", self.services.transcribe, samples)
        except EgoError:
            return
        finally:
            self._partial_busy = False
        text = " ".join(s.text for s in segments).strip()
        if text and self._vad.open_ms:  # not already final
            await self.send({"type": "transcript", "final": False, "text": text, "question": question})

    def offer_frame(self, frame: Frame) -> None:
        """A decoded camera frame (or JPEG bytes): only the newest is kept."""
        self._last_seen = self.clock.monotonic()
        self._frame = frame
        self._frame_seq += 1
        self.counts["received"] += 1
        if "first_frame_ms" not in self.counts:
            self.counts["first_frame_ms"] = now_ms() - self._started

    def _check_barge_in(self, pcm: np.ndarray) -> None:
        if not self.playback.playing:
            self._loud_ms = 0
            return
        loud = level_db(pcm) > self.opt.barge_db
        self._loud_ms = self._loud_ms + int(1000 * pcm.size / RATE) if loud else 0
        if self._loud_ms >= BARGE_MS and self.playback.stop():
            self._loud_ms = 0
            self._spawn(self.send({"type": "stop", "reason": "barge-in"}))

    def _queue_utterance(self, utt: Utterance, question: bool) -> None:
        if self._utterances.full():
            self._utterances.get_nowait()
            self.counts["dropped"] += 1
            self._spawn(self.send(error("overloaded", "speech recognition is behind: an utterance was dropped")))
        self._utterances.put_nowait((utt, question))

    # ---- control in -----------------------------------------------------
    async def receive(self, raw: str | bytes) -> None:
        """Handle one control message from the client."""
        self._last_seen = self.clock.monotonic()
        try:
            msg = parse_control(raw)
        except ProtocolError as ex:
            await self.send(error(ex.code, str(ex)))
            return
        kind = msg["type"]
        if kind == "hello":
            await self.send({"type": "welcome", "session": self.id, "source_id": self.source_id,
                             "protocol": PROTOCOL_VERSION, "wake_phrase": self.opt.wake_phrase})
        elif kind == "ping":
            await self.send({"type": "pong", "t": msg.get("t")})
        elif kind == "pong":
            pass  # the client answering our heartbeat: _last_seen is already updated
        elif kind == "ask":
            self._spawn(self._answer(msg["text"].strip(), msg.get("id"), spoken=False))
        elif kind == "ptt":
            self._push_to_talk(msg["on"])
        elif kind == "stop":
            if self.playback.stop():
                await self.send({"type": "stop", "reason": "client"})
        elif kind == "chess":
            self._spawn(self._chess(msg.get("id")))
        elif kind == "bye":
            self._spawn(self.close("client said bye"))
        else:  # the assistant's own messages (confirmations, clarification replies)
            await self.assistant.control(self, msg)

    def _push_to_talk(self, on: bool) -> None:
        if on:
            self.playback.stop()
            self._ptt = True
            return
        self._ptt = False
        for utt in self._vad.flush():  # released: the question is over, no need to wait for silence
            self._queue_utterance(utt, True)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._side.add(task)
        task.add_done_callback(self._side.discard)

    # ---- workers --------------------------------------------------------
    async def _transcribe_loop(self) -> None:
        while (item := await self._utterances.get()) is not None:
            utt, question = item
            t0 = time.perf_counter()
            try:
                segments = await self.services.run("asr", self.services.transcribe, utt.samples)
                log.debug("session %s: asr %.0f ms for %.1f s (question %s)", self.id,
                         (time.perf_counter() - t0) * 1000, len(utt.samples) / RATE, question)
            except EgoError as ex:
                await self.send(error("model", str(ex)))
                continue
            text = " ".join(s.text for s in segments).strip()
            if text:
                await self._heard(utt, text, segments, question)

    async def _heard(self, utt: Utterance, text: str, segments: list[Segment], question: bool) -> None:
        match = self._wake.match(text)
        if match or question or self._wake_armed or self.assistant.awaiting(self):  # awaiting: a yes/no, a choice
            asked = text[match.end():].strip() if match else text
            self._wake_armed = bool(match) and not asked
            if asked:
                await self.send({"type": "transcript", "final": True, "text": asked, "question": True})
                self._spawn(self._answer(asked, None, spoken=True))
            return
        origin = self._audio_origin or self._started
        event = speech_event(utt, segments, origin, self.services.asr_name(),
                             extra={"session": self.id})
        assert event is not None  # text is not empty
        self.counts["utterances"] += 1
        await self.send({"type": "transcript", "final": True, "text": text, "question": False})
        await self._log([event])

    async def _log(self, events: list[NewEvent]) -> None:
        ids = await self.services.run("writer", self.services.write, self.source_id, events)
        for ev_id, ev in zip(ids, events):
            await self.send({"type": "event", "id": ev_id, "modality": ev.modality, "content": ev.content,
                             "time": format_local(ev.start_ms), "start_ms": ev.start_ms})

    async def _video_loop(self) -> None:
        seen = 0
        while True:
            await self.clock.sleep(1.0 / self.opt.fps)
            if self._frame_seq == seen or self._frame is None or self.services.answering:
                continue
            seen, frame = self._frame_seq, self._frame
            self.counts["frames"] += 1
            t = now_ms()
            try:
                verdict, desc = await self.services.run("vision", self.services.look, frame, self._selector, t - self._started)
            except (EgoError, ValueError) as ex:
                await self.send(error("frame", f"frame not described: {ex}"))
                continue
            if desc is not None:
                self.counts["described"] += 1
                await self._log(self._frame_events(desc, t, verdict))

    def _frame_events(self, desc: FrameDescription, t: int, verdict: Verdict) -> list[NewEvent]:
        self._notes.extra = {"session": self.id}
        return self._notes.events(desc, verdict, t, t + int(1000 / self.opt.fps), t - self._started)

    @property
    def frame(self) -> Frame | None:
        """The newest camera frame (JPEG bytes, av.VideoFrame or BGR array), or None."""
        return self._frame

    async def say(self, text: str) -> None:
        """Speak a short text on the session's playback (after whatever is playing)."""
        generation = self.playback.generation
        samples = await self.services.run("answer", self.services.speak, text)
        self.playback.enqueue(samples, generation)

    async def _answer(self, question: str, ref: Ref, spoken: bool) -> None:
        self.counts["questions"] += 1
        self.playback.stop()
        if await self.assistant.handle(self, question, ref, spoken):
            return  # pointing, a tool request or a pending clarification took it
        generation = self.playback.generation

        t0 = time.perf_counter()

        def say(samples: np.ndarray) -> None:
            if self.playback.generation == generation and not self.playback.playing:
                log.debug("session %s: first audio %.0f ms after the question", self.id, (time.perf_counter() - t0) * 1000)
            self.playback.enqueue(samples, generation)

        self.services.answering += 1  # frames wait: two cores, and the answer is what the user waits for
        try:
            reply = await self.services.run("answer", self.crew.answerer.answer, question, now_ms(), say,
                                       lambda: self.playback.generation != generation)
        except EgoError as ex:
            await self.send(error("model", str(ex), ref))
            return
        finally:
            self.services.answering -= 1
        await self.send({"type": "answer", "id": ref, "question": question, "text": reply.text,
                         "citations": reply.citations, "spoken": spoken, "interrupted": reply.interrupted,
                         "route": reply.route})

    async def _chess(self, ref: Ref) -> None:
        if self._frame is None:
            await self.send(error("no_frame", "no camera frame yet", ref))
            return
        try:
            result = await self.services.run("answer", analyse_frame, self.services, self._frame)
        except Exception as ex:  # the co-pilot's own failures must not end the session
            from egocli.chess.analyse import UnreadablePosition

            log.warning("session %s: chess failed: %s", self.id, ex)
            # a board read but not analysable: say what was seen
            seen = ex.analysis.fen_seen if isinstance(ex, UnreadablePosition) else None
            await self.send({**error("chess", f"{type(ex).__name__}: {ex}"[:300], ref),
                             **({"fen_seen": seen} if seen else {})})
            return
        await self.send({"type": "chess_result", "id": ref, **result})

    async def _heartbeat_loop(self) -> None:
        while True:
            await self.clock.sleep(self.opt.heartbeat_s)
            if self.clock.monotonic() - self._last_seen > self.opt.idle_timeout_s:
                self._spawn(self.close("peer timed out"))
                return
            await self.send({"type": "ping", "t": time.time()})
