"""What a live session does besides answering questions from the log: pointing ("what is this?"),
tool requests through the orchestrator (with confirmation and clarification over the control
channel), and announcements of due reminders.

The session calls three hooks: `handle` for every question (True: taken here), `control` for
client messages the session itself does not know, and `watch` as a per-session background task.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from egocli.stream.hub import LiveHub
    from egocli.stream.session import LiveSession


class Assistant:
    """Routes a live session's requests that are not plain questions."""

    def __init__(self, hub: LiveHub) -> None:
        self.hub = hub

    async def handle(self, session: LiveSession, text: str, ref: Any, spoken: bool) -> bool:
        """Take a question if it is a pointing or tool request; False leaves it to the ask core."""
        return False

    async def control(self, session: LiveSession, msg: dict[str, Any]) -> None:
        """A client message of the assistant's own types."""

    async def watch(self, session: LiveSession) -> None:
        """Per-session background work until the session closes."""
        await asyncio.Event().wait()
