"""Audio plumbing for live sessions: format conversion, resampling, and the answer playback buffer."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

RATE = 16000
"""The pipeline's rate: VAD, ASR and playback all run at 16 kHz mono."""


def s16_to_float(data: bytes | np.ndarray, channels: int = 1) -> np.ndarray:
    """Signed 16-bit PCM (interleaved when stereo) as float32 mono in [-1, 1]."""
    pcm = np.frombuffer(data, dtype="<i2") if isinstance(data, (bytes, bytearray, memoryview)) else data
    samples = np.asarray(pcm, dtype=np.float32) / 32768.0
    if channels > 1:
        samples = samples[: len(samples) - len(samples) % channels].reshape(-1, channels).mean(axis=1)
    return samples.astype(np.float32, copy=False)


def float_to_s16(samples: np.ndarray) -> bytes:
    """float32 samples in [-1, 1] as signed 16-bit little-endian bytes."""
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype("<i2").tobytes()


def resample(samples: np.ndarray, src: int, dst: int) -> np.ndarray:
    """Linear-interpolation resampling of float32 mono (enough for speech at these rates)."""
    if src == dst or samples.size == 0:
        return np.asarray(samples, np.float32)
    n = int(round(samples.size * dst / src))
    x = np.linspace(0.0, samples.size - 1, num=n, dtype=np.float64)
    return np.interp(x, np.arange(samples.size), samples).astype(np.float32)


def level_db(samples: np.ndarray) -> float:
    """RMS level in dBFS."""
    if samples.size == 0:
        return -120.0
    return float(20.0 * np.log10(np.sqrt(np.mean(np.square(samples, dtype=np.float64))) + 1e-9))


class FrameResampler:
    """Decoded aiortc audio frames (any rate and layout, usually 48 kHz stereo) -> 16 kHz mono float32."""

    def __init__(self) -> None:
        import av

        self._resampler = av.AudioResampler(format="s16", layout="mono", rate=RATE)

    def convert(self, frame: Any) -> np.ndarray:
        """Samples of one av.AudioFrame at 16 kHz mono (may be empty while the resampler fills)."""
        out = [s16_to_float(f.to_ndarray().reshape(-1)) for f in self._resampler.resample(frame)]
        return np.concatenate(out) if out else np.zeros(0, np.float32)


class Playback:
    """The answer audio waiting to be played at 16 kHz; thread-safe.

    Each answer enqueues with the generation it started in; `stop()` (barge-in) empties the
    buffer and starts a new generation, so sentences still being synthesised are dropped too."""

    def __init__(self, max_seconds: float = 120.0) -> None:
        self._lock = threading.Lock()
        self._chunks: list[np.ndarray] = []
        self._queued = 0
        self._limit = int(max_seconds * RATE)
        self.generation = 0

    @property
    def playing(self) -> bool:
        """True while answer audio remains to be played."""
        return self._queued > 0

    def enqueue(self, samples: np.ndarray, generation: int | None = None) -> bool:
        """Add 16 kHz samples; False when dropped (stale generation or buffer full)."""
        with self._lock:
            if generation is not None and generation != self.generation:
                return False
            if self._queued + samples.size > self._limit:
                return False
            self._chunks.append(np.asarray(samples, np.float32))
            self._queued += samples.size
            return True

    def pull(self, n: int) -> np.ndarray | None:
        """The next n samples (zero-padded at the end of an answer), or None when idle."""
        with self._lock:
            if not self._queued:
                return None
            out = np.zeros(n, np.float32)
            filled = 0
            while filled < n and self._chunks:
                head = self._chunks[0]
                take = min(n - filled, head.size)
                out[filled:filled + take] = head[:take]
                filled += take
                if take == head.size:
                    self._chunks.pop(0)
                else:
                    self._chunks[0] = head[take:]
            self._queued -= filled
            return out

    def stop(self) -> bool:
        """Drop everything queued and start a new generation; True if something was playing."""
        with self._lock:
            was = self._queued > 0
            self._chunks, self._queued = [], 0
            self.generation += 1
            return was


def trim_silence(samples: np.ndarray, rate: int = RATE, floor_db: float = -40.0, lead_ms: int = 30,
                 tail_ms: int = 120) -> np.ndarray:
    """Cut the silence a synthesiser puts before and after speech, keeping a short lead and tail:
    the first word is heard sooner and sentences spoken one by one do not leave long gaps."""
    loud = np.flatnonzero(np.abs(samples) > 10 ** (floor_db / 20))
    if loud.size == 0:
        return samples
    start = max(0, int(loud[0]) - rate * lead_ms // 1000)
    end = min(samples.size, int(loud[-1]) + 1 + rate * tail_ms // 1000)
    return samples[start:end]
