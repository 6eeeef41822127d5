"""One event per described scene (issue #31 item 3): a sign read in a frame is one `text` event, not a
`visual` "Text: ..." beside it; the same text read again within minutes is no new event; a frame with
nothing recognised is no event. Through the installed console script on the bundled recording, and the
rules on FrameNotes itself with the descriptions the Describer returns."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from egocli.perception.describe import FrameDescription
from egocli.perception.events import TEXT_REPEAT_MS, FrameNotes, recent_texts
from egocli.perception.frames import Verdict
from tests import console
from tests.conftest import REPO
from tests.serving import live_server  # noqa: F401  (the fixture)

EXAMPLE = REPO / "examples" / "glasses.mp4"


def _egocli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EGOCLI_HOME": str(home), "EGOCLI_DB": str(home / "log.db")}
    return subprocess.run([console.egocli(), *args], capture_output=True, text=True, env=env, timeout=600, check=False)


@pytest.mark.slow
def test_the_bundled_recording_keeps_one_event_per_scene(tmp_path: Path):
    home = tmp_path / "home"
    done = _egocli(home, "-q", "ingest", str(EXAMPLE), "--keep-frames")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in _egocli(home, "log", "list", "--oldest", "--jsonl").stdout.splitlines()]
    seen = [e for e in events if e["modality"] in ("visual", "text")]
    contents = [e["content"] for e in seen]
    assert not any("nothing recognised" in c.lower() for c in contents), contents
    texts = {(e["start"], e["content"].lower()) for e in seen if e["modality"] == "text"}
    repeats = [e for e in seen if e["modality"] == "visual"
               and any(t == e["start"] and body in e["content"].lower() for t, body in texts)]
    assert not repeats, "a visual event repeats the text event of its second"
    assert sum("CITYNEWS" in c for c in contents) == 1, contents  # the news board 4 s later is not news
    for sign in ("PHARMACY", "CITYNEWS", "BUS 12"):  # every sign still found by a text search
        found = _egocli(home, "log", "search", sign, "--modality", "text", "--jsonl")
        assert found.returncode == 0 and sign in found.stdout, (sign, found.stderr)
    assert all(e["media_path"].startswith("frames/") for e in seen)  # --keep-frames: every scene event has its frame
    frames = list((home / "log-media").rglob("*.jpg"))
    assert len(frames) == len({e["start"] for e in seen})  # no frame that no event names


def _desc(visual: str, text: str | None, depicts: bool) -> FrameDescription:
    return FrameDescription(visual, text, {"objects": [("a cup", 0.4)] if depicts else []}, depicts)


NEW = Verdict(True, "scene", 0.3)


def test_a_scene_with_objects_and_a_sign_is_a_visual_event_and_its_text():
    events = FrameNotes().events(_desc("A cup; text: PHARMACY", "PHARMACY", True), NEW, 1000, 2000, 1000)
    assert [(e.modality, e.content) for e in events] == [("visual", "A cup; text: PHARMACY"), ("text", "PHARMACY")]


def test_a_sign_alone_is_one_text_event_with_the_scene_metadata():
    (event,) = FrameNotes().events(_desc("Text: PHARMACY", "PHARMACY", False), NEW, 1000, 2000, 1000, "f.jpg")
    assert (event.modality, event.content, event.media_path) == ("text", "PHARMACY", "f.jpg")
    assert event.meta["reason"] == "scene" and "change" in event.meta


def test_nothing_recognised_is_no_event():
    assert FrameNotes().events(_desc("Nothing recognised", None, False), NEW, 1000, 2000, 1000) == []


def test_the_same_text_within_minutes_is_no_new_event_and_later_it_is():
    notes = FrameNotes()
    sign = _desc("Text: BUS 12", "BUS 12", False)
    assert len(notes.events(sign, NEW, 0, 1000, 0)) == 1
    assert notes.events(_desc("Text: PHARMACY", "PHARMACY", False), NEW, 5_000, 6_000, 5_000)
    assert notes.events(_desc("Text: bus  12.", "bus  12.", False), NEW, 60_000, 61_000, 60_000) == []
    assert len(notes.events(sign, NEW, TEXT_REPEAT_MS + 1, TEXT_REPEAT_MS + 2, 0)) == 1


def test_a_resumed_ingest_does_not_repeat_the_sign_read_before_the_stop():
    notes = FrameNotes()
    notes.events(_desc("Text: BUS 12", "BUS 12", False), NEW, 0, 1000, 0)
    resumed = FrameNotes(recent_texts([(0, "BUS 12")], 2_500))
    assert resumed.events(_desc("Text: BUS 12", "BUS 12", False), NEW, 3_000, 4_000, 3_000) == []


@pytest.mark.slow
def test_a_live_session_keeps_one_event_per_scene(live_server):
    """The live path (assistant/session.py -> FrameNotes) over a WebSocket session with the real labeler and
    OCR: the bundled recording's frames, shown a little more than twice, give each sign once as text."""
    import asyncio

    import av

    from egocli.stream.client import WsClient
    from tests.waiting import until

    with av.open(str(EXAMPLE)) as container:
        stream = container.streams.video[0]
        step = max(1, round(float(stream.average_rate or 25) / 2))
        frames = [f.to_ndarray(format="bgr24") for i, f in enumerate(container.decode(video=0)) if i % step == 0]
    server = live_server(models={"labeler": "efficientnet-lite0", "ocr": "rapidocr"})

    def texts() -> list[str]:
        return [e.content for e in server.events("text")]

    async def session() -> None:
        client = WsClient()
        client.feed.frames, client.feed.fps = frames, 2.0  # real time: the recording at its own pace
        await client.connect(server.url)
        await until(lambda: sum("BUS" in t for t in texts()) >= 1, 90, "the bus sign read live", texts)
        await asyncio.sleep(len(frames) / 2.0 + 5)  # the whole loop once more: every sign seen again
        await client.close()

    asyncio.run(session())
    server.stop()
    seen = server.events("visual") + server.events("text")
    assert not [e for e in seen if "nothing recognised" in e.content.lower()]
    by_start = {(e.start_ms, e.content.lower()) for e in seen if e.modality == "text"}
    assert not [e for e in seen if e.modality == "visual" and any(t == e.start_ms and c in e.content.lower()
                                                                    for t, c in by_start)]
    for sign in ("PHARMACY", "CITYNEWS", "BUS12"):  # OCR live may read "CITY NEWS": the same sign (textgate.text_key)
        assert sum(sign in "".join(t.split()) for t in texts()) == 1, (sign, texts())
