"""The live assistant as the transport sees it: makes sessions, reports on them, stops them."""

from __future__ import annotations

import asyncio
from typing import Any

from egocli.assistant.prefill import LiveWindow
from egocli.assistant.session import Crew, LiveSession
from egocli.store import EventFilter
from egocli.stream.host import Send


class LiveHost:
    """An egocli.stream.host.Application over a crew shared by its sessions."""

    def __init__(self, crew: Crew, window: LiveWindow) -> None:
        self.crew, self.window = crew, window

    @property
    def sessions(self) -> dict[str, LiveSession]:
        """Open sessions by id."""
        return self.crew.seats.sessions

    def new_session(self, transport: str, peer: str, send: Send | None = None) -> LiveSession:
        """A session for a client; it takes a seat with reserve() or start()."""
        return LiveSession(self.crew, transport, peer, send)

    def open_sessions(self) -> int:
        """Sessions now open."""
        return len(self.sessions)

    def sessions_from(self, peer: str) -> int:
        """Sessions now open from this remote address (the guard caps them per address)."""
        return sum(1 for s in list(self.sessions.values()) if s.peer == peer)

    async def recent(self, limit: int) -> list[dict[str, Any]]:
        """The newest events in the log, for GET /api/events."""
        services = self.crew.services

        def read() -> list[dict[str, Any]]:
            events = services.store().events(EventFilter(limit=limit), newest_first=True)
            return [{k: e.to_json()[k] for k in ("id", "local", "modality", "source", "content")} for e in events]

        return await services.run("writer", read)

    async def warm(self) -> None:
        """Load the models, then open the live window."""
        await self.crew.services.warm()
        await self.window.open()

    async def shutdown(self) -> None:
        """Close every session (finishing their log writes), then stop the threads."""
        self.crew.seats.closing = self.crew.services.closing = True
        await asyncio.gather(*(s.close("server shutdown") for s in list(self.sessions.values())),
                             return_exceptions=True)
        await self.crew.services.shutdown()
