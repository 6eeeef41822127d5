"""Use-case: ingest recordings into the log, resumably, with both stages running concurrently.

A source row (kind video/audio, sha256 of the file) is created `pending`. Each stage sends
batches of events with a resume checkpoint; the writer (this thread) stores a batch and its
checkpoint in one transaction, so a killed ingest resumes exactly where its last batch ended.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from egocli.core.errors import EgoError, InputError
from egocli.usecases.importing import sha256_file
from egocli.ingest.decode import AUDIO_EXT, VIDEO_EXT, MediaInfo, probe
from egocli.ingest.loading import load_models
from egocli.ingest.profile import StageClock
from egocli.ingest.workers import AudioStage, Batch, VideoStage
from egocli.models.textgate import reader_with_gate
from egocli.perception.frames import FrameRules
from egocli.perception.packing import LIMIT_MS
from egocli.perception.vad import VadConfig
from egocli.privacy.redact import RedactionPolicy, Redactor
from egocli.store import Source, Store


@dataclass(frozen=True)
class IngestOptions:
    """How to ingest (defaults match `egocli ingest` without flags)."""

    fps: float = 1.0
    start_ms: int | None = None
    source_name: str | None = None
    keep_frames: bool = False
    audio: bool = True
    video: bool = True
    rules: FrameRules = field(default_factory=FrameRules)
    vad: VadConfig = field(default_factory=lambda: VadConfig(silence_ms=1200))
    redaction: RedactionPolicy | None = field(default_factory=RedactionPolicy)
    """Faces and personal data masked before storing (None: --no-redact)."""
    text_gate: bool = True
    """OCR only frames and boxes with text (egocli/models/textgate.py); False: every kept frame in full."""
    pack_speech_ms: int = LIMIT_MS
    """Utterances transcribed together up to this length (egocli/perception/packing.py); 0: one by one."""


@dataclass(frozen=True)
class Progress:
    """A stage advanced: media ms done of total."""

    path: str
    stage: str
    done_ms: int
    total_ms: int


@dataclass(frozen=True)
class IngestResult:
    """The outcome for one file."""

    path: str
    status: str
    """ingested, skipped (already done) or failed."""
    source_id: int | None = None
    events: dict[str, int] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    timings: dict[str, dict[str, float]] = field(default_factory=dict)
    """Seconds and calls per stage (egocli.ingest.profile.StageClock.table())."""


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; folders become their media files, oldest (by mtime) first."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            media = [f for f in p.iterdir() if f.suffix.lower() in VIDEO_EXT | AUDIO_EXT and f.is_file()]
            files.extend(sorted(media, key=lambda f: (f.stat().st_mtime, f.name)))
        else:
            files.append(p)
    return files


class RegistryModels:
    """Models for ingest from the registry, loaded on first use.

    The video and audio stages run side by side on (typically) two cores, so unless the user
    configured thread counts, OCR and ASR get one thread each instead of competing for two.
    (Tried in issue 19: ASR with two threads used the same CPU as one when alone, but under load
    CTranslate2's waiting threads burned 195 CPU-s instead of ~37 on the 10-minute bench audio.)
    Ingest frames are at most 640 px wide, and the OCR detector runs at 480: on the 66 frames of
    bench/labels.py and a page of 8-px print it found the same text as at 640, with ~14% less OCR CPU."""

    def __init__(self, settings: Any) -> None:
        from dataclasses import replace

        options = dict(settings.options)
        for role in ("ocr", "asr"):
            options[role] = {"threads": 1, **settings.section(role)}
        options["ocr"] = {"max_side": 480, **options["ocr"]}
        self.settings = replace(settings, options=options)

    def load(self, role: str) -> Any:
        """The model for a role."""
        from egocli.models import registry

        return registry.load(role, self.settings)

    def configured(self, role: str) -> bool:
        """True when the user configured this (optional) role."""
        return bool(self.settings.models.get(role))


class Ingestor:
    """Ingests files into one store with lazily loaded models (`models.load(role)`)."""

    def __init__(self, store: Store, models: Any, media_dir: Path, options: IngestOptions) -> None:
        self.store, self.models, self.media_dir, self.opt = store, models, media_dir, options
        self.redactor = Redactor(options.redaction) if options.redaction is not None else None

    def run(self, paths: list[Path]) -> Iterator[Progress | IngestResult]:
        """Ingest each file, continuing past failures."""
        for path in expand(paths):
            try:
                yield from self._one(path)
            except EgoError as ex:
                yield IngestResult(str(path), "failed", error=str(ex))

    def _one(self, path: Path) -> Iterator[Progress | IngestResult]:
        info = probe(path)
        warnings = []
        want_video = self.opt.video and info.has_video
        want_audio = self.opt.audio and info.has_audio
        if self.opt.audio and not info.has_audio and info.has_video:
            warnings.append(f"{path}: no audio track; only the video was ingested")
        if not want_video and not want_audio:
            raise InputError(f"{path}: nothing to ingest (no {'audio' if self.opt.audio else 'video'} stream)")
        digest = sha256_file(path)
        kind = "video" if info.has_video else "audio"
        src = self.store.find_source(kind=kind, sha256=digest)
        if src is not None and src.status == "done":
            yield IngestResult(str(path), "skipped", src.id)
            return
        src = src or self._new_source(path, info, kind, digest)
        clock = StageClock()
        stages = self._stages(path, src, info, want_video, want_audio, clock)
        counts: dict[str, int] = {}
        try:
            yield from self._drive(path, src, stages, info.duration_ms, counts, warnings, clock)
        except EgoError:
            # a bad file leaves nothing half-written (an interrupted run, by contrast, resumes)
            self.store.forget_source(src.id)
            raise
        self.store.update_source(src.id, status="done", progress_ms=info.duration_ms)
        events = self._event_counts(src.id)
        if want_audio and not counts.get("utterances"):
            warnings.append(f"{path}: no speech found in the audio")
        yield IngestResult(str(path), "ingested", src.id, events, counts, warnings, timings=clock.table())

    def _new_source(self, path: Path, info: MediaInfo, kind: str, digest: str) -> Source:
        start = self.opt.start_ms or info.created_ms or int(path.stat().st_mtime * 1000)
        return self.store.add_source(kind, self.opt.source_name or path.name, str(path.resolve()), digest,
                                     start_ms=start, duration_ms=info.duration_ms,
                                     meta={"fps": self.opt.fps})

    def _stages(self, path: Path, src: Source, info: MediaInfo, video: bool, audio: bool,
                clock: StageClock) -> list[Any]:
        video, audio = video and not src.meta.get("video_done"), audio and not src.meta.get("audio_done")
        m = load_models(self.models, video, audio, self.redactor if video else None, clock)
        stages: list[Any] = []
        if video:
            from egocli.perception.describe import Describer

            reader = reader_with_gate(clock.timed(m["ocr"], "read", "ocr"), self.opt.text_gate, clock)
            reader = self.redactor.reader(reader) if self.redactor else reader
            describer = Describer(clock.timed(m["labeler"], "labels", "labeler"), reader,
                                  clock.timed(m.get("narrator"), "describe", "narrator"))
            saver = self._frame_saver(src) if self.opt.keep_frames else None
            stages.append(VideoStage(path, src.start_ms or 0, self.opt.fps, describer, self.opt.rules, saver,
                                     self.redactor, clock=clock, beside_speech=audio,
                                     recent_texts=self._recent_texts(src)))
        if audio:
            asr = clock.timed(m["asr"], "transcribe", "asr", pooled=True)  # CTranslate2 computes in its own threads
            stages.append(AudioStage(path, src.start_ms or 0, asr, self.opt.vad, self.redactor, clock=clock,
                                     pack_ms=self.opt.pack_speech_ms))
        return stages

    def _drive(self, path: Path, src: Source, stages: list[Any], total: int, counts: dict[str, int],
               warnings: list[str], clock: StageClock) -> Iterator[Progress]:
        out: queue.Queue[Batch] = queue.Queue(maxsize=64)
        stop = threading.Event()
        resume = {k: v for k, v in src.meta.items() if isinstance(v, int)}
        threads = [threading.Thread(target=_guard, args=(s, out, resume, stop), daemon=True) for s in stages]
        for t in threads:
            t.start()
        try:
            yield from self._write(path, src, out, len(threads), total, counts, warnings, clock)
        finally:  # on error or Ctrl-C: stop the stages and let them finish before models unload
            stop.set()
            while any(t.is_alive() for t in threads):
                try:
                    out.get(timeout=0.1)
                except queue.Empty:
                    pass

    def _write(self, path: Path, src: Source, out: queue.Queue[Batch], running: int, total: int,
               counts: dict[str, int], warnings: list[str], clock: StageClock) -> Iterator[Progress]:
        meta = dict(src.meta)
        while running:
            batch = out.get()
            if batch.error is not None:
                raise batch.error if isinstance(batch.error, EgoError) else \
                    InputError(f"{path}: {batch.stage} stage failed: {batch.error}")
            meta.update(batch.checkpoint)
            if batch.finished:
                meta[f"{batch.stage}_done"] = True
                running -= 1
            if batch.warning:
                warnings.append(batch.warning)
            counts.update(batch.counts)
            with clock.stage("write"), self.store.transaction():
                self.store.add_events(batch.events, source_id=src.id)
                self.store.update_source(src.id, meta=meta)
            yield Progress(str(path), batch.stage, min(batch.done_ms, total), total)

    def _frame_saver(self, src: Source) -> Any:
        from egocli.privacy.crypto import media_key, write_media

        folder = self.media_dir / "frames" / f"{src.id}-{(src.sha256 or 'x')[:12]}"
        key = media_key(self.store)  # None for a plain log; encrypted logs get encrypted frames

        def save(frame: Any, t_ms: int) -> str:
            import cv2

            small = cv2.resize(frame, (320, int(frame.shape[0] * 320 / frame.shape[1])))
            jpeg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()
            target = write_media(folder / f"{t_ms:09d}.jpg", jpeg, key)
            return str(target.relative_to(self.media_dir))

        return save

    def _recent_texts(self, src: Source) -> dict[int, int]:
        """The texts a resumed video stage noted just before its resume point, read back from the log."""
        from egocli.perception.events import TEXT_REPEAT_MS, recent_texts
        from egocli.store import EventFilter

        resume_ms = src.meta.get("video_ms")
        if not isinstance(resume_ms, int):
            return {}
        at = (src.start_ms or 0) + resume_ms
        stored = self.store.events(EventFilter(source_id=src.id, modalities=("text",), since_ms=at - TEXT_REPEAT_MS))
        return recent_texts(((ev.start_ms, ev.content) for ev in stored), at)

    def _event_counts(self, source_id: int) -> dict[str, int]:
        from egocli.store import EventFilter

        counts: dict[str, int] = {}
        for ev in self.store.events(EventFilter(source_id=source_id)):
            counts[ev.modality] = counts.get(ev.modality, 0) + 1
        return counts


def _guard(stage: Any, out: queue.Queue[Batch], resume: dict[str, int], stop: threading.Event) -> None:
    try:
        stage.run(out, resume, stop)
    except BaseException as ex:  # reported to the writer, which stops the ingest of this file
        out.put(Batch(getattr(stage, "name", type(stage).__name__.replace("Stage", "").lower()), [], {}, 0,
                      error=ex))
