"""What the transport knows of what it serves: the server's options, and two Protocols the
application behind it implements (a session per client, and the application making them).

The transport carries media and control messages and never looks inside them; whoever starts
the server (egocli.assistant.serve) passes an `Application` down to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from egocli.perception.image import Frame
from egocli.stream.pcm import Playback

Send = Callable[[dict[str, Any]], Awaitable[None] | None]
"""How a session's messages reach its client (a data channel or WebSocket send)."""


@dataclass(frozen=True)
class ServerOptions:
    """How the HTTP(S) server listens and whom it lets in."""

    host: str = "127.0.0.1"
    """Address to bind; anything but loopback needs a token."""
    port: int = 8765
    """TCP port (0: any free port)."""
    token: str | None = None
    """Shared secret checked on /offer, /ws and /api/*."""
    cert: Path | None = None
    """TLS certificate (PEM) for HTTPS."""
    key: Path | None = None
    """TLS private key (PEM)."""
    ice_servers: tuple[str, ...] = ()
    """STUN/TURN URLs; none by default, so no outside server is ever contacted."""
    ice_loopback: bool = False
    """Use only 127.0.0.1 for ICE (same-machine clients, tests in a network-less sandbox)."""
    max_sessions: int = 8
    """Concurrent sessions (reported by /api/health; the application refuses more)."""
    allow_origins: tuple[str, ...] = ()
    """Web origins besides the server's own that may open sessions (a glasses app's page)."""
    janus: tuple[str, ...] = ()
    """Janus WebSocket addresses the playground page may connect to (its agents' gateway)."""
    heartbeat_s: float = 5.0
    """Seconds between WebSocket pings."""


class Session(Protocol):
    """One connected client as the transport drives it."""

    id: str | None
    """Set once a slot is taken."""
    playback: Playback
    """Answer audio the transport plays back to the client."""
    closed: asyncio.Event
    """Set when the session has ended (for whatever reason)."""

    def reserve(self) -> bool:
        """Take a slot now; False when the server is full."""
        ...

    async def start(self) -> bool:
        """Start the session's work; False when the server is full."""
        ...

    def attach(self, send: Send) -> None:
        """Set how messages reach the client."""
        ...

    async def send(self, msg: dict[str, Any]) -> None:
        """Deliver a control message to the client."""
        ...

    async def receive(self, raw: str | bytes) -> None:
        """Handle one control message from the client."""
        ...

    def feed_audio(self, pcm: np.ndarray) -> None:
        """16 kHz mono float32 from the microphone."""
        ...

    def offer_frame(self, frame: Frame) -> None:
        """A camera frame (JPEG bytes or av.VideoFrame)."""
        ...

    async def close(self, reason: str) -> None:
        """End the session (idempotent)."""
        ...


class Application(Protocol):
    """What the server serves: it makes sessions, reports on them and stops them."""

    def new_session(self, transport: str, peer: str, send: Send | None = None) -> Session:
        """A session for a client that has not taken a slot yet."""
        ...

    def open_sessions(self) -> int:
        """Sessions now open."""
        ...

    def sessions_from(self, peer: str) -> int:
        """Sessions now open from this remote address."""
        ...

    async def recent(self, limit: int) -> list[dict[str, Any]]:
        """The newest log entries, for GET /api/events."""
        ...

    async def warm(self) -> None:
        """Get ready for the first client (load models) once the server listens."""
        ...

    async def shutdown(self) -> None:
        """Close every session and stop background work."""
        ...
