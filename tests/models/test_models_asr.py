"""Speech recognition on a real clip (jfk.wav from ../shared/data/audio)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from egocli.core.errors import ModelError
from egocli.models import registry
from egocli.models.catalog import package_dir

pytestmark = pytest.mark.slow


@pytest.fixture
def jfk(shared_file, audio_tools) -> tuple[np.ndarray, str]:
    audio = audio_tools["read_wav_16k"](shared_file("audio", "jfk.wav"))
    return audio, shared_file("audio", "jfk.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("model", ["tiny.en", "base"])
def test_word_error_rate_on_jfk(model: str, jfk, real_settings, audio_tools) -> None:
    pytest.importorskip("faster_whisper", reason="faster-whisper is not installed")
    audio, reference = jfk
    segments = registry.load("asr", real_settings(asr=model)).transcribe(audio)
    text = " ".join(s.text for s in segments)
    assert audio_tools["word_error_rate"](reference, text) <= 0.15, text
    assert 0.0 <= segments[0].start < segments[-1].end <= len(audio) / 16000 + 0.5
    assert segments[0].words and segments[0].words[0][2].lower().strip(",.") == "and"


def test_silence_gives_no_segments(real_settings) -> None:
    pytest.importorskip("faster_whisper", reason="faster-whisper is not installed")
    assert registry.load("asr", real_settings()).transcribe(np.zeros(16000 * 2, np.float32)) == []


def test_ggml_file_without_pywhispercpp_is_a_clear_error(tmp_path: Path, real_settings) -> None:
    if package_dir("pywhispercpp") is not None:
        pytest.skip("pywhispercpp is installed; this checks the message shown when it is not")
    ggml = tmp_path / "ggml-tiny.en.bin"
    ggml.write_bytes(b"lmgg" + bytes(64))
    with pytest.raises(ModelError, match=r"^asr: .*ggml-tiny.en.bin is a whisper.cpp \(ggml\) model.*pywhispercpp"):
        registry.load("asr", real_settings(asr=str(ggml)))
