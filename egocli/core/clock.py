"""Time as the live assistant sees it: a Protocol and the real clock (egocli.assistant.fake.FakeClock
is the one that moves only when told)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Time as the assistant sees it (a fake in tests moves it on at will)."""

    def monotonic(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait this long."""
        ...


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        """time.monotonic()."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """asyncio.sleep(seconds)."""
        await asyncio.sleep(seconds)
