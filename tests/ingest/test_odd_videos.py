"""Videos as phones and glasses really write them: rotated by the container, or black throughout."""

from __future__ import annotations

import json
import struct
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from egocli.ingest.decode import video_frames

pytestmark = pytest.mark.slow


def _write(path: Path, frames: list[np.ndarray], fps: int = 5) -> None:
    import av

    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=fps, options={"preset": "ultrafast"})
        vs.width, vs.height, vs.pix_fmt = frames[0].shape[1], frames[0].shape[0], "yuv420p"
        for i, img in enumerate(frames):
            vf = av.VideoFrame.from_ndarray(img, format="bgr24")
            vf.pts, vf.time_base = i, Fraction(1, fps)
            out.mux(vs.encode(vf))
        out.mux(vs.encode(None))


def _rotate_on_display(path: Path) -> None:
    """Set the track's display matrix to a quarter turn clockwise (what a phone held upright writes)."""
    data = bytearray(path.read_bytes())
    at = data.find(b"tkhd")
    assert at > 0 and data[at + 4] == 0  # a version-0 track header: the matrix starts 40 bytes in
    one, minus_one = 0x10000, -0x10000 & 0xFFFFFFFF
    struct.pack_into(">9I", data, at + 44, 0, one, 0, minus_one, 0, 0, 0, 0, 0x40000000)
    path.write_bytes(bytes(data))


def _sign() -> np.ndarray:
    import cv2

    sign = np.full((360, 640, 3), (60, 60, 160), np.uint8)
    cv2.putText(sign, "EXIT", (180, 230), cv2.FONT_HERSHEY_SIMPLEX, 4, (255, 255, 255), 12, cv2.LINE_AA)
    return sign


def test_a_video_rotated_by_its_container_is_seen_upright_and_read(cli, tmp_path):
    sign = _sign()
    video = tmp_path / "rotated.mp4"
    _write(video, [np.ascontiguousarray(np.rot90(sign, 1))] * 10)  # stored sideways ...
    _rotate_on_display(video)  # ... and shown turned back, as the container says
    _t, first = next(iter(video_frames(video, 1.0)))
    assert first.shape == sign.shape
    assert np.abs(first.astype(int) - sign).mean() < 8
    res = cli("ingest", video, "--json", "--profile", "--no-redact")
    assert res.exit_code == 0, res.stderr
    events = [json.loads(x) for x in cli("log", "list", "--jsonl").stdout.splitlines()]
    assert "EXIT" in " ".join(e["content"] for e in events if e["modality"] == "text").upper()


def test_a_black_video_ingests_with_no_visual_events_and_a_profile(cli, tmp_path):
    video = tmp_path / "black.mp4"
    _write(video, [np.zeros((360, 640, 3), np.uint8)] * 15)
    res = cli("ingest", video, "--json", "--profile")
    assert res.exit_code == 0, res.stderr
    result = json.loads(res.stdout)[0]
    assert result["status"] == "ingested" and result["counts"]["dark"] == result["counts"]["frames"] == 3
    assert "decode video" in result["timings"] and "seconds per stage" in res.stderr
    assert cli("log", "list", "--jsonl").stdout.strip() == ""
