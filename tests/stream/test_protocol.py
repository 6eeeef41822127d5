"""The transport's small pieces: control messages, binary framing, the playback buffer, the pacer."""

from __future__ import annotations

import numpy as np
import pytest

from egocli.stream.pcm import Playback
from egocli.stream.pacer import Pacer
from egocli.stream.protocol import KIND_JPEG, ProtocolError, pack, parse_control, split_binary


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


def test_pacer_keeps_chunks_in_real_time_with_a_lead_and_restarts_when_idle():
    now = [100.0]
    pacer = Pacer(0.02, lead=2, clock=lambda: now[0])
    assert not pacer.started
    waits = [pacer.next_in() for _ in range(4)]  # four chunks sent at once: the lead is used up
    assert waits == pytest.approx([-0.02, 0.0, 0.02, 0.04])
    now[0] += 0.04
    assert pacer.next_in() == pytest.approx(0.02)  # chunk 6 of a 20 ms stream, two ahead of the clock
    pacer.reset()
    now[0] += 5.0
    assert not pacer.started and pacer.next_in() == pytest.approx(-0.02)  # a new answer starts a new clock

