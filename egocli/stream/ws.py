"""The WebSocket baseline: the same session over one WebSocket, media in the binary framing of
`egocli.stream.protocol` (PCM chunks, JPEG frames), control as JSON text messages."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from egocli.perception.audio import RATE, resample
from egocli.stream.pcm import float_to_s16, s16_to_float
from egocli.stream.host import Application, ServerOptions, Session
from egocli.stream.pacer import Pacer
from egocli.stream.protocol import (KIND_AUDIO, MAX_HELLO_BYTES, MAX_JPEG_BYTES, AudioFormat, ProtocolError,
                                    audio_format, encode, error, pack, parse_control, split_binary)

log = logging.getLogger(__name__)

HELLO_TIMEOUT_S = 10.0
CHUNK_S = 0.02
LEAD_CHUNKS = 5
"""Answer audio is sent this many 20 ms chunks ahead of real time (the client's jitter buffer)."""


async def _hello(ws: web.WebSocketResponse, token: str | None = None) -> dict[str, Any]:
    """The first message, which must be a hello (carrying the token when one is still needed).

    The deadline is wall-clock: heartbeat pongs do not restart it."""
    msg = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT_S)
    if msg.type != WSMsgType.TEXT:
        raise ProtocolError("bad_message", "the first message must be a JSON hello")
    if len(msg.data) > MAX_HELLO_BYTES:  # checked before parsing: the token comes in this message
        raise ProtocolError("too_large", f"a hello is at most {MAX_HELLO_BYTES} bytes")
    hello = parse_control(msg.data)
    if hello["type"] != "hello":
        raise ProtocolError("bad_message", "the first message must be a hello")
    if token is not None and not hmac.compare_digest(str(hello.pop("token", "")).encode(), token.encode()):
        raise ProtocolError("unauthorised", "missing or wrong token")
    hello.pop("token", None)
    return hello


async def handle_ws(request: web.Request, app: Application, options: ServerOptions,
                    hello_token: str | None = None,
                    on_unauthorised: Callable[[], None] | None = None) -> web.StreamResponse:
    """GET /ws: one live session over a WebSocket (token checked, or hello_token expected in hello;
    on_unauthorised is told of a hello with a missing or wrong one)."""
    ws = web.WebSocketResponse(heartbeat=options.heartbeat_s, max_msg_size=MAX_JPEG_BYTES + 1024)
    session = app.new_session("websocket", request.remote or "?", send=lambda m: ws.send_str(encode(m)))
    if not session.reserve():
        return web.json_response({"error": "busy", "message": "too many sessions; try again later"}, status=503)
    tasks: list[asyncio.Future[Any]] = []
    reason = "websocket closed"
    try:  # whatever fails from here on, the finally gives the slot back
        await ws.prepare(request)
        try:
            hello = await _hello(ws, hello_token)
            fmt = audio_format(hello)
        except (ProtocolError, asyncio.TimeoutError) as ex:
            reason = "bad hello"
            code = ex.code if isinstance(ex, ProtocolError) else "timeout"
            if code == "unauthorised" and on_unauthorised is not None:
                on_unauthorised()
            if not ws.closed:
                await session.send(error(code, str(ex) or "no hello in time"))
            return ws
        await session.start()
        await session.receive(encode(hello))
        tasks += [asyncio.ensure_future(_pump_audio(ws, session)), asyncio.ensure_future(_close_with(ws, session))]
        await _read(ws, session, fmt)
    except Exception:
        reason = "websocket failed"
        log.exception("websocket session failed")
    finally:
        for task in tasks:
            task.cancel()
        await session.close(reason)
        await ws.close()
    return ws


async def _close_with(ws: web.WebSocketResponse, session: Session) -> None:
    """Close the socket when the session ends on its own (bye, timeout, shutdown)."""
    await session.closed.wait()
    await ws.close()


async def _read(ws: web.WebSocketResponse, session: Session, fmt: AudioFormat) -> None:
    async for msg in ws:
        if session.closed.is_set():
            return
        if msg.type == WSMsgType.TEXT:
            await session.receive(msg.data)
        elif msg.type == WSMsgType.BINARY:
            await _binary(session, msg.data, fmt)
        elif msg.type == WSMsgType.ERROR:
            log.info("websocket error: %s", ws.exception())
            return


async def _binary(session: Session, data: bytes, fmt: AudioFormat) -> None:
    try:
        kind, payload = split_binary(data)
    except ProtocolError as ex:
        await session.send(error(ex.code, str(ex)))
        return
    if kind == KIND_AUDIO:
        samples = s16_to_float(payload[: len(payload) - len(payload) % 2], fmt.channels)
        session.feed_audio(resample(samples, fmt.rate, RATE))
    else:
        session.offer_frame(bytes(payload))


async def _pump_audio(ws: web.WebSocketResponse, session: Session) -> None:
    """Send queued answer audio in 20 ms PCM chunks, paced to real time with a small lead."""
    n = int(RATE * CHUNK_S)
    pacer = Pacer(CHUNK_S, lead=LEAD_CHUNKS)
    while not ws.closed:
        chunk = session.playback.pull(n)
        if chunk is None:
            pacer.reset()
            await asyncio.sleep(CHUNK_S)
            continue
        if not pacer.started:
            pacer.start()
        await ws.send_bytes(pack(KIND_AUDIO, float_to_s16(chunk)))
        wait = pacer.next_in()
        if wait > 0:
            await asyncio.sleep(wait)
