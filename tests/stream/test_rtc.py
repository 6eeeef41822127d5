"""WebRTC end to end: a Python aiortc client streams real speech and video over loopback."""

from __future__ import annotations

import asyncio

import pytest

from egocli.stream.client import RtcClient
from tests.serving import ASR, heard_phrase
from tests.serving import words as _words
from tests.waiting import until


@pytest.mark.slow
def test_speech_video_and_question_over_webrtc(live_server, jfk, video_frames):
    server = live_server(models={"asr": ASR})

    async def session() -> tuple[dict, dict, float | None]:
        client = RtcClient()
        client.feed.frames, client.feed.fps = video_frames, 5.0
        welcome_body = await client.connect(server.url)
        client.feed.say(jfk)
        await asyncio.wait_for(client.feed.drained.wait(), 30)
        final = await client.wait_for("transcript", timeout=30, final=True)
        partials = [m["text"] for m in client.inbox if m.get("type") == "transcript" and m["final"] is False]
        await client.send({"type": "ask", "id": 7, "text": "What did the president say about the country?"})
        answer = await client.wait_for("answer", timeout=60, id=7)
        heard = await until(lambda: client.first_audio_after(answer["_at"] - 30), 10,
                            "answer audio on the returned track")
        await client.close()
        return welcome_body, {"final": final, "answer": answer, "partials": partials}, heard

    body, got, heard = asyncio.run(session())
    assert body["type"] == "answer" and body["session"]
    assert got["answer"]["text"].strip()
    assert heard is not None, "no answer audio on the returned track"
    server.stop()
    speech = " ".join(_words(e.content) for e in server.events("speech"))
    assert heard_phrase(speech), speech
    # partial transcripts came while he was still talking, with words of what was finally logged
    assert any(set(_words(p).split()) & set(speech.split()) for p in got["partials"]), got["partials"]
    assert server.events("visual"), "no visual events from the video"
    (source,) = server.sources()
    assert source.kind == "live" and source.status == "done" and source.meta["transport"] == "webrtc"
