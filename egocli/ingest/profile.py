"""Where ingest time goes: seconds per stage (decode, select, labeler, OCR, VAD, ASR, write...).

Two figures per stage. Wall: the time that stage's own thread spent in it (stages run in several
threads at once, so these add up to more than the wall time). CPU: the CPU time of the stage's own
thread, exact whatever else runs, except for models that compute in their own worker threads
(`pooled`: the speech recogniser), whose CPU is the whole process's while they ran: exact in an
ingest with --no-video, shared with the overlapping stages otherwise."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


class StageClock:
    """Thread-safe totals of seconds and calls per stage name."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.seconds: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def add(self, stage: str, seconds: float, calls: int = 1, cpu: float = 0.0) -> None:
        """Count `seconds` (wall) and `cpu` (process CPU seconds) spent in `stage`."""
        with self._lock:
            self.seconds[stage] = self.seconds.get(stage, 0.0) + seconds
            self.cpu[stage] = self.cpu.get(stage, 0.0) + cpu
            self.calls[stage] = self.calls.get(stage, 0) + calls

    @contextmanager
    def stage(self, name: str, pooled: bool = False) -> Iterator[None]:
        """Time the body of a `with` block as `name` (pooled: its work runs in other threads)."""
        cpu_time = time.process_time if pooled else time.thread_time
        start, cpu = time.perf_counter(), cpu_time()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start, cpu=cpu_time() - cpu)

    def iterate(self, items: Iterable[T], name: str) -> Iterator[T]:
        """Yield from `items`, timing only the work of producing each item (not the consumer's)."""
        it = iter(items)
        while True:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                item = next(it)
            except StopIteration:
                self.add(name, time.perf_counter() - start, 0, time.thread_time() - cpu)
                return
            self.add(name, time.perf_counter() - start, cpu=time.thread_time() - cpu)
            yield item

    def timed(self, model: Any, method: str, name: str, pooled: bool = False) -> Any:
        """`model` with `method` timed as `name` (other attributes pass through; pooled: see `stage`)."""
        return _Timed(model, method, name, self, pooled) if model is not None else None

    def table(self) -> dict[str, dict[str, float]]:
        """{stage: {"seconds": wall s, "cpu": process CPU s, "calls": n}}, slowest first."""
        with self._lock:
            rows = sorted(self.seconds.items(), key=lambda kv: -kv[1])
            return {k: {"seconds": round(v, 3), "cpu": round(self.cpu.get(k, 0.0), 3),
                        "calls": self.calls.get(k, 0)} for k, v in rows}


class _Timed:
    """A model whose one method is timed into a StageClock."""

    def __init__(self, inner: Any, method: str, name: str, clock: StageClock, pooled: bool = False) -> None:
        self._inner, self._method, self._stage, self._clock, self._pooled = inner, method, name, clock, pooled
        self.name = getattr(inner, "name", name)

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._inner, attr)
        if attr != self._method:
            return value

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self._clock.stage(self._stage, self._pooled):
                return value(*args, **kwargs)

        return timed
