"""Media decoding with PyAV (its bundled FFmpeg): probing, sampled video frames, 16 kHz audio."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from egocli.core.errors import InputError

class TruncatedMedia(InputError):
    """Decoding stopped part-way: what came before is good, the rest is unreadable."""

    def __init__(self, path: Path, stage: str, at_ms: int, reason: str) -> None:
        super().__init__(f"{path}: {stage} decoding stopped at {at_ms / 1000:.1f}s "
                         f"(truncated or corrupt: {reason}); kept what came before")
        self.at_ms = at_ms


VIDEO_EXT = {".mp4", ".mov", ".mkv", ".webm", ".avi", ".m4v"}
AUDIO_EXT = {".wav", ".mp3", ".flac", ".m4a", ".opus", ".ogg", ".oga", ".aac"}
MAX_WIDTH = 640


@dataclass(frozen=True)
class MediaInfo:
    """What a media file holds."""

    path: Path
    """The file."""
    duration_ms: int
    """Length (longest stream)."""
    has_video: bool
    """A decodable video stream is present."""
    has_audio: bool
    """A decodable audio stream is present."""
    created_ms: int | None
    """The container's creation_time tag, when set."""


def _open(path: Path):  # noqa: ANN202 - av.container.InputContainer
    import av

    try:
        return av.open(str(path), metadata_errors="ignore")
    except (av.error.FFmpegError, UnicodeDecodeError, OSError) as ex:
        raise InputError(f"{path}: cannot read media: {ex}") from None


def probe(path: Path) -> MediaInfo:
    """Open a file and report its streams; corrupt or empty files raise InputError."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: empty file")
    _check_image(path)
    with _open(path) as container:
        video = [s for s in container.streams.video if s.codec_context is not None]
        audio = [s for s in container.streams.audio if s.codec_context is not None]
        if not video and not audio:
            raise InputError(f"{path}: no audio or video stream")
        for s in video:  # frames over the pixel budget are refused before any is decoded
            _check_pixels(path, s.codec_context.width, s.codec_context.height)
        duration = container.duration / 1e6 if container.duration else 0.0
        for s in video + audio:
            if s.duration and s.time_base:
                duration = max(duration, float(s.duration * s.time_base))
        created = _created(container.metadata.get("creation_time"))
    return MediaInfo(path, int(duration * 1000), bool(video), bool(audio), created)


def _check_pixels(path: Path, width: int, height: int) -> None:
    from egocli.perception.image import ImageTooLarge, check_pixels

    try:
        check_pixels(width, height)
    except ImageTooLarge as ex:
        raise ImageTooLarge(f"{path}: {ex}") from None


def _check_image(path: Path) -> None:
    """A still image (FFmpeg reads PNG/JPEG as one-frame video, sizing it only by decoding it) is held to
    the pixel budget from its header: a 30000x30000 PNG bomb is refused before FFmpeg sees it."""
    from egocli.perception.image import image_size

    with path.open("rb") as fh:
        size = image_size(fh.read(1 << 16))
    if size is not None:
        _check_pixels(path, *size)


def _created(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def video_frames(path: Path, fps: float, from_ms: int = 0) -> Iterator[tuple[int, np.ndarray]]:
    """Yield (time_ms, BGR frame <= 640 px wide) sampled at `fps`, from `from_ms` on."""
    import av

    step = 1000.0 / fps
    next_t = max(0.0, np.ceil(from_ms / step) * step)
    with _open(path) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        if from_ms > 0:
            container.seek(int(from_ms / 1000 / stream.time_base), stream=stream, backward=True)
        try:
            for frame in container.decode(stream):
                if frame.time is None or frame.time * 1000 + 1e-6 < next_t:
                    continue
                t_ms = int(round(next_t))
                while next_t <= frame.time * 1000 + 1e-6:
                    next_t += step
                yield t_ms, _upright(frame)
        except av.error.FFmpegError as ex:
            raise TruncatedMedia(path, "video", int(next_t), str(ex)) from None


def _upright(frame: Any) -> np.ndarray:
    """A decoded av.VideoFrame as BGR at most 640 px wide (stored width), turned as the container says
    (phones and glasses store portrait video sideways with a rotation in the display matrix)."""
    width = min(MAX_WIDTH, frame.width)
    height = int(round(frame.height * width / frame.width / 2)) * 2
    pixels = frame.to_ndarray(format="bgr24", width=width, height=height)
    turns = int(round((getattr(frame, "rotation", 0) or 0) / 90)) % 4  # counter-clockwise quarter turns
    return np.ascontiguousarray(np.rot90(pixels, turns)) if turns else pixels


def audio_chunks(path: Path, from_ms: int = 0) -> Iterator[tuple[int, np.ndarray]]:
    """Yield (time_ms, float32 mono 16 kHz samples) from `from_ms` on, decoded and resampled.

    Always decoded from the start (what comes before `from_ms` is dropped): after a seek the decoder and
    the resampler start afresh and the samples come out slightly different, enough for Whisper to hear
    "as" for "ask" in a resumed ingest. Audio decodes at ~600x real time, so this costs little."""
    import av

    with _open(path) as container:
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="s16", layout="mono", rate=16000)
        pos: int | None = None  # in samples at 16 kHz, so rounding never accumulates
        try:
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    pcm = out.to_ndarray().reshape(-1).astype(np.float32) / 32768.0
                    if pos is None:
                        pos = int(round((frame.time or 0.0) * 16000))
                    start, pos = pos, pos + len(pcm)
                    skip = from_ms * 16 - start
                    if skip >= len(pcm):
                        continue
                    if skip > 0:
                        pcm, start = pcm[skip:], start + skip
                    yield start // 16, pcm
        except av.error.FFmpegError as ex:
            raise TruncatedMedia(path, "audio", (pos or 0) // 16, str(ex)) from None
