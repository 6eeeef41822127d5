"""A live session without a transport: messages collected, the real log and fake models, a moved clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from egocli.assistant.fake import ManualClock
from egocli.assistant.serve_options import ServeOptions
from egocli.assistant.serve import build
from egocli.core.config import load_settings
from egocli.store import Store
from tests.waiting import until

FAKES = {"llm": "fake", "tts": "fake", "labeler": "fake", "ocr": "fake", "embedder": "fake", "asr": "fake"}


def test_a_silent_peer_is_pinged_then_closed_and_its_source_finished(tmp_path: Path):
    settings = load_settings(db=tmp_path / "log.db", home=tmp_path / "home", models=FAKES)
    clock = ManualClock()
    host = build(settings, ServeOptions.of(heartbeat_s=5.0, idle_timeout_s=20.0, max_sessions=1), clock=clock)
    sent: list[dict[str, Any]] = []

    async def go() -> tuple[bool, list[str]]:
        session = host.new_session("test", "peer", send=sent.append)
        assert await session.start()
        refused = host.new_session("test", "peer2")
        full = not refused.reserve()
        await session.receive('{"type": "hello"}')
        # the session's clocked loops (frame pace, heartbeat, reminder poll) are waiting on the clock
        await until(lambda: clock.sleeping >= 3, 10, "the session's loops asleep on the clock", seen=lambda: clock.sleeping)
        for n in range(1, 4):  # 15 s of silence: pinged at each heartbeat, still open
            await clock.advance(5.0)
            await until(lambda: [m["type"] for m in sent].count("ping") == n, 10, f"heartbeat ping {n}")
        assert not session.closed.is_set()
        for _ in range(2):  # past 20 s: closed
            await clock.advance(5.0)
        await asyncio.wait_for(session.closed.wait(), 30)
        await host.shutdown()
        return full, [m["type"] for m in sent]

    full, kinds = asyncio.run(go())
    assert full, "a second session was admitted beyond --max-sessions 1"
    assert kinds[0] == "welcome" and kinds.count("ping") >= 3 and kinds[-1] == "bye"
    assert sent[-1]["reason"] == "peer timed out"
    store = Store.open(tmp_path / "log.db")
    try:
        assert store.sources() == []  # a session that logged nothing leaves no empty live source (issue #30.6)
    finally:
        store.close()
