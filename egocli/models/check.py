"""`models check`: load each role's model, run a tiny real task, and measure load time and speed."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from egocli.core.config import ROLES, Settings
from egocli.core.errors import EgoError, ModelError
from egocli.models import registry
from egocli.models.base import PrefixCachedModel


@dataclass
class CheckResult:
    """The outcome of checking one role."""

    role: str
    """Role checked."""
    status: str
    """'ok', 'failed' or 'skipped'."""
    backend: str = ""
    """Backend that ran."""
    model: str = ""
    """Model name."""
    load_s: float | None = None
    """Seconds to load (including any assembly)."""
    speed: str = ""
    """Human-readable speed (tokens/s, real-time factor, ms per frame...)."""
    output: str = ""
    """A short sample of what the model produced."""
    error: str = ""
    """Why it failed or was skipped."""
    metrics: dict[str, float] = field(default_factory=dict)
    """Machine-readable speed figures."""


def _checkerboard(size: int = 448) -> np.ndarray:
    cell = size // 8
    yy, xx = np.mgrid[0:size, 0:size] // cell
    board = ((yy + xx) % 2 == 0).astype(np.uint8) * 255
    return np.repeat(board[:, :, None], 3, axis=2)


def _text_frame(text: str) -> np.ndarray:
    import cv2

    frame = np.full((240, 640, 3), 255, dtype=np.uint8)
    cv2.putText(frame, text, (30, 140), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (0, 0, 0), 5, cv2.LINE_AA)
    return frame


def _check_text(model: PrefixCachedModel, settings: Settings) -> tuple[str, dict[str, float]]:
    messages = [{"role": "system", "content": "Answer in one short sentence."},
                {"role": "user", "content": "What colour is a clear daytime sky?"}]
    start = time.perf_counter()
    first: float | None = None
    pieces: list[str] = []
    for piece in model.generate(messages, max_tokens=24, temperature=0.0):
        first = first or time.perf_counter()
        pieces.append(piece)
    end = time.perf_counter()
    text = "".join(pieces).strip()
    if not text:
        raise ModelError("the model produced no text")
    prompt_tokens = model.count_chat_tokens(messages)
    gen_tokens = model.count_tokens(text)
    first = first or end
    metrics = {"prompt_tok_s": prompt_tokens / max(first - start, 1e-6),
               "gen_tok_s": max(gen_tokens - 1, 0) / max(end - first, 1e-6)}
    return text, metrics


def _check_embedder(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    texts = [f"Sentence number {i} about cooking pasta in the kitchen." for i in range(64)]
    start = time.perf_counter()
    vectors = model.embed(texts)
    elapsed = time.perf_counter() - start
    return f"{vectors.shape[0]}x{vectors.shape[1]} vectors", {"embeddings_s": len(texts) / max(elapsed, 1e-6)}


def _test_speech(settings: Settings) -> tuple[np.ndarray, str]:
    """A spoken sentence at 16 kHz from the TTS role (or 5 s of faint noise if TTS cannot load)."""
    sentence = "Please water the tomato plants tomorrow morning."
    try:
        if registry.resolve("tts", settings).backend == "fake":
            raise ModelError("a fake speaker says no words")
        audio, rate = registry.load_tts(settings).speak(sentence)
    except (EgoError, OSError):
        rng = np.random.default_rng(0)
        return (0.01 * rng.standard_normal(16000 * 5)).astype(np.float32), ""
    n = int(round(len(audio) * 16000 / rate))
    return np.interp(np.arange(n) * rate / 16000, np.arange(len(audio)), audio).astype(np.float32), sentence


def _check_asr(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    audio, sentence = _test_speech(settings)
    start = time.perf_counter()
    segments = model.transcribe(audio)
    elapsed = time.perf_counter() - start
    heard = " ".join(s.text for s in segments)
    if sentence and "tomato" not in heard.lower():
        raise ModelError(f"did not recognise a synthesised sentence (heard {heard!r})")
    return heard or "(no speech in 5 s of noise)", {"rtf": elapsed / (len(audio) / 16000)}


def _check_labeler(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    frame = _checkerboard()
    model.labels(frame)
    start = time.perf_counter()
    labels = model.labels(frame, top_k=3)
    elapsed = time.perf_counter() - start
    return ", ".join(f"{name} {score:.2f}" for name, score in labels), {"ms_frame": 1000 * elapsed}


def _check_ocr(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    frame = _text_frame("kitchen timer")
    start = time.perf_counter()
    regions = model.read(frame)
    elapsed = time.perf_counter() - start
    if not regions:
        raise ModelError("no text read from a rendered frame")
    return " / ".join(r.text for r in regions), {"ms_frame": 1000 * elapsed}


def _check_tts(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    start = time.perf_counter()
    audio, rate = model.speak("Hello from egocli, running on this machine.")
    elapsed = time.perf_counter() - start
    seconds = len(audio) / rate if rate else 0.0
    if seconds <= 0:
        raise ModelError("no audio produced")
    return f"{seconds:.1f} s of audio at {rate} Hz", {"rtf": elapsed / seconds}


def _check_narrator(model: Any, settings: Settings) -> tuple[str, dict[str, float]]:
    start = time.perf_counter()
    text = model.describe(_checkerboard())
    return text, {"s_frame": time.perf_counter() - start}


TASKS: dict[str, Callable[[Any, Settings], tuple[str, dict[str, float]]]] = {
    "llm": _check_text, "summarizer": _check_text, "embedder": _check_embedder, "asr": _check_asr,
    "labeler": _check_labeler, "ocr": _check_ocr, "tts": _check_tts, "narrator": _check_narrator,
}

_UNITS = {"prompt_tok_s": "prompt tok/s", "gen_tok_s": "gen tok/s", "embeddings_s": "embeddings/s",
          "rtf": "x real time (RTF)", "ms_frame": "ms/frame", "s_frame": "s/frame"}


def _speed(metrics: dict[str, float]) -> str:
    return ", ".join(f"{value:.3g} {_UNITS.get(key, key)}" for key, value in metrics.items())


def check_role(role: str, settings: Settings, progress: registry.Progress | None = None,
               explicit: bool = True) -> CheckResult:
    """Load one role's model and run its tiny task; never raises for model problems."""
    try:
        choice = registry.resolve(role, settings)
    except ModelError as ex:
        if role == "narrator" and not explicit and not settings.models.get("narrator"):
            return CheckResult(role, "skipped", error=str(ex))
        return CheckResult(role, "failed", error=str(ex))
    result = CheckResult(role, "failed", backend=choice.backend, model=choice.model)
    try:
        start = time.perf_counter()
        model = registry.load(role, settings, progress)
        result.load_s = time.perf_counter() - start
        result.output, result.metrics = TASKS[role](model, settings)
    except (EgoError, ValueError, RuntimeError, OSError) as ex:
        message = str(ex).splitlines()[0] if str(ex) else type(ex).__name__
        result.error = message if message.startswith(f"{role}: ") else f"{role}: {message}"
        return result
    result.status, result.speed = "ok", _speed(result.metrics)
    return result


def check(roles: Sequence[str], settings: Settings,
          progress: Callable[[str], registry.Progress | None] | None = None) -> Iterator[CheckResult]:
    """Check the given roles (all roles when empty), one result per role as each finishes."""
    explicit = bool(roles)
    for role in roles or ROLES:
        yield check_role(role, settings, progress(role) if progress else None, explicit=explicit)
