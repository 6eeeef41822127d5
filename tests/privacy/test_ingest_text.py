"""A phone number shown (OCR) or spoken (TTS -> Whisper) is masked in everything stored."""

from __future__ import annotations

import json
import wave
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.privacy.conftest import write_video

pytestmark = pytest.mark.slow


def _rows(cli, modality: str) -> list[dict]:
    return [json.loads(x) for x in cli("log", "list", "--jsonl", "-m", modality).stdout.splitlines()]


def _raw(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*"))


def test_phone_number_shown_is_masked(cli, db, tmp_path):
    frame = np.full((720, 1280, 3), 255, np.uint8)
    cv2.putText(frame, "CALL 555-867-5309", (120, 380), cv2.FONT_HERSHEY_SIMPLEX, 3.0, (0, 0, 0), 8)
    res = cli("ingest", write_video(tmp_path / "sign.mp4", [frame] * 4), "--no-audio")
    assert res.exit_code == 0, res.stderr
    text, visual = _rows(cli, "text"), _rows(cli, "visual")
    assert text and "CALL" in text[0]["content"].upper()
    assert "[phone]" in text[0]["content"] and all("[phone]" in v["content"] for v in visual)  # a sign alone: no visual
    assert text[0]["meta"]["redacted"] == {"phone": 1}
    assert all("5309" not in r["text"] for r in text[0]["meta"]["ocr"])
    assert b"5309" not in _raw(db)


def _speak(text: str, path: Path) -> Path:
    from egocli.core.config import load_settings
    from egocli.models import registry

    samples, rate = registry.load("tts", load_settings()).speak(text)
    pcm = (np.clip(samples, -1, 1) * 32767).astype(np.int16)
    pad = np.zeros(rate, np.int16)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.concatenate([pad, pcm, pad]).tobytes())
    return path


def test_phone_number_spoken_is_masked(cli, db, tmp_path):
    wav = _speak("Hi, it's Anna. Please call me back at 555 867 5309 after lunch.", tmp_path / "call.wav")
    res = cli("ingest", wav)
    assert res.exit_code == 0, res.stderr
    speech = _rows(cli, "speech")
    said = " ".join(e["content"] for e in speech)
    assert "anna" in said.lower() and "[phone]" in said, said
    assert sum(e["meta"].get("redacted", {}).get("phone", 0) for e in speech) == 1
    assert not any(c.isdigit() for c in said)
    assert not any(any(ch.isdigit() for ch in w[2]) for e in speech for w in e["meta"]["words"])
    assert b"5309" not in _raw(db)
