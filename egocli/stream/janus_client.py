"""Simulated glasses in a Janus VideoRoom: publish microphone, camera and a data channel, and
subscribe to the room's agent for its answers (audio and control messages). The reference for
glasses firmware going through Janus, and what the tests and bench/wearers.py drive."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from egocli.stream.client import _camera_track, _ChannelClient, _mic_track
from egocli.stream.janus import KEEPALIVE_S, Handle, JanusSession
from egocli.stream.janus_room import (
    Publisher,
    config,
    join,
    next_change,
    publish,
    room_change,
    subscribe,
)


class JanusGlasses(_ChannelClient):
    """One wearer's glasses: a publisher feed and a subscription to the agent's feed."""

    async def connect(self, url: str, room: int, display: str = "wearer", video: bool = True,
                      api_secret: str | None = None, timeout: float = 30.0,
                      keepalive_s: float = KEEPALIVE_S) -> dict[str, Any]:
        """Publish in the room, wait for the agent, subscribe to it; returns the agent's welcome."""
        from aiortc import RTCPeerConnection

        self.janus = await JanusSession(url, api_secret, keepalive_s=keepalive_s).connect()
        self.pub = RTCPeerConnection(config())
        self.sub = RTCPeerConnection(config())
        self.channel = self.pub.createDataChannel("control")
        self.pub.addTrack(_mic_track(self.feed))
        if video:
            self.pub.addTrack(_camera_track(self.feed))
        self.sub.on("track", lambda track: self.tasks.append(asyncio.ensure_future(self._listen(track))))
        self.sub.on("datachannel", lambda ch: ch.on("message", self._got))
        handle = await self.janus.attach()
        joined = await join(handle, room, display)
        await publish(handle, self.pub)
        agent = await _agent_feed(handle, joined, timeout)
        self.sub_handle = await subscribe(self.janus, room, agent.id, self.sub)
        return await self._greet(timeout)

    async def _greet(self, timeout: float) -> dict[str, Any]:
        """Say hello until the agent (which may still be subscribing to us) answers."""
        deadline = time.monotonic() + timeout
        while True:
            await self.send({"type": "hello"})
            try:
                return await self.wait_for("welcome", timeout=1.0)
            except TimeoutError:
                if time.monotonic() > deadline:
                    raise

    async def _hang_up(self) -> None:
        await self.pub.close()
        await self.sub.close()
        await self.janus.close()


async def _agent_feed(handle: Handle, joined: dict[str, Any], timeout: float) -> Publisher:
    """The room's agent feed: already publishing, or the next to publish."""
    deadline = time.monotonic() + timeout
    feeds = room_change(joined).joined
    while True:
        agent = next((f for f in feeds if f.is_agent), None)
        if agent is not None:
            return agent
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no agent published in the room")
        feeds = (await next_change(handle, left)).joined
