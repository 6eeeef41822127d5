"""One pacer for outgoing answer audio: chunks leave in real time, optionally a few chunks ahead."""

from __future__ import annotations

import time
from collections.abc import Callable


class Pacer:
    """Times chunks of `period_s` seconds against a clock, `lead` chunks ahead of real time.

    The first chunk starts the clock; `next_in()` after each chunk says how long to wait before the
    next one; `reset()` (playback went idle) starts over at the next chunk."""

    def __init__(self, period_s: float, lead: int = 0, clock: Callable[[], float] = time.monotonic) -> None:
        self.period_s, self.lead, self.clock = period_s, lead, clock
        self._start: float | None = None
        self.sent = 0
        """Chunks out since the clock started."""

    @property
    def started(self) -> bool:
        """True once the first chunk has gone out."""
        return self._start is not None

    def start(self) -> None:
        """Start the clock now (the first chunk is going out)."""
        self._start, self.sent = self.clock(), 0

    def next_in(self) -> float:
        """Count one more chunk out; seconds to wait before the next (<= 0: due already)."""
        if self._start is None:
            self.start()
        assert self._start is not None
        self.sent += 1
        return self._start + (self.sent - self.lead) * self.period_s - self.clock()

    def reset(self) -> None:
        """Idle: the next chunk starts the clock again."""
        self._start, self.sent = None, 0
