"""The aiohttp app of `egocli serve`: the playground page, POST /offer (WebRTC), GET /ws
(WebSocket baseline), GET /api/*; the token check as middleware, TLS, and a graceful stop that
lets the application finish its sessions. What is served comes from an `Application`."""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import signal
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web
from aiohttp.typedefs import Middleware

from egocli.core.errors import UsageError
from egocli.stream import guard
from egocli.stream.host import Application, ServerOptions
from egocli.stream.protocol import MAX_OFFER_BYTES

if TYPE_CHECKING:
    from egocli.stream.rtc import RtcPeer

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
APP = web.AppKey("application", Application)
OPTIONS = web.AppKey("options", ServerOptions)
BACKGROUND = web.AppKey("background", set)
PROTECTED = ("/offer", "/api/")
"""Paths (prefixes) that need the token; the pages and their static files do not, and /ws checks its own
(a browser cannot set headers on a WebSocket: the token may come in its hello)."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def is_loopback(host: str) -> bool:
    """True for localhost and addresses in 127.0.0.0/8 or ::1."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_options(options: ServerOptions) -> None:
    """Refuse unsafe or inconsistent settings before anything binds."""
    if not is_loopback(options.host) and not options.token:
        raise UsageError(f"--host {options.host} exposes the server beyond this machine: give --token too")
    if (options.cert is None) != (options.key is None):
        raise UsageError("--cert and --key go together")
    for path in (options.cert, options.key):
        if path is not None and not path.is_file():
            raise UsageError(f"{path}: no such file")
    for origin in options.allow_origins:
        try:
            guard.normal_origin(origin)
        except ValueError as ex:
            raise UsageError(f"--allow-origin: {ex}") from None
    for url in options.janus:
        try:
            guard.janus_origin(url)
        except ValueError as ex:
            raise UsageError(f"--janus: {ex}") from None


def _given_token(request: web.Request) -> str | None:
    """The token a request carries (Authorization: Bearer preferred; ?token= still accepted), or None."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header.removeprefix("Bearer ").strip()
    return request.query.get("token")


def _authorised(request: web.Request, token: str) -> bool:
    given = _given_token(request) or ""
    return hmac.compare_digest(given.encode(), token.encode())


THROTTLE = web.AppKey("throttle", guard.TokenThrottle)


def token_middleware(token: str | None, throttle: guard.TokenThrottle | None = None) -> Middleware:
    """Refuse requests to the protected paths without the shared token (401); an address that sent
    too many wrong tokens lately gets 429 on them (and on /ws) before its token is even looked at."""
    throttle = throttle or guard.TokenThrottle()

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not token or not (request.path.startswith(PROTECTED) or request.path == "/ws"):
            return await handler(request)
        remote = request.remote or "?"
        if throttle.blocked(remote):
            return _fail(429, "too_many_tries", f"too many wrong tokens; wait {throttle.window_s:g} s")
        if request.path == "/ws":
            return await handler(request)  # /ws checks its own (the token may come in the hello)
        if not _authorised(request, token):
            throttle.failed(remote)
            return _fail(401, "unauthorised", "missing or wrong token")
        return await handler(request)

    return check


def _fail(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


async def index(request: web.Request) -> web.StreamResponse:
    """GET /: the playground page."""
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


async def offer(request: web.Request) -> web.Response:
    """POST /offer: {sdp, type: 'offer'} -> {sdp, type: 'answer', session}."""
    from egocli.stream.rtc import RtcPeer

    if (request.content_length or 0) > MAX_OFFER_BYTES:
        return _fail(413, "too_large", f"offer larger than {MAX_OFFER_BYTES} bytes")
    try:
        body = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _fail(400, "bad_json", "the body must be JSON {sdp, type}")
    if not isinstance(body, dict) or body.get("type") != "offer" or not isinstance(body.get("sdp"), str):
        return _fail(400, "bad_offer", "expected {\"sdp\": \"...\", \"type\": \"offer\"}")
    peer = RtcPeer(request.app[APP].new_session("webrtc", request.remote or "?"), request.app[OPTIONS])
    if not peer.session.reserve():
        await peer.pc.close()
        return _fail(503, "busy", "too many sessions; try again later")
    try:
        sdp = await peer.accept(body["sdp"])
    except Exception as ex:  # aiortc raises assorted errors on malformed SDP: all mean a bad offer
        await peer.close()
        return _fail(400, "bad_offer", f"cannot use this offer: {type(ex).__name__}: {ex}"[:300])
    await peer.session.start()
    _keep(request.app, asyncio.ensure_future(_close_peer_after(peer)))
    return web.json_response({"sdp": sdp, "type": "answer", "session": peer.session.id})


def _keep(app: web.Application, task: asyncio.Future[Any]) -> None:
    """Hold a reference to a background task until it finishes."""
    tasks = app[BACKGROUND]
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def _close_peer_after(peer: RtcPeer) -> None:
    await peer.session.closed.wait()
    await peer.pc.close()


async def websocket(request: web.Request) -> web.StreamResponse:
    """GET /ws: the WebSocket baseline."""
    from egocli.stream.ws import handle_ws

    options = request.app[OPTIONS]
    if options.token and not _authorised(request, options.token):
        remote = request.remote or "?"
        if _given_token(request) is not None:
            request.app[THROTTLE].failed(remote)
            return _fail(401, "unauthorised", "missing or wrong token")
        # a browser cannot set headers on a WebSocket: it sends the token in its hello
        return await handle_ws(request, request.app[APP], options, hello_token=options.token,
                               on_unauthorised=lambda: request.app[THROTTLE].failed(remote))
    return await handle_ws(request, request.app[APP], options)


async def health(request: web.Request) -> web.Response:
    """GET /api/health: sessions in use."""
    return web.json_response({"ok": True, "sessions": request.app[APP].open_sessions(),
                              "max_sessions": request.app[OPTIONS].max_sessions})


async def recent(request: web.Request) -> web.Response:
    """GET /api/events?limit=N: the newest events in the log."""
    from egocli.core import bounds

    try:
        limit = bounds.count(request.query.get("limit", "20"), "limit", 1, 500)
    except UsageError as ex:  # '²'.isdigit() is True, and int('²') a ValueError: one layer decides
        return _fail(400, "bad_request", str(ex))
    return web.json_response({"events": await request.app[APP].recent(limit)})


def build_app(application: Application, options: ServerOptions,
              mount: Callable[[web.Application], None] | None = None) -> web.Application:
    """The aiohttp application serving an Application (`mount` adds more pages, e.g. the timeline)."""
    throttle = guard.TokenThrottle()
    app = web.Application(client_max_size=MAX_OFFER_BYTES, middlewares=[token_middleware(options.token, throttle)])
    app[APP], app[OPTIONS], app[BACKGROUND], app[THROTTLE] = application, options, set(), throttle
    app.router.add_get("/", index)
    app.router.add_post("/offer", offer)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/events", recent)
    app.router.add_static("/static", STATIC)
    if mount is not None:
        mount(app)

    async def shutdown(_: web.Application) -> None:
        await application.shutdown()

    app.on_shutdown.append(shutdown)
    guard.install(app, guard.policy_for(options.host, options.allow_origins, options.max_sessions, options.janus),
                  application.sessions_from)
    return app


def _ssl_context(options: ServerOptions) -> ssl.SSLContext | None:
    if options.cert is None or options.key is None:
        return None
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        ctx.load_cert_chain(str(options.cert), str(options.key))
    except (ssl.SSLError, OSError) as ex:
        raise UsageError(f"cannot use --cert/--key: {ex}") from ex
    return ctx


async def serve(application: Application, options: ServerOptions, stop: asyncio.Event,
                ready: Callable[[str], None] | None = None,
                mount: Callable[[web.Application], None] | None = None) -> None:
    """Serve until `stop` is set, then let the application close every session."""
    check_options(options)
    if options.ice_loopback:
        from egocli.stream.rtc import allow_loopback_ice

        allow_loopback_ice()
    tls = _ssl_context(options)
    runner = web.AppRunner(build_app(application, options, mount), handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, options.host, options.port, ssl_context=tls)
        try:
            await site.start()
        except OSError as ex:
            raise UsageError(f"cannot listen on {options.host}:{options.port}: {ex.strerror or ex}") from ex
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        host = f"[{options.host}]" if ":" in options.host else options.host
        warm = asyncio.ensure_future(application.warm())
        if ready is not None:
            ready(f"{'https' if tls else 'http'}://{host}:{port}/")
        await stop.wait()
        warm.cancel()
    finally:
        await runner.cleanup()


def run_until_signal(main: Callable[[asyncio.Event], Awaitable[None]]) -> None:
    """Blocking: run main(stop) in a new event loop; SIGINT or SIGTERM set `stop`."""
    async def go() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await main(stop)

    asyncio.run(go())
