"""Fixtures for the model layer: a persistent model cache (assembled files are reused across runs)."""

from __future__ import annotations

import os
import wave
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from egocli.core.config import Settings, default_home, load_settings

# Resolved at import, before the root conftest points EGOCLI_HOME at a temporary folder, so the
# 1.1 GB assembled LLM is built once per machine rather than once per test.
MODEL_CACHE = Path(os.environ.get("EGOCLI_MODEL_CACHE") or default_home() / "models")
SHARED_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


@pytest.fixture(autouse=True)
def persistent_model_cache(monkeypatch: pytest.MonkeyPatch, isolated_home: Path) -> Path:
    """Point EGOCLI_MODEL_CACHE at the machine's model cache for every test here."""
    monkeypatch.setenv("EGOCLI_MODEL_CACHE", str(MODEL_CACHE))
    return MODEL_CACHE


@pytest.fixture
def settings(persistent_model_cache: Path) -> Settings:
    """Default settings (no overrides) with the persistent model cache."""
    return load_settings()


def _real_settings(**models: str) -> Settings:
    return replace(load_settings(models=models), cache=MODEL_CACHE)


@pytest.fixture(scope="session")
def real_settings() -> Callable[..., Settings]:
    """A function giving settings with role overrides and the persistent model cache (any scope)."""
    return _real_settings


@pytest.fixture
def shared_file() -> Callable[..., Path]:
    """A function returning a file under ../shared/data, skipping the test when it is absent."""
    def find(*parts: str) -> Path:
        path = (SHARED_DATA / Path(*parts)).resolve()
        if not path.is_file():
            pytest.skip(f"shared test data not found: {path} (expected ../shared/data beside the repo)")
        return path
    return find


@pytest.fixture(scope="session")
def audio_tools() -> dict[str, Callable[..., object]]:
    """Helpers for speech tests: read_wav_16k, resample, word_error_rate."""
    return {"read_wav_16k": read_wav_16k, "resample": resample, "word_error_rate": word_error_rate}


def read_wav_16k(path: Path) -> np.ndarray:
    """Mono float32 samples of a 16 kHz 16-bit WAV file."""
    with wave.open(str(path)) as wav:
        assert wav.getframerate() == 16000 and wav.getsampwidth() == 2, "test clip must be 16 kHz 16-bit"
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
        channels = wav.getnchannels()
    return samples.reshape(-1, channels).mean(axis=1)


def resample(audio: np.ndarray, rate: int, target: int = 16000) -> np.ndarray:
    """Linear-interpolation resampling (good enough for speech recognition tests)."""
    if rate == target:
        return audio.astype(np.float32)
    n = int(round(len(audio) * target / rate))
    return np.interp(np.arange(n) * rate / target, np.arange(len(audio)), audio).astype(np.float32)


def word_error_rate(reference: str, hypothesis: str) -> float:
    """WER after lower-casing and dropping punctuation."""
    import re

    ref = re.sub(r"[^a-z0-9' ]+", " ", reference.lower()).split()
    hyp = re.sub(r"[^a-z0-9' ]+", " ", hypothesis.lower()).split()
    dist = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, start=1):
        prev, dist[0] = dist[0], i
        for j, h in enumerate(hyp, start=1):
            prev, dist[j] = dist[j], min(dist[j] + 1, dist[j - 1] + 1, prev + (r != h))
    return dist[len(hyp)] / max(len(ref), 1)

