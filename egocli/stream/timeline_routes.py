"""HTTP routes of the timeline page: GET /timeline and /api/timeline/* over a `TimelineSource`.

Transport only: the source (egocli.usecases.timeline.Timeline) is built by whoever starts the server and passed
in. Every /api route checks the token like the rest of the server; blocking work runs on a thread."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from egocli.core import bounds
from egocli.core.errors import EgoError, InputError, NotFound, StoreError

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024


class TimelineSource(Protocol):
    """What the routes need of the log (egocli.usecases.timeline.Timeline implements it)."""

    def day(self, day: date | None) -> dict[str, Any]: ...
    def digest(self, day: date | None) -> dict[str, Any]: ...
    def density(self, first: date, last: date) -> dict[str, Any]: ...
    def event(self, event_id: int, context: int = 3) -> dict[str, Any]: ...
    def search(self, query: str, limit: int = 50) -> dict[str, Any]: ...
    def media(self, event_id: int) -> Any: ...
    def count(self, since_ms: int, until_ms: int) -> int: ...
    def forget(self, since_ms: int, until_ms: int) -> dict[str, Any]: ...
    def ask(self, question: str, on_token: Callable[[str], None]) -> dict[str, Any]: ...


SOURCE = web.AppKey("timeline", TimelineSource)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _fail(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


def guarded(handler: Handler) -> Handler:
    """EgoError -> JSON error mapping for an /api/timeline route (the server's token middleware guards /api/)."""
    async def run(request: web.Request) -> web.StreamResponse:
        try:
            return await handler(request)
        except NotFound as ex:
            return _fail(404, "not_found", str(ex))
        except (InputError, ValueError, OverflowError) as ex:  # bounds' UsageError is a ValueError
            return _fail(400, "bad_request", str(ex))
        except EgoError as ex:
            return _fail(500, "failed", str(ex))
    return run


def parse_day(text: str | None) -> date | None:
    """A YYYY-MM-DD day (None for None or ''); InputError otherwise."""
    if not text:
        return None
    return bounds.day(text, "day")


async def _blocking(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


def _int(request: web.Request, name: str, default: int | None = None) -> int:
    raw = request.query.get(name)
    if raw is None and default is not None:
        return default
    return bounds.count(raw, name, 0, 10_000)


async def _json_body(request: web.Request) -> dict[str, Any]:
    if request.content_type != "application/json":
        raise InputError("the body must be application/json")
    if (request.content_length or 0) > MAX_BODY:
        raise InputError(f"the body is larger than {MAX_BODY} bytes")
    try:
        body = json.loads(await request.content.read(MAX_BODY + 1))
    except (ValueError, UnicodeDecodeError, RecursionError) as ex:
        raise InputError("the body is not JSON") from ex
    if not isinstance(body, dict):
        raise InputError("the body must be a JSON object")
    return body


async def page(request: web.Request) -> web.StreamResponse:
    """GET /timeline: the page (the data behind it needs the token)."""
    return web.FileResponse(STATIC / "timeline.html", headers={"Cache-Control": "no-store"})


@guarded
async def day(request: web.Request) -> web.Response:
    """GET /api/timeline/day?day=YYYY-MM-DD: that day's events (the newest day with events without ?day)."""
    wanted = parse_day(request.query.get("day"))
    return web.json_response(await _blocking(request.app[SOURCE].day, wanted))


@guarded
async def digest(request: web.Request) -> web.Response:
    """GET /api/timeline/digest?day=YYYY-MM-DD: that day told (digest line, hours, summaries, salient events)."""
    wanted = parse_day(request.query.get("day"))
    return web.json_response(await _blocking(request.app[SOURCE].digest, wanted),
                             headers={"Cache-Control": "no-store"})


@guarded
async def density(request: web.Request) -> web.Response:
    """GET /api/timeline/density?from=D&to=D: events per day."""
    first, last = parse_day(request.query.get("from")), parse_day(request.query.get("to"))
    if first is None:
        raise InputError("from=YYYY-MM-DD is required")
    last = last or min(first, bounds.LAST_DAY - timedelta(days=30)) + timedelta(days=30)
    bounds.day_span(first, last, "from..to")
    return web.json_response(await _blocking(request.app[SOURCE].density, first, last))


@guarded
async def event(request: web.Request) -> web.Response:
    """GET /api/timeline/event/{id}?context=N: an event and its neighbours."""
    event_id = bounds.row_id(request.match_info["id"], "event id")
    context = _int(request, "context", 3)
    return web.json_response(await _blocking(request.app[SOURCE].event, event_id, context))


@guarded
async def search(request: web.Request) -> web.Response:
    """GET /api/timeline/search?q=TEXT: full-text hits, best first."""
    query = request.query.get("q", "")[:500]
    limit = _int(request, "limit", 50)
    try:
        return web.json_response(await _blocking(request.app[SOURCE].search, query, limit))
    except StoreError as ex:  # a query FTS5 cannot read ('"'): the client's to fix
        return _fail(400, "bad_query", str(ex))


@guarded
async def media(request: web.Request) -> web.Response:
    """GET /api/timeline/media/{id}: the event's kept frame."""
    event_id = bounds.row_id(request.match_info["id"], "event id")
    found = await _blocking(request.app[SOURCE].media, event_id)
    return web.Response(body=found.data, content_type=found.content_type,
                        headers={"Cache-Control": "private, max-age=3600"})


@guarded
async def forget(request: web.Request) -> web.Response:
    """POST /api/timeline/forget {since_ms, until_ms, confirm}: without confirm=true only counts."""
    body = await _json_body(request)
    since, until = bounds.epoch_ms(body.get("since_ms"), "since_ms"), bounds.epoch_ms(body.get("until_ms"), "until_ms")
    source = request.app[SOURCE]
    if body.get("confirm") is not True:
        return web.json_response({"would_forget": await _blocking(source.count, since, until)})
    return web.json_response(await _blocking(source.forget, since, until))


@guarded
async def ask(request: web.Request) -> web.StreamResponse:
    """POST /api/timeline/ask {question}: NDJSON stream of {"token"} lines, then {"answer", "citations"}."""
    body = await _json_body(request)
    question = body.get("question")
    if not isinstance(question, str):
        raise InputError("question must be a string")
    reply = web.StreamResponse(headers={"Content-Type": "application/x-ndjson", "Cache-Control": "no-store"})
    await reply.prepare(request)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str] = asyncio.Queue()

    def on_token(token: str) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, token)

    job = loop.run_in_executor(None, request.app[SOURCE].ask, question, on_token)
    while not job.done() or not queue.empty():
        try:
            token = await asyncio.wait_for(queue.get(), timeout=0.2)
        except TimeoutError:
            continue
        await reply.write((json.dumps({"token": token}) + "\n").encode())
    try:
        result = job.result()
        line = {"answer": result.get("text", ""), "citations": result.get("citations", [])}
    except EgoError as ex:
        line = {"error": str(ex)}
    await reply.write((json.dumps(line) + "\n").encode())
    await reply.write_eof()
    return reply


def add_routes(app: web.Application, source: TimelineSource) -> None:
    """Mount the timeline page and its API on an app (the server's, or a browse-only one); the app's token
    middleware guards /api/ (egocli.stream.server.token_middleware)."""
    app[SOURCE] = source
    app.router.add_get("/timeline", page)
    app.router.add_get("/api/timeline/day", day)
    app.router.add_get("/api/timeline/digest", digest)
    app.router.add_get("/api/timeline/density", density)
    app.router.add_get("/api/timeline/event/{id}", event)
    app.router.add_get("/api/timeline/search", search)
    app.router.add_get("/api/timeline/media/{id}", media)
    app.router.add_post("/api/timeline/forget", forget)
    app.router.add_post("/api/timeline/ask", ask)


def browse_app(source: TimelineSource, token: str | None, host: str = "127.0.0.1") -> web.Application:
    """An app serving only the timeline (egocli timeline): no camera, no microphone, no sessions; the same
    Host, Origin and content-type guard as `serve` (a DNS-rebinding page cannot read the log)."""
    from egocli.stream import guard
    from egocli.stream.server import token_middleware

    app = web.Application(client_max_size=MAX_BODY, middlewares=[token_middleware(token)])
    guard.install(app, guard.policy_for(host), lambda remote: 0)
    add_routes(app, source)
    app.router.add_get("/", _redirect)
    app.router.add_static("/static", STATIC)
    return app


async def _redirect(request: web.Request) -> web.StreamResponse:
    raise web.HTTPFound("/timeline")
