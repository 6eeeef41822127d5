"""Perception shared by ingest and serve: one image decoder, one recipe for speech and frame events."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from egocli.core.errors import InputError
from egocli.models.base import Segment
from egocli.perception.describe import FrameDescription
from egocli.perception.events import FrameNotes, speech_event
from egocli.perception.frames import Verdict
from egocli.perception.image import read_image, to_bgr
from egocli.perception.vad import Utterance


def _jpeg(image: np.ndarray) -> bytes:
    import cv2

    return cv2.imencode(".jpg", image)[1].tobytes()


def test_jpeg_bytes_arrays_and_files_decode_to_the_same_bgr_image(tmp_path: Path):
    image = np.zeros((36, 64, 3), np.uint8)
    image[:, :32] = (0, 0, 255)  # red left half, in BGR
    data = _jpeg(image)
    decoded = to_bgr(data)
    assert decoded.shape == (36, 64, 3) and decoded[18, 8, 2] > 200 and decoded[18, 56, 2] < 50
    assert to_bgr(image) is image
    (tmp_path / "a.jpg").write_bytes(data)
    assert np.array_equal(read_image(tmp_path / "a.jpg"), decoded)


def test_undecodable_images_are_clear_errors(tmp_path: Path):
    for bad in (b"", b"not a jpeg"):
        with pytest.raises(ValueError, match="not a decodable JPEG"):
            to_bgr(bad)
    (tmp_path / "empty.jpg").write_bytes(b"")
    with pytest.raises(InputError, match="empty.jpg: not an image"):
        read_image(tmp_path / "empty.jpg")
    with pytest.raises(InputError, match="no such file"):
        read_image(tmp_path / "missing.jpg")


def test_a_speech_event_has_absolute_times_and_word_times_in_media_seconds():
    utt = Utterance(2000, 3500, np.zeros(24000, np.float32), 3800)
    segments = [Segment(0.0, 1.2, " ask not ", [(0.1, 0.4, "ask"), (0.5, 0.9, "not")])]
    event = speech_event(utt, segments, 1_000_000, "fake-asr", "talk.wav", {"session": "s1"})
    assert event is not None
    assert (event.start_ms, event.end_ms, event.modality, event.content) == (1_002_000, 1_003_500, "speech", "ask not")
    assert (event.media_path, event.media_offset_ms) == ("talk.wav", 2000)
    assert event.meta == {"asr": "fake-asr", "words": [[2.1, 2.4, "ask"], [2.5, 2.9, "not"]], "session": "s1"}
    assert speech_event(utt, [Segment(0.0, 1.0, "  ")], 0, "fake-asr") is None


def test_the_same_text_in_view_again_is_not_a_new_text_event():
    notes = FrameNotes(extra={"session": "s1"})
    sign = FrameDescription("Seen: sign (0.90)", "EXIT", {"labels": [("sign", 0.9)], "ocr": [{"text": "EXIT"}]})
    first = notes.events(sign, Verdict(True, "scene", 0.4), 1000, 2000, 0)
    again = notes.events(sign, Verdict(True, "scene", 0.2), 5000, 6000, 4000)
    other = notes.events(FrameDescription("Seen: door (0.50)", "PUSH"), Verdict(True, "gap", 0.05), 9000, 9500, 8000)
    assert [e.modality for e in first] == ["visual", "text"] and [e.modality for e in again] == ["visual"]
    assert [e.content for e in other] == ["Seen: door (0.50)", "PUSH"]
    assert first[0].meta == {"labels": [("sign", 0.9)], "ocr": [{"text": "EXIT"}], "reason": "scene", "change": 0.4,
                             "session": "s1"}
    assert first[1].meta == {"ocr": [{"text": "EXIT"}], "session": "s1"}
