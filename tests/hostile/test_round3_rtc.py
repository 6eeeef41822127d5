"""Hostile review round 3, 'not yet probed': the WebRTC /offer data-channel path with oversized and
deeply nested control messages. Each is refused with an error on the channel and the session lives on."""

from __future__ import annotations

import asyncio

import pytest

from egocli.stream.client import RtcClient
from tests.serving import live_server  # noqa: F401


@pytest.mark.slow
def test_deep_and_oversized_data_channel_messages_are_refused_and_the_session_lives(live_server):
    server = live_server()

    async def go() -> tuple[list[str], dict]:
        client = RtcClient()
        await client.connect(server.url, video=False)
        await client.wait_for("welcome")
        client.channel.send("[" * 15000)
        client.channel.send("[" * 3000 + "]" * 3000)
        client.channel.send('{"type": "ping", "pad": "' + "x" * 100_000 + '"}')
        client.channel.send('{"type": "ping", "t": NaN}')
        await client.send({"type": "ping", "t": 7})
        pong = await client.wait_for("pong", t=7)
        codes = [m.get("code") for m in client.inbox if m.get("type") == "error"]
        await client.close()
        return codes, pong

    codes, pong = asyncio.run(go())
    assert codes == ["too_deep", "too_deep", "too_large", "bad_json"], codes
    assert pong["t"] == 7
