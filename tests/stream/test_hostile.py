"""Hostile or broken peers: clear errors, no crash, nothing lost for the sessions that behave."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import numpy as np
import pytest

from egocli.stream.client import RtcClient, WsClient
from egocli.stream.protocol import KIND_AUDIO, MAX_CONTROL_BYTES, pack
from tests.waiting import until


def _speech(seconds: float = 1.2) -> np.ndarray:
    t = np.arange(int(16000 * seconds), dtype=np.float32) / 16000
    burst = 0.3 * np.sin(2 * np.pi * 180 * t) * (1 + 0.5 * np.sin(2 * np.pi * 4 * t))
    return np.concatenate([np.zeros(16000, np.float32), burst.astype(np.float32)])


async def _post(url: str, body: bytes, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    async with aiohttp.ClientSession() as http:
        async with http.post(url + "/offer", data=body, headers=headers) as resp:
            return resp.status, await resp.json()


async def _get(url: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http:
        async with http.get(url) as resp:
            return resp.status, await resp.json()


def test_garbage_offers_get_clear_errors_and_the_server_lives_on(live_server):
    server = live_server()

    async def go() -> list:
        sdp = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\nthis is not sdp\r\n"
        return [await _post(server.url, b"not json"),
                await _post(server.url, json.dumps({"sdp": 5, "type": "offer"}).encode()),
                await _post(server.url, json.dumps({"sdp": sdp, "type": "offer"}).encode()),
                await _post(server.url, b"{" + b" " * 70_000 + b"}"),
                await _get(server.url + "/api/health")]

    results = asyncio.run(go())
    assert [s for s, _ in results] == [400, 400, 400, 413, 200]
    assert results[0][1]["error"] == "bad_json" and results[2][1]["error"] == "bad_offer"
    assert results[4][1]["sessions"] == 0
    server.stop()
    assert server.sources() == []  # a refused offer leaves nothing in the log


def test_token_is_required_everywhere_when_set(live_server):
    server = live_server(token="s3cret")

    async def go() -> dict:
        out = {"offer": (await _post(server.url, b"{}", token="wrong"))[0],
               "api": (await _get(server.url + "/api/events"))[0],
               "api_ok": (await _get(server.url + "/api/events?token=s3cret"))[0]}
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/") as resp:
                out["page"] = resp.status
        try:
            await WsClient().connect(server.url, token="wrong")
        except ConnectionError as ex:
            out["ws"] = str(ex)
        client = WsClient()
        out["welcome"] = (await client.connect(server.url, token="s3cret"))["type"]
        await client.close()
        return out

    got = asyncio.run(go())
    assert got == {"offer": 401, "api": 401, "api_ok": 200, "page": 200, "ws": got["ws"], "welcome": "welcome"}
    assert got["ws"].startswith("401")


def test_refuses_to_bind_beyond_loopback_without_a_token(cli):
    res = cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert res.exit_code == 2
    assert "--token" in res.stderr


def test_oversized_and_malformed_messages_are_refused_and_the_session_goes_on(live_server):
    server = live_server()

    async def go() -> tuple[list, dict, int | None]:
        client = WsClient()
        await client.connect(server.url)
        await client.ws.send_str(json.dumps({"type": "ask", "text": "x" * MAX_CONTROL_BYTES}))
        await client.ws.send_str("[1, 2")
        await client.ws.send_str(json.dumps({"type": "launch"}))
        await client.ws.send_bytes(pack(KIND_AUDIO, b"\0" * 70_000))
        await client.ws.send_bytes(b"\x09abc")
        await client.send({"type": "ping", "t": 1})
        pong = await client.wait_for("pong", timeout=10, t=1)
        errors = [m["code"] for m in client.inbox if m["type"] == "error"]
        await client.ws.send_bytes(pack(KIND_AUDIO, b"\0" * (5 * 1024 * 1024)))  # beyond any limit
        await until(lambda: client.ws.closed, 10, "the socket closed after a message beyond any limit")
        code = client.ws.close_code
        await client.close(bye=False)
        return errors, pong, code

    errors, pong, code = asyncio.run(go())
    assert errors == ["too_large", "bad_json", "unknown_type", "too_large", "bad_frame"]
    assert pong["type"] == "pong"
    assert code == 1009  # message too big: the socket is closed
    server.stop()
    assert server.sources() == []  # nothing was logged: no empty live source left behind (issue #30.6)


@pytest.mark.parametrize("transport", ["websocket", "webrtc"])
def test_a_peer_vanishing_mid_utterance_keeps_what_it_said(live_server, transport):
    server = live_server(idle_timeout_s=3.0)

    async def go() -> None:
        client = WsClient() if transport == "websocket" else RtcClient()
        await client.connect(server.url, video=False)
        client.feed.say(_speech(2.0))
        # mid-utterance: a partial transcript comes once the burst (1 s in, 2 s long) has lasted a second
        await client.wait_for("transcript", timeout=20, final=False)
        assert not client.feed.drained.is_set(), "the burst ended before the peer vanished"
        await client.close(bye=False)

    asyncio.run(go())
    deadline = asyncio.run(_wait_done(server))
    assert deadline, "the vanished session was never closed"
    assert len(server.events("speech")) == 1


async def _wait_done(server, seconds: float = 15.0) -> bool:
    await until(lambda: server.sources() and all(s.status == "done" for s in server.sources()), seconds,
                "every session's source finished", seen=lambda: [s.status for s in server.sources()])
    return True


def test_twenty_connections_at_once(live_server):
    server = live_server(max_sessions=6)

    async def one(i: int) -> str:
        client = WsClient()
        try:
            await client.connect(server.url, video=False)
        except ConnectionError as ex:
            return str(ex)[:3]
        client.feed.say(_speech())
        await client.wait_for("event", timeout=30, modality="speech")
        await client.close()
        return "ok"

    async def go() -> list[str]:
        return await asyncio.gather(*(one(i) for i in range(20)))

    outcomes = asyncio.run(go())
    assert outcomes.count("ok") == 6 and outcomes.count("503") == 14
    server.stop()
    sources = server.sources()
    assert len(sources) == 6 and all(s.status == "done" for s in sources)
    assert sorted(e.source_id for e in server.events("speech")) == sorted(s.id for s in sources)
