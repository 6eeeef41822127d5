"""Hostile review round 3, item 1: a first WebSocket message too deep for json.loads must not keep
its session slot (it did: RecursionError escaped `_hello`, the slot stayed taken for good)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

HELLO = {"type": "hello", "audio": {"rate": 16000, "channels": 1}}


async def _first_reply(url: str, hello: str) -> Any:
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(url.replace("http", "ws", 1) + "/ws") as ws:
                await ws.send_str(hello)
                msg = await ws.receive(timeout=20)
                return json.loads(msg.data) if msg.type == aiohttp.WSMsgType.TEXT else msg.type.name
        except aiohttp.WSServerHandshakeError as ex:
            return ex.status


async def _health(url: str, token: str) -> dict[str, Any]:
    async with aiohttp.ClientSession() as http, \
            http.get(url + "/api/health", headers={"Authorization": f"Bearer {token}"}) as resp:
        return await resp.json()


async def _until_closed(ws: Any) -> list[Any]:
    said = []
    try:
        while (msg := await ws.receive(timeout=30)).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            if msg.type == aiohttp.WSMsgType.TEXT:
                body = json.loads(msg.data)
                said.append(body.get("code") or body.get("reason"))
    except aiohttp.ClientConnectionResetError:
        pass
    return said


def test_eight_deep_hellos_leave_no_session_and_an_honest_client_gets_in(serve):
    server = serve("--token", "T", "--max-sessions", "8")

    async def go() -> tuple[list[list[Any]], dict[str, Any], Any, Any]:
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(server.url.replace("http", "ws", 1) + "/ws") for _ in range(8)]
            for i, ws in enumerate(sockets):  # too large to parse before the token; small but too deep
                await ws.send_str("[" * (15000 if i % 2 else 3000))
            said = list(await asyncio.gather(*(_until_closed(ws) for ws in sockets)))
            for ws in sockets:
                await ws.close()
        for _ in range(50):  # the server releases the slots as each socket closes
            health = await _health(server.url, "T")
            if health["sessions"] == 0:
                break
            await asyncio.sleep(0.1)
        honest = await _first_reply(server.url, json.dumps({**HELLO, "token": "T"}))
        big = await _first_reply(server.url, json.dumps({**HELLO, "token": "T", "pad": "x" * 6000}))
        return said, health, honest, big

    said, health, honest, big = asyncio.run(go())
    assert said == [["too_deep", "bad hello"], ["too_large", "bad hello"]] * 4, said
    assert health["sessions"] == 0, health
    assert honest["type"] == "welcome", honest
    assert big.get("code") == "too_large", big  # a first message this big is not parsed before the token
    assert server.proc.poll() is None
