"""Session admission: a fixed number of seats, none while the server is closing."""

from __future__ import annotations

import secrets
from typing import Generic, TypeVar

S = TypeVar("S")


class Seats(Generic[S]):
    """The open sessions of a server, by id."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.sessions: dict[str, S] = {}
        """Open sessions by id."""
        self.closing = False
        """Set at shutdown: no new session is admitted."""

    def admit(self, session: S) -> str | None:
        """Register a session and return its id, or None when the server is full or closing."""
        if self.closing or len(self.sessions) >= self.limit:
            return None
        sid = secrets.token_hex(4)
        self.sessions[sid] = session
        return sid

    def release(self, sid: str) -> None:
        """Forget a closed session."""
        self.sessions.pop(sid, None)
