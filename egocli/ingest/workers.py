"""The two ingest stages, each run in its own thread: video (frames -> descriptions) and
audio (16 kHz -> VAD -> ASR). They send Batches to the writer; they never touch the store."""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from egocli.ingest.decode import TruncatedMedia, audio_chunks, video_frames
from egocli.ingest.profile import StageClock
from egocli.models.base import Segment, Transcriber
from egocli.perception.describe import Describer
from egocli.perception.events import FrameNotes, speech_event
from egocli.perception.frames import FrameRules, FrameSelector, Verdict
from egocli.perception.packing import LIMIT_MS, UtterancePacker
from egocli.perception.vad import EnergyVad, Utterance, VadConfig
from egocli.store import NewEvent

if TYPE_CHECKING:
    import numpy as np

CHECKPOINT_MS = 20_000
VIDEO_NICE = 5
"""How much lower the video threads' priority is than speech's when both run (see `yield_to_speech`)."""


def yield_to_speech(steps: int = VIDEO_NICE) -> None:
    """Lower the calling (stage) thread's scheduling priority by `steps` nice levels (Linux only).

    The speech recogniser is one serial thread; the video side has two and can use both cores once
    speech is done. With all three on two cores, an even share left speech on ~0.55 of a core while
    the video ran, then alone on one core for the last ~6 s of a 10-minute recording (the critical
    path). Lowered video threads let speech keep its core and the video take the rest, so both end
    together. Threads started from here (FFmpeg's decoders) inherit the lower priority."""
    if not sys.platform.startswith("linux") or threading.current_thread() is threading.main_thread():
        return  # elsewhere PRIO_PROCESS would name the whole process, not this thread
    with contextlib.suppress(OSError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + steps)


@dataclass(frozen=True)
class Batch:
    """Events of one stage up to a checkpoint: written with the checkpoint in one transaction."""

    stage: str
    """video or audio."""
    events: list[NewEvent]
    """New events, absolute times."""
    checkpoint: dict[str, int]
    """Source meta keys to set (resume positions)."""
    done_ms: int
    """Media time processed so far (for progress)."""
    finished: bool = False
    """The stage reached the end of the media."""
    error: BaseException | None = None
    """The stage failed with this error."""
    counts: dict[str, int] = field(default_factory=dict)
    """Frames sampled / kept / skipped, utterances (for the summary)."""
    warning: str | None = None
    """Something the user should know (e.g. the media was truncated)."""


@dataclass
class VideoStage:
    """Samples frames at fps, keeps changed ones, describes them."""

    path: Path
    origin_ms: int
    fps: float
    describer: Describer
    rules: FrameRules
    save_frame: Callable[[Any, int], str] | None = None
    redactor: Any = None
    """egocli.privacy.redact.Redactor: faces blurred and text masked before describing or saving."""
    clock: StageClock = field(default_factory=StageClock)
    """Where the stage's time goes (decode, select, redact, describe)."""
    beside_speech: bool = False
    """Speech is transcribed at the same time: the video threads yield to it (`yield_to_speech`)."""
    recent_texts: dict[int, int] = field(default_factory=dict)
    """Texts noted shortly before the resume point (egocli.perception.events.recent_texts): not news again."""
    _notes: FrameNotes = field(default_factory=FrameNotes)

    def run(self, out: queue.Queue[Batch], resume: dict[str, int], stop: threading.Event) -> None:
        """Process from the resume point to the end, sending batches to `out`.

        Two threads: a helper decodes, selects and redacts frames while this one describes the kept
        ones (labeler, OCR), so the video side can use a second core beside the speech recogniser."""
        import cv2

        cv2.setNumThreads(1)  # each stage thread is one core's worth; OpenCV's pool only added CPU
        if self.beside_speech:
            yield_to_speech()
        self._notes = FrameNotes(self.recent_texts)
        ahead: queue.Queue[_Seen | BaseException] = queue.Queue(maxsize=8)
        helper = threading.Thread(target=self._select, args=(ahead, resume, stop), daemon=True,
                                  name="video-select")
        helper.start()
        while not stop.is_set():
            try:
                item = ahead.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(item, BaseException):
                raise item
            events = self._describe(item) if item.frame is not None else []
            out.put(Batch("video", events, item.point, item.t, finished=item.finished, counts=item.counts,
                          warning=item.warning))
            if item.finished:
                return

    def _select(self, ahead: queue.Queue[_Seen | BaseException], resume: dict[str, int],
                stop: threading.Event) -> None:
        """The helper thread: decoded frames -> kept (redacted) frames and checkpoints, in order."""
        if self.beside_speech:
            yield_to_speech()
        try:
            self._frames(ahead, resume, stop)
        except BaseException as ex:  # handed to the describing thread, which reports it
            _put(ahead, ex, stop)

    def _frames(self, ahead: queue.Queue[_Seen | BaseException], resume: dict[str, int],
                stop: threading.Event) -> None:
        selector = FrameSelector(self.rules)
        frame: np.ndarray | None
        start = resume.get("video_ms", 0)
        if "video_ref_ms" in resume:
            for t, frame in video_frames(self.path, self.fps, resume["video_ref_ms"]):
                selector.prime(frame, t)
                break
        counts = {"frames": 0, "kept": 0, "dark": 0, "blur": 0, "same": 0}
        last_flush, t = start, start
        frames = _Truncatable(self.clock.iterate(video_frames(self.path, self.fps, start), "decode video"))
        for t, frame in _until_stopped(frames, stop):
            counts["frames"] += 1
            with self.clock.stage("select"):
                verdict = selector.consider(frame, t)
            if not verdict.keep:
                counts[verdict.reason] = counts.get(verdict.reason, 0) + 1
                if t - last_flush < CHECKPOINT_MS:
                    continue
                frame = None
            else:
                counts["kept"] += 1
            if not _put(ahead, self._seen(t, frame, verdict, selector, counts), stop):
                return
            last_flush = t
        if not stop.is_set():
            _put(ahead, _Seen(t, None, None, {}, self._point(t, selector), counts, True, frames.truncated), stop)

    def _seen(self, t: int, frame: np.ndarray | None, verdict: Verdict, selector: FrameSelector,
              counts: dict[str, int]) -> _Seen:
        found: dict[str, int] = {}
        if frame is not None and self.redactor:
            with self.clock.stage("redact faces"):
                frame, found = self.redactor.frame(frame)
        return _Seen(t, frame, verdict, found, self._point(t, selector), dict(counts))

    @staticmethod
    def _point(t: int, selector: FrameSelector) -> dict[str, int]:
        point = {"video_ms": t + 1}
        if selector.last_kept_ms is not None:
            point["video_ref_ms"] = selector.last_kept_ms
        return point

    def _describe(self, seen: _Seen) -> list[NewEvent]:
        frame, verdict = seen.frame, seen.verdict
        assert frame is not None and verdict is not None, "described: a kept frame, with its verdict"
        desc = self.describer.describe(frame)
        at = self.origin_ms + seen.t
        events = self._notes.events(desc, verdict, at, at + int(1000 / self.fps), seen.t, str(self.path))
        if events and self.save_frame:  # a frame no event names would be a file forget never removes
            media = self.save_frame(frame, seen.t)
            events = [replace(ev, media_path=media) for ev in events]
        return self.redactor.events(events, seen.found) if self.redactor else events


@dataclass(frozen=True)
class _Seen:
    """A kept frame (redacted) or a checkpoint (frame None), handed from the selecting thread."""

    t: int
    frame: np.ndarray | None
    verdict: Verdict | None
    found: dict[str, int]
    point: dict[str, int]
    counts: dict[str, int]
    finished: bool = False
    warning: str | None = None


def _put(q: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Put unless the ingest stops first (False then)."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.2)
            return True
        except queue.Full:
            continue
    return False


@dataclass
class AudioStage:
    """Decodes audio, finds utterances with the energy VAD, transcribes them in packs of up to ~30 s."""

    path: Path
    origin_ms: int
    asr: Transcriber
    vad: VadConfig
    redactor: Any = None
    """egocli.privacy.redact.Redactor: personal data in transcripts masked before storing."""
    clock: StageClock = field(default_factory=StageClock)
    """Where the stage's time goes (decode, VAD; ASR is timed by the model wrapper)."""
    pack_ms: int = LIMIT_MS
    """Utterances are transcribed together up to this length (egocli/perception/packing.py); 0: one by one."""

    def run(self, out: queue.Queue[Batch], resume: dict[str, int], stop: threading.Event) -> None:
        """Process from the resume point to the end, sending batches to `out`."""
        start = resume.get("audio_ms", 0)
        warm = max(0, start - self.vad.floor_window_ms - self.vad.preroll_ms)
        warm -= warm % self.vad.frame_ms  # keep the original frame grid: same levels, same cuts
        vad = EnergyVad(self.vad, origin_ms=warm)
        packer = UtterancePacker(self.asr, limit_ms=self.pack_ms)
        counts = {"utterances": 0, "silent": 0}
        last_flush = start
        chunks = _Truncatable(self.clock.iterate(audio_chunks(self.path, warm), "decode audio"))
        for _, pcm in _until_stopped(chunks, stop):
            for utt in self.clock.iterate(vad.feed(pcm), "vad"):
                if utt.end_ms <= start:
                    continue
                if not packer.fits(utt):
                    last_flush = self._send(packer, out, counts)
                packer.add(utt)
                if not self.pack_ms:
                    last_flush = self._send(packer, out, counts)
            if vad.idle and not packer.pending and vad.pos_ms - last_flush >= CHECKPOINT_MS:
                out.put(Batch("audio", [], {"audio_ms": vad.pos_ms}, vad.pos_ms, counts=dict(counts)))
                last_flush = vad.pos_ms
        if stop.is_set():
            return
        for utt in vad.flush():
            if utt.end_ms > start:
                if not packer.fits(utt):
                    self._send(packer, out, counts)
                packer.add(utt)
        events = [e for utt, segments in packer.transcribe() for e in self._events(utt, segments, counts)]
        out.put(Batch("audio", events, {"audio_ms": vad.pos_ms}, vad.pos_ms, finished=True, counts=counts,
                      warning=chunks.truncated))

    def _send(self, packer: UtterancePacker, out: queue.Queue[Batch], counts: dict[str, int]) -> int:
        """Transcribe the pending pack and send its events, checkpointed after its last utterance."""
        if not packer.pending:
            return 0
        closed = packer.pending[-1].closed_ms
        events = [e for utt, segments in packer.transcribe() for e in self._events(utt, segments, counts)]
        out.put(Batch("audio", events, {"audio_ms": closed}, closed, counts=dict(counts)))
        return closed

    def _events(self, utt: Utterance, segments: list[Segment], counts: dict[str, int]) -> list[NewEvent]:
        ev = speech_event(utt, segments, self.origin_ms, self.asr.name, str(self.path))
        if ev is None:
            counts["silent"] += 1
            return []
        counts["utterances"] += 1
        return [self.redactor.event(ev) if self.redactor else ev]


class _Truncatable:
    """Wraps a decoding iterator: a TruncatedMedia after some output ends it with a warning."""

    def __init__(self, inner: Iterator[Any]) -> None:
        self.inner, self.any = inner, False
        self.truncated: str | None = None

    def __iter__(self) -> Iterator[Any]:
        try:
            for item in self.inner:
                self.any = True
                yield item
        except TruncatedMedia as ex:
            if not self.any:
                raise
            self.truncated = str(ex)


def _until_stopped(items: Any, stop: threading.Event) -> Iterator[Any]:
    for item in items:
        if stop.is_set():
            return
        yield item
