"""The aiohttp app of `egocli serve`: the playground page, POST /offer (WebRTC), GET /ws
(WebSocket baseline), GET /api/*; token checks, TLS, and a graceful stop that finishes the log."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import signal
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from egocli.config import Settings
from egocli.errors import UsageError
from egocli.stream import guard
from egocli.stream.hub import LiveHub, ServeOptions
from egocli.stream.protocol import MAX_OFFER_BYTES

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HUB = web.AppKey("hub", LiveHub)


def is_loopback(host: str) -> bool:
    """True for localhost and addresses in 127.0.0.0/8 or ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_options(options: ServeOptions) -> None:
    """Refuse unsafe or inconsistent settings before anything binds."""
    if not is_loopback(options.host) and not options.token:
        raise UsageError(f"--host {options.host} exposes the server beyond this machine: give --token too")
    if (options.cert is None) != (options.key is None):
        raise UsageError("--cert and --key go together")
    for path in (options.cert, options.key):
        if path is not None and not path.is_file():
            raise UsageError(f"{path}: no such file")
    if options.max_sessions < 1 or options.fps <= 0:
        raise UsageError("--max-sessions must be at least 1 and --fps positive")
    for origin in options.allow_origins:
        try:
            guard.normal_origin(origin)
        except ValueError as ex:
            raise UsageError(f"--allow-origin: {ex}") from None


def _given_token(request: web.Request) -> str | None:
    """The token a request carries (Authorization: Bearer preferred; ?token= still accepted), or None."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header.removeprefix("Bearer ").strip()
    return request.query.get("token")


def _authorised(request: web.Request) -> bool:
    token = request.app[HUB].options.token
    if not token:
        return True
    given = _given_token(request) or ""
    return hmac.compare_digest(given.encode(), token.encode())


def _fail(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


async def index(request: web.Request) -> web.StreamResponse:
    """GET /: the playground page."""
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def offer(request: web.Request) -> web.Response:
    """POST /offer: {sdp, type: 'offer'} -> {sdp, type: 'answer', session}."""
    from egocli.stream.rtc import RtcPeer

    hub = request.app[HUB]
    if not _authorised(request):
        return _fail(401, "unauthorised", "missing or wrong token")
    if (request.content_length or 0) > MAX_OFFER_BYTES:
        return _fail(413, "too_large", f"offer larger than {MAX_OFFER_BYTES} bytes")
    try:
        body = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _fail(400, "bad_json", "the body must be JSON {sdp, type}")
    if not isinstance(body, dict) or body.get("type") != "offer" or not isinstance(body.get("sdp"), str):
        return _fail(400, "bad_offer", "expected {\"sdp\": \"...\", \"type\": \"offer\"}")
    peer = RtcPeer(hub, request.remote or "?")
    if not peer.session.reserve():
        await peer.pc.close()
        return _fail(503, "busy", "too many sessions; try again later")
    try:
        sdp = await peer.accept(body["sdp"])
    except Exception as ex:  # aiortc raises assorted errors on malformed SDP: all mean a bad offer
        await peer.close()
        return _fail(400, "bad_offer", f"cannot use this offer: {type(ex).__name__}: {ex}"[:300])
    await peer.session.start()
    hub.keep(asyncio.ensure_future(_close_peer_after(peer)))
    return web.json_response({"sdp": sdp, "type": "answer", "session": peer.session.id})


async def _close_peer_after(peer: Any) -> None:
    await peer.session.closed.wait()
    await peer.pc.close()


async def websocket(request: web.Request) -> web.StreamResponse:
    """GET /ws: the WebSocket baseline."""
    from egocli.stream.ws import handle_ws

    hub = request.app[HUB]
    if not _authorised(request):
        if _given_token(request) is not None:
            return _fail(401, "unauthorised", "missing or wrong token")
        return await handle_ws(request, hub, hello_token=hub.options.token)  # a browser sends it in hello
    return await handle_ws(request, hub)


async def health(request: web.Request) -> web.Response:
    """GET /api/health: sessions in use."""
    hub = request.app[HUB]
    if not _authorised(request):
        return _fail(401, "unauthorised", "missing or wrong token")
    return web.json_response({"ok": True, "sessions": len(hub.sessions), "max_sessions": hub.options.max_sessions})


async def recent(request: web.Request) -> web.Response:
    """GET /api/events?limit=N: the newest events in the log."""
    from egocli.store import EventFilter

    hub = request.app[HUB]
    if not _authorised(request):
        return _fail(401, "unauthorised", "missing or wrong token")
    limit = request.query.get("limit", "20")
    if not limit.isdigit() or not 1 <= int(limit) <= 500:
        return _fail(400, "bad_request", "limit must be 1..500")

    def read() -> list[dict[str, Any]]:
        events = hub.store().events(EventFilter(limit=int(limit)), newest_first=True)
        return [{k: e.to_json()[k] for k in ("id", "local", "modality", "source", "content")} for e in events]

    return web.json_response({"events": await hub.run("writer", read)})


def build_app(hub: LiveHub) -> web.Application:
    """The aiohttp application for a hub."""
    app = web.Application(client_max_size=MAX_OFFER_BYTES)
    app[HUB] = hub
    app.router.add_get("/", index)
    app.router.add_post("/offer", offer)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/events", recent)
    app.router.add_static("/static", STATIC)
    app.on_shutdown.append(hub.shutdown)
    opt = hub.options
    guard.install(app, guard.policy_for(opt.host, opt.allow_origins, opt.max_sessions),
                  lambda remote: sum(1 for s in list(hub.sessions.values()) if s.peer == remote))
    return app


def _ssl_context(options: ServeOptions) -> ssl.SSLContext | None:
    if options.cert is None or options.key is None:
        return None
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        ctx.load_cert_chain(str(options.cert), str(options.key))
    except (ssl.SSLError, OSError) as ex:
        raise UsageError(f"cannot use --cert/--key: {ex}") from ex
    return ctx


async def serve(settings: Settings, options: ServeOptions, stop: asyncio.Event,
                ready: Callable[[str], None] | None = None) -> None:
    """Run the server until `stop` is set, then close every session and finish writing the log."""
    check_options(options)
    if options.ice_loopback:
        from egocli.stream.rtc import allow_loopback_ice

        allow_loopback_ice()
    hub = LiveHub(settings, options)
    tls = _ssl_context(options)
    runner = web.AppRunner(build_app(hub), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, options.host, options.port, ssl_context=tls)
        try:
            await site.start()
        except OSError as ex:
            raise UsageError(f"cannot listen on {options.host}:{options.port}: {ex.strerror or ex}") from ex
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        host = f"[{options.host}]" if ":" in options.host else options.host
        warm = asyncio.ensure_future(hub.warm())
        if ready is not None:
            ready(f"{'https' if tls else 'http'}://{host}:{port}/")
        await stop.wait()
        warm.cancel()
    finally:
        await runner.cleanup()


def run(settings: Settings, options: ServeOptions, ready: Callable[[str], None] | None = None) -> None:
    """Blocking entry point: serve until SIGINT or SIGTERM."""
    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(settings, options, stop, ready)

    asyncio.run(main())
