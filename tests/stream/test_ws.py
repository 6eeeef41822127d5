"""The WebSocket baseline end to end, spoken questions (push-to-talk) and barge-in."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from egocli.stream.client import WsClient
from tests.serving import ASR, heard_phrase
from tests.serving import words as _words
from tests.waiting import until


@pytest.mark.slow
def test_speech_video_and_question_over_websocket(live_server, jfk, video_frames):
    server = live_server(models={"asr": ASR})

    async def session() -> dict:
        client = WsClient()
        client.feed.frames, client.feed.fps = video_frames, 5.0
        welcome = await client.connect(server.url)
        client.feed.say(jfk)
        await asyncio.wait_for(client.feed.drained.wait(), 30)
        await client.wait_for("transcript", timeout=30, final=True)
        await client.send({"type": "ask", "id": "q1", "text": "What did the president ask?"})
        answer = await client.wait_for("answer", timeout=60, id="q1")
        heard = await until(lambda: client.first_audio_after(answer["_at"] - 30), 10, "answer audio frames")
        await client.close()
        return {"welcome": welcome, "answer": answer, "heard": heard}

    got = asyncio.run(session())
    assert got["welcome"]["source_id"] and got["answer"]["text"].strip()
    assert got["heard"] is not None, "no answer audio frames"
    server.stop()
    speech = " ".join(_words(e.content) for e in server.events("speech"))
    assert heard_phrase(speech), speech
    assert server.events("visual")
    (source,) = server.sources()
    assert source.status == "done" and source.meta["transport"] == "websocket"


def _tone(seconds: float, level: float = 0.3) -> np.ndarray:
    t = np.arange(int(16000 * seconds), dtype=np.float32) / 16000
    return (level * np.sin(2 * np.pi * 220 * t) * (1 + 0.5 * np.sin(2 * np.pi * 3 * t))).astype(np.float32)


def test_push_to_talk_question_is_answered_aloud_and_barge_in_stops_it(live_server):
    server = live_server()

    async def session() -> dict:
        client = WsClient()
        await client.connect(server.url)
        client.feed.say(np.zeros(16000, np.float32))  # a second of room tone for the VAD's noise floor
        client.feed.say(_tone(1.5))                    # ordinary speech: logged
        await client.wait_for("event", timeout=20, modality="speech")
        await client.send({"type": "ptt", "on": True})
        client.feed.say(_tone(1.2))
        await asyncio.wait_for(client.feed.drained.wait(), 10)
        await client.send({"type": "ptt", "on": False})
        question = await client.wait_for("transcript", timeout=20, question=True, final=True)
        answer = await client.wait_for("answer", timeout=30)
        # the answer is playing (fake TTS: long)
        await until(lambda: client.first_audio_after(answer["_at"] - 5), 10, "the spoken answer's audio")
        client.feed.say(_tone(1.0))                    # the user talks over it
        stop = await client.wait_for("stop", timeout=10)
        # what must not happen (more answer audio) is watched for a while: a second would hold ~50 chunks
        await asyncio.sleep(1.0)
        late = [at for at, db in client.audio_levels if at > stop["_at"] + 0.3 and db > -50]
        await client.close()
        return {"question": question, "answer": answer, "stop": stop, "late": late}

    got = asyncio.run(session())
    assert got["answer"]["spoken"] is True and got["answer"]["question"] == got["question"]["text"]
    assert got["stop"]["reason"] == "barge-in"
    assert not got["late"], "answer audio kept coming after barge-in"
    server.stop()
    assert len(server.events("speech")) >= 1  # questions are answered, not logged as speech
    assert all(e.content == "this is a fake transcript" for e in server.events("speech"))


def test_serve_also_serves_the_timeline_behind_the_token(live_server):
    import json
    import urllib.error
    import urllib.request

    server = live_server(token="tl-token")
    page = urllib.request.urlopen(f"{server.url}/timeline", timeout=10).read().decode()
    assert "egocli timeline" in page
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.url}/api/timeline/day", timeout=10)
    assert refused.value.code == 401
    req = urllib.request.Request(f"{server.url}/api/timeline/day", headers={"Authorization": "Bearer tl-token"})
    day = json.loads(urllib.request.urlopen(req, timeout=10).read())
    assert set(day) >= {"day", "events", "modalities"}
