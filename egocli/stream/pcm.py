"""Audio plumbing for the transports: PCM conversion, aiortc frame resampling, the answer playback buffer.

The signal processing itself (rate, resampling, levels) is egocli.perception.audio."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from egocli.perception.audio import RATE

if TYPE_CHECKING:
    import av


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


class FrameResampler:
    """Decoded aiortc audio frames (any rate and layout, usually 48 kHz stereo) -> 16 kHz mono float32."""

    def __init__(self) -> None:
        import av

        self._resampler = av.AudioResampler(format="s16", layout="mono", rate=RATE)

    def convert(self, frame: av.AudioFrame) -> np.ndarray:
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
