"""Sound processing shared by ingest and serve: the pipeline's rate, resampling, levels, trimming."""

from __future__ import annotations

import numpy as np

RATE = 16000
"""The pipeline's rate: VAD, ASR and playback all run at 16 kHz mono."""


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
