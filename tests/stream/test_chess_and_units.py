"""The chess button over the WebSocket, and the small pieces: protocol, playback, wake phrase, sentences."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import numpy as np
import pytest

from egocli.stream.audio import Playback
from egocli.stream.client import WsClient
from egocli.stream.hub import SentenceSplitter
from egocli.stream.protocol import KIND_JPEG, ProtocolError, pack, parse_control, split_binary
from egocli.stream.session import wake_pattern

PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "data" / "chess" / "photos"
STOCKFISH = Path("/usr/games/stockfish")


@pytest.mark.slow
@pytest.mark.skipif(not STOCKFISH.exists(), reason="Debian stockfish not installed")
def test_chess_button_analyses_the_newest_frame(live_server):
    labels = json.loads((PHOTOS / "labels.json").read_text()) if PHOTOS.is_dir() else pytest.skip("no photos")
    photo = next(e for e in labels if {"K", "k"} <= set(e["fen"].split()[0]))  # kings: an analysable position
    server = live_server()

    async def go() -> tuple[dict, dict]:
        client = WsClient()
        await client.connect(server.url, video=False)
        await client.send({"type": "chess", "id": "early"})
        early = await client.wait_for("error", timeout=10, ref="early")
        await client.ws.send_bytes(pack(KIND_JPEG, (PHOTOS / photo["file"]).read_bytes()))
        await asyncio.sleep(0.2)
        await client.send({"type": "chess", "id": 1})
        for _ in range(900):  # a result, or an error saying why there is none
            replies = [m for m in client.inbox if (m["type"], m.get("id"), m.get("ref")) in
                       (("chess_result", 1, None), ("error", None, 1))]
            if replies:
                break
            await asyncio.sleep(0.1)
        result = replies[0] if replies else {"type": "nothing within 90 s"}
        await client.close()
        return early, result

    early, result = asyncio.run(go())
    assert early["code"] == "no_frame"
    assert result["type"] == "chess_result", result
    # what was seen is the labelled placement; the analysed FEN may be repaired to a legal position
    assert result["fen_seen"].split()[0] == photo["fen"].split()[0]
    assert result["fen"].split()[0] == result["fen_seen"].split()[0] or result["changed"]
    assert result["lines"] and result["lines"][0]["san"]


def test_control_messages_are_validated():
    assert parse_control('{"type": "ask", "text": "where are my keys?", "id": 3}')["id"] == 3
    for raw, code in [("nope", "bad_json"), ("[]", "bad_message"), ('{"type": "dance"}', "unknown_type"),
                      ('{"type": "ask", "text": "  "}', "bad_message"), ('{"type": "ptt", "on": "yes"}', "bad_message"),
                      ('{"type": "ping", "pad": "' + "x" * 20000 + '"}', "too_large")]:
        with pytest.raises(ProtocolError) as info:
            parse_control(raw)
        assert info.value.code == code, raw
    assert split_binary(pack(KIND_JPEG, b"\xff\xd8")) == (KIND_JPEG, b"\xff\xd8")
    with pytest.raises(ProtocolError):
        split_binary(b"")


def test_playback_stop_drops_queued_and_late_audio():
    playback = Playback()
    gen = playback.generation
    assert playback.enqueue(np.ones(500, np.float32), gen)
    first = playback.pull(320)
    assert first is not None and first.size == 320 and playback.playing
    assert playback.stop() and not playback.playing and playback.pull(320) is None
    assert not playback.enqueue(np.ones(100, np.float32), gen)  # a sentence of the interrupted answer
    tail = Playback()
    tail.enqueue(np.ones(100, np.float32))
    out = tail.pull(320)
    assert out is not None and out[:100].sum() == 100 and not out[100:].any()


def test_wake_phrase_is_matched_loosely():
    wake = wake_pattern("hey co-pilot")
    for said in ("Hey co-pilot, where did I park?", "hey copilot where did I park?", "Hey, Co Pilot. Where did I park?"):
        match = wake.match(said)
        assert match and said[match.end():].startswith("where") or said[match.end():].startswith("Where"), said
    assert wake.match("they copied a pilot") is None


def test_sentences_are_spoken_as_they_end():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["You", " said", " ask", " not.", " Then", " more", " words"]:
        splitter.feed(token)
    assert said == ["You said ask not."]
    splitter.finish()
    assert said == ["You said ask not.", "Then more words"]


def test_first_clause_is_spoken_early_and_numbers_are_not_cut():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["The", " president", " asked", " people,", " in", " 1961", " and", " 3", ",", "000", " times,",
                  " to", " ask.", " Done", " 2", ".", "5", " now."]:
        splitter.feed(token)
    splitter.finish()
    assert said == ["The president asked people,", "in 1961 and 3,000 times, to ask.", "Done 2.5 now."]



def test_first_piece_breaks_before_a_phrase_opener_after_a_few_words():
    said: list[str] = []
    splitter = SentenceSplitter(said.append)
    for token in ["The", " president", " asked", " people", " to", " ask", " what", " they", " can", " do", "."]:
        splitter.feed(token)
    splitter.finish()
    assert said == ["The president asked people", "to ask what they can do."]
    said.clear()
    short = SentenceSplitter(said.append)
    for token in ["Go", " to", " bed", " and", " sleep", " well", "."]:  # too few words before "to"/"and"
        short.feed(token)
    short.finish()
    assert said == ["Go to bed and sleep well."]
