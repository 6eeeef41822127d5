"""Issue 17.2 and 17.3: other web pages and greedy peers against a real `egocli serve`.

Each of these passed on main where it should now fail: a WebSocket from Origin
http://evil.example got a welcome; GET /api/events with Host: attacker.example answered 200
(DNS rebinding reads the log); POST /offer with text/plain was parsed (no CORS preflight); the
responses had no CSP / nosniff / Referrer-Policy and said `Server: Python/3.11 aiohttp/3.x`;
two idle WebSockets held both slots of --max-sessions 2 past the 10 s hello deadline because
heartbeat pongs restarted it; one remote address could take every slot."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import aiohttp
import pytest

HELLO = json.dumps({"type": "hello", "audio": {"rate": 16000, "channels": 1}})


async def _ws(url: str, headers: dict[str, str] | None = None, hello: str = HELLO) -> Any:
    """The first reply to a hello (a dict), or the refused handshake's status (an int)."""
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(url.replace("http", "ws", 1) + "/ws", headers=headers or {}) as ws:
                await ws.send_str(hello)
                msg = await ws.receive(timeout=20)
                return json.loads(msg.data) if msg.type == aiohttp.WSMsgType.TEXT else msg.type.name
        except aiohttp.WSServerHandshakeError as ex:
            return ex.status


async def _http(method: str, url: str, **kw: Any) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as http, http.request(method, url, **kw) as resp:
        return resp.status, dict(resp.headers), await resp.read()


def test_other_origins_and_rebound_hosts_are_refused_and_the_own_page_is_not(shared_server):
    server = shared_server
    port = server.url.rsplit(":", 1)[1]
    auth = server.auth  # serve's own per-user secret (it prints it in its URL)

    async def go() -> dict[str, Any]:
        return {
            "evil_ws": await _ws(server.url, {"Origin": "http://evil.example", **auth}),
            "null_ws": await _ws(server.url, {"Origin": "null", **auth}),
            "own_ws": (await _ws(server.url, {"Origin": server.url, **auth}))["type"],
            "glasses_ws": (await _ws(server.url, {"Origin": "https://glasses.example", **auth}))["type"],
            "plain_ws": (await _ws(server.url, auth))["type"],  # not a browser: no Origin
            "rebound": (await _http("GET", server.url + "/api/events",
                                    headers={"Host": f"attacker.example:{port}", **auth}))[0],
            "localhost": (await _http("GET", server.url + "/api/events", headers={"Host": f"localhost:{port}", **auth}))[0],
            "ip": (await _http("GET", server.url + "/api/events", headers=auth))[0],
            "text_plain": (await _http("POST", server.url + "/offer", data=b'{"sdp": "x", "type": "offer"}',
                                       headers={"Content-Type": "text/plain", **auth}))[0],
            "cross_post": (await _http("POST", server.url + "/offer", json={"sdp": "x", "type": "offer"},
                                       headers={"Origin": "http://evil.example", **auth}))[0],
        }

    got = asyncio.run(go())
    assert got == {"evil_ws": 403, "null_ws": 403, "own_ws": "welcome", "glasses_ws": "welcome",
                   "plain_ws": "welcome", "rebound": 421, "localhost": 200, "ip": 200,
                   "text_plain": 415, "cross_post": 403}


def test_every_response_carries_the_security_headers_and_no_versions(shared_server):
    server = shared_server

    async def go() -> list[dict[str, str]]:
        paths = ["/", "/static/app.js", "/api/health", "/nope"]
        return [(await _http("GET", server.url + p))[1] for p in paths]

    for headers in asyncio.run(go()):
        assert "default-src 'self'" in headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["Server"] == "egocli"


def test_deeply_nested_offer_json_is_a_clear_400(shared_server):
    server = shared_server
    body = b"[" * 30_000 + b"]" * 30_000  # on main: RecursionError, a 500
    status, _, raw = asyncio.run(_http("POST", server.url + "/offer", data=body,
                                       headers={"Content-Type": "application/json", **server.auth}))
    assert status == 400 and json.loads(raw)["error"] == "bad_json"


def test_the_token_may_come_in_a_header_or_the_hello_and_nowhere_else_wins(serve):
    server = serve("--token", "s3cret")

    async def go() -> dict[str, Any]:
        with_token = json.dumps({**json.loads(HELLO), "token": "s3cret"})
        wrong = json.dumps({**json.loads(HELLO), "token": "guess"})
        return {"header": (await _ws(server.url, {"Authorization": "Bearer s3cret"}))["type"],
                "hello": (await _ws(server.url, hello=with_token))["type"],
                "wrong_hello": (await _ws(server.url, hello=wrong)).get("code"),
                "no_token": (await _ws(server.url)).get("code"),
                "wrong_header": await _ws(server.url, {"Authorization": "Bearer guess"}),
                "api": (await _http("GET", server.url + "/api/events"))[0],
                "api_header": (await _http("GET", server.url + "/api/events",
                                           headers={"Authorization": "Bearer s3cret"}))[0]}

    assert asyncio.run(go()) == {"header": "welcome", "hello": "welcome", "wrong_hello": "unauthorised",
                                 "no_token": "unauthorised", "wrong_header": 401, "api": 401, "api_header": 200}


def test_idle_sockets_lose_their_slots_at_the_hello_deadline_despite_heartbeats(shared_server):
    server = shared_server

    async def go() -> tuple[Any, list[list[dict[str, Any]]], Any]:
        async with aiohttp.ClientSession() as http:
            idle = [await http.ws_connect(server.url.replace("http", "ws") + "/ws") for _ in range(2)]
            busy = await _ws(server.url)
            # the server pings every 5 s and these clients answer each ping (aiohttp's autoping); the 10 s hello
            # deadline is the server's own wall clock (egocli.stream.ws.HELLO_TIMEOUT_S, no Clock to move), so
            # this waits for what the server does at it: an error, then the socket closed (slot released)
            said = await asyncio.gather(*(_until_closed_by_server(ws) for ws in idle))
            later = await _ws(server.url, server.auth)
            for ws in idle:
                await ws.close()
            return busy, said, later

    busy, said, later = asyncio.run(go())
    assert busy == 503
    assert [[(m["type"], m.get("code") or m.get("reason")) for m in ms] for ms in said] == \
        [[("error", "timeout"), ("bye", "bad hello")]] * 2, said
    assert later["type"] == "welcome"


async def _until_closed_by_server(ws: Any) -> list[dict[str, Any]]:
    """The server's JSON messages up to its closing the socket: a close frame, or the connection gone under
    the client's reply to a ping or to the close (an asyncio.TimeoutError if it stays open 30 s)."""
    said = []
    try:
        while (msg := await ws.receive(timeout=30)).type not in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            if msg.type == aiohttp.WSMsgType.TEXT:
                said.append(json.loads(msg.data))
    except aiohttp.ClientConnectionResetError:
        pass
    return said


def _lan_address() -> str | None:
    """This machine's address on a non-loopback interface, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            addr = s.getsockname()[0]
        except OSError:
            return None
    return None if addr.startswith("127.") else addr


def test_one_remote_address_holds_at_most_half_the_sessions(serve):
    addr = _lan_address()
    if addr is None:
        pytest.skip("no non-loopback interface to connect from")
    server = serve("--host", "0.0.0.0", "--token", "t", "--max-sessions", "4")
    url = server.url.replace("127.0.0.1", addr)

    async def go() -> list[Any]:
        async with aiohttp.ClientSession() as http:
            held = []
            for _ in range(2):
                ws = await http.ws_connect(url.replace("http", "ws") + "/ws", headers={"Authorization": "Bearer t"})
                await ws.send_str(HELLO)
                held.append((ws, json.loads((await ws.receive(timeout=20)).data)["type"]))
            third = await _ws(url, {"Authorization": "Bearer t"})
            local = (await _ws(server.url, {"Authorization": "Bearer t"}))["type"]
            for ws, _ in held:
                await ws.close()
            return [t for _, t in held] + [third, local]

    assert asyncio.run(go()) == ["welcome", "welcome", 429, "welcome"]


def test_a_lone_surrogate_in_a_websocket_question_is_answered_and_the_session_lives(shared_server):
    server = shared_server

    async def go() -> list[str]:
        seen = []
        async with aiohttp.ClientSession() as http, \
                http.ws_connect(server.url.replace("http", "ws") + "/ws", headers=server.auth) as ws:
            await ws.send_str(HELLO)
            await ws.send_str('{"type": "ask", "id": "q", "text": "where are my keys \\ud800?"}')
            await ws.send_str('{"type": "ping", "t": 1}')
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                seen.append(data["type"] if data.get("id") != "q" else f"q:{data['type']}")
                if "q:answer" in seen and "pong" in seen or "q:error" in seen:
                    await ws.send_str('{"type": "bye"}')
                if data["type"] == "bye":
                    break
        return seen

    seen = asyncio.run(go())
    assert "q:answer" in seen and "pong" in seen, seen
