"""Optional Transcriber backed by whisper.cpp through pywhispercpp, for a ggml file the user supplies.

No ggml Whisper model is published in any package registry reachable here, so this backend is
never the default (faster-whisper is); it is used when EGOCLI_ASR points at a ggml `.bin` file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.core.errors import ModelError
from egocli.models.base import Segment

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice


class WhisperCppTranscriber:
    """Speech recognition with whisper.cpp on 16 kHz mono float32 audio."""

    def __init__(self, path: Path, role: str = "asr", threads: int = 2, language: str = "en") -> None:
        if not path.is_file():  # pywhispercpp treats anything else as a model name and downloads it
            raise ModelError(f"{role}: model file not found: {path}")
        try:
            from pywhispercpp.model import Model
        except ImportError as ex:
            raise ModelError(f"{role}: {path} is a whisper.cpp (ggml) model, which needs the optional "
                             "pywhispercpp package (pip install pywhispercpp==1.5.1)") from ex
        try:
            self._model = Model(str(path), n_threads=threads, language=language, print_realtime=False,
                                print_progress=False, print_timestamps=False, redirect_whispercpp_logs_to=None)
        except (RuntimeError, ValueError, OSError) as ex:
            raise ModelError(f"{role}: cannot load whisper.cpp model {path}: {ex}") from ex
        self.role = role
        self.name = f"whisper.cpp-{path.stem}"

    def transcribe(self, pcm16k: np.ndarray) -> list[Segment]:
        """Segments for float32 mono samples at 16 kHz in [-1, 1]."""
        audio = np.ascontiguousarray(pcm16k, dtype=np.float32).reshape(-1)
        if audio.size == 0:
            return []
        try:
            pieces = self._model.transcribe(audio)
        except (RuntimeError, ValueError) as ex:
            raise ModelError(f"{self.role}: transcription failed: {ex}") from ex
        # whisper.cpp timestamps are in centiseconds
        return [Segment(start=p.t0 / 100.0, end=p.t1 / 100.0, text=p.text.strip()) for p in pieces if p.text.strip()]


def load_whisper_cpp(choice: Choice, settings: Settings) -> WhisperCppTranscriber:
    """Build the whisper.cpp Transcriber for a resolved asr choice (a ggml file)."""
    section = settings.section("asr")
    if choice.path is None:
        raise ModelError("asr: no model file resolved")
    return WhisperCppTranscriber(choice.path, threads=int(section.get("threads", 2)),
                                 language=str(section.get("language", "en")))
