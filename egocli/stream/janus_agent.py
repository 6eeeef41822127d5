"""The Janus transport: an Application served to the wearer of one VideoRoom, through Janus.

The agent publishes its own feed (answer audio and a JSON data channel) and subscribes to the
wearer's (microphone, camera, data channel). One room has one wearer and one agent; the
wearer's session lives while the wearer publishes. Janus down or restarting: retry with
back-off; nothing the session already logged is touched by a reconnect."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from egocli.stream.pcm import Playback
from egocli.stream.host import Application, Session
from egocli.stream.janus import KEEPALIVE_S, Handle, JanusError, JanusSession
from egocli.stream.janus_room import (
    AGENT_DISPLAY,
    Publisher,
    config,
    join,
    next_change,
    publish,
    room_change,
    subscribe,
)
from egocli.stream.protocol import encode
from egocli.stream.rtc import SessionPeer, _speech_track_class, allow_loopback_ice

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AgentOptions:
    """Where the agent's wearer is and how to reach Janus."""

    url: str
    """Janus WebSocket API address (ws:// or wss://)."""
    room: int
    """VideoRoom room id: one wearer's room."""
    api_secret: str | None = None
    """Janus API secret, if Janus is configured with one."""
    token: str | None = None
    """Janus auth token, if Janus uses token authentication."""
    pin: str | None = None
    """The room's PIN, if it has one."""
    ice_servers: tuple[str, ...] = ()
    """STUN/TURN URLs; none by default."""
    ice_loopback: bool = False
    """Use only 127.0.0.1 for ICE (Janus on this machine, no network)."""
    retry_max_s: float = 30.0
    """Longest wait between reconnection attempts."""
    keepalive_s: float = KEEPALIVE_S
    """Seconds between the Janus session's keepalive requests."""


class RoomConflict(JanusError):
    """Another agent already serves the room."""


class _Outbox:
    """The agent's published feed as the current session sees it: answer audio and messages."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.channel: Any = None
        self._idle = Playback()

    @property
    def playback(self) -> Playback:
        """The current session's answer audio (silence between wearers)."""
        return self.session.playback if self.session is not None else self._idle

    def send(self, msg: dict[str, Any]) -> None:
        """Send a control message on the published data channel (dropped until it opens)."""
        if self.channel is not None and self.channel.readyState == "open":
            self.channel.send(encode(msg))


class _WearerLink(SessionPeer):
    """The subscription to the wearer's feed, bound to one live session (answers go out on the agent's own
    published channel, not on this one)."""

    def __init__(self, app: Application, opts: AgentOptions, feed: Publisher, outbox: _Outbox) -> None:
        super().__init__(app.new_session("janus", f"room {opts.room} feed {feed.id} ({feed.display})", outbox.send),
                         opts.ice_servers)
        self.feed, self.opts = feed, opts
        self.handle: Handle | None = None

    async def open(self, janus: JanusSession) -> bool:
        """Start the session and subscribe; False when the application is full."""
        if not await self.session.start():
            await self.pc.close()
            return False
        try:
            self.handle = await subscribe(janus, self.opts.room, self.feed.id, self.pc, self.opts.pin)
        except BaseException:
            await self.close("subscription failed")
            raise
        return True

    async def close(self, reason: str) -> None:
        """End the session (finishing its log writes) and drop the subscription."""
        await self.session.close(reason)
        await self.pc.close()
        if self.handle is not None:
            await self.handle.detach()


class RoomAgent:
    """Serves an Application to the wearer of one room until stopped."""

    def __init__(self, app: Application, opts: AgentOptions) -> None:
        self.app, self.opts = app, opts
        self.link: _WearerLink | None = None
        self.ready = asyncio.Event()
        """Set while the agent publishes in the room."""
        self.publications = 0
        """Times the agent has published in the room (each reconnection publishes again)."""

    async def run(self, stop: asyncio.Event) -> None:
        """Serve the room, reconnecting with back-off, until `stop` is set; then close the session."""
        if self.opts.ice_loopback:
            allow_loopback_ice()
        warm = asyncio.ensure_future(self.app.warm())
        delay = 1.0
        try:
            while not stop.is_set():
                published = self.publications
                try:
                    await self._serve_once(stop)
                except (TimeoutError, JanusError, OSError) as ex:
                    if self.publications > published:  # it was serving: start the back-off afresh
                        delay = 1.0
                    log.warning("room %s: %s; retrying in %.0f s", self.opts.room, ex, delay)
                await self._drop_wearer("janus connection lost")
                if not stop.is_set():
                    await _wait_or(stop, delay)
                    delay = min(delay * 2, self.opts.retry_max_s)
        finally:
            warm.cancel()
            await self._drop_wearer("agent stopped")
            await self.app.shutdown()

    async def _serve_once(self, stop: asyncio.Event) -> None:
        from aiortc import RTCPeerConnection

        janus = await JanusSession(self.opts.url, self.opts.api_secret, self.opts.token,
                                   self.opts.keepalive_s).connect()
        pc = RTCPeerConnection(configuration=config(self.opts.ice_servers))
        outbox = _Outbox()
        try:
            handle = await janus.attach()
            joined = await join(handle, self.opts.room, AGENT_DISPLAY, self.opts.pin)
            me = int(joined["id"])
            feeds = {f.id: f for f in room_change(joined).joined}
            if any(f.is_agent for f in feeds.values()):
                raise RoomConflict(f"room {self.opts.room} already has an agent")
            outbox.channel = pc.createDataChannel("control")
            pc.addTrack(_speech_track_class()(outbox))
            await publish(handle, pc)
            self.publications += 1
            self.ready.set()
            log.info("room %s: agent published as feed %s", self.opts.room, me)
            await self._follow(janus, handle, feeds, me, outbox, stop)
        finally:
            self.ready.clear()
            await self._drop_wearer("agent stopped" if stop.is_set() else "agent reconnecting")
            await pc.close()
            await janus.close()

    async def _follow(self, janus: JanusSession, handle: Handle, feeds: dict[int, Publisher], me: int,
                      outbox: _Outbox, stop: asyncio.Event) -> None:
        """React to the room's publishers until stopped or Janus goes away."""
        ended: set[int] = set()
        while not stop.is_set():
            if janus.closed.is_set():
                raise JanusError("the Janus connection closed")
            if self.link is not None and self.link.session.closed.is_set():
                ended.add(self.link.feed.id)  # said bye or timed out: not taken again until it rejoins
                await self._drop_wearer("session ended")
            waiting = (f for f in feeds.values() if not f.is_agent and f.id not in ended)
            if self.link is None and (wearer := next(waiting, None)):
                await self._take(janus, wearer, outbox)
            try:
                change = await next_change(handle, 1.0)
            except TimeoutError:
                continue
            for feed in change.joined:
                if feed.is_agent and feed.id < me:
                    raise RoomConflict(f"room {self.opts.room}: another agent (feed {feed.id}) joined first")
                feeds[feed.id] = feed
            for gone in change.left:
                feeds.pop(gone, None)
                ended.discard(gone)
                if self.link is not None and self.link.feed.id == gone:
                    await self._drop_wearer("wearer left")

    async def _take(self, janus: JanusSession, wearer: Publisher, outbox: _Outbox) -> None:
        link = _WearerLink(self.app, self.opts, wearer, outbox)
        outbox.session = link.session
        if not await link.open(janus):
            raise JanusError("the assistant refused the session (full)")
        self.link = link
        log.info("room %s: serving wearer feed %s", self.opts.room, wearer.id)

    async def _drop_wearer(self, reason: str) -> None:
        link, self.link = self.link, None
        if link is not None:
            await link.close(reason)


async def _wait_or(event: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except TimeoutError:
        pass
