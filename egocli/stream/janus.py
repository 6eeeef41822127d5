"""The Janus gateway API over its WebSocket transport: a session, plugin handles, requests and
the events Janus pushes (https://janus.conf.meetecho.com/docs/rest.html, WebSocket flavour).

Only signalling lives here; media goes through aiortc peers (egocli.stream.janus_room)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

VIDEOROOM = "janus.plugin.videoroom"
KEEPALIVE_S = 25.0
"""Janus drops a session after 60 s without a request by default."""
ACK_ONLY = frozenset({"keepalive", "trickle"})
"""Requests Janus answers with an 'ack' alone (for the others an 'ack' only says a reply follows)."""


class JanusError(ConnectionError):
    """Janus refused a request, or could not be reached."""


def signed_token(secret: str, ttl_s: float = 86400.0, plugins: tuple[str, ...] = (VIDEOROOM,),
                 now: float | None = None) -> str:
    """A Janus token for `token_auth_secret = secret`: valid for ttl_s seconds, for these plugins only.

    What a browser page or a pair of glasses gets instead of the API secret
    ('EXPIRY,janus,PLUGIN...:base64(HMAC-SHA1(secret, 'EXPIRY,janus,PLUGIN...'))')."""
    expiry = int((time.time() if now is None else now) + ttl_s)
    data = ",".join((str(expiry), "janus", *plugins))
    signature = hmac.new(secret.encode(), data.encode(), hashlib.sha1).digest()
    return f"{data}:{base64.b64encode(signature).decode()}"


@dataclass
class Handle:
    """One attached plugin handle; its pushed events arrive on `events`."""

    janus: JanusSession
    id: int
    events: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    async def request(self, body: dict[str, Any], jsep: dict[str, Any] | None = None,
                      timeout: float = 20.0) -> dict[str, Any]:
        """Send a plugin message; the plugin's reply data (and 'jsep' when there is one)."""
        msg: dict[str, Any] = {"janus": "message", "handle_id": self.id, "body": body}
        if jsep is not None:
            msg["jsep"] = jsep
        reply = await self.janus.call(msg, timeout)
        data = dict(reply.get("plugindata", {}).get("data", {}))
        if "error" in data or data.get("videoroom") == "event" and "error_code" in data:
            raise JanusError(f"{body.get('request')}: {data.get('error', data)} (code {data.get('error_code')})")
        if "jsep" in reply:
            data["jsep"] = reply["jsep"]
        return data

    async def trickle_done(self) -> None:
        """Tell Janus no more candidates follow (aiortc puts all of them in the SDP)."""
        await self.janus.call({"janus": "trickle", "handle_id": self.id, "candidate": {"completed": True}})

    async def detach(self) -> None:
        """Release the handle (Janus hangs up its peer connection)."""
        try:
            await self.janus.call({"janus": "detach", "handle_id": self.id}, 5.0)
        except (TimeoutError, JanusError):
            pass
        self.janus.handles.pop(self.id, None)


class JanusSession:
    """A Janus session over one WebSocket, kept alive until closed."""

    def __init__(self, url: str, api_secret: str | None = None, token: str | None = None,
                 keepalive_s: float = KEEPALIVE_S) -> None:
        self.url, self.api_secret, self.token = url, api_secret, token
        self.keepalive_s = keepalive_s
        """Seconds between keepalive requests (Janus's session_timeout must be longer)."""
        self.id: int | None = None
        self.handles: dict[int, Handle] = {}
        self.closed = asyncio.Event()
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ack_ends: set[str] = set()
        self._tasks: list[asyncio.Task[Any]] = []
        self._http: Any = None
        self._ws: Any = None

    async def connect(self, timeout: float = 10.0) -> JanusSession:
        """Open the WebSocket and create the session (JanusError when Janus is not there)."""
        import aiohttp

        self._http = aiohttp.ClientSession()
        try:
            self._ws = await asyncio.wait_for(
                self._http.ws_connect(self.url, protocols=("janus-protocol",), heartbeat=None), timeout)
        except (TimeoutError, aiohttp.ClientError, OSError) as ex:
            await self._http.close()
            raise JanusError(f"cannot reach Janus at {self.url}: {type(ex).__name__}: {ex}") from ex
        self._tasks = [asyncio.ensure_future(self._read())]
        try:
            reply = await self.call({"janus": "create"}, timeout)
        except BaseException:  # refused (secret, token) or no answer: leave nothing open behind
            await self.close()
            raise
        self.id = int(reply["data"]["id"])
        self._tasks.append(asyncio.ensure_future(self._keepalive()))
        return self

    async def attach(self, plugin: str = VIDEOROOM) -> Handle:
        """Attach a plugin handle."""
        reply = await self.call({"janus": "attach", "plugin": plugin})
        handle = Handle(self, int(reply["data"]["id"]))
        self.handles[handle.id] = handle
        return handle

    async def call(self, msg: dict[str, Any], timeout: float = 20.0) -> dict[str, Any]:
        """Send a request and wait for its answer (JanusError on 'error').

        The answer to a keepalive or trickle is Janus's 'ack'; any other request's 'ack' is skipped."""
        if self._ws is None or self._ws.closed:
            raise JanusError("the Janus connection is closed")
        tx = secrets.token_hex(6)
        msg = {**msg, "transaction": tx}
        if self.id is not None:
            msg.setdefault("session_id", self.id)
        for key, value in (("apisecret", self.api_secret), ("token", self.token)):
            if value:
                msg[key] = value
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[tx] = future
        if msg["janus"] in ACK_ONLY:
            self._ack_ends.add(tx)
        try:
            await self._ws.send_str(json.dumps(msg))
            reply = await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(tx, None)
            self._ack_ends.discard(tx)
        if reply.get("janus") == "error":
            err = reply.get("error", {})
            raise JanusError(f"{msg['janus']}: {err.get('reason', reply)} (code {err.get('code')})")
        return reply

    async def _read(self) -> None:
        import aiohttp

        try:
            async for raw in self._ws:
                if raw.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    self._dispatch(json.loads(raw.data))
                except (ValueError, TypeError, AttributeError) as ex:
                    log.warning("janus: unreadable message ignored: %s", ex)
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(JanusError("the Janus connection closed"))
            self.closed.set()

    def _dispatch(self, msg: dict[str, Any]) -> None:
        kind, tx = msg.get("janus"), msg.get("transaction")
        if kind == "ack" and tx not in self._ack_ends:
            return
        future = self._pending.get(tx) if tx else None
        if future is not None and not future.done():
            future.set_result(msg)
            return
        handle = self.handles.get(msg.get("sender", 0))
        if handle is not None:
            handle.events.put_nowait(msg)
        elif kind not in ("keepalive", "timeout"):
            log.debug("janus: event for no handle: %s", kind)
        if kind == "timeout":
            log.warning("janus: session %s timed out", self.id)

    async def _keepalive(self) -> None:
        while not self._ws.closed:
            await asyncio.sleep(self.keepalive_s)
            try:
                await self.call({"janus": "keepalive"}, 10.0)
            except (TimeoutError, JanusError) as ex:
                log.warning("janus: keepalive failed: %s", ex)
                await self._ws.close()
                return

    async def close(self) -> None:
        """Destroy the session and close the socket (safe to call again, or after a failed connect)."""
        if self.id is not None and self._ws is not None and not self._ws.closed:
            try:
                await self.call({"janus": "destroy"}, 3.0)
            except (TimeoutError, JanusError):
                pass
        for task in self._tasks:
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._http is not None:
            await self._http.close()
        self.closed.set()
