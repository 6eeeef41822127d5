"""Speakers (text to speech): hibari-tts (ONNX, in the wheel) and Debian's espeak-ng as a fallback."""

from __future__ import annotations

import io
import subprocess
import wave
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.core.errors import ModelError

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice


class HibariSpeaker:
    """Neural English TTS at 24 kHz; a fixed seed makes repeated calls bit-identical."""

    def __init__(self, model: Path | None = None, role: str = "tts", threads: int = 1, speed: float = 1.0,
                 seed: int = 0) -> None:
        try:
            from hibari import Hibari
        except ImportError as ex:
            raise ModelError(f"{role}: hibari-tts is not installed (pip install hibari-tts==0.2.1)") from ex
        if model is not None and not model.is_file():
            raise ModelError(f"{role}: model file not found: {model}")
        try:
            self._tts = Hibari(model=str(model) if model else None, threads=threads)
        except Exception as ex:  # onnxruntime raises its own exception types
            raise ModelError(f"{role}: cannot load TTS model {model or 'hibari (bundled)'}: {ex}") from ex
        self.name = "hibari"
        self.sample_rate = int(self._tts.sample_rate)
        self.speed = speed
        self.seed = seed

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        """(float32 mono samples in [-1, 1], sample rate)."""
        audio = self._tts(text, speed=self.speed, seed=self.seed) if text.strip() else np.zeros(0, np.float32)
        return np.clip(np.asarray(audio, dtype=np.float32), -1.0, 1.0), self.sample_rate


class EspeakSpeaker:
    """eSpeak NG run as a separate program (robotic, tiny, instant)."""

    def __init__(self, program: Path, role: str = "tts", voice: str = "en-us", words_per_minute: int = 165) -> None:
        self.program = program
        self.role = role
        self.voice = voice
        self.wpm = words_per_minute
        self.name = "espeak-ng"

    def speak(self, text: str) -> tuple[np.ndarray, int]:
        """(float32 mono samples in [-1, 1], sample rate)."""
        if not text.strip():
            return np.zeros(0, np.float32), 22050
        try:
            done = subprocess.run([str(self.program), "-v", self.voice, "-s", str(self.wpm), "--stdout", text],
                                  capture_output=True, check=True, timeout=60)
        except (OSError, subprocess.SubprocessError) as ex:
            raise ModelError(f"{self.role}: {self.program} failed: {ex}") from ex
        with wave.open(io.BytesIO(done.stdout)) as wav:
            rate, width = wav.getframerate(), wav.getsampwidth()
            frames = wav.readframes(wav.getnframes())
        if width != 2:
            raise ModelError(f"{self.role}: {self.program} wrote {8 * width}-bit audio, expected 16-bit")
        return np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0, rate


def load_hibari(choice: Choice, settings: Settings) -> HibariSpeaker:
    """The hibari Speaker (the bundled voice, or a user ONNX file with the same inputs)."""
    custom = choice.path if choice.spec is None else None
    return HibariSpeaker(custom, speed=float(settings.section("tts").get("speed", 1.0)))


def load_espeak(choice: Choice, settings: Settings) -> EspeakSpeaker:
    """The espeak-ng Speaker."""
    if choice.path is None:
        raise ModelError("tts: espeak-ng not found (install Debian package espeak-ng)")
    return EspeakSpeaker(choice.path, voice=str(settings.section("tts").get("voice", "en-us")))
