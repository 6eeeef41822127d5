"""Deterministic stand-ins at the assistant's Protocol boundaries, for tests and examples:
a clock that moves only when told, and a conversation that records what it is sent and told to say."""

from __future__ import annotations

import asyncio
from typing import Any

from egocli.perception.image import Frame


class ManualClock:
    """A Clock whose time moves only by `advance`; sleepers wake when it passes their time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def monotonic(self) -> float:
        """The current fake time."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced past now + seconds."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move time on and wake the sleepers now due (they run at the caller's next await)."""
        self.now += seconds
        due = [f for at, f in self._sleepers if at <= self.now]
        self._sleepers = [(at, f) for at, f in self._sleepers if at > self.now]
        for future in due:
            if not future.done():
                future.set_result(None)
        await asyncio.sleep(0)

    @property
    def sleeping(self) -> int:
        """Tasks waiting on the clock."""
        return len(self._sleepers)


class FakeConversation:
    """A Conversation without a client: messages sent and texts said are kept in order."""

    def __init__(self, session_id: str = "fake", source_id: int | None = None, frame: Frame | None = None) -> None:
        self.id: str | None = session_id
        self.source_id = source_id
        self._frame = frame
        self.sent: list[dict[str, Any]] = []
        """Messages for the client, oldest first."""
        self.said: list[str] = []
        """Texts spoken, oldest first."""

    @property
    def frame(self) -> Frame | None:
        """The camera frame given at construction (None: no camera yet)."""
        return self._frame

    async def send(self, msg: dict[str, Any]) -> None:
        """Record a message."""
        self.sent.append(msg)

    async def say(self, text: str) -> None:
        """Record a spoken text."""
        self.said.append(text)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """The messages of one type."""
        return [m for m in self.sent if m.get("type") == kind]
