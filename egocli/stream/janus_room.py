"""A Janus VideoRoom from an aiortc peer's side: join, publish, subscribe to one feed, and read
who publishes from the room's events. Shared by the agent and the simulated glasses."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from egocli.stream.janus import Handle, JanusError, JanusSession

AGENT_DISPLAY = "egocli-agent"
"""Display name an agent publishes under; a wearer is any other publisher."""


@dataclass(frozen=True)
class Publisher:
    """A publisher in the room."""

    id: int
    """Janus's feed (participant) id."""
    display: str
    """The name it joined with."""

    @property
    def is_agent(self) -> bool:
        """True for an egocli agent's feed."""
        return self.display.startswith(AGENT_DISPLAY)


@dataclass(frozen=True)
class RoomChange:
    """What one VideoRoom event says about publishers."""

    joined: tuple[Publisher, ...] = ()
    """Feeds now publishing."""
    left: tuple[int, ...] = ()
    """Publisher ids that stopped publishing or left."""


def room_change(msg: dict[str, Any]) -> RoomChange:
    """Publishers that came or went according to a pushed event (or a 'joined' reply)."""
    data = msg.get("plugindata", {}).get("data", msg)
    feeds = tuple(Publisher(int(p["id"]), str(p.get("display", ""))) for p in data.get("publishers", ())
                  if isinstance(p, dict) and "id" in p)
    left = tuple(int(data[k]) for k in ("unpublished", "leaving") if isinstance(data.get(k), int))
    return RoomChange(feeds, left)


def config(ice_servers: tuple[str, ...] = ()) -> Any:
    """An RTCConfiguration with only the given STUN/TURN servers (none: no outside contact)."""
    from aiortc import RTCConfiguration, RTCIceServer

    return RTCConfiguration(iceServers=[RTCIceServer(urls=u) for u in ice_servers])


async def join(handle: Handle, room: int, display: str, pin: str | None = None) -> dict[str, Any]:
    """Join a room as a publisher (not yet sending); the 'joined' data with the current publishers."""
    body: dict[str, Any] = {"request": "join", "ptype": "publisher", "room": room, "display": display}
    if pin:
        body["pin"] = pin
    data = await handle.request(body)
    if data.get("videoroom") != "joined":
        raise JanusError(f"join room {room}: unexpected reply {data}")
    return data


async def publish(handle: Handle, pc: Any) -> None:
    """Offer the peer's tracks and data channel to the room and apply Janus's answer."""
    from aiortc import RTCSessionDescription

    await pc.setLocalDescription(await pc.createOffer())
    reply = await handle.request({"request": "publish"},
                                 {"type": "offer", "sdp": pc.localDescription.sdp})
    if "jsep" not in reply:
        raise JanusError(f"publish: no answer from Janus ({reply})")
    await pc.setRemoteDescription(RTCSessionDescription(reply["jsep"]["sdp"], reply["jsep"]["type"]))


async def subscribe(janus: JanusSession, room: int, feed: int, pc: Any,
                    pin: str | None = None) -> Handle:
    """Subscribe `pc` to one feed (all its streams, data included); the subscriber handle."""
    from aiortc import RTCSessionDescription

    handle = await janus.attach()
    body: dict[str, Any] = {"request": "join", "ptype": "subscriber", "room": room, "streams": [{"feed": feed}]}
    if pin:
        body["pin"] = pin
    try:
        offer = await handle.request(body)
        if "jsep" not in offer:
            raise JanusError(f"subscribe to feed {feed}: no offer from Janus ({offer})")
        await pc.setRemoteDescription(RTCSessionDescription(offer["jsep"]["sdp"], offer["jsep"]["type"]))
        if "m=application" in offer["jsep"]["sdp"]:
            open_data(pc)
        await pc.setLocalDescription(await pc.createAnswer())
        await handle.request({"request": "start"}, {"type": "answer", "sdp": pc.localDescription.sdp})
    except BaseException:
        await handle.detach()
        raise
    return handle


def open_data(pc: Any) -> None:
    """Open a data channel from the subscriber's side: Janus relays a publisher's data only once
    the subscriber has an open channel (its own 'data ready'). The channel is handed to the
    peer's 'datachannel' listeners like one Janus opened."""
    channel = pc.createDataChannel("JanusDataChannel")
    pc.emit("datachannel", channel)


async def next_change(handle: Handle, timeout: float | None = None) -> RoomChange:
    """Wait for the next event on a publisher handle that changes who publishes."""
    while True:
        msg = await asyncio.wait_for(handle.events.get(), timeout)
        change = room_change(msg)
        if change.joined or change.left:
            return change
