"""The text gate and readable labels with the real OCR and classifier on real frames."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from egocli.ingest.decode import video_frames
from egocli.models.labels import ReadableLabel, default_vocabulary, sentence
from egocli.models.textgate import TextGate, text_key, text_lines
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "glasses.mp4"
pytestmark = pytest.mark.slow


def _frame(path: Path, at_ms: int) -> np.ndarray:
    for t, frame in video_frames(path, 2.0, at_ms):
        if t >= at_ms:
            return frame
    raise AssertionError(f"no frame at {at_ms} ms in {path}")


@pytest.fixture(scope="module")
def models():
    """The real default labeler and OCR (one thread each, as ingest runs them)."""
    from egocli.core.config import load_settings
    from egocli.models.efficientnet import EfficientNetLabeler
    from egocli.models.ocr import RapidOcrReader
    from egocli.models import registry

    choice = registry.prepare("labeler", load_settings())
    return EfficientNetLabeler(choice.path), RapidOcrReader(threads=1)


def test_frame_with_text_is_read_and_frame_without_skips_recognition(models):
    gate = TextGate(models[1])
    sign = gate.check(_frame(EXAMPLE, 1000))  # the pharmacy sign
    assert sign.verdict == "read" and sign.recognised == 2
    assert [r.text for r in sign.regions] == ["PHARMACY", "Open 9-18"]
    kitchen = gate.check(_frame(EXAMPLE, 20_000))  # a pan and a pot, no text
    assert kitchen.verdict == "no-strokes" and kitchen.regions == [] and kitchen.recognised == 0
    dark = gate.check(_frame(EXAMPLE, 12_000))
    assert dark.verdict == "no-strokes"


def test_real_photo_without_text_skips_recognition(models, shared_data):
    import cv2

    gate = TextGate(models[1])
    board = cv2.imread(str(shared_data / "chess" / "webcam" / "chessBoard002.jpg"))
    board = cv2.resize(board, (640, board.shape[0] * 640 // board.shape[1]))
    result = gate.check(board)
    assert result.verdict in ("no-strokes", "no-boxes") and result.recognised == 0
    assert gate.check(_frame(shared_data / "video" / "3.mp4", 0)).verdict == "read"  # a real frame with text


def test_unchanged_boxes_reuse_the_last_frames_text(models):
    gate = TextGate(models[1])
    first = gate.check(_frame(EXAMPLE, 7000))  # the newspaper
    again = gate.check(_frame(EXAMPLE, 7500))  # the same page, the camera drifted a little
    assert first.recognised == 2 and again.boxes == 2 and again.recognised < 2
    assert [r.text for r in again.regions][1] == "New tram line opens in March"
    other = gate.check(_frame(EXAMPLE, 14_000))  # a bus sign: new boxes are recognised
    assert other.recognised == 2 and "BUS" in other.regions[0].text


def test_repeated_text_keys_ignore_ocr_spacing_and_case():
    assert text_key("CITYNEWS New tram line opens in March") == text_key("CITY NEWS new tram line opens in March.")
    assert text_key("BUS 12 City Centre") != text_key("BUS 21 City Centre")
    assert text_key(None) == 0 and text_key(" . ") == 0


def test_stroke_test_on_hard_frames():
    import cv2

    black = np.zeros((360, 640, 3), np.uint8)
    assert text_lines(black) == 0
    page = np.full((360, 640, 3), 235, np.uint8)  # a screen full of small text
    for y in range(12, 350, 14):
        cv2.putText(page, "the quick brown fox jumps over 12 lazy dogs", (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (20, 20, 20), 1, cv2.LINE_AA)
    assert text_lines(page) >= 5
    blurred = cv2.GaussianBlur(page, (31, 31), 12)
    assert text_lines(blurred) <= text_lines(page)
    assert text_lines(np.zeros((2, 3, 3), np.uint8)) == 0  # tiny frames do not crash


def test_visual_events_are_sentences_with_scores_in_metadata(models):
    from egocli.perception.describe import Describer

    describer = Describer(models[0], TextGate(models[1]))
    sign = describer.describe(_frame(EXAMPLE, 1000))
    assert sign.visual == "Text: PHARMACY Open 9-18"  # "website (0.19), digital clock (0.09)" before
    assert not re.search(r"\(\d\.\d+\)", sign.visual)
    assert sign.meta["labels"][0][0] == "website"  # raw scores stay in the metadata
    kitchen = describer.describe(_frame(EXAMPLE, 20_000))
    assert kitchen.visual == "Nothing recognised"  # "face powder (0.14)" before
    assert kitchen.meta["labels"][0][0] == "face powder" and kitchen.meta["objects"] == []


def test_confident_labels_use_everyday_names(models, shared_data):
    from egocli.perception.describe import Describer

    describer = Describer(models[0], None)
    living = describer.describe(_frame(shared_data / "video" / "3.mp4", 0))
    assert living.visual == "A living room with a fireplace"
    baby = describer.describe(_frame(shared_data / "video" / "1.mp4", 2000))
    assert baby.visual == "A baby"  # ImageNet's "diaper"; "neck brace" and "oxygen mask" are dropped
    assert "neck brace" in [name for name, _ in baby.meta["labels"]]


def test_vocabulary_sums_groups_drops_false_positives_and_thresholds():
    vocab = default_vocabulary()
    raw = [("Beagle", 0.15), ("Basset Hound", 0.12), ("neck brace", 0.6), ("tray", 0.1), ("frying pan", 0.3)]
    got = vocab.readable(raw, 0.2)
    assert [(r.name, r.score) for r in got] == [("a frying pan", 0.3), ("a dog", 0.27)]
    assert got[0].place == "a kitchen"
    assert sentence(got, "PHARMACY Open 9-18") == "a kitchen with a frying pan and a dog; text: PHARMACY Open 9-18"
    assert sentence([], None) == "nothing recognised"
    text_like = ReadableLabel("a sign or screen with text", 0.3, ("website",), text_like=True)
    assert sentence([text_like], "BUS 12") == "text: BUS 12"
    assert sentence([text_like], None) == "a sign or screen with text"
    for group in ("wildlife", "medical", "weapons", "cosmetics", "landmarks"):
        assert group in set(vocab.dropped.values())


def _sign_video(path: Path) -> None:
    """4 s at 1 fps: a sign, the same sign from elsewhere (a new view, same text), a kitchen, the sign."""
    import av
    import cv2

    def sign(x: int, y: int, scale: float) -> np.ndarray:
        img = np.full((360, 640, 3), (60, 120, 60), np.uint8)
        cv2.rectangle(img, (x, y), (x + int(420 * scale), y + int(180 * scale)), (240, 240, 240), -1)
        cv2.putText(img, "PHARMACY", (x + int(40 * scale), y + int(110 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    1.8 * scale, (30, 110, 30), 4, cv2.LINE_AA)
        return img

    kitchen = np.full((360, 640, 3), (90, 150, 200), np.uint8)
    cv2.circle(kitchen, (200, 220), 90, (200, 60, 30), -1)
    frames = [sign(20, 20, 1.0), sign(200, 150, 0.9), kitchen, sign(20, 20, 1.0)]
    with av.open(str(path), "w") as out:
        vs = out.add_stream("libx264", rate=1, options={"preset": "ultrafast"})
        vs.width, vs.height, vs.pix_fmt = 640, 360, "yuv420p"
        for i, img in enumerate(frames):
            vf = av.VideoFrame.from_ndarray(img, format="bgr24")
            vf.pts, vf.time_base = i, Fraction(1, 1)
            out.mux(vs.encode(vf))
        out.mux(vs.encode(None))


def test_same_text_in_a_new_view_is_not_emitted_again(cli, tmp_path):
    video = tmp_path / "signs.mp4"
    _sign_video(video)
    res = cli("ingest", video, "--json", "--profile", "--no-redact")
    assert res.exit_code == 0, res.stderr
    events = [json.loads(x) for x in cli("log", "list", "--jsonl").stdout.splitlines()]
    visual = [e["content"] for e in events if e["modality"] == "visual"]
    texts = [e["content"] for e in events if e["modality"] == "text"]
    # the sign is one text event; its second view and its return after the kitchen (within minutes) add
    # nothing, and the kitchen, where nothing is recognised, is no event (issue #31)
    assert texts == ["PHARMACY"] and visual == [], (texts, visual)
    assert "load labeler" in res.stderr and "ocr gate" in res.stderr  # the --profile table
    assert "load asr" not in res.stderr  # no audio track: no speech recogniser loaded


def test_profile_table_names_every_stage(cli):
    res = cli("ingest", EXAMPLE, "--json", "--profile")
    assert res.exit_code == 0, res.stderr
    timings = json.loads(res.stdout)[0]["timings"]
    for stage in ("load asr", "load labeler", "load ocr", "decode video", "decode audio", "select",
                  "labeler", "ocr gate", "ocr detect", "ocr recognise", "vad", "asr", "write"):
        assert stage in timings and timings[stage]["calls"] >= 1, stage
    # CPU seconds per stage: the models' work is counted (ASR runs in CTranslate2's own threads)
    for stage in ("asr", "ocr detect", "labeler", "redact faces"):
        assert 0 < timings[stage]["cpu"] <= timings[stage]["seconds"] * 2 + 0.05, (stage, timings[stage])
    assert "seconds per stage" in res.stderr and re.search(r"asr +[\d.]+ s +CPU +[\d.]+ s", res.stderr)


def test_hard_frames_at_a_variable_frame_rate_ingest_with_a_profile(cli, tmp_path):
    import av
    import cv2

    page = np.full((360, 640, 3), 235, np.uint8)  # a screen full of small text
    for y in range(12, 350, 14):
        cv2.putText(page, "the quick brown fox jumps over 12 lazy dogs", (6, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (20, 20, 20), 1, cv2.LINE_AA)
    sign = np.full((360, 640, 3), (60, 60, 160), np.uint8)
    cv2.putText(sign, "EXIT", (180, 230), cv2.FONT_HERSHEY_SIMPLEX, 4, (255, 255, 255), 12, cv2.LINE_AA)
    frames = [np.zeros((360, 640, 3), np.uint8), cv2.GaussianBlur(sign, (61, 61), 30), page, sign, page]
    stamps = [0, 700, 1900, 2000, 4300]  # ms: irregular gaps, as phones and glasses record
    video = tmp_path / "vfr.mp4"
    with av.open(str(video), "w") as out:
        vs = out.add_stream("libx264", rate=30, options={"preset": "ultrafast"})
        vs.width, vs.height, vs.pix_fmt = 640, 360, "yuv420p"
        vs.codec_context.time_base = Fraction(1, 1000)
        for ms, img in zip(stamps, frames, strict=True):
            vf = av.VideoFrame.from_ndarray(img, format="bgr24")
            vf.pts, vf.time_base = ms, Fraction(1, 1000)
            out.mux(vs.encode(vf))
        out.mux(vs.encode(None))
    res = cli("ingest", video, "--json", "--profile", "--no-redact")
    assert res.exit_code == 0, res.stderr
    assert "ocr gate" in json.loads(res.stdout)[0]["timings"] and "seconds per stage" in res.stderr
    events = [json.loads(x) for x in cli("log", "list", "--jsonl").stdout.splitlines()]
    texts = " ".join(e["content"] for e in events if e["modality"] == "text").upper()
    assert "EXIT" in texts and "QUICK BROWN" in texts
    assert all(not re.search(r"\(\d\.\d+\)", e["content"]) for e in events)


def test_a_changed_digit_is_read_again_not_reused(models):
    import cv2

    def sign(text: str) -> np.ndarray:
        img = np.full((360, 640, 3), (60, 120, 60), np.uint8)
        cv2.rectangle(img, (60, 60), (600, 300), (240, 240, 240), -1)
        cv2.putText(img, text, (150, 200), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (30, 30, 30), 5, cv2.LINE_AA)
        return img

    gate = TextGate(models[1])
    assert [r.text for r in gate.check(sign("Open 9-18")).regions] == ["Open 9-18"]
    same = gate.check(sign("Open 9-18"))
    assert same.verdict == "reused" and [r.text for r in same.regions] == ["Open 9-18"]
    changed = gate.check(sign("Open 9-19"))
    assert changed.recognised == 1 and [r.text for r in changed.regions] == ["Open 9-19"]
