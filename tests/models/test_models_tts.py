"""Speech synthesis checked by ear (speech recognition): TTS -> ASR round trips."""

from __future__ import annotations

import shutil

import pytest

from egocli.models import registry

pytestmark = pytest.mark.slow
SENTENCE = "Please remember to water the tomato plants tomorrow morning."


def _round_trip(speaker, real_settings, audio_tools) -> float:
    audio, rate = speaker.speak(SENTENCE)
    assert audio.dtype.name == "float32" and audio.size > rate and float(abs(audio).max()) <= 1.0
    heard = registry.load("asr", real_settings(asr="base")).transcribe(audio_tools["resample"](audio, rate))
    return audio_tools["word_error_rate"](SENTENCE, " ".join(s.text for s in heard))


def test_hibari_is_understood_by_whisper(real_settings, audio_tools) -> None:
    pytest.importorskip("hibari", reason="hibari-tts is not installed")
    speaker = registry.load("tts", real_settings())
    assert speaker.name == "hibari"
    assert _round_trip(speaker, real_settings, audio_tools) <= 0.2


def test_espeak_is_understood_by_whisper(real_settings, audio_tools) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("Debian package espeak-ng is not installed")
    speaker = registry.load("tts", real_settings(tts="espeak"))
    assert _round_trip(speaker, real_settings, audio_tools) <= 0.3


def test_empty_text_gives_empty_audio(real_settings) -> None:
    pytest.importorskip("hibari", reason="hibari-tts is not installed")
    audio, rate = registry.load("tts", real_settings()).speak("   ")
    assert audio.size == 0 and rate > 0
