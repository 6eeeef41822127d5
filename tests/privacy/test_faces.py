"""Faces in kept frames are blurred before they are described or stored (real CenterFace detector)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.privacy.conftest import write_video
from egocli.privacy.faces import CenterFaceDetector
from egocli.privacy.redact import RedactionPolicy, Redactor

STORED_THRESHOLD = 0.5
"""The stored thumbnail is 320 px wide: at that size CenterFace scores the unblurred face ~0.8 and
blurred blobs below 0.45, so 0.5 separates a face from its blurred remains."""


def test_redactor_blurs_the_face(face_frame, detector):
    assert len(detector.detect(face_frame)) == 1
    out, found = Redactor(RedactionPolicy(), detector).frame(face_frame)
    assert found == {"faces": 1}
    assert detector.detect(out) == []
    assert np.array_equal(out[:, :500], face_frame[:, :500])  # only the face region changed


def _ingest_frames(cli, tmp_path: Path, face_frame: np.ndarray, *flags: str) -> tuple[list[dict], Path]:
    video = write_video(tmp_path / "face.mp4", [face_frame] * 4)
    res = cli("ingest", video, "--no-audio", "--keep-frames", "--start", "2026-11-28T10:00:00Z", *flags)
    assert res.exit_code == 0, res.stderr
    events = [json.loads(x) for x in cli("log", "list", "--jsonl", "-m", "visual").stdout.splitlines()]
    return events, Path(str(tmp_path / "log-media"))


@pytest.fixture
def fake_describers(monkeypatch):
    """Labeler and OCR are fakes here (their Protocol boundary); the face detector is real."""
    monkeypatch.setenv("EGOCLI_LABELER", "fake")
    monkeypatch.setenv("EGOCLI_OCR", "fake")


def _faces_in(jpeg: Path) -> list:
    return CenterFaceDetector(STORED_THRESHOLD).detect(cv2.imread(str(jpeg)))


def test_stored_frame_has_no_face(cli, tmp_path, face_frame, fake_describers):
    events, media = _ingest_frames(cli, tmp_path, face_frame)
    assert len(events) == 1
    ev = events[0]
    assert ev["meta"]["redacted"] == {"faces": 1}
    stored = media / ev["media_path"]
    assert stored.suffix == ".jpg" and stored.is_file()
    assert _faces_in(stored) == []


def test_no_redact_keeps_the_face(cli, tmp_path, face_frame, fake_describers):
    """The same run with --no-redact stores a frame where the face is found: the test above can fail."""
    events, media = _ingest_frames(cli, tmp_path, face_frame, "--no-redact")
    assert "redacted" not in events[0]["meta"]
    assert len(_faces_in(media / events[0]["media_path"])) == 1
