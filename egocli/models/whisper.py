"""Transcriber backed by faster-whisper (CTranslate2 Whisper folders, always loaded by path, offline)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from egocli.core.errors import ModelError
from egocli.models.base import Segment

if TYPE_CHECKING:
    from egocli.core.config import Settings
    from egocli.models.registry import Choice


class FasterWhisperTranscriber:
    """Speech recognition with faster-whisper on 16 kHz mono float32 audio, word timings included."""

    def __init__(self, folder: Path, role: str = "asr", threads: int = 2, beam_size: int = 1,
                 language: str | None = None, vad: bool = False) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"
        if not (folder / "model.bin").is_file():
            raise ModelError(f"{role}: model file not found: {folder / 'model.bin'}")
        try:
            from faster_whisper import WhisperModel
        except ImportError as ex:
            raise ModelError(f"{role}: faster-whisper is not installed (pip install faster-whisper==1.2.1)") from ex
        try:
            self._model = WhisperModel(str(folder), device="cpu", compute_type="int8", cpu_threads=threads,
                                       local_files_only=True)
        except (RuntimeError, ValueError, OSError) as ex:
            raise ModelError(f"{role}: cannot load Whisper model {folder}: {ex}") from ex
        self.role = role
        self.name = f"whisper-{folder.name}"
        self.beam_size = beam_size
        self.language = language or ("en" if not self._model.model.is_multilingual else None)
        self.vad = vad

    def transcribe(self, pcm16k: np.ndarray) -> list[Segment]:
        """Segments for float32 mono samples at 16 kHz in [-1, 1]."""
        audio = np.ascontiguousarray(pcm16k, dtype=np.float32).reshape(-1)
        if audio.size == 0:
            return []
        try:
            pieces, _info = self._model.transcribe(audio, beam_size=self.beam_size, language=self.language,
                                                   word_timestamps=True, vad_filter=self.vad,
                                                   condition_on_previous_text=False)
            return [_segment(p) for p in pieces if p.text.strip()]
        except (RuntimeError, ValueError) as ex:
            raise ModelError(f"{self.role}: transcription failed: {ex}") from ex


def _segment(piece: object) -> Segment:
    words = [(float(w.start), float(w.end), w.word.strip()) for w in (getattr(piece, "words", None) or [])]
    return Segment(start=float(piece.start), end=float(piece.end),  # type: ignore[attr-defined]
                   text=piece.text.strip(), words=words)  # type: ignore[attr-defined]


def load_faster_whisper(choice: Choice, settings: Settings) -> FasterWhisperTranscriber:
    """Build the faster-whisper Transcriber for a resolved asr choice."""
    section = settings.section("asr")
    if choice.path is None:
        raise ModelError("asr: no model folder resolved")
    return FasterWhisperTranscriber(choice.path, threads=int(section.get("threads", 2)),
                                    beam_size=int(section.get("beam_size", 1)),
                                    language=section.get("language"), vad=bool(section.get("vad", False)))
